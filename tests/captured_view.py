"""A StreamView that keeps what it sends, for tests of the kernel side of the wire."""

from __future__ import annotations

import json
from typing import Any

import chunkscope as cs


class Captured(cs.StreamView):
    """A StreamView that keeps what it sends, as the browser would receive it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.sent: list[dict[str, Any]] = []
        super().__init__(*args, **kwargs)

    def send(self, content: Any, buffers: Any = None) -> None:
        self.sent.append(json.loads(json.dumps(content)))
