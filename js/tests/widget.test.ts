// @vitest-environment jsdom
import type { AnyModel } from "@anywidget/types";
import { describe, expect, it, vi } from "vitest";
import { libraries } from "../src/libraries/bundle";
import { type SavedSnapshot, savedSeq } from "../src/model/persisted";
import type { Down, Model, Snapshot, Up } from "../src/model/wire";
import { provideLibraries, REGISTRY_KEY } from "../src/views/libraries";
import widget, { LIVE_SAVE_MAX_CHARS, NO_KERNEL, SAVE_EVERY_MS } from "../src/widget";
import { batch, part, row, run, snapshot, snapshotMsg, transient, waitUntil } from "./helpers";

/** The library's own handler type (its last `on` overload). */
type Handler = Parameters<AnyModel["on"]>[1];

/** A model like the one a widget manager hands anywidget: traits, events, sent messages. */
class FakeModel implements AnyModel<Model> {
  sent: Up[] = [];
  private values: Model;
  private readonly handlers = new Map<string, Set<Handler>>();
  widget_manager = { get_model: () => Promise.reject(new Error("not in this test")) };

  constructor(values: Partial<Model> = {}) {
    this.values = { title: "demo", snapshot: null, ...values };
  }
  get<K extends keyof Model>(key: K): Model[K] {
    return this.values[key];
  }
  set<K extends keyof Model>(key: K, value: Model[K]): void {
    this.values = { ...this.values, [key]: value };
    this.emit(`change:${String(key)}`);
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
  send(content: Up): void {
    this.sent.push(content);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const fn of this.handlers.get(event) ?? []) (fn as (...a: unknown[]) => void)(...args);
  }
  receive(msg: Down): void {
    this.emit("msg:custom", msg, []);
  }
  listenerCount(): number {
    let n = 0;
    for (const set of this.handlers.values()) n += set.size;
    return n;
  }
}

const frame = () => new Promise((resolve) => setTimeout(resolve, 40));
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const signal = new AbortController().signal;
const experimental = { invoke: () => Promise.reject(new Error("unused")) };
const host = {
  getWidget: () => Promise.reject(new Error("unused")),
  getModel: () => Promise.reject(new Error("unused")),
};

function initialize(model: FakeModel): () => void {
  return widget.initialize({ model, signal, experimental }) as () => void;
}

function render(model: FakeModel): { el: HTMLElement; cleanup: () => void } {
  const el = document.createElement("div");
  document.body.append(el);
  const cleanup = widget.render({ model, el, signal, host, experimental }) as () => void;
  return { el, cleanup };
}

/** What the page told the kernel of the batches it holds (the libraries' request aside,
 * which the tests of host/libraries.ts follow). */
const readies = (model: FakeModel): Up[] => model.sent.filter((up) => up.kind !== "libraries");

const textOf = (el: HTMLElement, id: string) =>
  el.querySelector(`[data-part-id="${id}"]`)?.textContent ?? "";

describe("widget", () => {
  it("says in its status why text stays plain when its libraries cannot be loaded", async () => {
    // A page of its own, without the libraries the other tests are given.
    const page = globalThis as unknown as Record<string, unknown>;
    const given = page[REGISTRY_KEY];
    delete page[REGISTRY_KEY];
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const model = new FakeModel();
      initialize(model);
      const view = render(model);
      model.receive(snapshotMsg(snapshot([part("text", { id: "t", text: "Some *words*" })])));
      model.set("_libraries", "not a module at all");
      const problems = () => view.el.querySelector(".cs-problems")?.textContent ?? "";
      await waitUntil(() => problems().includes("could not be loaded"));
      expect(problems()).toContain(
        "text is shown as plain text: the markdown libraries could not be loaded",
      );
      expect(textOf(view.el, "t")).toContain("Some *words*");
      view.cleanup();
    } finally {
      // What waits for this page's libraries (the parser's warm-up) gets them, and the
      // other tests get their page back.
      provideLibraries(libraries);
      page[REGISTRY_KEY] = given;
      errors.mockRestore();
    }
  });

  it("says ready, applies the kernel's messages, and every view shows the same run", async () => {
    const model = new FakeModel();
    initialize(model);
    const first = render(model);
    expect(readies(model)).toEqual([{ kind: "ready", have: 0 }]);
    await tick();
    // The module's own ready, due after its first task, would say the same: not sent again.
    expect(readies(model)).toEqual([{ kind: "ready", have: 0 }]);

    model.receive(snapshotMsg(snapshot([part("text", { id: "t", text: "Hello" })], { seq: 1 })));
    model.receive(batch(2, { op: "append", id: "t", field: "text", text: " world", t: 10 }));
    const second = render(model);
    expect(readies(model)).toHaveLength(1); // the store has a snapshot: no new ready
    await frame();
    // The model asked its kernel for the libraries once, after its views were drawn.
    expect(model.sent.filter((up) => up.kind === "libraries")).toHaveLength(1);
    expect(textOf(first.el, "t")).toContain("Hello world");
    expect(textOf(second.el, "t")).toContain("Hello world");
    first.cleanup();
    second.cleanup();
    expect(first.el.children).toHaveLength(0);
  });

  it("draws batches sent before it said ready, and takes `synced` as the kernel's answer", async () => {
    const model = new FakeModel();
    initialize(model);
    // A view displayed before its run began is sent batches at once; they reach the module
    // right after it is initialized, before its ready goes out.
    model.receive(batch(1, { op: "add", part: part("text", { id: "t", text: "Hel" }) }));
    model.receive(batch(2, { op: "append", id: "t", field: "text", text: "lo", t: 3 }));
    const view = render(model);
    await tick();
    expect(readies(model)).toEqual([{ kind: "ready", have: 2 }]); // once, from the view
    model.receive({ kind: "synced", seq: 2 });
    model.receive(batch(3, { op: "append", id: "t", field: "text", text: " world", t: 4 }));
    await frame();
    expect(textOf(view.el, "t")).toContain("Hello world");
    expect(model.sent.some((up) => up.kind === "resync")).toBe(false);
    // A kernel ahead of the page means a batch was lost: the page asks for a snapshot.
    model.receive({ kind: "synced", seq: 5 });
    expect(model.sent.at(-1)).toEqual({ kind: "resync", have: 3 });
    view.cleanup();
  });

  it("says ready again when batches came between a view's ready and the module's own", async () => {
    const model = new FakeModel();
    initialize(model);
    const view = render(model);
    model.receive(batch(1, { op: "add", part: part("text", { id: "t", text: "Hi" }) }));
    await tick();
    // The kernel answers the second with `synced`, not with a snapshot repeating batch 1.
    expect(readies(model)).toEqual([
      { kind: "ready", have: 0 },
      { kind: "ready", have: 1 },
    ]);
    view.cleanup();
  });

  it("shows a saved run from the snapshot trait with no kernel", async () => {
    const saved: Snapshot = snapshot([part("text", { id: "t", text: "saved *answer*", t1: 5 })], {
      seq: 4,
      run: run({ title: "Saved run", status: "finished", ended: true, chunkCount: 7 }),
    });
    const model = new FakeModel({ snapshot: saved });
    initialize(model);
    const { el } = render(model);
    // As markdown once the parser has warmed up (plain text before).
    await waitUntil(() => el.querySelector('[data-part-id="t"] em') !== null);
    expect(el.querySelector('[data-part-id="t"] em')?.textContent).toBe("answer");
    expect(el.querySelector(".cs-title")?.textContent).toBe("Saved run");
    expect(el.querySelector(".cs-status")?.textContent).toContain("7 chunks");
    expect((el.querySelector(".cs-stop") as HTMLButtonElement).disabled).toBe(true);
  });

  it("keeps a copy of a small run for saving, but does not copy a run of megabytes while it streams", async () => {
    const small = new FakeModel();
    initialize(small);
    render(small);
    small.receive(snapshotMsg(snapshot([part("text", { id: "t", text: "short" })], { seq: 1 })));
    const large = new FakeModel();
    initialize(large);
    render(large);
    const long = "word ".repeat(LIVE_SAVE_MAX_CHARS / 5 + 1);
    large.receive(snapshotMsg(snapshot([part("text", { id: "t", text: long })], { seq: 1 })));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(savedSeq(small.get("snapshot") as SavedSnapshot)).toBe(1);
    // The kernel keeps a large run in its packed snapshot; the page copies it only when
    // the kernel dies.
    expect(large.get("snapshot")).toBeNull();
  });

  it("does not copy a run that grew past the limit between planning the copy and making it", async () => {
    const model = new FakeModel();
    initialize(model);
    render(model);
    model.receive(snapshotMsg(snapshot([part("text", { id: "t", text: "short" })], { seq: 1 })));
    await waitUntil(() => savedSeq(model.get("snapshot") as SavedSnapshot) === 1);
    // The next copy is planned for a second later; the run grows by megabytes meanwhile.
    model.receive(batch(2, { op: "append", id: "t", field: "text", text: " and more", t: 1 }));
    const long = "word ".repeat(LIVE_SAVE_MAX_CHARS / 5 + 1);
    model.receive(batch(3, { op: "append", id: "t", field: "text", text: long, t: 2 }));
    await new Promise((resolve) => setTimeout(resolve, SAVE_EVERY_MS + 300));
    expect(savedSeq(model.get("snapshot") as SavedSnapshot)).toBe(1);
  });

  it("takes a newer saved snapshot when the trait changes", async () => {
    const model = new FakeModel();
    initialize(model);
    const { el } = render(model);
    model.set(
      "snapshot",
      snapshot([part("text", { id: "t", text: "from the trait" })], { seq: 3 }),
    );
    await frame();
    expect(textOf(el, "t")).toContain("from the trait");
  });

  it("asks for the chunk rows once, when the Chunks tab opens and a kernel has answered", async () => {
    const model = new FakeModel();
    initialize(model);
    const { el } = render(model);
    const chunksTab = () =>
      Array.from(el.querySelectorAll<HTMLButtonElement>(".cs-tab")).find(
        (b) => b.textContent === "Chunks",
      );
    chunksTab()?.click();
    expect(model.sent.filter((m) => m.kind === "rows")).toEqual([]); // no kernel yet
    const live = snapshot([part("text", { id: "t", chunk: 0 })], { seq: 1 });
    delete live.rows;
    model.receive(snapshotMsg(live));
    expect(model.sent.filter((m) => m.kind === "rows")).toEqual([{ kind: "rows" }]);
    await frame();
    expect(el.querySelector(".cs-inspector-count")?.textContent).toContain(
      "loading the chunk rows",
    );
    model.receive({
      kind: "rows",
      seq: 1,
      offset: 0,
      total: 2,
      rows: [row(0, { part: "t" }), row(1, { part: "t" })],
    });
    await frame();
    expect(el.querySelectorAll(".cs-inspector .cs-row").length).toBe(2);
    expect(el.querySelector(".cs-inspector-count")?.textContent).toBe("2 rows");
    chunksTab()?.click();
    model.receive(batch(2, { op: "rows", rows: [row(2)] }));
    expect(model.sent.filter((m) => m.kind === "rows")).toHaveLength(1);
  });

  it("keeps one store per model although anywidget wraps the model anew for every call", async () => {
    const model = new FakeModel({ _instance: "a1" });
    // As anywidget does: a fresh object per initialize and per render, over the same model.
    const wrap = (): FakeModel =>
      Object.assign(Object.create(model) as FakeModel, { widget_manager: model.widget_manager });
    initialize(wrap());
    const first = render(wrap());
    const second = render(wrap());
    // msg:custom, change:snapshot and change:_libraries, once
    expect(model.listenerCount()).toBe(3);
    model.receive(
      snapshotMsg(snapshot([part("text", { id: "t", text: "one store" })], { seq: 1 })),
    );
    model.receive(batch(2, { op: "append", id: "t", field: "text", text: " for all views", t: 3 }));
    await frame();
    expect(textOf(first.el, "t")).toContain("one store for all views");
    expect(textOf(second.el, "t")).toContain("one store for all views");
    // A second model (another view made in Python) has a store of its own.
    const other = new FakeModel({ _instance: "b2" });
    other.widget_manager = model.widget_manager;
    initialize(other);
    expect(other.listenerCount()).toBe(3);
    first.cleanup();
    second.cleanup();
  });

  it("asks for a resync once per gap", () => {
    const model = new FakeModel();
    initialize(model);
    model.receive(snapshotMsg(snapshot([], { seq: 0 })));
    model.receive(batch(1, { op: "run", set: { status: "running" } }));
    model.receive(batch(3, { op: "run", set: { chunkCount: 9 } }));
    model.receive(batch(4, { op: "run", set: { chunkCount: 10 } }));
    expect(model.sent.filter((m) => m.kind === "resync")).toEqual([{ kind: "resync", have: 1 }]);
    model.receive(snapshotMsg(snapshot([], { seq: 4 })));
    model.receive(batch(6));
    expect(model.sent.filter((m) => m.kind === "resync")).toEqual([
      { kind: "resync", have: 1 },
      { kind: "resync", have: 4 },
    ]);
  });

  it("sends stop from the Stop button and shows live-only activity", async () => {
    const model = new FakeModel();
    initialize(model);
    const { el } = render(model);
    model.receive(
      snapshotMsg(snapshot([], { seq: 0 }), [transient(0, "data-status", "s", { percent: 40 })]),
    );
    await frame();
    const activity = el.querySelector(".cs-activity") as HTMLElement;
    expect(activity.hidden).toBe(false);
    expect(activity.textContent).toContain("live only, not saved");
    expect(activity.querySelector(".cs-activity-item")?.textContent).toBe("data-status #s40%");
    const stop = el.querySelector(".cs-stop") as HTMLButtonElement;
    expect(stop.disabled).toBe(false);
    stop.click();
    expect(model.sent.at(-1)).toEqual({ kind: "stop" });
  });

  it("fetches a held value when the user wants more than the preview, and shows it", async () => {
    const model = new FakeModel();
    initialize(model);
    const { el } = render(model);
    const held = { result: { token: 9, size: 2_000_014, lengths: { "$/blob": 2_000_000 } } };
    const tool = part("tool", {
      id: "big",
      state: "done",
      args: { q: 1 },
      result: { blob: "y".repeat(400) },
      held,
    });
    model.receive(snapshotMsg(snapshot([tool], { seq: 1 })));
    await frame();
    const more = () =>
      Array.from(el.querySelectorAll(".cs-more")).find((b) =>
        b.textContent?.includes("more chars"),
      );
    expect(more()?.textContent).toBe("show more (1999600 more chars)");
    (more() as HTMLButtonElement).click();
    expect(model.sent.at(-1)).toEqual({ kind: "fetch", part: "big", field: "result", token: 9 });
    expect(el.querySelector(".cs-more")?.textContent).toBe("loading the full value… 0 of 1,954 KB");

    const text = JSON.stringify({ blob: "y".repeat(2_000_000) });
    const half = Math.ceil(text.length / 2);
    model.receive({
      kind: "held",
      part: "big",
      field: "result",
      token: 9,
      index: 0,
      count: 2,
      text: text.slice(0, half),
    });
    expect(el.querySelector(".cs-more")?.textContent).toBe(
      "loading the full value… 977 of 1,954 KB",
    );
    model.receive({
      kind: "held",
      part: "big",
      field: "result",
      token: 9,
      index: 1,
      count: 2,
      text: text.slice(half),
    });
    await frame();
    const blob = el.querySelector('[data-part-id="big"] .cs-json-string');
    expect(blob?.textContent?.length).toBeGreaterThan(20_000);
    expect(more()?.textContent).toBe("show more (1979600 more chars)");
  });

  it("says at once that a held value needs the kernel when no kernel answered", async () => {
    const held = { result: { token: 3, size: 900_014, lengths: { "$/blob": 900_000 } } };
    const tool = part("tool", {
      id: "big",
      state: "done",
      result: { blob: "y".repeat(400) },
      held,
    });
    const model = new FakeModel({ snapshot: snapshot([tool], { seq: 4 }) });
    initialize(model);
    const { el } = render(model);
    await frame();
    const more = Array.from(el.querySelectorAll(".cs-more")).find((b) =>
      b.textContent?.includes("more chars"),
    );
    (more as HTMLButtonElement).click();
    expect(model.sent.some((up) => up.kind === "fetch")).toBe(false);
    expect(el.textContent).toContain(NO_KERNEL);
  });

  it("drops its listeners when the model goes away", () => {
    const model = new FakeModel();
    const dispose = initialize(model);
    expect(model.listenerCount()).toBeGreaterThan(0);
    dispose();
    expect(model.listenerCount()).toBe(0);
  });
});
