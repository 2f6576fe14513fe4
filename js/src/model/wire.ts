/**
 * The wire between the kernel and the front end; see docs/wire.md.
 * Python mirror: src/chunkscope/wire/ (schema.py for the types; the constants below are
 * named as there). Keep the two equal. Declarations only: types and constants, no logic.
 */

/** Marks closer together than this (ms) are folded into one, on both sides. */
export const MARK_INTERVAL_MS = 33;
/** How many transient items are kept; older ones fall off (they are live only anyway). */
export const TRANSIENT_CAP = 200;
/** `encoding` of a packed snapshot. */
export const PACKED_ENCODING = "deflate-json";
/** The most a packed snapshot may unpack to. */
export const MAX_UNPACKED_BYTES = 512 * 2 ** 20;

export type RunStatus =
  | "waiting"
  | "running"
  | "finished"
  | "aborted"
  | "error"
  | "tripwire"
  | "suspended"
  | "awaiting-approval"
  | "incomplete";

export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
}

export interface RunInfo {
  title: string;
  status: RunStatus;
  runId: string | null;
  finishReason: string | null;
  usage: Usage | null;
  ttftMs: number | null;
  elapsedMs: number;
  chunkCount: number;
  outputTokens: number | null;
  error: string | null;
  ended: boolean;
}

export type PartKind =
  | "run"
  | "step"
  | "text"
  | "reasoning"
  | "tool"
  | "output"
  | "source"
  | "file"
  | "object"
  | "data"
  | "background"
  | "workflow"
  | "wstep"
  | "network"
  | "notice";

export interface PartBase {
  id: string;
  kind: PartKind;
  parent: string | null;
  step: string | null;
  t0: number;
  t1: number | null;
  chunk: number;
  /** Fields the kernel holds back (the part carries a preview of them); absent or null: none. */
  held?: Record<string, HeldEntry> | null;
}

/** One field held back by the kernel; see "Held fields" in docs/wire.md. */
export interface HeldEntry {
  /** Names this cut of the field; a later cut of the same field gets a new one. */
  token: number;
  /** Bytes of the whole field's JSON (UTF-8). */
  size: number;
  /** JSON-tree path ("$", "$/rows", "$/a~1b") → full length of what the preview shortened. */
  lengths: Record<string, number>;
}

export type Mark = [t: number, length: number];
export type StateMark = [t: number, state: string];

export interface NestedRun extends PartBase {
  kind: "run";
  runId: string | null;
  label: string;
  status: RunStatus;
  finishReason: string | null;
  usage: Usage | null;
}
export interface StepPart extends PartBase {
  kind: "step";
  index: number;
  finishReason: string | null;
  usage: Usage | null;
  warnings: unknown;
}
export interface TextPart extends PartBase {
  kind: "text";
  text: string;
  marks: Mark[];
}
export interface ReasoningPart extends PartBase {
  kind: "reasoning";
  text: string;
  marks: Mark[];
  redacted: boolean;
  signature: string | null;
}
export type ToolState =
  | "input-streaming"
  | "running"
  | "awaiting-approval"
  | "suspended"
  | "done"
  | "error"
  | "denied";
export interface ToolCall extends PartBase {
  kind: "tool";
  toolCallId: string;
  toolName: string;
  state: ToolState;
  /** On the wire, always; the store leaves out a history the part's fields imply, so read
   * it with `statesOf` (model/history.ts). */
  states?: StateMark[] | undefined;
  argsText: string;
  args: unknown;
  result: unknown;
  error: unknown;
  providerExecuted: boolean | null;
  suspendPayload: unknown;
  approval: unknown;
}
export interface OutputPart extends PartBase {
  kind: "output";
  data: unknown;
  from: string | null;
}
export interface SourcePart extends PartBase {
  kind: "source";
  sourceType: string | null;
  title: string | null;
  url: string | null;
  mimeType: string | null;
  filename: string | null;
}
export interface FilePart extends PartBase {
  kind: "file";
  mimeType: string | null;
  data: string;
  filename: string | null;
}
export interface ObjectPart extends PartBase {
  kind: "object";
  object: unknown;
  final: boolean;
}
export interface DataPart extends PartBase {
  kind: "data";
  dataType: string;
  dataId: string | null;
  data: unknown;
}
export type BackgroundState =
  | "started"
  | "running"
  | "suspended"
  | "resumed"
  | "completed"
  | "failed"
  | "cancelled";
export interface BackgroundTask extends PartBase {
  kind: "background";
  taskId: string;
  toolName: string | null;
  toolCallId: string | null;
  state: BackgroundState;
  states: StateMark[];
  progress: unknown;
  result: unknown;
  error: unknown;
}
export interface WorkflowRun extends PartBase {
  kind: "workflow";
  runId: string | null;
  workflowId: string | null;
  status: string;
  result: unknown;
}
export interface WorkflowStep extends PartBase {
  kind: "wstep";
  stepId: string;
  status: string;
  states: StateMark[];
  input: unknown;
  output: unknown;
  error: unknown;
  progress: unknown;
}
export interface NetworkEvent extends PartBase {
  kind: "network";
  event: string;
  label: string;
  payload: unknown;
}
export type NoticeKind = "error" | "abort" | "tripwire" | "goal" | "unknown" | "invalid" | "warning";
export interface Notice extends PartBase {
  kind: "notice";
  level: "error" | "warning" | "info";
  notice: NoticeKind;
  message: string;
  detail: unknown;
}

export type Part =
  | NestedRun
  | StepPart
  | TextPart
  | ReasoningPart
  | ToolCall
  | OutputPart
  | SourcePart
  | FilePart
  | ObjectPart
  | DataPart
  | BackgroundTask
  | WorkflowRun
  | WorkflowStep
  | NetworkEvent
  | Notice;

export type ChunkFamily =
  | "text"
  | "reasoning"
  | "tools"
  | "control"
  | "workflow"
  | "background"
  | "data"
  | "network"
  | "errors"
  | "other";

export interface ChunkRow {
  i: number;
  n: number;
  t: number;
  type: string;
  from: string | null;
  family: ChunkFamily;
  part: string | null;
  json: unknown;
  truncated?: boolean;
}

export interface Snapshot {
  v: 1;
  seq: number;
  run: RunInfo;
  parts: Part[];
  /** Absent in a live snapshot until some page asked for the rows (`{kind: "rows"}`). */
  rows?: ChunkRow[];
}

export interface TransientItem {
  t: number;
  i: number;
  type: string;
  id: string | null;
  data: unknown;
}

export type Op =
  | { op: "run"; set: Partial<RunInfo> }
  | { op: "add"; part: Part }
  | { op: "append"; id: string; field: "text" | "argsText"; text: string; t: number }
  | { op: "set"; id: string; set: Record<string, unknown>; t: number }
  | { op: "rows"; rows: ChunkRow[] }
  | { op: "transient"; item: TransientItem };

/** One piece of a held field's JSON text (`index` of `count`), or `error` instead. */
export interface HeldAnswer {
  kind: "held";
  part: string;
  field: string;
  token: number;
  index?: number;
  count?: number;
  text?: string;
  error?: string;
}

/** One piece of every inspector row so far (answer to `{kind: "rows"}`): rows
 * `[offset, offset + rows.length)` of `total`, as of batch `seq`. */
export interface RowsPiece {
  kind: "rows";
  seq: number;
  offset: number;
  total: number;
  rows: ChunkRow[];
}

export type Down =
  | { kind: "batch"; seq: number; ops: Op[] }
  | { kind: "snapshot"; snapshot: Snapshot; transient: TransientItem[] }
  | RowsPiece
  | HeldAnswer;

export type Up =
  | { kind: "ready" }
  | { kind: "resync"; have: number }
  | { kind: "rows" }
  | { kind: "stop" }
  | { kind: "fetch"; part: string; field: string; token: number };

/** Synced traits of StreamView. */
export interface Model {
  title: string;
  /** Unique to the model (absent in notebooks saved before it existed); see src/widget.ts. */
  _instance?: string;
  /** The saved run: a Snapshot, or a large one packed (see model/persisted.ts). */
  snapshot: Snapshot | { v: number; seq: number; encoding: "deflate-json"; data: DataView } | null;
}
