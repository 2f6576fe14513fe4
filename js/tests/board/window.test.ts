import { describe, expect, it } from "vitest";
import { MARGIN_ROWS, ROW_HEIGHT, scrollToShow, visibleRange } from "../../src/board/window";

describe("the rows in the DOM", () => {
  it("are those in view and a margin on each side", () => {
    expect(visibleRange(0, 10 * ROW_HEIGHT, 2000)).toEqual({ start: 0, end: 10 + MARGIN_ROWS });
    expect(visibleRange(100 * ROW_HEIGHT, 10 * ROW_HEIGHT, 2000)).toEqual({
      start: 100 - MARGIN_ROWS,
      end: 110 + MARGIN_ROWS,
    });
  });

  it("stay within the table", () => {
    expect(visibleRange(1995 * ROW_HEIGHT, 10 * ROW_HEIGHT, 2000)).toEqual({
      start: 1995 - MARGIN_ROWS,
      end: 2000,
    });
    expect(visibleRange(500, 300, 0)).toEqual({ start: 0, end: 0 });
  });

  it("scroll as little as needed to show a row", () => {
    const height = 10 * ROW_HEIGHT;
    expect(scrollToShow(5, 0, height)).toBe(0);
    expect(scrollToShow(12, 0, height)).toBe(3 * ROW_HEIGHT);
    expect(scrollToShow(2, 5 * ROW_HEIGHT, height)).toBe(2 * ROW_HEIGHT);
  });
});
