"""The text stream every benchmarked approach receives: deterministic, markdown-ish, LLM-sized.

Used on both sides: the kernel streams it, the runner computes what should end up on screen.
Text is plain ASCII without ``<`` or ``&`` so an HTML widget shows it verbatim, and without
ordered lists or fence languages so rendered Markdown keeps every letter and digit.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator

#: The last delta of every stream; a page probe reports the moment it becomes visible.
END_MARKER = "ZQXENDOFSTREAMZQX"

#: The first word of every stream (its first delta is a heading's "## "): the probe reports
#: when it becomes visible. No view shows it before the text does.
FIRST_WORD = "Section"

#: Pattern of the send-time stamp a paced delta carries: ``⟦<epoch ms with one decimal>⟧``.
STAMP_PATTERN = r"⟦(\d{13}\.\d)⟧"

_WORDS = [
    "agent",
    "stream",
    "token",
    "model",
    "notebook",
    "widget",
    "render",
    "buffer",
    "frame",
    "channel",
    "kernel",
    "message",
    "delta",
    "chunk",
    "output",
    "latency",
    "window",
    "batch",
    "reply",
    "browser",
    "server",
    "cell",
    "text",
    "tool",
    "result",
    "reasoning",
    "step",
    "usage",
    "finish",
    "status",
    "queue",
    "socket",
    "paint",
    "layout",
    "budget",
    "sample",
    "metric",
]

_CODE = [
    "def flush(buffer):",
    "    text = ''.join(buffer)",
    "    buffer.clear()",
    "    return text",
    "",
    "for chunk in stream:",
    "    parts.append(chunk.text)",
]


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(6, 14))]
    words[0] = words[0].capitalize()
    if rng.random() < 0.3:
        words[rng.randrange(len(words))] = f"**{rng.choice(_WORDS)}**"
    if rng.random() < 0.2:
        words[rng.randrange(len(words))] = f"`{rng.choice(_WORDS)}_{rng.randint(1, 99)}`"
    return " ".join(words) + rng.choice([".", ".", ".", "?", "!"])


def _section(rng: random.Random, index: int) -> str:
    lines = [f"## Section {index}: {rng.choice(_WORDS)} {rng.choice(_WORDS)}", ""]
    lines.append(" ".join(_sentence(rng) for _ in range(rng.randint(2, 5))))
    lines.append("")
    lines.extend(f"- {_sentence(rng)}" for _ in range(rng.randint(2, 4)))
    lines.append("")
    if index % 3 == 0:
        lines.extend(["```", *_CODE, "```", ""])
    lines.append(" ".join(_sentence(rng) for _ in range(rng.randint(1, 3))))
    return "\n".join(lines) + "\n\n"


def _tokens(text: str) -> list[str]:
    """Split like a model's tokenizer would: words with their trailing space or newline."""
    return re.findall(r"\S+\s*|\s+", text)


def make_deltas(n: int, seed: int = 9) -> list[str]:
    """``n`` text deltas (about five characters each), the same for the same ``n`` and seed."""
    rng = random.Random(seed)
    deltas: list[str] = []
    index = 1
    while len(deltas) < n:
        deltas.extend(_tokens(_section(rng, index)))
        index += 1
    return deltas[:n]


def stamp(epoch_ms: float) -> str:
    """The send-time stamp appended to a paced delta."""
    return f"⟦{epoch_ms:.1f}⟧"


def stream(deltas: list[str], rate: float | None = None) -> Iterator[str]:
    """Yield the deltas then the end marker; when ``rate`` is given, paced at ``rate``/s,
    each delta stamped with the wall-clock time it is handed over."""
    if rate is None:
        yield from deltas
    else:
        start = time.perf_counter()
        for index, delta in enumerate(deltas):
            wait = start + index / rate - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            yield delta + stamp(time.time() * 1000)
    yield f"\n\n{END_MARKER}\n"


def alnum_count(text: str) -> int:
    """ASCII letters and digits: what survives any rendering (Markdown drops only syntax)."""
    return sum(1 for ch in text if ch.isascii() and ch.isalnum())


def expected_alnum(n: int, paced: bool) -> int:
    """Letters and digits a complete rendering of ``stream(make_deltas(n), ...)`` shows."""
    digits_per_stamp = 14  # 13-digit epoch milliseconds plus one decimal
    stamps = n * digits_per_stamp if paced else 0
    return alnum_count("".join(make_deltas(n))) + alnum_count(END_MARKER) + stamps
