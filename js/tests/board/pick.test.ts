import { describe, expect, it } from "vitest";
import { comparePair, keepKnown, togglePick } from "../../src/board/pick";

describe("picking runs to compare", () => {
  it("picks up to two, dropping the first pick for a third", () => {
    let picked = togglePick([], "a");
    picked = togglePick(picked, "b");
    expect(comparePair(picked)).toEqual(["a", "b"]);
    picked = togglePick(picked, "c");
    expect(picked).toEqual(["b", "c"]);
  });

  it("unpicks a picked row, and compares only a pair", () => {
    const picked = togglePick(["a", "b"], "a");
    expect(picked).toEqual(["b"]);
    expect(comparePair(picked)).toBeNull();
  });

  it("forgets picks of rows that are gone", () => {
    const known = new Map([["b", 1]]);
    expect(keepKnown(["a", "b"], known)).toEqual(["b"]);
    const same = ["b"];
    expect(keepKnown(same, known)).toBe(same);
  });
});
