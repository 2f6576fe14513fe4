"""Compare two runs: what changed between them, step by step.

``compare(run_a, run_b)`` folds both runs (RunStates, StreamViews, recordings or chunk
iterables) and returns a ``RunComparison``: a pure diff model built from dataclasses. Steps
are aligned by index; within a step the answer text is diffed word by word, tool calls are
matched by name and order (across the whole run when the step counts differ) with the JSON
paths of their arguments and results that differ, and every other part (sources, files,
notices, nested runs …) is compared by its transcript lines, so nothing a transcript shows can
change unnoticed.

Its ``text/plain`` is a deterministic summary (no ids, timestamps, durations or addresses) for
nbval; its ``text/html`` is a static side-by-side view (``compare_html``).
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..fold.parts import Part, ReasoningPart, StepPart, TextPart, ToolCall, Usage
from ..fold.state import RunState
from ..inputs import as_run
from .compare_html import comparison_html
from .spans import Span, child_path
from .transcript import PartTree, compact_json, part_lines, usage_line

SUMMARY_LINES = 40
"""The text summary lists at most this many differences, then says how many it left out."""

PATHS_PER_VALUE = 50
"""At most this many differing JSON paths are kept per compared value."""

VALUE_WIDTH = 60
"""Characters of a value shown in a summary line before it is cut."""

DIFF_BUDGET = 1_000_000
"""Largest (items in A × items in B) handed to difflib at once, which is quadratic: about
0.2 s in the worst case; longer changes are split at anchors first (see ``_opcodes``)."""

_MAX_DEPTH = 64
_WORDS = re.compile(r"^\s+|\S+\s*")


class _Missing:
    """The value on a side that has no such path (or no such call)."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "(absent)"


MISSING: Any = _Missing()
"""Stands for a value one side does not have; shown as ``(absent)``."""


# ------------------------------------------------------------------------- the model


@dataclass(frozen=True)
class ValueChange:
    """One JSON path whose value differs between the two sides."""

    path: str
    """Where, from the compared value's root: ``args.city``, ``result.items[2]``, ``args``."""
    a: Any
    """The value on side A, or ``MISSING`` when only B has this path."""
    b: Any
    """The value on side B, or ``MISSING`` when only A has this path."""

    def describe(self) -> str:
        """``args.city: "Seoul" → "Busan"``."""
        return f"{self.path}: {_short(self.a)} → {_short(self.b)}"


@dataclass(frozen=True)
class TextSegment:
    """A run of words that both sides share, or that only one side has."""

    op: Literal["equal", "delete", "insert"]
    """``equal``: on both sides; ``delete``: only in A; ``insert``: only in B."""
    text: str
    """The words, with the whitespace between them."""


@dataclass(frozen=True)
class TextDiff:
    """A word-level diff of one text (a step's answer or reasoning)."""

    a: str
    """The text on side A."""
    b: str
    """The text on side B."""
    segments: tuple[TextSegment, ...]
    """A's text and B's text interleaved: equal runs, then what A lost and B gained."""
    words_changed: int
    """Words replaced one for one."""
    words_added: int
    """Words only B has, beyond the replaced ones."""
    words_removed: int
    """Words only A has, beyond the replaced ones."""

    @property
    def same(self) -> bool:
        """True when both texts are identical."""
        return self.a == self.b

    def describe(self) -> str:
        """``1 word changed, 2 added: "check." → "look at it."``."""
        counts = []
        if self.words_changed:
            counts.append(f"{_plural(self.words_changed, 'word')} changed")
        if self.words_added:
            counts.append(
                f"{_plural(self.words_added, 'word')} added"
                if not counts
                else f"{self.words_added} added"
            )
        if self.words_removed:
            counts.append(
                f"{_plural(self.words_removed, 'word')} removed"
                if not counts
                else f"{self.words_removed} removed"
            )
        if not counts:
            return "whitespace changed"
        return f"{', '.join(counts)}: {self._first_change()}"

    def _first_change(self) -> str:
        removed = inserted = ""
        for segment in self.segments:
            if segment.op == "equal":
                if removed or inserted:
                    break
                continue
            if segment.op == "delete":
                removed += segment.text
            else:
                inserted += segment.text
        if removed and inserted:
            return f"{_short(removed.strip() or removed)} → {_short(inserted.strip() or inserted)}"
        if removed:
            return f"-{_short(removed.strip() or removed)}"
        return f"+{_short(inserted.strip() or inserted)}"


@dataclass(frozen=True)
class ToolDiff:
    """One tool call matched across the runs (or present on one side only)."""

    name: str
    """The tool's name."""
    ordinal: int
    """1 for the first call of this tool in the step (or in the run, when matched run-wide)."""
    a: ToolCall | None
    """The call on side A, None when only B made it."""
    b: ToolCall | None
    """The call on side B, None when only A made it."""
    step_a: int | None
    """Index of A's step holding the call (None: no call, or outside any step)."""
    step_b: int | None
    """Index of B's step holding the call (None: no call, or outside any step)."""
    args: tuple[ValueChange, ...]
    """Argument paths that differ (the raw argument text when a call never parsed)."""
    result: tuple[ValueChange, ...]
    """Result paths that differ (``MISSING`` on a side without a result)."""
    error: tuple[ValueChange, ...]
    """Error paths that differ."""
    nested: tuple[str, ...]
    """Transcript lines of what ran under the call (sub-agents, writer output) that differ,
    as ``- line`` (only in A) and ``+ line`` (only in B)."""

    @property
    def label(self) -> str:
        """``get-weather#1``."""
        return f"{self.name}#{self.ordinal}"

    @property
    def only(self) -> Literal["a", "b"] | None:
        """``a`` or ``b`` when only that side made the call."""
        if self.b is None:
            return "a"
        if self.a is None:
            return "b"
        return None

    @property
    def state_changed(self) -> bool:
        """True when both sides made the call and it ended differently."""
        return self.a is not None and self.b is not None and self.a.state != self.b.state

    @property
    def same(self) -> bool:
        """True when both sides made the same call with the same outcome."""
        return (
            self.only is None
            and not self.state_changed
            and not (self.args or self.result or self.error or self.nested)
        )

    @property
    def paths(self) -> frozenset[str]:
        """Every differing path (``args.city`` …), for highlighting the calls."""
        return frozenset(c.path for c in (*self.args, *self.result, *self.error))


@dataclass(frozen=True)
class StepDiff:
    """One row of the comparison: the steps with the same index on both sides."""

    index: int | None
    """0-based step index; None for the parts that are outside every step."""
    a: StepPart | None
    """A's step (None when A has fewer steps, or for the outside row)."""
    b: StepPart | None
    """B's step (None when B has fewer steps, or for the outside row)."""
    present_a: bool
    """True when side A has this row at all."""
    present_b: bool
    """True when side B has this row at all."""
    text: TextDiff
    """The step's answer text, word by word."""
    reasoning: TextDiff
    """The step's reasoning, word by word."""
    tools: tuple[ToolDiff, ...]
    """Tool calls of this step on either side."""
    other: tuple[str, ...]
    """Transcript lines of every other part (sources, files, notices …) that differ, as
    ``- line`` (only in A) and ``+ line`` (only in B)."""
    span_a: Span | None
    """When A's step ran."""
    span_b: Span | None
    """When B's step ran."""

    @property
    def label(self) -> str:
        """``step 2``, or ``outside steps``."""
        return "outside steps" if self.index is None else f"step {self.index + 1}"

    @property
    def finish_reason_a(self) -> str | None:
        """A's step finish reason."""
        return None if self.a is None else self.a.finish_reason

    @property
    def finish_reason_b(self) -> str | None:
        """B's step finish reason."""
        return None if self.b is None else self.b.finish_reason

    @property
    def usage_a(self) -> Usage | None:
        """A's step usage, as the step's ``step-finish`` reported it."""
        return None if self.a is None else self.a.usage

    @property
    def usage_b(self) -> Usage | None:
        """B's step usage, as the step's ``step-finish`` reported it."""
        return None if self.b is None else self.b.usage

    @property
    def same(self) -> bool:
        """True when the step is on both sides and nothing in it differs."""
        return (
            self.present_a == self.present_b
            and self.finish_reason_a == self.finish_reason_b
            and self.text.same
            and self.reasoning.same
            and not self.other
            and all(tool.same for tool in self.tools)
        )


@dataclass(frozen=True)
class UsageDelta:
    """One usage count on both sides."""

    field: str
    """``input``, ``output``, ``total``, ``reasoning`` or ``cached``."""
    a: int | None
    """A's count (None: not reported)."""
    b: int | None
    """B's count (None: not reported)."""

    @property
    def delta(self) -> int | None:
        """B minus A, when both reported the count."""
        return None if self.a is None or self.b is None else self.b - self.a

    @property
    def changed(self) -> bool:
        """True when the counts differ."""
        return self.a != self.b

    def describe(self) -> str:
        """``output +12``, or ``reasoning n/a → 40`` when one side did not report it."""
        delta = self.delta
        if delta is None:
            a = "n/a" if self.a is None else str(self.a)
            b = "n/a" if self.b is None else str(self.b)
            return f"{self.field} {a} → {b}"
        return f"{self.field} {delta:+d}"


@dataclass(frozen=True)
class Timings:
    """How long one run took (shown side by side, never in the text summary)."""

    elapsed_ms: float
    """Offset of the run's last chunk."""
    ttft_ms: float | None
    """Offset of the first text or reasoning delta."""


_USAGE_FIELDS = (
    ("input", "input_tokens"),
    ("output", "output_tokens"),
    ("total", "total_tokens"),
    ("reasoning", "reasoning_tokens"),
    ("cached", "cached_input_tokens"),
)


class RunComparison:
    """Two runs compared: steps aligned by index, tool calls matched, usage deltas.

    ``repr()`` is the deterministic summary; in a notebook it shows a side-by-side view.
    """

    def __init__(
        self,
        a: RunState,
        b: RunState,
        labels: tuple[str, str] = ("A", "B"),
        *,
        show_timings: bool = True,
    ) -> None:
        self.a = a
        """Side A's run."""
        self.b = b
        """Side B's run."""
        self.labels = labels
        """Names of the two sides, used in the summary and the view."""
        self.tool_matching: Literal["step", "run"] = (
            "step" if len(a.steps) == len(b.steps) else "run"
        )
        """``step``: calls matched by name and order within each step (same step count);
        ``run``: matched by name and order across the run (the step counts differ)."""
        groups_a, groups_b = _groups(a), _groups(b)
        tools = _match_tools(groups_a, groups_b, self.tool_matching)
        self.tools: tuple[ToolDiff, ...] = tools
        """Every tool call of either run, matched."""
        self.steps: tuple[StepDiff, ...] = _align(groups_a, groups_b, tools)
        """One row per step index (plus a first row for parts outside every step)."""
        self.status = (a.status, b.status)
        """Run status on each side."""
        self.finish_reason = (a.finish_reason, b.finish_reason)
        """The run's finish reason on each side."""
        self.usage: tuple[UsageDelta, ...] = _usage_deltas(a.usage, b.usage)
        """Every usage count either side reported, with its delta."""
        self.timings = (Timings(a.elapsed_ms, a.ttft_ms), Timings(b.elapsed_ms, b.ttft_ms))
        """Elapsed time and time to first token of each side."""
        self.show_timings = show_timings
        """Whether the view shows timings and timelines. Off, the HTML of live runs (whose
        timing changes on every run) is as deterministic as the summary."""

    @property
    def step_counts(self) -> tuple[int, int]:
        """How many steps each side has."""
        return len(self.a.steps), len(self.b.steps)

    @property
    def same(self) -> bool:
        """True when nothing the comparison looks at differs."""
        return (
            self.status[0] == self.status[1]
            and self.finish_reason[0] == self.finish_reason[1]
            and not any(u.changed for u in self.usage)
            and all(step.same for step in self.steps)
            and all(tool.same for tool in self.tools)
        )

    def summary(self) -> str:
        """The differences as deterministic text: no ids, timestamps or durations."""
        label_a, label_b = self.labels
        head = f"{label_a} vs {label_b}: "
        if self.same:
            return head + f"no differences ({self._counts()})"
        lines = [head + self._counts()]
        for name, (a, b) in (("status", self.status), ("finish reason", self.finish_reason)):
            if a != b:
                lines.append(f"{name}: {a or 'none'} → {b or 'none'}")
        for step in self.steps:
            lines += _step_lines(step, self.labels, self.tool_matching)
        if self.tool_matching == "run":
            for tool in self.tools:
                lines += _tool_lines(tool, "", self.labels, moved=True)
        changed = [u for u in self.usage if u.changed]
        if changed:
            lines.append(
                "usage: "
                + ", ".join(u.describe() for u in changed)
                + f" ({usage_line(self.a.usage)} → {usage_line(self.b.usage)})"
            )
        if len(lines) > SUMMARY_LINES + 1:
            left = len(lines) - SUMMARY_LINES
            lines = [*lines[:SUMMARY_LINES], f"… and {left} more differences"]
        return "\n".join(lines)

    def _counts(self) -> str:
        na, nb = self.step_counts
        steps = (
            f"{_plural(na, 'step')} each"
            if na == nb
            else f"{_plural(na, 'step')} vs {_plural(nb, 'step')}"
        )
        ta, tb = len(self.a.tool_calls), len(self.b.tool_calls)
        if not ta and not tb:
            return steps
        tools = (
            f"{_plural(ta, 'tool call')} each"
            if ta == tb
            else f"{_plural(ta, 'tool call')} vs {_plural(tb, 'tool call')}"
        )
        return f"{steps}, {tools}"

    def to_html(self) -> str:
        """The static side-by-side view: no script, every run value escaped."""
        return comparison_html(self)

    def widget(self) -> Any:
        """The side-by-side view as an ``ipywidgets.HTML`` (for layouts of widgets)."""
        import ipywidgets

        return ipywidgets.HTML(value=self.to_html())

    def __repr__(self) -> str:
        return self.summary()

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(self.summary())

    def _repr_html_(self) -> str:
        return self.to_html()


# ------------------------------------------------------------------------- entry point


def compare(
    run_a: Any, run_b: Any, *, labels: Sequence[str] = ("A", "B"), show_timings: bool = True
) -> RunComparison:
    """Compare two runs side by side.

    Each run is a ``RunState``, a ``StreamView`` (its state so far), a recording (a path or a
    ``replay(...)``; replayed at once, with its recorded timing), or an iterable of chunks
    (timed by the clock as it is read). ``labels`` name the two sides. ``show_timings=False``
    leaves timings and timelines out of the view: recordings replay with their recorded
    offsets, so their view is deterministic either way; live runs' is only without timings.

    >>> from chunkscope import demo
    >>> compare(demo.stream(speed=0), demo.stream(speed=0))
    A vs B: no differences (2 steps each, 1 tool call each)
    >>> compare(demo.stream(speed=0), demo.stream(speed=0, variant="error"))  # doctest: +ELLIPSIS
    A vs B: 2 steps each, 1 tool call each
    status: finished → error
    finish reason: stop → error
    step 1 tool get-weather#1 state: done → error
    ...
    """
    if isinstance(labels, str) or len(labels) != 2 or not all(isinstance(x, str) for x in labels):
        raise TypeError(f"labels must be two strings, got {labels!r}")
    return RunComparison(
        as_run(run_a, to="run_a"),
        as_run(run_b, to="run_b"),
        (labels[0], labels[1]),
        show_timings=show_timings,
    )


# ------------------------------------------------------------------------- grouping


@dataclass
class _Group:
    """What one side has in one row: a step's parts, or the parts outside every step."""

    index: int | None
    step: StepPart | None
    parts: list[Part]
    tree: PartTree

    @property
    def text(self) -> str:
        return "".join(p.text for p in self.parts if isinstance(p, TextPart))

    @property
    def reasoning(self) -> str:
        return "".join(
            "[redacted]" if p.redacted else p.text
            for p in self.parts
            if isinstance(p, ReasoningPart)
        )

    def calls(self) -> list[_Call]:
        return [(self.index, p, self.tree) for p in self.parts if isinstance(p, ToolCall)]

    def other_lines(self) -> list[str]:
        lines: list[str] = []
        for part in self.parts:
            if not isinstance(part, (TextPart, ReasoningPart, ToolCall)):
                lines += part_lines(self.tree, part, 0)
        return lines

    @property
    def span(self) -> Span | None:
        if self.step is not None:
            return Span(self.step.t0, self.step.t1 if self.step.t1 is not None else self.step.t0)
        if not self.parts:
            return None
        return Span(
            min(p.t0 for p in self.parts),
            max(p.t1 if p.t1 is not None else p.t0 for p in self.parts),
        )


def _groups(state: RunState) -> list[_Group]:
    """Side's rows: the outside-steps group first (possibly empty), then one per step."""
    tree = PartTree(state)
    outside = [p for p in tree.level(None) if not isinstance(p, StepPart)]
    groups = [_Group(None, None, outside, tree)]
    groups += [_Group(i, step, tree.in_step(step), tree) for i, step in enumerate(state.steps)]
    return groups


def _align(
    groups_a: list[_Group], groups_b: list[_Group], tools: tuple[ToolDiff, ...]
) -> tuple[StepDiff, ...]:
    rows: list[StepDiff] = []
    for i in range(max(len(groups_a), len(groups_b))):
        ga = groups_a[i] if i < len(groups_a) else None
        gb = groups_b[i] if i < len(groups_b) else None
        index = i - 1 if i else None
        if index is None and ga is not None and gb is not None and not ga.parts and not gb.parts:
            continue
        rows.append(
            StepDiff(
                index=index,
                a=ga.step if ga else None,
                b=gb.step if gb else None,
                present_a=ga is not None,
                present_b=gb is not None,
                text=diff_words(ga.text if ga else "", gb.text if gb else ""),
                reasoning=diff_words(ga.reasoning if ga else "", gb.reasoning if gb else ""),
                tools=tuple(
                    t
                    for t in tools
                    if (t.a is not None and t.step_a == index)
                    or (t.b is not None and t.step_b == index)
                ),
                other=diff_lines(ga.other_lines() if ga else [], gb.other_lines() if gb else []),
                span_a=ga.span if ga else None,
                span_b=gb.span if gb else None,
            )
        )
    return tuple(rows)


# ------------------------------------------------------------------------- tool matching


_Call = tuple[int | None, ToolCall, PartTree]
"""A call with the index of its step and the tree of its run (for what is nested under it)."""


def _match_tools(
    groups_a: list[_Group], groups_b: list[_Group], mode: Literal["step", "run"]
) -> tuple[ToolDiff, ...]:
    """Pair calls by (name, k-th call of that name): per row, or across the whole run."""
    if mode == "run":
        return _pair(
            [c for g in groups_a for c in g.calls()], [c for g in groups_b for c in g.calls()]
        )
    out: list[ToolDiff] = []
    for ga, gb in zip(groups_a, groups_b, strict=True):
        out += _pair(ga.calls(), gb.calls())
    return tuple(out)


def _keys(calls: list[_Call]) -> list[tuple[str, int]]:
    """(tool name, how many calls of that name so far) for each call."""
    seen: dict[str, int] = {}
    keys = []
    for _, call, _ in calls:
        name = call.tool_name or "?"
        seen[name] = seen.get(name, 0) + 1
        keys.append((name, seen[name]))
    return keys


def _pair(calls_a: list[_Call], calls_b: list[_Call]) -> tuple[ToolDiff, ...]:
    """Matched and A-only calls in A's order, then B-only calls in B's order."""
    unmatched_b = dict(zip(_keys(calls_b), calls_b, strict=True))
    out: list[ToolDiff] = []
    for key, call_a in zip(_keys(calls_a), calls_a, strict=True):
        out.append(_tool_diff(key, call_a, unmatched_b.pop(key, None)))
    out += [_tool_diff(key, None, call_b) for key, call_b in unmatched_b.items()]
    return tuple(out)


def _tool_diff(key: tuple[str, int], side_a: _Call | None, side_b: _Call | None) -> ToolDiff:
    a = side_a[1] if side_a else None
    b = side_b[1] if side_b else None
    args: tuple[ValueChange, ...] = ()
    result: tuple[ValueChange, ...] = ()
    error: tuple[ValueChange, ...] = ()
    nested: tuple[str, ...] = ()
    if side_a is not None and side_b is not None:
        a, b = side_a[1], side_b[1]
        args = diff_values(_args(a), _args(b), "args")
        result = diff_values(
            a.result if a.has_result else MISSING, b.result if b.has_result else MISSING, "result"
        )
        error = diff_values(_or_missing(a.error), _or_missing(b.error), "error")
        nested = diff_lines(_nested_lines(side_a), _nested_lines(side_b))
    return ToolDiff(
        key[0],
        key[1],
        a,
        b,
        side_a[0] if side_a else None,
        side_b[0] if side_b else None,
        args,
        result,
        error,
        nested,
    )


def _args(call: ToolCall) -> Any:
    if call.args is not None:
        return call.args
    return call.args_text or MISSING


def _or_missing(value: Any) -> Any:
    return MISSING if value is None else value


def _nested_lines(side: _Call) -> list[str]:
    """Transcript lines of the parts nested under a call (a sub-agent's run, writer output)."""
    _, call, tree = side
    lines: list[str] = []
    for child in tree.level(call.id):
        lines += part_lines(tree, child, 0)
    return lines


# ------------------------------------------------------------------------- diffs


def diff_words(a: str, b: str) -> TextDiff:
    """A word-level diff of two texts.

    Words are compared without the whitespace that follows them, so a changed line break is
    not a changed word (the texts still differ: ``same`` is False, "whitespace changed").
    """
    words_a, words_b = _WORDS.findall(a), _WORDS.findall(b)
    keys_a, keys_b = [w.strip() for w in words_a], [w.strip() for w in words_b]
    segments: list[TextSegment] = []
    changed = added = removed = 0

    def push(op: Literal["equal", "delete", "insert"], words: list[str]) -> None:
        text = "".join(words)
        if not text:
            return
        if segments and segments[-1].op == op:
            segments[-1] = TextSegment(op, segments[-1].text + text)
        else:
            segments.append(TextSegment(op, text))

    for tag, i1, i2, j1, j2 in _opcodes(keys_a, keys_b):
        if tag == "equal":
            push("equal", words_b[j1:j2])
            continue
        push("delete", words_a[i1:i2])
        push("insert", words_b[j1:j2])
        na = sum(1 for key in keys_a[i1:i2] if key)
        nb = sum(1 for key in keys_b[j1:j2] if key)
        both = min(na, nb)
        changed += both
        removed += na - both
        added += nb - both
    return TextDiff(a, b, tuple(segments), changed, added, removed)


def diff_lines(a: list[str], b: list[str]) -> tuple[str, ...]:
    """Lines only A has (``- line``) and only B has (``+ line``), in order."""
    if a == b:
        return ()
    out: list[str] = []
    for tag, i1, i2, j1, j2 in _opcodes(a, b):
        if tag != "equal":
            out += [f"- {line}" for line in a[i1:i2]]
            out += [f"+ {line}" for line in b[j1:j2]]
    return tuple(out)


Opcode = tuple[str, int, int, int, int]
"""(tag, i1, i2, j1, j2) as ``difflib.SequenceMatcher.get_opcodes`` gives them."""


def _opcodes(a: list[str], b: list[str]) -> list[Opcode]:
    """Edit opcodes from ``a`` to ``b``, in time that stays bounded on long texts.

    difflib is quadratic, so the shared head and tail are cut off first, and a middle bigger
    than ``DIFF_BUDGET`` is first split at anchors: items that occur exactly once on each side,
    kept in the longest run that is in order on both (as patience diff does). Each gap between
    anchors is diffed the same way; a gap that is still too big and has no anchor is reported
    as one replaced block.
    """
    n, m = len(a), len(b)
    head = 0
    while head < min(n, m) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(n, m) - head and a[n - 1 - tail] == b[m - 1 - tail]:
        tail += 1
    ops: list[Opcode] = [("equal", 0, head, 0, head)] if head else []
    ops += _middle(a, b, (head, n - tail, head, m - tail), 0)
    if tail:
        ops.append(("equal", n - tail, n, m - tail, m))
    return ops


def _middle(a: list[str], b: list[str], box: tuple[int, int, int, int], depth: int) -> list[Opcode]:
    i1, i2, j1, j2 = box
    if i1 == i2 and j1 == j2:
        return []
    if i1 == i2 or j1 == j2:
        return [("insert" if i1 == i2 else "delete", i1, i2, j1, j2)]
    if (i2 - i1) * (j2 - j1) <= DIFF_BUDGET:
        matcher = difflib.SequenceMatcher(None, a[i1:i2], b[j1:j2], autojunk=False)
        return [
            (tag, i1 + x1, i1 + x2, j1 + y1, j1 + y2)
            for tag, x1, x2, y1, y2 in matcher.get_opcodes()
        ]
    anchors = _anchors(a, b, box) if depth < _MAX_DEPTH else []
    if not anchors:
        return [("replace", i1, i2, j1, j2)]
    ops: list[Opcode] = []
    for i, j in anchors:
        ops += _middle(a, b, (i1, i, j1, j), depth + 1)
        ops.append(("equal", i, i + 1, j, j + 1))
        i1, j1 = i + 1, j + 1
    ops += _middle(a, b, (i1, i2, j1, j2), depth + 1)
    return ops


def _anchors(a: list[str], b: list[str], box: tuple[int, int, int, int]) -> list[tuple[int, int]]:
    """Items unique on both sides of the box, longest run in the same order on both."""
    i1, i2, j1, j2 = box
    count_a = Counter(a[i1:i2])
    count_b = Counter(b[j1:j2])
    where_b = {b[j]: j for j in range(j1, j2) if count_b[b[j]] == 1}
    pairs = [(i, where_b[a[i]]) for i in range(i1, i2) if count_a[a[i]] == 1 and a[i] in where_b]
    # Longest increasing run of B positions (patience sorting, with back links).
    tops: list[int] = []
    top_pair: list[int] = []
    back: list[int] = []
    for k, (_, j) in enumerate(pairs):
        pile = bisect.bisect_left(tops, j)
        if pile == len(tops):
            tops.append(j)
            top_pair.append(k)
        else:
            tops[pile] = j
            top_pair[pile] = k
        back.append(top_pair[pile - 1] if pile else -1)
    run: list[tuple[int, int]] = []
    k = top_pair[-1] if top_pair else -1
    while k >= 0:
        run.append(pairs[k])
        k = back[k]
    return run[::-1]


def diff_values(a: Any, b: Any, root: str) -> tuple[ValueChange, ...]:
    """The JSON paths under ``root`` whose values differ (at most ``PATHS_PER_VALUE``)."""
    out: list[ValueChange] = []
    _walk(a, b, root, out, 0)
    return tuple(out[:PATHS_PER_VALUE])


def _walk(a: Any, b: Any, path: str, out: list[ValueChange], depth: int) -> None:
    if len(out) >= PATHS_PER_VALUE or _same(a, b):
        return
    if depth < _MAX_DEPTH and isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in sorted(set(a) | set(b), key=str):
            _walk(a.get(key, MISSING), b.get(key, MISSING), child_path(path, key), out, depth + 1)
        return
    if depth < _MAX_DEPTH and isinstance(a, list) and isinstance(b, list):
        for i in range(max(len(a), len(b))):
            _walk(
                a[i] if i < len(a) else MISSING,
                b[i] if i < len(b) else MISSING,
                f"{path}[{i}]",
                out,
                depth + 1,
            )
        return
    out.append(ValueChange(path, a, b))


def _same(a: Any, b: Any) -> bool:
    """JSON equality: ``1`` and ``1.0`` and ``True`` differ, as their JSON text does."""
    if type(a) is not type(b):
        return False
    try:
        return bool(a == b)
    except Exception:
        return a is b


# ------------------------------------------------------------------------- summary lines


def _step_lines(step: StepDiff, labels: tuple[str, str], mode: str) -> list[str]:
    name = step.label
    if step.present_a != step.present_b:
        on_a = step.present_a
        text = step.text.a if on_a else step.text.b
        reason = (step.finish_reason_a if on_a else step.finish_reason_b) or "no finish"
        calls = sum(1 for t in step.tools if (t.a if on_a else t.b) is not None)
        bits = [reason, _plural(len(text.split()), "word")]
        if calls:
            bits.append(_plural(calls, "tool call"))
        return [f"{name}: only in {labels[0] if on_a else labels[1]} ({'; '.join(bits)})"]
    lines = []
    if step.finish_reason_a != step.finish_reason_b:
        lines.append(
            f"{name} finish reason: {step.finish_reason_a or 'none'} → "
            f"{step.finish_reason_b or 'none'}"
        )
    if not step.reasoning.same:
        lines.append(f"{name} reasoning: {step.reasoning.describe()}")
    if not step.text.same:
        lines.append(f"{name} text: {step.text.describe()}")
    if mode == "step":
        for tool in step.tools:
            lines += _tool_lines(tool, f"{name} ", labels, moved=False)
    if step.other:
        lines.append(f"{name} other parts: {_differ(step.other)}")
    return lines


def _tool_lines(tool: ToolDiff, prefix: str, labels: tuple[str, str], *, moved: bool) -> list[str]:
    head = f"{prefix}tool {tool.label}"
    only = tool.only
    if only is not None:
        step = tool.step_a if only == "a" else tool.step_b
        where = f" (step {step + 1})" if moved and step is not None else ""
        return [f"{head}: only in {labels[0] if only == 'a' else labels[1]}{where}"]
    lines = []
    if moved and tool.step_a != tool.step_b:
        lines.append(f"{head}: {_step_name(tool.step_a)} → {_step_name(tool.step_b)}")
    assert tool.a is not None
    assert tool.b is not None
    if tool.state_changed:
        lines.append(f"{head} state: {tool.a.state} → {tool.b.state}")
    lines += [f"{head} {change.describe()}" for change in (*tool.args, *tool.result, *tool.error)]
    if tool.nested:
        lines.append(f"{head} nested: {_differ(tool.nested)}")
    return lines


def _differ(lines: tuple[str, ...]) -> str:
    """``2 lines differ (first: - [source] Docs)``."""
    verb = "differs" if len(lines) == 1 else "differ"
    return f"{_plural(len(lines), 'line')} {verb} (first: {_cut(lines[0])})"


def _step_name(index: int | None) -> str:
    return "outside steps" if index is None else f"step {index + 1}"


def _usage_deltas(a: Usage | None, b: Usage | None) -> tuple[UsageDelta, ...]:
    out = []
    for label, attr in _USAGE_FIELDS:
        va = None if a is None else getattr(a, attr)
        vb = None if b is None else getattr(b, attr)
        if va is not None or vb is not None:
            out.append(UsageDelta(label, va, vb))
    return tuple(out)


def _short(value: Any) -> str:
    """A value as one short line of JSON (``(absent)`` for a missing one)."""
    if value is MISSING:
        return "(absent)"
    text = compact_json(value, limit=10_000)
    return _cut(text)


def _cut(text: str) -> str:
    return text if len(text) <= VALUE_WIDTH else text[: VALUE_WIDTH - 1] + "…"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
