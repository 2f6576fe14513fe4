/**
 * The board's table: a sortable header and the rows, windowed. Every row has the same
 * height, so only the rows in view (and a margin) are in the DOM, reused as the table
 * scrolls; a row element is redrawn only when its row changed. The strips of all rows share
 * one time axis, set on the table.
 *
 * Keyboard: rows are focusable (one at a time is in the tab order); arrow keys, Page
 * Up/Down, Home and End move between them, Enter opens the run, Space picks it.
 */
import type { BoardRow } from "../model/wire";
import { activeElementFor, h, placeChildren, setAttr, setText } from "../views/dom";
import { schedule, unschedule } from "../views/frame";
import { COLUMNS, cellFlex } from "./columns";
import type { Sort, SortKey } from "./order";
import { type RowFlags, RowView } from "./row";
import { ROW_HEIGHT, scrollToShow, VIEWPORT_FALLBACK, visibleRange } from "./window";

/** New row elements a draw puts into the DOM at most, besides the ones it reuses; the rest
 * follow in the next frames, the rows in sight first. The browser styles and lays out every
 * element of a row it gains (about 25), and the first frame of a board also carries
 * JupyterLab placing the output: with the 18 rows of a full view at once that frame took
 * 44 ms, with 6 of them 25 ms, and the others came in the two frames after it. Rows reused
 * in place (a sort, a filter, a scroll) only change their text and are not counted. */
export const NEW_ROWS_PER_FRAME = 6;

export interface TableActions {
  open(id: string): void;
  pick(id: string): void;
  stop(id: string): void;
  sort(key: SortKey): void;
}

/** What the table draws: the ids shown, in order, and how to find and flag each row. */
export interface TableContent {
  ids: readonly string[];
  row(id: string): BoardRow | undefined;
  flags(id: string): RowFlags;
  sort: Sort | null;
}

export class BoardTableView {
  /** The table and, under it, what it says when no row matches. */
  readonly box = h("div", "cs-board-table");
  /** The scrolling element (the table for assistive technology). */
  readonly el = h("div", "cs-board-scroll");
  private readonly head = h("div", "cs-board-head");
  private readonly canvas = h("div", "cs-board-canvas");
  private readonly empty = h("div", "cs-board-empty");
  private readonly headers = new Map<SortKey, HTMLElement>();
  /** Rows in the DOM, by run id. */
  private readonly shown = new Map<string, RowView>();
  /** Row elements out of view, kept for reuse. */
  private readonly spare: RowView[] = [];
  private readonly viewOf = new WeakMap<Element, RowView>();
  private content: TableContent | null = null;
  /** The row in the tab order (the last one focused). */
  private current: string | null = null;
  private scrollTop = 0;
  private axis = 1;
  /** The next draw draws the rows in sight only, and the margin in the frame after it. */
  private sightFirst = false;
  /** The scrolling element's height as last reported (px); null before any report. Read
   * from the reports, never from the element while drawing, which would make the browser
   * lay the page out in the middle of the frame's writes. */
  private height: number | null = null;
  private readonly resizes: ResizeObserver | null;

  constructor(
    private readonly actions: TableActions,
    /** Ask for a draw in the next frame. */
    private readonly redraw: () => void,
  ) {
    this.el.setAttribute("role", "table");
    this.el.setAttribute("aria-label", "Runs");
    this.head.setAttribute("role", "row");
    this.head.setAttribute("aria-rowindex", "1");
    this.canvas.setAttribute("role", "rowgroup");
    for (const column of COLUMNS) {
      const cell = h("div", `cs-bc cs-bc-${column.id}${column.numeric ? " cs-bc-num" : ""}`);
      cell.setAttribute("role", "columnheader");
      cell.style.flex = cellFlex(column);
      cell.title = column.title;
      const sortKey = column.sort;
      if (sortKey !== null) {
        const button = h("button", "cs-bsort", column.heading);
        button.type = "button";
        button.setAttribute("aria-label", `${column.title}: sort`);
        button.addEventListener("click", () => actions.sort(sortKey));
        cell.append(button);
        this.headers.set(sortKey, cell);
      } else if (column.heading) {
        cell.append(column.heading);
      } else {
        cell.append(h("span", "cs-visually-hidden", column.title));
      }
      this.head.append(cell);
    }
    this.empty.hidden = true;
    this.el.append(this.head, this.canvas);
    this.box.append(this.el, this.empty);

    this.resizes =
      typeof ResizeObserver === "function"
        ? new ResizeObserver((entries) => {
            const height = entries.at(-1)?.contentRect.height;
            if (height === undefined || height === this.height) return;
            this.height = height;
            this.redraw();
          })
        : null;
    this.resizes?.observe(this.el);
    this.el.addEventListener("scroll", () => {
      this.scrollTop = this.el.scrollTop;
      this.redraw();
    });
    this.canvas.addEventListener("click", (event) => this.clicked(event));
    this.canvas.addEventListener("change", (event) => {
      const view = this.rowOf(event.target);
      if (view !== undefined && (event.target as Element).classList.contains("cs-bpick"))
        actions.pick(view.id);
    });
    this.canvas.addEventListener("keydown", (event) => this.keyed(event));
    this.canvas.addEventListener("focusin", (event) => {
      const view = this.rowOf(event.target);
      if (view !== undefined && view.id !== this.current) {
        this.current = view.id;
        this.redraw();
      }
    });
  }

  /** Draw `content`: the rows in view, each only if it changed. */
  draw(content: TableContent): void {
    this.content = content;
    const { ids } = content;
    const count = ids.length;
    // Writing a style, even the same one, makes the browser work out the styles of every
    // row again: only what changed is written.
    const height = `${count * ROW_HEIGHT}px`;
    if (this.canvas.style.height !== height) this.canvas.style.height = height;
    setAttr(this.el, "aria-rowcount", String(count + 1));
    if (this.empty.hidden !== count > 0) this.empty.hidden = count > 0;
    setText(this.empty, "No run matches the filter.");
    for (const [key, cell] of this.headers) {
      const sorted = content.sort?.key === key;
      const value = sorted ? (content.sort?.dir === "asc" ? "ascending" : "descending") : null;
      if (value === null) cell.removeAttribute("aria-sort");
      else if (cell.getAttribute("aria-sort") !== value) cell.setAttribute("aria-sort", value);
    }

    const visible = this.viewportHeight();
    // A table that got shorter (a filter) is scrolled back by the browser; draw what it will
    // show rather than nothing until its scroll event comes.
    this.scrollTop = Math.max(0, Math.min(this.scrollTop, count * ROW_HEIGHT - visible));
    let { start, end } = visibleRange(this.scrollTop, visible, count);
    // When most rows in view are new (a jump, a sort, a filter), the rows in sight come
    // first and the margin around them in the next frame: either frame is then about half
    // the work of drawing both at once.
    const sight = this.sightRange(count);
    let fresh = 0;
    for (let index = start; index < end; index++)
      if (!this.shown.has(ids[index] as string)) fresh += 1;
    const sightFirst = this.sightFirst || fresh > sight.end - sight.start;
    this.sightFirst = false;
    if (sightFirst && (start < sight.start || end > sight.end)) {
      ({ start, end } = sight);
      this.redraw();
    }
    const wanted = new Map<string, number>();
    for (let index = start; index < end; index++) wanted.set(ids[index] as string, index);
    // The focused row stays in the DOM when it scrolls away, so focus is not lost.
    const focused = this.focusedRow();
    if (focused !== undefined && !wanted.has(focused.id)) {
      const index = ids.indexOf(focused.id);
      if (index >= 0) wanted.set(focused.id, index);
    }
    // One row is in the tab order: the last one focused while it is drawn, else the first
    // one in view.
    const tabbed = this.current !== null && wanted.has(this.current) ? this.current : ids[start];

    // Rows that left the view show the runs that came into it: their elements stay where
    // they are and only their text changes, which costs far less than taking elements out
    // and putting others in (a sort or a filter changes every row in view).
    const freed: RowView[] = [];
    for (const [id, view] of this.shown) {
      if (wanted.has(id)) continue;
      this.shown.delete(id);
      freed.push(view);
    }
    freed.sort((a, b) => a.index - b.index);
    const admitted = this.admit(wanted, freed.length, sight);
    let reused = 0;
    const els: HTMLElement[] = [];
    for (const [id, index] of wanted) {
      const row = content.row(id);
      if (row === undefined) continue;
      let view = this.shown.get(id);
      if (view === undefined) {
        if (admitted !== null && !admitted.has(id)) continue;
        view = freed[reused] ?? this.spare.pop() ?? this.newRow();
        if (view === freed[reused]) reused += 1;
        this.shown.set(id, view);
      }
      view.place(index);
      view.draw(row, content.flags(id), this.axis);
      const tabIndex = id === tabbed ? 0 : -1;
      if (view.el.tabIndex !== tabIndex) view.el.tabIndex = tabIndex;
      els.push(view.el);
    }
    for (const view of freed.slice(reused)) {
      view.el.remove();
      this.spare.push(view);
    }
    placeChildren(this.canvas, els);
    if (admitted !== null) this.redraw();
  }

  /** Which of the `wanted` rows not in the DOM this draw puts in, when it cannot put them all
   * (null: all of them): as many as the `reusable` rows that left the view can show, and
   * NEW_ROWS_PER_FRAME more; the rows in `sight` first, then the others from the top. The
   * row asked for by the keyboard is always put in, since it is focused right after. */
  private admit(
    wanted: Map<string, number>,
    reusable: number,
    sight: { start: number; end: number },
  ): Set<string> | null {
    const missing: [string, number][] = [];
    for (const entry of wanted) if (!this.shown.has(entry[0])) missing.push(entry);
    const room = reusable + NEW_ROWS_PER_FRAME;
    if (missing.length <= room) return null;
    const inSight = ([, index]: [string, number]) => index >= sight.start && index < sight.end;
    const ordered = [...missing.filter(inSight), ...missing.filter((entry) => !inSight(entry))];
    const admitted = new Set(ordered.slice(0, room).map(([id]) => id));
    if (this.current !== null && wanted.has(this.current)) admitted.add(this.current);
    return admitted;
  }

  /** Set where the shared time axis ends (ms since the board started); the strips of the
   * rows in view are moved to it at the next draw. */
  setAxis(ms: number): void {
    this.axis = ms;
  }

  /** The table was moved into another element: the browser forgot its scroll position.
   * It is put back in the next frame's reads, not here: setting `scrollTop` lays out the
   * page at once, and a move happens while the notebook draws its output anew.
   *
   * A moved element is styled and laid out anew, every row in it: the rows out of sight
   * (the margin) leave the DOM now and come back in the frames after, so the first frame
   * after a move carries about half the rows. */
  moved(): void {
    if (this.scrollTop > 0) schedule(this.restoreScroll, "read");
    const ids = this.content?.ids;
    if (ids === undefined) return;
    const sight = this.sightRange(ids.length);
    for (const [id, view] of this.shown) {
      if (view.index >= sight.start && view.index < sight.end) continue;
      this.shown.delete(id);
      view.el.remove();
      this.spare.push(view);
    }
    this.sightFirst = true;
    this.redraw();
  }

  private readonly restoreScroll = (): void => {
    if (this.el.scrollTop !== this.scrollTop) this.el.scrollTop = this.scrollTop;
  };

  /** Scroll back to the first row (the rows shown changed). */
  toTop(): void {
    this.scrollTop = 0;
    this.el.scrollTop = 0;
  }

  /** Scroll to and focus the row `id`, drawing it first. */
  focusRow(id: string): void {
    const content = this.content;
    if (content === null) return;
    const index = content.ids.indexOf(id);
    if (index < 0) return;
    const top = scrollToShow(index, this.scrollTop, this.viewportHeight());
    if (top !== this.scrollTop) {
      this.el.scrollTop = top;
      this.scrollTop = top;
    }
    this.current = id;
    this.draw(content);
    this.shown.get(id)?.el.focus();
  }

  private newRow(): RowView {
    const view = new RowView();
    this.viewOf.set(view.el, view);
    return view;
  }

  /** Stop watching the table's size. */
  dispose(): void {
    this.resizes?.disconnect();
    unschedule(this.restoreScroll);
  }

  /** Height of the rows' visible area (below the header), as the size observer last
   * reported it. Before its first report the table's largest height is assumed: reading
   * the element's height instead would lay out the page in the middle of the first draw. */
  private viewportHeight(): number {
    const height = this.height ?? 0;
    return height > 0 ? Math.max(ROW_HEIGHT, height - ROW_HEIGHT) : VIEWPORT_FALLBACK;
  }

  /** The rows of `count` in sight, without the margin. */
  private sightRange(count: number): { start: number; end: number } {
    return visibleRange(this.scrollTop, this.viewportHeight(), count, ROW_HEIGHT, 0);
  }

  private rowOf(target: EventTarget | null): RowView | undefined {
    const el = target instanceof Element ? target.closest(".cs-brow") : null;
    return el === null ? undefined : this.viewOf.get(el);
  }

  private focusedRow(): RowView | undefined {
    const active = activeElementFor(this.el);
    return active !== null && this.canvas.contains(active) ? this.rowOf(active) : undefined;
  }

  private clicked(event: MouseEvent): void {
    const view = this.rowOf(event.target);
    if (view === undefined) return;
    const target = event.target as Element;
    if (target.closest(".cs-bstop") !== null) {
      this.actions.stop(view.id);
      return;
    }
    // The pick box (and its cell) picks; it does not open.
    if (target.closest(".cs-bc-pick") !== null) return;
    this.actions.open(view.id);
  }

  private keyed(event: KeyboardEvent): void {
    const view = this.rowOf(event.target);
    const content = this.content;
    if (view === undefined || content === null) return;
    // Keys pressed on the row's own controls are theirs.
    if (event.target !== view.el) return;
    if (event.key === "Enter") {
      event.preventDefault();
      this.actions.open(view.id);
      return;
    }
    if (event.key === " ") {
      event.preventDefault();
      this.actions.pick(view.id);
      return;
    }
    const index = content.ids.indexOf(view.id);
    const page = Math.max(1, Math.floor(this.viewportHeight() / ROW_HEIGHT) - 1);
    const last = content.ids.length - 1;
    let to: number;
    if (event.key === "ArrowDown") to = index + 1;
    else if (event.key === "ArrowUp") to = index - 1;
    else if (event.key === "PageDown") to = index + page;
    else if (event.key === "PageUp") to = index - page;
    else if (event.key === "Home") to = 0;
    else if (event.key === "End") to = last;
    else return;
    event.preventDefault();
    const id = content.ids[Math.max(0, Math.min(last, to))];
    if (id !== undefined) this.focusRow(id);
  }
}
