"""A best-effort fold of an invalid chunk of a known type: what can be read from its raw
mapping (a step began, a block opened, words arrived) is folded after its error row.

Structure and text only: an invalid tool, finish or error chunk is shown as its error row and
nothing more, so that the view never claims a call or an outcome the stream did not validly
report.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..chunks.models import InvalidChunk
from . import runsteps, text
from .context import Fold, _Run, plain
from .parts import usage_from


def _get(value: Any, key: str) -> Any:
    """``value[key]`` of a mapping read from raw input; None for anything else."""
    return value.get(key) if isinstance(value, Mapping) else None


def _start(cx: Fold, run: _Run, payload: Mapping[str, Any], type_: str, t: float, i: int) -> None:
    runsteps.start(cx, run, t)


def _step_start(
    cx: Fold, run: _Run, payload: Mapping[str, Any], type_: str, t: float, i: int
) -> None:
    runsteps.step_start(cx, run, plain(payload.get("warnings")), t, i)


def _step_finish(
    cx: Fold, run: _Run, payload: Mapping[str, Any], type_: str, t: float, i: int
) -> None:
    reason = _get(payload.get("stepResult"), "reason")
    usage = usage_from(plain(_get(payload.get("output"), "usage")))
    runsteps.step_finish(cx, run, reason, usage, t, i)


def _text_start(
    cx: Fold, run: _Run, payload: Mapping[str, Any], type_: str, t: float, i: int
) -> None:
    text.text_part(cx, run, payload.get("id"), type_, t, i, create=True)


def _text_delta(
    cx: Fold, run: _Run, payload: Mapping[str, Any], type_: str, t: float, i: int
) -> None:
    part = text.text_part(cx, run, payload.get("id"), type_, t, i, create=False)
    text.append(cx, part, payload.get("text"), t)


def _text_end(
    cx: Fold, run: _Run, payload: Mapping[str, Any], type_: str, t: float, i: int
) -> None:
    text.end_text(cx, run, payload.get("id"), t)


def _reasoning_start(
    cx: Fold, run: _Run, payload: Mapping[str, Any], type_: str, t: float, i: int
) -> None:
    rid, signature = payload.get("id"), payload.get("signature")
    text.reasoning_part(cx, run, rid, signature, type_, t, i, create=True)


def _reasoning_delta(
    cx: Fold, run: _Run, payload: Mapping[str, Any], type_: str, t: float, i: int
) -> None:
    rid, signature = payload.get("id"), payload.get("signature")
    part = text.reasoning_part(cx, run, rid, signature, type_, t, i, create=False)
    text.append(cx, part, payload.get("text"), t)


def _reasoning_end(
    cx: Fold, run: _Run, payload: Mapping[str, Any], type_: str, t: float, i: int
) -> None:
    text.end_reasoning(cx, run, payload.get("id"), payload.get("signature"), t)


_Reader = Callable[[Fold, _Run, Mapping[str, Any], str, float, int], None]

LENIENT: dict[str, _Reader] = {
    "start": _start,
    "step-start": _step_start,
    "step-finish": _step_finish,
    "text-start": _text_start,
    "text-delta": _text_delta,
    "text-end": _text_end,
    "reasoning-start": _reasoning_start,
    "reasoning-delta": _reasoning_delta,
    "reasoning-end": _reasoning_end,
}
"""The invalid chunks that are folded as far as they can be read, by type."""


def fold_lenient(cx: Fold, run: _Run, chunk: InvalidChunk, t: float, index: int) -> None:
    """Fold what can be read of an invalid chunk of one of the ``LENIENT`` types."""
    raw = chunk.raw
    if not isinstance(raw, Mapping):
        return
    type_ = raw.get("type")
    reader = LENIENT.get(type_) if isinstance(type_, str) else None
    if reader is None or type_ is None:
        return
    payload = raw.get("payload")
    reader(cx, run, payload if isinstance(payload, Mapping) else {}, type_, t, index)
