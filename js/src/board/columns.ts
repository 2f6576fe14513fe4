/**
 * The board table's columns, in order: heading, what it sorts by, and the text of its cell.
 * The pick box, the status badge, the strip and the Stop button are drawn by the row itself.
 * Stop sits by the status and the strip by the label, so a narrow cell shows them without
 * scrolling sideways; the run's text, the widest, comes last.
 */
import type { BoardRow } from "../model/wire";
import { formatNumber } from "../util";
import type { SortKey } from "./order";

export type ColumnId =
  | "pick"
  | "status"
  | "label"
  | "elapsed"
  | "ttft"
  | "in"
  | "out"
  | "total"
  | "steps"
  | "tools"
  | "toolErrors"
  | "finish"
  | "tripwire"
  | "error"
  | "tail"
  | "strip"
  | "stop";

export interface Column {
  id: ColumnId;
  /** The heading's text. */
  heading: string;
  /** What the heading says in full (its tooltip and accessible name). */
  title: string;
  /** What clicking the heading sorts by; null for a column that does not sort. */
  sort: SortKey | null;
  /** Its width (px); the last column also takes what room is left. */
  width: number;
  /** A figure, aligned right. */
  numeric?: boolean;
  /** The cell's text, for columns that show one. */
  text?: (row: BoardRow) => string;
}

/** Shown for a figure the run does not have (yet). */
export const NONE = "—";

const seconds = (ms: number | null) =>
  typeof ms === "number" && Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : NONE;
const count = (value: number | null) =>
  typeof value === "number" && Number.isFinite(value) ? formatNumber(value) : NONE;
const words = (value: string | null) => (typeof value === "string" && value !== "" ? value : "");

export const COLUMNS: readonly Column[] = [
  { id: "pick", width: 28, heading: "", title: "Pick two runs to compare", sort: null },
  { id: "status", width: 104, heading: "Status", title: "Status", sort: "status" },
  { id: "stop", width: 56, heading: "", title: "Stop a run", sort: null },
  {
    id: "label",
    width: 160,
    heading: "Run",
    title: "Run",
    sort: "label",
    text: (row) => row.label,
  },
  {
    id: "strip",
    width: 160,
    heading: "Timeline",
    title: "Steps and tool calls over time",
    sort: null,
  },
  {
    id: "elapsed",
    width: 84,
    heading: "Elapsed",
    title: "Elapsed time",
    sort: "elapsedMs",
    numeric: true,
    text: (row) => seconds(row.elapsedMs),
  },
  {
    id: "ttft",
    width: 60,
    heading: "TTFT",
    title: "Time to first token",
    sort: "ttftMs",
    numeric: true,
    text: (row) => seconds(row.ttftMs),
  },
  {
    id: "in",
    width: 60,
    heading: "In",
    title: "Input tokens",
    sort: "inputTokens",
    numeric: true,
    text: (row) => count(row.inputTokens),
  },
  {
    id: "out",
    width: 60,
    heading: "Out",
    title: "Output tokens",
    sort: "outputTokens",
    numeric: true,
    text: (row) => count(row.outputTokens),
  },
  {
    id: "total",
    width: 64,
    heading: "Total",
    title: "Total tokens",
    sort: "totalTokens",
    numeric: true,
    text: (row) => count(row.totalTokens),
  },
  {
    id: "steps",
    width: 56,
    heading: "Steps",
    title: "Steps",
    sort: "steps",
    numeric: true,
    text: (row) => count(row.steps),
  },
  {
    id: "tools",
    width: 56,
    heading: "Tools",
    title: "Tool calls",
    sort: "toolCalls",
    numeric: true,
    text: (row) => count(row.toolCalls),
  },
  {
    id: "toolErrors",
    width: 92,
    heading: "Tool errors",
    title: "Tool errors",
    sort: "toolErrors",
    numeric: true,
    text: (row) => count(row.toolErrors),
  },
  {
    id: "finish",
    width: 84,
    heading: "Finish",
    title: "Finish reason",
    sort: "finishReason",
    text: (row) => words(row.finishReason),
  },
  {
    id: "tripwire",
    width: 110,
    heading: "Tripwire",
    title: "Tripwire",
    sort: "tripwire",
    text: (row) => words(row.tripwire),
  },
  {
    id: "error",
    width: 150,
    heading: "Error",
    title: "Error",
    sort: "error",
    text: (row) => words(row.error),
  },
  {
    id: "tail",
    width: 160,
    heading: "Text",
    title: "The end of the run's text",
    sort: "tail",
    text: (row) => words(row.tail),
  },
];

/** How a cell of `column` is sized in its row (a flex line): its width, and the last one
 * also takes what room is left. Set once per cell, never while drawing. */
export function cellFlex(column: Column, columns: readonly Column[] = COLUMNS): string {
  return column === columns[columns.length - 1] ? `1 0 ${column.width}px` : `0 0 ${column.width}px`;
}

/** The narrowest the table can be (px): the sum of its columns' widths. */
export function tableWidth(columns: readonly Column[] = COLUMNS): number {
  return columns.reduce((sum, column) => sum + column.width, 0);
}
