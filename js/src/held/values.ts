/**
 * Held fields (docs/wire.md, "Held fields"): a large part field arrives as a preview, with
 * its full sizes in the part's out-of-band `held` record, and is fetched whole on demand in
 * pieces. This module holds the pure parts: reading the record, putting pieces together and
 * wording the progress.
 */
import type { HeldAnswer, HeldEntry, Part } from "../model/wire";
import { formatNumber } from "../util";

/** Which held value to fetch, and how big its whole JSON is (for the progress). */
export interface HeldRequest {
  part: string;
  field: string;
  token: number;
  /** Bytes of the whole JSON. */
  size: number;
}

/** How a fetch of the whole value is going. */
export type LoadStatus =
  | { state: "loading"; received: number; total: number }
  | { state: "failed"; message: string };

/** Hears how a fetch is going. */
export type ReportLoad = (status: LoadStatus) => void;

/** Ask for the whole value behind a held field; progress and failures go to `report`. */
export type FetchHeld = (request: HeldRequest, report: ReportLoad) => void;

/** The part's held entry for `field`, or null when the field is whole (or the record is
 * not one the kernel could have written). */
export function heldEntry(part: Part, field: string): HeldEntry | null {
  const held = part.held;
  if (typeof held !== "object" || held === null || !Object.hasOwn(held, field)) return null;
  const entry: unknown = held[field];
  if (typeof entry !== "object" || entry === null) return null;
  const { token, size, lengths } = entry as Partial<HeldEntry>;
  if (typeof token !== "number" || typeof size !== "number") return null;
  if (typeof lengths !== "object" || lengths === null || Array.isArray(lengths)) return null;
  return { token, size, lengths };
}

/** The held record without `field`; null when nothing is left. */
export function heldWithout(held: Part["held"], field: string): Record<string, HeldEntry> | null {
  if (typeof held !== "object" || held === null) return null;
  const rest = Object.fromEntries(Object.entries(held).filter(([name]) => name !== field));
  return Object.keys(rest).length > 0 ? rest : null;
}

/** Pieces of one value's JSON text as they arrive. */
export interface Assembly {
  /** How many pieces make the whole text. */
  count: number;
  /** The pieces received so far, by index. */
  pieces: (string | undefined)[];
  /** How many distinct pieces arrived. */
  received: number;
}

/** What a new answer makes of an assembly: the next assembly, or why it cannot go on. */
export type AssemblyStep = { assembly: Assembly } | { error: string };

/** Fold one `held` answer into `assembly` (null before the first piece). Pure: returns a
 * new assembly. A repeated piece is ignored; a piece that disagrees on `count` is an error. */
export function addPiece(assembly: Assembly | null, answer: HeldAnswer): AssemblyStep {
  if (typeof answer.error === "string") return { error: answer.error };
  const { index, count, text } = answer;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 1) {
    return { error: "a piece of the value came without a valid count" };
  }
  if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= count) {
    return { error: `a piece of the value came with index ${String(index)} of ${count}` };
  }
  if (typeof text !== "string") return { error: "a piece of the value came without its text" };
  const start = assembly ?? {
    count,
    pieces: new Array<string | undefined>(count).fill(undefined),
    received: 0,
  };
  if (start.count !== count)
    return { error: "the pieces of the value disagree on how many there are" };
  if (start.pieces[index] !== undefined) return { assembly: start };
  const pieces = start.pieces.slice();
  pieces[index] = text;
  return { assembly: { count, pieces, received: start.received + 1 } };
}

/** The whole JSON text once every piece arrived, else null. */
export function assembledText(assembly: Assembly): string | null {
  return assembly.received === assembly.count ? assembly.pieces.join("") : null;
}

/** Bytes received so far, estimated from the share of pieces (they are cut evenly). */
export function receivedBytes(assembly: Assembly | null, size: number): number {
  return assembly === null ? 0 : Math.round((size * assembly.received) / assembly.count);
}

/** "loading the full value… 1,234 of 10,000 KB" */
export function loadingLabel(received: number, total: number): string {
  const kb = (bytes: number) => formatNumber(Math.ceil(bytes / 1024));
  return `loading the full value… ${kb(received)} of ${kb(total)} KB`;
}
