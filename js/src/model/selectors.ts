/**
 * Pure views of a StoreState: what the transcript and the status bar draw. No DOM here.
 */
import type { StoreState } from "./store";
import type { Part, ReasoningPart, RunStatus, StepPart, TextPart, Usage } from "./wire";

/** A part and the parts nested under it (tool outputs, nested runs, workflow steps). */
export interface PartNode {
  /** The part itself. */
  part: Part;
  /** Parts whose `parent` (or, lacking one, `step`) is this part, in creation order. */
  readonly children: readonly PartNode[];
}

/** What a node without children holds: one shared empty list, since a run of 50k calls
 * would otherwise keep 50k empty arrays alive. */
const NO_CHILDREN: readonly PartNode[] = Object.freeze([]);

/** A node's own list, made when its first child comes (a step's at once: its block shares it). */
interface MutableNode {
  part: Part;
  children: PartNode[];
}

function newNode(part: Part): PartNode {
  return { part, children: part.kind === "step" ? [] : NO_CHILDREN };
}

function addChild(parent: PartNode, child: PartNode): void {
  const node = parent as MutableNode;
  if (node.children === NO_CHILDREN) node.children = [child];
  else node.children.push(child);
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
  return buildTree(state.parts).blocks;
}

/** What `transcriptBlocks` builds, kept so that parts added later can extend it. */
interface Tree {
  blocks: TranscriptBlock[];
  nodes: Map<string, PartNode>;
  /** Ids that parts name as `parent` or `step` but that no part has (yet). */
  missing: Set<string>;
}

function buildTree(parts: readonly Part[]): Tree {
  const nodes = new Map<string, PartNode>();
  for (const part of parts) nodes.set(part.id, newNode(part));
  const tree: Tree = { blocks: [], nodes, missing: new Set() };
  for (const part of parts) {
    const node = nodes.get(part.id);
    if (node === undefined || node.part !== part) continue; // a duplicate id: first wins
    noteMissing(tree, part);
    place(tree, node);
  }
  return tree;
}

/** Where `part` hangs: its parent when that exists, else its step; null for top level. */
function containerOf(nodes: Map<string, PartNode>, part: Part): string | null {
  if (part.parent !== null && part.parent !== part.id && nodes.has(part.parent)) return part.parent;
  if (part.kind !== "step" && part.step !== null && part.step !== part.id && nodes.has(part.step)) {
    return part.step;
  }
  return null;
}

function place(tree: Tree, node: PartNode): void {
  const container = containerOf(tree.nodes, node.part);
  if (container !== null && !loopsBack(node.part.id, container, tree.nodes)) {
    const parent = tree.nodes.get(container);
    if (parent !== undefined) addChild(parent, node);
  } else {
    placeTopLevel(tree, node);
  }
}

function noteMissing(tree: Tree, part: Part): void {
  if (part.parent !== null && part.parent !== part.id && !tree.nodes.has(part.parent))
    tree.missing.add(part.parent);
  if (
    part.kind !== "step" &&
    part.step !== null &&
    part.step !== part.id &&
    !tree.nodes.has(part.step)
  ) {
    tree.missing.add(part.step);
  }
}

/** A step opens a block of its own (its content is its children); other parts join the
 * loose block at the end, or open one. */
function placeTopLevel(tree: Tree, node: PartNode): void {
  const part = node.part;
  if (part.kind === "step") {
    tree.blocks.push({
      key: part.id,
      step: part as StepPart,
      nodes: (node as MutableNode).children,
    });
    return;
  }
  let loose = tree.blocks[tree.blocks.length - 1];
  if (loose === undefined || loose.step !== null) {
    loose = { key: `loose:${part.id}`, step: null, nodes: [] };
    tree.blocks.push(loose);
  }
  loose.nodes.push(node);
}

/**
 * `transcriptBlocks` for a view that draws the same store frame after frame: parts added
 * at the end extend the blocks built before, so a frame costs the new parts rather than
 * every part. It builds anew for another state, after a part was replaced or moved, or
 * when a new part is one that earlier parts named but could not find.
 */
export function blockBuilder(): (state: StoreState) => TranscriptBlock[] {
  let built: { state: StoreState; structureRev: number; count: number; tree: Tree } | null = null;
  return (state) => {
    if (
      built === null ||
      built.state !== state ||
      built.structureRev !== state.structureRev ||
      !extend(built.tree, state.parts, built.count)
    ) {
      built = { state, structureRev: state.structureRev, count: 0, tree: buildTree(state.parts) };
    }
    built.count = state.parts.length;
    return built.tree.blocks;
  };
}

/** Add `parts[from..]` to `tree`; false when one of them needs the tree built anew. */
function extend(tree: Tree, parts: readonly Part[], from: number): boolean {
  if (parts.length < from) return false;
  for (let k = from; k < parts.length; k++) {
    const part = parts[k] as Part;
    if (tree.missing.has(part.id) || tree.nodes.has(part.id)) return false;
    const node = newNode(part);
    tree.nodes.set(part.id, node);
    noteMissing(tree, part);
    place(tree, node);
  }
  return true;
}

/** The chain of containers from `start` comes back to `id`, or goes round a loop. */
function loopsBack(id: string, start: string, nodes: Map<string, PartNode>): boolean {
  let current: string | null = start;
  for (let depth = 0; current !== null && depth <= nodes.size; depth++) {
    if (current === id) return true;
    const node = nodes.get(current);
    current = node === undefined ? null : containerOf(nodes, node.part);
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
  for (const part of textPartsOf(state))
    if (typeof part.text === "string") chars += part.text.length;
  return Math.round(chars / 4);
}

/** The text and reasoning parts of a state, found once: the status bar asks every frame,
 * and a run of 50k tool calls has few of them among many parts. Parts are only appended
 * while `structureRev` stays the same, so the list grows with them. */
const textPartLists = new WeakMap<
  StoreState,
  { structureRev: number; scanned: number; found: (TextPart | ReasoningPart)[] }
>();

function textPartsOf(state: StoreState): readonly (TextPart | ReasoningPart)[] {
  let list = textPartLists.get(state);
  if (
    list === undefined ||
    list.structureRev !== state.structureRev ||
    list.scanned > state.parts.length
  ) {
    list = { structureRev: state.structureRev, scanned: 0, found: [] };
    textPartLists.set(state, list);
  }
  for (; list.scanned < state.parts.length; list.scanned++) {
    const part = state.parts[list.scanned] as Part;
    if (part.kind === "text" || part.kind === "reasoning") list.found.push(part);
  }
  return list.found;
}
