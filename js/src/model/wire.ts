// Generated from src/chunkscope/wire/schema.py by `python -m chunkscope.wire.codegen`; do not edit.
// The wire between the kernel and the front end; docs/wire.md says how it is used.

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

/**
 * Text parts keep at most one (offset, length) mark per this many milliseconds, so the
 * scrubber can cut text at a past time while the saved state grows with time, not deltas.
 */
export const MARK_INTERVAL_MS = 33;

/** How many transient items are kept; older ones fall off (they are live only anyway). */
export const TRANSIENT_CAP = 200;

/** The `encoding` of a packed snapshot: zlib-wrapped deflate of the UTF-8 JSON text. */
export const PACKED_ENCODING = "deflate-json";

/** The most a packed snapshot may unpack to; a larger one is refused as hostile. */
export const MAX_UNPACKED_BYTES = 512 * 2 ** 20;

/**
 * Characters a held field's preview keeps of a long string: what the JSON tree shows before
 * "show more".
 */
export const PREVIEW_STRING = 400;

/** Entries a held field's preview keeps of a long array or object: one page of the JSON tree. */
export const PREVIEW_ENTRIES = 100;

/**
 * The `id` of the `<script type="application/json">` element of a standalone run page
 * that holds the run's Snapshot.
 */
export const SNAPSHOT_ELEMENT_ID = "chunkscope-snapshot";

/**
 * The `id` of the `<script type="application/json">` element of a standalone board page
 * that holds the BoardSaved.
 */
export const BOARD_ELEMENT_ID = "chunkscope-board";

/** The `id` of the element a standalone page mounts its view into. */
export const ROOT_ELEMENT_ID = "chunkscope-root";

/**
 * A board widget's traits holding more of its saved board's rows and kept runs
 * (`BoardSaved`'s `runParts`) are named this and 1, 2, … (the name is older than the rows
 * in them, and saved notebooks hold it).
 */
export const BOARD_SAVED_PART_PREFIX = "saved_runs_";

/** Characters of a run's text that its board row carries: the end of what it said so far. */
export const BOARD_TAIL_CHARS = 120;

/**
 * Events a board row's timeline strip keeps; past it the row keeps the first and the last
 * ones and says how many it left out.
 */
export const BOARD_MARKS_CAP = 60;

/** Where the run stands; a nested run's `status` takes the same values. */
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

/** Token usage in Mastra's shape. */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
}

/** The run-level record. */
export interface RunInfo {
  title: string;
  status: RunStatus;
  runId: string | null;
  finishReason: string | null;
  /** Summed over steps (Mastra's `totalUsage`). */
  usage: Usage | null;
  /** Offset of the first text or reasoning delta. */
  ttftMs: number | null;
  /** Offset of the last chunk (or of the end). */
  elapsedMs: number;
  /** Persisted and transient chunks seen. */
  chunkCount: number;
  outputTokens: number | null;
  /** Message of the run-level error, if any. */
  error: string | null;
  /** The consumer is done (the stream is exhausted, failed or was stopped). */
  ended: boolean;
}

/** Some fields of RunInfo: what a `run` op changes. */
export type RunPatch = Partial<RunInfo>;

/** What a part is; each kind has its own fields. */
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

/** One field of a part held back by the kernel: the wire carries a preview of it. */
export interface HeldEntry {
  /** Names this cut of the field; a later cut of the same field gets a new one. */
  token: number;
  /** Bytes of the whole field's JSON (UTF-8). */
  size: number;
  /**
   * JSON-tree path (`$`, `$/rows`, `$/a~1b`) → full length of each string, array or
   * object the preview shortened.
   */
  lengths: Record<string, number>;
}

/**
 * What every part has besides its `kind` (a `PartKind`); each kind adds its own
 * fields.
 */
export interface PartBase {
  /** Unique within the snapshot ("p0", "p1", ...). */
  id: string;
  /** The part this one is nested under (a tool call, a workflow step, a nested run). */
  parent: string | null;
  /** Id of the enclosing `step` part, when there is one. */
  step: string | null;
  /** Offset (ms) of the chunk that created the part. */
  t0: number;
  /** Offset (ms) at which the part ended; null while it is open. */
  t1: number | null;
  /** Index of the chunk that created the part (links to `ChunkRow.i`). */
  chunk: number;
  /** Field name → its entry, for the fields that carry a preview; absent or null: none. */
  held?: Record<string, HeldEntry> | null;
}

/** The length of a part's text at offset `t` (ms). */
export type Mark = [t: number, length: number];

/** The state a part moved to at offset `t` (ms). */
export type StateMark = [t: number, state: string];

/** A run inside another: a sub-agent, a workflow used as a tool, an agent workflow step. */
export interface NestedRun extends PartBase {
  kind: "run";
  runId: string | null;
  /** What it is (the tool or step that ran it). */
  label: string;
  status: RunStatus;
  finishReason: string | null;
  usage: Usage | null;
}

/** One model step (`step-start` … `step-finish`). */
export interface StepPart extends PartBase {
  kind: "step";
  /** Position of the step within its run, from 0. */
  index: number;
  finishReason: string | null;
  usage: Usage | null;
  warnings: unknown;
}

/** A block of answer text. */
export interface TextPart extends PartBase {
  kind: "text";
  text: string;
  /** At most one mark per `MARK_INTERVAL_MS`. */
  marks: Mark[];
}

/** A block of reasoning, possibly redacted. */
export interface ReasoningPart extends PartBase {
  kind: "reasoning";
  text: string;
  marks: Mark[];
  redacted: boolean;
  signature: string | null;
}

/** Where a tool call is in its lifecycle. */
export type ToolState =
  | "input-streaming"
  | "running"
  | "awaiting-approval"
  | "suspended"
  | "done"
  | "error"
  | "denied";

/** A tool call with its whole lifecycle: input streaming, call, outputs, outcome. */
export interface ToolCall extends PartBase {
  kind: "tool";
  toolCallId: string;
  toolName: string;
  state: ToolState;
  /**
   * On the wire, always; the front end's store leaves out a history the part's fields
   * imply, so read it with `statesOf` (`history.ts`).
   */
  states?: StateMark[];
  /** The raw argument text streamed so far. */
  argsText: string;
  /** The partial parse while streaming, the final arguments once called, or null. */
  args: unknown;
  result: unknown;
  error: unknown;
  providerExecuted: boolean | null;
  suspendPayload: unknown;
  approval: unknown;
}

/**
 * A `tool-output` or `workflow-step-output` write that is not itself a chunk; `from`
 * says who wrote it (`USER` for `writer.write()`).
 */
export interface OutputPart extends PartBase {
  kind: "output";
  /** What was written. */
  data: unknown;
  from: string | null;
}

/** A cited source. */
export interface SourcePart extends PartBase {
  kind: "source";
  /** `url` or `document`. */
  sourceType: string | null;
  title: string | null;
  url: string | null;
  mimeType: string | null;
  filename: string | null;
}

/** A file the model produced. */
export interface FilePart extends PartBase {
  kind: "file";
  mimeType: string | null;
  /** Base64 or text content. */
  data: string;
  filename: string | null;
}

/** Structured output: partial while `object` chunks stream, final on `object-result`. */
export interface ObjectPart extends PartBase {
  kind: "object";
  object: unknown;
  final: boolean;
}

/** A persisted `data-*` part, reconciled in place by type and id. */
export interface DataPart extends PartBase {
  kind: "data";
  /** The chunk type, `data-…`. */
  dataType: string;
  dataId: string | null;
  data: unknown;
}

/** Where a background task is. */
export type BackgroundState =
  | "started"
  | "running"
  | "suspended"
  | "resumed"
  | "completed"
  | "failed"
  | "cancelled";

/** A tool call delegated to a background task. */
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

/** A workflow run (`workflow-start` … `workflow-finish`). */
export interface WorkflowRun extends PartBase {
  kind: "workflow";
  runId: string | null;
  workflowId: string | null;
  /** `running` until the workflow ends, then Mastra's `workflowStatus`. */
  status: string;
  result: unknown;
  /** Why a failed workflow failed (`workflow-finish` metadata), or null. */
  error: unknown;
}

/** One workflow step. */
export interface WorkflowStep extends PartBase {
  kind: "wstep";
  /** Dotted when nested (`inner-wf.inner-step`). */
  stepId: string;
  /** Mastra's step status: running, waiting, suspended, success, failed, canceled, paused, ... */
  status: string;
  states: StateMark[];
  input: unknown;
  output: unknown;
  error: unknown;
  progress: unknown;
  /** What a suspended step asks to be resumed with (`suspendPayload`), or null. */
  suspendPayload: unknown;
}

/** An agent-network routing or execution event. */
export interface NetworkEvent extends PartBase {
  kind: "network";
  /** The chunk type. */
  event: string;
  label: string;
  payload: unknown;
}

/** What a notice reports. */
export type NoticeKind =
  | "error"
  | "abort"
  | "tripwire"
  | "goal"
  | "unknown"
  | "invalid"
  | "warning";

/** How loudly a notice is shown. */
export type NoticeLevel = "error" | "warning" | "info";

/** Something a reader must see: an error, an abort, a tripwire, a goal, a bad chunk. */
export interface Notice extends PartBase {
  kind: "notice";
  level: NoticeLevel;
  notice: NoticeKind;
  /** One line saying what happened, and where. */
  message: string;
  detail: unknown;
}

/** Any part. */
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

/** One row of the chunk inspector: a chunk, or consecutive deltas of one part merged. */
export interface ChunkRow {
  i: number;
  n: number;
  t: number;
  type: string;
  from: string | null;
  family: ChunkFamily;
  part: string | null;
  json: unknown;
  /** `json` was cut for size; the part holds the whole value. */
  truncated?: boolean;
}

/** The persisted run (synced trait `snapshot` and the `snapshot` message). */
export interface Snapshot {
  /** Wire version. */
  v: 1;
  /** Sequence number of the last op batch folded into it. */
  seq: number;
  run: RunInfo;
  /** In creation order. */
  parts: Part[];
  /** Always saved; in a live message only once a page asked for rows (`RowsRequest`). */
  rows?: ChunkRow[];
}

/**
 * A large Snapshot as the synced trait holds it: its JSON, deflated, in one binary
 * buffer.
 */
export interface PackedSnapshot {
  v: number;
  seq: number;
  encoding: "deflate-json";
  data: DataView;
  /**
   * How many times the kernel sent this snapshot again, from a cell that waited for the
   * run. The page's widget model compares a new value with the one it holds key by key
   * before storing it (ipywidgets' Backbone models, with lodash's isEqual): a resend that
   * differed nowhere would make it compare the packed bytes one by one (about 60 ns a byte,
   * in one task).
   */
  resent?: number;
}

/** A live-only `data-*` chunk. */
export interface TransientItem {
  t: number;
  i: number;
  type: string;
  id: string | null;
  data: unknown;
}

/** Change fields of the run record. */
export interface RunOp {
  op: "run";
  set: RunPatch;
}

/** A new part. */
export interface AddOp {
  op: "add";
  part: Part;
}

/** Text streamed onto a part's field. */
export interface AppendOp {
  op: "append";
  id: string;
  field: "text" | "argsText";
  text: string;
  t: number;
}

/**
 * A shallow merge into a part; a `state` key also pushes `[t, state]` onto
 * `states`.
 */
export interface SetOp {
  op: "set";
  id: string;
  set: Record<string, unknown>;
  t: number;
}

/** New or rewritten inspector rows (a row is rewritten when more deltas merge into it). */
export interface RowsOp {
  op: "rows";
  rows: ChunkRow[];
}

/** A live-only chunk. */
export interface TransientOp {
  op: "transient";
  item: TransientItem;
}

/** One change to the run or its parts. */
export type Op = RunOp | AddOp | AppendOp | SetOp | RowsOp | TransientOp;

/** Kernel → front end: ops folded since the last batch. */
export interface BatchMessage {
  kind: "batch";
  seq: number;
  ops: Op[];
}

/** Kernel → front end: everything so far (answer to `ready` and `resync`). */
export interface SnapshotMessage {
  kind: "snapshot";
  snapshot: Snapshot;
  transient: TransientItem[];
}

/**
 * Kernel → front end: the answer to `ready` from a page that has followed the batches
 * from the first one (a view displayed before its run started gets batches at once, without
 * waiting for `ready`): it holds batch `seq` once the batches already on the way arrive,
 * and no snapshot is needed.
 */
export interface SyncedMessage {
  kind: "synced";
  seq: number;
}

/**
 * Kernel → front end: rows `[offset, offset + rows.length)` of the `total` inspector
 * rows so far, as of batch `seq` (answer to `RowsRequest`, in pieces).
 */
export interface RowsPiece {
  kind: "rows";
  seq: number;
  offset: number;
  total: number;
  rows: ChunkRow[];
}

/** Kernel → front end: one piece of a held field's JSON text, or why there is none. */
export interface HeldAnswer {
  kind: "held";
  part: string;
  field: string;
  token: number;
  /** Position of this piece, from 0. */
  index?: number;
  /** How many pieces make the whole text. */
  count?: number;
  /** This piece of the JSON text; the pieces in order, joined, parse to the whole value. */
  text?: string;
  /** Set instead of the three above when the field cannot be served. */
  error?: string;
}

/** A message from the kernel to the front end. */
export type Down = BatchMessage | SnapshotMessage | SyncedMessage | RowsPiece | HeldAnswer;

/** Front end → kernel: a new model instance or view wants everything so far. */
export interface ReadyRequest {
  kind: "ready";
  /**
   * The `seq` of the last batch the front end applied, when it followed the batches from
   * the first one without a gap (0 or absent otherwise): the kernel then answers `synced`
   * instead of a snapshot.
   */
  have?: number;
}

/** Front end → kernel: a batch was missed; send a snapshot. */
export interface ResyncRequest {
  kind: "resync";
  /** The `seq` the front end holds. */
  have: number;
}

/** Front end → kernel: send the inspector rows, now and in every batch from now on. */
export interface RowsRequest {
  kind: "rows";
}

/** Front end → kernel: stop consuming the stream. */
export interface StopRequest {
  kind: "stop";
}

/**
 * Front end → kernel: set the model's `_libraries` (markdown and highlighting are
 * about to be needed).
 */
export interface LibrariesRequest {
  kind: "libraries";
}

/** Front end → kernel: send the whole value of a held field. */
export interface FetchRequest {
  kind: "fetch";
  part: string;
  field: string;
  token: number;
}

/** A message from the front end to the kernel. */
export type Up =
  | ReadyRequest
  | ResyncRequest
  | RowsRequest
  | StopRequest
  | FetchRequest
  | LibrariesRequest;

/** Synced traits of StreamView. */
export interface Model {
  title: string;
  /** The saved run: a Snapshot, or a large one packed. */
  snapshot: Snapshot | PackedSnapshot | null;
  /** Unique to the model (absent in notebooks saved before it existed). */
  _instance?: string;
  /**
   * The module of the libraries that render markdown and highlight code (marked,
   * DOMPurify, highlight.js): set when the page asks for it, after the view's first words
   * are drawn, and when a cell waits for the run; empty until then.
   */
  _libraries?: string;
}

/** Where a run of a board stands: `queued` (not started yet), else its `RunStatus`. */
export type BoardStatus =
  | "queued"
  | "waiting"
  | "running"
  | "finished"
  | "aborted"
  | "error"
  | "tripwire"
  | "suspended"
  | "awaiting-approval"
  | "incomplete";

/** What a mark on a board row's timeline strip stands for. */
export type BoardMarkKind = "step" | "tool" | "tool-error" | "tripwire" | "error";

/** One event on a board row's strip; times are ms since the board started. */
export interface BoardMark {
  kind: BoardMarkKind;
  t: number;
  /** When it ended; null while it is open (and for instants: tripwires, errors). */
  end: number | null;
}

/** One run of a board, summarised: what its row in the table shows. */
export interface BoardRow {
  /** Stable key of the run within the board ("r0", "r1", ...). */
  id: string;
  label: string;
  status: BoardStatus;
  /** When the run started, in ms since the board started; null while queued. */
  startedMs: number | null;
  /** How long the run has taken so far (or took). */
  elapsedMs: number | null;
  /** Time to the first text or reasoning token, from the run's start. */
  ttftMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  totalTokens: number | null;
  steps: number;
  toolCalls: number;
  toolErrors: number;
  chunks: number;
  finishReason: string | null;
  /** The tripwire's reason when a guardrail stopped the run. */
  tripwire: string | null;
  error: string | null;
  /** The last `BOARD_TAIL_CHARS` characters of the run's text, on one line. */
  tail: string;
  marks: BoardMark[];
  /** Marks left out of `marks` (past `BOARD_MARKS_CAP`). */
  marksLeft: number;
}

/**
 * Some fields of a BoardRow, always with its `id`: what changed since the row was last
 * sent.
 */
export type BoardRowPatch = Partial<BoardRow>;

/** What a saved notebook keeps of a board: every row, and the full runs that fit. */
export interface BoardSaved {
  /**
   * Which save of the board this is (1, 2, …). First, as it differs between any two
   * saves: the page's widget model compares a new value with the one it holds key by key
   * before storing it, and stops at the first difference instead of comparing the kept runs'
   * packed bytes one by one.
   */
  save: number;
  /**
   * Where the strips' shared time axis ends: the board's age when this state was taken,
   * or when its last run ended once every run has.
   */
  elapsedMs: number;
  /** Number of the last row message this state includes. */
  seq: number;
  /**
   * Every row, in the table's order. In a widget, the first of them only, up to about
   * 250 KB; the others follow in the `runParts` more traits, in order.
   */
  rows: BoardRow[];
  /**
   * Row id → the run's snapshot, for the runs kept whole: packed in a saved notebook
   * (unpacked only when the run is opened), plain in a standalone page. In a widget, the
   * first of them only (what fits in about 250 KB with the rows); the others are in the
   * `runParts` more traits.
   */
  runs: Record<string, Snapshot | PackedSnapshot>;
  /**
   * How many more traits of the widget hold rows and kept runs (`BoardSavedPart`),
   * named `BOARD_SAVED_PART_PREFIX` + 1, 2, …: each arrives in a message of its own, so no
   * one message of a large saved board holds the page for long. 0 in a standalone page.
   */
  runParts: number;
  /** Bytes of snapshot JSON over which a run is saved as its row only. */
  keepLimit: number;
  /** Bytes of packed snapshots the saved board keeps over all its runs. */
  keepTotal: number;
  /**
   * Row id → why an ended run was saved as its row only: its snapshot was over
   * `keepLimit` (`size`), or the runs kept before it filled `keepTotal` (`total`).
   */
  leftOut: Record<string, "size" | "total">;
}

/**
 * More of a saved board's rows and kept runs, in a trait of their own (see
 * `runParts`).
 */
export interface BoardSavedPart {
  /**
   * More rows, after those of the saved board and of the parts before this one. Absent
   * from the parts of boards saved before rows were spread over parts.
   */
  rows?: BoardRow[];
  /** The `save` of the BoardSaved this part belongs to (first, for the same reason). */
  save: number;
  /** Row id → the run's packed snapshot. */
  runs: Record<string, Snapshot | PackedSnapshot>;
}

/**
 * Kernel → board: every row, or the rows added and the fields that changed since the
 * last message (the page applies messages in `seq` order).
 */
export interface BoardRowsMessage {
  kind: "board";
  seq: number;
  /** `rows` holds every row (replace the table), and `changes` is empty. */
  full: boolean;
  /** Rows the page does not have yet (all of them when `full`). */
  rows: BoardRow[];
  /** The fields of known rows that changed, each with the row's `id`. */
  changes: BoardRowPatch[];
  /** The board's age now: where the strips' shared time axis ends. */
  elapsedMs: number;
}

/** Kernel → board: a StreamView message for the run opened in the board. */
export interface BoardRunMessage {
  kind: "run";
  id: string;
  message: Down;
}

/** Kernel → board: the comparison of two runs (answer to `BoardCompareRequest`). */
export interface BoardCompareMessage {
  kind: "compare";
  a: string;
  b: string;
  /** The comparison as HTML (chunkscope's own markup; every run value in it is escaped). */
  html: string;
  error: string | null;
}

/**
 * Kernel → board: what one round of the board's schedule sends, together: the opened
 * run's batch and the rows that changed. Apart, they reached the page in two websocket
 * messages that were often drawn in two frames.
 */
export interface BoardRoundMessage {
  kind: "round";
  /** Applied in order, as if each had come on its own. */
  messages: (BoardRowsMessage | BoardRunMessage)[];
}

/** A message from the kernel to a board. */
export type BoardDown =
  | BoardRowsMessage
  | BoardRunMessage
  | BoardCompareMessage
  | BoardRoundMessage;

/**
 * Board → kernel: open one run in place (null closes it): its snapshot and then its live
 * batches are sent as `BoardRunMessage`s.
 */
export interface BoardOpenRequest {
  kind: "open";
  id: string | null;
}

/** Board → kernel: a StreamView request (resync, rows, fetch) for the opened run. */
export interface BoardRunRequest {
  kind: "run";
  id: string;
  message: Up;
}

/** Board → kernel: stop one run, or every run (`id` null). */
export interface BoardStopRequest {
  kind: "stop";
  id: string | null;
}

/** Board → kernel: compare two runs. */
export interface BoardCompareRequest {
  kind: "compare";
  a: string;
  b: string;
}

/** A message from a board to the kernel. */
export type BoardUp =
  | ReadyRequest
  | BoardOpenRequest
  | BoardRunRequest
  | BoardStopRequest
  | BoardCompareRequest
  | LibrariesRequest;

/** Synced traits of RunBoard. */
export interface BoardModel {
  title: string;
  /** The board as the saved notebook keeps it. */
  saved: BoardSaved | null;
  /** Unique to the model. */
  _instance?: string;
  /**
   * The board's style sheet, which the page puts in the shadow root the board is drawn in
   * (a sheet given to anywidget as `_css` would go to the page's head instead).
   */
  _styles?: string;
  /**
   * As StreamView's: the libraries that render markdown and highlight code, set when the
   * page asks for them (a run opened on the board) and when the board is saved with runs kept
   * whole; empty until then.
   */
  _libraries?: string;
}
