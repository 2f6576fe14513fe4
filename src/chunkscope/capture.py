"""Writing a stream to a recording: ``record()`` for a sync stream, ``arecord()`` for an async
one. Both read what ``show()`` reads (see ``chunkscope.inputs``) and write the Mastra chunks it
yields, through ``chunkscope.recording.Recorder``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .inputs import as_source, sync_chunks
from .recording import MaskOption, Recorder


def record(
    source: Any,
    path: str | Path,
    *,
    include_transient: bool = False,
    mask: MaskOption = True,
) -> int:
    """Consume a sync source, writing every chunk to ``path``; return how many were written.

    ``source`` is what ``accumulate()`` reads: Mastra chunks, or a stream the adapters
    recognise (recorded as the Mastra chunks it adapts to), context managers included.
    Secrets (API keys, bearer tokens, header-like fields) are masked in the file unless
    ``mask=False``; a ``SecretMask`` chooses which.
    """
    chunks = sync_chunks(source, to="record()")
    recorder = Recorder(path, include_transient=include_transient, mask=mask)
    try:
        for chunk in chunks:
            recorder.write(chunk)
    finally:
        recorder.close()
    return recorder.count


async def arecord(
    source: Any, path: str | Path, *, include_transient: bool = False, mask: MaskOption = True
) -> int:
    """``record`` for an async source (adapted and entered like ``show()``'s)."""
    chunks = as_source(source, to="arecord()")
    recorder = Recorder(path, include_transient=include_transient, mask=mask)
    try:
        async for chunk in chunks:
            recorder.write(chunk)
    finally:
        recorder.close()
    return recorder.count
