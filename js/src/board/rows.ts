/**
 * The board's rows as the page holds them: every run's row by id, in the board's order, as
 * of the last row message (docs/wire.md, "board"). A full message replaces the table; the
 * others add rows and merge changed fields into known ones, in `seq` order. A message that
 * skips one is a gap: the page asks for every row again (`ready`) and applies nothing until
 * the full answer comes; a page that heard the board's first message needs no full answer.
 * Mutated in place, like the run store: `version` goes up on every change, and a row that
 * changed is a new object, so a view redraws only those.
 */

import type { BoardRow, BoardRowsMessage, BoardSaved } from "../model/wire";
import { isRecord } from "../util";

export interface BoardTable {
  /** `seq` of the last row message applied (of the saved state before any). */
  seq: number;
  /** Rows by id. */
  byId: Map<string, BoardRow>;
  /** Ids in the board's order: as the last full message listed them, new ones after. */
  ids: string[];
  /** Position of each id in `ids`. */
  position: Map<string, number>;
  /** The board's age as of the last message: where the strips' time axis ends. */
  elapsedMs: number;
  /** Wall-clock time (ms) the last live message came, so the axis can grow between
   * messages; null when the rows only come from a saved state. */
  receivedAt: number | null;
  /** The table holds every row the kernel sent: a full message came, or the kernel's
   * first row message (`seq` 1) and every one after it did (a page that was there when the
   * board was made needs no full answer). */
  followed: boolean;
  /** A message was missed: every row must be asked for again; until the full answer
   * comes, partial messages are ignored. */
  needsFull: boolean;
  /** Goes up by one on every change. */
  version: number;
}

export function emptyTable(): BoardTable {
  return {
    seq: 0,
    byId: new Map(),
    ids: [],
    position: new Map(),
    elapsedMs: 0,
    receivedAt: null,
    followed: false,
    needsFull: false,
    version: 0,
  };
}

/** A table holding the rows of a saved board (none when there is no saved state). */
export function tableFromSaved(saved: BoardSaved | null | undefined): BoardTable {
  const table = emptyTable();
  if (!isRecord(saved)) return table;
  table.seq = typeof saved.seq === "number" ? saved.seq : 0;
  table.elapsedMs = typeof saved.elapsedMs === "number" ? saved.elapsedMs : 0;
  replaceRows(table, Array.isArray(saved.rows) ? saved.rows : []);
  return table;
}

/**
 * Take a newer saved state (the kernel rewrote the trait) when it is ahead of the table.
 * Returns whether it was taken.
 */
export function adoptSavedRows(table: BoardTable, saved: BoardSaved | null | undefined): boolean {
  if (!isRecord(saved) || typeof saved.seq !== "number" || saved.seq <= table.seq) return false;
  table.seq = saved.seq;
  if (typeof saved.elapsedMs === "number") table.elapsedMs = saved.elapsedMs;
  replaceRows(table, Array.isArray(saved.rows) ? saved.rows : []);
  table.needsFull = false;
  table.version += 1;
  return true;
}

/** What a message did: changed the table, nothing (an old message, or one after a gap
 * while a full answer is awaited), showed a gap in messages the table had followed, or
 * showed that a table that never followed the kernel missed its first messages. */
export type Applied = "changed" | "ignored" | "gap" | "missed";

/** Apply one row message that arrived at wall-clock time `receivedAt`. */
export function applyRowsMessage(
  table: BoardTable,
  msg: BoardRowsMessage,
  receivedAt: number | null = null,
): Applied {
  if (!isRecord(msg) || typeof msg.seq !== "number") return "ignored";
  if (msg.full) {
    // Every row as of `seq`: older than what the table holds only when it crossed a later
    // partial message, which it then lacks.
    if (msg.seq < table.seq) return "ignored";
    replaceRows(table, Array.isArray(msg.rows) ? msg.rows : []);
    table.followed = true;
    table.needsFull = false;
  } else {
    if (msg.seq <= table.seq || table.needsFull) return "ignored";
    if (msg.seq !== table.seq + 1) {
      // A table that never followed the kernel waits for a full answer, which holds them.
      if (!table.followed) return "missed";
      table.needsFull = true;
      table.version += 1;
      return "gap";
    }
    for (const row of Array.isArray(msg.rows) ? msg.rows : []) upsert(table, row);
    for (const patch of Array.isArray(msg.changes) ? msg.changes : []) merge(table, patch);
    if (msg.seq === 1) table.followed = true;
  }
  table.seq = msg.seq;
  if (typeof msg.elapsedMs === "number") table.elapsedMs = msg.elapsedMs;
  table.receivedAt = receivedAt;
  table.version += 1;
  return "changed";
}

function isRow(value: unknown): value is BoardRow {
  return isRecord(value) && typeof value.id === "string";
}

function replaceRows(table: BoardTable, rows: readonly unknown[]): void {
  table.byId.clear();
  table.ids = [];
  table.position.clear();
  for (const row of rows) upsert(table, row);
}

function upsert(table: BoardTable, row: unknown): void {
  if (!isRow(row)) return;
  if (!table.byId.has(row.id)) {
    table.position.set(row.id, table.ids.length);
    table.ids.push(row.id);
  }
  table.byId.set(row.id, row);
}

function merge(table: BoardTable, patch: unknown): void {
  if (!isRecord(patch) || typeof patch.id !== "string") return;
  const row = table.byId.get(patch.id);
  // A change to a row the page never had: the row itself will come in a full answer.
  if (row === undefined) return;
  table.byId.set(row.id, { ...row, ...patch } as BoardRow);
}
