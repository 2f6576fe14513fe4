/**
 * Which rows the table shows, in which order: sorting by any column, filtering by status and
 * by text, and the counts by status the header shows. Pure functions of the table.
 */
import type { BoardRow, BoardStatus } from "../model/wire";
import type { BoardTable } from "./rows";

/** The fields a table can be sorted by. */
export type SortKey =
  | "status"
  | "label"
  | "elapsedMs"
  | "ttftMs"
  | "inputTokens"
  | "outputTokens"
  | "totalTokens"
  | "steps"
  | "toolCalls"
  | "toolErrors"
  | "finishReason"
  | "tripwire"
  | "error"
  | "tail";

export type SortDirection = "asc" | "desc";

export interface Sort {
  key: SortKey;
  dir: SortDirection;
}

export interface Filter {
  /** Rows whose label, text, error, tripwire or finish reason contain this
   * (case-insensitive); empty: every row. */
  text: string;
  /** Rows of these statuses; empty: every status. */
  statuses: ReadonlySet<BoardStatus>;
}

export const NO_FILTER: Filter = { text: "", statuses: new Set() };

/**
 * Statuses in the order sorting by status puts them (ascending): runs going on first, then
 * those waiting for someone, those yet to start, those that went wrong, and the finished
 * ones last. The header lists its counts in this order too.
 */
export const STATUS_ORDER: readonly BoardStatus[] = [
  "running",
  "waiting",
  "awaiting-approval",
  "suspended",
  "queued",
  "error",
  "tripwire",
  "aborted",
  "incomplete",
  "finished",
];

const STATUS_RANK = new Map<string, number>(STATUS_ORDER.map((status, rank) => [status, rank]));

/** Statuses of a run that has not ended: it can still be stopped. */
export function isActive(status: BoardStatus): boolean {
  return status === "queued" || status === "waiting" || status === "running";
}

const NUMERIC = new Set<SortKey>([
  "elapsedMs",
  "ttftMs",
  "inputTokens",
  "outputTokens",
  "totalTokens",
  "steps",
  "toolCalls",
  "toolErrors",
]);

/**
 * A text as a key that sorts as people read it with a plain comparison: case aside, and
 * numbers by value ("q2" before "q10"). Far cheaper than a collator's comparison, which a
 * sort of 2,000 rows would call some 20,000 times.
 */
export function naturalKey(text: string): string {
  return text.toLowerCase().replace(/\d+/g, (digits) => digits.padStart(16, "0"));
}

/** The value `row` is sorted by for `key`: a number, a text's natural key, or null for none
 * (a missing figure, an empty text). */
export function sortValue(row: BoardRow, key: SortKey): number | string | null {
  if (key === "status") return STATUS_RANK.get(row.status) ?? STATUS_ORDER.length;
  if (key === "label") return labelKey(row);
  const value: unknown = row[key];
  if (NUMERIC.has(key)) return typeof value === "number" && Number.isFinite(value) ? value : null;
  return typeof value === "string" && value !== "" ? naturalKey(value) : null;
}

/** The natural key of a row's label, kept per row object (labels seldom change). */
const labelKeys = new WeakMap<BoardRow, string>();

function labelKey(row: BoardRow): string {
  let key = labelKeys.get(row);
  if (key === undefined) {
    key = naturalKey(typeof row.label === "string" ? row.label : "");
    labelKeys.set(row, key);
  }
  return key;
}

function compareKeys(a: number | string, b: number | string): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The sort after the user clicks the heading of `key`: a new column sorts ascending, the
 * current one turns around. */
export function toggleSort(current: Sort | null, key: SortKey): Sort {
  if (current?.key === key) return { key, dir: current.dir === "asc" ? "desc" : "asc" };
  return { key, dir: "asc" };
}

/** Lower-cased text a row is searched in, kept per row object (a changed row is a new one). */
const haystacks = new WeakMap<BoardRow, string>();

function haystack(row: BoardRow): string {
  let text = haystacks.get(row);
  if (text === undefined) {
    text = [row.label, row.tail, row.error, row.tripwire, row.finishReason]
      .filter((piece): piece is string => typeof piece === "string")
      .join("\n")
      .toLowerCase();
    haystacks.set(row, text);
  }
  return text;
}

/** What a row's text is searched for: the filter's text, trimmed and lower-cased. */
function needleOf(filter: Filter): string {
  return filter.text.trim().toLowerCase();
}

/** Whether `row` is of one of `statuses` (any, when empty) and its text holds `needle`. */
function passes(row: BoardRow, statuses: ReadonlySet<BoardStatus>, needle: string): boolean {
  if (statuses.size > 0 && !statuses.has(row.status)) return false;
  return needle === "" || haystack(row).includes(needle);
}

interface Keyed {
  id: string;
  value: number | string | null;
  label: string;
  position: number;
}

/**
 * The ids of the rows `filter` lets through, sorted by `sort` (null: the board's order).
 * Rows without a value come last whichever the direction; ties go by label, then by the
 * board's order, so the order never depends on the previous one.
 */
export function arrange(
  table: BoardTable,
  sort: Sort | null,
  filter: Filter = NO_FILTER,
): string[] {
  const needle = needleOf(filter);
  const { statuses } = filter;
  if (sort === null) {
    // The board's order: no key to work out (a board's first draw arranges every row).
    return table.ids.filter((id) => {
      const row = table.byId.get(id);
      return row !== undefined && passes(row, statuses, needle);
    });
  }
  const keyed: Keyed[] = [];
  for (const id of table.ids) {
    const row = table.byId.get(id);
    if (row === undefined || !passes(row, statuses, needle)) continue;
    keyed.push({
      id,
      value: sortValue(row, sort.key),
      label: labelKey(row),
      position: table.position.get(id) ?? 0,
    });
  }
  const sign = sort.dir === "asc" ? 1 : -1;
  keyed.sort((a, b) => {
    if (a.value !== b.value) {
      if (a.value === null) return 1;
      if (b.value === null) return -1;
      const order = compareKeys(a.value, b.value);
      if (order !== 0) return sign * order;
    }
    return compareKeys(a.label, b.label) || a.position - b.position;
  });
  return keyed.map((entry) => entry.id);
}

/** How many rows have each status, in `STATUS_ORDER`, leaving out the statuses no row has. */
export function countByStatus(rows: Iterable<BoardRow>): Map<BoardStatus, number> {
  const counts = new Map<BoardStatus, number>();
  for (const row of rows) counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
  const ordered = new Map<BoardStatus, number>();
  for (const status of STATUS_ORDER) {
    const count = counts.get(status);
    if (count !== undefined) ordered.set(status, count);
  }
  // A status this page does not know yet (a newer kernel) is counted after the known ones.
  for (const [status, count] of counts) if (!ordered.has(status)) ordered.set(status, count);
  return ordered;
}
