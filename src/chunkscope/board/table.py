"""A board's rows for people and programs: plain rows, a deterministic text table, static HTML.

The text table is what a notebook compares under nbval: sorted by label, and without the
figures that depend on the clock (elapsed time, time to first token), which the plain rows
and the HTML keep.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Any

from ..wire.schema import BoardRow

PLAIN_COLUMNS = (
    "label",
    "status",
    "elapsed_s",
    "ttft_s",
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "steps",
    "tool_calls",
    "tool_errors",
    "finish_reason",
    "tripwire",
    "error",
)
"""The keys of a plain row, in order."""

_TEXT_COLUMNS: tuple[tuple[str, str], ...] = (
    ("label", "run"),
    ("status", "status"),
    ("steps", "steps"),
    ("tool_calls", "tools"),
    ("tool_errors", "tool errors"),
    ("input_tokens", "in"),
    ("output_tokens", "out"),
    ("total_tokens", "total"),
    ("finish_reason", "finish"),
    ("tripwire", "tripwire"),
    ("error", "error"),
)
"""The deterministic columns of the text table and their headings."""

_COUNTS = frozenset(
    {"steps", "tool_calls", "tool_errors", "input_tokens", "output_tokens", "total_tokens"}
)
"""Columns the text table aligns right."""

CELL_CHARS = 60
"""A text cell longer than this is cut, with an ellipsis."""


def plain_row(row: BoardRow) -> dict[str, Any]:
    """One run as a plain dict (``PLAIN_COLUMNS``); times in seconds."""
    elapsed = row["elapsedMs"]
    ttft = row["ttftMs"]
    return {
        "label": row["label"],
        "status": row["status"],
        "elapsed_s": None if elapsed is None else round(elapsed / 1000, 3),
        "ttft_s": None if ttft is None else round(ttft / 1000, 3),
        "input_tokens": row["inputTokens"],
        "output_tokens": row["outputTokens"],
        "total_tokens": row["totalTokens"],
        "steps": row["steps"],
        "tool_calls": row["toolCalls"],
        "tool_errors": row["toolErrors"],
        "finish_reason": row["finishReason"],
        "tripwire": row["tripwire"],
        "error": row["error"],
    }


class BoardTable(list[dict[str, Any]]):
    """The board's plain rows (a list of dicts, one per run, in the board's order). Shown in
    a notebook it is a table sorted by label (text and HTML) that leaves out clock-dependent
    figures, so a notebook checked with nbval compares it as it is."""

    def __repr__(self) -> str:
        return text_table(self)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(text_table(self))

    def _repr_html_(self) -> str:
        return html_table(sorted(self, key=lambda row: str(row["label"])), stable=True)


def _cell(value: Any) -> str:
    if value is None:
        return "–"
    text = " ".join(str(value).split())
    return text if len(text) <= CELL_CHARS else text[: CELL_CHARS - 1] + "…"


def text_table(rows: Iterable[dict[str, Any]]) -> str:
    """The deterministic text table of plain rows, sorted by label."""
    ordered = sorted(rows, key=lambda row: str(row["label"]))
    if not ordered:
        return "no runs"
    cells = [[heading for _, heading in _TEXT_COLUMNS]]
    cells += [[_cell(row.get(key)) for key, _ in _TEXT_COLUMNS] for row in ordered]
    widths = [max(len(line[i]) for line in cells) for i in range(len(_TEXT_COLUMNS))]
    numeric = {i for i, (key, _) in enumerate(_TEXT_COLUMNS) if key in _COUNTS}
    lines = []
    for line in cells:
        padded = [
            cell.rjust(widths[i]) if i in numeric else cell.ljust(widths[i])
            for i, cell in enumerate(line)
        ]
        lines.append("  ".join(padded).rstrip())
    return "\n".join(lines)


_CLOCK = frozenset({"elapsed_s", "ttft_s"})
"""Plain-row keys whose values depend on the clock."""

_HTML_HEADINGS: Sequence[tuple[str, str]] = (
    ("label", "Run"),
    ("status", "Status"),
    ("elapsed_s", "Elapsed (s)"),
    ("ttft_s", "First token (s)"),
    ("input_tokens", "In"),
    ("output_tokens", "Out"),
    ("total_tokens", "Total"),
    ("steps", "Steps"),
    ("tool_calls", "Tools"),
    ("tool_errors", "Tool errors"),
    ("finish_reason", "Finish"),
    ("tripwire", "Tripwire"),
    ("error", "Error"),
)


def html_table(rows: Iterable[dict[str, Any]], *, caption: str = "", stable: bool = False) -> str:
    """Plain rows as a static HTML table (no script; every value escaped), in the given
    order; ``stable`` leaves out the clock-dependent columns, as the text table does."""
    columns = [(key, title) for key, title in _HTML_HEADINGS if not stable or key not in _CLOCK]
    head = "".join(f"<th>{html.escape(title)}</th>" for _, title in columns)
    body = []
    for row in rows:
        cells = "".join(f"<td>{html.escape(_cell(row.get(key)))}</td>" for key, _ in columns)
        body.append(f'<tr data-status="{html.escape(str(row.get("status")))}">{cells}</tr>')
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return (
        '<table class="cs-board-static" style="border-collapse:collapse;font-size:12px">'
        f"{cap}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )
