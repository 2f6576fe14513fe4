/**
 * Timeline layout: a pure function from the store's parts to lanes, bars, ticks and markers
 * on a time axis of arrival offsets (ms since the run started). No DOM; the canvas view draws
 * whatever this returns, and hit-testing goes through it too.
 */

import { statesOf } from "../../model/history";
import type {
  BackgroundState,
  BackgroundTask,
  NestedRun,
  NetworkEvent,
  Notice,
  OutputPart,
  Part,
  ReasoningPart,
  RunInfo,
  RunStatus,
  StateMark,
  StepPart,
  TextPart,
  ToolCall,
  ToolState,
  WorkflowRun,
  WorkflowStep,
} from "../../model/wire";
import { isPresent } from "../../util";
import { formatMs, preview } from "./format";

/** What the layout reads from the store. */
export interface LayoutInput {
  /** The run record: status, elapsed time (the live edge), time to first token. */
  run: RunInfo;
  /** Every part, in creation order. */
  parts: readonly Part[];
}

/** Tuning of the layout's text. */
export interface LayoutOptions {
  /** Longest preview of a payload (args, result, text) in a tooltip, in characters. */
  previewChars?: number;
}

/** Semantic colour of a bar, tick or marker; the view maps it to a theme colour. */
export type ColorKey =
  | "run"
  | "step"
  | "text"
  | "reasoning"
  | "input"
  | "running"
  | "pending"
  | "success"
  | "failure"
  | "muted"
  | "output"
  | "network"
  | "accent";

/** Which kind of activity a lane holds. */
export type LaneKind = "run" | "text" | "tools" | "background" | "workflow" | "network";

/** A horizontal band of the timeline. */
export interface Lane {
  /** Stable identity of the lane across re-layouts. */
  key: string;
  /** What the lane holds. */
  kind: LaneKind;
  /** Text shown in the lane-label column. */
  label: string;
  /** Indentation level: 0 for the run's own lanes, more for nested runs and workflows. */
  depth: number;
  /** Number of stacked rows (parallel activity stacks into extra rows); at least 1. */
  rows: number;
}

/** A stretch of a bar during which its part was in one state. */
export interface Segment {
  /** Start offset (ms). */
  start: number;
  /** End offset (ms). */
  end: number;
  /** Colour of that state. */
  color: ColorKey;
  /** The state's name as it arrived (`running`, `suspended`, ...). */
  state: string;
}

/** One bar (a span of time) or tick (an instant) on a lane row. */
export interface TimelineItem {
  /** The part this item stands for; null for the root run's own bar. */
  partId: string | null;
  /** Index into `Layout.lanes`. */
  lane: number;
  /** Row within the lane (0 = top). */
  row: number;
  /** Start offset (ms). */
  start: number;
  /** End offset (ms); equals `start` for ticks. */
  end: number;
  /** The part is still open: its end is the run's live edge, not a recorded end. */
  open: boolean;
  /** A bar spans time; a tick marks an instant (a tool's `output` write). */
  shape: "bar" | "tick";
  /** Colour of the outcome (or of the current state while open). */
  color: ColorKey;
  /** Phases of the part from its `states`, in time order; empty when it has none. */
  segments: Segment[];
  /** Short text drawn inside the bar when it fits. */
  label: string;
  /**
   * The part's state in words as it arrived ("done", "completed", "failed", "success", a step's
   * finish reason, "streaming" for open text); "" when the part has none. Read by the
   * timeline's text outline, so colour is never the only way an outcome is told.
   */
  status: string;
  /** Multi-line text shown on hover (built when read, so laying out 10k items stays cheap). */
  readonly tooltip: string;
}

/** What a vertical marker line stands for. */
export type MarkerKind =
  | "ttft"
  | "tripwire"
  | "error"
  | "abort"
  | "goal"
  | "goal-pass"
  | "goal-fail"
  | "warning"
  | "info";

/** A vertical line across all lanes at an instant. */
export interface Marker {
  /** Offset (ms). */
  t: number;
  /** What happened. */
  kind: MarkerKind;
  /** Colour of the line. */
  color: ColorKey;
  /** The notice part behind it; null for time to first token. */
  partId: string | null;
  /** Short text drawn on the ruler. */
  label: string;
  /** Multi-line text shown on hover. */
  tooltip: string;
}

/** The whole timeline, ready to draw. */
export interface Layout {
  /** Lanes from top to bottom. */
  lanes: Lane[];
  /** Bars and ticks, in part creation order (the root run bar first). */
  items: TimelineItem[];
  /** Vertical markers, in time order. */
  markers: Marker[];
  /** Latest offset on the axis (ms): the live edge or the last recorded end. */
  end: number;
}

const LANE_ORDER: readonly LaneKind[] = [
  "run",
  "text",
  "tools",
  "background",
  "workflow",
  "network",
];
const LANE_TITLES: Record<LaneKind, string> = {
  run: "Run",
  text: "Text",
  tools: "Tools",
  background: "Background",
  workflow: "Workflow",
  network: "Network",
};

const TOOL_COLORS: Record<string, ColorKey> = {
  "input-streaming": "input",
  running: "running",
  "awaiting-approval": "pending",
  suspended: "pending",
  done: "success",
  error: "failure",
  denied: "muted",
} satisfies Record<ToolState, ColorKey>;
const BACKGROUND_COLORS: Record<string, ColorKey> = {
  started: "input",
  running: "running",
  suspended: "pending",
  resumed: "running",
  completed: "success",
  failed: "failure",
  cancelled: "muted",
} satisfies Record<BackgroundState, ColorKey>;
const WSTEP_COLORS: Record<string, ColorKey> = {
  pending: "input",
  running: "running",
  waiting: "pending",
  suspended: "pending",
  paused: "pending",
  success: "success",
  failed: "failure",
  canceled: "muted",
  cancelled: "muted",
  skipped: "muted",
  bailed: "muted",
};
const RUN_COLORS: Record<string, ColorKey> = {
  waiting: "input",
  running: "running",
  finished: "success",
  success: "success",
  aborted: "muted",
  error: "failure",
  failed: "failure",
  tripwire: "failure",
  suspended: "pending",
  "awaiting-approval": "pending",
  incomplete: "muted",
} satisfies Record<RunStatus | "success" | "failed", ColorKey>;

/** Where a lane's packing state lives while the layout is built. */
interface LaneBuilder {
  lane: Lane;
  scope: string | null;
  /** Sort key within the scope: lane kind order, then workflow nesting prefix. */
  order: string;
  /** End offset of the last item placed on each row. */
  rowEnds: number[];
  /** First row open to packing (row 0 of a run lane is kept for the run's own bar). */
  firstPackedRow: number;
  /** Items placed on this lane; their `lane` index is set once the lanes are ordered. */
  items: TimelineItem[];
}

/** Lay out the timeline of `state`; pure and deterministic. */
export function layoutTimeline(state: LayoutInput, opts: LayoutOptions = {}): Layout {
  const chars = opts.previewChars ?? 160;
  const { run, parts } = state;
  const byId = new Map<string, Part>();
  for (const part of parts) byId.set(part.id, part);

  let axisEnd = Math.max(0, run.elapsedMs);
  for (const part of parts) {
    axisEnd = Math.max(axisEnd, part.t0, part.t1 ?? 0);
  }
  const liveEdge = axisEnd;
  const endOf = (part: Part): number => Math.max(part.t0, part.t1 ?? liveEdge);

  const scopes = new ScopeTree(byId);
  const network = pairNetworkEvents(parts);
  const lanes = new Map<string, LaneBuilder>();
  const placed = new Map<string, { builder: LaneBuilder; row: number }>();
  const items: TimelineItem[] = [];
  const markers: Marker[] = [];

  const laneFor = (scope: string | null, kind: LaneKind, prefix = ""): LaneBuilder => {
    const key = `${scope ?? ""}/${kind}/${prefix}`;
    let builder = lanes.get(key);
    if (builder === undefined) {
      const scopeDepth = scopes.depth(scope);
      const prefixDepth = prefix === "" ? 0 : prefix.split(".").length;
      const title = prefix === "" ? LANE_TITLES[kind] : prefix;
      const label = scope === null ? title : `${scopes.label(scope)} · ${title}`;
      builder = {
        lane: { key, kind, label, depth: scopeDepth + prefixDepth, rows: 1 },
        scope,
        order: `${LANE_ORDER.indexOf(kind)}/${prefix}`,
        rowEnds: [],
        firstPackedRow: kind === "run" ? 1 : 0,
        items: [],
      };
      lanes.set(key, builder);
    }
    return builder;
  };

  const place = (builder: LaneBuilder, item: TimelineItem, row: number | null): void => {
    let r = row;
    if (r === null) {
      r = builder.firstPackedRow;
      while (r < builder.rowEnds.length && (builder.rowEnds[r] ?? 0) > item.start) r++;
    }
    builder.rowEnds[r] = Math.max(builder.rowEnds[r] ?? -Infinity, item.end);
    builder.lane.rows = Math.max(builder.lane.rows, r + 1);
    item.row = r;
    builder.items.push(item);
    items.push(item);
    if (item.partId !== null && !placed.has(item.partId))
      placed.set(item.partId, { builder, row: r });
  };

  const context: TooltipContext = { run, chars };
  const bar = (part: Part | null, start: number, end: number, color: ColorKey): Bar =>
    new Bar(part, start, end, part === null ? !run.ended : part.t1 === null, color, context);

  // The root run's own bar, always on top.
  {
    const item = bar(null, 0, liveEdge, RUN_COLORS[run.status] ?? "run");
    item.label = run.title || "run";
    item.status = run.status;
    place(laneFor(null, "run"), item, 0);
  }
  if (run.ttftMs !== null) {
    markers.push({
      t: run.ttftMs,
      kind: "ttft",
      color: "accent",
      partId: null,
      label: "TTFT",
      tooltip: `time to first token: ${formatMs(run.ttftMs)}`,
    });
  }

  for (const part of parts) {
    const scope = scopes.scopeOf(part);
    const start = part.t0;
    const end = endOf(part);
    switch (part.kind) {
      case "run":
      case "workflow": {
        const color = RUN_COLORS[part.status] ?? "run";
        const item = bar(part, start, end, color);
        item.label = part.kind === "run" ? runLabel(part) : workflowLabel(part);
        item.status = part.status;
        if (scopes.isScope(part)) {
          place(laneFor(part.id, "run"), item, 0);
        } else {
          place(laneFor(scope, "run"), item, null);
        }
        break;
      }
      case "step": {
        const item = bar(part, start, end, "step");
        item.label = stepLabel(part);
        item.status = part.finishReason ?? (part.t1 === null ? "running" : "");
        place(laneFor(scope, "run"), item, null);
        break;
      }
      case "text":
      case "reasoning": {
        const item = bar(part, start, end, part.kind);
        item.label = part.kind === "text" ? "text" : "reasoning";
        item.status = part.t1 === null ? "streaming" : "";
        place(laneFor(scope, "text"), item, null);
        break;
      }
      case "tool": {
        const item = bar(part, start, end, TOOL_COLORS[part.state] ?? "running");
        item.segments = segmentsOf(statesOf(part), start, end, TOOL_COLORS, "running");
        item.label = part.toolName;
        item.status = part.state;
        place(laneFor(scope, "tools"), item, null);
        break;
      }
      case "output": {
        const item = bar(part, start, start, "output");
        item.shape = "tick";
        item.open = false;
        item.label = "";
        const host = part.parent === null ? undefined : placed.get(part.parent);
        if (host !== undefined) place(host.builder, item, host.row);
        else place(laneFor(scope, "tools"), item, 0);
        break;
      }
      case "background": {
        const item = bar(part, start, end, BACKGROUND_COLORS[part.state] ?? "running");
        item.segments = segmentsOf(statesOf(part), start, end, BACKGROUND_COLORS, "running");
        item.label = backgroundLabel(part);
        item.status = part.state;
        place(laneFor(scope, "background"), item, null);
        break;
      }
      case "wstep": {
        const item = bar(part, start, end, WSTEP_COLORS[part.status] ?? "running");
        item.segments = segmentsOf(statesOf(part), start, end, WSTEP_COLORS, "running");
        const dot = part.stepId.lastIndexOf(".");
        const prefix = dot < 0 ? "" : part.stepId.slice(0, dot);
        const name = dot < 0 ? part.stepId : part.stepId.slice(dot + 1);
        const progress = progressText(part.progress);
        item.label = progress === null ? name : `${name} · ${progress}`;
        item.status = part.status;
        place(laneFor(scope, "workflow", prefix), item, null);
        break;
      }
      case "network": {
        // Network chunks are instants; a "-start" and its "-end" make one span.
        const closing = network.endOf.get(part.id);
        const opener = network.startOf.get(part.id);
        const host = opener === undefined ? undefined : placed.get(opener);
        const item = bar(part, start, start, "network");
        item.label = networkLabel(part);
        if (closing !== undefined) {
          item.end = Math.max(start, closing.t0);
          item.open = false;
        } else if (part.event.endsWith("-start") && !run.ended) {
          item.end = liveEdge;
          item.open = true;
        } else {
          item.shape = "tick";
          item.open = false;
        }
        if (host !== undefined) place(host.builder, item, host.row);
        else place(laneFor(scope, "network"), item, null);
        break;
      }
      case "notice": {
        const marker = noticeMarker(part, chars);
        if (marker !== null) markers.push(marker);
        break;
      }
      default:
        // Sources, files, objects and data parts have no duration worth a bar.
        break;
    }
  }

  const ordered = orderLanes([...lanes.values()], scopes);
  ordered.forEach((builder, index) => {
    for (const item of builder.items) item.lane = index;
  });
  markers.sort((a, b) => a.t - b.t);
  return { lanes: ordered.map((b) => b.lane), items, markers, end: axisEnd };
}

/** Which network "-start" event each "-end" event closes (same parent and event prefix). */
function pairNetworkEvents(parts: readonly Part[]): {
  endOf: Map<string, NetworkEvent>;
  startOf: Map<string, string>;
} {
  const endOf = new Map<string, NetworkEvent>();
  const startOf = new Map<string, string>();
  const open = new Map<string, NetworkEvent[]>();
  for (const part of parts) {
    if (part.kind !== "network" || typeof part.event !== "string") continue;
    const isStart = part.event.endsWith("-start");
    const isEnd = part.event.endsWith("-end");
    if (!isStart && !isEnd) continue;
    // Not keyed by label: a routing agent's end event names the agent it chose, not itself.
    const key = `${part.parent ?? ""}|${part.event.slice(0, part.event.lastIndexOf("-"))}`;
    const stack = open.get(key) ?? [];
    if (isStart) {
      stack.push(part);
      open.set(key, stack);
    } else {
      const opener = stack.pop();
      if (opener !== undefined) {
        endOf.set(opener.id, part);
        startOf.set(part.id, opener.id);
      }
    }
  }
  return { endOf, startOf };
}

/** What tooltips need besides the part. */
interface TooltipContext {
  run: RunInfo;
  chars: number;
}

/** A timeline item that writes its tooltip only when asked (on hover). */
class Bar implements TimelineItem {
  readonly partId: string | null;
  lane = 0;
  row = 0;
  shape: "bar" | "tick" = "bar";
  segments: Segment[] = [];
  label = "";
  status = "";

  constructor(
    private readonly part: Part | null,
    public start: number,
    public end: number,
    public open: boolean,
    public color: ColorKey,
    private readonly context: TooltipContext,
  ) {
    this.partId = part === null ? null : part.id;
  }

  get tooltip(): string {
    return describe(this.part, this.end, this.context);
  }
}

/** Hover text of a part's bar or tick; the root run's when `part` is null. */
function describe(part: Part | null, end: number, { run, chars }: TooltipContext): string {
  if (part === null) {
    return lines(
      `${run.title || "run"} · ${run.status}`,
      run.finishReason !== null ? `finish reason: ${run.finishReason}` : null,
      `elapsed: ${formatMs(run.elapsedMs)}`,
      run.ttftMs !== null ? `first token: ${formatMs(run.ttftMs)}` : null,
      run.usage !== null ? `usage: ${preview(run.usage, chars)}` : null,
      run.error !== null ? `error: ${preview(run.error, chars)}` : null,
    );
  }
  switch (part.kind) {
    case "run":
      return runTooltip(part, end, chars);
    case "workflow":
      return workflowTooltip(part, end, chars);
    case "step":
      return stepTooltip(part, end, chars);
    case "text":
    case "reasoning":
      return textTooltip(part, end, chars);
    case "tool":
      return toolTooltip(part, end, chars);
    case "output":
      return outputTooltip(part, chars);
    case "background":
      return backgroundTooltip(part, end, chars);
    case "wstep":
      return wstepTooltip(part, end, chars);
    case "network":
      return networkTooltip(part, end, chars);
    default:
      return `${part.kind} @ ${formatMs(part.t0)}`;
  }
}

/** Which parts open a nested scope (indented lanes) and how deep each one sits. */
class ScopeTree {
  private readonly scopeCache = new Map<string, string | null>();

  constructor(private readonly byId: ReadonlyMap<string, Part>) {}

  /**
   * A run or workflow nested under another part (a sub-agent, a workflow used as a tool).
   * A workflow directly inside a nested run shares that run's lanes: both stand for one call.
   */
  isScope(part: Part): boolean {
    if (part.parent === null) return false;
    if (part.kind === "run") return true;
    return part.kind === "workflow" && this.byId.get(part.parent)?.kind !== "run";
  }

  /** The nearest enclosing nested run/workflow of `part`, or null for the root run. */
  scopeOf(part: Part): string | null {
    if (part.parent === null) return null;
    const cached = this.scopeCache.get(part.id);
    if (cached !== undefined) return cached;
    let found: string | null = null;
    let cursor: string | null = part.parent;
    // Bounded walk: a malformed parent cycle must not hang the page.
    for (let hops = 0; cursor !== null && hops < 64; hops++) {
      const ancestor = this.byId.get(cursor);
      if (ancestor === undefined) break;
      if (this.isScope(ancestor)) {
        found = ancestor.id;
        break;
      }
      cursor = ancestor.parent;
    }
    this.scopeCache.set(part.id, found);
    return found;
  }

  /** The scope that holds a nested scope (null for the root run). */
  holderOf(scope: string): string | null {
    const part = this.byId.get(scope);
    return part === undefined ? null : this.scopeOf(part);
  }

  /** Nesting level of a scope: 0 for the root run. */
  depth(scope: string | null): number {
    let depth = 0;
    let cursor = scope;
    for (let hops = 0; cursor !== null && hops < 64; hops++) {
      depth++;
      const part = this.byId.get(cursor);
      cursor = part === undefined ? null : this.scopeOf(part);
    }
    return depth;
  }

  /** Lane-label prefix for a scope's lanes. */
  label(scope: string): string {
    const part = this.byId.get(scope);
    if (part === undefined) return scope;
    if (part.kind === "run") return runLabel(part);
    if (part.kind === "workflow") return workflowLabel(part);
    return part.id;
  }
}

/** Lanes grouped by scope (each nested scope right after the scope holding it), then by kind. */
function orderLanes(builders: LaneBuilder[], scopes: ScopeTree): LaneBuilder[] {
  const byScope = new Map<string | null, LaneBuilder[]>();
  const children = new Map<string | null, string[]>();
  for (const builder of builders) {
    let group = byScope.get(builder.scope);
    if (group === undefined) {
      group = [];
      byScope.set(builder.scope, group);
      if (builder.scope !== null) {
        const holder = scopes.holderOf(builder.scope);
        const siblings = children.get(holder) ?? [];
        siblings.push(builder.scope);
        children.set(holder, siblings);
      }
    }
    group.push(builder);
  }
  const out: LaneBuilder[] = [];
  const visited = new Set<string | null>();
  const visit = (scope: string | null): void => {
    if (visited.has(scope)) return;
    visited.add(scope);
    const group = byScope.get(scope) ?? [];
    group.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
    out.push(...group);
    for (const child of children.get(scope) ?? []) visit(child);
  };
  visit(null);
  // Scopes whose holder has no lanes of its own still get drawn.
  for (const scope of byScope.keys()) visit(scope);
  return out;
}

/** Phases of a part from its `[t, state]` history, clipped to the part's own span. */
function segmentsOf(
  states: readonly StateMark[] | undefined,
  start: number,
  end: number,
  colors: Record<string, ColorKey>,
  fallback: ColorKey,
): Segment[] {
  if (!Array.isArray(states)) return [];
  const out: Segment[] = [];
  for (let i = 0; i < states.length; i++) {
    const mark = states[i];
    if (!Array.isArray(mark)) continue;
    const [t, state] = mark;
    const next = states[i + 1];
    const segStart = Math.min(Math.max(start, t), end);
    const segEnd = Math.min(end, Math.max(segStart, Array.isArray(next) ? next[0] : end));
    if (segEnd > segStart) {
      out.push({ start: segStart, end: segEnd, color: colors[state] ?? fallback, state });
    }
  }
  return out;
}

function lines(...parts: (string | null)[]): string {
  return parts.filter((p): p is string => p !== null && p !== "").join("\n");
}

function span(start: number, end: number, open: boolean): string {
  return `at ${formatMs(start)}, ${open ? "open for" : "took"} ${formatMs(end - start)}`;
}

/** The state history with offsets from the part's start, which is what a reader compares. */
function history(states: readonly StateMark[] | undefined, start: number): string | null {
  if (!Array.isArray(states) || states.length === 0) return null;
  return states
    .filter((m) => Array.isArray(m))
    .map(([t, s]) => `${s} +${formatMs(t - start)}`)
    .join(" → ");
}

function runLabel(part: NestedRun): string {
  return part.label || part.runId || "run";
}

function workflowLabel(part: WorkflowRun): string {
  return part.workflowId || part.runId || "workflow";
}

function runTooltip(part: NestedRun, end: number, chars: number): string {
  return lines(
    `${runLabel(part)} · ${part.status}`,
    span(part.t0, end, part.t1 === null),
    part.finishReason ? `finish reason: ${part.finishReason}` : null,
    isPresent(part.usage) ? `usage: ${preview(part.usage, chars)}` : null,
  );
}

function workflowTooltip(part: WorkflowRun, end: number, chars: number): string {
  return lines(
    `workflow ${workflowLabel(part)} · ${part.status}`,
    span(part.t0, end, part.t1 === null),
    isPresent(part.result) ? `result: ${preview(part.result, chars)}` : null,
  );
}

function stepLabel(part: StepPart): string {
  const reason = part.finishReason ? ` · ${part.finishReason}` : "";
  return `step ${part.index + 1}${reason}`;
}

function stepTooltip(part: StepPart, end: number, chars: number): string {
  return lines(
    `step ${part.index + 1}`,
    span(part.t0, end, part.t1 === null),
    part.finishReason ? `finish reason: ${part.finishReason}` : null,
    isPresent(part.usage) ? `usage: ${preview(part.usage, chars)}` : null,
  );
}

function textTooltip(part: TextPart | ReasoningPart, end: number, chars: number): string {
  const redacted = part.kind === "reasoning" && part.redacted ? " (redacted)" : "";
  const text = typeof part.text === "string" ? part.text : "";
  return lines(
    `${part.kind}${redacted} · ${text.length} chars`,
    span(part.t0, end, part.t1 === null),
    text === "" ? null : preview(text, chars),
  );
}

function toolTooltip(part: ToolCall, end: number, chars: number): string {
  return lines(
    `${part.toolName} · ${part.state}`,
    span(part.t0, end, part.t1 === null),
    history(part.states, part.t0),
    isPresent(part.args)
      ? `args: ${preview(part.args, chars)}`
      : part.argsText
        ? `args: ${preview(part.argsText, chars)}`
        : null,
    isPresent(part.result) ? `result: ${preview(part.result, chars)}` : null,
    isPresent(part.error) ? `error: ${preview(part.error, chars)}` : null,
    isPresent(part.approval) ? `approval: ${preview(part.approval, chars)}` : null,
    isPresent(part.suspendPayload) ? `suspended: ${preview(part.suspendPayload, chars)}` : null,
  );
}

function outputTooltip(part: OutputPart, chars: number): string {
  return lines(
    `output${part.from ? ` from ${part.from}` : ""} @ ${formatMs(part.t0)}`,
    preview(part.data, chars),
  );
}

/** Progress as a short label: "40%", "3/5", or a clipped preview of whatever was sent. */
function progressText(progress: unknown): string | null {
  if (!isPresent(progress)) return null;
  if (typeof progress === "number") {
    return progress <= 1 ? `${Math.round(progress * 100)}%` : `${Math.round(progress)}%`;
  }
  const done = field(progress, "completedCount");
  const total = field(progress, "totalCount");
  if (typeof done === "number" && typeof total === "number") return `${done}/${total}`;
  for (const key of ["percent", "percentage", "progress"]) {
    const value = field(progress, key);
    if (typeof value === "number") return progressText(value);
  }
  return preview(progress, 40);
}

function backgroundLabel(part: BackgroundTask): string {
  const name = part.toolName || part.taskId;
  const progress = progressText(part.progress);
  return progress === null ? name : `${name} · ${progress}`;
}

function backgroundTooltip(part: BackgroundTask, end: number, chars: number): string {
  return lines(
    `background${part.toolName ? ` ${part.toolName}` : ""} · ${part.state}`,
    `task ${part.taskId}`,
    span(part.t0, end, part.t1 === null),
    history(part.states, part.t0),
    isPresent(part.progress) ? `progress: ${preview(part.progress, chars)}` : null,
    isPresent(part.result) ? `result: ${preview(part.result, chars)}` : null,
    isPresent(part.error) ? `error: ${preview(part.error, chars)}` : null,
  );
}

function wstepTooltip(part: WorkflowStep, end: number, chars: number): string {
  return lines(
    `step ${part.stepId} · ${part.status}`,
    span(part.t0, end, part.t1 === null),
    history(part.states, part.t0),
    isPresent(part.progress) ? `progress: ${preview(part.progress, chars)}` : null,
    isPresent(part.input) ? `input: ${preview(part.input, chars)}` : null,
    isPresent(part.output) ? `output: ${preview(part.output, chars)}` : null,
    isPresent(part.error) ? `error: ${preview(part.error, chars)}` : null,
  );
}

/** "agent-execution · writer" for "agent-execution-start" about agent "writer". */
function networkLabel(part: NetworkEvent): string {
  const event = String(part.event).replace(/-(start|end)$/, "");
  return part.label && !event.startsWith(part.label) ? `${event} · ${part.label}` : event;
}

function networkTooltip(part: NetworkEvent, end: number, chars: number): string {
  return lines(
    `${part.event}${part.label ? ` · ${part.label}` : ""}`,
    end > part.t0 ? span(part.t0, end, false) : `at ${formatMs(part.t0)}`,
    isPresent(part.payload) ? preview(part.payload, chars) : null,
  );
}

function field(detail: unknown, key: string): unknown {
  return typeof detail === "object" && detail !== null
    ? (detail as Record<string, unknown>)[key]
    : undefined;
}

function noticeMarker(part: Notice, chars: number): Marker | null {
  const base = { t: part.t0, partId: part.id };
  const message = part.message ? preview(part.message, chars) : null;
  switch (part.notice) {
    case "tripwire": {
      const reason = field(part.detail, "reason");
      const processor = field(part.detail, "processorId");
      return {
        ...base,
        kind: "tripwire",
        color: "failure",
        label: "tripwire",
        tooltip: lines(
          `tripwire @ ${formatMs(part.t0)}`,
          message,
          isPresent(reason) && !String(part.message).includes(String(reason))
            ? `reason: ${preview(reason, chars)}`
            : null,
          isPresent(processor) && !String(part.message).includes(String(processor))
            ? `processor: ${preview(processor, chars)}`
            : null,
        ),
      };
    }
    case "error":
      return {
        ...base,
        kind: "error",
        color: "failure",
        label: "error",
        tooltip: lines(`error @ ${formatMs(part.t0)}`, message),
      };
    case "abort":
      return {
        ...base,
        kind: "abort",
        color: "muted",
        label: "abort",
        tooltip: lines(`aborted @ ${formatMs(part.t0)}`, message),
      };
    case "goal": {
      const verdict = field(part.detail, "passed");
      const objective = field(part.detail, "objective");
      const iteration = field(part.detail, "iteration");
      const maxRuns = field(part.detail, "maxRuns");
      const reason = field(part.detail, "reason");
      // A check without a verdict (a task-completion check) is shown, but neither green nor red.
      const kind: MarkerKind =
        verdict === true ? "goal-pass" : verdict === false ? "goal-fail" : "goal";
      const title =
        kind === "goal-pass" ? "goal passed" : kind === "goal-fail" ? "goal not met" : "goal check";
      return {
        ...base,
        kind,
        color: kind === "goal-pass" ? "success" : kind === "goal-fail" ? "failure" : "accent",
        label: kind === "goal-pass" ? "goal ✓" : kind === "goal-fail" ? "goal ✗" : "goal",
        tooltip: lines(
          `${title} @ ${formatMs(part.t0)}`,
          isPresent(objective) ? `objective: ${preview(objective, chars)}` : null,
          isPresent(iteration)
            ? `evaluation ${String(iteration)}${isPresent(maxRuns) ? ` of ${String(maxRuns)}` : ""}`
            : null,
          isPresent(reason) ? `reason: ${preview(reason, chars)}` : message,
        ),
      };
    }
    default: {
      // Unknown and invalid chunks and warnings stay visible as quieter markers.
      const warning = part.level !== "info";
      return {
        ...base,
        kind: warning ? "warning" : "info",
        color: warning ? "pending" : "muted",
        label: part.notice,
        tooltip: lines(`${part.notice} @ ${formatMs(part.t0)}`, message),
      };
    }
  }
}
