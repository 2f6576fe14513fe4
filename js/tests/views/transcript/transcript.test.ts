// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { viewAt } from "../../../src/model/scrub";
import {
  applyDown,
  createStore,
  emptyState,
  fromSnapshot,
  type StoreState,
} from "../../../src/model/store";
import type { Op, Part } from "../../../src/model/wire";
import { markdownIsWarm, warmUpMarkdown } from "../../../src/views/markdown";
import { createShared, type PanelContext } from "../../../src/views/panel";
import { mountTranscript, TranscriptView } from "../../../src/views/transcript/view";
import { batch, part, snapshot, waitUntil } from "../../helpers";

function build(parts: Part[], runFields: Record<string, unknown> = {}): StoreState {
  const state = fromSnapshot(snapshot(parts));
  Object.assign(state.run, runFields);
  return state;
}

function apply(state: StoreState, seq: number, ...ops: Op[]): StoreState {
  return applyDown(state, batch(seq, ...ops));
}

function partEl(view: TranscriptView, id: string): HTMLElement {
  const el = view.el.querySelector<HTMLElement>(`[data-part-id="${id}"]`);
  if (el === null) throw new Error(`part ${id} is not drawn`);
  return el;
}

/** A scroller 100 px high whose content is as many px high as it has characters, plus 100. */
function fakeBox(scroller: HTMLElement): HTMLElement {
  let top = 0;
  Object.defineProperty(scroller, "clientHeight", { get: () => 100 });
  Object.defineProperty(scroller, "scrollHeight", {
    get: () => 100 + (scroller.textContent?.length ?? 0),
  });
  Object.defineProperty(scroller, "scrollTop", {
    get: () => top,
    set: (value: number) => {
      top = Math.max(0, Math.min(value, scroller.scrollHeight - 100));
    },
  });
  return scroller;
}

const frame = () => new Promise((resolve) => setTimeout(resolve, 40));

describe("TranscriptView", () => {
  it("moves between cards with the arrow keys when drawn in a shadow root (a board's opened run)", () => {
    const view = new TranscriptView();
    view.draw(
      build([
        part("text", { id: "a", text: "first" }),
        part("tool", { id: "k", toolName: "weather" }),
        part("text", { id: "b", text: "second" }),
      ]),
    );
    const host = document.createElement("div");
    document.body.append(host);
    host.attachShadow({ mode: "open" }).append(view.el);
    const first = partEl(view, "a");
    first.tabIndex = -1;
    first.focus();
    first.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowDown", bubbles: true }));
    expect(host.shadowRoot?.activeElement).toBe(partEl(view, "k"));
    host.remove();
  });

  it("renders text as markdown and redraws only the part that changed", () => {
    const view = new TranscriptView();
    let state = build([
      part("step", { id: "s" }),
      part("text", { id: "a", step: "s", text: "**first**" }),
      part("text", { id: "b", step: "s", text: "second" }),
    ]);
    view.draw(state);
    expect(partEl(view, "a").querySelector("strong")?.textContent).toBe("first");
    const untouched = partEl(view, "a").querySelector(".cs-md-live")?.firstChild;
    state = apply(state, 1, { op: "append", id: "b", field: "text", text: " grows", t: 5 });
    view.draw(state);
    expect(partEl(view, "b").textContent).toContain("second grows");
    expect(partEl(view, "a").querySelector(".cs-md-live")?.firstChild).toBe(untouched);
    expect(view.el.querySelector(".cs-step-head")?.textContent).toBe("Step 1");
  });

  it("shows a tool card whose badge follows the state, with streamed arguments", () => {
    const view = new TranscriptView();
    let state = build([part("tool", { id: "k", toolName: "weather", argsText: '{"city": "Par' })]);
    view.draw(state);
    const card = partEl(view, "k");
    expect(card.querySelector(".cs-tool-name")?.textContent).toBe("weather");
    expect(card.querySelector(".cs-badge")?.textContent).toBe("input streaming");
    expect(card.querySelector(".cs-args-text")?.textContent).toBe('{"city": "Par');

    state = apply(state, 1, {
      op: "set",
      id: "k",
      set: { args: { city: "Paris" }, state: "running" },
      t: 10,
    });
    view.draw(state);
    expect(card.querySelector(".cs-badge")?.textContent).toBe("running");
    expect(card.querySelector(".cs-json")?.textContent).toContain('"Paris"');

    state = apply(state, 2, {
      op: "set",
      id: "k",
      set: { state: "error", error: { message: "city not found" } },
      t: 20,
    });
    view.draw(state);
    expect(card.querySelector(".cs-badge")?.className).toContain("cs-state-error");
    expect(card.querySelector(".cs-error-text")?.textContent).toBe("city not found");
  });

  it("adds the approval, suspension, error and provider pieces of a tool card only when it has them, in order", () => {
    const view = new TranscriptView();
    let state = build([
      part("tool", { id: "k", toolName: "pay", state: "running", args: { amount: 5 } }),
    ]);
    view.draw(state);
    const card = partEl(view, "k");
    const sections = () =>
      Array.from(card.querySelectorAll(":scope > details > summary")).map((s) => s.textContent);
    expect(card.querySelector(".cs-tag")).toBeNull();
    expect(card.querySelector(".cs-error-text")).toBeNull();
    expect(card.querySelectorAll(":scope > details:not([hidden])")).toHaveLength(0);

    state = apply(state, 1, {
      op: "set",
      id: "k",
      set: { state: "suspended", suspendPayload: { reason: "wait" } },
      t: 5,
    });
    view.draw(state);
    state = apply(state, 2, {
      op: "set",
      id: "k",
      set: { state: "awaiting-approval", providerExecuted: true },
      t: 6,
    });
    view.draw(state);
    state = apply(state, 3, {
      op: "set",
      id: "k",
      set: { state: "done", result: { paid: true }, approval: { approved: true } },
      t: 7,
    });
    view.draw(state);
    expect(sections()).toEqual(["approval requested", "suspended with", "result"]);
    expect(card.querySelector(".cs-tag")?.textContent).toBe("provider-executed");
    expect((card.querySelector(".cs-tag") as HTMLElement).hidden).toBe(false);
  });

  it("nests tool outputs and nested runs under their tool", () => {
    const view = new TranscriptView();
    view.draw(
      build([
        part("tool", { id: "k", state: "done", result: { ok: true } }),
        part("output", { id: "o", parent: "k", data: { progress: "half" }, from: "USER" }),
        part("run", { id: "r", parent: "k", label: "researcher" }),
        part("text", { id: "rt", parent: "r", text: "inner answer" }),
      ]),
    );
    const tool = partEl(view, "k");
    const output = tool.querySelector('[data-part-id="o"]') as HTMLElement;
    expect(output.textContent).not.toContain("USER");
    expect(output.querySelector(".cs-label")?.textContent).toMatch(/^output of /);
    expect(output.title).toBe("chunk from: USER");
    const nested = tool.querySelector('[data-part-id="r"]');
    expect(nested?.querySelector("summary")?.textContent).toContain("researcher");
    expect(nested?.querySelector('[data-part-id="rt"]')?.textContent).toContain("inner answer");
    expect(tool.querySelector(".cs-section:not([hidden]) summary")?.textContent).toBe("result");
  });

  it("keeps reasoning open while streaming, then collapses it with its duration", () => {
    const view = new TranscriptView();
    let state = build([part("reasoning", { id: "r", text: "hmm", t0: 100 })]);
    view.draw(state);
    const details = partEl(view, "r").querySelector("details") as HTMLDetailsElement;
    expect(details.open).toBe(true);
    expect(details.querySelector("summary")?.textContent).toBe("Thinking…");
    state = apply(state, 1, { op: "set", id: "r", set: { t1: 1600 }, t: 1600 });
    view.draw(state);
    expect(details.open).toBe(false);
    expect(details.querySelector("summary")?.textContent).toBe("Thought for 1.5 s");
  });

  it("draws files, sources, notices and progress safely", () => {
    const view = new TranscriptView();
    view.draw(
      build([
        part("file", { id: "png", mimeType: "image/png", data: "iVBORw0KGgo=", filename: "a.png" }),
        part("file", {
          id: "svg",
          mimeType: "image/svg+xml",
          data: "PHN2Zz48L3N2Zz4=",
          filename: "a.svg",
        }),
        part("source", { id: "ok", url: "https://example.com/doc", title: "Doc" }),
        part("source", { id: "bad", url: "javascript:alert(1)", title: "Bad" }),
        part("notice", {
          id: "n",
          level: "error",
          notice: "tripwire",
          message: "blocked by moderation",
          detail: null,
        }),
        part("data", {
          id: "d",
          dataType: "data-progress",
          dataId: "job",
          data: { current: 3, total: 4 },
        }),
      ]),
    );
    expect(partEl(view, "png").querySelector("img")?.getAttribute("src")).toBe(
      "data:image/png;base64,iVBORw0KGgo=",
    );
    expect(partEl(view, "svg").querySelector("img")).toBeNull();
    expect(partEl(view, "svg").querySelector("button")?.textContent).toContain("a.svg");
    const link = partEl(view, "ok").querySelector("a");
    expect(link?.getAttribute("rel")).toBe("noopener noreferrer");
    expect(partEl(view, "bad").querySelector("a")).toBeNull();
    expect(partEl(view, "n").textContent).toContain("Tripwire");
    expect(partEl(view, "n").textContent).toContain("blocked by moderation");
    expect(partEl(view, "d").querySelector(".cs-progress-label")?.textContent).toBe("3 / 4");
    expect((partEl(view, "d").querySelector(".cs-progress-fill") as HTMLElement).style.width).toBe(
      "75%",
    );
  });

  it("reports clicks on parts for selection and highlights the selected one", () => {
    const view = new TranscriptView();
    const picked: string[] = [];
    view.onSelect = (id) => picked.push(id);
    view.draw(build([part("text", { id: "t", text: "click me" })]));
    partEl(view, "t")
      .querySelector("p")
      ?.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(picked).toEqual(["t"]);
    view.highlight("t");
    expect(partEl(view, "t").classList.contains("cs-selected")).toBe(true);
  });
});

describe("following the stream", () => {
  /** jsdom has no layout: give the scroller a height that grows with the text. */
  function fakeLayout(view: TranscriptView) {
    return fakeBox(view.el.querySelector(".cs-transcript") as HTMLElement);
  }

  it("sticks to the bottom until the user scrolls up, then offers a jump to the latest", () => {
    const view = new TranscriptView();
    const scroller = fakeLayout(view);
    const jump = view.el.querySelector(".cs-jump") as HTMLButtonElement;
    let state = build([part("text", { id: "t", text: "x".repeat(500) })]);
    view.draw(state);
    expect(scroller.scrollTop).toBe(scroller.scrollHeight - 100);

    scroller.dispatchEvent(new Event("wheel"));
    scroller.scrollTop = 10;
    scroller.dispatchEvent(new Event("scroll"));
    state = apply(state, 1, { op: "append", id: "t", field: "text", text: "y".repeat(300), t: 1 });
    view.draw(state);
    expect(scroller.scrollTop).toBe(10);
    expect(jump.hidden).toBe(false);

    jump.click();
    expect(scroller.scrollTop).toBe(scroller.scrollHeight - 100);
    expect(jump.hidden).toBe(true);
    state = apply(state, 2, { op: "append", id: "t", field: "text", text: "z".repeat(300), t: 2 });
    view.draw(state);
    expect(scroller.scrollTop).toBe(scroller.scrollHeight - 100);
  });

  it("keeps following when the browser moves the view up by itself", () => {
    const view = new TranscriptView();
    const scroller = fakeLayout(view);
    const jump = view.el.querySelector(".cs-jump") as HTMLButtonElement;
    let state = build([part("text", { id: "t", text: "x".repeat(500) })]);
    view.draw(state);
    // Content above the view changed size and the browser moved the view to keep what is on
    // screen, while more text came in below: no wheel, touch or key came before the scroll.
    scroller.scrollTop -= 150;
    scroller.dispatchEvent(new Event("scroll"));
    state = apply(state, 1, { op: "append", id: "t", field: "text", text: "y".repeat(300), t: 1 });
    view.draw(state);
    expect(scroller.scrollTop).toBe(scroller.scrollHeight - 100);
    expect(jump.hidden).toBe(true);
  });

  it("stops following while the user drags the scroll bar", () => {
    const view = new TranscriptView();
    const scroller = fakeLayout(view);
    let state = build([part("text", { id: "t", text: "x".repeat(500) })]);
    view.draw(state);
    scroller.dispatchEvent(new Event("pointerdown"));
    scroller.scrollTop = 40;
    scroller.dispatchEvent(new Event("scroll"));
    window.dispatchEvent(new Event("pointerup"));
    state = apply(state, 1, { op: "append", id: "t", field: "text", text: "y".repeat(300), t: 1 });
    view.draw(state);
    expect(scroller.scrollTop).toBe(40);
  });

  it("opens a run this page watched live at the bottom, even once it has ended", () => {
    const view = new TranscriptView();
    view.followedLive = true;
    const scroller = fakeLayout(view);
    view.draw(build([part("text", { id: "t", text: "x".repeat(500), t1: 9 })], { ended: true }));
    expect(scroller.scrollTop).toBe(scroller.scrollHeight - 100);
  });

  it("opens a finished run at its start", () => {
    const view = new TranscriptView();
    const scroller = fakeLayout(view);
    view.draw(build([part("text", { id: "t", text: "x".repeat(500), t1: 9 })], { ended: true }));
    expect(scroller.scrollTop).toBe(0);
    expect((view.el.querySelector(".cs-jump") as HTMLElement).hidden).toBe(true);
  });
});

describe("mountTranscript", () => {
  function context(state: StoreState): PanelContext {
    return {
      store: createStore(state),
      selection: createShared<string | null>(null),
      scrubTime: createShared<number | null>(null),
      scrollToPart: () => {},
    };
  }

  it("redraws from the store and shows a past state while scrubbing", async () => {
    let state = applyDown(
      emptyState(),
      batch(1, { op: "add", part: part("text", { id: "t", t0: 0 }) }),
    );
    const ctx = context(state);
    const container = document.createElement("div");
    const handle = mountTranscript(container, ctx, viewAt);
    ctx.store.dispatch(batch(2, { op: "append", id: "t", field: "text", text: "early ", t: 100 }));
    ctx.store.dispatch(batch(3, { op: "append", id: "t", field: "text", text: "late", t: 2000 }));
    await frame();
    expect(container.textContent).toContain("early late");

    ctx.scrubTime.set(1000);
    await frame();
    expect(container.querySelector(".cs-scrub-banner")?.textContent).toContain("viewing t = 1.0 s");
    expect(container.querySelector('[data-part-id="t"]')?.textContent?.trim()).toBe("early");

    (container.querySelector(".cs-scrub-banner button") as HTMLButtonElement).click();
    await frame();
    expect(ctx.scrubTime.get()).toBeNull();
    expect(container.textContent).toContain("early late");
    handle.unmount();
    expect(container.children).toHaveLength(0);
    state = ctx.store.get();
    expect(state.seq).toBe(3);
  });

  it("tells a view built after the run ended that this page watched it live", async () => {
    // With the parser warm, the text is drawn as markdown at once: jsdom has no
    // ResizeObserver to follow the bottom when plain text becomes markdown a frame later.
    warmUpMarkdown();
    await waitUntil(markdownIsWarm);
    const streaming = applyDown(
      emptyState(),
      batch(1, { op: "add", part: part("text", { id: "t", t0: 0, text: "going" }) }),
    );
    const watched = context(streaming);
    const first = mountTranscript(document.createElement("div"), watched, viewAt);
    watched.store.dispatch(batch(2, { op: "run", set: { ended: true } }));
    await frame();
    first.unmount();
    const scrolled = async (ctx: PanelContext): Promise<HTMLElement> => {
      const container = document.createElement("div");
      mountTranscript(container, ctx, viewAt);
      const scroller = fakeBox(container.querySelector(".cs-transcript") as HTMLElement);
      await frame();
      return scroller;
    };
    const again = await scrolled(watched);
    expect(again.scrollTop).toBe(again.scrollHeight - 100);
    expect(again.scrollTop).toBeGreaterThan(0);

    // Only the page that saw the run stream remembers it.
    const ended = build([part("text", { id: "t", text: "x".repeat(500), t1: 9 })], { ended: true });
    const fresh = await scrolled(context(ended));
    expect(fresh.scrollTop).toBe(0);
  });
});
