/**
 * Pure views of a StoreState: what the transcript and the status bar draw. No DOM here.
 */
import type { StoreState } from "./store";
import type { Part, RunStatus, StepPart, Usage } from "./wire";

/** A part and the parts nested under it (tool outputs, nested runs, workflow steps). */
export interface PartNode {
  /** The part itself. */
  part: Part;
  /** Parts whose `parent` (or, lacking one, `step`) is this part, in creation order. */
  children: PartNode[];
}

/** One block of the transcript: a step, or a run of parts outside any step. */
export interface TranscriptBlock {
  /** Stable key: the step's id, or `loose:<first part id>`. */
  key: string;
  /** The step this block draws, or null for parts that belong to no step. */
  step: StepPart | null;
  /** Top-level nodes of the block, in creation order. */
  nodes: PartNode[];
}

/**
 * Group parts into one block per top-level step. A part hangs under its `parent` when that
 * part exists, else under its `step`; parts with neither are loose, and consecutive loose
 * parts share a block. A chain that loops back on itself is cut and shown at top level.
 */
export function transcriptBlocks(state: StoreState): TranscriptBlock[] {
  const nodes = new Map<string, PartNode>();
  for (const part of state.parts) nodes.set(part.id, { part, children: [] });

  const containerOf = (part: Part): string | null => {
    if (part.parent !== null && part.parent !== part.id && nodes.has(part.parent)) return part.parent;
    if (part.kind !== "step" && part.step !== null && part.step !== part.id && nodes.has(part.step)) {
      return part.step;
    }
    return null;
  };

  const blocks: TranscriptBlock[] = [];
  let loose: TranscriptBlock | null = null;
  for (const part of state.parts) {
    const node = nodes.get(part.id);
    if (node === undefined || node.part !== part) continue; // a duplicate id: first wins
    const container = containerOf(part);
    if (container !== null && !loopsBack(part.id, container, nodes, containerOf)) {
      nodes.get(container)?.children.push(node);
      continue;
    }
    if (part.kind === "step") {
      blocks.push({ key: part.id, step: part, nodes: [] });
      loose = null;
    } else {
      if (loose === null) {
        loose = { key: `loose:${part.id}`, step: null, nodes: [] };
        blocks.push(loose);
      }
      loose.nodes.push(node);
    }
  }
  // A step block's content is its node's children.
  for (const block of blocks) {
    if (block.step !== null) block.nodes = nodes.get(block.step.id)?.children ?? [];
  }
  return blocks;
}

function loopsBack(
  id: string,
  start: string,
  nodes: Map<string, PartNode>,
  containerOf: (part: Part) => string | null,
): boolean {
  let current: string | null = start;
  for (let depth = 0; current !== null && depth <= nodes.size; depth++) {
    if (current === id) return true;
    const node = nodes.get(current);
    current = node === undefined ? null : containerOf(node.part);
  }
  return current !== null;
}

/** One labelled number of the usage record. */
export interface UsageItem {
  /** Short label shown next to the value ("in", "out", ...). */
  label: string;
  /** Token count. */
  value: number;
}

/** What the status bar shows. */
export interface StatusView {
  /** The run's status. */
  status: RunStatus;
  /** The consumer is done; Stop is disabled. */
  ended: boolean;
  /** Elapsed ms, extrapolated from the last live message while the run is going. */
  elapsedMs: number;
  /** Time to first text/reasoning token, ms. */
  ttftMs: number | null;
  /** Chunks seen (persisted and transient). */
  chunkCount: number;
  /** Output tokens per second, or null before any output. */
  tokensPerSecond: number | null;
  /** `tokensPerSecond` comes from a chars/4 estimate, not a reported token count. */
  tokensEstimated: boolean;
  /** Usage fields present in the run's usage. */
  usage: UsageItem[];
  /** Why the model stopped, when known. */
  finishReason: string | null;
  /** Run-level error message, if any. */
  error: string | null;
}

const USAGE_LABELS: [keyof Usage, string][] = [
  ["inputTokens", "in"],
  ["outputTokens", "out"],
  ["totalTokens", "total"],
  ["reasoningTokens", "reasoning"],
  ["cachedInputTokens", "cached"],
];

/** The status bar's figures at wall-clock time `now` (ms since epoch). */
export function statusView(state: StoreState, now: number): StatusView {
  const run = state.run;
  const going = !run.ended && (run.status === "running" || run.status === "waiting");
  let elapsedMs = run.elapsedMs;
  if (going && state.liveAnchor !== null && run.status === "running") {
    elapsedMs += Math.max(0, now - state.liveAnchor);
  }
  const usage: UsageItem[] = [];
  for (const [key, label] of USAGE_LABELS) {
    const value = run.usage?.[key];
    if (typeof value === "number") usage.push({ label, value });
  }
  const reported = run.usage?.outputTokens ?? run.outputTokens;
  const tokens = typeof reported === "number" ? reported : estimateTokens(state);
  const since = run.ttftMs ?? 0;
  const seconds = (elapsedMs - since) / 1000;
  const tokensPerSecond = tokens > 0 && seconds > 0.05 ? tokens / seconds : null;
  return {
    status: run.status,
    ended: run.ended,
    elapsedMs,
    ttftMs: run.ttftMs,
    chunkCount: run.chunkCount,
    tokensPerSecond,
    tokensEstimated: typeof reported !== "number",
    usage,
    finishReason: run.finishReason,
    error: run.error,
  };
}

/** Rough token count of the streamed text and reasoning: four characters per token. */
function estimateTokens(state: StoreState): number {
  let chars = 0;
  for (const part of state.parts) {
    if ((part.kind === "text" || part.kind === "reasoning") && typeof part.text === "string") {
      chars += part.text.length;
    }
  }
  return Math.round(chars / 4);
}
