// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { COMPARE_NEEDS_KERNEL } from "../../src/board/comparison";
import { type BoardSource, createBoardSource } from "../../src/board/source";
import { NEW_ROWS_PER_FRAME } from "../../src/board/table";
import { AXIS_TICK_MS, type BoardHandle, mountBoard } from "../../src/board/view";
import { MARGIN_ROWS, ROW_HEIGHT, VIEWPORT_FALLBACK } from "../../src/board/window";
import { shadowMount } from "../../src/host/shadow";
import { libraries } from "../../src/libraries/bundle";
import type { BoardRow, BoardSaved, BoardUp } from "../../src/model/wire";
import { schedule } from "../../src/views/frame";
import { onWanted, provideLibraries, REGISTRY_KEY } from "../../src/views/libraries";
import { batch, part, snapshot, snapshotMsg, waitUntil } from "../helpers";
import { boardRow, changesMsg, fullMsg, manyRows, savedBoard } from "./builders";

/** The next animation frame has drawn (what was scheduled before it, and what that drawing
 * scheduled in turn, such as an opened run's transcript). */
const frame = async () => {
  for (let k = 0; k < 3; k++) await new Promise<void>((resolve) => schedule(resolve));
};

/** Draws frame by frame until the rows in the DOM stop changing: how many there were after
 * the draw before the first frame, then after each frame. */
const rowsFrameByFrame = async (el: HTMLElement, from = rowEls(el).length) => {
  const counts = [from];
  let still = 0;
  for (let k = 0; k < 100 && still < 2; k++) {
    await new Promise<void>((resolve) => schedule(resolve));
    const count = rowEls(el).length;
    still = count === counts.at(-1) ? still + 1 : 0;
    counts.push(count);
  }
  return counts;
};

/** The labels of manyRows' rows `[from, to)`. */
const manyRowLabels = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, k) => `q${from + k}`);

/** No frame put more than NEW_ROWS_PER_FRAME rows into the DOM. */
const fewAtATime = (counts: number[]) =>
  counts.every((count, k) => k === 0 || count - (counts[k - 1] as number) <= NEW_ROWS_PER_FRAME);

let mounted: BoardHandle[] = [];
afterEach(() => {
  for (const view of mounted) view.unmount();
  mounted = [];
  document.body.replaceChildren();
});

/** A board fed by a fake kernel: what the page sent, and the view; `clock` is the page's
 * wall clock. */
function liveBoard(rows: BoardRow[], elapsedMs = 1000, clock: () => number = Date.now) {
  const sent: BoardUp[] = [];
  const source = createBoardSource({
    send: (up) => sent.push(up),
    saved: null,
    title: "sweep",
    clock,
  });
  source.receive(fullMsg(1, rows, elapsedMs));
  return { sent, source, ...mount(source, clock) };
}

/** A board with no kernel behind it, from a saved state. */
function savedOnly(saved: BoardSaved) {
  const source = createBoardSource({ send: null, saved, title: "saved sweep" });
  return { source, ...mount(source) };
}

function mount(source: BoardSource, clock: () => number = Date.now, inShadow = false) {
  const el = document.createElement("div");
  document.body.append(el);
  const view = mountBoard(inShadow ? shadowMount(el, "") : el, source, { clock });
  mounted.push(view);
  return { el, view };
}

const rowEls = (el: HTMLElement) => [...el.querySelectorAll<HTMLElement>(".cs-brow")];
const labelsShown = (el: HTMLElement) =>
  rowEls(el)
    .sort(
      (a, b) => Number(a.getAttribute("aria-rowindex")) - Number(b.getAttribute("aria-rowindex")),
    )
    .map((row) => row.querySelector(".cs-bc-label")?.textContent);
const rowOf = (el: HTMLElement, label: string) =>
  rowEls(el).find((row) => row.querySelector(".cs-bc-label")?.textContent === label) as HTMLElement;
const button = (el: HTMLElement, text: string) =>
  [...el.querySelectorAll<HTMLButtonElement>("button")].find((b) =>
    b.textContent?.startsWith(text),
  ) as HTMLButtonElement;
const headerOf = (el: HTMLElement, title: string) =>
  [...el.querySelectorAll<HTMLElement>('[role="columnheader"]')].find(
    (c) => c.title === title,
  ) as HTMLElement;

describe("the board's table", () => {
  it("shows one row per run with its figures", () => {
    const { el } = liveBoard([
      boardRow("r0", {
        label: "seoul",
        status: "running",
        elapsedMs: 2500,
        ttftMs: 300,
        inputTokens: 1200,
        outputTokens: 80,
        totalTokens: 1280,
        steps: 2,
        toolCalls: 3,
        toolErrors: 1,
        finishReason: null,
        tail: "The weather in Seoul is",
      }),
    ]);
    const row = rowOf(el, "seoul");
    const cell = (id: string) => row.querySelector(`.cs-bc-${id}`)?.textContent;
    expect(cell("status")).toBe("running");
    expect(cell("elapsed")).toBe("2.5 s");
    expect(cell("ttft")).toBe("0.3 s");
    expect(cell("in")).toBe("1,200");
    expect(cell("total")).toBe("1,280");
    expect(cell("tools")).toBe("3");
    expect(cell("toolErrors")).toBe("1");
    expect(cell("tail")).toBe("The weather in Seoul is");
    expect(el.querySelector(".cs-title")?.textContent).toBe("sweep");
    expect(el.querySelector(".cs-board-counts")?.textContent).toBe("running 1");
  });

  it("keeps only the rows in view in the DOM, adds them a few a frame, and scrolling brings the others", async () => {
    const { el } = liveBoard(manyRows(2000));
    const inSight = Math.ceil(VIEWPORT_FALLBACK / ROW_HEIGHT);
    const inView = inSight + MARGIN_ROWS;
    // The first draw puts in the first rows in sight; each frame adds a few more, the rows in
    // sight first and the margin below them after.
    expect(labelsShown(el)).toEqual(manyRowLabels(0, NEW_ROWS_PER_FRAME));
    const counts = await rowsFrameByFrame(el);
    expect(fewAtATime(counts)).toBe(true);
    expect(counts.at(-1)).toBe(inView);
    expect(counts.length).toBeGreaterThan(3);
    expect(labelsShown(el)).toEqual(manyRowLabels(0, inView));
    const scroller = el.querySelector(".cs-board-scroll") as HTMLElement;
    expect(scroller.getAttribute("aria-rowcount")).toBe("2001");
    expect((el.querySelector(".cs-board-canvas") as HTMLElement).style.height).toBe(
      `${2000 * ROW_HEIGHT}px`,
    );
    // The rows that left the view show the new ones; the few more a scroll needs come a
    // few a frame.
    scroller.scrollTop = 1500 * ROW_HEIGHT;
    scroller.dispatchEvent(new Event("scroll"));
    const scrolled = await rowsFrameByFrame(el, inView);
    expect(fewAtATime(scrolled)).toBe(true);
    const shown = labelsShown(el);
    expect(shown).not.toContain("q0");
    expect(shown).toEqual(manyRowLabels(1500 - MARGIN_ROWS, 1500 + inSight + MARGIN_ROWS));
    expect(rowOf(el, "q1500").style.top).toBe(`${1500 * ROW_HEIGHT}px`);
  });

  it("moved into another element, draws the rows in sight first and the margin after", async () => {
    const { el, view } = liveBoard(manyRows(2000));
    await rowsFrameByFrame(el);
    const inSight = Math.ceil(VIEWPORT_FALLBACK / ROW_HEIGHT);
    const before = labelsShown(el);
    expect(before.length).toBe(inSight + MARGIN_ROWS);
    // JupyterLab empties the output and the view is moved into the new one as it stands.
    const target = document.createElement("div");
    document.body.append(target);
    el.replaceChildren();
    view.moveTo(target);
    // In the page now: the rows in sight only, so the layout of the moved board is smaller.
    expect(labelsShown(target)).toEqual(before.slice(0, inSight));
    await new Promise<void>((resolve) => schedule(resolve));
    expect(labelsShown(target)).toEqual(before.slice(0, inSight));
    expect(fewAtATime(await rowsFrameByFrame(target, inSight))).toBe(true);
    expect(labelsShown(target)).toEqual(before);
    expect(rowOf(target, `q${inSight}`).style.top).toBe(`${inSight * ROW_HEIGHT}px`);
  });

  it("sorts by a column when its heading is clicked, and turns around on a second click", async () => {
    const { el } = liveBoard([
      boardRow("a", { label: "slow", elapsedMs: 9000 }),
      boardRow("b", { label: "fast", elapsedMs: 100 }),
      boardRow("c", { label: "unknown", elapsedMs: null }),
    ]);
    const elapsed = headerOf(el, "Elapsed time");
    expect(elapsed.hasAttribute("aria-sort")).toBe(false);
    (elapsed.querySelector("button") as HTMLButtonElement).click();
    await frame();
    expect(elapsed.getAttribute("aria-sort")).toBe("ascending");
    expect(labelsShown(el)).toEqual(["fast", "slow", "unknown"]);
    (elapsed.querySelector("button") as HTMLButtonElement).click();
    await frame();
    expect(elapsed.getAttribute("aria-sort")).toBe("descending");
    expect(labelsShown(el)).toEqual(["slow", "fast", "unknown"]);
  });

  it("filters by text and by status, and says how many rows it shows", async () => {
    const { el } = liveBoard(manyRows(2000));
    const input = el.querySelector(".cs-board-filter") as HTMLInputElement;
    input.value = "ANSWER NUMBER 1999";
    input.dispatchEvent(new Event("input"));
    await frame();
    expect(labelsShown(el)).toEqual(["q1999"]);
    expect(el.querySelector(".cs-board-shown")?.textContent).toBe("1 of 2,000 runs");
    input.value = "";
    input.dispatchEvent(new Event("input"));
    const error = button(el, "error");
    error.click();
    await frame();
    expect(error.getAttribute("aria-pressed")).toBe("true");
    expect(el.querySelector(".cs-board-shown")?.textContent).toBe("400 of 2,000 runs");
    expect(new Set(rowEls(el).map((row) => row.querySelector(".cs-badge")?.textContent))).toEqual(
      new Set(["error"]),
    );
    error.click();
    await frame();
    expect(el.querySelector(".cs-board-shown")?.textContent).toBe("2,000 runs");
  });

  it("redraws only the rows whose data changed, once per frame however many messages came", async () => {
    // A clock that stands still: the shared time axis (which moves every row's strip) does
    // not move while the test watches.
    const { el, source } = liveBoard(manyRows(50), 1000, () => 1_000_000);
    // The first frames place every row (and measure the window): watch only after them.
    await frame();
    await frame();
    const changedRow = rowOf(el, "q3");
    const touched = new Set<Element>();
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        const row = (
          record.target instanceof Element ? record.target : record.target.parentElement
        )?.closest(".cs-brow");
        if (row) touched.add(row);
      }
    });
    observer.observe(el.querySelector(".cs-board-canvas") as HTMLElement, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
    for (let seq = 2; seq < 12; seq++) {
      source.receive(
        changesMsg(seq, [{ id: "r3", steps: seq, tail: `step ${seq}` }], [], 1000 + seq),
      );
    }
    await frame();
    observer.disconnect();
    expect([...touched]).toEqual([changedRow]);
    expect(changedRow.querySelector(".cs-bc-steps")?.textContent).toBe("11");
  });

  it("draws each strip on the axis every row shares; a running run's open marks reach now", async () => {
    let now = 50_000;
    const { el } = liveBoard(
      [
        boardRow("a", {
          label: "done",
          marks: [
            { kind: "step", t: 0, end: 2000 },
            { kind: "tool-error", t: 500, end: 900 },
          ],
        }),
        boardRow("b", {
          label: "going",
          status: "running",
          marks: [
            { kind: "tool", t: 3000, end: null },
            { kind: "tripwire", t: 3500, end: null },
          ],
        }),
      ],
      4000,
      () => now,
    );
    const failed = rowOf(el, "done").querySelector(".cs-mark-tool-error") as HTMLElement;
    expect([failed.style.left, failed.style.width]).toEqual(["12.5%", "10%"]);
    const step = rowOf(el, "done").querySelector(".cs-mark-step") as HTMLElement;
    expect([step.style.left, step.style.width]).toEqual(["0%", "50%"]);
    const open = rowOf(el, "going").querySelector(".cs-mark-tool") as HTMLElement;
    expect(open.classList.contains("cs-mark-open")).toBe(true);
    expect(open.style.left).toBe("75%");
    const tripwire = rowOf(el, "going").querySelector(".cs-mark-tripwire") as HTMLElement;
    expect(tripwire.classList.contains("cs-mark-at")).toBe(true);
    expect(tripwire.style.left).toBe("87.5%");
    expect(rowOf(el, "done").querySelector(".cs-strip")?.getAttribute("aria-label")).toBe(
      "Timeline: 1 step, 1 tool call (1 failed)",
    );
    // Four seconds later with no message, the axis has grown to now: every strip shrinks
    // alike, and the open call still reaches the end.
    now += 4000;
    await new Promise((resolve) => setTimeout(resolve, AXIS_TICK_MS + 50));
    await frame();
    expect(failed.style.left).toBe("6.25%");
    expect(open.style.left).toBe("37.5%");
  });

  it("keeps the row the keyboard is on, and its focus, when it scrolls out of view in a shadow root", async () => {
    const source = createBoardSource({ send: () => {}, saved: null, title: "sweep" });
    source.receive(fullMsg(1, manyRows(500), 1000));
    const { el: output } = mount(source, Date.now, true);
    const el = output.shadowRoot as unknown as HTMLElement;
    await rowsFrameByFrame(el);
    const first = rowOf(el, "q0");
    first.focus();
    expect(output.shadowRoot?.activeElement).toBe(first);
    const scroller = el.querySelector(".cs-board-scroll") as HTMLElement;
    scroller.scrollTop = 400 * ROW_HEIGHT;
    scroller.dispatchEvent(new Event("scroll"));
    await rowsFrameByFrame(el);
    expect(labelsShown(el)).toContain("q400");
    // The focused row was kept in the DOM, out of view and still showing its run, so the
    // keyboard is still on it.
    expect(rowOf(el, "q0")).toBe(first);
    expect(output.shadowRoot?.activeElement).toBe(first);
  });

  it("moves between rows with the arrow keys and opens one with Enter", async () => {
    const { el, sent } = liveBoard(manyRows(100));
    const first = rowOf(el, "q0");
    expect(first.tabIndex).toBe(0);
    first.focus();
    first.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowDown", bubbles: true }));
    expect(document.activeElement).toBe(rowOf(el, "q1"));
    (document.activeElement as HTMLElement).dispatchEvent(
      new KeyboardEvent("keydown", { key: "End", bubbles: true }),
    );
    const last = rowOf(el, "q99");
    expect(document.activeElement).toBe(last);
    last.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    expect(sent.at(-1)).toEqual({ kind: "open", id: "r99" });
  });
});

describe("stopping runs", () => {
  it("sends stop for one run from its row, and for every run from Stop all", () => {
    const { el, sent } = liveBoard([
      boardRow("a", { label: "going", status: "running" }),
      boardRow("b", { label: "waiting", status: "queued" }),
      boardRow("c", { label: "done", status: "finished" }),
    ]);
    const stopOf = (label: string) =>
      rowOf(el, label).querySelector(".cs-bstop") as HTMLButtonElement;
    expect(stopOf("done").hidden).toBe(true);
    expect(stopOf("waiting").hidden).toBe(false);
    stopOf("going").click();
    expect(sent.at(-1)).toEqual({ kind: "stop", id: "a" });
    expect(sent.some((up) => up.kind === "open")).toBe(false);
    const all = button(el, "■ Stop all");
    expect(all.hidden).toBe(false);
    all.click();
    expect(sent.at(-1)).toEqual({ kind: "stop", id: null });
  });

  it("offers no Stop once every run ended, nor without a kernel", async () => {
    const { el, source } = liveBoard([boardRow("a", { status: "running" })]);
    source.receive(changesMsg(2, [{ id: "a", status: "finished" }]));
    await frame();
    expect(button(el, "■ Stop all").hidden).toBe(true);
    const saved = savedOnly(savedBoard([boardRow("x", { status: "running" })]));
    expect(button(saved.el, "■ Stop all").hidden).toBe(true);
    expect((rowOf(saved.el, "x").querySelector(".cs-bstop") as HTMLElement).hidden).toBe(true);
  });
});

describe("opening a run in place", () => {
  it("asks the kernel for the run and shows it, complete so far and then live", async () => {
    const { el, sent, source } = liveBoard([
      boardRow("a", { label: "seoul", status: "running" }),
      boardRow("b", { label: "paris" }),
    ]);
    (rowOf(el, "seoul").querySelector(".cs-bc-label") as HTMLElement).click();
    expect(sent.at(-1)).toEqual({ kind: "open", id: "a" });
    source.receive({
      kind: "run",
      id: "a",
      message: snapshotMsg(snapshot([part("text", { id: "t", text: "Sunny" })], { seq: 3 })),
    });
    source.receive({
      kind: "run",
      id: "a",
      message: batch(4, { op: "append", id: "t", field: "text", text: " and warm", t: 9 }),
    });
    await frame();
    const pane = el.querySelector(".cs-board-opened") as HTMLElement;
    expect(pane.hidden).toBe(false);
    expect(pane.querySelector(".cs-board-pane-title")?.textContent).toBe("Run seoul");
    expect(pane.querySelector('[data-part-id="t"]')?.textContent).toContain("Sunny and warm");
    expect(rowOf(el, "seoul").getAttribute("aria-current")).toBe("true");
    // The run's own requests go up wrapped with its id.
    source.receive({ kind: "run", id: "a", message: batch(6) });
    expect(sent.at(-1)).toEqual({ kind: "run", id: "a", message: { kind: "resync", have: 4 } });
    // The app's Stop stops that run only.
    (pane.querySelector(".cs-stop") as HTMLButtonElement).click();
    expect(sent.at(-1)).toEqual({ kind: "stop", id: "a" });
  });

  it("scrolls a pane that just opened into view in the next frame, once it is laid out", async () => {
    const scrolled: Element[] = [];
    const original = HTMLElement.prototype.scrollIntoView;
    HTMLElement.prototype.scrollIntoView = function (this: HTMLElement) {
      scrolled.push(this);
    };
    try {
      const { el } = liveBoard([boardRow("a", { label: "seoul" })]);
      await frame();
      // The frame that builds the pane must not read its layout (that forced a layout of
      // the whole new view in the middle of the frame).
      await new Promise<void>((resolve) => {
        (rowOf(el, "seoul").querySelector(".cs-bc-label") as HTMLElement).click();
        schedule(resolve, "read");
      });
      expect(el.querySelector(".cs-board-opened")?.hasAttribute("hidden")).toBe(false);
      expect(scrolled).toEqual([]);
      await frame();
      expect(scrolled).toEqual([el.querySelector(".cs-board-opened")]);
    } finally {
      HTMLElement.prototype.scrollIntoView = original;
    }
  });

  it("opening another run closes the first; Close closes it", async () => {
    const { el, sent, source } = liveBoard([boardRow("a"), boardRow("b")]);
    rowOf(el, "a").click();
    source.receive({ kind: "run", id: "a", message: snapshotMsg(snapshot([], { seq: 1 })) });
    rowOf(el, "b").click();
    expect(sent.filter((up) => up.kind === "open")).toEqual([
      { kind: "open", id: "a" },
      { kind: "open", id: "b" },
    ]);
    // A late message of the first run is not drawn into the second.
    source.receive({
      kind: "run",
      id: "a",
      message: batch(2, { op: "add", part: part("text", { id: "late", text: "late" }) }),
    });
    source.receive({ kind: "run", id: "b", message: snapshotMsg(snapshot([], { seq: 1 })) });
    await frame();
    const pane = el.querySelector(".cs-board-opened") as HTMLElement;
    expect(pane.querySelector('[data-part-id="late"]')).toBeNull();
    expect(el.querySelectorAll(".cs-board-opened .chunkscope").length).toBe(1);
    button(pane, "Close").click();
    await frame();
    expect(sent.at(-1)).toEqual({ kind: "open", id: null });
    expect(pane.hidden).toBe(true);
    expect(pane.querySelector(".chunkscope")).toBeNull();
  });

  it("does not open a run when its pick box or its Stop button is clicked", () => {
    const { el, sent } = liveBoard([boardRow("a", { status: "running" })]);
    (rowOf(el, "a").querySelector(".cs-bpick") as HTMLInputElement).click();
    (rowOf(el, "a").querySelector(".cs-bstop") as HTMLButtonElement).click();
    expect(sent.some((up) => up.kind === "open")).toBe(false);
  });

  it("shows a kept run from the saved board without a kernel", async () => {
    const run = snapshot([part("text", { id: "t", text: "saved *answer*", t1: 5 })], { seq: 9 });
    const { el } = savedOnly(savedBoard([boardRow("a", { label: "kept" })], { runs: { a: run } }));
    rowOf(el, "kept").click();
    await frame();
    const pane = el.querySelector(".cs-board-opened") as HTMLElement;
    const text = pane.querySelector('[data-part-id="t"]');
    expect(text?.textContent).toContain("answer");
    // Markdown once the parser has warmed up, in the page's idle time.
    await waitUntil(() => text?.querySelector("em") !== null);
    expect(text?.querySelector("em")?.textContent).toBe("answer");
  });

  it("says plainly when only a run's summary was saved", async () => {
    const { el } = savedOnly(
      savedBoard([boardRow("a", { label: "huge" })], {
        runs: {},
        keepLimit: 1_000_000,
        leftOut: { a: "size" },
      }),
    );
    rowOf(el, "huge").click();
    await frame();
    const pane = el.querySelector(".cs-board-opened") as HTMLElement;
    expect(pane.textContent).toContain(
      "Only this run's summary was saved: its run was larger than the 1,000,000 bytes (keep)",
    );
    expect(pane.querySelector(".cs-panels")).toBeNull();
  });

  it("says when a run was left out because the board's total was full", async () => {
    const { el } = savedOnly(
      savedBoard([boardRow("a", { label: "late" })], {
        runs: {},
        keepTotal: 10_000_000,
        leftOut: { a: "total" },
      }),
    );
    rowOf(el, "late").click();
    await frame();
    const pane = el.querySelector(".cs-board-opened") as HTMLElement;
    expect(pane.textContent).toContain("filled the 10,000,000 bytes (keep_total)");
  });
});

describe("comparing two runs", () => {
  const pick = (el: HTMLElement, label: string) =>
    (rowOf(el, label).querySelector(".cs-bpick") as HTMLInputElement).click();

  it("asks the kernel once two runs are picked and shows its answer, sanitized", async () => {
    const { el, sent, source } = liveBoard([
      boardRow("a", { label: "one" }),
      boardRow("b", { label: "two" }),
      boardRow("c", { label: "three" }),
    ]);
    const compare = el.querySelector(".cs-board-compare") as HTMLButtonElement;
    expect(compare.disabled).toBe(true);
    pick(el, "one");
    pick(el, "two");
    await frame();
    expect(compare.disabled).toBe(false);
    expect((rowOf(el, "one").querySelector(".cs-bpick") as HTMLInputElement).checked).toBe(true);
    compare.click();
    expect(sent.at(-1)).toEqual({ kind: "compare", a: "a", b: "b" });
    await frame();
    const pane = el.querySelector(".cs-board-comparison") as HTMLElement;
    expect(pane.textContent).toContain("Comparing…");
    source.receive({
      kind: "compare",
      a: "a",
      b: "b",
      html: '<style>.cs-cmp{color:red}</style><div class="cs-cmp"><b>2 steps</b><img src=x onerror="alert(1)"><script>alert(2)</script></div>',
      error: null,
    });
    await frame();
    expect(pane.querySelector(".cs-board-pane-title")?.textContent).toBe("Comparing one and two");
    expect(pane.querySelector(".cs-cmp b")?.textContent).toBe("2 steps");
    expect(pane.querySelector("style")).not.toBeNull();
    expect(pane.querySelector("script")).toBeNull();
    expect(pane.querySelector("[onerror]")).toBeNull();
    button(pane, "Close").click();
    await frame();
    expect(pane.hidden).toBe(true);
  });

  it("shows the kernel's error", async () => {
    const { el, source } = liveBoard([boardRow("a"), boardRow("b")]);
    pick(el, "a");
    pick(el, "b");
    await frame();
    (el.querySelector(".cs-board-compare") as HTMLButtonElement).click();
    source.receive({ kind: "compare", a: "a", b: "b", html: "", error: "run b has no state" });
    await frame();
    expect(el.querySelector(".cs-board-comparison")?.textContent).toContain("run b has no state");
  });

  it("asks for the sanitizer when the page has none yet, and shows the comparison once it came", async () => {
    // The board's page receives the libraries (DOMPurify among them) when first needed.
    const page = globalThis as unknown as Record<string, unknown>;
    const given = page[REGISTRY_KEY];
    delete page[REGISTRY_KEY];
    try {
      let asked = 0;
      const stopAsking = onWanted(() => {
        asked += 1;
      });
      const { el, source } = liveBoard([boardRow("a"), boardRow("b")]);
      pick(el, "a");
      pick(el, "b");
      await frame();
      (el.querySelector(".cs-board-compare") as HTMLButtonElement).click();
      source.receive({ kind: "compare", a: "a", b: "b", html: "<b>2 steps</b>", error: null });
      await frame();
      const pane = el.querySelector(".cs-board-comparison") as HTMLElement;
      expect(pane.textContent).toContain("Comparing…");
      expect(asked).toBeGreaterThan(0);
      provideLibraries(libraries);
      await waitUntil(() => pane.querySelector("b")?.textContent === "2 steps");
      expect(pane.textContent).not.toContain("cannot show");
      stopAsking();
    } finally {
      page[REGISTRY_KEY] = given;
    }
  });

  it("says a comparison needs the kernel when there is none", async () => {
    const { el } = savedOnly(savedBoard([boardRow("a"), boardRow("b")]));
    pick(el, "a");
    pick(el, "b");
    await frame();
    (el.querySelector(".cs-board-compare") as HTMLButtonElement).click();
    await frame();
    expect(el.querySelector(".cs-board-comparison")?.textContent).toContain(COMPARE_NEEDS_KERNEL);
  });
});
