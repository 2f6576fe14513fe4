import { describe, expect, it } from "vitest";
import { isPacked, PACK_OVER_CHARS, toSaved, unpack } from "../src/model/persisted";
import { emptyRun } from "../src/model/store";
import type { Part } from "../src/model/wire";

const textPart = (id: string, text: string) =>
  ({
    id,
    kind: "text",
    parent: null,
    step: null,
    t0: 0,
    t1: null,
    chunk: 0,
    text,
    marks: [],
  }) as unknown as Part;

describe("toSaved", () => {
  it("copies a small run as a plain snapshot, with rows only when the page has them all", async () => {
    const parts = [textPart("p0", "hello")];
    const saved = await toSaved({ seq: 3, run: emptyRun("t"), parts, rows: [], rowsLoaded: false });
    expect(isPacked(saved)).toBe(false);
    expect(saved).toMatchObject({ v: 1, seq: 3, parts: [{ id: "p0", text: "hello" }] });
    expect("rows" in saved).toBe(false);
    parts[0] = textPart("p0", "changed");
    expect(saved).toMatchObject({ parts: [{ text: "hello" }] });
  });

  it("packs a large run so that unpack gives it back", async () => {
    const text = "x".repeat(PACK_OVER_CHARS + 10);
    const saved = await toSaved({
      seq: 9,
      run: emptyRun(),
      parts: [textPart("p0", text)],
      rows: [],
      rowsLoaded: true,
    });
    expect(isPacked(saved)).toBe(true);
    if (!isPacked(saved)) return;
    const back = await unpack(saved);
    expect(back.seq).toBe(9);
    expect(back.rows).toEqual([]);
    expect((back.parts[0] as unknown as { text: string }).text).toBe(text);
  });
});
