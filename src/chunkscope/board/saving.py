"""How a board widget carries its saved board: the rows and the first kept runs in ``saved``,
the other kept runs in more traits of about 250 KB each.

The page receives each trait change as one message and handles it in one task (the
websocket's message, its decoding, the widget model's update). In the board's browser test
(2,000 runs, 10 MB of kept runs) one message held the page for 150-250 ms, parts of 1 MB for
up to 100 ms each, parts of 250 KB for under 50 ms.
"""

from __future__ import annotations

from typing import Any

from ..wire.schema import BOARD_SAVED_PART_PREFIX

PART_BYTES = 250_000
"""Most bytes of packed snapshots one message of the saved board carries (a single larger
run goes alone)."""


def stored_bytes(value: Any, json_size: int) -> int:
    """What a kept run weighs as stored: its packed bytes, or its JSON when plain."""
    data = value.get("data") if isinstance(value, dict) else None
    return len(data) if isinstance(data, bytes) else json_size


def part_name(index: int) -> str:
    """The trait holding part ``index`` (1, 2, …) of the kept runs."""
    return f"{BOARD_SAVED_PART_PREFIX}{index}"


def split_runs(runs: dict[str, Any], limit: int = PART_BYTES) -> list[dict[str, Any]]:
    """The kept runs in order, cut into groups of at most ``limit`` stored bytes each (a run
    larger than that alone); one empty group when there are none."""
    groups: list[dict[str, Any]] = [{}]
    size = 0
    for run_id, value in runs.items():
        weight = stored_bytes(value, 0)
        if groups[-1] and size + weight > limit:
            groups.append({})
            size = 0
        groups[-1][run_id] = value
        size += weight
    return groups
