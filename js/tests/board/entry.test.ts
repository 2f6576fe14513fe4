// @vitest-environment jsdom
import type { AnyModel } from "@anywidget/types";
import { afterEach, describe, expect, it } from "vitest";
import board, { QUIET_BEFORE_READY_MS } from "../../src/board";
import type { BoardDown, BoardModel, BoardUp } from "../../src/model/wire";
import { schedule } from "../../src/views/frame";
import { part, snapshot } from "../helpers";
import { boardRow, changesMsg, fullMsg, savedBoard } from "./builders";

type Handler = Parameters<AnyModel["on"]>[1];

/** A board model like the one a widget manager hands anywidget. */
class FakeBoardModel implements AnyModel<BoardModel> {
  sent: BoardUp[] = [];
  private values: BoardModel;
  private readonly handlers = new Map<string, Set<Handler>>();
  widget_manager = { get_model: () => Promise.reject(new Error("not in this test")) };

  constructor(values: Partial<BoardModel> = {}) {
    this.values = { title: "sweep", saved: null, ...values };
  }
  get<K extends keyof BoardModel>(key: K): BoardModel[K] {
    return this.values[key];
  }
  set<K extends keyof BoardModel>(key: K, value: BoardModel[K]): void {
    this.setAttribute(key, value);
  }
  /** Set any attribute (a part trait of the saved board too); as Backbone does, each set
   * says `change:<name>` and then `change`. */
  setAttribute(key: string, value: unknown): void {
    this.values = { ...this.values, [key]: value };
    this.emit(`change:${key}`);
    this.emit("change");
  }
  on(event: string, callback: Handler): void {
    const set = this.handlers.get(event) ?? new Set();
    set.add(callback);
    this.handlers.set(event, set);
  }
  off(event?: string | null, callback?: Handler | null): void {
    if (event && callback) this.handlers.get(event)?.delete(callback);
  }
  save_changes(): void {}
  send(content: BoardUp): void {
    this.sent.push(content);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const fn of this.handlers.get(event) ?? []) (fn as (...a: unknown[]) => void)(...args);
  }
  receive(msg: BoardDown): void {
    this.emit("msg:custom", msg, []);
  }
  listenerCount(): number {
    let n = 0;
    for (const set of this.handlers.values()) n += set.size;
    return n;
  }
}

const signal = new AbortController().signal;
const experimental = { invoke: () => Promise.reject(new Error("unused")) };
const host = {
  getWidget: () => Promise.reject(new Error("unused")),
  getModel: () => Promise.reject(new Error("unused")),
};
/** Long enough for a new model that heard no row message to ask for every row. */
const quiet = () => new Promise<void>((resolve) => setTimeout(resolve, QUIET_BEFORE_READY_MS + 20));
const frame = async () => {
  for (let k = 0; k < 3; k++) await new Promise<void>((resolve) => schedule(resolve));
};

function initialize(model: FakeBoardModel): () => void {
  return board.initialize({ model, signal, experimental }) as () => void;
}

/** Render a view of `model` into a new output element; `el` is what the board is drawn in
 * (the element's shadow root), `output` the element itself. */
function render(model: FakeBoardModel, output = document.createElement("div")) {
  document.body.append(output);
  const cleanup = board.render({ model, el: output, signal, host, experimental }) as () => void;
  const el: ParentNode = output.shadowRoot ?? output;
  return { el, output, cleanup };
}

const labels = (el: ParentNode) =>
  [...el.querySelectorAll(".cs-brow .cs-bc-label")].map((cell) => cell.textContent);

afterEach(() => document.body.replaceChildren());

describe("the board widget", () => {
  it("says ready once, shows the kernel's rows and their changes", async () => {
    const model = new FakeBoardModel({ _instance: "b1" });
    initialize(model);
    const { el } = render(model);
    expect(model.sent).toEqual([]); // the board's first messages may be on their way
    await quiet();
    expect(model.sent).toEqual([{ kind: "ready" }]);
    render(model); // every row is on its way already: asking again would bring them twice
    expect(model.sent).toEqual([{ kind: "ready" }]);
    model.receive(fullMsg(3, [boardRow("a", { label: "seoul", status: "running" })]));
    model.receive(
      changesMsg(4, [{ id: "a", status: "finished" }], [boardRow("b", { label: "paris" })]),
    );
    render(model); // the rows came: no new ready
    expect(model.sent).toHaveLength(1);
    await frame();
    expect(labels(el)).toEqual(["seoul", "paris"]);
    expect(el.querySelector(".cs-board-counts")?.textContent).toBe("finished 2");
    expect(el.querySelector(".cs-title")?.textContent).toBe("sweep");
  });

  it("asks nothing of a kernel it heard from the board's first row message on", async () => {
    // The board displayed as it is made: its first rows came while the module loaded, and
    // are handed over right after initialize.
    const model = new FakeBoardModel({ _instance: "b2" });
    initialize(model);
    model.receive(changesMsg(1, [], [boardRow("a", { label: "oslo", status: "running" })]));
    model.receive(changesMsg(2, [{ id: "a", steps: 2 }], [boardRow("b", { label: "rome" })]));
    const { el } = render(model);
    await quiet();
    expect(model.sent).toEqual([]);
    await frame();
    expect(labels(el)).toEqual(["oslo", "rome"]);
    // Live: a run going on can be stopped from the page.
    const stops = [...el.querySelectorAll<HTMLButtonElement>(".cs-brow .cs-bstop")];
    expect(stops.filter((button) => !button.hidden)).toHaveLength(1);
    // A message missed later is a gap: every row is asked for.
    model.receive(changesMsg(4, [{ id: "a", steps: 4 }]));
    expect(model.sent).toEqual([{ kind: "ready" }]);
  });

  it("asks a kernel whose earlier row messages it missed for every row, once", async () => {
    const model = new FakeBoardModel({ _instance: "b3" });
    initialize(model);
    model.receive(changesMsg(7, [], [boardRow("a")]));
    expect(model.sent).toEqual([{ kind: "ready" }]);
    model.receive(changesMsg(8, [{ id: "a", steps: 2 }]));
    await quiet();
    expect(model.sent).toEqual([{ kind: "ready" }]);
    model.receive(fullMsg(9, [boardRow("a", { label: "lima", steps: 2 })]));
    const { el } = render(model);
    await frame();
    expect(labels(el)).toEqual(["lima"]);
  });

  it("shows the saved board with no kernel", () => {
    const model = new FakeBoardModel({ saved: savedBoard([boardRow("a", { label: "kept" })]) });
    initialize(model);
    const { el } = render(model);
    expect(labels(el)).toEqual(["kept"]);
  });

  it("opens, with no kernel, a kept run that the saved board carried in a later part", async () => {
    const kept = (text: string) => snapshot([part("text", { id: "t", text })], { seq: 2 });
    const saved = savedBoard(
      [
        boardRow("a", { label: "first" }),
        boardRow("b", { label: "later" }),
        boardRow("c", { label: "gone" }),
      ],
      {
        save: 7,
        runs: { a: kept("from the first message") },
        runParts: 2,
      },
    );
    // Part 1 is this save's; part 2 is left from an earlier save and must not be used.
    const parts = {
      saved_runs_1: { save: 7, runs: { b: kept("from a later message") } },
      saved_runs_2: { save: 6, runs: { c: kept("stale") } },
    };
    const model = new FakeBoardModel({ saved, ...(parts as Partial<BoardModel>) });
    initialize(model);
    const { el } = render(model);
    const open = async (label: string) => {
      const cell = [...el.querySelectorAll(".cs-brow .cs-bc-label")].find(
        (node) => node.textContent === label,
      );
      (cell as HTMLElement).click();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await frame();
      return el.querySelector(".cs-board-opened")?.textContent ?? "";
    };
    expect(await open("later")).toContain("from a later message");
    expect(await open("first")).toContain("from the first message");
    expect(await open("gone")).not.toContain("stale");
  });

  it("moves the view JupyterLab left off the page into the new output instead of building another", async () => {
    const model = new FakeBoardModel({ _instance: "b2" });
    const wrap = (): FakeBoardModel =>
      Object.assign(Object.create(model) as FakeBoardModel, {
        widget_manager: model.widget_manager,
      });
    initialize(wrap());
    const first = render(wrap());
    model.receive(fullMsg(1, [boardRow("a")]));
    await frame();
    const view = first.el.querySelector(".cs-board");
    const input = first.el.querySelector(".cs-board-filter") as HTMLInputElement;
    input.value = "zzz";
    // As JupyterLab does on a display update: the old view's element leaves the page, a new
    // render is asked for.
    first.output.remove();
    const second = render(wrap());
    expect(second.el.querySelector(".cs-board")).toBe(view);
    const drawn = [...document.querySelectorAll(".cs-shadow-host")].flatMap((output) => [
      ...(output.shadowRoot?.querySelectorAll(".cs-board") ?? []),
    ]);
    expect(drawn).toEqual([view]);
    expect((second.el.querySelector(".cs-board-filter") as HTMLInputElement).value).toBe("zzz");
    // The first render no longer owns the view; the second does.
    first.cleanup();
    expect(second.el.querySelector(".cs-board")).toBe(view);
    second.cleanup();
    expect(second.el.querySelector(".cs-board")).toBeNull();
    // One source for all renders: its messages, its saved board, its title, its libraries.
    expect(model.listenerCount()).toBe(4);
  });

  it("draws the board in a shadow root of the output, with its own sheet and the page's theme mark", async () => {
    document.body.setAttribute("data-jp-theme-light", "true");
    const model = new FakeBoardModel({
      _instance: "b-shadow",
      _styles: ".chunkscope { color: red }",
    });
    initialize(model);
    const { el, output } = render(model);
    model.receive(fullMsg(1, [boardRow("a")]));
    await frame();
    // Nothing of the board is in the page's own tree, where JupyterLab's sheets apply.
    expect(output.querySelector(".cs-board")).toBeNull();
    expect(el.querySelector(".cs-board")).not.toBeNull();
    expect(el.querySelector("style")?.textContent).toBe(".chunkscope { color: red }");
    const mount = el.querySelector(".cs-shadow-mount");
    expect(mount?.getAttribute("data-jp-theme-light")).toBe("true");
    // A switch to a dark theme reaches the board.
    document.body.setAttribute("data-jp-theme-light", "false");
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    expect(mount?.getAttribute("data-jp-theme-light")).toBe("false");
    document.body.removeAttribute("data-jp-theme-light");
  });

  it("styles a board saved before its sheet had a trait of its own with the sheet anywidget kept", () => {
    const model = new FakeBoardModel({ _instance: "b-old", saved: savedBoard([boardRow("a")]) });
    model.setAttribute("_css", ".chunkscope { color: blue }");
    initialize(model);
    const { el } = render(model);
    expect(el.querySelector("style")?.textContent).toBe(".chunkscope { color: blue }");
  });

  it("shows, with no kernel, the rows the saved board carried in its parts, in order", () => {
    const saved = savedBoard([boardRow("a", { label: "first" })], { save: 3, runParts: 2 });
    const parts = {
      saved_runs_1: { save: 3, rows: [boardRow("b", { label: "second" })], runs: {} },
      saved_runs_2: { save: 3, rows: [boardRow("c", { label: "third" })], runs: {} },
    };
    const model = new FakeBoardModel({ saved, ...(parts as Partial<BoardModel>) });
    initialize(model);
    const { el } = render(model);
    expect(labels(el)).toEqual(["first", "second", "third"]);
  });

  it("takes a newer save the kernel writes once all its parts have arrived", async () => {
    const model = new FakeBoardModel();
    initialize(model);
    const { el } = render(model);
    model.set("saved", savedBoard([boardRow("a", { label: "one" })], { save: 1, seq: 2 }));
    await frame();
    expect(labels(el)).toEqual(["one"]);
    // Save 2 comes in three messages: the saved board, then its parts.
    model.set(
      "saved",
      savedBoard([boardRow("a", { label: "one, later" })], { save: 2, seq: 5, runParts: 2 }),
    );
    model.setAttribute("saved_runs_1", {
      save: 2,
      rows: [boardRow("b", { label: "two" })],
      runs: {},
    });
    await frame();
    expect(labels(el)).toEqual(["one"]);
    model.setAttribute("saved_runs_2", {
      save: 2,
      rows: [boardRow("c", { label: "three" })],
      runs: {},
    });
    await frame();
    expect(labels(el)).toEqual(["one, later", "two", "three"]);
  });

  it("follows the saved board and the title the kernel writes", async () => {
    const model = new FakeBoardModel();
    initialize(model);
    const { el } = render(model);
    model.set("saved", savedBoard([boardRow("z", { label: "later" })], { seq: 4 }));
    model.set("title", "renamed");
    await frame();
    expect(labels(el)).toEqual(["later"]);
    expect(el.querySelector(".cs-title")?.textContent).toBe("renamed");
  });

  it("drops its listeners when the model goes away", () => {
    const model = new FakeBoardModel();
    const dispose = initialize(model);
    expect(model.listenerCount()).toBe(4);
    dispose();
    expect(model.listenerCount()).toBe(0);
  });
});
