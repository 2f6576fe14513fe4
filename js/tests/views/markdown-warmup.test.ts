// @vitest-environment jsdom
import { expect, it, vi } from "vitest";
import { waitUntil } from "../helpers";

// Fresh modules: the parser's warm-up is the page's, done once, so it must start cold here.
it("draws text in a frame as plain text until the parser has warmed up in a task of its own", async () => {
  vi.resetModules();
  const { schedule } = await import("../../src/views/frame");
  const { MarkdownView } = await import("../../src/views/markdown");
  const view = new MarkdownView();
  const source = "Some *emphasis* here\n\nand a second paragraph";
  await new Promise<void>((resolve) =>
    schedule(() => {
      view.update(source, false);
      resolve();
    }),
  );
  expect(view.el.querySelector(".cs-md-plain")?.textContent).toBe(source);
  expect(view.el.querySelector("em")).toBeNull();
  // A frame renders markdown only while it has time, so the second block may become
  // markdown a frame after the first.
  await waitUntil(
    () => view.el.querySelector("em") !== null && view.el.querySelector(".cs-md-plain") === null,
  );
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
