/**
 * Paints one frame of the timeline on a 2D canvas: lanes, bars (batched by colour, culled to
 * the visible window), state strips, ticks, labels, markers, the scrub cursor and the ruler.
 */
import { formatMs } from "./format";
import {
  LABEL_WIDTH,
  type LaneGeometry,
  ROW_HEIGHT,
  RULER_HEIGHT,
  rowTop,
  tickStep,
  timeToX,
  type Viewport,
  viewEnd,
} from "./geometry";
import type { ColorKey, Layout, TimelineItem } from "./layout";
import type { Theme } from "./theme";

/** Everything one frame depends on. */
export interface Scene {
  /** What to draw. */
  layout: Layout;
  /** Lane positions. */
  geometry: LaneGeometry;
  /** Visible time window. */
  viewport: Viewport;
  /** Canvas size in CSS px. */
  width: number;
  height: number;
  /** Vertical scroll of the lane area (CSS px). */
  scrollY: number;
  /** Colours and fonts. */
  theme: Theme;
  /** Part id to outline, if any. */
  selected: string | null;
  /** Item under the pointer, if any. */
  hovered: TimelineItem | null;
  /** Scrub cursor offset (ms); null when live. */
  scrubTime: number | null;
}

/** What a frame drew, for tests and measurements. */
export interface DrawStats {
  /** Bars and ticks inside the visible window. */
  items: number;
  /** Rectangles filled after merging touching bars of one colour. */
  rects: number;
  /** Labels written inside bars. */
  labels: number;
}

/** Height of the phase strip at the bottom of a bar (CSS px). */
const STRIP_HEIGHT = 4;
/** Bars narrower than this get no label (CSS px). */
const MIN_LABEL_WIDTH = 36;
/** Rough width of one label character at 11px, to cut labels without measuring each. */
const CHAR_WIDTH = 6.2;
/** Labels per frame at most: beyond that they are unreadable anyway. */
const MAX_LABELS = 1500;

/**
 * Rectangles to fill, grouped by colour. Rectangles of one colour on one row that touch or
 * overlap (thousands of bars when zoomed out) are merged first, so a frame fills at most
 * about one rectangle per pixel column per row, whatever the number of items.
 */
class RectBatches {
  private readonly lists = new Map<ColorKey, number[]>();
  /** The run being extended on each row: [colour, x0, x1, y, h]. */
  private readonly open = new Map<number, [ColorKey, number, number, number, number]>();

  push(row: number, color: ColorKey, x: number, y: number, w: number, h: number): void {
    const run = this.open.get(row);
    if (
      run !== undefined &&
      run[0] === color &&
      run[3] === y &&
      run[4] === h &&
      x <= run[2] + 0.5 &&
      x + w >= run[1] - 0.5
    ) {
      run[1] = Math.min(run[1], x);
      run[2] = Math.max(run[2], x + w);
      return;
    }
    if (run !== undefined) this.emit(run);
    this.open.set(row, [color, x, x + w, y, h]);
  }

  private emit(run: [ColorKey, number, number, number, number]): void {
    let list = this.lists.get(run[0]);
    if (list === undefined) {
      list = [];
      this.lists.set(run[0], list);
    }
    list.push(run[1], run[3], run[2] - run[1], run[4]);
  }

  /** One fill colour per batch; plain fillRect calls, which canvases rasterise fastest. */
  flush(g: CanvasRenderingContext2D, colors: Record<ColorKey, string>): number {
    for (const run of this.open.values()) this.emit(run);
    this.open.clear();
    let filled = 0;
    for (const [color, list] of this.lists) {
      if (list.length === 0) continue;
      g.fillStyle = colors[color];
      for (let k = 0; k < list.length; k += 4) {
        g.fillRect(list[k] ?? 0, list[k + 1] ?? 0, list[k + 2] ?? 0, list[k + 3] ?? 0);
      }
      filled += list.length / 4;
      list.length = 0;
    }
    return filled;
  }
}

const bodies = new RectBatches();
const strips = new RectBatches();
const ticks = new RectBatches();

/** Draw one frame. `g` must already be scaled for devicePixelRatio. */
export function drawTimeline(g: CanvasRenderingContext2D, scene: Scene): DrawStats {
  const { layout, geometry, viewport: vp, width, height, scrollY, theme } = scene;
  const laneTop = RULER_HEIGHT;
  const laneBottom = height;
  const plotRight = width;
  const tStart = vp.start;
  const tEnd = viewEnd(vp);

  g.fillStyle = theme.background;
  g.fillRect(0, 0, width, height);

  // Which lanes are on screen, and their stripes.
  const visible: boolean[] = [];
  layout.lanes.forEach((_, lane) => {
    const top = laneTop + (geometry.tops[lane] ?? 0) - scrollY;
    const bottom = top + (geometry.heights[lane] ?? 0);
    const shown = bottom > laneTop && top < laneBottom;
    visible.push(shown);
    if (shown && lane % 2 === 1) {
      g.fillStyle = theme.laneStripe;
      g.fillRect(0, top, width, bottom - top);
    }
  });

  g.save();
  g.beginPath();
  g.rect(LABEL_WIDTH, laneTop, plotRight - LABEL_WIDTH, laneBottom - laneTop);
  g.clip();

  let drawn = 0;
  const labelled: { item: TimelineItem; x: number; y: number; w: number }[] = [];
  const outlined: { x: number; y: number; w: number; color: string }[] = [];
  for (const item of layout.items) {
    if (!visible[item.lane] || item.end < tStart - vp.msPerPx * 2 || item.start > tEnd) continue;
    drawn++;
    const y = laneTop + rowTop(geometry, item.lane, item.row) - scrollY;
    const row = item.lane * 65_536 + item.row;
    const x0 = Math.max(LABEL_WIDTH - 2, timeToX(vp, item.start));
    const x1 = Math.min(plotRight + 2, timeToX(vp, item.end));
    if (item.shape === "tick") {
      ticks.push(row, item.color, x0 - 1, y - 1, 2, ROW_HEIGHT + 2);
    } else {
      const w = Math.max(1.5, x1 - x0);
      bodies.push(row, item.color, x0, y, w, ROW_HEIGHT);
      if (w >= 3) {
        for (const segment of item.segments) {
          const s0 = Math.max(x0, timeToX(vp, segment.start));
          const s1 = Math.min(x0 + w, timeToX(vp, segment.end));
          if (s1 - s0 >= 0.5)
            strips.push(
              row,
              segment.color,
              s0,
              y + ROW_HEIGHT - STRIP_HEIGHT,
              s1 - s0,
              STRIP_HEIGHT,
            );
        }
      }
      if (w >= MIN_LABEL_WIDTH && labelled.length < MAX_LABELS && item.label !== "") {
        labelled.push({ item, x: x0, y, w });
      }
    }
    if (scene.selected !== null && item.partId === scene.selected) {
      outlined.push({ x: x0, y, w: Math.max(2, x1 - x0), color: theme.selection });
    } else if (item === scene.hovered) {
      outlined.push({ x: x0, y, w: Math.max(2, x1 - x0), color: theme.fontMuted });
    }
  }
  const rects =
    bodies.flush(g, theme.colors) + strips.flush(g, theme.colors) + ticks.flush(g, theme.colors);

  g.lineWidth = 1.5;
  for (const box of outlined) {
    g.strokeStyle = box.color;
    g.strokeRect(box.x - 1, box.y - 1, box.w + 2, ROW_HEIGHT + 2);
  }

  g.font = theme.labelFont;
  g.textBaseline = "middle";
  for (const { item, x, y, w } of labelled) {
    const fit = Math.floor((w - 6) / CHAR_WIDTH);
    const text =
      item.label.length > fit ? `${item.label.slice(0, Math.max(0, fit - 1))}…` : item.label;
    g.fillStyle = theme.onColors[item.color];
    g.fillText(text, Math.max(x, LABEL_WIDTH) + 3, y + (ROW_HEIGHT - STRIP_HEIGHT) / 2 + 1);
  }

  // Markers cross every lane.
  for (const marker of layout.markers) {
    const x = Math.round(timeToX(vp, marker.t)) + 0.5;
    if (x < LABEL_WIDTH || x > plotRight) continue;
    g.strokeStyle = theme.colors[marker.color];
    g.lineWidth = marker.kind === "ttft" ? 1 : 2;
    g.setLineDash(marker.kind === "ttft" ? [3, 3] : []);
    g.beginPath();
    g.moveTo(x, laneTop);
    g.lineTo(x, laneBottom);
    g.stroke();
  }
  g.setLineDash([]);

  // Time after the scrub cursor is dimmed: it has not happened yet in the scrubbed view.
  if (scene.scrubTime !== null) {
    const x = timeToX(vp, scene.scrubTime);
    if (x < plotRight) {
      g.globalAlpha = 0.55;
      g.fillStyle = theme.background;
      g.fillRect(
        Math.max(LABEL_WIDTH, x),
        laneTop,
        plotRight - Math.max(LABEL_WIDTH, x),
        laneBottom - laneTop,
      );
      g.globalAlpha = 1;
    }
  }
  g.restore();

  drawRuler(g, scene);
  drawLaneLabels(g, scene, visible);
  return { items: drawn, rects, labels: labelled.length };
}

function drawRuler(g: CanvasRenderingContext2D, scene: Scene): void {
  const { viewport: vp, width, theme, layout } = scene;
  g.fillStyle = theme.background;
  g.fillRect(0, 0, width, RULER_HEIGHT);
  g.strokeStyle = theme.border;
  g.lineWidth = 1;
  g.beginPath();
  g.moveTo(0, RULER_HEIGHT - 0.5);
  g.lineTo(width, RULER_HEIGHT - 0.5);
  g.stroke();

  const step = tickStep(vp.msPerPx);
  const first = Math.ceil(vp.start / step) * step;
  g.font = theme.labelFont;
  g.textBaseline = "middle";
  g.fillStyle = theme.fontMuted;
  g.beginPath();
  for (let t = first; t <= viewEnd(vp); t += step) {
    const x = Math.round(timeToX(vp, t)) + 0.5;
    if (x < LABEL_WIDTH) continue;
    g.moveTo(x, RULER_HEIGHT - 6);
    g.lineTo(x, RULER_HEIGHT);
    g.fillText(formatMs(t), x + 3, RULER_HEIGHT / 2 - 1);
  }
  g.stroke();

  g.save();
  g.beginPath();
  g.rect(LABEL_WIDTH, 0, width - LABEL_WIDTH, RULER_HEIGHT);
  g.clip();
  for (const marker of layout.markers) {
    const x = timeToX(vp, marker.t);
    if (x < LABEL_WIDTH - 4 || x > width + 4) continue;
    g.fillStyle = theme.colors[marker.color];
    g.beginPath();
    g.moveTo(x - 4, RULER_HEIGHT - 8);
    g.lineTo(x + 4, RULER_HEIGHT - 8);
    g.lineTo(x, RULER_HEIGHT);
    g.fill();
  }
  if (scene.scrubTime !== null) {
    const x = Math.round(timeToX(vp, scene.scrubTime)) + 0.5;
    g.strokeStyle = theme.cursor;
    g.lineWidth = 2;
    g.beginPath();
    g.moveTo(x, 0);
    g.lineTo(x, RULER_HEIGHT);
    g.stroke();
    g.fillStyle = theme.cursor;
    g.fillRect(x - 4, 0, 8, 7);
  }
  g.restore();

  if (scene.scrubTime !== null) {
    const x = Math.round(timeToX(vp, scene.scrubTime)) + 0.5;
    if (x >= LABEL_WIDTH && x <= width) {
      g.strokeStyle = theme.cursor;
      g.lineWidth = 2;
      g.beginPath();
      g.moveTo(x, RULER_HEIGHT);
      g.lineTo(x, scene.height);
      g.stroke();
    }
  }
}

function drawLaneLabels(g: CanvasRenderingContext2D, scene: Scene, visible: boolean[]): void {
  const { layout, geometry, theme, scrollY, height } = scene;
  g.save();
  g.beginPath();
  g.rect(0, RULER_HEIGHT, LABEL_WIDTH, height - RULER_HEIGHT);
  g.clip();
  g.fillStyle = theme.background;
  g.fillRect(0, RULER_HEIGHT, LABEL_WIDTH, height - RULER_HEIGHT);
  g.font = theme.labelFont;
  g.textBaseline = "middle";
  layout.lanes.forEach((lane, index) => {
    if (!visible[index]) return;
    const top = RULER_HEIGHT + (geometry.tops[index] ?? 0) - scrollY;
    if (index % 2 === 1) {
      g.fillStyle = theme.laneStripe;
      g.fillRect(0, top, LABEL_WIDTH, geometry.heights[index] ?? 0);
    }
    const indent = 6 + lane.depth * 10;
    const text = fitLaneLabel(lane.label, Math.floor((LABEL_WIDTH - indent - 4) / CHAR_WIDTH));
    g.fillStyle = lane.depth === 0 ? theme.font : theme.fontMuted;
    g.fillText(text, indent, top + 4 + ROW_HEIGHT / 2);
  });
  g.strokeStyle = theme.border;
  g.lineWidth = 1;
  g.beginPath();
  g.moveTo(LABEL_WIDTH - 0.5, RULER_HEIGHT);
  g.lineTo(LABEL_WIDTH - 0.5, height);
  g.stroke();
  g.restore();
}

/**
 * A lane label cut to `fit` characters. "researcher · Tools" loses characters from the
 * scope name, never from the lane's kind after the last " · ", so sibling lanes stay apart.
 */
export function fitLaneLabel(label: string, fit: number): string {
  if (label.length <= fit) return label;
  const split = label.lastIndexOf(" · ");
  if (split > 0) {
    const tail = label.slice(split);
    const room = fit - tail.length - 1;
    if (room >= 3) return `${label.slice(0, room)}…${tail}`;
  }
  return `${label.slice(0, Math.max(0, fit - 1))}…`;
}
