// @vitest-environment jsdom
import { expect, it, vi } from "vitest";
import { drawnInAFrame, shownAsMarkdown, waitUntil } from "../helpers";

// Fresh modules: the parser's warm-up is the page's, done once, so it must start cold here.
it("draws text in a frame as plain text until the parser has warmed up in a task of its own", async () => {
  const source = "Some *emphasis* here\n\nand a second paragraph";
  const view = await drawnInAFrame(source);
  expect(view.el.querySelector(".cs-md-plain")?.textContent).toBe(source);
  expect(view.el.querySelector("em")).toBeNull();
  // A frame renders markdown only while it has time, so the second block may become
  // markdown a frame after the first.
  await waitUntil(() => shownAsMarkdown(view.el));
  expect(view.el.querySelector("em")?.textContent).toBe("emphasis");
});

it("renders at once outside a frame, warm or not", async () => {
  vi.resetModules();
  const { MarkdownView } = await import("../../src/views/markdown");
  const view = new MarkdownView();
  view.update("Some *emphasis* here", true);
  expect(view.el.querySelector("em")?.textContent).toBe("emphasis");
});

it("warms the parser up in idle tasks of a few milliseconds each, not in one long task", async () => {
  vi.resetModules();
  // The page's idle tasks, run one at a time below.
  const idle: (() => void)[] = [];
  vi.stubGlobal("requestIdleCallback", (callback: () => void) => idle.push(callback));
  // A clock on which each step of the warm-up seems to take 5 ms.
  let now = 0;
  const clock = vi.spyOn(performance, "now").mockImplementation(() => {
    now += 5;
    return now;
  });
  try {
    const markdown = await import("../../src/views/markdown");
    markdown.warmUpMarkdown();
    // Nothing is done in the task that asked for it: it waits for the page to have time.
    expect(idle.length).toBe(1);
    expect(markdown.markdownIsWarm()).toBe(false);
    let tasks = 0;
    while (!markdown.markdownIsWarm() && tasks < 1000) {
      idle.shift()?.();
      tasks += 1;
    }
    expect(markdown.markdownIsWarm()).toBe(true);
    // Each rule's regular expression, then each construct: a task for each here.
    expect(tasks).toBeGreaterThan(20);
  } finally {
    clock.mockRestore();
    vi.unstubAllGlobals();
  }
});

// The first draw runs in the task that shows the output: a cold parser there cost 70 ms, and
// an ended run drawn whole as markdown (a saved notebook opened again) 50 ms for 70 KB.
it.each([
  ["streaming", false],
  ["ended", true],
])(
  "draws a new view's first text (%s run) as plain text while the parser is cold, then as markdown",
  async (_name, ended) => {
    vi.resetModules();
    const { createStore, fromSnapshot } = await import("../../src/model/store");
    const { mountApp } = await import("../../src/views/app");
    const { viewAt } = await import("../../src/model/scrub");
    const { part, run, snapshot } = await import("../helpers");
    const source = "A *first* answer";
    const state = snapshot([part("text", { id: "a", text: source })], {
      run: run(ended ? { status: "finished", ended: true } : {}),
    });
    const el = document.createElement("div");
    mountApp(el, {
      store: createStore(fromSnapshot(state)),
      onStop: () => {},
      fallbackTitle: () => "run",
      mountTimeline: () => () => {},
      mountInspector: () => () => {},
      pastState: viewAt,
    });
    const text = el.querySelector('[data-part-id="a"]');
    expect(text?.textContent).toContain(source);
    expect(text?.querySelector("em")).toBeNull();
    await waitUntil(() => text?.querySelector("em") !== null);
    expect(text?.querySelector("em")?.textContent).toBe("first");
  },
);

// The engine compiles an expression apart for strings with characters past Latin-1, on its
// second run: a warm-up on Latin-1 text only left the first lexing of a stream with a dash
// or curly quotes to compile every rule again, inside a frame.
it("runs each of the parser's rules twice on Latin-1 text and twice on wide text", async () => {
  vi.resetModules();
  const idle: (() => void)[] = [];
  vi.stubGlobal("requestIdleCallback", (callback: () => void) => idle.push(callback));
  const runs = new Map<RegExp, { latin: number; wide: number }>();
  const exec = RegExp.prototype.exec;
  const spy = vi.spyOn(RegExp.prototype, "exec").mockImplementation(function (
    this: RegExp,
    subject: string,
  ) {
    const counts = runs.get(this) ?? { latin: 0, wide: 0 };
    // A regular expression here would call this spy again.
    if (Array.from(subject).every((char) => char.charCodeAt(0) <= 0xff)) counts.latin += 1;
    else counts.wide += 1;
    runs.set(this, counts);
    return exec.call(this, subject);
  });
  try {
    const markdown = await import("../../src/views/markdown");
    const { markedLibrary } = await import("../../src/views/libraries");
    markdown.warmUpMarkdown();
    for (let tasks = 0; !markdown.markdownIsWarm() && tasks < 10_000; tasks++) idle.shift()?.();
    expect(markdown.markdownIsWarm()).toBe(true);
    const { block, inline } = markedLibrary().Lexer.rules;
    const rules = [block.gfm, inline.gfm].flatMap((set) =>
      Object.values(set as unknown as Record<string, unknown>).filter(
        (rule): rule is RegExp => rule instanceof RegExp,
      ),
    );
    expect(rules.length).toBeGreaterThan(20);
    for (const rule of rules) {
      expect(runs.get(rule)?.latin ?? 0, String(rule)).toBeGreaterThanOrEqual(2);
      expect(runs.get(rule)?.wide ?? 0, String(rule)).toBeGreaterThanOrEqual(2);
    }
  } finally {
    spy.mockRestore();
    vi.unstubAllGlobals();
  }
});

// A saved view whose notebook has no libraries waits for them for good: a view taken off the
// page meanwhile must not be kept alive by that wait.
it("does not keep a view that waits for the warm-up alive once nothing else holds it", async () => {
  vi.resetModules();
  // Idle tasks never run here: the warm-up never ends.
  vi.stubGlobal("requestIdleCallback", () => 0);
  // The test runner's workers have the collector exposed (vitest.config.ts).
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error("run with node --expose-gc");
  try {
    const { schedule } = await import("../../src/views/frame");
    const { MarkdownView } = await import("../../src/views/markdown");
    const drawn = (): WeakRef<object> => {
      const view = new MarkdownView();
      schedule(() => view.update("Some *emphasis* here", false));
      return new WeakRef(view);
    };
    const gone = drawn();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((gone.deref() as { el: HTMLElement } | undefined)?.el.textContent).not.toBe("");
    // (A WeakRef read keeps its target alive until the task ends: none before collecting.)
    for (let round = 0; round < 3; round++) {
      collect();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(gone.deref()).toBeUndefined();
  } finally {
    vi.unstubAllGlobals();
  }
});
