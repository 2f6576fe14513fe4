import { describe, expect, it } from "vitest";
import { viewAt } from "../../src/model/scrub";
import { fromSnapshot } from "../../src/model/store";
import type { BackgroundTask, Part, TextPart, ToolCall, WorkflowStep } from "../../src/model/wire";
import {
  background,
  row,
  runInfo,
  stateOf,
  step,
  text,
  tool,
  wstep,
} from "../views/timeline/builders";

function finishedRun() {
  const parts: Part[] = [
    step("s0", 0, 0, 900, "stop"),
    text("t", 20, 300, "Hello there, world", [
      [20, 5],
      [60, 11],
      [300, 18],
    ]),
    tool(
      "k",
      "search",
      [
        [310, "input-streaming"],
        [340, "running"],
        [500, "awaiting-approval"],
        [560, "running"],
        [700, "done"],
      ],
      700,
      {
        result: { hits: 2 },
        approval: { approved: true },
      },
    ),
    tool(
      "bad",
      "fetch",
      [
        [320, "running"],
        [650, "error"],
      ],
      650,
      { error: "timeout" },
    ),
    background(
      "bg",
      [
        [350, "started"],
        [360, "running"],
        [800, "completed"],
      ],
      800,
      { progress: 1, result: "ok" },
    ),
    wstep(
      "ws",
      "prepare",
      [
        [400, "running"],
        [450, "suspended"],
        [600, "running"],
        [820, "success"],
      ],
      820,
      {
        output: { ready: true },
      },
    ),
    text("late", 850, 890, "bye", [[850, 3]]),
  ];
  const rows = [
    row(0, 0, "start", "control"),
    row(1, 20, "text-delta", "text", "t", 3),
    row(2, 310, "tool-call", "tools", "k"),
    row(3, 850, "text-delta", "text", "late"),
  ];
  const state = stateOf(runInfo({ elapsedMs: 900, ttftMs: 20 }), parts, rows);
  state.transient.push(
    { t: 100, i: 9, type: "data-progress", id: null, data: 1 },
    { t: 880, i: 10, type: "data-progress", id: null, data: 2 },
  );
  return state;
}

describe("viewAt", () => {
  it("cuts text to the length of the last mark at or before t", () => {
    const state = finishedRun();
    const at = (t: number) => (viewAt(state, t).byId.get("t") as TextPart | undefined)?.text;
    expect(at(10)).toBeUndefined();
    expect(at(20)).toBe("Hello");
    expect(at(59)).toBe("Hello");
    expect(at(100)).toBe("Hello there");
    expect(at(300)).toBe("Hello there, world");
    const past = viewAt(state, 100).byId.get("t") as TextPart;
    expect(past.t1).toBeNull();
    expect(past.marks).toEqual([
      [20, 5],
      [60, 11],
    ]);
  });

  it("gives tools the state they had at t and hides what arrived later", () => {
    const state = finishedRun();
    const at = (t: number) => viewAt(state, t).byId.get("k") as ToolCall;
    expect(at(320).state).toBe("input-streaming");
    const running = at(400);
    expect([running.state, running.result, running.t1, running.approval]).toEqual([
      "running",
      null,
      null,
      null,
    ]);
    expect(at(520).state).toBe("awaiting-approval");
    expect(at(520).approval).toEqual({ approved: true });
    const done = at(700);
    expect([done.state, done.result]).toEqual(["done", { hits: 2 }]);
    expect(done).toBe(state.byId.get("k")); // settled parts are shared, not copied
    expect((viewAt(state, 600).byId.get("bad") as ToolCall).error).toBeNull();
    expect((viewAt(state, 650).byId.get("bad") as ToolCall).error).toBe("timeout");
  });

  it("rewinds background tasks and workflow steps", () => {
    const state = finishedRun();
    const bg = viewAt(state, 500).byId.get("bg") as BackgroundTask;
    expect([bg.state, bg.result, bg.states.length]).toEqual(["running", null, 2]);
    expect((viewAt(state, 355).byId.get("bg") as BackgroundTask).progress).toBeNull();
    const suspended = viewAt(state, 500).byId.get("ws") as WorkflowStep;
    expect([suspended.status, suspended.output]).toEqual(["suspended", null]);
    const done = viewAt(state, 830).byId.get("ws") as WorkflowStep;
    expect([done.status, done.output]).toEqual(["success", { ready: true }]);
  });

  it("leaves out parts, rows and transient items that came after t", () => {
    const state = finishedRun();
    const view = viewAt(state, 400);
    expect(view.parts.map((p) => p.id)).toEqual(["s0", "t", "k", "bad", "bg", "ws"]);
    expect(view.rows.map((r) => r.i)).toEqual([0, 1, 2]);
    expect(view.transient.map((x) => x.i)).toEqual([9]);
    expect(state.parts).toHaveLength(7); // the store is untouched
  });

  it("works on the store's own state, keeping its part index consistent", () => {
    const snapshot = finishedRun();
    const store = fromSnapshot({
      v: 1,
      seq: 3,
      run: snapshot.run,
      parts: [...snapshot.parts],
      rows: snapshot.rows,
    });
    const past = viewAt(store, 400);
    expect(past.seq).toBe(3);
    expect(past.parts.map((p) => past.indexOf.get(p.id))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(past.indexOf.has("late")).toBe(false);
    expect(store.indexOf.get("late")).toBe(6);
  });

  it("counts chunks from the parts while a live kernel has not sent the rows", () => {
    const state = { ...finishedRun(), rowsLoaded: false, rows: [] };
    const chunkOf: Record<string, number> = { s0: 1, t: 2, k: 6, bad: 7, bg: 8, ws: 11, late: 20 };
    state.parts = state.parts.map((p) => ({ ...p, chunk: chunkOf[p.id] ?? 0 }));
    // The last chunk that made a part by t = 400 is chunk 11 (the workflow step).
    expect(viewAt(state, 400).run.chunkCount).toBe(12);
    expect(viewAt(state, 400).run.status).toBe("running");
  });

  it("shows a finished run as still running before its end, and as it ended after", () => {
    const state = finishedRun();
    const mid = viewAt(state, 400).run;
    expect([mid.status, mid.elapsedMs, mid.ended, mid.finishReason, mid.usage, mid.ttftMs]).toEqual(
      ["running", 400, false, null, null, 20],
    );
    expect(mid.chunkCount).toBe(1 + 3 + 1 + 1);
    expect(viewAt(state, 10).run.ttftMs).toBeNull();
    expect(viewAt(state, -1).run.status).toBe("waiting");
    const end = viewAt(state, 900);
    expect(end.run).toBe(state.run);
    expect(end.run.status).toBe("finished");
    expect((end.byId.get("s0") as Part).t1).toBe(900);
  });

  it("keeps working on a live run scrubbed back from its edge", () => {
    const parts: Part[] = [
      text("t", 0, null, "abcdef", [
        [0, 2],
        [40, 6],
      ]),
      tool("k", "x", [[10, "running"]], null),
    ];
    const state = stateOf(
      runInfo({ status: "running", ended: false, elapsedMs: 50, finishReason: null }),
      parts,
    );
    const view = viewAt(state, 20);
    expect((view.byId.get("t") as TextPart).text).toBe("ab");
    expect((view.byId.get("k") as ToolCall).state).toBe("running");
    expect(view.run.elapsedMs).toBe(20);
    expect(viewAt(state, 50).run).toBe(state.run);
  });
});

describe("viewAt on a large run", () => {
  it("rebuilds 10k parts and 50k rows quickly enough to follow a dragged scrubber", () => {
    const parts: Part[] = [];
    for (let k = 0; k < 10_000; k++) {
      const t = k * 10;
      parts.push(
        k % 2 === 0
          ? text(`t${k}`, t, t + 8, "x".repeat(40), [
              [t, 20],
              [t + 8, 40],
            ])
          : tool(
              `k${k}`,
              "search",
              [
                [t, "input-streaming"],
                [t + 2, "running"],
                [t + 25, "done"],
              ],
              t + 25,
            ),
      );
    }
    const rows = Array.from({ length: 50_000 }, (_, i) => row(i, i * 2, "text-delta", "text"));
    const state = stateOf(runInfo({ elapsedMs: 100_100 }), parts, rows);
    let view = viewAt(state, 50_001);
    let ms = Infinity;
    for (let k = 0; k < 5; k++) {
      const started = performance.now();
      view = viewAt(state, 50_001 + k);
      ms = Math.min(ms, performance.now() - started);
    }
    console.log(`viewAt: 10k parts + 50k rows in ${ms.toFixed(1)} ms (best of 5)`);
    expect(view.parts).toHaveLength(5_001);
    expect(view.rows).toHaveLength(25_003);
    expect(ms).toBeLessThan(500);
  });
});
