"""The wire between the kernel and the front end: every shape and shared constant, declared once.

This module is the one source of the wire. ``python -m chunkscope.wire.codegen`` renders it
as TypeScript (``js/src/model/wire.ts``) and as the reference listings of ``docs/wire.md``;
``--check`` fails when either is stale. Parts are built by ``chunkscope.fold.parts``
(``Part.to_wire``), ops by ``chunkscope.fold.state`` and merged by ``chunkscope.wire.batching``.

Rules the generator follows:

* What is exported is ``__all__``, in the order of the source. ``TypedDict`` classes become
  interfaces, aliases annotated ``TypeAlias`` become ``type`` declarations, ``Final`` values
  become ``export const``. Docstrings (of classes, fields and values) become ``/** */`` comments.
* Naming: a part type has one name on both sides, the name of its class in
  ``chunkscope.fold.parts`` (``ToolCall``, ``TextPart``, ...). Its wire form here is that name
  plus ``Wire`` (``ToolCallWire``), so the fold class and its dict never share a name in
  Python; the TypeScript name drops the suffix. The same holds for ``UsageWire`` (the fold's
  ``Usage`` model) and ``PartWire`` (the union of all parts; the fold's base class is
  ``Part``). Every other name is the same on both sides.
* A base class whose name starts with ``_`` (used to mix required and optional keys) is
  folded into its subclass; a public base becomes ``extends``.
* A ``total=False`` TypedDict with exactly the keys and types of another is rendered as
  ``Partial<Other>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal, TypeAlias, TypedDict

from ..chunks.models import ChunkFamily

__all__ = [
    "BOARD_ELEMENT_ID",
    "BOARD_MARKS_CAP",
    "BOARD_SAVED_PART_PREFIX",
    "BOARD_TAIL_CHARS",
    "MARK_INTERVAL_MS",
    "MAX_UNPACKED_BYTES",
    "PACKED_ENCODING",
    "PREVIEW_ENTRIES",
    "PREVIEW_STRING",
    "ROOT_ELEMENT_ID",
    "SNAPSHOT_ELEMENT_ID",
    "TRANSIENT_CAP",
    "AddOp",
    "AppendOp",
    "BackgroundState",
    "BackgroundTaskWire",
    "BatchMessage",
    "BoardCompareMessage",
    "BoardCompareRequest",
    "BoardDown",
    "BoardMark",
    "BoardMarkKind",
    "BoardModel",
    "BoardOpenRequest",
    "BoardRoundMessage",
    "BoardRow",
    "BoardRowPatch",
    "BoardRowsMessage",
    "BoardRunMessage",
    "BoardRunRequest",
    "BoardSaved",
    "BoardSavedPart",
    "BoardStatus",
    "BoardStopRequest",
    "BoardUp",
    "ChunkFamily",
    "ChunkRow",
    "DataPartWire",
    "Down",
    "FetchRequest",
    "FilePartWire",
    "HeldAnswer",
    "HeldEntry",
    "LibrariesRequest",
    "Mark",
    "Model",
    "NestedRunWire",
    "NetworkEventWire",
    "NoticeKind",
    "NoticeLevel",
    "NoticeWire",
    "ObjectPartWire",
    "Op",
    "OutputPartWire",
    "PackedSnapshot",
    "PartBase",
    "PartKind",
    "PartWire",
    "ReadyRequest",
    "ReasoningPartWire",
    "ResyncRequest",
    "RowsOp",
    "RowsPiece",
    "RowsRequest",
    "RunInfo",
    "RunOp",
    "RunPatch",
    "RunStatus",
    "SetOp",
    "Snapshot",
    "SnapshotMessage",
    "SourcePartWire",
    "StateMark",
    "StepPartWire",
    "StopRequest",
    "SyncedMessage",
    "TextPartWire",
    "ToolCallWire",
    "ToolState",
    "TransientItem",
    "TransientOp",
    "Up",
    "UsageWire",
    "WorkflowRunWire",
    "WorkflowStepWire",
]


@dataclass(frozen=True)
class TupleNames:
    """Names of a tuple's members, for the TypeScript labels (``[t: number, ...]``)."""

    names: tuple[str, ...]


# ------------------------------------------------------------------------------ constants

MARK_INTERVAL_MS: Final = 33.0
"""Text parts keep at most one (offset, length) mark per this many milliseconds, so the
scrubber can cut text at a past time while the saved state grows with time, not deltas."""

TRANSIENT_CAP: Final = 200
"""How many transient items are kept; older ones fall off (they are live only anyway)."""

PACKED_ENCODING: Final = "deflate-json"
"""The ``encoding`` of a packed snapshot: zlib-wrapped deflate of the UTF-8 JSON text."""

MAX_UNPACKED_BYTES: Final = 512 * 2**20
"""The most a packed snapshot may unpack to; a larger one is refused as hostile."""

PREVIEW_STRING: Final = 400
"""Characters a held field's preview keeps of a long string: what the JSON tree shows before
"show more"."""

PREVIEW_ENTRIES: Final = 100
"""Entries a held field's preview keeps of a long array or object: one page of the JSON tree."""

SNAPSHOT_ELEMENT_ID: Final = "chunkscope-snapshot"
"""The ``id`` of the ``<script type="application/json">`` element of a standalone run page
that holds the run's Snapshot."""

BOARD_ELEMENT_ID: Final = "chunkscope-board"
"""The ``id`` of the ``<script type="application/json">`` element of a standalone board page
that holds the BoardSaved."""

ROOT_ELEMENT_ID: Final = "chunkscope-root"
"""The ``id`` of the element a standalone page mounts its view into."""

BOARD_SAVED_PART_PREFIX: Final = "saved_runs_"
"""A board widget's traits holding more of its saved board's rows and kept runs
(``BoardSaved``'s ``runParts``) are named this and 1, 2, … (the name is older than the rows
in them, and saved notebooks hold it)."""

BOARD_TAIL_CHARS: Final = 120
"""Characters of a run's text that its board row carries: the end of what it said so far."""

BOARD_MARKS_CAP: Final = 60
"""Events a board row's timeline strip keeps; past it the row keeps the first and the last
ones and says how many it left out."""


# ------------------------------------------------------------------------------ the run

RunStatus: TypeAlias = Literal[
    "waiting",
    "running",
    "finished",
    "aborted",
    "error",
    "tripwire",
    "suspended",
    "awaiting-approval",
    "incomplete",
]
"""Where the run stands; a nested run's ``status`` takes the same values."""


class UsageWire(TypedDict, total=False):
    """Token usage in Mastra's shape."""

    inputTokens: int
    outputTokens: int
    totalTokens: int
    reasoningTokens: int
    cachedInputTokens: int


class RunInfo(TypedDict):
    """The run-level record."""

    title: str
    status: RunStatus
    runId: str | None
    finishReason: str | None
    usage: UsageWire | None
    """Summed over steps (Mastra's ``totalUsage``)."""
    ttftMs: float | None
    """Offset of the first text or reasoning delta."""
    elapsedMs: float
    """Offset of the last chunk (or of the end)."""
    chunkCount: int
    """Persisted and transient chunks seen."""
    outputTokens: int | None
    error: str | None
    """Message of the run-level error, if any."""
    ended: bool
    """The consumer is done (the stream is exhausted, failed or was stopped)."""


class RunPatch(TypedDict, total=False):
    """Some fields of RunInfo: what a ``run`` op changes."""

    title: str
    status: RunStatus
    runId: str | None
    finishReason: str | None
    usage: UsageWire | None
    ttftMs: float | None
    elapsedMs: float
    chunkCount: int
    outputTokens: int | None
    error: str | None
    ended: bool


# ------------------------------------------------------------------------------ parts

PartKind: TypeAlias = Literal[
    "run",
    "step",
    "text",
    "reasoning",
    "tool",
    "output",
    "source",
    "file",
    "object",
    "data",
    "background",
    "workflow",
    "wstep",
    "network",
    "notice",
]
"""What a part is; each kind has its own fields."""


class HeldEntry(TypedDict):
    """One field of a part held back by the kernel: the wire carries a preview of it."""

    token: int
    """Names this cut of the field; a later cut of the same field gets a new one."""
    size: int
    """Bytes of the whole field's JSON (UTF-8)."""
    lengths: dict[str, int]
    """JSON-tree path (``$``, ``$/rows``, ``$/a~1b``) → full length of each string, array or
    object the preview shortened."""


class _PartRequired(TypedDict):
    id: str
    """Unique within the snapshot ("p0", "p1", ...)."""
    parent: str | None
    """The part this one is nested under (a tool call, a workflow step, a nested run)."""
    step: str | None
    """Id of the enclosing ``step`` part, when there is one."""
    t0: float
    """Offset (ms) of the chunk that created the part."""
    t1: float | None
    """Offset (ms) at which the part ended; null while it is open."""
    chunk: int
    """Index of the chunk that created the part (links to ``ChunkRow.i``)."""


class PartBase(_PartRequired, total=False):
    """What every part has besides its ``kind`` (a ``PartKind``); each kind adds its own
    fields."""

    held: dict[str, HeldEntry] | None
    """Field name → its entry, for the fields that carry a preview; absent or null: none."""


Mark: TypeAlias = Annotated[tuple[float, int], TupleNames(("t", "length"))]
"""The length of a part's text at offset ``t`` (ms)."""

StateMark: TypeAlias = Annotated[tuple[float, str], TupleNames(("t", "state"))]
"""The state a part moved to at offset ``t`` (ms)."""


class NestedRunWire(PartBase):
    """A run inside another: a sub-agent, a workflow used as a tool, an agent workflow step."""

    kind: Literal["run"]
    runId: str | None
    label: str
    """What it is (the tool or step that ran it)."""
    status: RunStatus
    finishReason: str | None
    usage: UsageWire | None


class StepPartWire(PartBase):
    """One model step (``step-start`` … ``step-finish``)."""

    kind: Literal["step"]
    index: int
    """Position of the step within its run, from 0."""
    finishReason: str | None
    usage: UsageWire | None
    warnings: Any


class TextPartWire(PartBase):
    """A block of answer text."""

    kind: Literal["text"]
    text: str
    marks: list[Mark]
    """At most one mark per ``MARK_INTERVAL_MS``."""


class ReasoningPartWire(PartBase):
    """A block of reasoning, possibly redacted."""

    kind: Literal["reasoning"]
    text: str
    marks: list[Mark]
    redacted: bool
    signature: str | None


ToolState: TypeAlias = Literal[
    "input-streaming",
    "running",
    "awaiting-approval",
    "suspended",
    "done",
    "error",
    "denied",
]
"""Where a tool call is in its lifecycle."""


class _ToolCallRequired(PartBase):
    kind: Literal["tool"]
    toolCallId: str
    toolName: str
    state: ToolState


class _ToolCallStates(TypedDict, total=False):
    states: list[StateMark]
    """On the wire, always; the front end's store leaves out a history the part's fields
    imply, so read it with ``statesOf`` (``history.ts``)."""


class ToolCallWire(_ToolCallRequired, _ToolCallStates):
    """A tool call with its whole lifecycle: input streaming, call, outputs, outcome."""

    argsText: str
    """The raw argument text streamed so far."""
    args: Any
    """The partial parse while streaming, the final arguments once called, or null."""
    result: Any
    error: Any
    providerExecuted: bool | None
    suspendPayload: Any
    approval: Any


class _OutputPartFields(PartBase):
    kind: Literal["output"]
    data: Any
    """What was written."""


_OutputFrom = TypedDict("_OutputFrom", {"from": str | None})


class OutputPartWire(_OutputPartFields, _OutputFrom):
    """A ``tool-output`` or ``workflow-step-output`` write that is not itself a chunk; ``from``
    says who wrote it (``USER`` for ``writer.write()``)."""


class SourcePartWire(PartBase):
    """A cited source."""

    kind: Literal["source"]
    sourceType: str | None
    """``url`` or ``document``."""
    title: str | None
    url: str | None
    mimeType: str | None
    filename: str | None


class FilePartWire(PartBase):
    """A file the model produced."""

    kind: Literal["file"]
    mimeType: str | None
    data: str
    """Base64 or text content."""
    filename: str | None


class ObjectPartWire(PartBase):
    """Structured output: partial while ``object`` chunks stream, final on ``object-result``."""

    kind: Literal["object"]
    object: Any
    final: bool


class DataPartWire(PartBase):
    """A persisted ``data-*`` part, reconciled in place by type and id."""

    kind: Literal["data"]
    dataType: str
    """The chunk type, ``data-…``."""
    dataId: str | None
    data: Any


BackgroundState: TypeAlias = Literal[
    "started",
    "running",
    "suspended",
    "resumed",
    "completed",
    "failed",
    "cancelled",
]
"""Where a background task is."""


class BackgroundTaskWire(PartBase):
    """A tool call delegated to a background task."""

    kind: Literal["background"]
    taskId: str
    toolName: str | None
    toolCallId: str | None
    state: BackgroundState
    states: list[StateMark]
    progress: Any
    result: Any
    error: Any


class WorkflowRunWire(PartBase):
    """A workflow run (``workflow-start`` … ``workflow-finish``)."""

    kind: Literal["workflow"]
    runId: str | None
    workflowId: str | None
    status: str
    """``running`` until the workflow ends, then Mastra's ``workflowStatus``."""
    result: Any
    error: Any
    """Why a failed workflow failed (``workflow-finish`` metadata), or null."""


class WorkflowStepWire(PartBase):
    """One workflow step."""

    kind: Literal["wstep"]
    stepId: str
    """Dotted when nested (``inner-wf.inner-step``)."""
    status: str
    """Mastra's step status: running, waiting, suspended, success, failed, canceled, paused, ..."""
    states: list[StateMark]
    input: Any
    output: Any
    error: Any
    progress: Any
    suspendPayload: Any
    """What a suspended step asks to be resumed with (``suspendPayload``), or null."""


class NetworkEventWire(PartBase):
    """An agent-network routing or execution event."""

    kind: Literal["network"]
    event: str
    """The chunk type."""
    label: str
    payload: Any


NoticeKind: TypeAlias = Literal[
    "error", "abort", "tripwire", "goal", "unknown", "invalid", "warning"
]
"""What a notice reports."""

NoticeLevel: TypeAlias = Literal["error", "warning", "info"]
"""How loudly a notice is shown."""


class NoticeWire(PartBase):
    """Something a reader must see: an error, an abort, a tripwire, a goal, a bad chunk."""

    kind: Literal["notice"]
    level: NoticeLevel
    notice: NoticeKind
    message: str
    """One line saying what happened, and where."""
    detail: Any


PartWire: TypeAlias = (
    NestedRunWire
    | StepPartWire
    | TextPartWire
    | ReasoningPartWire
    | ToolCallWire
    | OutputPartWire
    | SourcePartWire
    | FilePartWire
    | ObjectPartWire
    | DataPartWire
    | BackgroundTaskWire
    | WorkflowRunWire
    | WorkflowStepWire
    | NetworkEventWire
    | NoticeWire
)
"""Any part."""


# ------------------------------------------------------------------------------ snapshot

_ChunkRowRequired = TypedDict(
    "_ChunkRowRequired",
    {
        "i": int,
        "n": int,
        "t": float,
        "type": str,
        "from": str | None,
        "family": ChunkFamily,
        "part": str | None,
        "json": Any,
    },
)


class ChunkRow(_ChunkRowRequired, total=False):
    """One row of the chunk inspector: a chunk, or consecutive deltas of one part merged."""

    truncated: bool
    """``json`` was cut for size; the part holds the whole value."""


class _SnapshotRequired(TypedDict):
    v: Literal[1]
    """Wire version."""
    seq: int
    """Sequence number of the last op batch folded into it."""
    run: RunInfo
    parts: list[PartWire]
    """In creation order."""


class Snapshot(_SnapshotRequired, total=False):
    """The persisted run (synced trait ``snapshot`` and the ``snapshot`` message)."""

    rows: list[ChunkRow]
    """Always saved; in a live message only once a page asked for rows (``RowsRequest``)."""


class _PackedSnapshotRequired(TypedDict):
    v: int
    seq: int
    encoding: Literal["deflate-json"]
    data: bytes


class PackedSnapshot(_PackedSnapshotRequired, total=False):
    """A large Snapshot as the synced trait holds it: its JSON, deflated, in one binary
    buffer."""

    resent: int
    """How many times the kernel sent this snapshot again, from a cell that waited for the
    run. The page's widget model compares a new value with the one it holds key by key
    before storing it (ipywidgets' Backbone models, with lodash's isEqual): a resend that
    differed nowhere would make it compare the packed bytes one by one (about 60 ns a byte,
    in one task)."""


class TransientItem(TypedDict):
    """A live-only ``data-*`` chunk."""

    t: float
    i: int
    type: str
    id: str | None
    data: Any


# ------------------------------------------------------------------------------ ops


class RunOp(TypedDict):
    """Change fields of the run record."""

    op: Literal["run"]
    set: RunPatch


class AddOp(TypedDict):
    """A new part."""

    op: Literal["add"]
    part: PartWire


class AppendOp(TypedDict):
    """Text streamed onto a part's field."""

    op: Literal["append"]
    id: str
    field: Literal["text", "argsText"]
    text: str
    t: float


class SetOp(TypedDict):
    """A shallow merge into a part; a ``state`` key also pushes ``[t, state]`` onto
    ``states``."""

    op: Literal["set"]
    id: str
    set: dict[str, Any]
    t: float


class RowsOp(TypedDict):
    """New or rewritten inspector rows (a row is rewritten when more deltas merge into it)."""

    op: Literal["rows"]
    rows: list[ChunkRow]


class TransientOp(TypedDict):
    """A live-only chunk."""

    op: Literal["transient"]
    item: TransientItem


Op: TypeAlias = RunOp | AddOp | AppendOp | SetOp | RowsOp | TransientOp
"""One change to the run or its parts."""


# ------------------------------------------------------------------------------ messages


class BatchMessage(TypedDict):
    """Kernel → front end: ops folded since the last batch."""

    kind: Literal["batch"]
    seq: int
    ops: list[Op]


class SnapshotMessage(TypedDict):
    """Kernel → front end: everything so far (answer to ``ready`` and ``resync``)."""

    kind: Literal["snapshot"]
    snapshot: Snapshot
    transient: list[TransientItem]


class SyncedMessage(TypedDict):
    """Kernel → front end: the answer to ``ready`` from a page that has followed the batches
    from the first one (a view displayed before its run started gets batches at once, without
    waiting for ``ready``): it holds batch ``seq`` once the batches already on the way arrive,
    and no snapshot is needed."""

    kind: Literal["synced"]
    seq: int


class RowsPiece(TypedDict):
    """Kernel → front end: rows ``[offset, offset + rows.length)`` of the ``total`` inspector
    rows so far, as of batch ``seq`` (answer to ``RowsRequest``, in pieces)."""

    kind: Literal["rows"]
    seq: int
    offset: int
    total: int
    rows: list[ChunkRow]


class RowsMessage(TypedDict):
    """``RowsPiece`` with rows of any shape, for senders that do not build typed rows yet."""

    kind: Literal["rows"]
    seq: int
    offset: int
    total: int
    rows: list[dict[str, Any]]


class _HeldAnswerRequired(TypedDict):
    kind: Literal["held"]
    part: str
    field: str
    token: int


class HeldAnswer(_HeldAnswerRequired, total=False):
    """Kernel → front end: one piece of a held field's JSON text, or why there is none."""

    index: int
    """Position of this piece, from 0."""
    count: int
    """How many pieces make the whole text."""
    text: str
    """This piece of the JSON text; the pieces in order, joined, parse to the whole value."""
    error: str
    """Set instead of the three above when the field cannot be served."""


Down: TypeAlias = BatchMessage | SnapshotMessage | SyncedMessage | RowsPiece | HeldAnswer
"""A message from the kernel to the front end."""


class _ReadyRequired(TypedDict):
    kind: Literal["ready"]


class ReadyRequest(_ReadyRequired, total=False):
    """Front end → kernel: a new model instance or view wants everything so far."""

    have: int
    """The ``seq`` of the last batch the front end applied, when it followed the batches from
    the first one without a gap (0 or absent otherwise): the kernel then answers ``synced``
    instead of a snapshot."""


class ResyncRequest(TypedDict):
    """Front end → kernel: a batch was missed; send a snapshot."""

    kind: Literal["resync"]
    have: int
    """The ``seq`` the front end holds."""


class RowsRequest(TypedDict):
    """Front end → kernel: send the inspector rows, now and in every batch from now on."""

    kind: Literal["rows"]


class StopRequest(TypedDict):
    """Front end → kernel: stop consuming the stream."""

    kind: Literal["stop"]


class LibrariesRequest(TypedDict):
    """Front end → kernel: set the model's ``_libraries`` (markdown and highlighting are
    about to be needed)."""

    kind: Literal["libraries"]


class FetchRequest(TypedDict):
    """Front end → kernel: send the whole value of a held field."""

    kind: Literal["fetch"]
    part: str
    field: str
    token: int


Up: TypeAlias = (
    ReadyRequest | ResyncRequest | RowsRequest | StopRequest | FetchRequest | LibrariesRequest
)
"""A message from the front end to the kernel."""


class _ModelRequired(TypedDict):
    title: str
    snapshot: Snapshot | PackedSnapshot | None
    """The saved run: a Snapshot, or a large one packed."""


class Model(_ModelRequired, total=False):
    """Synced traits of StreamView."""

    _instance: str
    """Unique to the model (absent in notebooks saved before it existed)."""
    _libraries: str
    """The module of the libraries that render markdown and highlight code (marked,
    DOMPurify, highlight.js): set when the page asks for it, after the view's first words
    are drawn, and when a cell waits for the run; empty until then."""


# ------------------------------------------------------------------------------ the board

BoardStatus: TypeAlias = Literal[
    "queued",
    "waiting",
    "running",
    "finished",
    "aborted",
    "error",
    "tripwire",
    "suspended",
    "awaiting-approval",
    "incomplete",
]
"""Where a run of a board stands: ``queued`` (not started yet), else its ``RunStatus``."""

BoardMarkKind: TypeAlias = Literal["step", "tool", "tool-error", "tripwire", "error"]
"""What a mark on a board row's timeline strip stands for."""


class BoardMark(TypedDict):
    """One event on a board row's strip; times are ms since the board started."""

    kind: BoardMarkKind
    t: float
    end: float | None
    """When it ended; null while it is open (and for instants: tripwires, errors)."""


class BoardRow(TypedDict):
    """One run of a board, summarised: what its row in the table shows."""

    id: str
    """Stable key of the run within the board ("r0", "r1", ...)."""
    label: str
    status: BoardStatus
    startedMs: float | None
    """When the run started, in ms since the board started; null while queued."""
    elapsedMs: float | None
    """How long the run has taken so far (or took)."""
    ttftMs: float | None
    """Time to the first text or reasoning token, from the run's start."""
    inputTokens: int | None
    outputTokens: int | None
    totalTokens: int | None
    steps: int
    toolCalls: int
    toolErrors: int
    chunks: int
    finishReason: str | None
    tripwire: str | None
    """The tripwire's reason when a guardrail stopped the run."""
    error: str | None
    tail: str
    """The last ``BOARD_TAIL_CHARS`` characters of the run's text, on one line."""
    marks: list[BoardMark]
    marksLeft: int
    """Marks left out of ``marks`` (past ``BOARD_MARKS_CAP``)."""


class BoardRowPatch(TypedDict, total=False):
    """Some fields of a BoardRow, always with its ``id``: what changed since the row was last
    sent."""

    id: str
    label: str
    status: BoardStatus
    startedMs: float | None
    elapsedMs: float | None
    ttftMs: float | None
    inputTokens: int | None
    outputTokens: int | None
    totalTokens: int | None
    steps: int
    toolCalls: int
    toolErrors: int
    chunks: int
    finishReason: str | None
    tripwire: str | None
    error: str | None
    tail: str
    marks: list[BoardMark]
    marksLeft: int


class BoardSaved(TypedDict):
    """What a saved notebook keeps of a board: every row, and the full runs that fit."""

    save: int
    """Which save of the board this is (1, 2, …). First, as it differs between any two
    saves: the page's widget model compares a new value with the one it holds key by key
    before storing it, and stops at the first difference instead of comparing the kept runs'
    packed bytes one by one."""
    elapsedMs: float
    """Where the strips' shared time axis ends: the board's age when this state was taken,
    or when its last run ended once every run has."""
    seq: int
    """Number of the last row message this state includes."""
    rows: list[BoardRow]
    """Every row, in the table's order. In a widget, the first of them only, up to about
    250 KB; the others follow in the ``runParts`` more traits, in order."""
    runs: dict[str, Snapshot | PackedSnapshot]
    """Row id → the run's snapshot, for the runs kept whole: packed in a saved notebook
    (unpacked only when the run is opened), plain in a standalone page. In a widget, the
    first of them only (what fits in about 250 KB with the rows); the others are in the
    ``runParts`` more traits."""
    runParts: int
    """How many more traits of the widget hold rows and kept runs (``BoardSavedPart``),
    named ``BOARD_SAVED_PART_PREFIX`` + 1, 2, …: each arrives in a message of its own, so no
    one message of a large saved board holds the page for long. 0 in a standalone page."""
    keepLimit: int
    """Bytes of snapshot JSON over which a run is saved as its row only."""
    keepTotal: int
    """Bytes of packed snapshots the saved board keeps over all its runs."""
    leftOut: dict[str, Literal["size", "total"]]
    """Row id → why an ended run was saved as its row only: its snapshot was over
    ``keepLimit`` (``size``), or the runs kept before it filled ``keepTotal`` (``total``)."""


class _BoardSavedPartRows(TypedDict, total=False):
    rows: list[BoardRow]
    """More rows, after those of the saved board and of the parts before this one. Absent
    from the parts of boards saved before rows were spread over parts."""


class BoardSavedPart(_BoardSavedPartRows):
    """More of a saved board's rows and kept runs, in a trait of their own (see
    ``runParts``)."""

    save: int
    """The ``save`` of the BoardSaved this part belongs to (first, for the same reason)."""
    runs: dict[str, Snapshot | PackedSnapshot]
    """Row id → the run's packed snapshot."""


class BoardRowsMessage(TypedDict):
    """Kernel → board: every row, or the rows added and the fields that changed since the
    last message (the page applies messages in ``seq`` order)."""

    kind: Literal["board"]
    seq: int
    full: bool
    """``rows`` holds every row (replace the table), and ``changes`` is empty."""
    rows: list[BoardRow]
    """Rows the page does not have yet (all of them when ``full``)."""
    changes: list[BoardRowPatch]
    """The fields of known rows that changed, each with the row's ``id``."""
    elapsedMs: float
    """The board's age now: where the strips' shared time axis ends."""


class BoardRunMessage(TypedDict):
    """Kernel → board: a StreamView message for the run opened in the board."""

    kind: Literal["run"]
    id: str
    message: Down


class BoardCompareMessage(TypedDict):
    """Kernel → board: the comparison of two runs (answer to ``BoardCompareRequest``)."""

    kind: Literal["compare"]
    a: str
    b: str
    html: str
    """The comparison as HTML (chunkscope's own markup; every run value in it is escaped)."""
    error: str | None


class BoardRoundMessage(TypedDict):
    """Kernel → board: what one round of the board's schedule sends, together: the opened
    run's batch and the rows that changed. Apart, they reached the page in two websocket
    messages that were often drawn in two frames."""

    kind: Literal["round"]
    messages: list[BoardRowsMessage | BoardRunMessage]
    """Applied in order, as if each had come on its own."""


BoardDown: TypeAlias = BoardRowsMessage | BoardRunMessage | BoardCompareMessage | BoardRoundMessage
"""A message from the kernel to a board."""


class BoardOpenRequest(TypedDict):
    """Board → kernel: open one run in place (null closes it): its snapshot and then its live
    batches are sent as ``BoardRunMessage``s."""

    kind: Literal["open"]
    id: str | None


class BoardRunRequest(TypedDict):
    """Board → kernel: a StreamView request (resync, rows, fetch) for the opened run."""

    kind: Literal["run"]
    id: str
    message: Up


class BoardStopRequest(TypedDict):
    """Board → kernel: stop one run, or every run (``id`` null)."""

    kind: Literal["stop"]
    id: str | None


class BoardCompareRequest(TypedDict):
    """Board → kernel: compare two runs."""

    kind: Literal["compare"]
    a: str
    b: str


BoardUp: TypeAlias = (
    ReadyRequest
    | BoardOpenRequest
    | BoardRunRequest
    | BoardStopRequest
    | BoardCompareRequest
    | LibrariesRequest
)
"""A message from a board to the kernel."""


class _BoardModelRequired(TypedDict):
    title: str
    saved: BoardSaved | None
    """The board as the saved notebook keeps it."""


class BoardModel(_BoardModelRequired, total=False):
    """Synced traits of RunBoard."""

    _instance: str
    """Unique to the model."""
    _styles: str
    """The board's style sheet, which the page puts in the shadow root the board is drawn in
    (a sheet given to anywidget as ``_css`` would go to the page's head instead)."""
    _libraries: str
    """As StreamView's: the libraries that render markdown and highlight code, set when the
    page asks for them (a run opened on the board) and when the board is saved with runs kept
    whole; empty until then."""
