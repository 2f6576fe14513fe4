"""Sources, files and structured output: ``source``, ``file``, ``reasoning-file``,
``object``, ``object-result``."""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote_to_bytes

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
        raw = _bytes_of(data)
        if raw is not None:
            data = base64.b64encode(raw).decode("ascii")
    if isinstance(data, str) and data.startswith("data:"):
        mime, decoded = _data_url(data)
        if decoded is not None:
            data = decoded
            part.mime_type = part.mime_type or mime
    part.data = data
    part.filename = str_or_none(filename)
    part.t1 = t
    cx.add(part)
    return part


def _bytes_of(data: Any) -> bytes | None:
    """The bytes of a serialised byte array: ``bytes``, a list of byte values, or the object
    of byte indices ``JSON.stringify`` makes of a ``Uint8Array`` (``{"0": 137, "1": 80}``)."""
    if isinstance(data, (bytes, bytearray)):
        return bytes(data)
    if isinstance(data, Mapping) and data:
        try:
            values = [data[str(i)] for i in range(len(data))]
        except KeyError:
            return None
    elif isinstance(data, list) and data:
        values = data
    else:
        return None
    if not all(type(v) is int and 0 <= v <= 255 for v in values):
        return None
    return bytes(values)


def _data_url(url: str) -> tuple[str | None, str | None]:
    """The media type and base64 content of a ``data:`` URL (None, None when malformed)."""
    head, sep, body = url[5:].partition(",")
    if not sep:
        return None, None
    params = head.split(";")
    mime = params[0] or None
    if "base64" in params[1:]:
        return mime, body
    return mime, base64.b64encode(unquote_to_bytes(body)).decode("ascii")


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
