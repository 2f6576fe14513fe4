"""The fold's working context: the run values it writes, the parts it emits, and the helpers
every chunk family's handlers share.

``RunValues`` holds what a run resolved to (``RunState`` is one); ``Fold`` is the context a
handler receives: it adds and updates parts, queues the ops that describe each change, and
records problems. ``_Run`` is the context of one run inside the stream (the top-level one, a
sub-agent's, a workflow's, a continuation turn).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel

from ..chunks.models import BaseChunk, Chunk, is_transient, parse_chunk
from ..wire.batching import append_op
from ..wire.held import HeldValues
from ..wire.safejson import clip_for_wire, safe_text
from ..wire.schema import TRANSIENT_CAP
from .parts import (
    BackgroundTask,
    DataPart,
    NestedRun,
    Notice,
    ObjectPart,
    OutputPart,
    Part,
    ReasoningPart,
    StepPart,
    TextPart,
    ToolCall,
    Usage,
    WorkflowRun,
    WorkflowStep,
)
from .problems import Problem

Op = dict[str, Any]
"""One wire op (``docs/wire.md``)."""

INTERNAL_FAILURE = "chunkscope could not fold"
"""How the message of a problem starts when a handler failed (a chunkscope bug, not bad data)."""

TERMINAL = frozenset({"finished", "aborted", "error", "tripwire"})

_MISSING = object()


def is_internal(problem: Problem) -> bool:
    """Whether a problem says the fold itself failed on a chunk."""
    return problem.message.startswith(INTERNAL_FAILURE)


def dump(model: Any) -> Any:
    """A model as its JSON; one too deep for pydantic's serializer (255 levels) is cut to a
    safe depth from its Python form instead (``TooDeep`` marks that)."""
    try:
        return model.model_dump(by_alias=True, exclude_unset=True, mode="json")
    except (ValueError, RecursionError):
        return TooDeep(clip_for_wire(_python_form(model)))


class TooDeep(dict[str, Any]):
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


def plain(value: Any) -> Any:
    """A JSON-ready value from a payload field that may be a pydantic model."""
    if hasattr(value, "model_dump"):
        return dump(value)
    return value


def extra(model: BaseModel, name: str) -> Any:
    """A field the model does not declare, by its wire name (None when absent)."""
    extras = model.model_extra
    return extras.get(name) if extras else None


def payload_of(chunk: BaseChunk) -> Any:
    """The ``payload`` of a chunk of any class (declared, or kept as an extra field)."""
    value = chunk.__dict__.get("payload", _MISSING)
    return extra(chunk, "payload") if value is _MISSING else value


def message_of(error: Any) -> str:
    """One line for an error value that may be a string, a mapping or anything else."""
    error = plain(error)
    if isinstance(error, str):
        return error
    if isinstance(error, Mapping):
        for key in ("message", "error", "reason"):
            value = error.get(key)
            if isinstance(value, str) and value:
                name = error.get("name")
                return f"{name}: {value}" if isinstance(name, str) and name else value
            if isinstance(value, Mapping):
                return message_of(value)
    return "" if error is None else repr(error)[:500]


def looks_like_chunk(value: Any) -> bool:
    """True for a value that is a whole nested chunk (a sub-agent's or a workflow's)."""
    return (
        isinstance(value, Mapping)
        and isinstance(value.get("type"), str)
        and ("payload" in value or "runId" in value or str(value["type"]).startswith("data-"))
    )


def str_or_none(value: Any) -> str | None:
    """``value`` when it is a string, else None."""
    return value if isinstance(value, str) else None


def sum_usage(a: Usage | None, b: Usage | None) -> Usage | None:
    """The sum of two usages, either of which may be missing."""
    if a is None:
        return b
    return a if b is None else a + b


class RunValues:
    """What a run resolved to so far: the values the fold writes and ``RunState`` shows."""

    def __init__(self, title: str = "") -> None:
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


class _Run:
    """Fold context of one run: the top-level one or a nested one (sub-agent, workflow)."""

    def __init__(self, part: NestedRun | None, parent: str | None) -> None:
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
        self.last_step_output: tuple[Any] | None = None
        """What the last top-level workflow step that succeeded returned, in a 1-tuple (so
        that a step returning None is told from no step)."""
        self.finish_reason: str | None = None
        self.usage: Usage | None = None
        self.step_usage: Usage | None = None
        self.finished = False
        self.started = False
        self.reason_fixed = False
        """Set once an abort, tripwire or suspension decided the finish reason."""

    @property
    def step_id(self) -> str | None:
        return self.step.id if self.step is not None else None


NestedFold = Callable[["Fold", _Run, Chunk, float, int], "Part | None"]
"""Folds a chunk of a nested run (``dispatch.fold_nested``); given to ``Fold`` so that the
handlers that meet a chunk inside a chunk need not import the dispatch table."""


class Fold:
    """The context the handlers fold into: the run values, the parts, the pending ops."""

    def __init__(
        self,
        state: RunValues,
        nested: NestedFold,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.state = state
        self.parts = state.parts
        self.held = state.held
        self.nested = nested
        self.ops: list[Op] = []
        self.wire = True
        """Whether parts and appends are encoded as ops (off: a run no page reads)."""
        self.where: str | None = None
        self.root = _Run(None, None)
        self.turn: _Run | None = None
        self.turns = 0
        self.by_id: dict[str, Part] = {}
        self.nested_runs: dict[tuple[str | None, str], _Run] = {}
        self.tools: dict[str, ToolCall] = {}
        self.tasks: dict[str, BackgroundTask] = {}
        self.data: dict[tuple[str, str], DataPart] = {}
        self.args_parsed_at: dict[str, float] = {}
        self.routing_texts: dict[str, TextPart] = {}
        self.clock = clock or time.monotonic
        self._ids = 0

    # ------------------------------------------------------------- parts and ops

    def new_id(self) -> str:
        """A new part id: ``p0``, ``p1``… in the order parts are made."""
        part_id = f"p{self._ids}"
        self._ids += 1
        return part_id

    def add(self, part: Part) -> None:
        """Append ``part`` to the run's parts and queue its ``add`` op (clipped for the wire,
        large fields held back as previews)."""
        self.parts.append(part)
        self.by_id[part.id] = part
        if self.wire:
            wire = self.held.cut_part(clip_for_wire(part.to_wire()))
            self.ops.append({"op": "add", "part": wire})

    def set(self, part: Part, t: float, **fields: Any) -> None:
        """Queue the ``set`` op saying ``fields`` of ``part`` changed at ``t``; the caller has
        already changed the part."""
        if self.wire:
            wire = self.held.cut_set(part.id, part.kind, clip_for_wire(fields))
            self.ops.append({"op": "set", "id": part.id, "set": wire, "t": t})

    def append_op(self, part: Part, field: str, text: str, t: float) -> None:
        """Queue the ``append`` op of ``text`` added to ``part``'s growing ``field``."""
        if self.wire:
            self.ops.append(append_op(part.id, field, safe_text(text), t))

    def end(self, part: Part, t: float) -> None:
        """End ``part`` at ``t`` (its ``t1``); a part already ended keeps its end."""
        if part.t1 is None:
            part.t1 = t
            self.set(part, t, t1=t)

    def move(
        self, part: ToolCall | BackgroundTask | WorkflowStep, state: str, t: float, **fields: Any
    ) -> None:
        """Move a tool call, task or workflow step to ``state`` at ``t``, in one ``set`` with any
        other ``fields`` (a workflow step's state is its ``status``)."""
        if part.move(state, t):
            fields["state" if not isinstance(part, WorkflowStep) else "status"] = state
        if fields:
            self.set(part, t, **fields)

    def run_op(self, **fields: Any) -> None:
        """Queue a ``run`` op setting run-level ``fields`` (status, finish reason, usage…)."""
        self.ops.append({"op": "run", "set": fields})

    def set_status(self, status: str) -> None:
        """Set the run's status, with a ``run`` op only when it changed."""
        if status != self.state.status:
            self.state.status = status
            self.run_op(status=status)

    def problem(
        self,
        bucket: list[Problem],
        message: str,
        where: str | None,
        t: float,
        type_: str | None,
        index: int | None = None,
    ) -> Problem:
        """Record a problem in ``bucket`` (``errors`` or ``warnings``) at chunk ``index``, by
        default the chunk being folded."""
        problem = Problem(
            message=message,
            chunk_index=self.state.chunk_count - 1 if index is None else index,
            where=where,
            type=type_,
            t=t,
        )
        bucket.append(problem)
        return problem

    def warn(self, message: str, where: str | None, t: float, type_: str | None) -> Notice:
        """A warning: a problem on ``warnings`` and its notice at the top level."""
        problem = self.problem(self.state.warnings, message, where or self.where, t, type_)
        return self.notice(
            self.root, "warning", "warning", problem.describe(), None, t, problem.chunk_index
        )

    def notice(
        self, run: _Run, level: str, kind: str, message: str, detail: Any, t: float, index: int
    ) -> Notice:
        """Add a notice part to ``run``, under its current step; it ends as it starts."""
        notice = Notice(
            self.new_id(), run.parent, run.step_id, t, index, level, kind, message, detail
        )
        notice.t1 = t
        self.add(notice)
        return notice

    # ------------------------------------------------------------- runs and steps

    def fix_reason(self, run: _Run, reason: str) -> None:
        """Mastra resolves finishReason from how the run stopped, not from a later chunk."""
        run.reason_fixed = True
        run.finish_reason = reason
        if run is self.root:
            self.state.finish_reason = reason
            self.run_op(finishReason=reason)

    def resume(self, run: _Run) -> None:
        """A resumed stream goes on after an approval or a suspension."""
        if run.reason_fixed and run.finish_reason == "suspended":
            run.reason_fixed = False
            if run is self.root and self.state.status in ("suspended", "awaiting-approval"):
                self.set_status("running")

    def open_step(self, run: _Run, t: float, index: int) -> StepPart:
        """Open the run's next step at ``t`` and add it; text parts are grouped by it from then
        on."""
        step = StepPart(self.new_id(), run.parent, None, t, index, run.step_count)
        run.step_count += 1
        run.step = step
        run.text_parts_by_step[step.id] = []
        self.add(step)
        return step

    def current_step(self, run: _Run, t: float, index: int) -> StepPart:
        """The open step; a chunk that arrives outside any step opens one (resumed streams)."""
        if run.step is None or run.step.t1 is not None:
            return self.open_step(run, t, index)
        return run.step

    def close_open(self, run: _Run, t: float) -> None:
        """End every part of this run still open: the stream stopped under them."""
        for part in (*run.texts.values(), *run.reasonings.values()):
            self.end(part, t)
        run.texts.clear()
        run.reasonings.clear()
        if run.step is not None:
            self.end(run.step, t)

    def run_for(self, parent: Part, chunk: Any, t: float, index: int, label: str) -> _Run:
        """The fold context of a run nested under ``parent``, created on first sight."""
        run_id = chunk.get("runId") if isinstance(chunk, Mapping) else None
        key = (parent.id, run_id or "")
        run = self.nested_runs.get(key)
        if run is None:
            step = parent.step if not isinstance(parent, StepPart) else parent.id
            nested = NestedRun(self.new_id(), parent.id, step, t, index, run_id, label)
            self.add(nested)
            run = _Run(nested, nested.id)
            self.nested_runs[key] = run
        return run

    # ------------------------------------------------------------- chunks in chunks

    def output(
        self,
        run: _Run,
        parent: Part | None,
        output: Any,
        from_: str | None,
        t: float,
        index: int,
        label: str,
    ) -> Part | None:
        """A write under a tool or step: a whole nested chunk, or a plain value. Returns the
        part it touched last (None when a nested chunk touched nothing)."""
        if parent is not None and looks_like_chunk(output):
            known = len(self.nested_runs)
            nested = self.run_for(parent, output, t, index, label)
            touched = self.fold_inner(nested, output, t, index)
            if touched is None and len(self.nested_runs) != known:
                return nested.part
            return touched
        part = OutputPart(
            self.new_id(), parent.id if parent else run.parent, run.step_id, t, index, output, from_
        )
        part.t1 = t
        self.add(part)
        return part

    def fold_inner(self, run: _Run, inner: Any, t: float, index: int) -> Part | None:
        """Fold a whole chunk found inside another (a sub-agent's, a workflow's)."""
        parsed = parse_chunk(inner)
        if is_transient(parsed):
            self.transient_item(parsed, t, index)
            return None
        return self.nested(self, run, parsed, t, index)

    def transient_item(self, chunk: Chunk, t: float, index: int) -> None:
        """A transient ``data-*`` item: shown live, kept in a short list, never persisted."""
        data_id = getattr(chunk, "id", None)
        item = {
            "t": t,
            "i": index,
            "type": chunk.type,
            "id": data_id if isinstance(data_id, str) else None,
            "data": clip_for_wire(plain(getattr(chunk, "data", None))),
        }
        transient = self.state.transient
        if item["id"] is not None:
            for k, old in enumerate(transient):
                if old["id"] == item["id"] and old["type"] == item["type"]:
                    del transient[k]
                    break
        transient.append(item)
        if len(transient) > TRANSIENT_CAP:
            del transient[0]
        self.ops.append({"op": "transient", "item": item})
