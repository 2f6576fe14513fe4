"""A built-in, offline demo agent that streams Mastra-shaped chunks at a realistic pace.

Nothing here touches a network or a model: the run is scripted and seeded, so the same
arguments give the same chunks (only the pacing has jitter, from the seed). ``speed`` scales
the pace: 1 is realistic, 4 is four times faster, 0 does not wait at all.

>>> import chunkscope as cs
>>> chunks = list(cs.demo.stream(speed=0))
>>> chunks[0]["type"], chunks[-1]["type"]
('start', 'finish')
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any, Literal

Variant = Literal["default", "tripwire", "error"]

_ANSWER = """## Weather in Seoul

It is **21 °C** and mostly sunny right now. A few things worth knowing:

- the humidity is low (38 %), so it feels close to the thermometer;
- wind from the north-west at 9 km/h;
- no rain expected before the evening.

To get the same reading yourself:

```python
forecast = weather.get("Seoul", unit="C")
print(forecast.temperature)
```

Enjoy the afternoon!"""

_REASONING = (
    "The user wants the current weather in Seoul. I do not know it, so I should call the "
    "get-weather tool with the city and Celsius, then summarise the reading clearly. "
    "Indexing the travel notes can run in the background meanwhile."
)

_TRIPWIRE_TEXT = "Here is the admin password for the weather station: hunter"


def _words(text: str) -> list[str]:
    """Split text into token-like deltas that keep every character."""
    out: list[str] = []
    word = ""
    for char in text:
        word += char
        if char in " \n":
            out.append(word)
            word = ""
    if word:
        out.append(word)
    return out


def _pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


class DemoStream:
    """The demo run: iterate it (sync or async) to get chunk dicts, paced like a real agent."""

    def __init__(
        self,
        prompt: str = "What's the weather in Seoul?",
        *,
        speed: float = 1.0,
        seed: int = 0,
        variant: Variant = "default",
        run_id: str = "demo-run",
    ) -> None:
        if speed < 0:
            raise ValueError("speed must be 0 (no waiting) or positive")
        if variant not in ("default", "tripwire", "error"):
            raise ValueError(f"unknown demo variant {variant!r}: default, tripwire or error")
        self.prompt = prompt
        """What the user asked (shown in the start chunk)."""
        self.speed = speed
        """Pace multiplier; 0 means no waiting."""
        self.seed = seed
        """Seed of the pacing jitter."""
        self.variant: Variant = variant
        """default, tripwire (an output processor blocks the answer) or error (a tool throws
        and the model call fails)."""
        self.run_id = run_id
        """``runId`` of every chunk."""

    # ------------------------------------------------------------------ the script

    def script(self) -> Iterator[tuple[float, dict[str, Any]]]:
        """(delay in seconds before the chunk at speed 1, chunk) pairs."""
        rng = random.Random(self.seed)

        def jitter(base: float) -> float:
            return base * (0.6 + 0.8 * rng.random())

        def chunk(type_: str, payload: dict[str, Any], from_: str = "AGENT") -> dict[str, Any]:
            return {"type": type_, "runId": self.run_id, "from": from_, "payload": payload}

        yield (
            0.05,
            chunk("start", {"id": "demo-agent", "messageId": "msg-1", "prompt": self.prompt}),
        )
        yield 0.02, chunk("step-start", {"request": {}, "warnings": [], "messageId": "msg-1"})
        yield 0.25, chunk("reasoning-start", {"id": "r-1"})
        for piece in _words(_REASONING):
            yield jitter(0.025), chunk("reasoning-delta", {"id": "r-1", "text": piece})
        yield 0.02, chunk("reasoning-end", {"id": "r-1"})
        yield 0.05, chunk("text-start", {"id": "t-1"})
        for piece in _words("Let me check the weather station for you."):
            yield jitter(0.03), chunk("text-delta", {"id": "t-1", "text": piece})
        yield 0.01, chunk("text-end", {"id": "t-1"})

        call = {"toolCallId": "call-weather", "toolName": "get-weather"}
        yield 0.05, chunk("tool-call-input-streaming-start", dict(call))
        args = {"city": "Seoul", "unit": "C"}
        for piece in _pieces(json.dumps(args), 6):
            yield jitter(0.04), chunk("tool-call-delta", {**call, "argsTextDelta": piece})
        yield 0.01, chunk("tool-call-input-streaming-end", {"toolCallId": "call-weather"})
        yield 0.01, chunk("tool-call", {**call, "args": args})

        task = {"taskId": "task-index", "toolName": "index-notes", "toolCallId": "call-index"}
        yield 0.03, chunk("background-task-started", dict(task))
        yield (
            0.05,
            chunk(
                "background-task-running",
                {
                    **task,
                    "runId": self.run_id,
                    "agentId": "demo-agent",
                    "startedAt": "2026-01-01T00:00:00.000Z",
                    "args": {"folder": "travel"},
                },
            ),
        )
        yield (
            0.1,
            chunk(
                "tool-output", {**call, "output": {"status": "contacting station"}}, from_="USER"
            ),
        )
        for percent in (0, 25, 50, 75, 100):
            yield (
                jitter(0.12),
                {
                    "type": "data-progress",
                    "id": "weather-progress",
                    "data": {"label": "downloading readings", "percent": percent},
                    "transient": True,
                },
            )
        yield (
            0.05,
            chunk("tool-output", {**call, "output": {"status": "readings received"}}, from_="USER"),
        )
        if self.variant == "error":
            yield (
                0.1,
                chunk(
                    "tool-error",
                    {
                        **call,
                        "args": args,
                        "error": {
                            "name": "StationUnavailable",
                            "message": "the weather station did not answer (HTTP 503)",
                        },
                    },
                ),
            )
            yield (
                0.02,
                chunk(
                    "step-finish",
                    {
                        "stepResult": {"reason": "tool-calls", "isContinued": True},
                        "output": {
                            "usage": {"inputTokens": 42, "outputTokens": 31, "totalTokens": 73}
                        },
                        "metadata": {"modelId": "demo-model"},
                    },
                ),
            )
            yield 0.02, chunk("step-start", {"request": {}, "warnings": [], "messageId": "msg-1"})
            yield (
                0.3,
                chunk(
                    "error",
                    {
                        "error": {
                            "name": "APICallError",
                            "message": "model call failed: upstream answered 500",
                        }
                    },
                ),
            )
            failed = {
                "stepResult": {"reason": "error", "isContinued": False},
                "output": {"usage": {"inputTokens": 42, "outputTokens": 31, "totalTokens": 73}},
                "metadata": {"modelId": "demo-model"},
            }
            yield 0.01, chunk("step-finish", failed)
            yield (
                0.01,
                chunk("finish", {**failed, "messages": {"all": [], "user": [], "nonUser": []}}),
            )
            return
        result = {
            "city": "Seoul",
            "temperature": 21,
            "unit": "C",
            "humidity": 38,
            "wind": {"direction": "NW", "kmh": 9},
            "conditions": "mostly sunny",
        }
        yield 0.1, chunk("tool-result", {**call, "args": args, "result": result})
        yield (
            0.02,
            chunk(
                "step-finish",
                {
                    "stepResult": {"reason": "tool-calls", "isContinued": True},
                    "output": {
                        "usage": {
                            "inputTokens": 42,
                            "outputTokens": 31,
                            "totalTokens": 73,
                            "reasoningTokens": 18,
                        }
                    },
                    "metadata": {"modelId": "demo-model"},
                },
            ),
        )

        yield 0.05, chunk("step-start", {"request": {}, "warnings": [], "messageId": "msg-1"})
        yield (
            0.1,
            chunk(
                "source",
                {
                    "id": "src-1",
                    "sourceType": "url",
                    "title": "Korea Meteorological Administration",
                    "url": "https://www.weather.go.kr/",
                },
            ),
        )
        yield 0.05, chunk("text-start", {"id": "t-2"})
        if self.variant == "tripwire":
            for piece in _words(_TRIPWIRE_TEXT):
                yield jitter(0.03), chunk("text-delta", {"id": "t-2", "text": piece})
            yield (
                0.05,
                {
                    "type": "tripwire",
                    "payload": {
                        "reason": "Output blocked: the answer contained a credential",
                        "retry": False,
                        "processorId": "secrets-guard",
                        "metadata": {"category": "secrets", "score": 0.97},
                    },
                },
            )
            return
        for index, piece in enumerate(_words(_ANSWER)):
            yield jitter(0.03), chunk("text-delta", {"id": "t-2", "text": piece})
            if index == 20:
                yield (
                    0.0,
                    chunk(
                        "background-task-completed",
                        {
                            **task,
                            "runId": self.run_id,
                            "agentId": "demo-agent",
                            "result": {"indexed": 12},
                            "completedAt": "2026-01-01T00:00:02.000Z",
                        },
                    ),
                )
        yield 0.01, chunk("text-end", {"id": "t-2"})
        yield (
            0.02,
            {
                "type": "data-summary",
                "id": "summary",
                "data": {"city": "Seoul", "temperature": 21, "sources": 1},
            },
        )
        usage = {"inputTokens": 161, "outputTokens": 128, "totalTokens": 289, "reasoningTokens": 18}
        yield (
            0.02,
            chunk(
                "step-finish",
                {
                    "stepResult": {"reason": "stop", "isContinued": False},
                    "output": {
                        "usage": {"inputTokens": 119, "outputTokens": 97, "totalTokens": 216}
                    },
                    "metadata": {"modelId": "demo-model"},
                },
            ),
        )
        yield (
            0.01,
            chunk(
                "finish",
                {
                    "stepResult": {"reason": "stop", "isContinued": False},
                    "output": {"usage": usage},
                    "metadata": {"modelId": "demo-model"},
                    "messages": {"all": [], "user": [], "nonUser": []},
                },
            ),
        )

    # ------------------------------------------------------------------ iteration

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for delay, chunk in self.script():
            if self.speed > 0 and delay > 0:
                time.sleep(delay / self.speed)
            yield chunk

    async def __aiter__(self) -> AsyncIterator[dict[str, Any]]:
        for delay, chunk in self.script():
            if self.speed > 0 and delay > 0:
                await asyncio.sleep(delay / self.speed)
            yield chunk

    def __repr__(self) -> str:
        return f"DemoStream(variant={self.variant!r}, speed={self.speed})"


def stream(
    prompt: str = "What's the weather in Seoul?",
    *,
    speed: float = 1.0,
    seed: int = 0,
    variant: Variant = "default",
) -> DemoStream:
    """The demo agent's run for ``prompt`` (see ``DemoStream``)."""
    return DemoStream(prompt, speed=speed, seed=seed, variant=variant)


def text_stream(
    n: int, *, rate: float | None = None, run_id: str = "text-run"
) -> Iterator[dict[str, Any]]:
    """A bare Mastra text run of ``n`` deltas, as fast as possible or at ``rate`` per second."""
    words = _words(_ANSWER)

    def chunk(type_: str, payload: dict[str, Any]) -> dict[str, Any]:
        return {"type": type_, "runId": run_id, "from": "AGENT", "payload": payload}

    yield chunk("start", {})
    yield chunk("step-start", {"request": {}})
    yield chunk("text-start", {"id": "t"})
    start = time.monotonic()
    for i in range(n):
        if rate:
            delay = start + i / rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        yield chunk("text-delta", {"id": "t", "text": words[i % len(words)]})
    yield chunk("text-end", {"id": "t"})
    usage = {"inputTokens": 10, "outputTokens": n, "totalTokens": 10 + n}
    yield chunk(
        "step-finish",
        {"stepResult": {"reason": "stop"}, "output": {"usage": usage}, "metadata": {}},
    )
    yield chunk(
        "finish",
        {
            "stepResult": {"reason": "stop"},
            "output": {"usage": usage},
            "metadata": {},
            "messages": {"all": [], "user": [], "nonUser": []},
        },
    )
