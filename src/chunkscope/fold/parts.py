"""The parts a run is made of, as RunState builds them.

A part is one thing a viewer draws: a text block, a tool call with its lifecycle, a source, a
workflow step, a notice. Parts are flat (nesting is the ``parent`` id) so that the front end
can patch any of them by id; ``to_wire()`` gives the camelCase shape of ``docs/wire.md``.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

from pydantic import BaseModel, ConfigDict, Field

from ..wire.schema import (
    MARK_INTERVAL_MS,
    BackgroundTaskWire,
    DataPartWire,
    FilePartWire,
    NestedRunWire,
    NetworkEventWire,
    NoticeWire,
    ObjectPartWire,
    OutputPartWire,
    PartWire,
    ReasoningPartWire,
    SourcePartWire,
    StepPartWire,
    TextPartWire,
    ToolCallWire,
    WorkflowRunWire,
    WorkflowStepWire,
)


class Usage(BaseModel):
    """Token usage in Mastra's shape (``LanguageModelV2Usage``); unknown keys are kept."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    input_tokens: int | None = Field(None, alias="inputTokens")
    """Tokens in the prompt."""
    output_tokens: int | None = Field(None, alias="outputTokens")
    """Tokens the model produced."""
    total_tokens: int | None = Field(None, alias="totalTokens")
    """Input plus output, as the provider reports it."""
    reasoning_tokens: int | None = Field(None, alias="reasoningTokens")
    """Tokens spent on reasoning, when the provider reports them."""
    cached_input_tokens: int | None = Field(None, alias="cachedInputTokens")
    """Prompt tokens served from the provider's cache."""

    def wire(self) -> dict[str, Any]:
        """The usage as Mastra's JSON (aliases, no unset keys)."""
        return self.model_dump(by_alias=True, exclude_none=True, mode="json")

    def __add__(self, other: Usage) -> Usage:
        """Counts summed; other keys (Mastra's ``raw``) are the later usage's, as Mastra does."""
        summed: dict[str, Any] = dict(self.model_extra or {})
        summed.update(other.model_extra or {})
        for name in _USAGE_COUNTS:
            a, b = getattr(self, name), getattr(other, name)
            summed[name] = None if a is None and b is None else (a or 0) + (b or 0)
        return Usage(**summed)


_USAGE_COUNTS = (
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "reasoning_tokens",
    "cached_input_tokens",
)


def usage_from(value: Any) -> Usage | None:
    """Read a usage object from a payload value; anything that does not fit gives None."""
    if not isinstance(value, dict):
        return None
    try:
        return Usage.model_validate(value)
    except ValueError:
        return None


class Part:
    """Common ground of every part: identity, nesting, and when it began and ended."""

    kind: ClassVar[str] = "part"
    wire_fields: ClassVar[tuple[tuple[str, str], ...]] = ()
    """(attribute, wire name) pairs of the kind's own fields."""
    histories: ClassVar[frozenset[str]] = frozenset({"marks", "states"})
    """Attributes holding lists of ``[t, value]`` pairs that the fold keeps growing (and whose
    last pair it may rewrite): the wire gets a copy, as an op may be sent after later chunks
    changed the part."""

    __slots__ = ("chunk", "id", "parent", "step", "t0", "t1")

    def __init__(self, id: str, parent: str | None, step: str | None, t0: float, chunk: int):
        self.id = id
        """Unique within the run state ("p0", "p1", ...)."""
        self.parent = parent
        """The part this one is nested under (a tool call, a workflow step, a nested run)."""
        self.step = step
        """The enclosing step part, when there is one."""
        self.t0 = t0
        """Arrival offset (ms) of the chunk that created the part."""
        self.t1: float | None = None
        """Arrival offset (ms) at which the part ended; None while it is open."""
        self.chunk = chunk
        """Index of the chunk that created the part."""

    def to_wire(self) -> PartWire:
        """The part as ``docs/wire.md`` describes it: the ``…Wire`` TypedDict of
        ``chunkscope.wire.schema`` named after its class."""
        return cast("PartWire", self._wire())

    def _wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "parent": self.parent,
            "step": self.step,
            "t0": self.t0,
            "t1": self.t1,
            "chunk": self.chunk,
        }
        for attr, name in self.wire_fields:
            value = getattr(self, attr)
            if attr in self.histories:
                value = [list(pair) for pair in value]
            out[name] = value.wire() if isinstance(value, Usage) else value
        return out

    def __repr__(self) -> str:
        return f"{type(self).__name__}(id={self.id!r})"


class _Growing(Part):
    """A part whose text arrives in deltas: kept in a list buffer, joined on demand."""

    __slots__ = ("_buf", "_joined", "_length", "marks")

    def __init__(self, id: str, parent: str | None, step: str | None, t0: float, chunk: int):
        super().__init__(id, parent, step, t0, chunk)
        self._buf: list[str] = []
        self._joined = ""
        self._length = 0
        self.marks: list[list[float]] = []
        """(offset ms, text length) pairs, at most one per 33 ms of stream time."""

    def append(self, delta: str, t: float) -> None:
        self._buf.append(delta)
        self._length += len(delta)
        marks = self.marks
        if marks and t - marks[-1][0] < MARK_INTERVAL_MS:
            marks[-1][1] = self._length
        else:
            marks.append([t, self._length])

    @property
    def text(self) -> str:
        """Everything appended so far."""
        if self._buf:
            self._joined += "".join(self._buf)
            self._buf.clear()
        return self._joined


class TextPart(_Growing):
    """A block of answer text (``text-start`` … ``text-end``)."""

    kind = "text"
    wire_fields = (("text", "text"), ("marks", "marks"))
    __slots__ = ("text_id",)

    def to_wire(self) -> TextPartWire:
        return cast("TextPartWire", self._wire())

    def __init__(self, id: str, parent: str | None, step: str | None, t0: float, chunk: int):
        super().__init__(id, parent, step, t0, chunk)
        self.text_id: str | None = None
        """The stream's own id of this text block (``payload.id``)."""


class ReasoningPart(_Growing):
    """A block of reasoning (``reasoning-start`` … ``reasoning-end``), possibly redacted."""

    kind = "reasoning"
    wire_fields = (
        ("text", "text"),
        ("marks", "marks"),
        ("redacted", "redacted"),
        ("signature", "signature"),
    )
    __slots__ = ("reasoning_id", "redacted", "signature")

    def to_wire(self) -> ReasoningPartWire:
        return cast("ReasoningPartWire", self._wire())

    def __init__(self, id: str, parent: str | None, step: str | None, t0: float, chunk: int):
        super().__init__(id, parent, step, t0, chunk)
        self.reasoning_id: str | None = None
        """The stream's own id of this reasoning block."""
        self.redacted = False
        """True for ``redacted-reasoning``: the provider withheld the content."""
        self.signature: str | None = None
        """The provider's reasoning signature, when given."""

    @property
    def duration_ms(self) -> float | None:
        """How long the reasoning streamed, once it ended."""
        return None if self.t1 is None else self.t1 - self.t0


class _Stateful(Part):
    """A part that moves through named states; each change is kept with its offset."""

    __slots__ = ("state", "states")

    def __init__(
        self, id: str, parent: str | None, step: str | None, t0: float, chunk: int, state: str
    ):
        super().__init__(id, parent, step, t0, chunk)
        self.state = state
        """The current state."""
        self.states: list[list[Any]] = [[t0, state]]
        """Every (offset ms, state) change, in order."""

    def move(self, state: str, t: float) -> bool:
        if state == self.state:
            return False
        self.state = state
        self.states.append([t, state])
        return True


class ToolCall(_Stateful):
    """A tool call with its whole lifecycle: input streaming, call, outputs, outcome."""

    kind = "tool"
    wire_fields = (
        ("tool_call_id", "toolCallId"),
        ("tool_name", "toolName"),
        ("state", "state"),
        ("states", "states"),
        ("args_text", "argsText"),
        ("args", "args"),
        ("result", "result"),
        ("error", "error"),
        ("provider_executed", "providerExecuted"),
        ("suspend_payload", "suspendPayload"),
        ("approval", "approval"),
    )
    __slots__ = (
        "_args_buf",
        "approval",
        "args",
        "error",
        "has_result",
        "provider_executed",
        "result",
        "suspend_payload",
        "tool_call_id",
        "tool_name",
    )

    def to_wire(self) -> ToolCallWire:
        return cast("ToolCallWire", self._wire())

    def __init__(
        self,
        id: str,
        parent: str | None,
        step: str | None,
        t0: float,
        chunk: int,
        state: str,
        tool_call_id: str,
        tool_name: str,
    ):
        super().__init__(id, parent, step, t0, chunk, state)
        self.tool_call_id = tool_call_id
        """Mastra's ``toolCallId``."""
        self.tool_name = tool_name
        """Name of the tool."""
        self._args_buf: list[str] = []
        self.args: Any = None
        """The arguments: the final ones once called, or the partial parse while streaming."""
        self.result: Any = None
        """What the tool returned (``tool-result``)."""
        self.has_result = False
        """True once a ``tool-result`` arrived (a result may legitimately be None)."""
        self.error: Any = None
        """The error of a ``tool-error`` (or of a result flagged ``isError``)."""
        self.provider_executed: bool | None = None
        """True when the provider ran the tool itself."""
        self.suspend_payload: Any = None
        """What the tool passed to ``suspend()``."""
        self.approval: Any = None
        """The approval request (``tool-call-approval`` payload)."""

    @property
    def args_text(self) -> str:
        """The raw argument text streamed so far (``argsTextDelta`` concatenated)."""
        if len(self._args_buf) > 1:
            self._args_buf[:] = ["".join(self._args_buf)]
        return self._args_buf[0] if self._args_buf else ""

    def append_args(self, delta: str) -> None:
        self._args_buf.append(delta)


class OutputPart(Part):
    """A ``tool-output`` or ``workflow-step-output`` write that is not itself a chunk."""

    kind = "output"
    wire_fields = (("data", "data"), ("from_", "from"))
    __slots__ = ("data", "from_")

    def to_wire(self) -> OutputPartWire:
        return cast("OutputPartWire", self._wire())

    def __init__(
        self,
        id: str,
        parent: str | None,
        step: str | None,
        t0: float,
        chunk: int,
        data: Any,
        from_: str | None,
    ):
        super().__init__(id, parent, step, t0, chunk)
        self.data = data
        """What was written."""
        self.from_ = from_
        """Who wrote it (``USER`` for ``writer.write()``)."""


class SourcePart(Part):
    """A cited source (``source``)."""

    kind = "source"
    wire_fields = (
        ("source_type", "sourceType"),
        ("title", "title"),
        ("url", "url"),
        ("mime_type", "mimeType"),
        ("filename", "filename"),
    )
    __slots__ = ("filename", "mime_type", "source_type", "title", "url")

    def to_wire(self) -> SourcePartWire:
        return cast("SourcePartWire", self._wire())

    def __init__(self, id: str, parent: str | None, step: str | None, t0: float, chunk: int):
        super().__init__(id, parent, step, t0, chunk)
        self.source_type: str | None = None
        """``url`` or ``document``."""
        self.title: str | None = None
        """Title of the source."""
        self.url: str | None = None
        """Where it lives, for url sources."""
        self.mime_type: str | None = None
        """MIME type, for document sources."""
        self.filename: str | None = None
        """File name, for document sources."""


class FilePart(Part):
    """A file the model produced (``file``, ``reasoning-file``)."""

    kind = "file"
    wire_fields = (("mime_type", "mimeType"), ("data", "data"), ("filename", "filename"))
    __slots__ = ("data", "filename", "mime_type")

    def to_wire(self) -> FilePartWire:
        return cast("FilePartWire", self._wire())

    def __init__(self, id: str, parent: str | None, step: str | None, t0: float, chunk: int):
        super().__init__(id, parent, step, t0, chunk)
        self.mime_type: str | None = None
        """MIME type of the file."""
        self.data: Any = None
        """Base64 (or text) content."""
        self.filename: str | None = None
        """File name, when given."""


class ObjectPart(Part):
    """Structured output: partial while ``object`` chunks stream, final on ``object-result``."""

    kind = "object"
    wire_fields = (("object", "object"), ("final", "final"))
    __slots__ = ("final", "object")

    def to_wire(self) -> ObjectPartWire:
        return cast("ObjectPartWire", self._wire())

    def __init__(self, id: str, parent: str | None, step: str | None, t0: float, chunk: int):
        super().__init__(id, parent, step, t0, chunk)
        self.object: Any = None
        """The latest (partial or final) object."""
        self.final = False
        """True once ``object-result`` arrived."""


class DataPart(Part):
    """A persisted ``data-*`` part, reconciled in place by type and id."""

    kind = "data"
    wire_fields = (("data_type", "dataType"), ("data_id", "dataId"), ("data", "data"))
    __slots__ = ("data", "data_id", "data_type")

    def to_wire(self) -> DataPartWire:
        return cast("DataPartWire", self._wire())

    def __init__(
        self,
        id: str,
        parent: str | None,
        step: str | None,
        t0: float,
        chunk: int,
        data_type: str,
        data_id: str | None,
    ):
        super().__init__(id, parent, step, t0, chunk)
        self.data_type = data_type
        """The chunk type, ``data-…``."""
        self.data_id = data_id
        """The chunk's ``id``; a later chunk with the same type and id replaces the data."""
        self.data: Any = None
        """The latest data."""


class StepPart(Part):
    """One model step (``step-start`` … ``step-finish``)."""

    kind = "step"
    wire_fields = (
        ("index", "index"),
        ("finish_reason", "finishReason"),
        ("usage", "usage"),
        ("warnings", "warnings"),
    )
    __slots__ = ("finish_reason", "index", "usage", "warnings")

    def to_wire(self) -> StepPartWire:
        return cast("StepPartWire", self._wire())

    def __init__(
        self, id: str, parent: str | None, step: str | None, t0: float, chunk: int, index: int
    ):
        super().__init__(id, parent, step, t0, chunk)
        self.index = index
        """Position of the step within its run, from 0."""
        self.finish_reason: str | None = None
        """Why the step ended (``stepResult.reason``)."""
        self.usage: Usage | None = None
        """Tokens the step used."""
        self.warnings: Any = None
        """Warnings the model call reported."""


class NestedRun(Part):
    """A run inside another: a sub-agent, a workflow used as a tool, an agent workflow step."""

    kind = "run"
    wire_fields = (
        ("run_id", "runId"),
        ("label", "label"),
        ("status", "status"),
        ("finish_reason", "finishReason"),
        ("usage", "usage"),
    )
    __slots__ = ("finish_reason", "label", "run_id", "status", "usage")

    def to_wire(self) -> NestedRunWire:
        return cast("NestedRunWire", self._wire())

    def __init__(
        self,
        id: str,
        parent: str | None,
        step: str | None,
        t0: float,
        chunk: int,
        run_id: str | None,
        label: str,
    ):
        super().__init__(id, parent, step, t0, chunk)
        self.run_id = run_id
        """The nested run's ``runId``."""
        self.label = label
        """What it is (the tool or step that ran it)."""
        self.status = "running"
        """Its own status, with the same values as the run's."""
        self.finish_reason: str | None = None
        """Its finish reason."""
        self.usage: Usage | None = None
        """Its usage."""


class BackgroundTask(_Stateful):
    """A tool call delegated to a background task (``background-task-*``)."""

    kind = "background"
    wire_fields = (
        ("task_id", "taskId"),
        ("tool_name", "toolName"),
        ("tool_call_id", "toolCallId"),
        ("state", "state"),
        ("states", "states"),
        ("progress", "progress"),
        ("result", "result"),
        ("error", "error"),
    )
    __slots__ = ("error", "progress", "result", "task_id", "tool_call_id", "tool_name")

    def to_wire(self) -> BackgroundTaskWire:
        return cast("BackgroundTaskWire", self._wire())

    def __init__(
        self,
        id: str,
        parent: str | None,
        step: str | None,
        t0: float,
        chunk: int,
        state: str,
        task_id: str,
    ):
        super().__init__(id, parent, step, t0, chunk, state)
        self.task_id = task_id
        """Mastra's ``taskId``."""
        self.tool_name: str | None = None
        """The tool it runs."""
        self.tool_call_id: str | None = None
        """The tool call it came from."""
        self.progress: Any = None
        """The latest progress report."""
        self.result: Any = None
        """The task's result once completed."""
        self.error: Any = None
        """The task's error once failed."""


class WorkflowRun(Part):
    """A workflow run (``workflow-start`` … ``workflow-finish``)."""

    kind = "workflow"
    wire_fields = (
        ("run_id", "runId"),
        ("workflow_id", "workflowId"),
        ("status", "status"),
        ("result", "result"),
    )
    __slots__ = ("result", "run_id", "status", "workflow_id")

    def to_wire(self) -> WorkflowRunWire:
        return cast("WorkflowRunWire", self._wire())

    def __init__(
        self,
        id: str,
        parent: str | None,
        step: str | None,
        t0: float,
        chunk: int,
        run_id: str | None,
        workflow_id: str | None,
    ):
        super().__init__(id, parent, step, t0, chunk)
        self.run_id = run_id
        """The workflow's ``runId``."""
        self.workflow_id = workflow_id
        """The workflow's id, when the stream names it."""
        self.status = "running"
        """``running`` until ``workflow-finish`` gives ``workflowStatus``."""
        self.result: Any = None
        """The final result or output of the workflow."""


class WorkflowStep(_Stateful):
    """One workflow step; nested steps have dotted ids (``inner-wf.inner-step``)."""

    kind = "wstep"
    wire_fields = (
        ("step_id", "stepId"),
        ("state", "status"),
        ("states", "states"),
        ("input", "input"),
        ("output", "output"),
        ("error", "error"),
        ("progress", "progress"),
    )
    __slots__ = ("error", "input", "output", "progress", "step_id")

    def to_wire(self) -> WorkflowStepWire:
        return cast("WorkflowStepWire", self._wire())

    def __init__(
        self,
        id: str,
        parent: str | None,
        step: str | None,
        t0: float,
        chunk: int,
        state: str,
        step_id: str,
    ):
        super().__init__(id, parent, step, t0, chunk, state)
        self.step_id = step_id
        """The step's id."""
        self.input: Any = None
        """What the step was given."""
        self.output: Any = None
        """What it returned."""
        self.error: Any = None
        """Why it failed."""
        self.progress: Any = None
        """The latest ``workflow-step-progress`` (foreach) payload."""

    @property
    def status(self) -> str:
        """The step's status (running, waiting, suspended, success, failed, ...)."""
        return self.state


class NetworkEvent(Part):
    """An agent-network routing or execution event."""

    kind = "network"
    wire_fields = (("event", "event"), ("label", "label"), ("payload", "payload"))
    __slots__ = ("event", "label", "payload")

    def to_wire(self) -> NetworkEventWire:
        return cast("NetworkEventWire", self._wire())

    def __init__(
        self,
        id: str,
        parent: str | None,
        step: str | None,
        t0: float,
        chunk: int,
        event: str,
        label: str,
        payload: Any,
    ):
        super().__init__(id, parent, step, t0, chunk)
        self.event = event
        """The chunk type."""
        self.label = label
        """A short human label (the agent, tool or workflow concerned)."""
        self.payload = payload
        """The chunk's payload."""


class Notice(Part):
    """Something a reader must see: an error, an abort, a tripwire, a goal, a bad chunk."""

    kind = "notice"
    wire_fields = (
        ("level", "level"),
        ("notice", "notice"),
        ("message", "message"),
        ("detail", "detail"),
    )
    __slots__ = ("detail", "level", "message", "notice")

    def to_wire(self) -> NoticeWire:
        return cast("NoticeWire", self._wire())

    def __init__(
        self,
        id: str,
        parent: str | None,
        step: str | None,
        t0: float,
        chunk: int,
        level: str,
        notice: str,
        message: str,
        detail: Any,
    ):
        super().__init__(id, parent, step, t0, chunk)
        self.level = level
        """``error``, ``warning`` or ``info``."""
        self.notice = notice
        """error, abort, tripwire, goal, unknown, invalid or warning."""
        self.message = message
        """One line saying what happened, and where."""
        self.detail = detail
        """The payload or raw input behind it."""
