import { describe, expect, it } from "vitest";
import { TextRope, textSource } from "../../src/model/rope";
import { applyDown, emptyState, type StoreState } from "../../src/model/store";
import type { TextPart } from "../../src/model/wire";
import { batch, part } from "../helpers";

/** A rope made of `pieces` and the string they make, to read both the same way. */
function both(pieces: string[]): [TextRope, string] {
  const rope = new TextRope();
  for (const piece of pieces) rope.append(piece);
  return [rope, pieces.join("")];
}

describe("TextRope", () => {
  const pieces = ["ab\ncd", "", "e".repeat(5000), "\nf\n", "g".repeat(6000), "h\ni", "jk"];

  it("slices as a string does, across pieces and with any bounds", () => {
    const [rope, text] = both(pieces);
    expect(rope.length).toBe(text.length);
    const bounds = [0, 1, 2, 5, 4999, 5005, 5008, 11_000, text.length - 1, text.length, -3, 99_999];
    for (const start of bounds) {
      for (const end of bounds) expect(rope.slice(start, end)).toBe(text.slice(start, end));
      expect(rope.slice(start)).toBe(text.slice(start));
    }
    expect(rope.slice()).toBe(text);
  });

  it("finds text as indexOf does, a match that spans pieces included", () => {
    const [rope, text] = both(pieces);
    for (const search of ["\n", "e\nf", "gh\ni", "ijk", "cde", "zz", ""]) {
      for (const from of [0, 3, 4999, 5005, 5008, 11_010, text.length, 99_999]) {
        expect(rope.indexOf(search, from), `${JSON.stringify(search)} from ${from}`).toBe(
          text.indexOf(search, from),
        );
      }
    }
  });

  it("keeps a text streamed a few characters at a time in few pieces", () => {
    const rope = new TextRope();
    for (let k = 0; k < 20_000; k++) rope.append("word ");
    expect(rope.length).toBe(100_000);
    expect(rope.slice(99_990)).toBe("word word ");
    expect(rope.indexOf("word", 99_991)).toBe(99_995);
  });
});

describe("a part's text source", () => {
  function grown(...texts: string[]): StoreState {
    let state = applyDown(emptyState(), batch(1, { op: "add", part: part("text", { id: "t" }) }));
    texts.forEach((text, k) => {
      state = applyDown(state, batch(k + 2, { op: "append", id: "t", field: "text", text, t: k }));
    });
    return state;
  }

  it("is a rope holding the same text while the text grows by appends", () => {
    const state = grown("Hello", ", ", "world");
    const text = state.byId.get("t") as TextPart;
    const source = textSource(text, text.text);
    expect(source).toBeInstanceOf(TextRope);
    expect(source.slice(0)).toBe("Hello, world");
  });

  it("is the part's string again once a set op writes the text whole", () => {
    let state = grown("Hello", ", ", "world");
    state = applyDown(state, batch(5, { op: "set", id: "t", set: { text: "Bye, world!!" }, t: 9 }));
    const text = state.byId.get("t") as TextPart;
    expect(textSource(text, text.text)).toBe("Bye, world!!");
    state = applyDown(state, batch(6, { op: "append", id: "t", field: "text", text: "?", t: 10 }));
    expect(textSource(text, text.text).slice(0)).toBe("Bye, world!!?");
  });
});
