/**
 * Where things are on the timeline canvas: the time↔x mapping (zoom and pan), lane and row
 * positions, and hit-testing through the layout. Pure, so the view's maths is unit-tested.
 */
import type { Layout, Marker, TimelineItem } from "./layout";

/** Height of the time ruler at the top (CSS px). */
export const RULER_HEIGHT = 22;
/** Width of the lane-label column on the left (CSS px). */
export const LABEL_WIDTH = 136;
/** Height of one row of bars (CSS px). */
export const ROW_HEIGHT = 16;
/** Space between stacked rows (CSS px). */
export const ROW_GAP = 3;
/** Space above and below a lane's rows (CSS px). */
export const LANE_PADDING = 4;
/** Narrowest and widest zoom (ms per CSS px). */
export const MIN_MS_PER_PX = 0.001;
/** Shortest span "fit" shows (ms): in-process workflow runs take a few milliseconds. */
export const MIN_FIT_SPAN_MS = 1;
export const MAX_MS_PER_PX = 600_000;
/** A tick or a thin bar is easier to point at with this much slack on each side (CSS px). */
export const HIT_SLACK = 3;

/** The visible time window. */
export interface Viewport {
  /** Offset (ms) at the left edge of the plot area. */
  start: number;
  /** Zoom: milliseconds per CSS pixel. */
  msPerPx: number;
  /** Width of the plot area (right of the lane labels), CSS px. */
  plotWidth: number;
}

/** Vertical positions of lanes, relative to the top of the lane area (below the ruler). */
export interface LaneGeometry {
  /** Top of each lane. */
  tops: number[];
  /** Height of each lane. */
  heights: number[];
  /** Height of all lanes together. */
  total: number;
}

/** x (CSS px from the canvas' left edge) of offset `t`. */
export function timeToX(vp: Viewport, t: number): number {
  return LABEL_WIDTH + (t - vp.start) / vp.msPerPx;
}

/** Offset (ms) under canvas x. */
export function xToTime(vp: Viewport, x: number): number {
  return vp.start + (x - LABEL_WIDTH) * vp.msPerPx;
}

/** Offset at the right edge of the plot area. */
export function viewEnd(vp: Viewport): number {
  return vp.start + vp.plotWidth * vp.msPerPx;
}

function clampZoom(msPerPx: number): number {
  return Math.min(MAX_MS_PER_PX, Math.max(MIN_MS_PER_PX, msPerPx));
}

/** A viewport showing the whole run from 0 to `end`, with a little room on the right. */
export function fitViewport(end: number, plotWidth: number): Viewport {
  const width = Math.max(1, plotWidth);
  const span = Math.max(end, MIN_FIT_SPAN_MS) * 1.04;
  return { start: 0, msPerPx: clampZoom(span / width), plotWidth: width };
}

/** Zoom by `factor` (>1 zooms in) keeping the offset under canvas x `anchorX` in place. */
export function zoomAt(vp: Viewport, factor: number, anchorX: number): Viewport {
  const anchorT = xToTime(vp, anchorX);
  const msPerPx = clampZoom(vp.msPerPx / factor);
  return { ...vp, msPerPx, start: anchorT - (anchorX - LABEL_WIDTH) * msPerPx };
}

/** Shift so the live edge `end` sits near the right edge, if it has run past it. */
export function followEdge(vp: Viewport, end: number): Viewport {
  if (end <= viewEnd(vp)) return vp;
  return { ...vp, start: end - vp.plotWidth * vp.msPerPx * 0.95 };
}

/** Shift so offsets `start`..`end` are in view, centring them if they are not. */
export function reveal(vp: Viewport, start: number, end: number): Viewport {
  if (end >= vp.start && start <= viewEnd(vp)) return vp;
  const mid = (start + end) / 2;
  return { ...vp, start: mid - (vp.plotWidth * vp.msPerPx) / 2 };
}

/** Lane tops and heights from their row counts. */
export function laneGeometry(layout: Layout): LaneGeometry {
  const tops: number[] = [];
  const heights: number[] = [];
  let y = 0;
  for (const lane of layout.lanes) {
    const height = LANE_PADDING * 2 + lane.rows * ROW_HEIGHT + (lane.rows - 1) * ROW_GAP;
    tops.push(y);
    heights.push(height);
    y += height;
  }
  return { tops, heights, total: y };
}

/** Top of a row, relative to the lane area. */
export function rowTop(geometry: LaneGeometry, lane: number, row: number): number {
  return (geometry.tops[lane] ?? 0) + LANE_PADDING + row * (ROW_HEIGHT + ROW_GAP);
}

/** Items grouped by lane and row, each group in start order, for hit-testing. */
export type RowIndex = Map<number, TimelineItem[]>;

function rowKey(lane: number, row: number): number {
  return lane * 65_536 + row;
}

/** Group a layout's items by lane and row. */
export function indexRows(layout: Layout): RowIndex {
  const index: RowIndex = new Map();
  for (const item of layout.items) {
    const key = rowKey(item.lane, item.row);
    let list = index.get(key);
    if (list === undefined) {
      list = [];
      index.set(key, list);
    }
    list.push(item);
  }
  for (const list of index.values()) list.sort((a, b) => a.start - b.start);
  return index;
}

/** Which lane and row lie under lane-area y, if any. */
export function rowAt(geometry: LaneGeometry, y: number): { lane: number; row: number } | null {
  if (y < 0 || y >= geometry.total) return null;
  let lo = 0;
  let hi = geometry.tops.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((geometry.tops[mid] ?? 0) <= y) lo = mid;
    else hi = mid - 1;
  }
  const inLane = y - (geometry.tops[lo] ?? 0) - LANE_PADDING;
  if (inLane < 0) return null;
  const row = Math.floor(inLane / (ROW_HEIGHT + ROW_GAP));
  if (inLane - row * (ROW_HEIGHT + ROW_GAP) > ROW_HEIGHT) return null;
  return { lane: lo, row };
}

/**
 * The item under canvas x and lane-area y: the nearest one whose drawn extent (with slack for
 * thin items) contains x, ticks winning over the bars they sit on.
 */
export function hitItem(
  index: RowIndex,
  geometry: LaneGeometry,
  vp: Viewport,
  x: number,
  y: number,
): TimelineItem | null {
  const at = rowAt(geometry, y);
  if (at === null) return null;
  const list = index.get(rowKey(at.lane, at.row));
  if (list === undefined) return null;
  const t = xToTime(vp, x);
  const slack = HIT_SLACK * vp.msPerPx;
  let best: TimelineItem | null = null;
  let bestScore = Infinity;
  for (const item of list) {
    if (item.start - slack > t) break;
    if (item.end + slack < t) continue;
    // Prefer ticks, then the shortest bar containing x: the most specific thing under the pointer.
    const score = item.shape === "tick" ? -1 : item.end - item.start;
    if (score < bestScore) {
      best = item;
      bestScore = score;
    }
  }
  return best;
}

/** The marker nearest canvas x within `slackPx`, or null. */
export function hitMarker(
  markers: readonly Marker[],
  vp: Viewport,
  x: number,
  slackPx = 4,
): Marker | null {
  let best: Marker | null = null;
  let bestDistance = slackPx;
  for (const marker of markers) {
    const distance = Math.abs(timeToX(vp, marker.t) - x);
    if (distance <= bestDistance) {
      best = marker;
      bestDistance = distance;
    }
  }
  return best;
}

/** Ruler tick spacing (ms): a 1-2-5 step giving ticks at least `minPx` apart. */
export function tickStep(msPerPx: number, minPx = 80): number {
  const raw = msPerPx * minPx;
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-6)));
  for (const step of [1, 2, 5, 10]) {
    if (step * power >= raw) return step * power;
  }
  return 10 * power;
}
