// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { transcriptBlocks } from "../../../src/model/selectors";
import { fromSnapshot, type StoreState } from "../../../src/model/store";
import type { Part } from "../../../src/model/wire";
import { pagesLeadingTo, TranscriptView } from "../../../src/views/transcript/view";
import {
  CHAPTER_PAGES,
  chapterCount,
  DRAW_BUDGET_MS,
  NEAR_PX,
  PAGE_ITEMS,
  pageCount,
  SPARE_CARDS,
  WINDOW_MIN_ITEMS,
} from "../../../src/views/transcript/window";
import { part, snapshot } from "../../helpers";

/** Height of the transcript's visible area in the observer's reports (px). */
const VISIBLE_PX = 600;

/** An IntersectionObserver whose reports the test writes. */
class FakeObserver {
  static all: FakeObserver[] = [];
  readonly targets = new Set<Element>();
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeObserver.all.push(this);
  }
  observe(el: Element): void {
    this.targets.add(el);
  }
  unobserve(el: Element): void {
    this.targets.delete(el);
  }
  disconnect(): void {
    this.targets.clear();
  }
  /** Report `near` for the given pages, as the browser would after a scroll. */
  report(changes: [Element, boolean, number][]): void {
    const entries = changes.map(([target, isIntersecting, height]) => ({
      target,
      isIntersecting,
      boundingClientRect: { height } as DOMRectReadOnly,
      // The observer's root: a visible area of VISIBLE_PX and the near margin on both sides.
      rootBounds: { height: VISIBLE_PX + 2 * NEAR_PX } as DOMRectReadOnly,
    })) as unknown as IntersectionObserverEntry[];
    this.callback(entries, this as unknown as IntersectionObserver);
  }
}

function toolRun(count: number, ended = true): StoreState {
  const parts: Part[] = [part("step", { id: "s" })];
  for (let i = 0; i < count; i++)
    parts.push(part("tool", { id: `k${i}`, step: "s", toolName: "ping", toolCallId: `c${i}` }));
  const state = fromSnapshot(snapshot(parts));
  state.run.ended = ended;
  return state;
}

function cards(view: TranscriptView): string[] {
  return Array.from(view.el.querySelectorAll<HTMLElement>(".cs-part-tool")).map(
    (el) => el.dataset.partId ?? "",
  );
}

function pages(view: TranscriptView): HTMLElement[] {
  return Array.from(view.el.querySelectorAll<HTMLElement>(".cs-page"));
}

function chapters(view: TranscriptView): HTMLElement[] {
  return Array.from(view.el.querySelectorAll<HTMLElement>(".cs-chapter"));
}

describe("pageCount", () => {
  it("leaves short lists whole and splits long ones into pages of PAGE_ITEMS", () => {
    expect(pageCount(WINDOW_MIN_ITEMS)).toBe(0);
    expect(pageCount(WINDOW_MIN_ITEMS + 1)).toBe(Math.ceil((WINDOW_MIN_ITEMS + 1) / PAGE_ITEMS));
    expect(pageCount(50_000)).toBe(50_000 / PAGE_ITEMS);
  });
});

describe("a windowed transcript", () => {
  const original = globalThis.IntersectionObserver;
  beforeEach(() => {
    FakeObserver.all = [];
    globalThis.IntersectionObserver = FakeObserver as unknown as typeof IntersectionObserver;
    // A clock that stands still: every draw has time for every page, however slow the host.
    vi.spyOn(performance, "now").mockReturnValue(0);
  });
  afterEach(() => {
    globalThis.IntersectionObserver = original;
    vi.restoreAllMocks();
  });

  it("adds one card per draw once the draw ran out of time, from the reader's end", () => {
    let now = 0;
    vi.spyOn(performance, "now").mockImplementation(() => (now += 10 * DRAW_BUDGET_MS));
    const view = new TranscriptView();
    let redraws = 0;
    view.onWindowChange = () => redraws++;
    const state = toolRun(5_000, false);
    view.draw(state);
    // A live run is followed at its end: its last card comes first, the first page waits.
    expect(cards(view)).toEqual(["k4999"]);
    expect(pages(view)[0]?.childElementCount).toBe(0);
    expect(redraws).toBe(1);
    view.draw(state);
    expect(cards(view)).toEqual(["k4998", "k4999"]);
    for (let k = 0; k < 2 * PAGE_ITEMS; k++) view.draw(state);
    // Both near pages are whole, in order, and nothing more is asked for.
    const drawn = cards(view);
    expect(drawn).toHaveLength(2 * PAGE_ITEMS);
    expect(drawn.slice(0, 2)).toEqual(["k0", "k1"]);
    expect(drawn.at(-1)).toBe("k4999");
    const asked = redraws;
    view.draw(state);
    expect(redraws).toBe(asked);
  });

  it("fills every due page at once for a jump, however long it takes", () => {
    let now = 0;
    vi.spyOn(performance, "now").mockImplementation(() => (now += 10 * DRAW_BUDGET_MS));
    const view = new TranscriptView();
    view.draw(toolRun(5_000));
    expect(view.scrollTo("k2345")).toBe(true);
    expect(cards(view)).toContain("k2345");
  });

  it("draws only the pages near the view, with boxes standing in for the others", () => {
    const view = new TranscriptView();
    view.draw(toolRun(5_000));
    // The first page (where a finished run opens) and the last (where a live one follows).
    expect(cards(view)).toHaveLength(2 * PAGE_ITEMS);
    expect(cards(view)[0]).toBe("k0");
    expect(cards(view).at(-1)).toBe("k4999");
    // The first and the last chapter hold their page boxes; the others are one box each.
    const boxes = pages(view);
    expect(boxes).toHaveLength(2 * CHAPTER_PAGES);
    expect(boxes[10]?.childElementCount).toBe(0);
    expect(Number.parseFloat(boxes[10]?.style.height ?? "")).toBeGreaterThan(0);
    const groups = chapters(view);
    expect(groups).toHaveLength(chapterCount(5_000 / PAGE_ITEMS));
    expect(groups[2]?.childElementCount).toBe(0);
    expect(Number.parseFloat(groups[2]?.style.height ?? "")).toBeGreaterThan(0);
  });

  it("gives a far chapter one box, opens it when it comes near and closes it again, keeping its height", () => {
    const view = new TranscriptView();
    let redraws = 0;
    view.onWindowChange = () => redraws++;
    const state = toolRun(5_000);
    view.draw(state);
    const observer = FakeObserver.all[0] as FakeObserver;
    const middle = chapters(view)[2] as HTMLElement;
    // Only chapter boxes and the pages of open chapters are watched, not 200 pages.
    expect(observer.targets.size).toBe(chapterCount(5_000 / PAGE_ITEMS) + 2 * CHAPTER_PAGES);
    expect(observer.targets.has(middle)).toBe(true);
    const closedHeight = middle.style.height;

    observer.report([[middle, true, 0]]);
    expect(redraws).toBe(1);
    view.draw(state);
    expect(middle.childElementCount).toBe(CHAPTER_PAGES);
    expect(middle.style.height).toBe("");
    // Its pages are watched now, and the one the reader reaches is drawn.
    const page = middle.children[5] as HTMLElement;
    expect(observer.targets.has(page)).toBe(true);
    observer.report([[page, true, 0]]);
    view.draw(state);
    expect(cards(view)).toContain(`k${(2 * CHAPTER_PAGES + 5) * PAGE_ITEMS}`);

    // Measured while open, then far again: one box of the measured height, pages unwatched.
    observer.report([[middle, true, 12_345]]);
    observer.report([[middle, false, 12_345]]);
    view.draw(state);
    expect(middle.childElementCount).toBe(0);
    expect(middle.style.height).toBe("12345px");
    expect(middle.style.height).not.toBe(closedHeight);
    expect(observer.targets.has(page)).toBe(false);
    expect(cards(view)).not.toContain(`k${(2 * CHAPTER_PAGES + 5) * PAGE_ITEMS}`);
  });

  it("opens the chapter on the way to a part it jumps to", () => {
    const view = new TranscriptView();
    view.draw(toolRun(5_000));
    const target = `k${3 * CHAPTER_PAGES * PAGE_ITEMS + 7}`;
    expect(cards(view)).not.toContain(target);
    expect(view.scrollTo(target)).toBe(true);
    expect(cards(view)).toContain(target);
  });

  it("draws a page when it comes near and drops one that went far, keeping its height", () => {
    const view = new TranscriptView();
    let redraws = 0;
    view.onWindowChange = () => redraws++;
    const state = toolRun(1_000);
    view.draw(state);
    const observer = FakeObserver.all[0] as FakeObserver;
    const boxes = pages(view);
    observer.report([
      [boxes[0] as HTMLElement, false, 4_321],
      [boxes[4] as HTMLElement, true, 400],
    ]);
    expect(redraws).toBe(1);
    // A reader who is not following the end gets every near page in one draw, time allowing.
    view.draw(state);
    expect(cards(view)).toContain(`k${4 * PAGE_ITEMS + 10}`);
    expect(cards(view)).not.toContain("k0");
    expect(boxes[0]?.style.height).toBe("4321px");
    expect(boxes[4]?.style.height).toBe("");
  });

  it("adds about a screenful of cards per draw for a reader following a live run, the rest in the next draws", () => {
    const view = new TranscriptView();
    let redraws = 0;
    view.onWindowChange = () => redraws++;
    view.draw(toolRun(5_000, false));
    const observer = FakeObserver.all[0] as FakeObserver;
    const last = pages(view).at(-1) as HTMLElement;
    observer.report([[last, true, PAGE_ITEMS * 40]]); // 40 px a card
    const asked = redraws;
    // A stream moved the bottom by four pages: the new last page gets a screenful, from its end.
    const grown = toolRun(5_000 + 4 * PAGE_ITEMS, false);
    view.draw(grown);
    const screenful = Math.ceil(VISIBLE_PX / 40) + SPARE_CARDS;
    const newLast = pages(view).at(-1) as HTMLElement;
    expect(newLast.childElementCount).toBe(screenful);
    expect(cards(view)).toContain(`k${5_000 + 4 * PAGE_ITEMS - 1}`);
    expect(cards(view)).not.toContain(`k${5_000 + 4 * PAGE_ITEMS - 1 - screenful}`);
    expect(redraws).toBe(asked + 1);
    view.draw(grown);
    expect(newLast.childElementCount).toBe(PAGE_ITEMS);
  });

  it("keeps its pages as a live list grows, draws each new last page, and drops pages a shorter list lost", () => {
    const view = new TranscriptView();
    view.draw(toolRun(1_000, false));
    const before = pages(view);
    expect(before).toHaveLength(1_000 / PAGE_ITEMS);
    view.draw(toolRun(1_000 + 2 * PAGE_ITEMS + 1, false));
    const grown = pages(view);
    // The same boxes, three more, and the newest one (the reader's end) drawn.
    expect(grown.slice(0, before.length)).toEqual(before);
    expect(grown).toHaveLength(before.length + 3);
    expect(cards(view).at(-1)).toBe(`k${1_000 + 2 * PAGE_ITEMS}`);
    expect(grown.at(-2)?.childElementCount).toBe(0);
    const observer = FakeObserver.all[0] as FakeObserver;
    view.draw(toolRun(500, false));
    expect(pages(view)).toHaveLength(500 / PAGE_ITEMS);
    expect(observer.targets.size).toBe(500 / PAGE_ITEMS);
    view.draw(toolRun(10, false));
    expect(pages(view)).toHaveLength(0);
    expect(observer.targets.size).toBe(0);
    expect(cards(view)).toHaveLength(10);
  });

  it("keeps what is drawn while the transcript is hidden (no size)", () => {
    const view = new TranscriptView();
    let redraws = 0;
    view.onWindowChange = () => redraws++;
    view.draw(toolRun(1_000));
    const observer = FakeObserver.all[0] as FakeObserver;
    const first = pages(view)[0] as HTMLElement;
    const entry = {
      target: first,
      isIntersecting: false,
      boundingClientRect: { height: 0 },
      rootBounds: { height: 0 },
    };
    (observer as unknown as { callback: IntersectionObserverCallback }).callback(
      [entry as unknown as IntersectionObserverEntry],
      observer as unknown as IntersectionObserver,
    );
    expect(redraws).toBe(0);
  });

  it("jumps to a card on a page far from view", () => {
    const view = new TranscriptView();
    view.draw(toolRun(5_000));
    expect(cards(view)).not.toContain("k2345");
    expect(view.scrollTo("k2345")).toBe(true);
    expect(cards(view)).toContain("k2345");
    expect(view.el.querySelector('[data-part-id="k2345"]')?.classList.contains("cs-selected")).toBe(
      true,
    );
    expect(view.scrollTo("nowhere")).toBe(false);
  });

  it("finds the pages leading to a nested part", () => {
    const parts: Part[] = [];
    for (let i = 0; i < 400; i++) parts.push(part("tool", { id: `k${i}`, toolName: "t" }));
    for (let i = 0; i < 400; i++)
      parts.push(part("text", { id: `n${i}`, parent: "k350", text: "x" }));
    const blocks = transcriptBlocks(fromSnapshot(snapshot(parts)));
    const steps = blocks[0]?.key ?? "";
    expect(pagesLeadingTo(blocks, "n399")).toEqual([
      { listKey: steps, index: 350 },
      { listKey: "kids:k350", index: 399 },
    ]);
    expect(pagesLeadingTo(blocks, "k5")).toEqual([{ listKey: steps, index: 5 }]);
    expect(pagesLeadingTo(blocks, "missing")).toBeNull();
  });

  it("draws every card when there is no IntersectionObserver", () => {
    globalThis.IntersectionObserver = undefined as unknown as typeof IntersectionObserver;
    const view = new TranscriptView();
    view.draw(toolRun(1_000));
    expect(cards(view)).toHaveLength(1_000);
  }, 30_000);

  it("leaves a short list without pages", () => {
    const view = new TranscriptView();
    view.draw(toolRun(WINDOW_MIN_ITEMS));
    expect(pages(view)).toHaveLength(0);
    expect(cards(view)).toHaveLength(WINDOW_MIN_ITEMS);
  });
});
