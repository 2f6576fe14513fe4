/**
 * State histories (`states`) as the store keeps them. Almost every tool call's history is
 * "running from t0" and, once it ended, "<its state> from t1". A run of 50k calls would
 * hold 50k such arrays of pairs (eight heap objects a call) that the garbage collector
 * walks on every major collection, so the store drops a history that the part's own
 * fields imply, and `statesOf` gives it back on demand.
 */
import type { Part, StateMark } from "./wire";

/** The state a tool call's history starts with when the store may leave it out. */
const FIRST_STATE = "running";

/** A part's `[t, state]` history: the one it holds, or the one its fields imply. */
export function statesOf(part: Part): readonly StateMark[] {
  const held: unknown = "states" in part ? part.states : undefined;
  if (Array.isArray(held)) return held as StateMark[];
  if (part.kind !== "tool") return [];
  const implied: StateMark[] = [[part.t0, FIRST_STATE]];
  if (part.state !== FIRST_STATE && part.t1 !== null) implied.push([part.t1, part.state]);
  return implied;
}

/**
 * Drop `part.states` when `statesOf` would give the same history back. The field stays,
 * set to undefined: deleting it would turn the object into a slower, larger dictionary.
 */
export function compactStates(part: Part): void {
  if (part.kind === "tool" && Array.isArray(part.states) && isImplied(part, part.states))
    part.states = undefined;
}

/** Give `part` an explicit history of its own again, ready to grow or be replaced. */
export function expandStates(part: Part): void {
  if (part.kind === "tool" && !Array.isArray(part.states))
    part.states = statesOf(part).map((m) => [m[0], m[1]]);
}

function isImplied(part: Part & { kind: "tool" }, states: readonly unknown[]): boolean {
  const first = states[0];
  if (states.length === 0 || states.length > 2 || !isMark(first, part.t0, FIRST_STATE))
    return false;
  if (states.length === 1) return part.state === FIRST_STATE;
  return part.state !== FIRST_STATE && part.t1 !== null && isMark(states[1], part.t1, part.state);
}

function isMark(mark: unknown, t: number, state: string): boolean {
  return Array.isArray(mark) && mark.length === 2 && mark[0] === t && mark[1] === state;
}
