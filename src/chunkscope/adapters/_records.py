r"""Split a byte stream of JSON records (``\x1e``- or newline-separated), incrementally.

Mastra's workflow stream route sends one JSON record followed by the ASCII record separator
(``\x1e``) per chunk, as ``text/plain`` with no charset and no end marker; JSON Lines files
use newlines. Both are handled: bytes are decoded as UTF-8 across piece boundaries (invalid
bytes replaced) and a record is complete at either separator.
"""

from __future__ import annotations

import codecs
import re
from typing import Any

from ._json import parse_json_text

_SEPARATORS = re.compile("[\x1e\n]")


class RecordSplitter:
    """Feed bytes or text; get back ``(ok, value_or_text)`` for every complete record."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self.records: int = 0
        """How many complete records were returned."""

    @property
    def pending(self) -> str:
        """Text after the last separator (a record cut short if the stream ends here)."""
        return self._buffer

    def feed(self, piece: bytes | str) -> list[tuple[bool, Any]]:
        """Consume a piece; return the records it completes (blank ones skipped)."""
        text = piece if isinstance(piece, str) else self._decoder.decode(bytes(piece))
        self._buffer += text
        parts = _SEPARATORS.split(self._buffer)
        self._buffer = parts.pop()
        out = []
        for part in parts:
            if part.strip():
                self.records += 1
                out.append(parse_json_text(part))
        return out

    def close(self) -> str:
        """End of stream: return what was left after the last separator (stripped)."""
        self._buffer += self._decoder.decode(b"", final=True)
        rest, self._buffer = self._buffer.strip(), ""
        return rest
