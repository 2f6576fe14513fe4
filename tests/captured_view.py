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


class RecordingComm:
    """A comm that keeps the state updates a widget sends, as the page would receive them."""

    kernel = object()
    comm_id = "recording"

    def __init__(self) -> None:
        self.updates: list[tuple[dict[str, Any], list[Any]]] = []

    def send(self, data: Any = None, buffers: Any = None, **_: Any) -> None:
        if isinstance(data, dict) and data.get("method") == "update":
            self.updates.append((data["state"], list(buffers or [])))

    def on_msg(self, _callback: Any) -> None:
        pass

    def close(self, *_: Any, **__: Any) -> None:
        pass
