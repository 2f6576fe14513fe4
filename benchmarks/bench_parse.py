"""Parse-only throughput of `chunkscope.chunks.models.parse_chunk` on a realistic Mastra stream.

Builds 100k chunk dicts shaped like a real agent run (mostly `text-delta`, with reasoning,
streamed tool calls, results and step boundaries), then times `parse_chunk` over all of them.
Prints chunks/s for the whole mix and for `text-delta` alone, measured in CPU time of this
process (best of several passes), so other work on a shared machine does not skew it.

    python benchmarks/bench_parse.py [--chunks N] [--repeat R]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from chunkscope.chunks.models import InvalidChunk, UnknownChunk, parse_chunk

RUN = "run-9b1f"


def _chunk(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"type": kind, "runId": RUN, "from": "AGENT", "payload": payload}


def _step(index: int) -> list[dict[str, Any]]:
    """One model step: some reasoning, a streamed tool call, its result, then text."""
    call = f"call-{index}"
    return [
        _chunk("step-start", {"messageId": f"msg-{index}", "request": {"body": "{}"}}),
        _chunk("reasoning-start", {"id": f"r{index}"}),
        *(_chunk("reasoning-delta", {"id": f"r{index}", "text": "hmm "}) for _ in range(20)),
        _chunk("reasoning-end", {"id": f"r{index}"}),
        _chunk("tool-call-input-streaming-start", {"toolCallId": call, "toolName": "search"}),
        *(
            _chunk("tool-call-delta", {"toolCallId": call, "argsTextDelta": piece})
            for piece in ('{"q', 'uery": "', "weather ", "in Seoul", '"}')
        ),
        _chunk("tool-call-input-streaming-end", {"toolCallId": call}),
        _chunk("tool-call", {"toolCallId": call, "toolName": "search", "args": {"q": "x"}}),
        _chunk("tool-result", {"toolCallId": call, "toolName": "search", "result": {"t": 21}}),
        _chunk("text-start", {"id": f"t{index}"}),
        *(_chunk("text-delta", {"id": f"t{index}", "text": "word "}) for _ in range(160)),
        _chunk("text-end", {"id": f"t{index}"}),
        _chunk(
            "step-finish",
            {
                "stepResult": {"reason": "tool-calls", "isContinued": True},
                "output": {"usage": {"inputTokens": 10, "outputTokens": 180, "totalTokens": 190}},
                "metadata": {},
            },
        ),
    ]


def realistic_stream(count: int) -> list[dict[str, Any]]:
    """About `count` chunks: a start, model steps until the count is reached, a finish."""
    chunks = [_chunk("start", {"id": "agent", "messageId": "msg-0"})]
    index = 0
    while len(chunks) < count - 1:
        chunks.extend(_step(index))
        index += 1
    del chunks[count - 1 :]
    chunks.append(
        _chunk(
            "finish",
            {
                "stepResult": {"reason": "stop"},
                "output": {"usage": {"inputTokens": 10, "outputTokens": 9, "totalTokens": 19}},
                "metadata": {},
                "messages": {"all": [], "user": [], "nonUser": []},
            },
        )
    )
    return chunks


def _rate(chunks: list[dict[str, Any]], repeat: int, parse: Callable[[Any], Any]) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        for chunk in chunks:
            parse(chunk)
        best = min(best, time.process_time() - started)
    return len(chunks) / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=100_000, help="chunks in the stream")
    parser.add_argument("--repeat", type=int, default=5, help="timed passes (best is kept)")
    args = parser.parse_args()

    stream = realistic_stream(args.chunks)
    bad = [c for c in map(parse_chunk, stream) if isinstance(c, (InvalidChunk, UnknownChunk))]
    if bad:
        raise SystemExit(f"benchmark stream does not parse cleanly: {bad[0]!r}")
    deltas = [c for c in stream if c["type"] == "text-delta"]

    mix = _rate(stream, args.repeat, parse_chunk)
    text = _rate(deltas, args.repeat, parse_chunk)
    print(f"stream: {len(stream)} chunks, {len(deltas) / len(stream):.0%} text-delta")
    print(f"parse_chunk, realistic mix: {mix:,.0f} chunks/s")
    print(f"parse_chunk, text-delta only: {text:,.0f} chunks/s")


if __name__ == "__main__":
    main()
