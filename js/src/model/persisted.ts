/**
 * The `snapshot` trait as saved in the notebook: a plain Snapshot for a small run, or a
 * packed one for a large run (its JSON deflated into a binary buffer, `seq` beside it; see
 * src/chunkscope/wire/persisted.py). A packed value is decoded only when it is newer than what
 * the store holds, so a live page never parses the megabytes it already has.
 */
import { isRecord } from "../util";
import {
  MAX_UNPACKED_BYTES,
  PACKED_ENCODING,
  type Snapshot,
  type PackedSnapshot as WirePackedSnapshot,
} from "./wire";

/** A packed snapshot as the widget manager hands it over: the wire's, with its buffer in
 * whichever binary form the manager chose. */
export type PackedSnapshot = Omit<WirePackedSnapshot, "data"> & {
  data: DataView | ArrayBuffer | Uint8Array;
};

/** The trait's value: nothing yet, a plain snapshot or a packed one. */
export type SavedSnapshot = Snapshot | PackedSnapshot | null | undefined;

export function isPacked(value: unknown): value is PackedSnapshot {
  return isRecord(value) && value.encoding === PACKED_ENCODING && typeof value.seq === "number";
}

/** The `seq` a saved value stands for (-1 when there is none). */
export function savedSeq(value: SavedSnapshot): number {
  return isRecord(value) && typeof value.seq === "number" ? value.seq : -1;
}

/** The Snapshot of a packed value (deflate runs in the browser's stream machinery). */
export async function unpack(
  packed: PackedSnapshot,
  maxBytes = MAX_UNPACKED_BYTES,
): Promise<Snapshot> {
  const data = packed.data;
  // A copy into a plain ArrayBuffer: the view may sit on a shared or larger buffer.
  const bytes =
    data instanceof ArrayBuffer
      ? new Uint8Array(data)
      : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const stream = new Blob([bytes.slice()]).stream().pipeThrough(new DecompressionStream("deflate"));
  return JSON.parse(await readText(stream, maxBytes)) as Snapshot;
}

/** The UTF-8 text of `stream`, refused past `maxBytes`: a saved notebook is untrusted input,
 * and a few kilobytes of deflate can stand for gigabytes. */
async function readText(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const pieces: string[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new Error(`it unpacks to more than ${Math.round(maxBytes / 2 ** 20)} MB`);
    }
    pieces.push(decoder.decode(value, { stream: true }));
  }
  pieces.push(decoder.decode());
  return pieces.join("");
}

/**
 * Hand `value` to `adopt` as a Snapshot when it is newer than `haveSeq`: at once when it
 * is plain, after decoding when packed. A packed value that cannot be decoded is reported
 * through `fail`, and the store keeps what it has.
 */
export function readSaved(
  value: SavedSnapshot,
  haveSeq: number,
  adopt: (snapshot: Snapshot) => void,
  fail: (message: string) => void,
): void {
  if (value === null || value === undefined || savedSeq(value) <= haveSeq) return;
  if (!isPacked(value)) {
    adopt(value as Snapshot);
    return;
  }
  unpack(value).then(adopt, (error: unknown) => {
    fail(
      `the saved run could not be decoded (${error instanceof Error ? error.message : String(error)})`,
    );
  });
}

/** Snapshots whose JSON is longer than this are packed (as the kernel does). */
export const PACK_OVER_CHARS = 256 * 1024;

/** What a page holds of a run, enough to save it: the store state's persisted fields. */
export interface HeldRun {
  seq: number;
  run: Snapshot["run"];
  parts: Snapshot["parts"];
  rows: NonNullable<Snapshot["rows"]>;
  rowsLoaded: boolean;
}

/**
 * The saved form of what the page holds: a plain Snapshot for a small run, a packed one
 * for a large run. A copy, so later ops never write into the trait value. Transient items
 * are never in it; rows only when the page has them all.
 */
export async function toSaved(held: HeldRun): Promise<Snapshot | WirePackedSnapshot> {
  const snapshot: Snapshot = { v: 1, seq: held.seq, run: held.run, parts: held.parts };
  if (held.rowsLoaded) snapshot.rows = held.rows;
  const text = JSON.stringify(snapshot);
  if (text.length <= PACK_OVER_CHARS) return JSON.parse(text) as Snapshot;
  return { v: 1, seq: held.seq, encoding: PACKED_ENCODING, data: await pack(text) };
}

/** The zlib-wrapped deflate of `text`'s UTF-8, as `unpack` and the kernel read it. */
export async function pack(text: string): Promise<DataView> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate"));
  return new DataView(await new Response(stream).arrayBuffer());
}
