/**
 * Which rows of a long table are in the DOM: every row has the same height, so the rows in
 * view follow from the scroll position alone, and only those (and a margin on each side)
 * are drawn. 2,000 runs cost the DOM of a few dozen rows.
 */

/** Height of one row (px); the CSS gives rows exactly this. */
export const ROW_HEIGHT = 28;
/** Rows drawn beyond each edge of the visible area, so a short scroll shows drawn rows. */
export const MARGIN_ROWS = 8;
/** Height of the table's visible area when the page cannot say (no layout): what its CSS
 * allows at most. */
export const VIEWPORT_FALLBACK = 480;

/** The rows `[start, end)` to draw of `count` rows, scrolled by `scrollTop` in a visible
 * area `height` px high. */
export function visibleRange(
  scrollTop: number,
  height: number,
  count: number,
  rowHeight = ROW_HEIGHT,
  margin = MARGIN_ROWS,
): { start: number; end: number } {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + Math.max(0, height)) / rowHeight);
  const start = Math.max(0, Math.min(count, first - margin));
  const end = Math.max(start, Math.min(count, last + margin));
  return { start, end };
}

/** The scroll position that brings row `index` into a visible area `height` px high, from
 * `scrollTop`, moving as little as it can. */
export function scrollToShow(
  index: number,
  scrollTop: number,
  height: number,
  rowHeight = ROW_HEIGHT,
): number {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + height) return top + rowHeight - height;
  return scrollTop;
}
