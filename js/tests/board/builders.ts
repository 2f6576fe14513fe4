/** Builders for board wire values used across the board tests. */
import type { BoardRow, BoardRowPatch, BoardRowsMessage, BoardSaved } from "../../src/model/wire";

/** A row `id` (labelled as its id unless told) with every figure filled in; `fields`
 * override. */
export function boardRow(id: string, fields: Partial<BoardRow> = {}): BoardRow {
  return {
    id,
    label: id,
    status: "finished",
    startedMs: 0,
    elapsedMs: 1000,
    ttftMs: 100,
    inputTokens: 10,
    outputTokens: 20,
    totalTokens: 30,
    steps: 1,
    toolCalls: 0,
    toolErrors: 0,
    chunks: 5,
    finishReason: "stop",
    tripwire: null,
    error: null,
    tail: "",
    marks: [],
    marksLeft: 0,
    ...fields,
  };
}

/** Every row, as the kernel's answer to `ready`. */
export function fullMsg(seq: number, rows: BoardRow[], elapsedMs = 1000): BoardRowsMessage {
  return { kind: "board", seq, full: true, rows, changes: [], elapsedMs };
}

/** New rows and changed fields since the last message. */
export function changesMsg(
  seq: number,
  changes: BoardRowPatch[],
  rows: BoardRow[] = [],
  elapsedMs = 1000,
): BoardRowsMessage {
  return { kind: "board", seq, full: false, rows, changes, elapsedMs };
}

export function savedBoard(rows: BoardRow[], fields: Partial<BoardSaved> = {}): BoardSaved {
  return {
    save: 1,
    seq: 1,
    rows,
    runs: {},
    runParts: 0,
    keepLimit: 1_000_000,
    keepTotal: 10_000_000,
    leftOut: {},
    elapsedMs: 1000,
    ...fields,
  };
}

/** `n` rows "q0" … "q(n-1)" with varied figures and statuses. */
export function manyRows(n: number): BoardRow[] {
  const statuses = ["running", "finished", "error", "queued", "tripwire"] as const;
  return Array.from({ length: n }, (_, k) =>
    boardRow(`r${k}`, {
      label: `q${k}`,
      status: statuses[k % statuses.length],
      elapsedMs: ((k * 7919) % 5000) + 1,
      totalTokens: k % 13 === 0 ? null : (k * 31) % 997,
      tail: `answer number ${k}`,
      marks: [
        { kind: "step", t: 0, end: 400 },
        { kind: "tool", t: 50, end: 300 },
      ],
    }),
  );
}
