/**
 * One row of the board's table: cells drawn from a BoardRow, redrawn only when the row
 * object or what the row shows of the page (picked, opened, a kernel to stop it) changed.
 * Rows are positioned absolutely, `ROW_HEIGHT` apart, and reused as the table scrolls.
 */
import type { BoardRow } from "../model/wire";
import { h, setText } from "../views/dom";
import { Badge } from "../views/transcript/sections";
import { COLUMNS, type ColumnId } from "./columns";
import { isActive } from "./order";
import { describeStrip, stripMarks } from "./strip";
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
  private readonly pick = h("input", "cs-bpick");
  private readonly badge = new Badge();
  private readonly strip = h("div", "cs-strip");
  private readonly stopButton = h("button", "cs-bstop", "Stop");
  private drawn: BoardRow | null = null;
  private drawnFlags = "";
  private drawnMarks: unknown = null;
  private drawnIndex = -1;

  constructor() {
    this.el.setAttribute("role", "row");
    this.el.tabIndex = -1;
    this.pick.type = "checkbox";
    this.stopButton.type = "button";
    this.strip.setAttribute("role", "img");
    for (const column of COLUMNS) {
      const cell = h("div", `cs-bc cs-bc-${column.id}${column.numeric ? " cs-bc-num" : ""}`);
      cell.setAttribute("role", "cell");
      if (column.id === "pick") cell.append(this.pick);
      else if (column.id === "status") cell.append(this.badge.el);
      else if (column.id === "strip") cell.append(this.strip);
      else if (column.id === "stop") cell.append(this.stopButton);
      this.cells.set(column.id, cell);
      this.el.append(cell);
    }
  }

  /** Put the row at position `index` of the shown rows (0 is the first under the header). */
  place(index: number): void {
    if (index === this.drawnIndex) return;
    this.drawnIndex = index;
    this.el.style.top = `${index * ROW_HEIGHT}px`;
    // The header is row 1.
    this.el.setAttribute("aria-rowindex", String(index + 2));
  }

  /** Draw `row`; nothing is touched when neither it nor `flags` changed. */
  draw(row: BoardRow, flags: RowFlags): void {
    const flagKey = `${flags.picked}${flags.opened}${flags.live}`;
    if (row === this.drawn && flagKey === this.drawnFlags) return;
    if (row.id !== this.id) {
      this.id = row.id;
      this.el.dataset.id = row.id;
    }
    this.drawn = row;
    this.drawnFlags = flagKey;
    this.el.classList.toggle("cs-brow-open", flags.opened);
    this.el.classList.toggle("cs-brow-picked", flags.picked);
    if (flags.opened) this.el.setAttribute("aria-current", "true");
    else this.el.removeAttribute("aria-current");
    this.badge.set(row.status);
    for (const column of COLUMNS) {
      if (column.text === undefined) continue;
      const cell = this.cells.get(column.id) as HTMLElement;
      const text = column.text(row);
      setText(cell, text);
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
    this.pick.setAttribute("aria-label", `Pick ${row.label} for comparison`);
    const stoppable = flags.live && isActive(row.status);
    this.stopButton.hidden = !stoppable;
    this.stopButton.setAttribute("aria-label", `Stop ${row.label}`);
    this.drawStrip(row);
  }

  /** The marks, as spans placed by the CSS on the axis the table sets (`--cs-axis`). */
  private drawStrip(row: BoardRow): void {
    // The kernel sends `marks` again only when they changed, and an open mark reaches the
    // axis's end by itself (CSS), so the strip is rebuilt only when its marks change or the
    // run ends (its open marks then end where it did).
    const key = `${row.status}|${row.startedMs}|${isActive(row.status) ? "" : row.elapsedMs}`;
    if (row.marks === this.drawnMarks && this.strip.dataset.status === key) return;
    this.drawnMarks = row.marks;
    this.strip.dataset.status = key;
    const spans: HTMLElement[] = [];
    for (const mark of stripMarks(row)) {
      const span = h("span", `cs-mark cs-mark-${mark.kind}`);
      span.style.setProperty("--t0", String(mark.t0));
      if (mark.instant) span.classList.add("cs-mark-at");
      else if (mark.t1 === null) span.classList.add("cs-mark-open");
      else span.style.setProperty("--t1", String(mark.t1));
      spans.push(span);
    }
    this.strip.replaceChildren(...spans);
    const words = describeStrip(row);
    this.strip.setAttribute("aria-label", `Timeline: ${words}`);
    this.strip.title = words;
  }
}
