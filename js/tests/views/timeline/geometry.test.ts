import { describe, expect, it } from "vitest";
import { fitLaneLabel } from "../../../src/views/timeline/draw";
import {
  fitViewport,
  followEdge,
  hitItem,
  hitMarker,
  indexRows,
  LABEL_WIDTH,
  LANE_PADDING,
  laneGeometry,
  ROW_GAP,
  ROW_HEIGHT,
  reveal,
  rowAt,
  tickStep,
  timeToX,
  viewEnd,
  xToTime,
  zoomAt,
} from "../../../src/views/timeline/geometry";
import { layoutTimeline } from "../../../src/views/timeline/layout";
import { notice, output, runInfo, step, tool } from "./builders";

function scene() {
  const layout = layoutTimeline({
    run: runInfo({ elapsedMs: 1000, ttftMs: null }),
    parts: [
      step("s", 0, 0, 1000, "stop"),
      tool(
        "a",
        "slow",
        [
          [100, "running"],
          [900, "done"],
        ],
        900,
      ),
      tool(
        "b",
        "fast",
        [
          [120, "running"],
          [200, "done"],
        ],
        200,
      ),
      output("o", "a", 500),
      notice("x", 700, "error", "boom"),
    ],
  });
  return {
    layout,
    geometry: laneGeometry(layout),
    index: indexRows(layout),
    vp: fitViewport(layout.end, 1040),
  };
}

/** Lane-area y of the middle of a row. */
function rowMiddle(geometry: ReturnType<typeof laneGeometry>, lane: number, row: number): number {
  return (geometry.tops[lane] ?? 0) + LANE_PADDING + row * (ROW_HEIGHT + ROW_GAP) + ROW_HEIGHT / 2;
}

describe("timeline geometry", () => {
  it("maps time to x and back, and fits the whole run", () => {
    const vp = fitViewport(1000, 1040);
    expect(timeToX(vp, 0)).toBe(LABEL_WIDTH);
    expect(xToTime(vp, timeToX(vp, 640))).toBeCloseTo(640);
    expect(viewEnd(vp)).toBeGreaterThanOrEqual(1000);
  });

  it("fits a run of a few milliseconds to the whole width", () => {
    const vp = fitViewport(2.4, 1000);
    expect(viewEnd(vp)).toBeGreaterThanOrEqual(2.4);
    expect(timeToX(vp, 2.4) - LABEL_WIDTH).toBeGreaterThan(900);
  });

  it("zooms around the pointer and follows the live edge", () => {
    const vp = fitViewport(1000, 1000);
    const anchor = timeToX(vp, 500);
    const zoomed = zoomAt(vp, 4, anchor);
    expect(zoomed.msPerPx).toBeCloseTo(vp.msPerPx / 4);
    expect(xToTime(zoomed, anchor)).toBeCloseTo(500);
    const followed = followEdge(zoomed, 5000);
    expect(viewEnd(followed)).toBeGreaterThan(5000);
    expect(viewEnd(followed) - 5000).toBeLessThan(zoomed.plotWidth * zoomed.msPerPx * 0.1);
    expect(followEdge(vp, 10)).toBe(vp);
    const moved = reveal(zoomed, 50, 60);
    expect(moved.start).toBeLessThan(50);
    expect(viewEnd(moved)).toBeGreaterThan(60);
  });

  it("finds the row under y and the item under x, preferring ticks and short bars", () => {
    const { layout, geometry, index, vp } = scene();
    const tools = layout.lanes.findIndex((l) => l.kind === "tools");
    expect(rowAt(geometry, rowMiddle(geometry, tools, 1))).toEqual({ lane: tools, row: 1 });
    expect(rowAt(geometry, -5)).toBeNull();
    const onA = hitItem(index, geometry, vp, timeToX(vp, 300), rowMiddle(geometry, tools, 0));
    expect(onA?.partId).toBe("a");
    const onB = hitItem(index, geometry, vp, timeToX(vp, 150), rowMiddle(geometry, tools, 1));
    expect(onB?.partId).toBe("b");
    const onTick = hitItem(
      index,
      geometry,
      vp,
      timeToX(vp, 500) + 2,
      rowMiddle(geometry, tools, 0),
    );
    expect(onTick?.partId).toBe("o");
    expect(
      hitItem(index, geometry, vp, timeToX(vp, 950), rowMiddle(geometry, tools, 0)),
    ).toBeNull();
  });

  it("hits markers near their line", () => {
    const { layout, vp } = scene();
    expect(hitMarker(layout.markers, vp, timeToX(vp, 700) + 3)?.partId).toBe("x");
    expect(hitMarker(layout.markers, vp, timeToX(vp, 700) + 9)).toBeNull();
  });

  it("spaces ruler ticks on a 1-2-5 scale", () => {
    expect(tickStep(1)).toBe(100);
    expect(tickStep(2)).toBe(200);
    expect(tickStep(3)).toBe(500);
    expect(tickStep(0.01)).toBe(1);
  });
});

describe("lane labels", () => {
  it("shortens the scope name of a nested lane, keeping the lane's kind", () => {
    expect(fitLaneLabel("Tools", 20)).toBe("Tools");
    expect(fitLaneLabel("workflow-greetingWorkflow · Workflow", 20)).toBe("workflow… · Workflow");
    expect(fitLaneLabel("workflow-greetingWorkflow · Run", 20)).toHaveLength(20);
    expect(fitLaneLabel("a-very-long-top-level-label", 10)).toBe("a-very-lo…");
  });
});
