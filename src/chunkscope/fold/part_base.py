"""The base of every part: its identity, time span and wire shape; growing and stateful parts.

``chunkscope.fold.parts`` builds the concrete parts on these; ``Usage`` is the token count a
step, a run or a nested run reports.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

from pydantic import BaseModel, ConfigDict, Field

from ..wire.schema import MARK_INTERVAL_MS, PartWire


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

    def ending(self, size: int) -> str:
        """The last ``size`` characters appended (all of them when there are fewer), read
        without joining the whole text: joining copies it, and a board reads the end of every
        run's text many times a second while the runs grow."""
        if size <= 0:
            return ""
        pieces: list[str] = []
        have = 0
        for piece in reversed(self._buf):
            pieces.append(piece)
            have += len(piece)
            if have >= size:
                break
        else:
            pieces.append(self._joined[-(size - have) :])
        return "".join(reversed(pieces))[-size:]


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
