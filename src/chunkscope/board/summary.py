"""A run of a board as one row: the figures its table shows and the marks of its strip.

``RowTracker`` keeps, for one run, the parts a row needs (steps, tool calls, notices) as the
fold creates them, so that summarising a run 20 times a second costs what is new plus what is
shown, not a walk over every part. Times on the wire are ms since the board started: a run's
own offsets are shifted by when it started, so every row's strip shares one axis.
"""

from __future__ import annotations

from typing import Any, cast

from ..fold.flow_parts import Notice
from ..fold.parts import StepPart, TextPart, ToolCall
from ..fold.state import RunState
from ..wire.schema import BOARD_MARKS_CAP, BOARD_TAIL_CHARS, BoardMark, BoardRow, BoardStatus

_TOOL_FAILED = frozenset({"error", "denied"})
"""Tool states a row counts as tool errors and draws in the error colour."""


class RowTracker:
    """What one run's row is made of, collected incrementally from its ``RunState``."""

    def __init__(self, run_id: str, label: str) -> None:
        self.run_id = run_id
        """The row's stable key ("r0", "r1", ...)."""
        self.label = label
        """What the user called the run."""
        self.started_ms: float | None = None
        """When the run started, in ms since the board started; None while queued."""
        self.status_override: str | None = None
        """``queued`` until the run starts (its state says ``waiting`` then, too)."""
        self._seen = 0
        self._steps: list[StepPart] = []
        self._tools: list[ToolCall] = []
        self._notices: list[Notice] = []

    def _scan(self, state: RunState) -> None:
        parts = state.parts
        for part in parts[self._seen :]:
            if part.parent is not None:
                continue  # a nested run's steps and tools belong to its own card
            if isinstance(part, StepPart):
                self._steps.append(part)
            elif isinstance(part, ToolCall):
                self._tools.append(part)
            elif isinstance(part, Notice) and part.notice in ("tripwire", "error"):
                self._notices.append(part)
        self._seen = len(parts)

    def row(self, state: RunState) -> BoardRow:
        """The row as of now (the caller holds the run's lock)."""
        self._scan(state)
        started = self.started_ms
        tripwire = state.tripwire
        tokens = _usage_counts(state, self._steps)
        marks, left = _marks(self, started or 0.0)
        return {
            "id": self.run_id,
            "label": self.label,
            "status": cast("BoardStatus", self.status_override or state.status),
            "startedMs": started,
            "elapsedMs": None if started is None else state.elapsed_ms,
            "ttftMs": state.ttft_ms,
            "inputTokens": tokens["inputTokens"],
            "outputTokens": tokens["outputTokens"],
            "totalTokens": tokens["totalTokens"],
            "steps": len(self._steps),
            "toolCalls": len(self._tools),
            "toolErrors": sum(1 for tool in self._tools if tool.state in _TOOL_FAILED),
            "chunks": state.chunk_count,
            "finishReason": state.finish_reason,
            "tripwire": None if tripwire is None else _tripwire_reason(tripwire),
            "error": state.run_info()["error"],
            "tail": tail(state),
            "marks": marks,
            "marksLeft": left,
        }


def tail(state: RunState, size: int = BOARD_TAIL_CHARS) -> str:
    """The last ``size`` characters of the run's top-level text, on one line."""
    pieces: list[str] = []
    have = 0
    for part in reversed(state.parts):
        if isinstance(part, TextPart) and part.parent is None:
            piece = part.ending(size - have)
            pieces.append(piece)
            have += len(piece)
            if have >= size:
                break
    return " ".join("".join(reversed(pieces)).split())


def _marks(tracker: RowTracker, shift: float) -> tuple[list[BoardMark], int]:
    marks: list[BoardMark] = [_mark("step", step.t0, step.t1, shift) for step in tracker._steps]
    marks += [
        _mark("tool-error" if tool.state in _TOOL_FAILED else "tool", tool.t0, tool.t1, shift)
        for tool in tracker._tools
    ]
    marks += [
        _mark("tripwire" if notice.notice == "tripwire" else "error", notice.t0, None, shift)
        for notice in tracker._notices
    ]
    marks.sort(key=lambda mark: mark["t"])
    left = 0
    if len(marks) > BOARD_MARKS_CAP:
        head = BOARD_MARKS_CAP // 2
        left = len(marks) - BOARD_MARKS_CAP
        marks = marks[:head] + marks[len(marks) - (BOARD_MARKS_CAP - head) :]
    return marks, left


def _mark(kind: str, t0: float, t1: float | None, shift: float) -> BoardMark:
    return {
        "kind": kind,  # type: ignore[typeddict-item]
        "t": round(shift + t0, 1),
        "end": None if t1 is None else round(shift + t1, 1),
    }


def _usage_counts(state: RunState, steps: list[StepPart]) -> dict[str, int | None]:
    """The run's token counts: its total once it has one, else the sum of its finished steps
    (a live row counts tokens as each step finishes)."""
    usages = [state.usage] if state.usage is not None else [s.usage for s in steps]
    counts: dict[str, int | None] = {}
    for name, key in _TOKEN_FIELDS:
        values = [getattr(u, name, None) for u in usages if u is not None]
        numbers = [
            int(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)
        ]
        counts[key] = sum(numbers) if numbers else None
    return counts


_TOKEN_FIELDS = (
    ("input_tokens", "inputTokens"),
    ("output_tokens", "outputTokens"),
    ("total_tokens", "totalTokens"),
)


def _tripwire_reason(tripwire: dict[str, Any]) -> str:
    reason = tripwire.get("reason")
    return reason if isinstance(reason, str) and reason else "content blocked"
