/**
 * A row's timeline strip: its steps and tool calls as bars, its tripwire and error as
 * markers, on the time axis every row shares (0 to the board's age). Times are ms since the
 * board started; the view turns them into positions on the axis.
 */
import type { BoardMark, BoardMarkKind, BoardRow } from "../model/wire";
import { isActive } from "./order";

/** A mark as the strip draws it. */
export interface StripMark {
  kind: BoardMarkKind;
  /** Where it starts (ms on the axis). */
  t0: number;
  /** Where it ends; null while it is open on a run going on: it reaches the axis's end. */
  t1: number | null;
  /** A point in time (a tripwire, an error) rather than a span. */
  instant: boolean;
}

/** Kinds of mark that stand for a moment, not a span. */
const INSTANT: ReadonlySet<BoardMarkKind> = new Set(["tripwire", "error"]);

/** The marks of `row` as the strip draws them. A mark left open by a run that ended (a tool
 * call that never answered) ends where the run ended. */
export function stripMarks(row: BoardRow): StripMark[] {
  const active = isActive(row.status);
  const ended =
    typeof row.startedMs === "number" && typeof row.elapsedMs === "number"
      ? row.startedMs + row.elapsedMs
      : null;
  const marks: StripMark[] = [];
  for (const mark of Array.isArray(row.marks) ? row.marks : []) {
    if (!isMark(mark)) continue;
    const t0 = Math.max(0, mark.t);
    if (INSTANT.has(mark.kind)) {
      marks.push({ kind: mark.kind, t0, t1: t0, instant: true });
      continue;
    }
    let t1: number | null = typeof mark.end === "number" ? Math.max(t0, mark.end) : null;
    if (t1 === null && !active) t1 = Math.max(t0, ended ?? t0);
    marks.push({ kind: mark.kind, t0, t1, instant: false });
  }
  return marks;
}

function isMark(value: unknown): value is BoardMark {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as BoardMark).kind === "string" &&
    typeof (value as BoardMark).t === "number"
  );
}

/** Where a mark sits on a strip, in percent of the axis: `width` is null for a mark that
 * reaches the axis's end (open on a run going on) or stands for a moment. */
export interface MarkBox {
  left: number;
  width: number | null;
}

/** Where `mark` sits on an axis from 0 to `axis` ms. */
export function markBox(mark: StripMark, axis: number): MarkBox {
  const span = Math.max(1, axis);
  const at = (t: number) => Math.round((Math.min(t, span) / span) * 10000) / 100;
  const left = at(mark.t0);
  if (mark.instant || mark.t1 === null) return { left, width: null };
  return { left, width: Math.max(0, at(mark.t1) - left) };
}

/**
 * Where the shared axis ends at wall-clock time `now`: the board's age as of its last
 * message, grown by the time since while a live kernel still runs something (no message
 * comes while every run waits on a slow tool call).
 */
export function axisEnd(
  elapsedMs: number,
  receivedAt: number | null,
  running: boolean,
  now: number,
): number {
  const grown =
    running && receivedAt !== null ? elapsedMs + Math.max(0, now - receivedAt) : elapsedMs;
  return Math.max(1, grown);
}

/** What the strip shows, in words, for a screen reader and the tooltip. */
export function describeStrip(row: BoardRow): string {
  const marks = Array.isArray(row.marks) ? row.marks.filter(isMark) : [];
  const count = (kind: BoardMarkKind) => marks.filter((mark) => mark.kind === kind).length;
  const tools = count("tool") + count("tool-error");
  const pieces: string[] = [];
  const steps = count("step");
  if (steps > 0) pieces.push(`${steps} step${steps === 1 ? "" : "s"}`);
  if (tools > 0) {
    const failed = count("tool-error");
    pieces.push(
      `${tools} tool call${tools === 1 ? "" : "s"}${failed > 0 ? ` (${failed} failed)` : ""}`,
    );
  }
  for (const mark of marks) {
    if (mark.kind === "tripwire" || mark.kind === "error")
      pieces.push(`${mark.kind} at ${(mark.t / 1000).toFixed(1)} s`);
  }
  if (row.marksLeft > 0) pieces.push(`${row.marksLeft} more events not drawn`);
  return pieces.length === 0 ? "no events yet" : pieces.join(", ");
}
