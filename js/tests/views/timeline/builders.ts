/**
 * Hand-built parts and run records for timeline, scrubber and inspector tests, shaped like
 * the Python side's output (docs/wire.md).
 */
import type {
  BackgroundTask,
  ChunkRow,
  NestedRun,
  NetworkEvent,
  Notice,
  OutputPart,
  Part,
  RunInfo,
  StepPart,
  TextPart,
  ToolCall,
  WorkflowRun,
  WorkflowStep,
} from "../../../src/model/wire";

export function runInfo(over: Partial<RunInfo> = {}): RunInfo {
  return {
    title: "demo",
    status: "finished",
    runId: "run-1",
    finishReason: "stop",
    usage: { inputTokens: 10, outputTokens: 20, totalTokens: 30 },
    ttftMs: 40,
    elapsedMs: 1000,
    chunkCount: 0,
    outputTokens: 20,
    error: null,
    ended: true,
    ...over,
  };
}

const base = { parent: null, step: null, chunk: 0 };

export function step(
  id: string,
  index: number,
  t0: number,
  t1: number | null,
  finishReason: string | null,
): StepPart {
  return { ...base, id, kind: "step", t0, t1, index, finishReason, usage: null, warnings: null };
}

export function text(
  id: string,
  t0: number,
  t1: number | null,
  body: string,
  marks: [number, number][],
  over: Partial<TextPart> = {},
): TextPart {
  return { ...base, id, kind: "text", t0, t1, text: body, marks, ...over };
}

export function tool(
  id: string,
  name: string,
  states: [number, string][],
  t1: number | null,
  over: Partial<ToolCall> = {},
): ToolCall {
  const last = states[states.length - 1];
  return {
    ...base,
    id,
    kind: "tool",
    t0: states[0]?.[0] ?? 0,
    t1,
    toolCallId: `call-${id}`,
    toolName: name,
    state: (last?.[1] ?? "running") as ToolCall["state"],
    states,
    argsText: '{"q":"x"}',
    args: { q: "x" },
    result: null,
    error: null,
    providerExecuted: null,
    suspendPayload: null,
    approval: null,
    ...over,
  };
}

export function output(id: string, parent: string, t0: number): OutputPart {
  return { ...base, id, kind: "output", parent, t0, t1: t0, data: { progress: 1 }, from: "USER" };
}

export function background(
  id: string,
  states: [number, string][],
  t1: number | null,
  over: Partial<BackgroundTask> = {},
): BackgroundTask {
  const last = states[states.length - 1];
  return {
    ...base,
    id,
    kind: "background",
    t0: states[0]?.[0] ?? 0,
    t1,
    taskId: `task-${id}`,
    toolName: "crawl",
    toolCallId: null,
    state: (last?.[1] ?? "running") as BackgroundTask["state"],
    states,
    progress: null,
    result: null,
    error: null,
    ...over,
  };
}

export function workflow(
  id: string,
  t0: number,
  t1: number | null,
  over: Partial<WorkflowRun> = {},
): WorkflowRun {
  return {
    ...base,
    id,
    kind: "workflow",
    t0,
    t1,
    runId: "wf-run",
    workflowId: "wf",
    status: t1 === null ? "running" : "success",
    result: null,
    error: null,
    ...over,
  };
}

export function wstep(
  id: string,
  stepId: string,
  states: [number, string][],
  t1: number | null,
  over: Partial<WorkflowStep> = {},
): WorkflowStep {
  const last = states[states.length - 1];
  return {
    ...base,
    id,
    kind: "wstep",
    t0: states[0]?.[0] ?? 0,
    t1,
    stepId,
    status: last?.[1] ?? "running",
    states,
    input: { n: 1 },
    output: null,
    error: null,
    progress: null,
    suspendPayload: null,
    ...over,
  };
}

export function nestedRun(
  id: string,
  parent: string,
  t0: number,
  t1: number | null,
  label: string,
): NestedRun {
  return {
    ...base,
    id,
    kind: "run",
    parent,
    t0,
    t1,
    runId: `run-${id}`,
    label,
    status: t1 === null ? "running" : "finished",
    finishReason: null,
    usage: null,
  };
}

export function network(id: string, t0: number, t1: number | null, event: string): NetworkEvent {
  return { ...base, id, kind: "network", t0, t1, event, label: "", payload: { agent: "a" } };
}

export function notice(
  id: string,
  t0: number,
  kind: Notice["notice"],
  message: string,
  detail: unknown = null,
): Notice {
  return {
    ...base,
    id,
    kind: "notice",
    t0,
    t1: t0,
    level: kind === "goal" ? "info" : "error",
    notice: kind,
    message,
    detail,
  };
}

export function row(
  i: number,
  t: number,
  type: string,
  family: ChunkRow["family"],
  part: string | null = null,
  n = 1,
): ChunkRow {
  return { i, n, t, type, from: "AGENT", family, part, json: { type, payload: { i } } };
}

/** A store-shaped state for pure functions (viewAt, filters). */
export function stateOf(run: RunInfo, parts: Part[], rows: ChunkRow[] = []) {
  return {
    run,
    parts,
    byId: new Map(parts.map((p) => [p.id, p])),
    rows,
    transient: [] as { t: number; i: number; type: string; id: string | null; data: unknown }[],
  };
}
