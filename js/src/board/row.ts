/**
 * One row of the board's table: cells drawn from a BoardRow, redrawn only when the row
 * object or what the row shows of the page (picked, opened, a kernel to stop it) changed.
 * Rows are positioned absolutely, `ROW_HEIGHT` apart, and reused as the table scrolls.
 */
import type { BoardRow } from "../model/wire";
import { h, setAttr } from "../views/dom";
import { Badge } from "../views/transcript/sections";
import { COLUMNS, type ColumnId, cellFlex } from "./columns";
import { isActive } from "./order";
import { describeStrip, markBox, type StripMark, stripMarks } from "./strip";
import { ROW_HEIGHT } from "./window";

/** What a row shows besides its data. */
export interface RowFlags {
  picked: boolean;
  opened: boolean;
  /** A kernel is there to stop the run. */
  live: boolean;
}

export class RowView {
  readonly el = h("div", "cs-brow");
  /** The id of the run drawn, "" before the first draw. */
  id = "";
  private readonly cells = new Map<ColumnId, HTMLElement>();
  /** The text of each text cell: its data is rewritten in place, which costs less than
   * replacing the cell's children. */
  private readonly texts = new Map<ColumnId, Text>();
  private readonly pick = h("input", "cs-bpick");
  private readonly badge = new Badge();
  private readonly strip = h("div", "cs-strip");
  private readonly stopButton = h("button", "cs-bstop", "Stop");
  private drawn: BoardRow | null = null;
  private drawnFlags = "";
  private drawnMarks: unknown = null;
  private stripKey = "";
  private drawnAxis = -1;
  private drawnIndex = -1;
  /** The strip's mark elements, and what each shows. */
  private readonly markEls: HTMLElement[] = [];
  private readonly markPlaces: string[] = [];

  constructor() {
    this.el.setAttribute("role", "row");
    this.el.tabIndex = -1;
    this.pick.type = "checkbox";
    this.stopButton.type = "button";
    this.strip.setAttribute("role", "img");
    for (const column of COLUMNS) {
      const cell = h("div", `cs-bc cs-bc-${column.id}${column.numeric ? " cs-bc-num" : ""}`);
      cell.setAttribute("role", "cell");
      cell.style.flex = cellFlex(column);
      if (column.id === "pick") cell.append(this.pick);
      else if (column.id === "status") cell.append(this.badge.el);
      else if (column.id === "strip") cell.append(this.strip);
      else if (column.id === "stop") cell.append(this.stopButton);
      else if (column.text !== undefined) {
        const text = document.createTextNode("");
        this.texts.set(column.id, text);
        cell.append(text);
      }
      this.cells.set(column.id, cell);
      this.el.append(cell);
    }
  }

  /** The position it was last put at (-1 before). */
  get index(): number {
    return this.drawnIndex;
  }

  /** Put the row at position `index` of the shown rows (0 is the first under the header). */
  place(index: number): void {
    if (index === this.drawnIndex) return;
    this.drawnIndex = index;
    this.el.style.top = `${index * ROW_HEIGHT}px`;
    // The header is row 1.
    setAttr(this.el, "aria-rowindex", String(index + 2));
  }

  /** Draw `row` with its strip on an axis ending at `axis` ms; nothing is touched when
   * none of them changed. */
  draw(row: BoardRow, flags: RowFlags, axis: number): void {
    const flagKey = `${flags.picked}${flags.opened}${flags.live}`;
    if (row === this.drawn && flagKey === this.drawnFlags) {
      this.drawStrip(row, axis);
      return;
    }
    if (row.id !== this.id) {
      this.id = row.id;
      this.el.dataset.id = row.id;
    }
    this.drawn = row;
    this.drawnFlags = flagKey;
    this.el.classList.toggle("cs-brow-open", flags.opened);
    this.el.classList.toggle("cs-brow-picked", flags.picked);
    if (flags.opened) setAttr(this.el, "aria-current", "true");
    else if (this.el.hasAttribute("aria-current")) this.el.removeAttribute("aria-current");
    this.badge.set(row.status);
    for (const column of COLUMNS) {
      if (column.text === undefined) continue;
      const cell = this.cells.get(column.id) as HTMLElement;
      const node = this.texts.get(column.id) as Text;
      const text = column.text(row);
      if (node.data !== text) node.data = text;
      if (
        column.id === "label" ||
        column.id === "tail" ||
        column.id === "error" ||
        column.id === "tripwire"
      ) {
        if (cell.title !== text) cell.title = text;
      }
    }
    this.pick.checked = flags.picked;
    setAttr(this.pick, "aria-label", `Pick ${row.label} for comparison`);
    const stoppable = flags.live && isActive(row.status);
    if (this.stopButton.hidden === stoppable) this.stopButton.hidden = !stoppable;
    setAttr(this.stopButton, "aria-label", `Stop ${row.label}`);
    this.drawStrip(row, axis);
  }

  /** The marks, as spans placed in percent of the axis every row shares. */
  private drawStrip(row: BoardRow, axis: number): void {
    // The kernel sends `marks` again only when they changed, and the axis grows a few times
    // a second at most, so a strip is rewritten only when its marks, the axis or the run's
    // end (its open marks then end where it did) changed.
    const key = `${row.status}|${row.startedMs}|${isActive(row.status) ? "" : row.elapsedMs}`;
    if (row.marks === this.drawnMarks && this.stripKey === key && axis === this.drawnAxis) return;
    const described = row.marks !== this.drawnMarks;
    this.drawnMarks = row.marks;
    this.stripKey = key;
    this.drawnAxis = axis;
    // The spans are kept and rewritten in place (a row element shows another run after a
    // sort or a scroll): only a mark whose place differs from the one drawn there is touched.
    const marks = stripMarks(row);
    for (let k = 0; k < marks.length; k++) {
      const mark = marks[k] as StripMark;
      const box = markBox(mark, axis);
      const className = `cs-mark cs-mark-${mark.kind}${mark.instant ? " cs-mark-at" : mark.t1 === null ? " cs-mark-open" : ""}`;
      const place = `${box.left}|${box.width}`;
      let span = this.markEls[k];
      if (span === undefined) {
        span = h("span");
        this.markEls.push(span);
        this.strip.append(span);
      }
      if (span.className !== className) span.className = className;
      if (this.markPlaces[k] === place) continue;
      this.markPlaces[k] = place;
      span.style.left = `${box.left}%`;
      span.style.width = box.width === null ? "" : `${box.width}%`;
    }
    for (const span of this.markEls.splice(marks.length)) span.remove();
    this.markPlaces.length = marks.length;
    if (!described) return;
    const words = describeStrip(row);
    setAttr(this.strip, "aria-label", `Timeline: ${words}`);
    if (this.strip.title !== words) this.strip.title = words;
  }
}
