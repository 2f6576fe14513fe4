/**
 * Data parts (`data-*` chunks) drawn by shape: a progress figure with its label, a status
 * with its message, a table for a list of records, and a JSON tree for anything else. No
 * field is dropped: what a shape does not draw is listed under it.
 */
import { isRecord } from "../../util";
import { copyButton, copyText } from "../copy";
import { h } from "../dom";
import { type HeldView, JsonTree } from "../json-tree";
import { type Progress, progressBar, progressOf } from "../progress";

/** Fields read as the words that go with a progress figure or a status. */
const CAPTION_FIELDS = ["label", "message", "title", "text", "description", "name", "step"];
/** Fields a progress figure is read from (see progress.ts). */
const PROGRESS_FIELDS = ["percent", "progress", "current", "total"];
/** Fields read as a status. */
const STATUS_FIELDS = ["status", "state"];
/** A table shows at most this many rows and columns; the rest are counted. */
export const TABLE_ROWS = 50;
export const TABLE_COLUMNS = 12;

/** What a data value looks like, for drawing. */
export type DataShape =
  | {
      shape: "progress";
      progress: Progress;
      caption: string;
      status: string;
      rest: Record<string, unknown>;
    }
  | { shape: "status"; status: string; caption: string; rest: Record<string, unknown> }
  | { shape: "table"; rows: Record<string, unknown>[]; columns: string[] }
  | { shape: "tree" };

function firstText(data: Record<string, unknown>, fields: readonly string[]): [string, string] {
  for (const field of fields) {
    const value = data[field];
    if (typeof value === "string" && value.trim() !== "") return [field, value];
  }
  return ["", ""];
}

function without(data: Record<string, unknown>, used: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([key]) => !used.includes(key)));
}

/** The shape of `data`: pure, so it is tested without a DOM. */
export function dataShape(data: unknown): DataShape {
  if (Array.isArray(data)) {
    if (data.length > 0 && data.every(isRecord)) {
      const columns: string[] = [];
      for (const row of data.slice(0, TABLE_ROWS)) {
        for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
      }
      if (columns.length > 0) return { shape: "table", rows: data, columns };
    }
    return { shape: "tree" };
  }
  if (!isRecord(data)) {
    const progress = progressOf(data);
    return progress === null
      ? { shape: "tree" }
      : { shape: "progress", progress, caption: "", status: "", rest: {} };
  }
  const [captionField, caption] = firstText(data, CAPTION_FIELDS);
  const [statusField, status] = firstText(data, STATUS_FIELDS);
  const progress = progressOf(data);
  if (progress !== null) {
    const used = [...PROGRESS_FIELDS, captionField, statusField];
    return { shape: "progress", progress, caption, status, rest: without(data, used) };
  }
  if (status !== "") {
    return { shape: "status", status, caption, rest: without(data, [statusField, captionField]) };
  }
  return { shape: "tree" };
}

/** A table cell's text: scalars as they are, anything else as short JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value !== "object") return String(value);
  const text = copyText(value).replace(/\s+/g, " ");
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

function table(rows: Record<string, unknown>[], columns: string[]): HTMLElement {
  const wrap = h("div", "cs-data-table-wrap");
  const el = h("table", "cs-data-table");
  const shownColumns = columns.slice(0, TABLE_COLUMNS);
  const head = h("tr");
  for (const column of shownColumns) {
    const th = h("th", "", column);
    th.scope = "col";
    head.append(th);
  }
  const thead = h("thead");
  thead.append(head);
  const tbody = h("tbody");
  for (const row of rows.slice(0, TABLE_ROWS)) {
    const tr = h("tr");
    for (const column of shownColumns) tr.append(h("td", "", cellText(row[column])));
    tbody.append(tr);
  }
  el.append(thead, tbody);
  wrap.append(el);
  const hidden: string[] = [];
  if (rows.length > TABLE_ROWS) hidden.push(`${rows.length - TABLE_ROWS} more rows`);
  if (columns.length > TABLE_COLUMNS) hidden.push(`${columns.length - TABLE_COLUMNS} more columns`);
  if (hidden.length > 0)
    wrap.append(h("div", "cs-muted", `${hidden.join(", ")} (copy the value for all of it)`));
  return wrap;
}

/** Draws one data part's value; keeps its JSON tree (and what the user opened) across updates. */
export class DataBody {
  /** The element holding the drawing. */
  readonly el = h("div", "cs-data-body");
  private tree: JsonTree | null = null;
  private drawn: unknown = Symbol("nothing");
  private drawnHeld: number | undefined = undefined;

  /** Draw `data` (a preview when `held` is given). */
  update(data: unknown, held: HeldView | null): void {
    if (data === this.drawn && held?.token === this.drawnHeld) return;
    this.drawn = data;
    this.drawnHeld = held?.token;
    const shape = held === null ? dataShape(data) : ({ shape: "tree" } as const);
    if (shape.shape === "tree") {
      if (this.tree === null) this.tree = new JsonTree(null, { openDepth: 1, copy: "data" });
      if (this.el.firstChild !== this.tree.el) this.el.replaceChildren(this.tree.el);
      this.tree.update(data, held);
      return;
    }
    const copy = copyButton("data", () => copyText(data));
    copy.classList.add("cs-json-copy");
    const nodes: HTMLElement[] = [copy];
    let rest: Record<string, unknown> = {};
    if (shape.shape === "progress") {
      const words = [shape.caption, shape.status].filter((word) => word !== "").join(" · ");
      nodes.push(progressBar(shape.progress, words));
      rest = shape.rest;
    } else if (shape.shape === "status") {
      const line = h("div", "cs-data-status");
      const badge = h(
        "span",
        `cs-badge cs-state-${shape.status.replace(/[^a-z0-9-]/gi, "_")}`,
        shape.status,
      );
      line.append(badge);
      if (shape.caption !== "") line.append(h("span", "", ` ${shape.caption}`));
      nodes.push(line);
      rest = shape.rest;
    } else {
      nodes.push(table(shape.rows, shape.columns));
    }
    if (Object.keys(rest).length > 0) {
      const more = new JsonTree(rest, { openDepth: 1, copy: false });
      more.el.classList.add("cs-data-rest");
      nodes.push(more.el);
    }
    this.tree = null;
    this.el.replaceChildren(...nodes);
  }
}
