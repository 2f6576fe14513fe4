"""Sources, files and structured output: ``source``, ``file``, ``reasoning-file``,
``object``, ``object-result``."""

from __future__ import annotations

import base64
from typing import Any

from ..chunks.models import (
    BaseChunk,
    FileChunk,
    ObjectChunk,
    ObjectResultChunk,
    ReasoningFileChunk,
    SourceChunk,
)
from .context import Fold, _Run, extra, plain, str_or_none
from .parts import FilePart, ObjectPart, Part, SourcePart


def on_source(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``source`` chunk and return the part it touched."""
    if not isinstance(chunk, SourceChunk):
        raise TypeError(f"'source' handler got {type(chunk).__name__}")
    payload = chunk.payload
    step = cx.current_step(run, t, index)
    part = SourcePart(cx.new_id(), run.parent, step.id, t, index)
    part.source_type = payload.source_type
    part.title = payload.title
    part.url = payload.url
    part.mime_type = payload.mime_type
    part.filename = payload.filename
    part.t1 = t
    cx.add(part)
    return part


def on_file(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold one of ``reasoning-file``, ``file`` and return the part it touched."""
    if not isinstance(chunk, (FileChunk, ReasoningFileChunk)):
        raise TypeError(f"'{chunk.type}' handler got {type(chunk).__name__}")
    payload = chunk.payload
    step = cx.current_step(run, t, index)
    part = FilePart(cx.new_id(), run.parent, step.id, t, index)
    part.mime_type = payload.mime_type
    if isinstance(chunk, FileChunk):
        encoded: Any = chunk.payload.base64
        filename: Any = chunk.payload.filename
    else:
        encoded = extra(payload, "base64")
        filename = extra(payload, "filename")
    data = encoded
    if not isinstance(data, str):
        data = plain(payload.data)
        if isinstance(data, (bytes, bytearray)):
            data = base64.b64encode(bytes(data)).decode("ascii")
    part.data = data
    part.filename = str_or_none(filename)
    part.t1 = t
    cx.add(part)
    return part


def on_object(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold one of ``object``, ``object-result`` and return the part it touched."""
    if not isinstance(chunk, (ObjectChunk, ObjectResultChunk)):
        raise TypeError(f"'{chunk.type}' handler got {type(chunk).__name__}")
    value = plain(chunk.object)
    final = isinstance(chunk, ObjectResultChunk)
    part = run.objects
    if part is None:
        part = ObjectPart(cx.new_id(), run.parent, run.step_id, t, index)
        part.object, part.final = value, final
        run.objects = part
        cx.add(part)
    else:
        part.object, part.final = value, final
        cx.set(part, t, object=value, final=final)
    if final:
        cx.end(part, t)
    return part
