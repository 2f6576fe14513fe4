/**
 * The timeline and the scrubber on snapshots folded by chunkscope.RunState from real Mastra
 * recordings (tests/fixtures/mastra; regenerate with fixtures/make_fixtures.py).
 */
import { describe, expect, it } from "vitest";
import { statesOf } from "../../../src/model/history";
import { viewAt } from "../../../src/model/scrub";
import { fromSnapshot } from "../../../src/model/store";
import type { Snapshot, TextPart, ToolCall } from "../../../src/model/wire";
import { type Layout, layoutTimeline } from "../../../src/views/timeline/layout";
import abort from "./fixtures/abort";
import agentNetwork from "./fixtures/agent-network";
import backgroundFailure from "./fixtures/background-task-failure";
import backgroundSuccess from "./fixtures/background-task-success";
import parallelTools from "./fixtures/parallel-tool-calls";
import toolWriter from "./fixtures/tool-writer";
import tripwireOutput from "./fixtures/tripwire-output";
import workflowForeach from "./fixtures/workflow-foreach";
import workflowNested from "./fixtures/workflow-nested";
import workflowParallel from "./fixtures/workflow-parallel";
import workflowTool from "./fixtures/workflow-tool";

/** Lane label → the labels of its bars and ticks, in order. */
function lanes(layout: Layout): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  layout.lanes.forEach((lane, index) => {
    out[lane.label] = layout.items
      .filter((item) => item.lane === index)
      .map((item) => `${item.label}${item.shape === "tick" ? " (tick)" : ""}`);
  });
  return out;
}

function laneOf(layout: Layout, label: string) {
  return layout.lanes.find((lane) => lane.label === label);
}

describe("timeline of real recordings", () => {
  it("stacks three parallel tool calls between two steps", () => {
    const layout = layoutTimeline(parallelTools);
    expect(lanes(layout)).toEqual({
      Run: ["parallel-tool-calls", "step 1 · tool-calls", "step 2 · stop"],
      Text: ["text"],
      Tools: ["get-weather", "get-weather", "get-weather"],
    });
    expect(laneOf(layout, "Tools")?.rows).toBe(3);
    expect(layout.markers.map((m) => m.kind)).toEqual(["ttft"]);
  });

  it("puts writer outputs as ticks on their tool's row", () => {
    const layout = layoutTimeline(toolWriter);
    expect(lanes(layout).Tools).toEqual(["long-task", " (tick)", " (tick)"]);
    expect(new Set(layout.items.filter((i) => i.lane === 2).map((i) => i.row))).toEqual(
      new Set([0]),
    );
  });

  it("shows a background task's outcome and the continuation run that follows it", () => {
    const ok = layoutTimeline(backgroundSuccess);
    const failed = layoutTimeline(backgroundFailure);
    expect(lanes(ok).Background).toEqual(["deep-research"]);
    const task = (layout: Layout) =>
      layout.items.find(
        (i) => i.label === "deep-research" && layout.lanes[i.lane]?.kind === "background",
      );
    expect(task(ok)?.color).toBe("success");
    expect(task(failed)?.color).toBe("failure");
    expect(task(ok)?.segments.map((s) => s.state)).toEqual(["started", "running"]);
    expect(lanes(ok).Run).toContain("continuation turn 1");
  });

  it("indents nested workflow steps and stacks parallel branches", () => {
    const nested = layoutTimeline(workflowNested);
    expect(lanes(nested)).toMatchObject({
      Workflow: ["outer-first", "inner-wf", "outer-last"],
      "inner-wf": ["inner-step", "inner-step-2"],
    });
    expect(laneOf(nested, "inner-wf")?.depth).toBe(1);
    const parallel = layoutTimeline(workflowParallel);
    expect(lanes(parallel).Workflow).toEqual(["add-ten", "add-hundred", "merge"]);
    expect(laneOf(parallel, "Workflow")?.rows).toBe(2);
    expect(lanes(layoutTimeline(workflowForeach)).Workflow).toEqual(["square · 3/3"]);
  });

  it("gives a workflow run as a tool its own indented lanes under the tool", () => {
    const layout = layoutTimeline(workflowTool);
    expect(lanes(layout)).toEqual({
      Run: ["workflow-tool", "step 1 · tool-calls", "step 2 · stop"],
      Text: ["text"],
      Tools: ["workflow-greetingWorkflow"],
      "workflow-greetingWorkflow · Run": ["workflow-greetingWorkflow", "greeting-workflow"],
      // what the step wrote sits on its step's row
      "workflow-greetingWorkflow · Workflow": ["shout", " (tick)", "count"],
    });
  });

  it("pairs agent-network events into spans and indents the sub-agent's run", () => {
    const layout = layoutTimeline(agentNetwork);
    const network = lanes(layout).Network;
    expect(network?.slice(0, 3)).toEqual([
      "routing-agent",
      "routing-agent · writer (tick)",
      "agent-execution · writer",
    ]);
    const routing = layout.items.find((i) => i.label === "routing-agent");
    expect(routing !== undefined && routing.end > routing.start).toBe(true);
    expect(lanes(layout)["writer · Text"]).toEqual(["text"]);
  });

  it("marks an output tripwire and an abort", () => {
    const trip = layoutTimeline(tripwireOutput);
    const marker = trip.markers.find((m) => m.kind === "tripwire");
    expect(marker?.tooltip).toContain("block-forbidden-word");
    expect(trip.items[0]?.color).toBe("failure");
    const aborted = layoutTimeline(abort);
    expect(aborted.markers.map((m) => m.kind)).toContain("abort");
    expect(aborted.items[0]?.color).toBe("muted");
  });
});

describe("scrubbing real recordings", () => {
  it("replays a finished run from its persisted parts", () => {
    const state = fromSnapshot(parallelTools as Snapshot);
    const tools = state.parts.filter((p): p is ToolCall => p.kind === "tool");
    const first = tools[0] as ToolCall;
    const midCall = ((statesOf(first)[1]?.[0] ?? 0) + (first.t1 ?? 0)) / 2;
    const past = viewAt(state, midCall);
    const seen = past.byId.get(first.id) as ToolCall;
    expect([seen.state, seen.result, seen.t1]).toEqual(["running", null, null]);
    expect(past.run.status).toBe("running");
    expect(past.parts.length).toBeLessThan(state.parts.length);
    // The answer text came after the tools: not there yet mid-call, whole at the end.
    const text = state.parts.find((p): p is TextPart => p.kind === "text") as TextPart;
    expect(past.byId.has(text.id)).toBe(false);
    expect((viewAt(state, state.run.elapsedMs).byId.get(text.id) as TextPart).text).toBe(text.text);
    expect(viewAt(state, state.run.elapsedMs).run).toBe(state.run);
  });
});
