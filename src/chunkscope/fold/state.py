"""RunState: the pure accumulator that folds Mastra chunks into what a run resolved to.

``RunState.handle(chunk, t)`` folds one chunk and returns the ops (``docs/wire.md``) that
describe what changed; a viewer applies those ops, a test reads the state. The state knows
nothing about Jupyter. Its public values follow what Mastra's output object resolves to:
``text`` is the last step's text, ``usage`` is summed over steps, ``finish_reason`` is the
last step's reason.

The fold never raises on data: impossible orders (a delta with no start, a result for an
unknown call, a second ``start`` mid-run, chunks after ``finish``) become warnings and the
fold carries on; broken chunks become error notices that keep the raw input.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import pydantic_core
from pydantic import BaseModel

from ..chunks.models import InvalidChunk, UnknownChunk, chunk_family, is_transient, parse_chunk
from ..wire.held import HeldValues
from ..wire.safejson import clip_for_wire, safe_text
from .parts import (
    BackgroundTask,
    DataPart,
    FilePart,
    NestedRun,
    NetworkEvent,
    Notice,
    ObjectPart,
    OutputPart,
    Part,
    ReasoningPart,
    SourcePart,
    StepPart,
    TextPart,
    ToolCall,
    Usage,
    WorkflowRun,
    WorkflowStep,
    usage_from,
)
from .problems import Problem

Op = dict[str, Any]
"""One wire op (``docs/wire.md``)."""

P = TypeVar("P", bound=Part)

ARGS_REPARSE_MS = 33.0
"""Streaming tool arguments are re-parsed as partial JSON at most once per this interval."""

ROW_MERGE_MS = 33.0
"""Consecutive deltas of one part within this window share one inspector row."""

ROW_JSON_LIMIT = 64 * 1024
"""Inspector rows keep at most about this many characters of a chunk's JSON."""

MERGED_ROW_TEXT = 2000
"""A row that stands for many deltas keeps this much of their text; the part has all of it,
so the saved notebook holds the text once, not twice."""

RUN_STATUSES = (
    "waiting",
    "running",
    "finished",
    "aborted",
    "error",
    "tripwire",
    "suspended",
    "awaiting-approval",
    "incomplete",
)

_CALL_OPENERS = frozenset({"tool-call", "tool-call-input-streaming-start"})
_DELTA_TYPES = frozenset({"text-delta", "reasoning-delta", "tool-call-delta"})
_TERMINAL = frozenset({"finished", "aborted", "error", "tripwire"})


def _field(obj: Any, snake: str, camel: str | None = None) -> Any:
    """Read a field from a pydantic model (snake_case) or a plain mapping (camelCase)."""
    if type(obj) is dict:
        return obj.get(camel or snake)
    value = getattr(obj, snake, _MISSING)
    if value is not _MISSING:
        return value
    if isinstance(obj, Mapping):
        return obj.get(camel or snake)
    # a field the model does not declare is kept under its wire (camelCase) name
    return getattr(obj, camel, None) if camel else None


_MISSING = object()


def _plain(value: Any) -> Any:
    """A JSON-ready value from a payload field that may be a pydantic model."""
    if hasattr(value, "model_dump"):
        return _dump(value)
    return value


def _dump(model: Any) -> Any:
    """A model as its JSON; one too deep for pydantic's serializer (255 levels) is cut to a
    safe depth from its Python form instead (``_TOO_DEEP`` marks that)."""
    try:
        return model.model_dump(by_alias=True, exclude_unset=True, mode="json")
    except (ValueError, RecursionError):
        return _TooDeep(clip_for_wire(_python_form(model)))


class _TooDeep(dict[str, Any]):
    """A dumped chunk that had to be cut because it nests too deeply."""


def _python_form(model: Any) -> Any:
    """A model's fields (and extras) as plain Python, without running its serializer."""
    if not isinstance(model, BaseModel):
        return model
    out: dict[str, Any] = {}
    for name, info in type(model).model_fields.items():
        if name in model.model_fields_set:
            out[info.alias or name] = _python_form(getattr(model, name))
    out.update({k: _python_form(v) for k, v in (model.model_extra or {}).items()})
    return out


def _message_of(error: Any) -> str:
    """One line for an error value that may be a string, a mapping or anything else."""
    error = _plain(error)
    if isinstance(error, str):
        return error
    if isinstance(error, Mapping):
        for key in ("message", "error", "reason"):
            value = error.get(key)
            if isinstance(value, str) and value:
                name = error.get("name")
                return f"{name}: {value}" if isinstance(name, str) and name else value
            if isinstance(value, Mapping):
                return _message_of(value)
    return "" if error is None else repr(error)[:500]


def _looks_like_chunk(value: Any) -> bool:
    """True for a value that is a whole nested chunk (a sub-agent's or a workflow's)."""
    return (
        isinstance(value, Mapping)
        and isinstance(value.get("type"), str)
        and ("payload" in value or "runId" in value or str(value["type"]).startswith("data-"))
    )


class _Run:
    """Fold context of one run: the top-level one or a nested one (sub-agent, workflow)."""

    def __init__(self, state: RunState, part: NestedRun | None, parent: str | None) -> None:
        self.state = state
        self.part = part
        self.parent = parent
        self.step: StepPart | None = None
        self.step_count = 0
        self.texts: dict[str, TextPart] = {}
        self.reasonings: dict[str, ReasoningPart] = {}
        self.text_parts_by_step: dict[str | None, list[TextPart]] = {}
        self.objects: ObjectPart | None = None
        self.workflow: WorkflowRun | None = None
        self.wsteps: dict[str, WorkflowStep] = {}
        self.finish_reason: str | None = None
        self.usage: Usage | None = None
        self.step_usage: Usage | None = None
        self.finished = False
        self.started = False
        self.reason_fixed = False
        """Set once an abort, tripwire or suspension decided the finish reason."""


class RunState:
    """Everything a run said so far, folded chunk by chunk.

    >>> state = RunState()
    >>> _ = state.handle({"type": "text-start", "runId": "r", "from": "AGENT",
    ...                   "payload": {"id": "t"}})
    >>> _ = state.handle({"type": "text-delta", "runId": "r", "from": "AGENT",
    ...                   "payload": {"id": "t", "text": "Hi"}})
    >>> state.text
    'Hi'
    """

    def __init__(self, title: str = "", *, clock: Callable[[], float] | None = None) -> None:
        self.title = title
        """A label for the run, shown by viewers."""
        self.run_id: str | None = None
        """``runId`` of the top-level run (from its first chunk that has one)."""
        self.status = "waiting"
        """One of waiting, running, finished, aborted, error, tripwire, suspended,
        awaiting-approval, incomplete (the stream ended with no terminal chunk)."""
        self.finish_reason: str | None = None
        """The last step's finish reason (``finish.payload.stepResult.reason``)."""
        self.usage: Usage | None = None
        """Usage summed over steps (``finish.payload.output.usage``)."""
        self.total_usage: Usage | None = None
        """Usage summed over every step of every run in the stream (``totalUsage``)."""
        self.error: Any = None
        """The run-level error (``error`` chunk payload), or the exception the source raised."""
        self.tripwire: dict[str, Any] | None = None
        """The tripwire payload (reason, retry, metadata, processorId) when one fired."""
        self.parts: list[Part] = []
        """Every part in creation order; nesting is by ``parent``."""
        self.errors: list[Problem] = []
        """Problems that cost data: invalid chunks, source failures."""
        self.warnings: list[Problem] = []
        """Impossible orders and unknown chunk types, none of which stopped the fold."""
        self.rows: list[dict[str, Any]] = []
        """Inspector rows (``docs/wire.md`` ChunkRow) for every persisted chunk."""
        self.transient: list[dict[str, Any]] = []
        """Transient ``data-*`` items seen live; never persisted."""
        self.chunk_count = 0
        """How many chunks were handled, transient ones included."""
        self.elapsed_ms = 0.0
        """Arrival offset of the last chunk."""
        self.ttft_ms: float | None = None
        """Offset of the first text or reasoning delta."""
        self.ended = False
        """True once ``close()`` was called: the source is exhausted, failed or stopped."""
        self.held = HeldValues()
        """Large part fields the wire carries as a preview, served whole on request."""

        self._clock = clock or time.monotonic
        self._t_origin: float | None = None
        self._ids = 0
        self._by_id: dict[str, Part] = {}
        self._root = _Run(self, None, None)
        self._nested: dict[tuple[str | None, str], _Run] = {}
        self._tools: dict[str, ToolCall] = {}
        self._tasks: dict[str, BackgroundTask] = {}
        self._data: dict[tuple[str, str], DataPart] = {}
        self._args_parsed_at: dict[str, float] = {}
        self._ops: list[Op] = []
        self._turn: _Run | None = None
        self._turns = 0
        self._routing_texts: dict[str, TextPart] = {}
        self._row: dict[str, Any] | None = None
        self._row_part: str | None = None
        self._row_text: list[str] = []
        self._row_chars = 0
        self._last_touched: Part | None = None
        self._where: str | None = None
        self._handlers: dict[str, Callable[[_Run, Any, float, int], None]] = {
            "start": self._on_start,
            "step-start": self._on_step_start,
            "step-finish": self._on_step_finish,
            "finish": self._on_finish,
            "text-start": self._on_text_start,
            "text-delta": self._on_text_delta,
            "text-end": self._on_text_end,
            "reasoning-start": self._on_reasoning_start,
            "reasoning-delta": self._on_reasoning_delta,
            "reasoning-end": self._on_reasoning_end,
            "reasoning-signature": self._on_reasoning_signature,
            "redacted-reasoning": self._on_redacted_reasoning,
            "reasoning-file": self._on_file,
            "file": self._on_file,
            "source": self._on_source,
            "tool-call-input-streaming-start": self._on_tool_input_start,
            "tool-call-delta": self._on_tool_delta,
            "tool-call-input-streaming-end": self._on_tool_input_end,
            "tool-call": self._on_tool_call,
            "tool-result": self._on_tool_result,
            "tool-error": self._on_tool_error,
            "tool-call-approval": self._on_tool_approval,
            "tool-call-suspended": self._on_tool_suspended,
            "tool-output-denied": self._on_tool_denied,
            "tool-output": self._on_tool_output,
            "step-output": self._on_step_output,
            "error": self._on_error,
            "abort": self._on_abort,
            "tripwire": self._on_tripwire,
            "goal": self._on_goal,
            "object": self._on_object,
            "object-result": self._on_object,
            "custom": self._on_custom,
            "is-task-complete": self._on_task_complete,
            "workflow-start": self._on_workflow_start,
            "workflow-finish": self._on_workflow_finish,
            "workflow-canceled": self._on_workflow_end_status,
            "workflow-paused": self._on_workflow_end_status,
            "workflow-step-start": self._on_wstep,
            "workflow-step-finish": self._on_wstep,
            "workflow-step-suspended": self._on_wstep,
            "workflow-step-waiting": self._on_wstep,
            "workflow-step-result": self._on_wstep,
            "workflow-step-progress": self._on_wstep_progress,
            "workflow-step-output": self._on_step_output,
        }

    # ----------------------------------------------------------------- public values

    @property
    def text(self) -> str:
        """The last step's answer text, as Mastra's ``stream.text`` resolves it."""
        root = self._root
        key = root.step.id if root.step is not None else None
        parts = root.text_parts_by_step.get(key)
        if not parts and root.text_parts_by_step:
            parts = list(root.text_parts_by_step.values())[-1]
        return "".join(p.text for p in parts or ())

    @property
    def full_text(self) -> str:
        """The answer text of every step of the top-level run, in order."""
        return "".join(p.text for p in self.parts if isinstance(p, TextPart) and p.parent is None)

    @property
    def reasoning_text(self) -> str:
        """All reasoning of the top-level run (Mastra's ``reasoningText``)."""
        return "".join(
            p.text for p in self.parts if isinstance(p, ReasoningPart) and p.parent is None
        )

    @property
    def steps(self) -> list[StepPart]:
        """The top-level run's steps."""
        return [p for p in self.parts if isinstance(p, StepPart) and p.parent is None]

    @property
    def tool_calls(self) -> list[ToolCall]:
        """Every tool call of the top-level run, whatever became of it."""
        return [p for p in self.parts if isinstance(p, ToolCall) and p.parent is None]

    @property
    def tool_results(self) -> list[ToolCall]:
        """The top-level tool calls that have a result or an error."""
        return [p for p in self.tool_calls if p.has_result or p.error is not None]

    @property
    def sources(self) -> list[SourcePart]:
        """Every source cited."""
        return self.parts_of(SourcePart)

    @property
    def files(self) -> list[FilePart]:
        """Every file produced."""
        return self.parts_of(FilePart)

    @property
    def object(self) -> Any:
        """The structured output (partial while streaming), or None."""
        obj = self._root.objects
        return None if obj is None else obj.object

    @property
    def data(self) -> list[DataPart]:
        """Persisted ``data-*`` parts, each reconciled to its latest value."""
        return self.parts_of(DataPart)

    @property
    def background_tasks(self) -> list[BackgroundTask]:
        """Background tasks and what became of them."""
        return self.parts_of(BackgroundTask)

    @property
    def workflow(self) -> WorkflowRun | None:
        """The top-level workflow run, for workflow streams."""
        return self._root.workflow

    @property
    def workflow_steps(self) -> list[WorkflowStep]:
        """Every workflow step, nested ones included."""
        return self.parts_of(WorkflowStep)

    @property
    def nested_runs(self) -> list[NestedRun]:
        """Runs found inside tool outputs and workflow step outputs."""
        return self.parts_of(NestedRun)

    @property
    def notices(self) -> list[Notice]:
        """Errors, aborts, tripwires, goals and bad chunks, in order."""
        return self.parts_of(Notice)

    def parts_of(self, kind: type[P]) -> list[P]:
        """Every part of one kind (``SourcePart``, ``ToolCall`` ...), nested ones included."""
        return [p for p in self.parts if isinstance(p, kind)]

    def part(self, part_id: str) -> Part | None:
        """The part with this id."""
        return self._by_id.get(part_id)

    def children(self, part_id: str | None) -> list[Part]:
        """Parts nested directly under ``part_id`` (None: the top level)."""
        return [p for p in self.parts if p.parent == part_id]

    # ----------------------------------------------------------------- folding

    def now(self) -> float:
        """Milliseconds since the first chunk, by the state's clock."""
        now = self._clock()
        if self._t_origin is None:
            self._t_origin = now
        return (now - self._t_origin) * 1000.0

    def handle(self, chunk: Any, t: float | None = None, *, where: str | None = None) -> list[Op]:
        """Fold one chunk in; return the ops that describe what changed.

        ``chunk`` is a chunk model, a dict, JSON text or bytes. ``t`` is its arrival offset in
        milliseconds (the consumer stamps it; by default the state's own clock). ``where``
        says where the chunk came from (``line 12``) for error messages.
        """
        if t is None:
            t = self.now()
        self._where = where
        index = self.chunk_count
        self.chunk_count += 1
        if t > self.elapsed_ms:
            self.elapsed_ms = t
        parsed = parse_chunk(chunk)
        ops = self._ops
        type_ = parsed.type
        if type(type_) is str and type_.startswith("data-") and is_transient(parsed):
            self._on_transient(parsed, t, index)
        else:
            try:
                self._fold(self._root, parsed, t, index, where)
            except Exception as exc:  # the fold never raises on data: say what broke, go on
                message = f"chunkscope could not fold this '{type_}' chunk: {exc!r}"
                self._problem(
                    self.errors, message, where, t, type_ if type(type_) is str else None, index
                )
                self._notice(
                    self._root, "error", "invalid", f"chunk {index}: {message}", None, t, index
                )
        self._ops = []
        return ops

    def close(self, *, error: BaseException | None = None, stopped: bool = False) -> list[Op]:
        """Mark the stream ended: exhausted, failed with ``error``, or stopped by the user."""
        t = self.elapsed_ms
        self._close_row()
        if error is not None:
            message = f"the source raised {type(error).__name__}: {error}"
            self.error = error
            self._problem(self.errors, message, None, t, "source")
            # An adapter reports the exception as an error chunk before re-raising it: one
            # failure is one row.
            last = self.parts[-1] if self.parts else None
            if not (
                isinstance(last, Notice) and last.notice == "error" and str(error) in last.message
            ):
                self._notice(self._root, "error", "error", message, None, t, self.chunk_count)
            self._set_status("error")
        elif stopped and self.status not in _TERMINAL:
            self._notice(
                self._root, "info", "abort", "stopped by the user", None, t, self.chunk_count
            )
            self._set_status("aborted")
        elif self.status in ("running", "waiting") and self.chunk_count:
            self._warn("the stream ended before a finish chunk", None, t, "end")
            self._set_status("incomplete")
        for part in self.parts:
            if part.t1 is None:
                part.t1 = t
        self.ended = True
        self._ops.append({"op": "run", "set": {"ended": True, "elapsedMs": t}})
        ops, self._ops = self._ops, []
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
        self._close_row()
        return list(self.rows)

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
        from ..present.transcript import transcript_text

        return transcript_text(self)

    def static_html(self) -> str:
        """The run as static, sanitized HTML that needs no kernel and no JavaScript."""
        from ..present.transcript import transcript_html

        return transcript_html(self)

    def write_html(self, path: str | Path, *, title: str | None = None) -> Path:
        """Write the run as one self-contained, offline HTML page (transcript, timeline,
        inspector); see ``chunkscope.present.export.write_html``."""
        from ..present.export import write_html

        return write_html(self, path, title=title)

    def __repr__(self) -> str:
        return self.transcript()

    def _repr_html_(self) -> str:
        return self.static_html()

    # ----------------------------------------------------------------- plumbing

    @staticmethod
    def _error_line(error: Any) -> str:
        if isinstance(error, BaseException):
            return f"{type(error).__name__}: {error}"
        return _message_of(error)

    def _new_id(self) -> str:
        part_id = f"p{self._ids}"
        self._ids += 1
        return part_id

    def _add(self, part: Part) -> None:
        self._last_touched = part
        self.parts.append(part)
        self._by_id[part.id] = part
        wire = self.held.cut_part(clip_for_wire(part.to_wire()))
        self._ops.append({"op": "add", "part": wire})

    def _set(self, part: Part, t: float, **fields: Any) -> None:
        wire = self.held.cut_set(part.id, part.kind, clip_for_wire(fields))
        self._ops.append({"op": "set", "id": part.id, "set": wire, "t": t})

    def _end(self, part: Part, t: float) -> None:
        if part.t1 is None:
            part.t1 = t
            self._set(part, t, t1=t)

    def _set_status(self, status: str) -> None:
        if status != self.status:
            self.status = status
            self._ops.append({"op": "run", "set": {"status": status}})

    def _problem(
        self,
        bucket: list[Problem],
        message: str,
        where: str | None,
        t: float,
        type_: str | None,
        index: int | None = None,
    ) -> Problem:
        problem = Problem(
            message=message,
            chunk_index=self.chunk_count - 1 if index is None else index,
            where=where,
            type=type_,
            t=t,
        )
        bucket.append(problem)
        return problem

    def _warn(self, message: str, where: str | None, t: float, type_: str | None) -> None:
        touched = self._last_touched
        where = where or self._where
        problem = self._problem(self.warnings, message, where, t, type_)
        self._notice(
            self._root, "warning", "warning", problem.describe(), None, t, problem.chunk_index
        )
        self._last_touched = touched

    def _notice(
        self, run: _Run, level: str, kind: str, message: str, detail: Any, t: float, index: int
    ) -> Notice:
        step = run.step.id if run.step is not None else None
        notice = Notice(self._new_id(), run.parent, step, t, index, level, kind, message, detail)
        notice.t1 = t
        self._add(notice)
        return notice

    def _row_for(self, chunk: Any, t: float, index: int, part: Part | None) -> None:
        """Record the inspector row of a persisted chunk, merging runs of deltas."""
        type_ = chunk.type
        part_id = part.id if part is not None else None
        row = self._row
        mergeable = type_ in _DELTA_TYPES and type(chunk) is not InvalidChunk
        if (
            row is not None
            and mergeable
            and row["type"] == type_
            and self._row_part == part_id
            and t - row["t"] < ROW_MERGE_MS
        ):
            row["n"] += 1
            if self._row_chars < MERGED_ROW_TEXT:
                piece = _delta_text(chunk)
                self._row_text.append(piece)
                self._row_chars += len(piece)
            else:
                row["truncated"] = True
            return
        self._close_row()
        if type(chunk) is InvalidChunk:
            json: Any = {"error": chunk.error, "raw": chunk.raw}
        else:
            json = _dump(chunk)
            if isinstance(json, _TooDeep):
                message = f"'{type_}' holds values nested too deeply to show in full (cut)"
                problem = self._problem(self.errors, message, self._where, t, type_, index)
                touched = self._last_touched
                self._notice(self._root, "error", "invalid", problem.describe(), None, t, index)
                self._last_touched = touched
                json = dict(json)
        json, truncated = _limit_json(json)
        row = {
            "i": index,
            "n": 1,
            "t": t,
            "type": type_ if isinstance(type_, str) else "invalid",
            "from": getattr(chunk, "from_", None),
            "family": chunk_family(type_) if isinstance(type_, str) else "errors",
            "part": part_id,
            "json": json,
        }
        if truncated:
            row["truncated"] = True
        self.rows.append(row)
        self._ops.append({"op": "rows", "rows": [row]})
        if mergeable:
            self._row = row
            self._row_part = part_id
            self._row_text = [_delta_text(chunk)]
            self._row_chars = len(self._row_text[0])

    def _close_row(self) -> None:
        """Write the merged delta text into the open inspector row."""
        row = self._row
        if row is None:
            return
        self._row = None
        if row["n"] > 1:
            text = "".join(self._row_text)
            if len(text) > MERGED_ROW_TEXT:
                text = text[:MERGED_ROW_TEXT]
                row["truncated"] = True
            payload = dict(row["json"].get("payload") or {})
            payload["argsTextDelta" if row["type"] == "tool-call-delta" else "text"] = text
            json, truncated = _limit_json({**row["json"], "payload": payload})
            row["json"] = json
            if truncated:
                row["truncated"] = True
            self._ops.append({"op": "rows", "rows": [row]})
        self._row_text = []

    def _run_for(self, parent: Part, chunk: Any, t: float, index: int, label: str) -> _Run:
        """The fold context of a run nested under ``parent``, created on first sight."""
        run_id = chunk.get("runId") if isinstance(chunk, Mapping) else None
        key = (parent.id, run_id or "")
        run = self._nested.get(key)
        if run is None:
            step = parent.step if not isinstance(parent, StepPart) else parent.id
            nested = NestedRun(self._new_id(), parent.id, step, t, index, run_id, label)
            self._add(nested)
            run = _Run(self, nested, nested.id)
            self._nested[key] = run
        return run

    # ----------------------------------------------------------------- dispatch

    def _fold(self, run: _Run, chunk: Any, t: float, index: int, where: str | None) -> None:
        type_ = chunk.type
        if self.status == "waiting":
            self._set_status("running")
        if type(chunk) is InvalidChunk:
            target = self._turn or run
            notice = self._on_invalid(target, chunk, t, index, where)
            lenient = _Lenient.of(chunk)
            if lenient is not None:
                # Best effort: a known chunk with a bad field still says something (a step
                # began, a call was made); fold what can be read, after the error row.
                self._last_touched = None
                self._fold_nested(target, lenient, t, index)
            self._row_for(chunk, t, index, notice)
            return
        if type_ == "start" and self._root.finished:
            # streamUntilIdle(): after a background task ends, a whole new start … finish
            # turn follows in the same stream. Mastra's promises keep the first turn's values,
            # so the new turn is folded as a run of its own, shown after the first.
            self._turns += 1
            turn = NestedRun(
                self._new_id(),
                None,
                None,
                t,
                index,
                getattr(chunk, "run_id", None),
                f"continuation turn {self._turns}",
            )
            self._add(turn)
            self._turn = _Run(self, turn, turn.id)
        if self._turn is not None and not type_.startswith("background-task-"):
            self._last_touched = None
            self._fold_nested(self._turn, chunk, t, index)
            self._row_for(chunk, t, index, self._last_touched or self._turn.part)
            return
        if self.run_id is None:
            run_id = getattr(chunk, "run_id", None)
            if isinstance(run_id, str):
                self.run_id = run_id
                self._ops.append({"op": "run", "set": {"runId": run_id}})
        if run.finished and type_ != "start" and not _after_finish_ok(type_):
            self._warn(f"'{type_}' arrived after 'finish'", where, t, type_)
        handler = self._handlers.get(type_)
        part: Part | None
        if handler is not None:
            self._last_touched = None
            handler(run, chunk, t, index)
            part = self._last_touched
        elif isinstance(chunk, UnknownChunk):
            part = self._notice(
                run,
                "warning",
                "unknown",
                f"unknown chunk type '{type_}' at {where or f'chunk {index}'}; shown as is",
                None,
                t,
                index,
            )
            self._problem(self.warnings, f"unknown chunk type '{type_}'", where, t, type_, index)
        elif type_.startswith("data-"):
            part = self._on_data(run, chunk, t, index)
        elif type_.startswith(("agent-execution-event-", "workflow-execution-event-")):
            part = self._on_network_wrapper(run, chunk, t, index)
        elif chunk_family(type_) == "network":
            part = self._on_network(run, chunk, t, index)
        else:
            # Known to the chunk model but carrying nothing a viewer draws (raw, watch,
            # response-metadata, background progress ...): the inspector row is its home.
            part = self._on_quiet(run, chunk, t, index)
        self._row_for(chunk, t, index, part)

    @property
    def _reason_fixed(self) -> bool:
        return self._root.reason_fixed

    def _fix_reason(self, run: _Run, reason: str) -> None:
        """Mastra resolves finishReason from how the run stopped, not from a later chunk."""
        run.reason_fixed = True
        run.finish_reason = reason
        if run is self._root:
            self.finish_reason = reason
            self._ops.append({"op": "run", "set": {"finishReason": reason}})

    def _touch(self, part: Part) -> None:
        self._last_touched = part

    # ----------------------------------------------------------------- control

    def _on_start(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        if run.started and not run.finished and run is self._root:
            self._warn("a second 'start' arrived mid-run", None, t, "start")
        run.started = True
        if run.finished:
            run.finished = False
            if run is self._root:
                self._set_status("running")

    def _open_step(self, run: _Run, t: float, index: int) -> StepPart:
        step = StepPart(self._new_id(), run.parent, None, t, index, run.step_count)
        run.step_count += 1
        run.step = step
        run.text_parts_by_step[step.id] = []
        self._add(step)
        return step

    def _current_step(self, run: _Run, t: float, index: int) -> StepPart:
        """The open step; a chunk that arrives outside any step opens one (resumed streams)."""
        if run.step is None or run.step.t1 is not None:
            return self._open_step(run, t, index)
        return run.step

    def _on_step_start(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        if run.step is not None and run.step.t1 is None:
            self._end(run.step, t)
        step = self._open_step(run, t, index)
        warnings = _plain(_field(chunk.payload, "warnings"))
        if warnings:
            step.warnings = warnings
            self._set(step, t, warnings=warnings)

    def _on_step_finish(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        payload = chunk.payload
        step = run.step
        if step is None or step.finish_reason is not None:
            step = self._open_step(run, t, index)
        reason = _field(_field(payload, "step_result", "stepResult"), "reason")
        usage = usage_from(_plain(_field(_field(payload, "output"), "usage")))
        step.finish_reason = reason if isinstance(reason, str) else "unknown"
        step.usage = usage
        step.t1 = None
        self._end(step, t)
        self._set(
            step, t, finishReason=step.finish_reason, usage=None if usage is None else usage.wire()
        )
        self._touch(step)
        if usage is not None:
            run.step_usage = usage if run.step_usage is None else run.step_usage + usage
        if run is self._root and not self._reason_fixed:
            self.finish_reason = step.finish_reason
            self._ops.append({"op": "run", "set": {"finishReason": self.finish_reason}})

    def _on_finish(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        payload = chunk.payload
        reason = _field(_field(payload, "step_result", "stepResult"), "reason")
        output = _field(payload, "output")
        usage = usage_from(_plain(_field(output, "usage"))) or run.step_usage
        total = usage_from(_plain(_field(payload, "total_usage", "totalUsage")))
        if run.step is not None:
            self._end(run.step, t)
        run.finished = True
        if not run.reason_fixed:
            run.finish_reason = reason if isinstance(reason, str) else run.finish_reason
        run.usage = usage
        if run.part is not None:
            nested = run.part
            nested.status = "finished" if nested.status == "running" else nested.status
            nested.finish_reason = run.finish_reason
            nested.usage = usage
            self._end(nested, t)
            self._set(
                nested,
                t,
                status=nested.status,
                finishReason=nested.finish_reason,
                usage=None if usage is None else usage.wire(),
            )
            self._touch(nested)
            return
        self.finish_reason = run.finish_reason if not self._reason_fixed else self.finish_reason
        # streamUntilIdle() puts several start … finish turns in one stream: sum them.
        turn_total = total or usage
        self.usage = _add_usage(self.usage, usage)
        self.total_usage = _add_usage(self.total_usage, turn_total)
        run.step_usage = None
        if self.status == "running":
            self._set_status("finished")
        self._ops.append(
            {
                "op": "run",
                "set": {
                    "finishReason": self.finish_reason,
                    "usage": None if self.usage is None else self.usage.wire(),
                    "outputTokens": None if self.usage is None else self.usage.output_tokens,
                },
            }
        )

    def _on_error(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        error = _plain(_field(chunk.payload, "error"))
        message = _message_of(error) or "the stream reported an error"
        self._problem(
            self.errors, f"the stream reported an error: {message}", self._where, t, "error", index
        )
        self._notice(run, "error", "error", message, error, t, index)
        self._close_open(run, t)
        if run is self._root:
            self.error = error
            self._set_status("error")
            self._ops.append({"op": "run", "set": {"error": message}})
        elif run.part is not None:
            run.part.status = "error"
            self._set(run.part, t, status="error")

    def _on_abort(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        reason = _message_of(_field(chunk.payload, "reason")) if chunk.payload else ""
        self._notice(
            run,
            "warning",
            "abort",
            reason or "the run was aborted",
            _plain(chunk.payload),
            t,
            index,
        )
        self._close_open(run, t)
        self._fix_reason(run, "aborted")
        if run is self._root:
            self._set_status("aborted")
        elif run.part is not None:
            run.part.status = "aborted"
            self._set(run.part, t, status="aborted")

    def _on_tripwire(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        payload = _plain(chunk.payload) or {}
        reason = payload.get("reason") if isinstance(payload, Mapping) else None
        processor = payload.get("processorId") if isinstance(payload, Mapping) else None
        message = f"tripwire: {reason or 'content blocked'}"
        if processor:
            message += f" (processor {processor})"
        self._notice(run, "error", "tripwire", message, payload, t, index)
        self._close_open(run, t)
        if run.finish_reason is None:
            self._fix_reason(run, "other")
        if run is self._root:
            self.tripwire = dict(payload) if isinstance(payload, Mapping) else {"value": payload}
            self._set_status("tripwire")
        elif run.part is not None:
            run.part.status = "tripwire"
            self._set(run.part, t, status="tripwire")

    def _on_goal(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        payload = _plain(chunk.payload) or {}
        passed = isinstance(payload, Mapping) and payload.get("passed") is True
        objective = payload.get("objective", "") if isinstance(payload, Mapping) else ""
        verdict = "passed" if passed else "not met"
        self._notice(
            run,
            "info" if passed else "warning",
            "goal",
            f"goal {verdict}: {objective}".rstrip(": "),
            payload,
            t,
            index,
        )

    def _on_task_complete(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        payload = _plain(chunk.payload)
        self._notice(run, "info", "goal", "task completion check", payload, t, index)

    def _close_open(self, run: _Run, t: float) -> None:
        """End every part of this run still open: the stream stopped under them."""
        for part in (*run.texts.values(), *run.reasonings.values()):
            self._end(part, t)
        run.texts.clear()
        run.reasonings.clear()
        if run.step is not None:
            self._end(run.step, t)

    # ----------------------------------------------------------------- text and reasoning

    def _text_part(self, run: _Run, chunk: Any, t: float, index: int, create: bool) -> TextPart:
        text_id = _field(chunk.payload, "id")
        key = text_id if isinstance(text_id, str) else ""
        part = run.texts.get(key)
        if part is not None and (create or part.step != (run.step.id if run.step else None)):
            # the same id again: a new block (ids restart every step)
            self._end(part, t)
            part = None
        if part is None:
            if not create:
                self._warn(
                    f"'{chunk.type}' for text '{key}' with no 'text-start'", None, t, chunk.type
                )
            step = self._current_step(run, t, index)
            part = TextPart(self._new_id(), run.parent, step.id, t, index)
            part.text_id = key
            run.texts[key] = part
            run.text_parts_by_step.setdefault(step.id, []).append(part)
            self._add(part)
        return part

    def _on_text_start(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        self._text_part(run, chunk, t, index, create=True)

    def _on_text_delta(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        part = self._text_part(run, chunk, t, index, create=False)
        self._append(part, _field(chunk.payload, "text"), t)

    def _append(self, part: TextPart | ReasoningPart, text: Any, t: float) -> None:
        if not isinstance(text, str) or not text:
            self._touch(part)
            return
        part.append(text, t)
        self._touch(part)
        self._ops.append(
            {"op": "append", "id": part.id, "field": "text", "text": safe_text(text), "t": t}
        )
        if self.ttft_ms is None and part.parent is None:
            self.ttft_ms = t
            self._ops.append({"op": "run", "set": {"ttftMs": t}})

    def _on_text_end(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        text_id = _field(chunk.payload, "id")
        part = run.texts.pop(text_id if isinstance(text_id, str) else "", None)
        if part is None:
            self._warn(f"'text-end' for text '{text_id}' that is not open", None, t, "text-end")
            return
        self._end(part, t)
        self._touch(part)

    def _reasoning_part(
        self, run: _Run, chunk: Any, t: float, index: int, create: bool
    ) -> ReasoningPart:
        rid = _field(chunk.payload, "id")
        key = rid if isinstance(rid, str) else ""
        part = run.reasonings.get(key)
        if part is not None and (create or part.step != (run.step.id if run.step else None)):
            self._end(part, t)
            part = None
        if part is None:
            if not create:
                self._warn(
                    f"'{chunk.type}' for reasoning '{key}' with no 'reasoning-start'",
                    None,
                    t,
                    chunk.type,
                )
            step = self._current_step(run, t, index)
            part = ReasoningPart(self._new_id(), run.parent, step.id, t, index)
            part.reasoning_id = key
            signature = _field(chunk.payload, "signature")
            part.signature = signature if isinstance(signature, str) else None
            run.reasonings[key] = part
            self._add(part)
        return part

    def _on_reasoning_start(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        self._reasoning_part(run, chunk, t, index, create=True)

    def _on_reasoning_delta(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        part = self._reasoning_part(run, chunk, t, index, create=False)
        self._append(part, _field(chunk.payload, "text"), t)

    def _on_reasoning_end(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        rid = _field(chunk.payload, "id")
        part = run.reasonings.pop(rid if isinstance(rid, str) else "", None)
        if part is None:
            self._warn(
                f"'reasoning-end' for reasoning '{rid}' that is not open", None, t, "reasoning-end"
            )
            return
        signature = _field(chunk.payload, "signature")
        if isinstance(signature, str):
            part.signature = signature
            self._set(part, t, signature=signature)
        self._end(part, t)
        self._touch(part)

    def _on_reasoning_signature(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        rid = _field(chunk.payload, "id")
        part = run.reasonings.get(rid if isinstance(rid, str) else "")
        if part is None:
            candidates = [p for p in self.parts if isinstance(p, ReasoningPart)]
            part = candidates[-1] if candidates else None
        signature = _field(chunk.payload, "signature")
        if part is not None and isinstance(signature, str):
            part.signature = signature
            self._set(part, t, signature=signature)
            self._touch(part)

    def _on_redacted_reasoning(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        step = self._current_step(run, t, index)
        part = ReasoningPart(self._new_id(), run.parent, step.id, t, index)
        part.redacted = True
        part.t1 = t
        self._add(part)

    # ----------------------------------------------------------------- sources, files, objects

    def _on_source(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        payload = chunk.payload
        step = self._current_step(run, t, index)
        part = SourcePart(self._new_id(), run.parent, step.id, t, index)
        part.source_type = _str_or_none(_field(payload, "source_type", "sourceType"))
        part.title = _str_or_none(_field(payload, "title"))
        part.url = _str_or_none(_field(payload, "url"))
        part.mime_type = _str_or_none(_field(payload, "mime_type", "mimeType"))
        part.filename = _str_or_none(_field(payload, "filename"))
        part.t1 = t
        self._add(part)

    def _on_file(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        payload = chunk.payload
        step = self._current_step(run, t, index)
        part = FilePart(self._new_id(), run.parent, step.id, t, index)
        part.mime_type = _str_or_none(_field(payload, "mime_type", "mimeType"))
        data = _field(payload, "base64")
        if not isinstance(data, str):
            data = _plain(_field(payload, "data"))
            if isinstance(data, (bytes, bytearray)):
                import base64

                data = base64.b64encode(bytes(data)).decode("ascii")
        part.data = data
        part.filename = _str_or_none(_field(payload, "filename"))
        part.t1 = t
        self._add(part)

    def _on_object(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        value = _plain(getattr(chunk, "object", None))
        final = chunk.type == "object-result"
        part = run.objects
        if part is None:
            step = run.step.id if run.step is not None else None
            part = ObjectPart(self._new_id(), run.parent, step, t, index)
            part.object, part.final = value, final
            run.objects = part
            self._add(part)
        else:
            part.object, part.final = value, final
            self._set(part, t, object=value, final=final)
            self._touch(part)
        if final:
            self._end(part, t)

    def _on_custom(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        step = run.step.id if run.step is not None else None
        part = DataPart(self._new_id(), run.parent, step, t, index, "custom", None)
        part.data = _plain(chunk.payload)
        part.t1 = t
        self._add(part)

    # ----------------------------------------------------------------- tools

    def _tool(
        self, run: _Run, chunk: Any, t: float, index: int, state: str, expect: bool
    ) -> ToolCall:
        """The tool call a chunk is about; one it has not seen yet is created here."""
        payload = chunk.payload
        call_id = _field(payload, "tool_call_id", "toolCallId")
        key = call_id if isinstance(call_id, str) else ""
        tool = self._tools.get(key)
        if tool is not None and tool.t1 is not None and chunk.type in _CALL_OPENERS:
            # the id of a call that already ended, used again: a new call, the first one kept
            self._warn(
                f"'{chunk.type}' reuses the id of finished tool call '{key}'", None, t, chunk.type
            )
            tool = None
        if tool is None:
            # A resumed stream (approval, resume) starts mid-step with no 'start': its first
            # result is for a call made in the earlier stream, which is not an error.
            if expect and self._root.started:
                self._warn(f"'{chunk.type}' for unknown tool call '{key}'", None, t, chunk.type)
            name = _field(payload, "tool_name", "toolName")
            step = self._current_step(run, t, index)
            tool = ToolCall(
                self._new_id(),
                run.parent,
                step.id,
                t,
                index,
                state,
                key,
                name if isinstance(name, str) else "",
            )
            provider = _field(payload, "provider_executed", "providerExecuted")
            tool.provider_executed = provider if isinstance(provider, bool) else None
            tool.args = _plain(_field(payload, "args"))
            self._tools[key] = tool
            self._add(tool)
        else:
            self._touch(tool)
        return tool

    def _move(
        self, tool: ToolCall | BackgroundTask | WorkflowStep, state: str, t: float, **fields: Any
    ) -> None:
        moved = tool.move(state, t)
        if moved:
            fields["state" if not isinstance(tool, WorkflowStep) else "status"] = state
        if fields:
            self._set(tool, t, **fields)

    def _on_tool_input_start(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        self._tool(run, chunk, t, index, "input-streaming", expect=False)

    def _on_tool_delta(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        tool = self._tool(run, chunk, t, index, "input-streaming", expect=True)
        delta = _field(chunk.payload, "args_text_delta", "argsTextDelta")
        if not isinstance(delta, str) or not delta:
            return
        tool.append_args(delta)
        self._ops.append(
            {"op": "append", "id": tool.id, "field": "argsText", "text": safe_text(delta), "t": t}
        )
        last = self._args_parsed_at.get(tool.id)
        if last is None or t - last >= ARGS_REPARSE_MS:
            self._args_parsed_at[tool.id] = t
            self._reparse_args(tool, t)

    def _reparse_args(self, tool: ToolCall, t: float) -> None:
        try:
            args = pydantic_core.from_json(tool.args_text, allow_partial="trailing-strings")
        except ValueError:
            return
        if args != tool.args:
            tool.args = args
            self._set(tool, t, args=args)

    def _on_tool_input_end(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        tool = self._tool(run, chunk, t, index, "input-streaming", expect=True)
        self._args_parsed_at.pop(tool.id, None)
        if tool.args_text:
            self._reparse_args(tool, t)

    def _on_tool_call(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        tool = self._tool(run, chunk, t, index, "running", expect=False)
        payload = chunk.payload
        args = _plain(_field(payload, "args"))
        fields: dict[str, Any] = {}
        if args is not None and args != tool.args:
            tool.args = args
            fields["args"] = args
        name = _field(payload, "tool_name", "toolName")
        if isinstance(name, str) and name and name != tool.tool_name:
            tool.tool_name = name
            fields["toolName"] = name
        self._move(tool, "running", t, **fields)

    def _resume(self, run: _Run) -> None:
        """A resumed stream goes on after an approval or a suspension."""
        if run.reason_fixed and run.finish_reason == "suspended":
            run.reason_fixed = False
            if run is self._root and self.status in ("suspended", "awaiting-approval"):
                self._set_status("running")

    def _on_tool_result(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        self._resume(run)
        tool = self._tool(run, chunk, t, index, "running", expect=True)
        payload = chunk.payload
        result = _plain(_field(payload, "result"))
        tool.result = result
        tool.has_result = True
        if _field(payload, "is_error", "isError") is True:
            tool.error = result
            self._move(tool, "error", t, result=result, error=result)
        else:
            self._move(tool, "done", t, result=result)
        self._end(tool, t)

    def _on_tool_error(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        tool = self._tool(run, chunk, t, index, "running", expect=True)
        error = _plain(_field(chunk.payload, "error"))
        tool.error = error if error is not None else "tool failed"
        self._move(tool, "error", t, error=tool.error)
        self._end(tool, t)

    def _on_tool_approval(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        tool = self._tool(run, chunk, t, index, "awaiting-approval", expect=False)
        tool.approval = _plain(chunk.payload)
        self._move(tool, "awaiting-approval", t, approval=tool.approval)
        self._fix_reason(run, "suspended")
        if run is self._root:
            self._set_status("awaiting-approval")

    def _on_tool_suspended(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        tool = self._tool(run, chunk, t, index, "suspended", expect=False)
        tool.suspend_payload = _plain(_field(chunk.payload, "suspend_payload", "suspendPayload"))
        self._move(tool, "suspended", t, suspendPayload=tool.suspend_payload)
        self._fix_reason(run, "suspended")
        if run is self._root:
            self._set_status("suspended")

    def _on_tool_denied(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        self._resume(run)
        tool = self._tool(run, chunk, t, index, "denied", expect=False)
        self._move(tool, "denied", t)
        self._end(tool, t)

    def _on_tool_output(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        payload = chunk.payload
        call_id = _field(payload, "tool_call_id", "toolCallId")
        tool = self._tools.get(call_id) if isinstance(call_id, str) else None
        if tool is None and isinstance(call_id, str):
            tool = self._tool(run, chunk, t, index, "running", expect=True)
        output = _plain(_field(payload, "output"))
        parent: Part | None = tool if tool is not None else run.step
        self._output(run, parent, output, chunk, t, index, tool.tool_name if tool else "output")

    def _on_step_output(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        payload = chunk.payload
        output = _plain(_field(payload, "output"))
        step_id = _field(payload, "id") or _field(payload, "step_name", "stepName")
        parent: Part | None = run.wsteps.get(step_id) if isinstance(step_id, str) else None
        if parent is None and _looks_like_chunk(output):
            inner = output.get("payload") if isinstance(output, Mapping) else None
            inner_id = _field(inner, "id") if isinstance(inner, Mapping) else None
            parent = run.wsteps.get(inner_id) if isinstance(inner_id, str) else None
        if parent is None:
            parent = run.step or run.workflow
        label = step_id if isinstance(step_id, str) else "step"
        self._output(run, parent, output, chunk, t, index, label)

    def _output(
        self,
        run: _Run,
        parent: Part | None,
        output: Any,
        chunk: Any,
        t: float,
        index: int,
        label: str,
    ) -> None:
        """A write under a tool or step: a whole nested chunk, or a plain value."""
        if parent is not None and _looks_like_chunk(output):
            self._fold_inner(self._run_for(parent, output, t, index, label), output, t, index)
            return
        step = run.step.id if run.step is not None else None
        part = OutputPart(
            self._new_id(),
            parent.id if parent else run.parent,
            step,
            t,
            index,
            output,
            getattr(chunk, "from_", None),
        )
        part.t1 = t
        self._add(part)

    def _fold_inner(self, run: _Run, inner: Any, t: float, index: int) -> None:
        """Fold a whole chunk found inside another (a sub-agent's, a workflow's)."""
        parsed = parse_chunk(inner)
        if is_transient(parsed):
            self._on_transient(parsed, t, index)
        else:
            self._fold_nested(run, parsed, t, index)

    def _fold_nested(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        """Fold a chunk of a nested run: the same rules, without its own inspector row."""
        type_ = chunk.type
        if type(chunk) is InvalidChunk:
            self._on_invalid(run, chunk, t, index, None)
            return
        handler = self._handlers.get(type_)
        if handler is not None:
            handler(run, chunk, t, index)
        elif type_.startswith("data-"):
            self._on_data(run, chunk, t, index)
        elif type_.startswith("background-task-"):
            self._on_background(run, chunk, t, index)
        elif type_.startswith(("agent-execution-event-", "workflow-execution-event-")):
            self._on_network_wrapper(run, chunk, t, index)
        elif chunk_family(type_) == "network":
            self._on_network(run, chunk, t, index)

    # ----------------------------------------------------------------- data

    def _on_data(self, run: _Run, chunk: Any, t: float, index: int) -> Part:
        type_ = chunk.type
        data_id = getattr(chunk, "id", None)
        data = _plain(getattr(chunk, "data", None))
        key = (type_, data_id) if isinstance(data_id, str) else None
        part = self._data.get(key) if key is not None else None
        if part is not None:
            part.data = data
            self._set(part, t, data=data)
            part.t1 = t
            return part
        step = run.step.id if run.step is not None and run.step.t1 is None else None
        part = DataPart(
            self._new_id(),
            run.parent,
            step,
            t,
            index,
            type_,
            data_id if isinstance(data_id, str) else None,
        )
        part.data = data
        part.t1 = t
        if key is not None:
            self._data[key] = part
        self._add(part)
        return part

    def _on_transient(self, chunk: Any, t: float, index: int) -> None:
        data_id = getattr(chunk, "id", None)
        item = {
            "t": t,
            "i": index,
            "type": chunk.type,
            "id": data_id if isinstance(data_id, str) else None,
            "data": clip_for_wire(_plain(getattr(chunk, "data", None))),
        }
        if item["id"] is not None:
            for k, old in enumerate(self.transient):
                if old["id"] == item["id"] and old["type"] == item["type"]:
                    del self.transient[k]
                    break
        self.transient.append(item)
        if len(self.transient) > 200:
            del self.transient[0]
        self._ops.append({"op": "transient", "item": item})

    # ----------------------------------------------------------------- background tasks

    def _on_quiet(self, run: _Run, chunk: Any, t: float, index: int) -> Part | None:
        if chunk.type.startswith("background-task-"):
            return self._on_background(run, chunk, t, index)
        if chunk.type == "raw":
            payload = _plain(chunk.payload)
            if isinstance(payload, Mapping):
                # an adapter keeps an event it could not translate as a raw chunk that says why
                problem = payload.get("adapterError") or payload.get("problem")
                if isinstance(problem, str) and problem:
                    self._warn(problem, None, t, "raw")
                    return self._last_touched
        return None

    def _on_background(self, run: _Run, chunk: Any, t: float, index: int) -> Part | None:
        payload = _plain(chunk.payload)
        if not isinstance(payload, Mapping):
            return None
        state = chunk.type.removeprefix("background-task-")
        if state == "progress":
            ids = payload.get("taskIds")
            for task_id in ids if isinstance(ids, list) else ():
                task = self._tasks.get(task_id) if isinstance(task_id, str) else None
                if task is not None:
                    task.progress = payload
                    self._set(task, t, progress=payload)
            return None
        task_id = payload.get("taskId")
        key = task_id if isinstance(task_id, str) else ""
        task = self._tasks.get(key)
        if task is None:
            step = run.step.id if run.step is not None else None
            task = BackgroundTask(
                self._new_id(),
                run.parent,
                step,
                t,
                index,
                "started" if state == "output" else state,
                key,
            )
            task.tool_name = _str_or_none(payload.get("toolName"))
            task.tool_call_id = _str_or_none(payload.get("toolCallId"))
            self._tasks[key] = task
            self._add(task)
        if state == "output":
            inner = payload.get("payload")
            self._output(run, task, _plain(inner), chunk, t, index, task.tool_name or "task")
            return task
        fields: dict[str, Any] = {}
        if state == "completed":
            task.result = payload.get("result")
            fields["result"] = task.result
        elif state == "failed":
            task.error = payload.get("error")
            fields["error"] = task.error
        moved = task.move(state, t)
        if moved:
            fields["state"] = state
        if state in ("completed", "failed", "cancelled"):
            task.t1 = t
            fields["t1"] = t
        if fields:
            self._set(task, t, **fields)
        return task

    # ----------------------------------------------------------------- workflows

    def _on_workflow_start(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        payload = _plain(chunk.payload) or {}
        workflow_id = payload.get("workflowId") if isinstance(payload, Mapping) else None
        step = run.step.id if run.step is not None else None
        part = WorkflowRun(
            self._new_id(),
            run.parent,
            step,
            t,
            index,
            getattr(chunk, "run_id", None),
            _str_or_none(workflow_id),
        )
        run.workflow = part
        self._add(part)

    def _workflow(self, run: _Run, chunk: Any, t: float, index: int) -> WorkflowRun:
        if run.workflow is None:
            self._on_workflow_start(run, chunk, t, index)
        assert run.workflow is not None
        return run.workflow

    def _on_workflow_finish(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        workflow = self._workflow(run, chunk, t, index)
        payload = _plain(chunk.payload) or {}
        status = payload.get("workflowStatus") if isinstance(payload, Mapping) else None
        workflow.status = status if isinstance(status, str) else "finished"
        output = payload.get("output") if isinstance(payload, Mapping) else None
        usage = usage_from(output.get("usage")) if isinstance(output, Mapping) else None
        if isinstance(payload, Mapping):
            # @mastra/core 1.71 sends the workflow's output as finalWorkflowResult
            final = payload.get("finalWorkflowResult", payload.get("result"))
            workflow.result = final
        else:
            workflow.result = None
        self._end(workflow, t)
        self._set(workflow, t, status=workflow.status, result=workflow.result)
        self._touch(workflow)
        if run is self._root:
            run.finished = True
            if usage is not None:
                self.usage = usage
            mapped = {
                "success": "finished",
                "failed": "error",
                "canceled": "aborted",
                "suspended": "suspended",
                "tripwire": "tripwire",
            }
            self._set_status(mapped.get(workflow.status, "finished"))
        elif run.part is not None:
            run.part.status = workflow.status
            self._end(run.part, t)
            self._set(run.part, t, status=workflow.status)

    def _on_workflow_end_status(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        workflow = self._workflow(run, chunk, t, index)
        workflow.status = "canceled" if chunk.type == "workflow-canceled" else "paused"
        self._set(workflow, t, status=workflow.status)
        self._touch(workflow)
        if chunk.type == "workflow-canceled":
            self._end(workflow, t)
            if run is self._root:
                self._set_status("aborted")

    def _on_wstep(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        payload = _plain(chunk.payload)
        if not isinstance(payload, Mapping):
            return
        step_id = payload.get("id") or payload.get("stepName") or ""
        step_id = step_id if isinstance(step_id, str) else str(step_id)
        workflow = self._workflow(run, chunk, t, index)
        status = payload.get("status")
        default = {
            "workflow-step-start": "running",
            "workflow-step-waiting": "waiting",
            "workflow-step-suspended": "suspended",
            "workflow-step-result": "success",
            "workflow-step-finish": None,
        }[chunk.type]
        state = status if isinstance(status, str) else default
        wstep = run.wsteps.get(step_id)
        if wstep is None or (chunk.type == "workflow-step-start" and wstep.t1 is not None):
            parent = workflow.id
            if "." in step_id:
                outer = run.wsteps.get(step_id.rsplit(".", 1)[0])
                parent = outer.id if outer is not None else parent
            wstep = WorkflowStep(
                self._new_id(), parent, None, t, index, state or "running", step_id
            )
            run.wsteps[step_id] = wstep
            if "payload" in payload:
                wstep.input = payload.get("payload")
            self._add(wstep)
            return
        self._touch(wstep)
        fields: dict[str, Any] = {}
        if "output" in payload:
            wstep.output = payload.get("output")
            fields["output"] = wstep.output
        if "error" in payload:
            wstep.error = payload.get("error")
            fields["error"] = wstep.error
        if state is not None:
            self._move(wstep, state, t, **fields)
        elif fields:
            self._set(wstep, t, **fields)
        if chunk.type in ("workflow-step-result", "workflow-step-finish") and state not in (
            "suspended",
            "waiting",
            "running",
        ):
            self._end(wstep, t)

    def _on_wstep_progress(self, run: _Run, chunk: Any, t: float, index: int) -> None:
        payload = _plain(chunk.payload)
        if not isinstance(payload, Mapping):
            return
        step_id = payload.get("id")
        wstep = run.wsteps.get(step_id) if isinstance(step_id, str) else None
        if wstep is None:
            return
        wstep.progress = payload
        self._set(wstep, t, progress=payload)
        self._touch(wstep)

    # ----------------------------------------------------------------- agent networks

    def _on_network(self, run: _Run, chunk: Any, t: float, index: int) -> Part:
        payload = _plain(getattr(chunk, "payload", None))
        if chunk.type in ("routing-agent-text-start", "routing-agent-text-delta"):
            return self._routing_text(run, chunk, payload, t, index)
        if chunk.type == "network-execution-event-finish" and run is self._root:
            run.finished = True
            usage = usage_from(payload.get("usage")) if isinstance(payload, Mapping) else None
            if usage is not None:
                self.usage = usage
                self._ops.append({"op": "run", "set": {"usage": usage.wire()}})
            if self.status == "running":
                self._set_status("finished")
        label = ""
        if isinstance(payload, Mapping):
            for key in ("agentId", "toolName", "workflowId", "resourceId", "primitiveId", "task"):
                value = payload.get(key)
                if isinstance(value, str) and value:
                    label = value
                    break
        step = run.step.id if run.step is not None else None
        part = NetworkEvent(self._new_id(), run.parent, step, t, index, chunk.type, label, payload)
        part.t1 = t
        self._add(part)
        return part

    def _routing_text(self, run: _Run, chunk: Any, payload: Any, t: float, index: int) -> Part:
        """The routing agent's own words: one text part per routing run, under its event."""
        key = str(payload.get("runId", "")) if isinstance(payload, Mapping) else ""
        part = self._routing_texts.get(key)
        if part is None:
            anchor = next(
                (
                    p
                    for p in reversed(self.parts)
                    if isinstance(p, NetworkEvent) and p.event.startswith("routing-agent-")
                ),
                None,
            )
            step = run.step.id if run.step is not None else None
            part = TextPart(self._new_id(), anchor.id if anchor else run.parent, step, t, index)
            self._routing_texts[key] = part
            self._add(part)
        text = payload.get("text") if isinstance(payload, Mapping) else None
        if isinstance(text, str) and text:
            part.append(text, t)
            self._ops.append(
                {"op": "append", "id": part.id, "field": "text", "text": safe_text(text), "t": t}
            )
        self._touch(part)
        return part

    def _on_network_wrapper(self, run: _Run, chunk: Any, t: float, index: int) -> Part | None:
        """``agent-execution-event-*`` / ``workflow-execution-event-*``: a chunk in a chunk."""
        inner = _plain(getattr(chunk, "payload", None))
        anchor = next(
            (
                p
                for p in reversed(self.parts)
                if isinstance(p, NetworkEvent) and p.event.endswith("-start")
            ),
            None,
        )
        if anchor is None or not _looks_like_chunk(inner):
            return self._on_network(run, chunk, t, index)
        nested = self._run_for(anchor, inner, t, index, anchor.label or "execution")
        self._fold_inner(nested, inner, t, index)
        return nested.part

    # ----------------------------------------------------------------- bad chunks

    def _on_invalid(
        self, run: _Run, chunk: InvalidChunk, t: float, index: int, where: str | None
    ) -> Notice:
        place = where or f"chunk {index}"
        what = f"'{chunk.type}' chunk" if isinstance(chunk.type, str) else "chunk"
        message = f"invalid {what} at {place}: {chunk.error}"
        self._problem(self.errors, message, where, t, chunk.type, index)
        return self._notice(run, "error", "invalid", message, clip_for_wire(chunk.raw), t, index)


class _Lenient:
    """The readable fields of an invalid chunk of a known type, for a best-effort fold."""

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.type: str = raw["type"]
        payload = raw.get("payload")
        self.payload: Any = payload if isinstance(payload, Mapping) else {}
        run_id, from_ = raw.get("runId"), raw.get("from")
        self.run_id = run_id if isinstance(run_id, str) else None
        self.from_ = from_ if isinstance(from_, str) else None
        data_id = raw.get("id")
        self.id = data_id if isinstance(data_id, str) else None
        self.data = raw.get("data")
        self.object = raw.get("object")

    @classmethod
    def of(cls, chunk: InvalidChunk) -> _Lenient | None:
        raw = chunk.raw
        if not isinstance(raw, Mapping) or not isinstance(raw.get("type"), str):
            return None
        if raw["type"] not in _LENIENT_TYPES:
            return None
        return cls(raw)


# Structure and text only: a step that began, a block that opened, words that arrived. An
# invalid tool, finish or error chunk is shown as its error row and nothing more, so that the
# view never claims a call or an outcome the stream did not validly report.
_LENIENT_TYPES = frozenset(
    {
        "start",
        "step-start",
        "step-finish",
        "text-start",
        "text-delta",
        "text-end",
        "reasoning-start",
        "reasoning-delta",
        "reasoning-end",
    }
)


def _add_usage(a: Usage | None, b: Usage | None) -> Usage | None:
    if a is None:
        return b
    return a if b is None else a + b


def _delta_text(chunk: Any) -> str:
    payload = chunk.payload
    value = _field(payload, "args_text_delta" if chunk.type == "tool-call-delta" else "text")
    return value if isinstance(value, str) else ""


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _after_finish_ok(type_: str) -> bool:
    """Chunks that legitimately follow ``finish`` (background work, a continuation turn)."""
    return type_.startswith(("background-task-", "data-", "workflow-")) or type_ in (
        "start",
        "raw",
        "response-metadata",
        "watch",
        "step-start",
    )


def _limit_json(value: Any) -> tuple[Any, bool]:
    """Keep an inspector row near ROW_JSON_LIMIT: strings and lists are clipped first; a row
    still too large (many large values) keeps a shorter clip, then only a text preview."""
    clipped = clip_for_wire(value, max_string=ROW_JSON_LIMIT // 4, max_items=200)
    if clipped is value:
        return value, False
    size = len(json.dumps(clipped, ensure_ascii=False))
    if size <= ROW_JSON_LIMIT:
        return clipped, True
    clipped = clip_for_wire(value, max_string=256, max_items=20)
    text = json.dumps(clipped, ensure_ascii=False)
    if len(text) <= ROW_JSON_LIMIT:
        return clipped, True
    return {"preview": text[:ROW_JSON_LIMIT] + "…"}, True


def accumulate(chunks: Iterable[Any], title: str = "") -> RunState:
    """Fold a whole stream (chunks, dicts, JSON lines, or a ``replay``) into a RunState."""
    state = RunState(title)
    timed = getattr(chunks, "timed", None)
    if callable(timed):
        for t, chunk, where in timed(wait=False):
            state.handle(chunk, t, where=where)
    else:
        for chunk in chunks:
            state.handle(chunk)
    state.close()
    return state
