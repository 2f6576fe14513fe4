/**
 * The board table's columns: heading, what it sorts by, and the text of its cell. The pick
 * box, the status badge, the strip and the Stop button are drawn by the row itself.
 */
import type { BoardRow } from "../model/wire";
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
  /** A figure, aligned right. */
  numeric?: boolean;
  /** The cell's text, for columns that show one. */
  text?: (row: BoardRow) => string;
}

/** Shown for a figure the run does not have (yet). */
export const NONE = "—";

const seconds = (ms: number | null) =>
  typeof ms === "number" && Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : NONE;
/** One formatter for every cell: making one per call costs more than the rest of a row. */
const numbers = new Intl.NumberFormat("en-US");

/** A whole number with thousands separators: 2000 → "2,000". */
export const formatCount = (value: number) => numbers.format(value);
const count = (value: number | null) =>
  typeof value === "number" && Number.isFinite(value) ? numbers.format(value) : NONE;
const words = (value: string | null) => (typeof value === "string" && value !== "" ? value : "");

export const COLUMNS: readonly Column[] = [
  { id: "pick", heading: "", title: "Pick two runs to compare", sort: null },
  { id: "status", heading: "Status", title: "Status", sort: "status" },
  { id: "label", heading: "Run", title: "Run", sort: "label", text: (row) => row.label },
  {
    id: "elapsed",
    heading: "Elapsed",
    title: "Elapsed time",
    sort: "elapsedMs",
    numeric: true,
    text: (row) => seconds(row.elapsedMs),
  },
  {
    id: "ttft",
    heading: "TTFT",
    title: "Time to first token",
    sort: "ttftMs",
    numeric: true,
    text: (row) => seconds(row.ttftMs),
  },
  {
    id: "in",
    heading: "In",
    title: "Input tokens",
    sort: "inputTokens",
    numeric: true,
    text: (row) => count(row.inputTokens),
  },
  {
    id: "out",
    heading: "Out",
    title: "Output tokens",
    sort: "outputTokens",
    numeric: true,
    text: (row) => count(row.outputTokens),
  },
  {
    id: "total",
    heading: "Total",
    title: "Total tokens",
    sort: "totalTokens",
    numeric: true,
    text: (row) => count(row.totalTokens),
  },
  {
    id: "steps",
    heading: "Steps",
    title: "Steps",
    sort: "steps",
    numeric: true,
    text: (row) => count(row.steps),
  },
  {
    id: "tools",
    heading: "Tools",
    title: "Tool calls",
    sort: "toolCalls",
    numeric: true,
    text: (row) => count(row.toolCalls),
  },
  {
    id: "toolErrors",
    heading: "Tool err",
    title: "Tool errors",
    sort: "toolErrors",
    numeric: true,
    text: (row) => count(row.toolErrors),
  },
  {
    id: "finish",
    heading: "Finish",
    title: "Finish reason",
    sort: "finishReason",
    text: (row) => words(row.finishReason),
  },
  {
    id: "tripwire",
    heading: "Tripwire",
    title: "Tripwire",
    sort: "tripwire",
    text: (row) => words(row.tripwire),
  },
  { id: "error", heading: "Error", title: "Error", sort: "error", text: (row) => words(row.error) },
  {
    id: "tail",
    heading: "Text",
    title: "The end of the run's text",
    sort: "tail",
    text: (row) => words(row.tail),
  },
  { id: "strip", heading: "Timeline", title: "Steps and tool calls over time", sort: null },
  { id: "stop", heading: "", title: "Stop a run", sort: null },
];
