/**
 * The Timeline panel: a canvas drawn from `layoutTimeline`, with a DOM overlay only for the
 * controls (zoom, fit, scrubber, live) and the tooltip. Hover and click go through the
 * layout's geometry, never through per-item DOM. Layout runs at most once per animation
 * frame (less often when it is slow); pan, zoom and hover only repaint.
 */

import type { StoreState } from "../../model/store";
import type { PanelContext } from "../panel";
import { drawTimeline } from "./draw";
import { formatMs } from "./format";
import {
  fitViewport,
  followEdge,
  hitItem,
  hitMarker,
  indexRows,
  LABEL_WIDTH,
  type LaneGeometry,
  laneGeometry,
  type RowIndex,
  RULER_HEIGHT,
  reveal,
  rowTop,
  timeToX,
  type Viewport,
  viewEnd,
  xToTime,
  zoomAt,
} from "./geometry";
import {
  type Layout,
  type LayoutInput,
  layoutTimeline,
  type Marker,
  type TimelineItem,
} from "./layout";
import { createOutline } from "./outline";
import { TIMELINE_CSS } from "./styles";
import { readTheme, type Theme } from "./theme";

/** Tallest the canvas grows before its lanes scroll (CSS px). */
const MAX_CANVAS_HEIGHT = 420;
/** Zoom factor of one +/- press. */
const ZOOM_STEP = 1.6;
/** Pointer travel (CSS px) that turns a press into a drag rather than a click. */
const DRAG_THRESHOLD = 4;
/** How near (CSS px) the scrub cursor a press must be to grab it. */
const CURSOR_GRAB = 6;

/** How often the live edge advances between messages while the run streams (ms). */
const LIVE_TICK_MS = 250;
/** The text outline is rebuilt at most this often while the run streams (ms). */
const OUTLINE_INTERVAL_MS = 500;

/**
 * The store's state with the run's elapsed time moved to "now" while it streams: the time
 * since the last message that set it is added, so open parts reach the present.
 */
function liveInput(state: StoreState): LayoutInput {
  const { run, liveAnchor } = state;
  if (run.ended || liveAnchor === null) return state;
  const now = run.elapsedMs + Math.max(0, Date.now() - liveAnchor);
  return { run: { ...run, elapsedMs: now }, parts: state.parts };
}

/** Mount the timeline into `container`; returns the function that removes it. */
export function mountTimeline(container: HTMLElement, ctx: PanelContext): () => void {
  const doc = container.ownerDocument;
  const root = el(doc, "div", "cs-timeline");
  const style = doc.createElement("style");
  style.textContent = TIMELINE_CSS;

  const bar = el(doc, "div", "cs-timeline-controls");
  const zoomOut = button(doc, "−", "Zoom out", "cs-timeline-zoom-out");
  const zoomIn = button(doc, "+", "Zoom in", "cs-timeline-zoom-in");
  const fit = button(doc, "Fit", "Fit: show the whole run", "cs-timeline-fit");
  const scrub = doc.createElement("input");
  scrub.type = "range";
  scrub.className = "cs-scrub-range";
  scrub.min = "0";
  scrub.step = "any";
  scrub.title = "Scrub: show the run as it stood at this time";
  scrub.setAttribute("aria-label", "Scrub time");
  const readout = el(doc, "span", "cs-scrub-time");
  const live = button(doc, "Live", "Live: back to the live run", "cs-scrub-live");
  const help = el(doc, "span", "cs-timeline-help");
  help.textContent = "?";
  help.title =
    "Drag to pan · Ctrl/⌘ + wheel to zoom · keys: + − zoom, 0 fits, ← → pan, ↑ ↓ select, Enter opens · drag on the ruler or the red cursor to scrub · click a bar to select it";
  bar.append(zoomOut, zoomIn, fit, scrub, readout, live, help);

  const stage = el(doc, "div", "cs-timeline-stage");
  const canvas = doc.createElement("canvas");
  canvas.className = "cs-timeline-canvas";
  canvas.tabIndex = 0;
  canvas.setAttribute("role", "img");
  canvas.setAttribute(
    "aria-label",
    "Timeline of the run: arrow up and down select a bar, Enter opens it in the transcript",
  );
  const tooltip = el(doc, "div", "cs-timeline-tooltip");
  tooltip.hidden = true;
  stage.append(canvas, tooltip);
  const outline = createOutline(doc, (partId) => {
    ctx.selection.set(partId);
    ctx.scrollToPart(partId);
  });
  root.append(style, bar, stage, outline.el);
  container.append(root);

  const g = canvas.getContext("2d");
  let theme: Theme = readTheme(root);
  let layout: Layout = layoutTimeline(liveInput(ctx.store.get()));
  let rows: RowIndex = indexRows(layout);
  let geometry: LaneGeometry = laneGeometry(layout);
  let width = 0;
  let height = RULER_HEIGHT;
  let viewport: Viewport = fitViewport(layout.end, 1);
  /** The viewport tracks the whole run until the user zooms or pans. */
  let fitting = true;
  /** Keep the live edge in view while streaming, until the user pans away from it. */
  let following = true;
  let scrollY = 0;
  let hovered: TimelineItem | null = null;
  let layoutDirty = false;
  let drawDirty = true;
  let frame = 0;
  let lastLayoutCost = 0;
  let lastLayoutAt = 0;

  const schedule = (): void => {
    if (frame === 0) frame = requestAnimationFrame(onFrame);
  };

  const contentHeight = (): number => RULER_HEIGHT + geometry.total;
  const maxScroll = (): number => Math.max(0, contentHeight() - height);

  /** Rebuild the text outline: at once when the run has ended, else at most every interval. */
  let outlineAt = -Infinity;
  let outlineTimer: ReturnType<typeof setTimeout> | null = null;
  const buildOutline = (): void => {
    outlineAt = performance.now();
    outline.update(layout);
  };
  const refreshOutline = (): void => {
    const wait = outlineAt + OUTLINE_INTERVAL_MS - performance.now();
    if (wait <= 0 || ctx.store.get().run.ended) {
      if (outlineTimer !== null) clearTimeout(outlineTimer);
      outlineTimer = null;
      buildOutline();
    } else if (outlineTimer === null) {
      outlineTimer = setTimeout(() => {
        outlineTimer = null;
        buildOutline();
      }, wait);
    }
  };

  const relayout = (): void => {
    const started = performance.now();
    layout = layoutTimeline(liveInput(ctx.store.get()));
    rows = indexRows(layout);
    geometry = laneGeometry(layout);
    lastLayoutCost = performance.now() - started;
    lastLayoutAt = started;
    if (hovered !== null) hovered = null;
    resize();
    const ended = ctx.store.get().run.ended;
    if (fitting) viewport = fitViewport(layout.end, viewport.plotWidth);
    else if (following && !ended) viewport = followEdge(viewport, layout.end);
    syncScrubber();
    refreshOutline();
  };

  function onFrame(now: number): void {
    frame = 0;
    // A hidden panel (another tab is shown) lays out again only once it is visible.
    if (layoutDirty && stage.clientWidth > 0) {
      // A slow layout (huge runs) is spaced out so streaming never starves the page.
      if (now - lastLayoutAt >= lastLayoutCost * 3) {
        layoutDirty = false;
        relayout();
        drawDirty = true;
      } else {
        schedule();
      }
    }
    if (drawDirty) {
      drawDirty = false;
      paint();
    }
  }

  const paint = (): void => {
    if (g === null || width <= 0) return;
    const dpr = doc.defaultView?.devicePixelRatio ?? 1;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawTimeline(g, {
      layout,
      geometry,
      viewport,
      width,
      height,
      scrollY,
      theme,
      selected: ctx.selection.get(),
      hovered,
      scrubTime: ctx.scrubTime.get(),
    });
  };

  /** Match the canvas' backing store to its CSS size and the device pixel ratio. */
  function resize(): void {
    const cssWidth = Math.max(0, Math.floor(stage.clientWidth));
    const cssHeight = Math.min(MAX_CANVAS_HEIGHT, contentHeight());
    const dpr = doc.defaultView?.devicePixelRatio ?? 1;
    if (cssWidth !== width || cssHeight !== height || canvas.width !== Math.round(cssWidth * dpr)) {
      const plotWidth = Math.max(1, cssWidth - LABEL_WIDTH);
      viewport = fitting ? fitViewport(layout.end, plotWidth) : { ...viewport, plotWidth };
      width = cssWidth;
      height = cssHeight;
      canvas.style.width = `${cssWidth}px`;
      canvas.style.height = `${cssHeight}px`;
      canvas.width = Math.round(cssWidth * dpr);
      canvas.height = Math.round(cssHeight * dpr);
      drawDirty = true;
    }
    scrollY = Math.min(scrollY, maxScroll());
  }

  const syncScrubber = (): void => {
    const end = layout.end > 0 ? layout.end : 1;
    scrub.max = String(end);
    const t = ctx.scrubTime.get();
    scrub.value = String(t === null ? end : Math.min(t, end));
    readout.textContent = t === null ? "live" : formatMs(t);
    live.disabled = t === null;
    root.classList.toggle("cs-scrubbing", t !== null);
  };

  const setViewport = (next: Viewport, userMoved: boolean): void => {
    viewport = next;
    if (userMoved) {
      fitting = false;
      following = viewEnd(next) >= layout.end;
    }
    drawDirty = true;
    schedule();
  };

  const setScrub = (t: number): void => {
    ctx.scrubTime.set(Math.min(Math.max(0, t), layout.end));
  };

  // Controls.
  zoomIn.addEventListener("click", () =>
    setViewport(zoomAt(viewport, ZOOM_STEP, LABEL_WIDTH + viewport.plotWidth / 2), true),
  );
  zoomOut.addEventListener("click", () =>
    setViewport(zoomAt(viewport, 1 / ZOOM_STEP, LABEL_WIDTH + viewport.plotWidth / 2), true),
  );
  fit.addEventListener("click", () => {
    fitting = true;
    following = true;
    scrollY = 0;
    setViewport(fitViewport(layout.end, viewport.plotWidth), false);
  });
  scrub.addEventListener("input", () => setScrub(Number(scrub.value)));
  live.addEventListener("click", () => ctx.scrubTime.set(null));

  // Pointer: hover tooltips, click to select, drag to pan, drag the cursor to scrub.
  type Drag =
    | { kind: "pan"; x: number; y: number; start: Viewport; scrollY: number; moved: boolean }
    | { kind: "scrub" };
  let drag: Drag | null = null;
  /**
   * The canvas' box, read once per drag: reading it forces a layout whenever anything on the
   * page changed, which on a page holding a huge transcript costs more than a frame.
   */
  let dragRect: DOMRect | null = null;

  const local = (event: MouseEvent): { x: number; y: number } => {
    const rect = dragRect ?? canvas.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };

  /** Style writes only when the value changes, so the page's styles stay valid while panning. */
  const hideTooltip = (): void => {
    if (!tooltip.hidden) tooltip.hidden = true;
  };
  const setCursor = (cursor: string): void => {
    if (canvas.style.cursor !== cursor) canvas.style.cursor = cursor;
  };

  const hitAt = (x: number, y: number): TimelineItem | Marker | null => {
    if (x < LABEL_WIDTH) return null;
    if (y < RULER_HEIGHT) return hitMarker(layout.markers, viewport, x);
    return (
      hitItem(rows, geometry, viewport, x, y - RULER_HEIGHT + scrollY) ??
      hitMarker(layout.markers, viewport, x, 2)
    );
  };

  /** What the tooltip shows, and its measured width, so moving within one item reads no layout. */
  let tipTarget: TimelineItem | Marker | null = null;
  let tipWidth = 0;
  const showTooltip = (target: TimelineItem | Marker | null, x: number, y: number): void => {
    if (target === null) {
      hideTooltip();
      tipTarget = null;
      return;
    }
    if (target !== tipTarget || tooltip.hidden) {
      tipTarget = target;
      tooltip.textContent = target.tooltip;
      tooltip.hidden = false;
      tipWidth = tooltip.offsetWidth;
    }
    const room = stage.clientWidth - tipWidth - 4;
    tooltip.style.left = `${Math.max(0, Math.min(x + 12, room))}px`;
    tooltip.style.top = `${y + 14}px`;
  };

  const nearCursor = (x: number): boolean => {
    const t = ctx.scrubTime.get();
    return t !== null && Math.abs(timeToX(viewport, t) - x) <= CURSOR_GRAB;
  };

  const onPointerDown = (event: PointerEvent): void => {
    if (event.button !== 0) return;
    dragRect = canvas.getBoundingClientRect();
    const { x, y } = local(event);
    canvas.setPointerCapture?.(event.pointerId);
    if (x >= LABEL_WIDTH && (y < RULER_HEIGHT || nearCursor(x))) {
      drag = { kind: "scrub" };
      setScrub(xToTime(viewport, x));
    } else {
      drag = { kind: "pan", x, y, start: viewport, scrollY, moved: false };
    }
  };

  const onPointerMove = (event: PointerEvent): void => {
    const { x, y } = local(event);
    if (drag?.kind === "scrub") {
      setScrub(xToTime(viewport, x));
      return;
    }
    if (drag?.kind === "pan") {
      const dx = x - drag.x;
      const dy = y - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      drag.moved = true;
      hideTooltip();
      scrollY = Math.min(maxScroll(), Math.max(0, drag.scrollY - dy));
      setViewport({ ...drag.start, start: drag.start.start - dx * drag.start.msPerPx }, true);
      return;
    }
    const target = hitAt(x, y);
    const item = target !== null && "row" in target ? target : null;
    if (item !== hovered) {
      hovered = item;
      drawDirty = true;
      schedule();
    }
    setCursor(
      y < RULER_HEIGHT || nearCursor(x)
        ? "col-resize"
        : target !== null && target.partId !== null
          ? "pointer"
          : "grab",
    );
    showTooltip(target, x, y);
  };

  const onPointerUp = (event: PointerEvent): void => {
    const finished = drag;
    drag = null;
    canvas.releasePointerCapture?.(event.pointerId);
    const { x, y } = local(event);
    dragRect = null;
    if (finished?.kind !== "pan" || finished.moved) return;
    const target = hitAt(x, y);
    if (target !== null && target.partId !== null) {
      ctx.selection.set(target.partId);
      ctx.scrollToPart(target.partId);
    }
  };

  const onPointerLeave = (): void => {
    hideTooltip();
    if (hovered !== null) {
      hovered = null;
      drawDirty = true;
      schedule();
    }
  };

  /**
   * Ctrl/⌘ + wheel (and trackpad pinch) zooms around the pointer; a horizontal wheel pans;
   * a vertical wheel scrolls the lanes when they overflow, and otherwise scrolls the page.
   */
  const onWheel = (event: WheelEvent): void => {
    const { x } = local(event);
    const scale = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? 400 : 1;
    const dx = event.deltaX * scale;
    const dy = event.deltaY * scale;
    if (event.ctrlKey || event.metaKey) {
      event.preventDefault();
      setViewport(zoomAt(viewport, Math.exp(-dy * 0.002), Math.max(LABEL_WIDTH, x)), true);
    } else if (Math.abs(dx) > Math.abs(dy) || event.shiftKey) {
      event.preventDefault();
      const pan = Math.abs(dx) > Math.abs(dy) ? dx : dy;
      setViewport({ ...viewport, start: viewport.start + pan * viewport.msPerPx }, true);
    } else if (maxScroll() > 0) {
      const next = Math.min(maxScroll(), Math.max(0, scrollY + dy));
      if (next !== scrollY) {
        event.preventDefault();
        scrollY = next;
        drawDirty = true;
        schedule();
      }
    }
  };

  /** The item after (or before, `step` -1) the selected one, in the order of their starts. */
  const stepSelection = (step: 1 | -1): void => {
    const ordered = layout.items
      .filter((item) => item.partId !== null)
      .sort((a, b) => a.start - b.start || a.lane - b.lane || a.row - b.row);
    if (ordered.length === 0) return;
    const selected = ctx.selection.get();
    const at = ordered.findIndex((item) => item.partId === selected);
    const to =
      at < 0
        ? step === 1
          ? 0
          : ordered.length - 1
        : Math.min(ordered.length - 1, Math.max(0, at + step));
    const id = ordered[to]?.partId;
    if (id !== null && id !== undefined) ctx.selection.set(id);
  };

  /** Keyboard: + and - zoom, 0 fits, ← → pan by a tenth of the view, ↑ ↓ move the selection
   * from bar to bar, Enter opens the selected bar's part in the transcript. */
  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      stepSelection(event.key === "ArrowDown" ? 1 : -1);
      return;
    }
    if (event.key === "Enter") {
      const id = ctx.selection.get();
      if (id !== null) {
        event.preventDefault();
        ctx.scrollToPart(id);
      }
      return;
    }
    const centre = LABEL_WIDTH + viewport.plotWidth / 2;
    const tenth = (viewport.plotWidth * viewport.msPerPx) / 10;
    if (event.key === "+" || event.key === "=")
      setViewport(zoomAt(viewport, ZOOM_STEP, centre), true);
    else if (event.key === "-" || event.key === "_")
      setViewport(zoomAt(viewport, 1 / ZOOM_STEP, centre), true);
    else if (event.key === "0") fit.click();
    else if (event.key === "ArrowLeft")
      setViewport({ ...viewport, start: viewport.start - tenth }, true);
    else if (event.key === "ArrowRight")
      setViewport({ ...viewport, start: viewport.start + tenth }, true);
    else return;
    event.preventDefault();
  };

  canvas.addEventListener("keydown", onKeyDown);
  canvas.addEventListener("pointerdown", onPointerDown);
  canvas.addEventListener("pointermove", onPointerMove);
  canvas.addEventListener("pointerup", onPointerUp);
  canvas.addEventListener("pointercancel", onPointerUp);
  canvas.addEventListener("pointerleave", onPointerLeave);
  canvas.addEventListener("wheel", onWheel, { passive: false });

  // Selection made elsewhere: outline it and bring it into view.
  const onSelection = (id: string | null): void => {
    if (id !== null) {
      const item = layout.items.find((i) => i.partId === id);
      if (item !== undefined) {
        const before = viewport;
        viewport = reveal(viewport, item.start, item.end);
        if (viewport !== before) {
          fitting = false;
          following = viewEnd(viewport) >= layout.end;
        }
        const top = rowTop(geometry, item.lane, item.row);
        const visible = height - RULER_HEIGHT;
        if (top < scrollY || top > scrollY + visible - 20) {
          scrollY = Math.min(maxScroll(), Math.max(0, top - visible / 2));
        }
      }
    }
    drawDirty = true;
    schedule();
  };

  const onScrub = (): void => {
    syncScrubber();
    drawDirty = true;
    schedule();
  };

  // While streaming, open bars keep growing between messages (a long tool call sends none).
  const ticker = setInterval(() => {
    const state = ctx.store.get();
    if (!state.run.ended && state.liveAnchor !== null) {
      layoutDirty = true;
      schedule();
    }
  }, LIVE_TICK_MS);

  const unsubscribers = [
    ctx.store.subscribe(() => {
      layoutDirty = true;
      schedule();
    }),
    ctx.selection.subscribe(onSelection),
    ctx.scrubTime.subscribe(onScrub),
  ];

  const view = doc.defaultView;
  const resizeObserver =
    view?.ResizeObserver === undefined
      ? null
      : new view.ResizeObserver(() => {
          resize();
          schedule();
        });
  resizeObserver?.observe(stage);
  // JupyterLab switches themes by changing attributes on <body>.
  const themeObserver =
    view?.MutationObserver === undefined
      ? null
      : new view.MutationObserver(() => {
          theme = readTheme(root);
          drawDirty = true;
          schedule();
        });
  if (doc.body !== null) themeObserver?.observe(doc.body, { attributes: true });

  resize();
  syncScrubber();
  buildOutline();
  schedule();

  return () => {
    if (frame !== 0) cancelAnimationFrame(frame);
    frame = 0;
    clearInterval(ticker);
    if (outlineTimer !== null) clearTimeout(outlineTimer);
    for (const stop of unsubscribers) stop();
    resizeObserver?.disconnect();
    themeObserver?.disconnect();
    root.remove();
  };
}

function el(doc: Document, tag: string, className: string): HTMLElement {
  const node = doc.createElement(tag);
  node.className = className;
  return node;
}

function button(doc: Document, text: string, title: string, className: string): HTMLButtonElement {
  const node = doc.createElement("button");
  node.type = "button";
  node.className = `cs-button ${className}`;
  node.textContent = text;
  node.title = title;
  node.setAttribute("aria-label", title);
  return node;
}
