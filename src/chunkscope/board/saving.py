"""How a board widget carries its saved board: the first rows and kept runs in ``saved``, the
others in more traits ("parts") of about 250 KB each, rows first.

The page receives each trait change as one message and handles it in one task (the
websocket's message, its decoding, the widget model's update). In the board's browser test
(2,000 runs, 10 MB of kept runs) one message held the page for 150-250 ms, parts of 1 MB for
up to 100 ms each, parts of 250 KB for under 50 ms. The rows alone of 2,000 runs are 1.1 MB
of JSON (about 560 bytes a row, most of it the text's tail and the strip's marks).
"""

from __future__ import annotations

import json
from typing import Any

from ..wire.schema import BOARD_SAVED_PART_PREFIX

PART_BYTES = 250_000
"""Most bytes of rows and packed snapshots one message of the saved board carries (a single
larger run goes alone)."""


def stored_bytes(value: Any, json_size: int) -> int:
    """What a kept run weighs as stored: its packed bytes, or its JSON when plain."""
    data = value.get("data") if isinstance(value, dict) else None
    return len(data) if isinstance(data, bytes) else json_size


def part_name(index: int) -> str:
    """The trait holding part ``index`` (1, 2, …) of the kept runs."""
    return f"{BOARD_SAVED_PART_PREFIX}{index}"


def row_bytes(row: dict[str, Any]) -> int:
    """What a row weighs in a message: its JSON, as the kernel writes it."""
    return len(json.dumps(row, ensure_ascii=False))


class SavedGroup:
    """The rows and kept runs of one message of the saved board."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self.runs: dict[str, Any] = {}
        self.size = 0

    def __bool__(self) -> bool:
        return bool(self.rows or self.runs)


def split_saved(
    rows: list[dict[str, Any]], runs: dict[str, Any], limit: int = PART_BYTES
) -> list[SavedGroup]:
    """The rows and then the kept runs, in order, cut into groups of at most ``limit`` bytes
    each (a row weighs its JSON, a run its stored bytes; one larger than that goes alone);
    one empty group when there are none."""
    groups = [SavedGroup()]

    def place(weight: int) -> SavedGroup:
        if groups[-1] and groups[-1].size + weight > limit:
            groups.append(SavedGroup())
        groups[-1].size += weight
        return groups[-1]

    for row in rows:
        place(row_bytes(row)).rows.append(row)
    for run_id, value in runs.items():
        place(stored_bytes(value, 0)).runs[run_id] = value
    return groups
