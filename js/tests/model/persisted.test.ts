import { describe, expect, it } from "vitest";
import {
  isPacked,
  type PackedSnapshot,
  readSaved,
  savedSeq,
  unpack,
} from "../../src/model/persisted";
import type { Snapshot } from "../../src/model/wire";
import { PACKED_ENCODING } from "../../src/model/wire";
import { part, snapshot } from "../helpers";

async function deflate(text: string): Promise<Uint8Array> {
  const stream = new Blob([new TextEncoder().encode(text)])
    .stream()
    .pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function pack(snap: Snapshot, data: Uint8Array): PackedSnapshot {
  // The widget manager hands buffers over as DataViews, often onto a larger buffer.
  const padded = new Uint8Array(data.byteLength + 16);
  padded.set(data, 8);
  return {
    v: 1,
    seq: snap.seq,
    encoding: PACKED_ENCODING,
    data: new DataView(padded.buffer, 8, data.byteLength),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe("saved snapshots", () => {
  const snap = snapshot([part("text", { id: "t", text: "saved ✓ text" })], { seq: 9 });

  it("unpacks a deflated snapshot handed over as a DataView", async () => {
    const packed = pack(snap, await deflate(JSON.stringify(snap)));
    expect(isPacked(packed)).toBe(true);
    expect(isPacked(snap)).toBe(false);
    expect(savedSeq(packed)).toBe(9);
    expect(await unpack(packed)).toEqual(snap);
  });

  it("adopts a plain snapshot at once and a packed one after decoding, when newer", async () => {
    const adopted: Snapshot[] = [];
    readSaved(
      snap,
      3,
      (s) => adopted.push(s),
      () => {},
    );
    expect(adopted).toHaveLength(1);
    readSaved(
      pack(snap, await deflate(JSON.stringify(snap))),
      3,
      (s) => adopted.push(s),
      () => {},
    );
    await settle();
    expect(adopted).toHaveLength(2);
    expect(adopted[1]).toEqual(snap);
  });

  it("never decodes a packed snapshot the store is already past", async () => {
    const calls: string[] = [];
    const garbage = pack(snap, new Uint8Array([1, 2, 3, 4]));
    readSaved(
      garbage,
      9,
      () => calls.push("adopt"),
      (m) => calls.push(m),
    );
    await settle();
    expect(calls).toEqual([]);
  });

  it("refuses a packed snapshot that unpacks past the limit (a deflate bomb)", async () => {
    const bomb = pack(snap, await deflate(" ".repeat(2_000_000)));
    await expect(unpack(bomb, 1_000_000)).rejects.toThrow(/unpacks to more than 1 MB/);
  });

  it("reports a packed snapshot that cannot be decoded, and adopts nothing", async () => {
    const calls: string[] = [];
    readSaved(
      pack(snap, new Uint8Array([1, 2, 3, 4])),
      0,
      () => calls.push("adopt"),
      (m) => calls.push(m),
    );
    await settle();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(/^the saved run could not be decoded/);
  });
});
