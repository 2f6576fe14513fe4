// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createStore, fromSnapshot } from "../../../src/model/store";
import type { Snapshot } from "../../../src/model/wire";
import { createShared, type PanelContext } from "../../../src/views/panel";
import {
  fitViewport,
  LANE_PADDING,
  laneGeometry,
  ROW_HEIGHT,
  RULER_HEIGHT,
  timeToX,
} from "../../../src/views/timeline/geometry";
import { layoutTimeline } from "../../../src/views/timeline/layout";
import { mountTimeline } from "../../../src/views/timeline/view";
import { runInfo, step, tool } from "./builders";

const WIDTH = 1000;

beforeAll(() => {
  // happy-dom does no layout: give elements the width a browser would.
  Object.defineProperty(HTMLElement.prototype, "clientWidth", {
    configurable: true,
    get: () => WIDTH,
  });
});

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function mount() {
  const snap: Snapshot = {
    v: 1,
    seq: 0,
    run: runInfo({ elapsedMs: 1000, ttftMs: null }),
    parts: [
      step("s", 0, 0, 1000, "stop"),
      tool(
        "k",
        "search",
        [
          [100, "running"],
          [800, "done"],
        ],
        800,
      ),
    ],
    rows: [],
  };
  const store = createStore(fromSnapshot(snap));
  const scrolled: string[] = [];
  const ctx: PanelContext = {
    store,
    selection: createShared<string | null>(null),
    scrubTime: createShared<number | null>(null),
    scrollToPart: (id) => scrolled.push(id),
  };
  const container = document.createElement("div");
  document.body.append(container);
  const unmount = mountTimeline(container, ctx);
  cleanups.push(() => {
    unmount();
    container.remove();
  });
  const q = <T extends Element>(selector: string) => container.querySelector(selector) as T;
  return { store, ctx, scrolled, container, q, snap, unmount };
}

function pointer(target: Element, type: string, x: number, y: number): void {
  target.dispatchEvent(
    new PointerEvent(type, { clientX: x, clientY: y, button: 0, pointerId: 1, bubbles: true }),
  );
}

describe("timeline view", () => {
  it("scrubs with the range control and goes back to live", () => {
    const { ctx, q } = mount();
    const range = q<HTMLInputElement>(".cs-scrub-range");
    const live = q<HTMLButtonElement>(".cs-scrub-live");
    expect(range.max).toBe("1000");
    expect(live.disabled).toBe(true);
    expect(q(".cs-scrub-time").textContent).toBe("live");
    range.value = "420";
    range.dispatchEvent(new Event("input"));
    expect(ctx.scrubTime.get()).toBe(420);
    expect(q(".cs-scrub-time").textContent).toBe("420 ms");
    expect(live.disabled).toBe(false);
    live.click();
    expect(ctx.scrubTime.get()).toBeNull();
    expect(range.value).toBe("1000");
  });

  it("selects the part under a click and asks for it to be shown", () => {
    const { ctx, scrolled, q, snap } = mount();
    const layout = layoutTimeline(snap);
    const geometry = laneGeometry(layout);
    const vp = fitViewport(layout.end, WIDTH - 136);
    const toolsLane = layout.lanes.findIndex((l) => l.kind === "tools");
    const y = RULER_HEIGHT + (geometry.tops[toolsLane] ?? 0) + LANE_PADDING + ROW_HEIGHT / 2;
    const canvas = q<HTMLCanvasElement>("canvas");
    pointer(canvas, "pointerdown", timeToX(vp, 400), y);
    pointer(canvas, "pointerup", timeToX(vp, 400), y);
    expect(ctx.selection.get()).toBe("k");
    expect(scrolled).toEqual(["k"]);
    // A drag pans instead of selecting.
    ctx.selection.set(null);
    pointer(canvas, "pointerdown", timeToX(vp, 400), y);
    pointer(canvas, "pointermove", timeToX(vp, 300), y);
    pointer(canvas, "pointerup", timeToX(vp, 300), y);
    expect(ctx.selection.get()).toBeNull();
  });

  it("shows a tooltip on hover and scrubs by dragging on the ruler", () => {
    const { ctx, q, snap } = mount();
    const layout = layoutTimeline(snap);
    const geometry = laneGeometry(layout);
    const vp = fitViewport(layout.end, WIDTH - 136);
    const toolsLane = layout.lanes.findIndex((l) => l.kind === "tools");
    const y = RULER_HEIGHT + (geometry.tops[toolsLane] ?? 0) + LANE_PADDING + ROW_HEIGHT / 2;
    const canvas = q<HTMLCanvasElement>("canvas");
    pointer(canvas, "pointermove", timeToX(vp, 400), y);
    const tip = q<HTMLElement>(".cs-timeline-tooltip");
    expect(tip.hidden).toBe(false);
    expect(tip.textContent).toContain("search · done");
    pointer(canvas, "pointerleave", 0, 0);
    expect(tip.hidden).toBe(true);
    pointer(canvas, "pointerdown", timeToX(vp, 250), 5);
    pointer(canvas, "pointermove", timeToX(vp, 600), 5);
    pointer(canvas, "pointerup", timeToX(vp, 600), 5);
    expect(ctx.scrubTime.get()).toBeCloseTo(600, -1);
  });

  it("lists its lanes as text, and a listed bar selects its part like a click", () => {
    const { ctx, scrolled, q } = mount();
    const lanes = Array.from(
      q(".cs-timeline-outline").querySelectorAll(".cs-outline-lane-label"),
    ).map((l) => l.textContent);
    expect(lanes).toEqual(["Run", "Tools"]);
    const button = q<HTMLButtonElement>(".cs-outline-lane[data-kind=tools] button");
    expect(button.textContent).toBe("search · done · from 100 ms, took 700 ms");
    button.click();
    expect(ctx.selection.get()).toBe("k");
    expect(scrolled).toEqual(["k"]);
  });

  it("removes itself and stops listening when unmounted", () => {
    const { store, container, unmount } = mount();
    unmount();
    expect(container.querySelector(".cs-timeline")).toBeNull();
    expect(() =>
      store.dispatch({ kind: "batch", seq: 1, ops: [{ op: "run", set: { elapsedMs: 2000 } }] }),
    ).not.toThrow();
  });
});
