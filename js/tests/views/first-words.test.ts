// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { viewAt } from "../../src/model/scrub";
import { createStore, emptyState, fromSnapshot, type Store } from "../../src/model/store";
import type { Part } from "../../src/model/wire";
import { mountApp } from "../../src/views/app";
import {
  FIRST_WORDS_MAX_CHARS,
  FIRST_WORDS_WAIT_MS,
  sketchable,
  sketchOf,
} from "../../src/views/first-words";
import { batch, part, run, snapshot, waitUntil } from "../helpers";

function storeOf(parts: Part[], ended = false): Store {
  return createStore(
    fromSnapshot(
      snapshot(parts, { seq: 1, run: run({ status: ended ? "finished" : "running", ended }) }),
    ),
  );
}

function mount(store: Store) {
  const el = document.createElement("div");
  document.body.append(el);
  const app = mountApp(el, {
    store,
    onStop: () => {},
    fallbackTitle: () => "a fresh run",
    mountTimeline: () => () => {},
    mountInspector: () => () => {},
    pastState: viewAt,
    sketchFirst: true,
  });
  return { el, app };
}

const sketch = (el: HTMLElement) => el.querySelector(".cs-first-words");
const built = (el: HTMLElement) => el.querySelector(".cs-tab") !== null;

describe("a fresh view's first words", () => {
  it("draws a streaming run's words first, then the view, which shows the same words", async () => {
    const step = part("step", { id: "s" });
    const store = storeOf([step, part("text", { id: "t", step: "s", text: "Hello" })]);
    const { el, app } = mount(store);
    expect(built(el)).toBe(false);
    // Caught by an observer as it shows the words: the view replaces it a frame later, sooner
    // than a wait that looks every 20 ms would see it.
    const caught: HTMLElement[] = [];
    const observer = new MutationObserver(() => {
      const shown = sketch(el) as HTMLElement | null;
      if (caught.length === 0 && shown?.textContent?.includes("Hello")) caught.push(shown);
    });
    observer.observe(el, { subtree: true, childList: true, characterData: true });
    await waitUntil(() => caught.length > 0);
    observer.disconnect();
    const drawn = caught[0] as HTMLElement;
    expect(drawn).toBeDefined();
    expect(drawn.inert).toBe(true);
    expect(drawn.querySelector(".cs-sketch-title")?.textContent).toBe("test run");
    expect(drawn.querySelector(".cs-sketch-badge")?.textContent).toBe("running");
    // Nothing in the sketch is what tests and styles of the view look for.
    for (const selector of [".cs-tab", ".cs-status", ".cs-badge", ".cs-transcript", ".cs-part"]) {
      expect(drawn.querySelector(selector)).toBeNull();
    }
    // Words that come as the view takes over are shown by the view.
    store.dispatch(batch(2, { op: "append", id: "t", field: "text", text: " world", t: 5 }));
    await waitUntil(() => built(el));
    expect(sketch(el)).toBeNull();
    expect(el.querySelectorAll(".chunkscope")).toHaveLength(1);
    await waitUntil(
      () => el.querySelector(".cs-transcript")?.textContent?.includes("Hello world") === true,
    );
    app.unmount();
    expect(el.children).toHaveLength(0);
    el.remove();
  });

  it("builds the view at once for a run it cannot draw, and for one that has not begun", () => {
    const call = part("tool", { id: "c", toolName: "search" });
    const cases: [string, Store][] = [
      ["a tool call", storeOf([part("step", { id: "s" }), call])],
      ["a second step", storeOf([part("step", { id: "s" }), part("step", { id: "s2" })])],
      ["two texts", storeOf([part("text", { id: "a" }), part("text", { id: "b" })])],
      ["an ended run without words", storeOf([part("step", { id: "s" })], true)],
      ["a long text", storeOf([part("text", { text: "x".repeat(FIRST_WORDS_MAX_CHARS + 1) })])],
      ["nothing yet", createStore(emptyState("no chunk yet"))],
    ];
    for (const [name, store] of cases) {
      const { el, app } = mount(store);
      expect(built(el), name).toBe(true);
      expect(sketch(el), name).toBeNull();
      app.unmount();
      el.remove();
    }
  });

  it("gives way to the view when the run turns to something it cannot draw", async () => {
    const store = storeOf([part("step", { id: "s" })]);
    const { el, app } = mount(store);
    expect(sketch(el)).not.toBeNull();
    store.dispatch(
      batch(2, {
        op: "add",
        part: part("reasoning", { id: "r", step: "s", text: "thinking" }),
      }),
    );
    await waitUntil(() => built(el));
    expect(sketch(el)).toBeNull();
    app.unmount();
    el.remove();
  });

  it("waits for the first words a short while only", async () => {
    const store = storeOf([part("step", { id: "s" })]);
    const { el, app } = mount(store);
    const started = performance.now();
    await waitUntil(() => built(el));
    expect(performance.now() - started).toBeGreaterThanOrEqual(FIRST_WORDS_WAIT_MS - 5);
    app.unmount();
    el.remove();
  });

  it("is built before a tab is shown or a part is scrolled to", () => {
    const store = storeOf([part("text", { id: "t", text: "Hi" })]);
    const { el, app } = mount(store);
    expect(built(el)).toBe(false);
    app.show("timeline");
    expect(built(el)).toBe(true);
    expect(sketch(el)).toBeNull();
    app.unmount();
    el.remove();
  });

  it("reads a run's words, or says why it cannot", () => {
    expect(sketchOf(emptyState(""))).toEqual({ text: "", step: false });
    const text = part("text", { text: "plain words" });
    expect(sketchOf({ ...emptyState(""), parts: [part("step"), text] })).toEqual({
      text: "plain words",
      step: true,
    });
    expect(sketchOf({ ...emptyState(""), parts: [part("reasoning"), text] })).toBeNull();
    expect(sketchable(emptyState(""))).toBe(false);
  });
});
