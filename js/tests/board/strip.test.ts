import { describe, expect, it } from "vitest";
import { axisEnd, describeStrip, markBox, stripMarks } from "../../src/board/strip";
import { boardRow } from "./builders";

describe("a row's strip", () => {
  it("draws closed marks as they are and instants as points", () => {
    const row = boardRow("a", {
      marks: [
        { kind: "step", t: 100, end: 900 },
        { kind: "tool-error", t: 200, end: 300 },
        { kind: "tripwire", t: 950, end: null },
      ],
    });
    expect(stripMarks(row)).toEqual([
      { kind: "step", t0: 100, t1: 900, instant: false },
      { kind: "tool-error", t0: 200, t1: 300, instant: false },
      { kind: "tripwire", t0: 950, t1: 950, instant: true },
    ]);
  });

  it("leaves a running row's open marks open, to reach the axis's end", () => {
    const row = boardRow("a", { status: "running", marks: [{ kind: "tool", t: 400, end: null }] });
    expect(stripMarks(row)).toEqual([{ kind: "tool", t0: 400, t1: null, instant: false }]);
  });

  it("ends an open mark of a run that ended where the run ended", () => {
    const row = boardRow("a", {
      status: "aborted",
      startedMs: 1000,
      elapsedMs: 2500,
      marks: [{ kind: "tool", t: 1200, end: null }],
    });
    expect(stripMarks(row)).toEqual([{ kind: "tool", t0: 1200, t1: 3500, instant: false }]);
  });

  it("says what it shows in words", () => {
    const row = boardRow("a", {
      marksLeft: 4,
      marks: [
        { kind: "step", t: 0, end: 10 },
        { kind: "tool", t: 1, end: 2 },
        { kind: "tool-error", t: 3, end: 4 },
        { kind: "error", t: 1500, end: null },
      ],
    });
    expect(describeStrip(row)).toBe(
      "1 step, 2 tool calls (1 failed), error at 1.5 s, 4 more events not drawn",
    );
  });
});

describe("the shared time axis", () => {
  it("ends at the board's age, grown by the time since the last message while runs go on", () => {
    expect(axisEnd(5000, 1000, true, 3000)).toBe(7000);
    expect(axisEnd(5000, 1000, false, 3000)).toBe(5000);
    expect(axisEnd(5000, null, true, 3000)).toBe(5000);
    expect(axisEnd(0, null, false, 0)).toBe(1);
  });
});

describe("a mark's place on the strip", () => {
  it("is in percent of the axis, an open mark or an instant without a width", () => {
    expect(markBox({ kind: "step", t0: 1000, t1: 3000, instant: false }, 8000)).toEqual({
      left: 12.5,
      width: 25,
    });
    expect(markBox({ kind: "tool", t0: 2000, t1: null, instant: false }, 8000)).toEqual({
      left: 25,
      width: null,
    });
    expect(markBox({ kind: "error", t0: 4000, t1: 4000, instant: true }, 8000)).toEqual({
      left: 50,
      width: null,
    });
  });

  it("stays on the strip when the mark is past the axis's end", () => {
    expect(markBox({ kind: "tool", t0: 9000, t1: 9500, instant: false }, 8000)).toEqual({
      left: 100,
      width: 0,
    });
  });
});
