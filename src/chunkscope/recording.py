"""Record a stream to JSONL and replay it with its original timing.

A recording has one chunk a line, ``{"t": <ms since the stream began>, "chunk": {...}}``, the
same format as the project's real Mastra fixtures. Transient ``data-*`` chunks are left out
unless asked for: they are live-only by definition.

Secrets stay out of a recording. Unless it is written with ``mask=False`` (or a
``SecretMask`` of its own), API keys (``sk-…``, ``sk-ant-…``, ``AKIA…``, ``ghp_…``,
``xoxb-…``/``xoxp-…``), the token of ``Bearer <token>``, and the value of every header-like
field (``authorization``, ``api-key``, ``x-api-key``, ``cookie``, ``set-cookie``,
``password``, ``secret``, ``token``, in any case, spelt with ``-``, ``_`` or camelCase, also
as the last word of a longer name such as ``access_token``) anywhere in a chunk, including
``"key": "value"`` pairs and ``Key: value`` header lines inside strings, become ``"***"``
before the line is written. The chunk the stream yields is left as it is; only the file is
masked. Masking looks at one chunk at a time: a secret split across several streamed deltas
is only caught where a delta holds the whole of it. ``record``, ``arecord``,
``show(record=…)`` and cassettes (``chunkscope.cassettes``) all mask by default.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import AsyncIterator, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, AnyStr

from .chunks import BaseChunk, Chunk, is_transient, parse_chunk
from .wire.safejson import clip_for_wire

MASKED = "***"
"""What a masked value becomes in a recording."""

SECRET_PATTERNS: tuple[str, ...] = (
    r"\bsk-ant-[A-Za-z0-9_-]{8,}",
    r"\bsk-[A-Za-z0-9_-]{16,}",
    r"\bAKIA[0-9A-Z]{16}\b",
    r"\bghp_[A-Za-z0-9]{20,}",
    r"\bxox[bp]-[A-Za-z0-9-]{8,}",
    r"\bBearer\s+(?P<secret>[A-Za-z0-9._~+/=-]{8,})",
)
"""Regular expressions of secrets in text: API keys and bearer tokens. Where a pattern has a
group named ``secret`` only that group is masked (``Bearer ***``), else the whole match."""

SECRET_KEYS: frozenset[str] = frozenset(
    {
        "authorization",
        "api-key",
        "x-api-key",
        "cookie",
        "set-cookie",
        "password",
        "secret",
        "token",
    }
)
"""Names of header-like fields whose values are masked, lower case with ``-`` between words;
a name matches in any case and spelling (``API_KEY``, ``apiKey``, ``X-Api-Key``) and also as
the last words of a longer name (``access_token``, ``client-secret``)."""

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
# "key": "value" pairs inside text (JSON written into a string, tool arguments as text)
_QUOTED_PAIR = re.compile(
    r'"(?P<key>[A-Za-z][A-Za-z0-9_-]{0,63})"\s*:\s*"(?P<value>(?:[^"\\]|\\.)*)"'
)
# Key: value header lines inside text
_HEADER_LINE = re.compile(
    r"(?m)^[ \t]*(?P<key>[A-Za-z][A-Za-z0-9_-]{0,63})[ \t]*:[ \t]*(?P<value>\S[^\r\n]*)"
)


class SecretMask:
    """Which values a recording masks: secret-shaped text and the values of secret fields.

    ``patterns`` are regular expressions searched in every string (default
    ``SECRET_PATTERNS``); ``keys`` are field names whose values are replaced whatever they
    are (default ``SECRET_KEYS``); ``replacement`` is what a masked value becomes.
    """

    def __init__(
        self,
        patterns: Iterable[str | re.Pattern[str]] = SECRET_PATTERNS,
        keys: Iterable[str] = SECRET_KEYS,
        replacement: str = MASKED,
    ) -> None:
        self.patterns = tuple(re.compile(p) if isinstance(p, str) else p for p in patterns)
        """The compiled secret patterns."""
        self.keys = frozenset(_key_name(k) for k in keys)
        """The secret field names, normalized."""
        self.replacement = replacement
        """What a masked value becomes."""
        # one search tells whether any pattern occurs, so plain text costs a single scan
        self._any = re.compile("|".join(f"(?:{_ungrouped(p.pattern)})" for p in self.patterns))
        self._key_cache: dict[str, bool] = {}

    def is_secret_key(self, key: str) -> bool:
        """Whether a field called ``key`` holds a secret (``X-Api-Key``, ``access_token``)."""
        known = self._key_cache.get(key)
        if known is None:
            name = _key_name(key)
            known = name in self.keys or any(name.endswith("-" + k) for k in self.keys)
            if len(self._key_cache) < 4096:
                self._key_cache[key] = known
        return known

    def text(self, value: str) -> str:
        """``value`` with every secret in it masked."""
        if len(value) < 6:
            return value
        if self.patterns and self._any.search(value):
            for pattern in self.patterns:
                value = pattern.sub(self._masked_match, value)
        if ":" in value:
            value = _QUOTED_PAIR.sub(self._masked_pair, value)
            value = _HEADER_LINE.sub(self._masked_pair, value)
        return value

    def apply(self, value: Any) -> Any:
        """A copy of a JSON value with its secrets masked (the value itself when it has none)."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            out: dict[Any, Any] = {}
            changed = False
            for key, item in value.items():
                if isinstance(key, str) and item is not None and self.is_secret_key(key):
                    new = self.replacement
                else:
                    new = self.apply(item)
                changed = changed or new is not item
                out[key] = new
            return out if changed else value
        if isinstance(value, (list, tuple)):
            if (
                len(value) == 2
                and isinstance(value[0], str)
                and value[1] is not None
                and self.is_secret_key(value[0])
            ):
                return [value[0], self.replacement]  # a (name, value) header pair
            items = [self.apply(item) for item in value]
            if any(new is not old for new, old in zip(items, value, strict=True)):
                return items
            return value
        return value

    def _masked_match(self, match: re.Match[str]) -> str:
        if "secret" in match.re.groupindex and match.group("secret") is not None:
            start, end = match.span("secret")
            whole = match.group(0)
            offset = match.start()
            return whole[: start - offset] + self.replacement + whole[end - offset :]
        return self.replacement

    def _masked_pair(self, match: re.Match[str]) -> str:
        if not self.is_secret_key(match.group("key")) or match.group("value") in (
            "",
            self.replacement,
        ):
            return match.group(0)
        whole = match.group(0)
        start, end = match.span("value")
        offset = match.start()
        return whole[: start - offset] + self.replacement + whole[end - offset :]

    def __repr__(self) -> str:
        return f"SecretMask({len(self.patterns)} patterns, {len(self.keys)} keys)"


MaskOption = bool | SecretMask | None
"""What ``mask=`` takes: True for the default ``SecretMask``, False or None for none, or one."""


def _ungrouped(pattern: str) -> str:
    """``pattern`` with its named groups unnamed, so that several join into one."""
    return re.sub(r"\(\?P<[A-Za-z_][A-Za-z0-9_]*>", "(?:", pattern)


def _key_name(key: str) -> str:
    return _CAMEL.sub("-", key.strip()).lower().replace("_", "-").replace(" ", "-")


def as_mask(mask: MaskOption) -> SecretMask | None:
    """The ``SecretMask`` a ``mask=`` option stands for (None: keep everything)."""
    if mask is True:
        return DEFAULT_MASK
    if mask is False or mask is None:
        return None
    if isinstance(mask, SecretMask):
        return mask
    raise TypeError(f"mask must be True, False or a SecretMask, not {type(mask).__name__}")


def _chunk_json(chunk: Any, parsed: Chunk | None) -> Any:
    """What a recording line keeps: a dict as given, a model or text as its chunk's JSON."""
    if isinstance(chunk, BaseChunk):
        return chunk.model_dump(by_alias=True, exclude_unset=True, mode="json")
    if isinstance(chunk, (str, bytes)):
        if parsed is None:
            parsed = parse_chunk(chunk)
        return (
            getattr(parsed, "raw", None)
            if not isinstance(parsed, BaseChunk)
            else (parsed.model_dump(by_alias=True, exclude_unset=True, mode="json"))
        )
    return clip_for_wire(chunk, max_depth=10_000)


DEFAULT_MASK = SecretMask()
"""The mask ``mask=True`` stands for: ``SECRET_PATTERNS`` and ``SECRET_KEYS``."""


class Recorder:
    """Writes chunks to a JSONL file as they pass; used by ``record`` and ``show(record=…)``."""

    def __init__(
        self, path: str | Path, *, include_transient: bool = False, mask: MaskOption = True
    ) -> None:
        self.path = Path(path)
        """Where the recording goes."""
        self.include_transient = include_transient
        """Keep transient ``data-*`` chunks too."""
        self.mask = as_mask(mask)
        """Masks secrets in each line before it is written (None: lines are kept as given)."""
        self.count = 0
        """Chunks written so far."""
        self._file: IO[str] | None = None
        self._origin: float | None = None

    def write(self, chunk: Any, t: float | None = None, *, parsed: Chunk | None = None) -> None:
        """Append one chunk with its arrival offset (measured here when not given).

        ``parsed`` is ``parse_chunk(chunk)`` when the caller already has it (the fold parses
        every chunk): the chunk is then not parsed again here. Without it, the chunk is
        parsed at most once, and only when its JSON or its transience needs it.
        """
        if not self.include_transient:
            if parsed is None:
                parsed = parse_chunk(chunk)
            if is_transient(parsed):
                return
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("w", encoding="utf-8")
        if t is None:
            now = time.monotonic()
            if self._origin is None:
                self._origin = now
            t = (now - self._origin) * 1000.0
        value = _chunk_json(chunk, parsed)
        if self.mask is not None:
            value = self.mask.apply(value)
        line = {"t": round(t, 3), "chunk": value}
        self._file.write(json.dumps(line, ensure_ascii=False) + "\n")
        self.count += 1

    def close(self) -> None:
        """Flush and close the file (an empty recording still creates it)."""
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.touch()
        else:
            self._file.close()
            self._file = None


class Replay:
    """Chunks of a recording, as a sync or an async iterable, paced like the original.

    ``speed`` scales time: 1 is the original pace, 2 twice as fast, 0 no waiting at all. A
    line that is not valid JSON, or not a chunk, is yielded as is so that the fold shows it
    as an invalid chunk at that line instead of the replay failing.
    """

    def __init__(self, path: str | Path, speed: float = 1.0) -> None:
        if speed < 0:
            raise ValueError("speed must be 0 (no waiting) or positive")
        self.path = Path(path)
        """The recording."""
        self.speed = speed
        """Time scale: 1 original pace, 0 no waiting."""

    def lines(self) -> Iterator[tuple[float | None, Any, str]]:
        """(recorded offset, chunk or raw line, "line N") for each non-blank line."""
        number = 0
        with self.path.open("rb") as file:
            for block in _line_blocks(file):
                try:
                    text = block.decode("utf-8")
                except UnicodeDecodeError:
                    # Bad bytes somewhere in the block: each line read on its own, so that
                    # only the bad ones are kept as they are.
                    for raw in _split_lines(block, b"\n"):
                        number += 1
                        if raw.strip():
                            yield (*_read_line(raw), f"line {number}")
                    continue
                for line in _split_lines(text, "\n"):
                    number += 1
                    if line.strip():
                        yield (*_read_text_line(line), f"line {number}")

    def timed(self, wait: bool = True) -> Iterator[tuple[float, Any, str]]:
        """(offset ms on the replay's clock, chunk, where), sleeping between them if ``wait``."""
        start = time.monotonic()
        last = 0.0
        for recorded, chunk, where in self.lines():
            t = last if recorded is None else self._scaled(recorded)
            last = t
            if wait and self.speed > 0:
                delay = start + t / 1000.0 - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
            yield t, chunk, where

    async def atimed(self) -> AsyncIterator[tuple[float, Any, str]]:
        """``timed`` with asyncio sleeps."""
        start = time.monotonic()
        last = 0.0
        for recorded, chunk, where in self.lines():
            t = last if recorded is None else self._scaled(recorded)
            last = t
            if self.speed > 0:
                delay = start + t / 1000.0 - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
            yield t, chunk, where

    def _scaled(self, recorded: float) -> float:
        return recorded / self.speed if self.speed > 0 else recorded

    def __iter__(self) -> Iterator[Any]:
        for _, chunk, _ in self.timed():
            yield chunk

    async def __aiter__(self) -> AsyncIterator[Any]:
        async for _, chunk, _ in self.atimed():
            yield chunk

    def __repr__(self) -> str:
        return f"Replay({str(self.path)!r}, speed={self.speed})"


_BLOCK_BYTES = 1 << 20
"""Bytes a replay reads at a time: its lines are decoded a block at a time, which costs
less than decoding each line's bytes on its own (a third of a replay's time went there)."""

_decode_json = json.JSONDecoder().decode


def _line_blocks(file: IO[bytes]) -> Iterator[bytes]:
    """The file in blocks of whole lines (the last one may lack its newline)."""
    rest = b""
    while block := file.read(_BLOCK_BYTES):
        block = rest + block
        end = block.rfind(b"\n") + 1
        if end == 0:
            rest = block
            continue
        rest = block[end:]
        yield block[:end]
    if rest:
        yield rest


def _split_lines(block: AnyStr, newline: AnyStr) -> list[AnyStr]:
    """The lines of a block from ``_line_blocks``, without their newlines; split at the
    newline only, as iterating over a binary file does."""
    lines = block.split(newline)
    if lines[-1] == block[:0]:
        lines.pop()
    return lines


def _read_text_line(line: str) -> tuple[float | None, Any]:
    """``_read_line`` for a line already decoded: anything its JSON does not read as an
    object (a bad line, a byte order mark) goes through ``_read_line``, which says so."""
    try:
        value = _decode_json(line)
    except (ValueError, RecursionError):
        return _read_line(line.encode("utf-8"))
    if not isinstance(value, dict):
        return _read_line(line.encode("utf-8"))
    return _recorded(value)


def _recorded(value: dict[str, Any]) -> tuple[float | None, Any]:
    """A line's object: ``{"t", "chunk"}`` gives the offset and the chunk, else the object
    is the chunk."""
    if "chunk" in value and set(value) <= {"t", "chunk"}:
        t = value.get("t")
        offset = float(t) if isinstance(t, (int, float)) and not isinstance(t, bool) else None
        return offset, value["chunk"]
    return None, value


def _read_line(raw: bytes) -> tuple[float | None, Any]:
    """A recording line: ``{"t", "chunk"}``, a bare chunk, or bad bytes kept for the fold."""
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return None, raw.rstrip(b"\r\n")
    if not isinstance(value, dict):
        # A JSON string would be read again as JSON text by the fold; the line as written
        # lets it say "expected a JSON object, got string".
        return None, raw.rstrip(b"\r\n")
    return _recorded(value)


def replay(path: str | Path, speed: float = 1.0) -> Replay:
    """Replay a JSONL recording (see ``Replay``)."""
    return Replay(path, speed)
