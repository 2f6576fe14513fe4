import { describe, expect, it } from "vitest";
import { compactStates, expandStates, statesOf } from "../../src/model/history";
import { applyDown, emptyState } from "../../src/model/store";
import type { Part, ToolCall } from "../../src/model/wire";
import { batch, part } from "../helpers";

const tool = (fields: Record<string, unknown>): ToolCall => part("tool", fields) as ToolCall;

describe("state histories the store keeps", () => {
  it("leaves out a tool history that its t0, t1 and state imply, and gives it back", () => {
    const done = tool({
      t0: 5,
      t1: 9,
      state: "done",
      states: [
        [5, "running"],
        [9, "done"],
      ],
    });
    compactStates(done);
    expect(done.states).toBeUndefined();
    expect(statesOf(done)).toEqual([
      [5, "running"],
      [9, "done"],
    ]);
    const running = tool({ t0: 5, state: "running", states: [[5, "running"]] });
    compactStates(running);
    expect(running.states).toBeUndefined();
    expect(statesOf(running)).toEqual([[5, "running"]]);
  });

  it("keeps every history that says more than the fields", () => {
    const cases: Record<string, unknown>[] = [
      {
        t0: 5,
        t1: 9,
        state: "done",
        states: [
          [5, "input-streaming"],
          [7, "running"],
          [9, "done"],
        ],
      },
      {
        t0: 5,
        t1: 9,
        state: "done",
        states: [
          [5, "running"],
          [8, "done"],
        ],
      }, // ended after the move
      {
        t0: 5,
        t1: null,
        state: "done",
        states: [
          [5, "running"],
          [8, "done"],
        ],
      }, // not ended yet
      { t0: 5, state: "running", states: [[6, "running"]] },
      { t0: 5, state: "awaiting-approval", states: [[5, "awaiting-approval"]] },
      { t0: 5, state: "running", states: [] },
    ];
    for (const fields of cases) {
      const p = tool(fields);
      compactStates(p);
      expect(p.states).toEqual(fields.states);
    }
  });

  it("only tool calls are compacted; other parts read their own history", () => {
    const bg = part("background" as Part["kind"], { state: "running", states: [[0, "running"]] });
    compactStates(bg);
    expect(statesOf(bg)).toEqual([[0, "running"]]);
    expect(statesOf(part("text"))).toEqual([]);
  });

  it("expandStates gives a compacted part a history of its own to grow", () => {
    const p = tool({
      t0: 1,
      t1: 2,
      state: "error",
      states: [
        [1, "running"],
        [2, "error"],
      ],
    });
    compactStates(p);
    expandStates(p);
    expect(p.states).toEqual([
      [1, "running"],
      [2, "error"],
    ]);
  });

  it("a live call through add and set ops: left out once ended, right at every step", () => {
    let state = applyDown(
      emptyState(),
      batch(1, {
        op: "add",
        part: tool({ id: "k", t0: 3, state: "running", states: [[3, "running"]] }),
      }),
    );
    const at = () => state.byId.get("k") as ToolCall;
    expect(at().states).toBeUndefined();
    state = applyDown(
      state,
      batch(2, { op: "set", id: "k", set: { state: "awaiting-approval" }, t: 4 }),
    );
    expect(statesOf(at())).toEqual([
      [3, "running"],
      [4, "awaiting-approval"],
    ]);
    state = applyDown(state, batch(3, { op: "set", id: "k", set: { state: "running" }, t: 6 }));
    state = applyDown(
      state,
      batch(4, { op: "set", id: "k", set: { state: "done", result: 1 }, t: 8 }),
    );
    state = applyDown(state, batch(5, { op: "set", id: "k", set: { t1: 8 }, t: 8 }));
    expect(statesOf(at())).toEqual([
      [3, "running"],
      [4, "awaiting-approval"],
      [6, "running"],
      [8, "done"],
    ]);

    state = applyDown(
      state,
      batch(6, {
        op: "add",
        part: tool({ id: "q", t0: 10, state: "running", states: [[10, "running"]] }),
      }),
    );
    state = applyDown(
      state,
      batch(7, { op: "set", id: "q", set: { state: "done", result: 2 }, t: 12 }),
    );
    const q = () => state.byId.get("q") as ToolCall;
    expect(statesOf(q())).toEqual([
      [10, "running"],
      [12, "done"],
    ]);
    state = applyDown(state, batch(8, { op: "set", id: "q", set: { t1: 12 }, t: 12 }));
    expect(q().states).toBeUndefined();
    expect(statesOf(q())).toEqual([
      [10, "running"],
      [12, "done"],
    ]);
  });
});
