"""RunState: the pure accumulator that folds Mastra chunks into what a run resolved to.

``RunState.handle(chunk, t)`` folds one chunk and returns the ops (``docs/wire.md``) that
describe what changed; a viewer applies those ops, a test reads the state. The state knows
nothing about Jupyter. Its public values follow what Mastra's output object resolves to:
``text`` is the last step's text, ``usage`` is summed over steps, ``finish_reason`` is the
last step's reason.

The fold never raises on data: impossible orders (a delta with no start, a result for an
unknown call, a second ``start`` mid-run, chunks after ``finish``) become warnings and the
fold carries on; broken chunks become error notices that keep the raw input. The handlers of
each chunk family live in their own module (``dispatch`` says which folds what); the
inspector's rows are made on demand (``rows``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, get_args

from ..chunks.models import (
    CHUNK_CLASSES,
    BaseChunk,
    Chunk,
    is_transient,
    parse_chunk,
    parse_chunk_shaped,
)
from ..wire.safejson import clip_for_wire
from ..wire.schema import RunStatus
from .context import INTERNAL_FAILURE, TERMINAL, Fold, Op, RunValues, message_of
from .dispatch import fold_chunk, fold_nested
from .lane import LANE_TYPES, Lane, fold_delta
from .parts import (
    Notice,
    Part,
    Usage,
)
from .presenter import presenter
from .rows import MERGED_ROW_TEXT, ROW_JSON_LIMIT, ROW_MERGE_MS, Rows
from .tools import ARGS_REPARSE_MS
from .values import RunViews

__all__ = [
    "ARGS_REPARSE_MS",
    "INTERNAL_FAILURE",
    "MERGED_ROW_TEXT",
    "ROW_JSON_LIMIT",
    "ROW_MERGE_MS",
    "RUN_STATUSES",
    "STRICT_ENV",
    "Op",
    "RunState",
]

P = TypeVar("P", bound=Part)

RUN_STATUSES: tuple[str, ...] = get_args(RunStatus)
"""Every status a run can have, as the wire schema declares them."""

STRICT_ENV = "CHUNKSCOPE_STRICT_FOLD"
"""Set to 1 to make every RunState made without ``strict=`` fold strictly (test suites)."""


_HELD = frozenset({"awaiting-approval", "suspended", "tripwire"})
"""Statuses a Mastra agent stream can end in without a ``finish`` chunk."""


def _strict_default() -> bool:
    return os.environ.get(STRICT_ENV, "") not in ("", "0")


class RunState(RunValues, RunViews):
    """Everything a run said so far, folded chunk by chunk.

    >>> state = RunState()
    >>> _ = state.handle({"type": "text-start", "runId": "r", "from": "AGENT",
    ...                   "payload": {"id": "t"}})
    >>> _ = state.handle({"type": "text-delta", "runId": "r", "from": "AGENT",
    ...                   "payload": {"id": "t", "text": "Hi"}})
    >>> state.text
    'Hi'
    """

    def __init__(
        self,
        title: str = "",
        *,
        clock: Callable[[], float] | None = None,
        strict: bool | None = None,
    ) -> None:
        super().__init__(title)
        self.strict = _strict_default() if strict is None else strict
        """When True, an exception raised while folding a chunk propagates instead of becoming
        an error notice (a chunkscope bug must not pass for bad data). Defaults to the
        ``CHUNKSCOPE_STRICT_FOLD`` environment variable, else False."""
        self._fold = Fold(self, fold_nested, clock)
        self._rows = Rows()
        self._lane: Lane | None = None
        self._t_origin: float | None = None

    # ----------------------------------------------------------------- public values

    @property
    def rows(self) -> list[dict[str, Any]]:
        """Inspector rows (``docs/wire.md`` ChunkRow) for every persisted chunk, made now if
        nothing asked for them before."""
        return self._rows.all()

    @property
    def row_count(self) -> int:
        """How many inspector rows there are (made or not yet made)."""
        return len(self._rows)

    @property
    def wire_ops(self) -> bool:
        """Whether ``handle`` returns the ops a page applies (on by default); ``accumulate``
        turns it off, so a run folded for its values alone builds no wire records."""
        return self._fold.wire

    @wire_ops.setter
    def wire_ops(self, on: bool) -> None:
        self._fold.wire = on

    @property
    def row_ops(self) -> bool:
        """Whether ``handle`` and ``close`` return ``rows`` ops (a page shows the inspector);
        off by default, so that a fold nobody inspects does not build rows."""
        return self._rows.emit

    @row_ops.setter
    def row_ops(self, on: bool) -> None:
        self._rows.emit = on
        self._lane = None  # deltas now make row ops: the lane takes them no more

    # ----------------------------------------------------------------- folding

    def now(self) -> float:
        """Milliseconds since the first chunk, by the state's clock."""
        now = self._fold.clock()
        if self._t_origin is None:
            self._t_origin = now
        return (now - self._t_origin) * 1000.0

    def handle(
        self, chunk: Any, t: float | None = None, *, where: str | int | None = None
    ) -> list[Op]:
        """Fold one chunk in; return the ops that describe what changed.

        ``chunk`` is a chunk model, a dict, JSON text or bytes. ``t`` is its arrival offset in
        milliseconds (the consumer stamps it; by default the state's own clock). ``where``
        says where the chunk came from (``line 12``) for error messages; a number is the
        chunk's position in its source, told as ``chunk 12`` (only when a message needs it).
        """
        if t is None:
            t = self.now()
        if chunk.__class__ is dict:
            kind = chunk.get("type")
            if kind in LANE_TYPES:
                fast = fold_delta(self, chunk, kind, t)
                if fast is not None:
                    return fast
        self._lane = None
        cx = self._fold
        if isinstance(where, int):
            where = f"chunk {where}"
        cx.where = where
        index = self.chunk_count
        self.chunk_count += 1
        self.elapsed_ms = max(self.elapsed_ms, t)
        parsed, plain = parse_chunk_shaped(chunk)
        if not plain:
            parsed = _as_model(parsed)
        type_ = parsed.type
        if is_transient(parsed):
            cx.transient_item(parsed, t, index)
        else:
            try:
                part = fold_chunk(cx, parsed, t, index, where)
            except Exception as exc:
                if self.strict:
                    raise
                # the fold never raises on data: say what broke, go on
                message = f"{INTERNAL_FAILURE} this '{type_}' chunk: {exc!r}"
                kind = type_ if type(type_) is str else None
                cx.problem(self.errors, message, where, t, kind, index)
                cx.notice(cx.root, "error", "invalid", f"chunk {index}: {message}", None, t, index)
            else:
                part_id = part.id if part else None
                self._rows.add(parsed, t, index, part_id, cx.ops, self._cut, plain=plain)
        ops, cx.ops = cx.ops, []
        return ops

    def grow(self, chunk: Any, t: float) -> str | None:
        """Fold a text or reasoning delta that continues the block of the delta before it,
        as ``handle`` would, but return its text as an ``append`` op would carry it instead
        of the op: a caller that merges neighbouring appends (the live channel) then builds
        one op per batch instead of one per delta. ``None``, with nothing changed, for any
        other chunk: give it to ``handle``. The first delta of a block always goes to
        ``handle``, which sets ``ttftMs`` when it is the run's first text."""
        lane = self._lane
        return None if lane is None else lane.take(chunk, t)

    @property
    def growing(self) -> Lane | None:
        """The block the last delta ``grow`` or ``handle`` took the lane into; a new object
        each time the lane is entered again, so a caller can tell one run of deltas from the
        next. Its ``take`` is ``grow`` for the deltas that continue it."""
        return self._lane

    def _cut(self, chunk: Chunk, t: float, index: int) -> None:
        """The chunk just folded nests too deeply for its row to show it whole: say so."""
        cx = self._fold
        message = f"'{chunk.type}' holds values nested too deeply to show in full (cut)"
        problem = cx.problem(self.errors, message, cx.where, t, chunk.type, index)
        cx.notice(cx.root, "error", "invalid", problem.describe(), None, t, index)

    def close(self, *, error: BaseException | None = None, stopped: bool = False) -> list[Op]:
        """Mark the stream ended: exhausted, failed with ``error``, or stopped by the user."""
        self._lane = None
        cx = self._fold
        t = self.elapsed_ms
        self._rows.close(cx.ops)
        if error is not None:
            message = f"the source raised {type(error).__name__}: {error}"
            self.error = error
            cx.problem(self.errors, message, None, t, "source")
            # An adapter reports the exception as an error chunk before re-raising it: one
            # failure is one row.
            last = self.parts[-1] if self.parts else None
            if not (
                isinstance(last, Notice) and last.notice == "error" and str(error) in last.message
            ):
                cx.notice(cx.root, "error", "error", message, None, t, self.chunk_count)
            cx.set_status("error")
        elif stopped and self.status not in TERMINAL:
            cx.notice(cx.root, "info", "abort", "stopped by the user", None, t, self.chunk_count)
            cx.set_status("aborted")
        elif self.status in ("running", "waiting") and self.chunk_count:
            cx.warn("the stream ended before a finish chunk", None, t, "end")
            cx.set_status("incomplete")
        if self.usage is None and self.workflow is None and self.status in _HELD:
            # The stream stopped at an approval, a suspension or a tripwire, with no finish:
            # Mastra's promises resolve to what they counted, nothing (`{}`), with totalUsage
            # adding `totalTokens` except after a tripwire.
            self.usage = Usage()
            self.total_usage = Usage() if self.status == "tripwire" else Usage(totalTokens=0)
            cx.run_op(usage=self.usage.wire())
        for part in self.parts:
            if part.t1 is None:
                part.t1 = t
        self.ended = True
        cx.run_op(ended=True, elapsedMs=t)
        ops, cx.ops = cx.ops, []
        return ops

    def snapshot(self, seq: int = 0, *, whole: bool = False, rows: bool = True) -> dict[str, Any]:
        """The whole state as the ``snapshot`` trait of ``docs/wire.md``: large fields as a
        preview (see ``chunkscope.wire.held``), or every value whole when ``whole`` (a page with no
        kernel to fetch the rest from). Without ``rows`` the inspector rows are left out, for a
        live page that has not asked for them."""
        parts = [clip_for_wire(p.to_wire()) for p in self.parts]
        if not whole:
            parts = [self.held.cut_part(p, reuse=True) for p in parts]
        snapshot: dict[str, Any] = {"v": 1, "seq": seq, "run": self.run_info(), "parts": parts}
        if rows:
            snapshot["rows"] = self.chunk_rows()
        return snapshot

    def chunk_rows(self) -> list[dict[str, Any]]:
        """Every inspector row so far (``docs/wire.md`` ChunkRow), the open one included."""
        self._rows.close(self._fold.ops)
        return self._rows.all()

    def run_info(self) -> dict[str, Any]:
        """The RunInfo record of ``docs/wire.md``."""
        return {
            "title": self.title,
            "status": self.status,
            "runId": self.run_id,
            "finishReason": self.finish_reason,
            "usage": None if self.usage is None else self.usage.wire(),
            "ttftMs": self.ttft_ms,
            "elapsedMs": self.elapsed_ms,
            "chunkCount": self.chunk_count,
            "outputTokens": None if self.usage is None else self.usage.output_tokens,
            "error": None if self.error is None else self._error_line(self.error),
            "ended": self.ended,
        }

    # ----------------------------------------------------------------- display

    def transcript(self) -> str:
        """The run as deterministic text: no ids, timestamps or durations (nbval-stable)."""
        return presenter().transcript_text(self)

    def static_html(self) -> str:
        """The run as static, sanitized HTML that needs no kernel and no JavaScript."""
        return presenter().transcript_html(self)

    def write_html(self, path: str | Path, *, title: str | None = None) -> Path:
        """Write the run as one self-contained, offline HTML page (transcript, timeline,
        inspector); see ``chunkscope.present.export.write_html``."""
        return presenter().write_html(self, path, title)

    def __repr__(self) -> str:
        return self.transcript()

    def _repr_html_(self) -> str:
        return self.static_html()

    @staticmethod
    def _error_line(error: Any) -> str:
        if isinstance(error, BaseException):
            return f"{type(error).__name__}: {error}"
        return message_of(error)


def _as_model(chunk: Chunk) -> Chunk:
    """A chunk of a known type as its own model class: a model built by hand with another
    class (``UnknownChunk(type="text-delta", ...)``) is parsed again from its JSON."""
    if isinstance(chunk, BaseChunk):
        cls = CHUNK_CLASSES.get(chunk.type)
        if cls is not None and not isinstance(chunk, cls):
            try:
                dumped = chunk.model_dump(by_alias=True, exclude_unset=True, mode="json")
            except (ValueError, RecursionError):
                return chunk
            return parse_chunk(dumped)
    return chunk
