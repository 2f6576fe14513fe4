"""Text and reasoning chunks: ``text-*``, ``reasoning-*``, ``redacted-reasoning``."""

from __future__ import annotations

from typing import Any

from ..chunks.models import (
    BaseChunk,
    ReasoningDeltaChunk,
    ReasoningEndChunk,
    ReasoningSignatureChunk,
    ReasoningStartChunk,
    RedactedReasoningChunk,
    TextDeltaChunk,
    TextEndChunk,
    TextStartChunk,
)
from .context import Fold, _Run, extra
from .parts import Part, ReasoningPart, TextPart


def text_part(
    cx: Fold, run: _Run, text_id: Any, type_: str, t: float, index: int, create: bool
) -> TextPart:
    """The text part for ``text_id`` in the current step, opened when ``create`` or missing."""
    key = text_id if isinstance(text_id, str) else ""
    part = run.texts.get(key)
    if part is not None and (create or part.step != run.step_id):
        # the same id again: a new block (ids restart every step)
        cx.end(part, t)
        part = None
    if part is None:
        if not create:
            cx.warn(f"'{type_}' for text '{key}' with no 'text-start'", None, t, type_)
        step = cx.current_step(run, t, index)
        part = TextPart(cx.new_id(), run.parent, step.id, t, index)
        part.text_id = key
        run.texts[key] = part
        run.text_parts_by_step.setdefault(step.id, []).append(part)
        cx.add(part)
    return part


def append(cx: Fold, part: TextPart | ReasoningPart, text: Any, t: float) -> None:
    """Append a text or reasoning delta to its part, and note the first token's time."""
    if not isinstance(text, str) or not text:
        return
    part.append(text, t)
    cx.append_op(part, "text", text, t)
    if cx.state.ttft_ms is None and part.parent is None:
        cx.state.ttft_ms = t
        cx.run_op(ttftMs=t)


def end_text(cx: Fold, run: _Run, text_id: Any, t: float) -> TextPart | None:
    """Close the text block ``text_id``; one that is not open is a warning."""
    part = run.texts.pop(text_id if isinstance(text_id, str) else "", None)
    if part is None:
        cx.warn(f"'text-end' for text '{text_id}' that is not open", None, t, "text-end")
        return None
    cx.end(part, t)
    return part


def reasoning_part(
    cx: Fold,
    run: _Run,
    rid: Any,
    signature: Any,
    type_: str,
    t: float,
    index: int,
    create: bool,
) -> ReasoningPart:
    """The reasoning part for ``rid`` in the current step, opened when ``create`` or missing."""
    key = rid if isinstance(rid, str) else ""
    part = run.reasonings.get(key)
    if part is not None and (create or part.step != run.step_id):
        cx.end(part, t)
        part = None
    if part is None:
        if not create:
            cx.warn(f"'{type_}' for reasoning '{key}' with no 'reasoning-start'", None, t, type_)
        step = cx.current_step(run, t, index)
        part = ReasoningPart(cx.new_id(), run.parent, step.id, t, index)
        part.reasoning_id = key
        part.signature = signature if isinstance(signature, str) else None
        run.reasonings[key] = part
        cx.add(part)
    return part


def end_reasoning(cx: Fold, run: _Run, rid: Any, signature: Any, t: float) -> ReasoningPart | None:
    """Close the reasoning block ``rid``, keeping its signature; one not open is a warning."""
    part = run.reasonings.pop(rid if isinstance(rid, str) else "", None)
    if part is None:
        cx.warn(f"'reasoning-end' for reasoning '{rid}' that is not open", None, t, "reasoning-end")
        return None
    if isinstance(signature, str):
        part.signature = signature
        cx.set(part, t, signature=signature)
    cx.end(part, t)
    return part


def on_text_start(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``text-start`` chunk and return the part it touched."""
    if not isinstance(chunk, TextStartChunk):
        raise TypeError(f"'text-start' handler got {type(chunk).__name__}")
    return text_part(cx, run, chunk.payload.id, chunk.type, t, index, create=True)


def on_text_delta(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``text-delta`` chunk and return the part it touched."""
    if not isinstance(chunk, TextDeltaChunk):
        raise TypeError(f"'text-delta' handler got {type(chunk).__name__}")
    part = text_part(cx, run, chunk.payload.id, chunk.type, t, index, create=False)
    append(cx, part, chunk.payload.text, t)
    return part


def on_text_end(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``text-end`` chunk and return the part it touched."""
    if not isinstance(chunk, TextEndChunk):
        raise TypeError(f"'text-end' handler got {type(chunk).__name__}")
    return end_text(cx, run, chunk.payload.id, t)


def on_reasoning_start(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``reasoning-start`` chunk and return the part it touched."""
    if not isinstance(chunk, ReasoningStartChunk):
        raise TypeError(f"'reasoning-start' handler got {type(chunk).__name__}")
    payload = chunk.payload
    return reasoning_part(cx, run, payload.id, payload.signature, chunk.type, t, index, True)


def on_reasoning_delta(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``reasoning-delta`` chunk and return the part it touched."""
    if not isinstance(chunk, ReasoningDeltaChunk):
        raise TypeError(f"'reasoning-delta' handler got {type(chunk).__name__}")
    payload = chunk.payload
    signature = extra(payload, "signature")
    part = reasoning_part(cx, run, payload.id, signature, chunk.type, t, index, False)
    append(cx, part, payload.text, t)
    return part


def on_reasoning_end(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``reasoning-end`` chunk and return the part it touched."""
    if not isinstance(chunk, ReasoningEndChunk):
        raise TypeError(f"'reasoning-end' handler got {type(chunk).__name__}")
    return end_reasoning(cx, run, chunk.payload.id, chunk.payload.signature, t)


def on_reasoning_signature(
    cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int
) -> Part | None:
    """Fold a ``reasoning-signature`` chunk and return the part it touched."""
    if not isinstance(chunk, ReasoningSignatureChunk):
        raise TypeError(f"'reasoning-signature' handler got {type(chunk).__name__}")
    part = run.reasonings.get(chunk.payload.id)
    if part is None:
        candidates = [p for p in cx.parts if isinstance(p, ReasoningPart)]
        part = candidates[-1] if candidates else None
    signature = chunk.payload.signature
    if part is None:
        return None
    part.signature = signature
    cx.set(part, t, signature=signature)
    return part


def on_redacted_reasoning(
    cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int
) -> Part | None:
    """Fold a ``redacted-reasoning`` chunk and return the part it touched."""
    if not isinstance(chunk, RedactedReasoningChunk):
        raise TypeError(f"'redacted-reasoning' handler got {type(chunk).__name__}")
    step = cx.current_step(run, t, index)
    part = ReasoningPart(cx.new_id(), run.parent, step.id, t, index)
    part.redacted = True
    part.t1 = t
    cx.add(part)
    return part
