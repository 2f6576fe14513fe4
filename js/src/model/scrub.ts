/**
 * Scrubbing: the run as it stood at an earlier offset, rebuilt from the persisted parts alone
 * (arrival offsets, text `marks`, `states` histories), so it works live and on a reopened run.
 */
import { statesOf } from "./history";
import type { ChunkRow, Part, RunInfo, StateMark, TransientItem } from "./wire";

/** The store fields `viewAt` reads and rewrites; every other field is carried over as is. */
export interface ScrubbableState {
  /** The run record. */
  run: RunInfo;
  /** Parts in creation order. */
  parts: readonly Part[];
  /** Parts by id. */
  byId: ReadonlyMap<string, Part>;
  /** Inspector rows in arrival order. */
  rows: readonly ChunkRow[];
  /** False while a live kernel has not sent the rows: chunks are then counted from the parts. */
  rowsLoaded?: boolean;
  /** Live-only items in arrival order. */
  transient: readonly TransientItem[];
  /** Position of each part in `parts`, when the state keeps one; rebuilt for the past parts. */
  indexOf?: ReadonlyMap<string, number>;
}

const TERMINAL_WSTEP = new Set(["success", "failed", "canceled", "cancelled", "skipped", "bailed"]);
const TERMINAL_TOOL = new Set(["done", "error", "denied"]);
const TERMINAL_BACKGROUND = new Set(["completed", "failed", "cancelled"]);

/**
 * The run as it stood at offset `t` (ms): parts created by then, text cut at the last mark,
 * states and the fields that came with them as they were, rows and transient items seen by then.
 * Pure: `state` is not modified; parts that were complete by `t` are shared, not copied.
 */
export function viewAt<S extends ScrubbableState>(state: S, t: number): S {
  const parts: Part[] = [];
  const byId = new Map<string, Part>();
  const indexOf = new Map<string, number>();
  for (const part of state.parts) {
    if (part.t0 > t) continue;
    const seen = partAt(part, t);
    indexOf.set(seen.id, parts.length);
    parts.push(seen);
    byId.set(seen.id, seen);
  }
  const rows = state.rows.slice(0, countUpTo(state.rows, t));
  const transient = state.transient.filter((item) => item.t <= t);
  const counted = state.rowsLoaded === false ? null : rows;
  const past = {
    ...state,
    run: runAt(state.run, t, counted, parts, transient),
    parts,
    byId,
    rows,
    transient,
  };
  if (state.indexOf !== undefined) past.indexOf = indexOf;
  return past;
}

/** How many of `rows` (in arrival order, so by non-decreasing `t`) arrived at or before `t`. */
function countUpTo(rows: readonly ChunkRow[], t: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((rows[mid] as ChunkRow).t <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The run record at `t`: unchanged at or after its last chunk, else still running.
 * Chunks are counted from the rows seen by `t`; without rows (null), from the last chunk
 * that created one of the `parts` seen by then, which may miss chunks that only fed a part. */
function runAt(
  run: RunInfo,
  t: number,
  rows: readonly ChunkRow[] | null,
  parts: readonly Part[],
  transient: readonly TransientItem[],
): RunInfo {
  // Nothing in the run is later than its elapsed time: at or past it, the run is as it is.
  if (run.elapsedMs <= t) return run;
  let chunkCount = transient.length;
  if (rows !== null) for (const row of rows) chunkCount += row.n;
  else
    for (const part of parts)
      if (typeof part.chunk === "number") chunkCount = Math.max(chunkCount, part.chunk + 1);
  return {
    ...run,
    status: chunkCount === 0 ? "waiting" : "running",
    elapsedMs: t,
    finishReason: null,
    usage: null,
    outputTokens: null,
    error: null,
    ended: false,
    ttftMs: run.ttftMs !== null && run.ttftMs <= t ? run.ttftMs : null,
    chunkCount,
  };
}

/** The last `[t, state]` at or before `t`, or null when the history is empty. */
function stateAt(states: readonly StateMark[] | undefined, t: number): string | null {
  if (!Array.isArray(states) || states.length === 0) return null;
  let found: string | null = null;
  for (const mark of states) {
    if (!Array.isArray(mark)) continue;
    if (mark[0] > t) break;
    found = mark[1];
  }
  // A history that starts after the part was created still names its first state.
  return found ?? (Array.isArray(states[0]) ? states[0][1] : null);
}

function statesUpTo(states: readonly StateMark[] | undefined, t: number): StateMark[] {
  return Array.isArray(states) ? states.filter((m) => Array.isArray(m) && m[0] <= t) : [];
}

function hadState(states: readonly StateMark[], state: string): boolean {
  return states.some((m) => m[1] === state);
}

/** True when nothing about `part` changed after `t`, so it can be shared as is. */
function settledBy(part: Part, t: number): boolean {
  if (part.t1 === null || part.t1 > t) return false;
  const states = statesOf(part);
  if (states.length > 0) {
    const last: unknown = states[states.length - 1];
    if (Array.isArray(last) && typeof last[0] === "number" && last[0] > t) return false;
  }
  const marks: unknown = "marks" in part ? part.marks : undefined;
  if (Array.isArray(marks) && marks.length > 0) {
    const last: unknown = marks[marks.length - 1];
    if (Array.isArray(last) && typeof last[0] === "number" && last[0] > t) return false;
  }
  return true;
}

/** One part as it stood at `t` (it was created at or before `t`). */
function partAt(part: Part, t: number): Part {
  if (settledBy(part, t)) return part;
  const endedByT = part.t1 !== null && part.t1 <= t;
  const t1 = endedByT ? part.t1 : null;
  switch (part.kind) {
    case "text":
    case "reasoning": {
      if (endedByT) return { ...part, marks: part.marks.filter((m) => m[0] <= t) };
      let length = 0;
      const marks = Array.isArray(part.marks) ? part.marks.filter((m) => m[0] <= t) : [];
      const last = marks[marks.length - 1];
      if (last !== undefined) length = last[1];
      return { ...part, t1, text: part.text.slice(0, length), marks };
    }
    case "tool": {
      const history = statesOf(part);
      const states = statesUpTo(history, t);
      const recorded = stateAt(history, t);
      const state = (recorded ??
        (endedByT || !TERMINAL_TOOL.has(part.state) ? part.state : "running")) as typeof part.state;
      return {
        ...part,
        t1,
        state,
        states,
        result: state === "done" ? part.result : null,
        error: state === "error" || state === "denied" ? part.error : null,
        approval:
          hadState(states, "awaiting-approval") || state === "awaiting-approval"
            ? part.approval
            : null,
        suspendPayload:
          hadState(states, "suspended") || state === "suspended" ? part.suspendPayload : null,
      };
    }
    case "background": {
      const history = statesOf(part);
      const states = statesUpTo(history, t);
      const recorded = stateAt(history, t);
      const state = (recorded ??
        (endedByT || !TERMINAL_BACKGROUND.has(part.state)
          ? part.state
          : "running")) as typeof part.state;
      return {
        ...part,
        t1,
        state,
        states,
        result: state === "completed" ? part.result : null,
        error: state === "failed" || state === "cancelled" ? part.error : null,
        progress: state === "started" ? null : part.progress,
      };
    }
    case "wstep": {
      const history = statesOf(part);
      const states = statesUpTo(history, t);
      const recorded = stateAt(history, t);
      const status =
        recorded ?? (endedByT || !TERMINAL_WSTEP.has(part.status) ? part.status : "running");
      return {
        ...part,
        t1,
        status,
        states,
        output: TERMINAL_WSTEP.has(status) ? part.output : null,
        error: status === "failed" ? part.error : null,
        suspendPayload:
          status === "suspended" || hadState(states, "suspended") ? part.suspendPayload : null,
      };
    }
    case "run":
      return endedByT
        ? { ...part }
        : { ...part, t1, status: "running", finishReason: null, usage: null };
    case "step":
      return endedByT ? { ...part } : { ...part, t1, finishReason: null, usage: null };
    case "workflow":
      return endedByT ? { ...part } : { ...part, t1, status: "running", result: null, error: null };
    case "object":
      return { ...part, t1, final: endedByT ? part.final : false };
    default:
      return { ...part, t1 };
  }
}
