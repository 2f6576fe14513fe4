"""Application data: ``data-*`` chunks (reconciled by id), ``custom`` chunks; transient
``data-*`` items are the context's (``Fold.transient_item``), as nested runs meet them too."""

from __future__ import annotations

from ..chunks.models import BaseChunk, CustomChunk, DataChunk
from .context import Fold, _Run, plain
from .parts import DataPart, Part


def on_data(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a persisted ``data-*`` chunk: a new part, or the latest value of one with its id."""
    if not isinstance(chunk, DataChunk):
        raise TypeError(f"'{chunk.type}' handler got {type(chunk).__name__}")
    type_ = chunk.type
    data_id = chunk.id
    data = plain(chunk.data)
    key = (type_, data_id) if data_id is not None else None
    part = cx.data.get(key) if key is not None else None
    if part is not None:
        part.data = data
        cx.set(part, t, data=data)
        part.t1 = t
        return part
    step = run.step.id if run.step is not None and run.step.t1 is None else None
    part = DataPart(cx.new_id(), run.parent, step, t, index, type_, data_id)
    part.data = data
    part.t1 = t
    if key is not None:
        cx.data[key] = part
    cx.add(part)
    return part


def on_custom(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``custom`` chunk and return the part it touched."""
    if not isinstance(chunk, CustomChunk):
        raise TypeError(f"'custom' handler got {type(chunk).__name__}")
    part = DataPart(cx.new_id(), run.parent, run.step_id, t, index, "custom", None)
    part.data = plain(chunk.payload)
    part.t1 = t
    cx.add(part)
    return part
