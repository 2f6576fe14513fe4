"""Problems found while folding a stream: what was wrong, and where."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One error or warning, located by chunk index (and line, for recordings)."""

    message: str
    """What was wrong."""
    chunk_index: int
    """Index of the chunk (0-based) at which it was found."""
    where: str | None = None
    """Where the chunk came from, e.g. ``line 12`` of a recording or ``event 4`` of an SSE
    stream; None when the chunk index says enough."""
    type: str | None = None
    """The chunk type involved, when known."""
    t: float = 0.0
    """Arrival offset (ms) of that chunk."""

    def describe(self) -> str:
        """The problem in one line, place first: ``chunk 12 (line 13): …``."""
        place = f"chunk {self.chunk_index}"
        if self.where and self.where != place:
            place += f" ({self.where})"
        return f"{place}: {self.message}"
