/**
 * The chunk inspector's list: persisted rows and live-only (transient) items merged in arrival
 * order, and the filters over them (type text, family chips, scrub time). Pure; no DOM.
 */
import type { ChunkFamily, ChunkRow, TransientItem } from "../../model/wire";

/** Every family of the wire's ChunkFamily once, in the order the chips show them: a family
 * added on the Python side fails the type check until it is placed here. */
const CHIP_ORDER = {
  text: true,
  reasoning: true,
  tools: true,
  control: true,
  workflow: true,
  background: true,
  data: true,
  network: true,
  errors: true,
  other: true,
} satisfies Record<ChunkFamily, true>;

/** Family chips, in the order they are shown. */
export const FAMILIES: readonly ChunkFamily[] = Object.keys(CHIP_ORDER) as ChunkFamily[];

/** A transient item shown as a row; it is never in the snapshot, so it is gone after a reload. */
export interface LiveRow extends ChunkRow {
  /** Marks the row "live only". */
  live: true;
}

/** One line of the inspector. */
export type InspectorRow = ChunkRow | LiveRow;

/** What the user filtered on. */
export interface RowFilter {
  /**
   * Words matched against the chunk type, case-insensitively: a row matches if its type
   * contains any plain word and none of the words written with a leading "-".
   * Empty: every type.
   */
  text: string;
  /** Families to show; empty: every family. */
  families: ReadonlySet<ChunkFamily>;
  /** Show only what had arrived by this offset (ms); null: everything. */
  until: number | null;
}

/** A filter that lets everything through. */
export function emptyFilter(): RowFilter {
  return { text: "", families: new Set(), until: null };
}

/** True for rows made from transient items. */
export function isLive(row: InspectorRow): row is LiveRow {
  return (row as Partial<LiveRow>).live === true;
}

const liveRows = new WeakMap<TransientItem, LiveRow>();

/** The row for a transient item, the same object every time for the same item. */
export function liveRow(item: TransientItem): LiveRow {
  let row = liveRows.get(item);
  if (row === undefined) {
    const json: Record<string, unknown> = { type: item.type };
    if (item.id !== null && item.id !== undefined) json.id = item.id;
    json.data = item.data;
    json.transient = true;
    row = {
      i: item.i,
      n: 1,
      t: item.t,
      type: item.type,
      from: null,
      family: "data",
      part: null,
      json,
      live: true,
    };
    liveRows.set(item, row);
  }
  return row;
}

/** Rows and transient items in chunk order (both lists are already in order). */
export function mergeRows(
  rows: readonly ChunkRow[],
  transient: readonly TransientItem[],
): InspectorRow[] {
  if (transient.length === 0) return rows.slice();
  return mergeLive(
    rows,
    transient.map(liveRow).sort((a, b) => a.i - b.i),
  );
}

function mergeLive(rows: readonly ChunkRow[], live: readonly LiveRow[]): InspectorRow[] {
  const out: InspectorRow[] = [];
  let k = 0;
  for (const row of rows) {
    while (k < live.length && (live[k]?.i ?? Infinity) < row.i) out.push(live[k++] as LiveRow);
    out.push(row);
  }
  while (k < live.length) out.push(live[k++] as LiveRow);
  return out;
}

/**
 * Bring `all` (merged) and `shown` (filtered) up to date after rows were appended to `rows`,
 * in time proportional to the new rows: `seen` is how many rows the lists were built from.
 * The last of those may have been re-sent (a growing merged delta row keeps its `i`), so it is
 * taken out and put back. Transient items must not have changed since the lists were built.
 */
export function extendRows(
  all: InspectorRow[],
  shown: InspectorRow[],
  rows: readonly ChunkRow[],
  seen: number,
  filter: RowFilter,
): void {
  const from = Math.max(0, seen - 1);
  const first = rows[from];
  if (first === undefined) return;
  const live: LiveRow[] = [];
  while (all.length > 0 && (all[all.length - 1] as InspectorRow).i >= first.i) {
    const last = all.pop() as InspectorRow;
    if (isLive(last)) live.unshift(last);
  }
  while (shown.length > 0 && (shown[shown.length - 1] as InspectorRow).i >= first.i) shown.pop();
  const tail = mergeLive(rows.slice(from), live);
  for (const row of tail) all.push(row);
  for (const row of filterRows(tail, filter)) shown.push(row);
}

/** Parsed type words of a filter. */
interface TypeTerms {
  include: string[];
  exclude: string[];
}

function parseTerms(text: string): TypeTerms {
  const include: string[] = [];
  const exclude: string[] = [];
  for (const word of text.toLowerCase().split(/[\s,]+/)) {
    if (word === "" || word === "-") continue;
    if (word.startsWith("-")) exclude.push(word.slice(1));
    else include.push(word);
  }
  return { include, exclude };
}

function typeMatches(type: string, terms: TypeTerms): boolean {
  const lower = String(type).toLowerCase();
  if (terms.exclude.some((word) => lower.includes(word))) return false;
  return terms.include.length === 0 || terms.include.some((word) => lower.includes(word));
}

/** Rows that pass `filter`, in order. */
export function filterRows(rows: readonly InspectorRow[], filter: RowFilter): InspectorRow[] {
  const terms = parseTerms(filter.text);
  const anyFamily = filter.families.size === 0;
  const anyType = terms.include.length === 0 && terms.exclude.length === 0;
  if (anyFamily && anyType && filter.until === null) return rows.slice();
  const out: InspectorRow[] = [];
  for (const row of rows) {
    if (filter.until !== null && row.t > filter.until) continue;
    if (!anyFamily && !filter.families.has(row.family)) continue;
    if (!anyType && !typeMatches(row.type, terms)) continue;
    out.push(row);
  }
  return out;
}

/** How many rows of each family there are (a merged delta row counts once). */
export function familyCounts(rows: readonly InspectorRow[]): Map<ChunkFamily, number> {
  const counts = new Map<ChunkFamily, number>();
  for (const row of rows) counts.set(row.family, (counts.get(row.family) ?? 0) + 1);
  return counts;
}

/** The distinct chunk types, sorted, for the type picker. */
export function typesOf(rows: readonly InspectorRow[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) seen.add(row.type);
  return [...seen].sort();
}

/** The row with `key` in a list in chunk order (binary search on `i`), or null. */
export function findRow(rows: readonly InspectorRow[], key: string): InspectorRow | null {
  const i = Number(key.slice(key.indexOf(":") + 1));
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const row = rows[mid] as InspectorRow;
    if (row.i === i) return rowKey(row) === key ? row : null;
    if (row.i < i) lo = mid + 1;
    else hi = mid - 1;
  }
  return null;
}

/** A stable key for a row across updates (merged delta rows are re-sent with the same `i`). */
export function rowKey(row: InspectorRow): string {
  return `${isLive(row) ? "live" : "row"}:${row.i}`;
}
