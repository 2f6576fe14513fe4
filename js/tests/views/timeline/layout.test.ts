import { describe, expect, it } from "vitest";
import type { Part } from "../../../src/model/wire";
import { type Layout, layoutTimeline, type TimelineItem } from "../../../src/views/timeline/layout";
import {
  background,
  nestedRun,
  network,
  notice,
  output,
  runInfo,
  step,
  text,
  tool,
  workflow,
  wstep,
} from "./builders";

function laneLabels(layout: Layout): string[] {
  return layout.lanes.map((lane) => lane.label);
}

function itemsIn(layout: Layout, label: string): TimelineItem[] {
  const lane = layout.lanes.findIndex((l) => l.label === label);
  expect(lane, `lane ${label} exists`).toBeGreaterThanOrEqual(0);
  return layout.items.filter((item) => item.lane === lane);
}

function itemOf(layout: Layout, partId: string): TimelineItem {
  const item = layout.items.find((i) => i.partId === partId);
  expect(item, `item for ${partId}`).toBeDefined();
  return item as TimelineItem;
}

describe("layoutTimeline", () => {
  it("lays a tool call spanning two steps next to the steps that bracket it", () => {
    const parts: Part[] = [
      step("s0", 0, 0, 400, "tool-calls"),
      text("t0", 20, 100, "Let me look.", [
        [20, 4],
        [100, 12],
      ]),
      tool(
        "k0",
        "search",
        [
          [110, "input-streaming"],
          [150, "running"],
          [600, "done"],
        ],
        600,
        {
          result: { hits: 3 },
        },
      ),
      step("s1", 1, 410, 900, "stop"),
      text("t1", 620, 880, "Found 3.", [[620, 8]]),
    ];
    const layout = layoutTimeline({ run: runInfo(), parts });
    expect(laneLabels(layout)).toEqual(["Run", "Text", "Tools"]);
    const runLane = itemsIn(layout, "Run");
    // Row 0 is the run itself, the two steps sit on the row below, in sequence.
    expect(runLane.map((i) => [i.partId, i.row])).toEqual([
      [null, 0],
      ["s0", 1],
      ["s1", 1],
    ]);
    expect(itemOf(layout, "s0").label).toBe("step 1 · tool-calls");
    expect(itemOf(layout, "s1").label).toBe("step 2 · stop");
    const call = itemOf(layout, "k0");
    expect([call.start, call.end, call.color, call.label]).toEqual([110, 600, "success", "search"]);
    expect(call.segments.map((s) => [s.state, s.start, s.end, s.color])).toEqual([
      ["input-streaming", 110, 150, "input"],
      ["running", 150, 600, "running"],
    ]);
    expect(call.tooltip).toContain("search · done");
    expect(call.tooltip).toContain('result: {"hits":3}');
    expect(itemsIn(layout, "Text")).toHaveLength(2);
  });

  it("stacks parallel tool calls in rows and puts their outputs on the same rows", () => {
    const parts: Part[] = [
      tool(
        "a",
        "weather",
        [
          [100, "running"],
          [500, "done"],
        ],
        500,
      ),
      tool(
        "b",
        "news",
        [
          [110, "running"],
          [300, "error"],
        ],
        300,
        { error: "timeout" },
      ),
      tool(
        "c",
        "stocks",
        [
          [120, "running"],
          [450, "denied"],
        ],
        450,
      ),
      output("o1", "b", 200),
      output("o2", "a", 250),
      tool(
        "d",
        "later",
        [
          [510, "running"],
          [520, "done"],
        ],
        520,
      ),
    ];
    const layout = layoutTimeline({ run: runInfo(), parts });
    const tools = itemsIn(layout, "Tools");
    expect(tools).toHaveLength(6);
    expect(layout.lanes.find((l) => l.label === "Tools")?.rows).toBe(3);
    expect(itemOf(layout, "a").row).toBe(0);
    expect(itemOf(layout, "b").row).toBe(1);
    expect(itemOf(layout, "c").row).toBe(2);
    // A call that starts after the first row is free reuses it.
    expect(itemOf(layout, "d").row).toBe(0);
    expect(itemOf(layout, "b").color).toBe("failure");
    expect(itemOf(layout, "c").color).toBe("muted");
    const tick = itemOf(layout, "o1");
    expect([tick.shape, tick.row, tick.start, tick.end]).toEqual(["tick", 1, 200, 200]);
    expect(itemOf(layout, "o2").row).toBe(0);
  });

  it("shows background tasks that succeed and fail with their phases and progress", () => {
    const parts: Part[] = [
      background(
        "ok",
        [
          [50, "started"],
          [60, "running"],
          [300, "suspended"],
          [400, "running"],
          [700, "completed"],
        ],
        700,
        {
          progress: 0.5,
          result: "done",
        },
      ),
      background(
        "bad",
        [
          [80, "started"],
          [90, "running"],
          [200, "failed"],
        ],
        200,
        { error: "boom" },
      ),
    ];
    const layout = layoutTimeline({ run: runInfo(), parts });
    const lane = itemsIn(layout, "Background");
    expect(lane).toHaveLength(2);
    const ok = itemOf(layout, "ok");
    expect(ok.color).toBe("success");
    expect(ok.segments.map((s) => s.state)).toEqual(["started", "running", "suspended", "running"]);
    expect(ok.label).toBe("crawl · 50%");
    const bad = itemOf(layout, "bad");
    expect([bad.color, bad.row]).toEqual(["failure", 1]);
    expect(bad.tooltip).toContain("error: boom");
  });

  it("lays out a workflow with parallel, foreach and nested steps as stacked and indented lanes", () => {
    const parts: Part[] = [
      workflow("w", 0, 900),
      wstep(
        "fetch",
        "fetch",
        [
          [10, "running"],
          [100, "success"],
        ],
        100,
      ),
      // parallel branches
      wstep(
        "pa",
        "left",
        [
          [110, "running"],
          [300, "success"],
        ],
        300,
      ),
      wstep(
        "pb",
        "right",
        [
          [112, "running"],
          [250, "failed"],
        ],
        250,
        { error: "nope" },
      ),
      // foreach iterations of one step
      wstep(
        "f1",
        "each",
        [
          [310, "running"],
          [400, "success"],
        ],
        400,
      ),
      wstep(
        "f2",
        "each",
        [
          [311, "running"],
          [420, "success"],
        ],
        420,
      ),
      wstep(
        "f3",
        "each",
        [
          [312, "waiting"],
          [380, "running"],
          [410, "success"],
        ],
        410,
      ),
      // a nested workflow's steps have dotted ids
      wstep(
        "n1",
        "inner-wf.prepare",
        [
          [500, "running"],
          [600, "success"],
        ],
        600,
      ),
      wstep(
        "n2",
        "inner-wf.deep.leaf",
        [
          [610, "running"],
          [700, "suspended"],
        ],
        null,
      ),
    ];
    const layout = layoutTimeline({ run: runInfo({ elapsedMs: 950 }), parts });
    expect(laneLabels(layout)).toEqual(["Run", "Workflow", "inner-wf", "inner-wf.deep"]);
    const depths = layout.lanes.map((l) => l.depth);
    expect(depths).toEqual([0, 0, 1, 2]);
    const top = itemsIn(layout, "Workflow");
    expect(top).toHaveLength(6);
    expect(layout.lanes[1]?.rows).toBe(3);
    expect(itemOf(layout, "pb").color).toBe("failure");
    expect(itemOf(layout, "f3").segments.map((s) => s.color)).toEqual(["pending", "running"]);
    expect(itemsIn(layout, "inner-wf").map((i) => i.label)).toEqual(["prepare"]);
    const open = itemOf(layout, "n2");
    expect([open.label, open.open, open.end, open.color]).toEqual(["leaf", true, 950, "pending"]);
    // The workflow run itself sits in the run lane under the root bar.
    expect(itemOf(layout, "w").row).toBe(1);
  });

  it("puts a nested agent run's parts on indented lanes of their own", () => {
    const call = tool(
      "k",
      "research",
      [
        [100, "running"],
        [800, "done"],
      ],
      800,
    );
    const sub = nestedRun("r", "k", 120, 780, "researcher");
    const subStep = { ...step("rs", 0, 130, 770, "stop"), parent: "r" };
    const subText = { ...text("rt", 140, 700, "sub text", [[140, 8]]), parent: "rs" };
    const subTool = {
      ...tool(
        "rk",
        "fetch",
        [
          [200, "running"],
          [300, "done"],
        ],
        300,
      ),
      parent: "rs",
    };
    const layout = layoutTimeline({
      run: runInfo(),
      parts: [call, sub, subStep, subText, subTool],
    });
    expect(laneLabels(layout)).toEqual([
      "Run",
      "Tools",
      "researcher · Run",
      "researcher · Text",
      "researcher · Tools",
    ]);
    expect(layout.lanes.slice(2).every((l) => l.depth === 1)).toBe(true);
    expect(itemOf(layout, "r").row).toBe(0);
    expect(itemOf(layout, "rs").row).toBe(1);
  });

  it("marks an output tripwire, an abort, errors, goals and time to first token", () => {
    const parts: Part[] = [
      text("t", 40, 300, "hello", [[40, 5]]),
      notice("trip", 310, "tripwire", "Output processor blocked content", {
        reason: "pii detected",
        processorId: "pii-guard",
      }),
      notice("err", 320, "error", "rate limited"),
      notice("ab", 330, "abort", "user stopped"),
      notice("g1", 340, "goal", "", {
        passed: true,
        objective: "answer",
        iteration: 1,
        maxRuns: 3,
      }),
      notice("g2", 345, "goal", "", { passed: false, objective: "answer", reason: "too short" }),
      notice("g3", 350, "goal", "task completion check", { isComplete: true }),
    ];
    const layout = layoutTimeline({ run: runInfo({ status: "tripwire" }), parts });
    expect(layout.markers.map((m) => [m.kind, m.t, m.color])).toEqual([
      ["ttft", 40, "accent"],
      ["tripwire", 310, "failure"],
      ["error", 320, "failure"],
      ["abort", 330, "muted"],
      ["goal-pass", 340, "success"],
      ["goal-fail", 345, "failure"],
      ["goal", 350, "accent"],
    ]);
    const trip = layout.markers[1];
    expect(trip?.tooltip).toContain("reason: pii detected");
    expect(trip?.tooltip).toContain("processor: pii-guard");
    expect(layout.markers[4]?.tooltip).toContain("evaluation 1 of 3");
    expect(layout.markers[5]?.tooltip).toContain("reason: too short");
    // The run bar shows how the run ended.
    expect(layout.items[0]?.color).toBe("failure");
  });

  it("extends open parts to the run's elapsed time and marks them open", () => {
    const parts: Part[] = [
      step("s", 0, 0, null, null),
      text("t", 30, null, "streaming…", [[30, 3]]),
      tool("k", "slow", [[60, "running"]], null),
    ];
    const layout = layoutTimeline({
      run: runInfo({ status: "running", ended: false, elapsedMs: 1234, finishReason: null }),
      parts,
    });
    for (const id of ["s", "t", "k"]) {
      const item = itemOf(layout, id);
      expect([id, item.end, item.open]).toEqual([id, 1234, true]);
    }
    expect(layout.items[0]?.open).toBe(true);
    expect(layout.end).toBe(1234);
  });

  it("pairs agent-network start and end events into spans on their own lane", () => {
    const parts: Part[] = [
      { ...network("n1", 10, 10, "agent-execution-start"), label: "researcher" },
      network("n2", 20, 20, "agent-execution-event-text-delta"),
      { ...network("n3", 200, 200, "agent-execution-end"), label: "researcher" },
      network("n4", 210, 210, "routing-agent-start"),
    ];
    const finished = layoutTimeline({ run: runInfo(), parts });
    const lane = itemsIn(finished, "Network");
    expect(lane.map((i) => [i.partId, i.shape, i.start, i.end, i.row])).toEqual([
      ["n1", "bar", 10, 200, 0],
      ["n2", "tick", 20, 20, 1],
      ["n3", "tick", 200, 200, 0],
      ["n4", "tick", 210, 210, 0],
    ]);
    expect(itemOf(finished, "n1").tooltip).toContain("took 190 ms");
    // While the run streams, a start with no end yet runs to the live edge.
    const live = layoutTimeline({
      run: runInfo({ ended: false, status: "running", elapsedMs: 500 }),
      parts,
    });
    expect([itemOf(live, "n4").end, itemOf(live, "n4").open]).toEqual([500, true]);
  });

  it("survives a parent cycle and unknown states without hanging or dropping parts", () => {
    const a = { ...tool("a", "x", [[10, "mystery"]], 20), parent: "b" };
    const b = { ...nestedRun("b", "a", 5, 30, "loop") };
    const layout = layoutTimeline({ run: runInfo(), parts: [a, b] });
    expect(layout.items.map((i) => i.partId)).toEqual([null, "a", "b"]);
    expect(itemOf(layout, "a").segments[0]?.color).toBe("running");
  });

  it("lays out 10k parts quickly", () => {
    const parts: Part[] = [];
    for (let k = 0; k < 10_000; k++) {
      const t = k * 10;
      const kind = k % 3;
      if (kind === 0)
        parts.push(
          text(`t${k}`, t, t + 8, "x".repeat(40), [
            [t, 20],
            [t + 8, 40],
          ]),
        );
      else if (kind === 1)
        parts.push(
          tool(
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
      else
        parts.push(
          wstep(
            `w${k}`,
            `step-${k % 7}`,
            [
              [t, "running"],
              [t + 30, "success"],
            ],
            t + 30,
          ),
        );
    }
    const run = runInfo({ elapsedMs: 100_000 });
    // Best of a few runs after warm-up: the figure is the layout's cost, not the JIT's.
    let layout = layoutTimeline({ run, parts });
    let ms = Infinity;
    for (let k = 0; k < 5; k++) {
      const started = performance.now();
      layout = layoutTimeline({ run, parts });
      ms = Math.min(ms, performance.now() - started);
    }
    console.log(`layoutTimeline: 10k parts in ${ms.toFixed(1)} ms (best of 5)`);
    expect(layout.items).toHaveLength(10_001);
    expect(ms).toBeLessThan(500);
  });
});
