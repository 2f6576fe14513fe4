"""Small shapes the comparison and its HTML view share: time spans and JSON paths."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


@dataclass(frozen=True)
class Span:
    """When something ran, in milliseconds from the start of its stream."""

    t0: float
    """Start offset."""
    t1: float
    """End offset."""


def child_path(path: str, key: Any) -> str:
    """The JSON path of ``key`` under ``path``: ``args.city`` or ``args["two words"]``."""
    key = str(key)
    return f"{path}.{key}" if _PLAIN_KEY.fullmatch(key) else f"{path}[{json.dumps(key)}]"
