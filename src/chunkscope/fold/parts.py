"""The parts a run is made of, as RunState builds them.

A part is one thing a viewer draws: a text block, a tool call with its lifecycle, a source, a
workflow step, a notice. Parts are flat (nesting is the ``parent`` id) so that the front end
can patch any of them by id; ``to_wire()`` gives the camelCase shape of ``docs/wire.md``.
"""

from __future__ import annotations

from typing import Any, cast

from ..wire.schema import (
    DataPartWire,
    FilePartWire,
    ObjectPartWire,
    OutputPartWire,
    ReasoningPartWire,
    SourcePartWire,
    StepPartWire,
    TextPartWire,
    ToolCallWire,
)
from .flow_parts import BackgroundTask, NestedRun, NetworkEvent, Notice, WorkflowRun, WorkflowStep
from .part_base import Part, Usage, _Growing, _Stateful, usage_from

__all__ = [
    "BackgroundTask",
    "DataPart",
    "FilePart",
    "NestedRun",
    "NetworkEvent",
    "Notice",
    "ObjectPart",
    "OutputPart",
    "Part",
    "ReasoningPart",
    "SourcePart",
    "StepPart",
    "TextPart",
    "ToolCall",
    "Usage",
    "WorkflowRun",
    "WorkflowStep",
    "usage_from",
]


class TextPart(_Growing):
    """A block of answer text (``text-start`` … ``text-end``)."""

    kind = "text"
    wire_fields = (("text", "text"), ("marks", "marks"))
    __slots__ = ("text_id",)

    def to_wire(self) -> TextPartWire:
        """The text block as its wire record (``TextPartWire``): the text so far and its growth
        marks."""
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
        """The reasoning block as its wire record (``ReasoningPartWire``): text, growth marks,
        whether it was redacted, and its signature."""
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
        """The call as its wire record (``ToolCallWire``): the state history, the argument text
        and parse, and the result or error."""
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
        """Add a streamed piece of the argument text (joined when :attr:`args_text` is read)."""
        self._args_buf.append(delta)


class OutputPart(Part):
    """A ``tool-output`` or ``workflow-step-output`` write that is not itself a chunk."""

    kind = "output"
    wire_fields = (("data", "data"), ("from_", "from"))
    __slots__ = ("data", "from_")

    def to_wire(self) -> OutputPartWire:
        """The write as its wire record (``OutputPartWire``), the writer under ``from``."""
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
        """The source as its wire record (``SourcePartWire``): type, title, and the URL or the
        document's MIME type and file name."""
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
        """The file as its wire record (``FilePartWire``): MIME type, content and file name."""
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
        """The object as its wire record (``ObjectPartWire``): the latest value and whether it is
        final."""
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
        """The data part as its wire record (``DataPartWire``), keyed by ``dataType`` and
        ``dataId``."""
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
        """The step as its wire record (``StepPartWire``): index, finish reason, usage in Mastra's
        shape, and warnings."""
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
