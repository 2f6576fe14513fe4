// @vitest-environment jsdom
import { describe, expect, it, vi } from "vitest";
import { placeChildren } from "../../src/views/dom";

function items(n: number): HTMLElement[] {
  return Array.from({ length: n }, (_, k) => {
    const el = document.createElement("div");
    el.textContent = `item ${k}`;
    return el;
  });
}

describe("placeChildren", () => {
  it("moves no child when a list loses its first items and grows at the end", () => {
    const parent = document.createElement("div");
    const all = items(300);
    placeChildren(parent, all.slice(0, 200));
    const inserted = vi.spyOn(parent, "insertBefore");
    placeChildren(parent, all.slice(2, 201));
    // Only the new last item is inserted: the 198 kept ones stay where they are.
    expect(inserted).toHaveBeenCalledTimes(1);
    expect([...parent.children]).toEqual(all.slice(2, 201));
  });

  it("touches nothing when nothing changed", () => {
    const parent = document.createElement("div");
    const all = items(50);
    placeChildren(parent, all);
    const inserted = vi.spyOn(parent, "insertBefore");
    const removed = vi.spyOn(Element.prototype, "remove");
    placeChildren(parent, all);
    expect(inserted).not.toHaveBeenCalled();
    expect(removed).not.toHaveBeenCalled();
    removed.mockRestore();
  });

  it("leaves exactly the wanted children, in order, whatever was there", () => {
    const pool = items(12);
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    const parent = document.createElement("div");
    for (let round = 0; round < 200; round++) {
      const wanted = pool.filter(() => next() % 3 !== 0).sort(() => (next() % 2) - 0.5);
      placeChildren(parent, wanted);
      expect([...parent.children]).toEqual(wanted);
    }
  });
});
