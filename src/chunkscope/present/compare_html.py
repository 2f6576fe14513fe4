"""The side-by-side view of a ``RunComparison`` as static HTML.

Two aligned columns, one row per step: the answer text with removed words in ``<del>`` and
added ones in ``<ins>``, tool calls with their differing argument and result paths marked,
and a timeline per row drawn as inline SVG on one time scale (the longer run's). A table of
run-level deltas (status, finish reason, usage, timings) heads the view.

Nothing here runs script or fetches anything: the view survives a saved notebook and
nbconvert without a kernel. Every string that came from a run goes through ``html.escape``.
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal

from ..fold.parts import ToolCall
from .spans import Span, child_path
from .transcript import compact_json, headline, usage_line

if TYPE_CHECKING:
    from .compare import RunComparison, StepDiff, TextDiff, ToolDiff

Side = Literal["a", "b"]

VALUE_ROWS = 40
"""Leaf paths listed per argument/result value before the rest is counted."""

TIMELINE_WIDTH = 640.0
"""Width of the whole-run timeline, in SVG user units."""

_LABEL_WIDTH = 70.0
_ROW_SVG_WIDTH = 320.0
_COLORS = {"a": ("#4f7fbf", "#9fbfe6"), "b": ("#bf7a3f", "#e6c09f")}

_STYLE = (
    "<style>.cs-cmp{font-family:var(--jp-ui-font-family,system-ui,sans-serif);font-size:13px;"
    "line-height:1.45;border:1px solid var(--jp-border-color2,#ddd);border-radius:6px;"
    "padding:8px 10px;max-width:100%;overflow:auto}"
    ".cs-cmp .cs-h{font-weight:600;margin-bottom:4px}"
    ".cs-cmp .cs-sub{color:var(--jp-ui-font-color2,#666);font-size:12px}"
    ".cs-cmp table{border-collapse:collapse;margin:6px 0}"
    ".cs-cmp table.cs-steps{width:100%}"
    ".cs-cmp th,.cs-cmp td{border:1px solid var(--jp-border-color2,#ddd);padding:3px 6px;"
    "vertical-align:top;text-align:left}"
    ".cs-cmp .cs-delta td.n{text-align:right;font-variant-numeric:tabular-nums}"
    ".cs-cmp .cs-chg{background:rgba(255,200,0,.18)}"
    ".cs-cmp .cs-steps td{width:50%}"
    ".cs-cmp .cs-text{white-space:pre-wrap;margin:4px 0}"
    ".cs-cmp .cs-reasoning{white-space:pre-wrap;color:var(--jp-ui-font-color2,#666);"
    "font-style:italic}"
    ".cs-cmp del{background:rgba(220,50,50,.22);text-decoration:line-through}"
    ".cs-cmp ins{background:rgba(40,170,70,.25);text-decoration:none}"
    ".cs-cmp .cs-card{border:1px solid var(--jp-border-color2,#ddd);border-radius:4px;"
    "padding:3px 6px;margin:4px 0}"
    ".cs-cmp .cs-only{border-style:dashed}"
    ".cs-cmp .cs-kv{font-family:var(--jp-code-font-family,monospace);font-size:12px;"
    "white-space:pre-wrap;margin:1px 0}"
    ".cs-cmp mark{background:rgba(255,200,0,.45)}"
    ".cs-cmp .cs-none{color:var(--jp-ui-font-color3,#999);font-style:italic}"
    ".cs-cmp svg{display:block}</style>"
)


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def comparison_html(cmp: RunComparison) -> str:
    """The whole view: header, delta table, timeline, then the aligned step rows."""
    label_a, label_b = cmp.labels
    title = cmp.summary().splitlines()[0]
    parts = [
        _STYLE,
        '<div class="cs-cmp">',
        f'<div class="cs-h">{_e(title)}</div>',
        f'<div class="cs-sub">{_e(label_a)}: {_e(headline(cmp.a))}</div>',
        f'<div class="cs-sub">{_e(label_b)}: {_e(headline(cmp.b))}</div>',
        _delta_table(cmp),
        _timeline(cmp) if cmp.show_timings else "",
        _step_table(cmp),
        "</div>",
    ]
    return "".join(parts)


# ------------------------------------------------------------------------- delta table


def _delta_table(cmp: RunComparison) -> str:
    label_a, label_b = cmp.labels
    rows = [
        f"<tr><th></th><th>{_e(label_a)}</th><th>{_e(label_b)}</th><th>Δ</th></tr>",
        _row("status", *cmp.status),
        _row("finish reason", *cmp.finish_reason),
        _count_row("steps", *cmp.step_counts),
        _count_row("tool calls", len(cmp.a.tool_calls), len(cmp.b.tool_calls)),
    ]
    rows += [_count_row(f"{u.field} tokens", u.a, u.b) for u in cmp.usage]
    if cmp.show_timings:
        ta, tb = cmp.timings
        rows.append(_ms_row("elapsed", ta.elapsed_ms, tb.elapsed_ms))
        rows.append(_ms_row("time to first token", ta.ttft_ms, tb.ttft_ms))
    return f'<table class="cs-delta">{"".join(rows)}</table>'


def _row(name: str, a: Any, b: Any, delta: str = "", changed: bool | None = None) -> str:
    changed = a != b if changed is None else changed
    cls = ' class="cs-chg"' if changed else ""
    shown_a = "—" if a is None else a
    shown_b = "—" if b is None else b
    return (
        f"<tr{cls}><th>{_e(name)}</th><td>{_e(shown_a)}</td><td>{_e(shown_b)}</td>"
        f'<td class="n">{_e(delta)}</td></tr>'
    )


def _count_row(name: str, a: int | None, b: int | None) -> str:
    delta = "" if a is None or b is None or a == b else f"{b - a:+d}"
    return _row(name, a, b, delta)


def _ms_row(name: str, a: float | None, b: float | None) -> str:
    # Timings always wobble between runs: shown, never flagged as a difference.
    delta = "" if a is None or b is None else f"{b - a:+.1f} ms"
    return _row(name, _ms(a), _ms(b), delta, changed=False)


def _ms(value: float | None) -> str | None:
    return None if value is None else f"{value:.1f} ms"


# ------------------------------------------------------------------------- timelines


class _Scale:
    """Milliseconds to SVG x, shared by both runs so that their bars line up."""

    def __init__(self, cmp: RunComparison, x0: float, width: float) -> None:
        self.end = max(cmp.timings[0].elapsed_ms, cmp.timings[1].elapsed_ms, 1.0)
        self.x0 = x0
        self.width = width

    def x(self, t: float) -> float:
        return self.x0 + max(0.0, min(t, self.end)) / self.end * self.width

    def bar(self, span: Span, y: float, h: float, color: str, tip: str) -> str:
        x0, x1 = self.x(span.t0), self.x(span.t1)
        w = max(x1 - x0, 1.5)
        return (
            f'<rect x="{x0:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
            f'fill="{color}" rx="1.5"><title>{_e(tip)}</title></rect>'
        )


def _tool_span(call: ToolCall) -> Span:
    return Span(call.t0, call.t1 if call.t1 is not None else call.t0)


def _lanes(spans: list[Span]) -> list[int]:
    """A lane per bar such that bars in one lane never overlap (parallel calls stack)."""
    ends: list[float] = []
    lanes = []
    for span in spans:
        for lane, end in enumerate(ends):
            if span.t0 >= end:
                ends[lane] = span.t1
                lanes.append(lane)
                break
        else:
            ends.append(span.t1)
            lanes.append(len(ends) - 1)
    return lanes


def _timeline(cmp: RunComparison) -> str:
    """Both runs on one time axis: a lane of steps and the lanes of tool calls under it."""
    scale = _Scale(cmp, _LABEL_WIDTH, TIMELINE_WIDTH - _LABEL_WIDTH - 10)
    shapes: list[str] = []
    y = 4.0
    for side, state, label in (("a", cmp.a, cmp.labels[0]), ("b", cmp.b, cmp.labels[1])):
        strong, light = _COLORS[side]
        shapes.append(f'<text x="2" y="{y + 10:.1f}" font-size="11">{_e(label)}</text>')
        for i, step in enumerate(state.steps):
            span = Span(step.t0, step.t1 if step.t1 is not None else step.t0)
            color = light if i % 2 else strong
            shapes.append(
                scale.bar(
                    span, y, 12, color, f"{label} step {i + 1}: {step.finish_reason or 'open'}"
                )
            )
        ttft = cmp.timings[0 if side == "a" else 1].ttft_ms
        if ttft is not None:
            tx = scale.x(ttft)
            shapes.append(
                f'<line x1="{tx:.1f}" x2="{tx:.1f}" y1="{y - 2:.1f}" '
                f'y2="{y + 14:.1f}" stroke="#333" stroke-width="1">'
                f"<title>{_e(label)} first token</title></line>"
            )
        y += 16
        calls = state.tool_calls
        spans = [_tool_span(c) for c in calls]
        lanes = _lanes(spans)
        for call, span, lane in zip(calls, spans, lanes, strict=True):
            shapes.append(
                scale.bar(
                    span, y + lane * 7, 5, strong, f"{label} tool {call.tool_name}: {call.state}"
                )
            )
        y += (max(lanes) + 1) * 7 + 6 if lanes else 4
    axis = (
        f'<text x="{_LABEL_WIDTH:.1f}" y="{y + 10:.1f}" font-size="10">0 ms</text>'
        f'<text x="{TIMELINE_WIDTH - 10:.1f}" y="{y + 10:.1f}" font-size="10" '
        f'text-anchor="end">{scale.end:.1f} ms</text>'
    )
    height = y + 14
    return (
        f'<svg class="cs-timeline" width="100%" style="max-width:{TIMELINE_WIDTH:.0f}px" '
        f'viewBox="0 0 {TIMELINE_WIDTH:.0f} {height:.0f}" role="img" '
        f'aria-label="timelines of both runs">{"".join(shapes)}{axis}</svg>'
    )


def _row_timeline(cmp: RunComparison, step: StepDiff, side: Side) -> str:
    """One side of a step row: its step bar and its tool bars, on the shared time scale."""
    span = step.span_a if side == "a" else step.span_b
    if span is None:
        return ""
    strong, light = _COLORS[side]
    scale = _Scale(cmp, 0.0, _ROW_SVG_WIDTH)
    shapes = [scale.bar(span, 1, 6, light, step.label)]
    calls = [_side_call(t, side) for t in step.tools if _in_row(t, step, side)]
    spans = [_tool_span(c) for c in calls if c is not None]
    lanes = _lanes(spans)
    for i, (sp, lane) in enumerate(zip(spans, lanes, strict=True)):
        shapes.append(scale.bar(sp, 9 + lane * 6, 4, strong, f"tool call {i + 1}"))
    height = 10 + ((max(lanes) + 1) * 6 if lanes else 0)
    return (
        f'<svg width="100%" height="{height}" viewBox="0 0 {_ROW_SVG_WIDTH:.0f} {height}" '
        f'preserveAspectRatio="none" role="img" aria-label="{_e(step.label)} timing">'
        f"{''.join(shapes)}</svg>"
    )


# ------------------------------------------------------------------------- step rows


def _step_table(cmp: RunComparison) -> str:
    label_a, label_b = cmp.labels
    rows = [f"<tr><th></th><th>{_e(label_a)}</th><th>{_e(label_b)}</th></tr>"]
    for step in cmp.steps:
        cls = "" if step.same else ' class="cs-chg"'
        rows.append(
            f"<tr{cls}><th>{_e(step.label)}</th>"
            f"<td>{_cell(cmp, step, 'a')}</td><td>{_cell(cmp, step, 'b')}</td></tr>"
        )
    if not cmp.steps:
        rows.append('<tr><td colspan="3" class="cs-none">no steps on either side</td></tr>')
    return f'<table class="cs-steps">{"".join(rows)}</table>'


def _cell(cmp: RunComparison, step: StepDiff, side: Side) -> str:
    present = step.present_a if side == "a" else step.present_b
    if not present:
        return f'<div class="cs-none">no {_e(step.label)}</div>'
    out = [_step_header(step, side)]
    if cmp.show_timings:
        out.append(_row_timeline(cmp, step, side))
    if step.reasoning.a or step.reasoning.b:
        out.append(f'<div class="cs-reasoning">{_marked(step.reasoning, side)}</div>')
    if step.text.a or step.text.b:
        out.append(f'<div class="cs-text">{_marked(step.text, side)}</div>')
    out.extend(_tool_card(cmp, tool, side) for tool in step.tools if _in_row(tool, step, side))
    mine = "- " if side == "a" else "+ "
    tag = "del" if side == "a" else "ins"
    out.extend(
        f'<div class="cs-kv"><{tag}>{_e(line[2:])}</{tag}></div>'
        for line in step.other
        if line.startswith(mine)
    )
    return "".join(out)


def _step_header(step: StepDiff, side: Side) -> str:
    if step.index is None:
        return ""
    reason = step.finish_reason_a if side == "a" else step.finish_reason_b
    usage = step.usage_a if side == "a" else step.usage_b
    reason_html = _e(reason or "no finish")
    if step.finish_reason_a != step.finish_reason_b:
        reason_html = f"<mark>{reason_html}</mark>"
    return f'<div class="cs-sub">{reason_html} · {_e(usage_line(usage))}</div>'


def _marked(diff: TextDiff, side: Side) -> str:
    """One side's text: shared words plain, its own changes in ``<del>``/``<ins>``."""
    own, tag = ("delete", "del") if side == "a" else ("insert", "ins")
    out = []
    for segment in diff.segments:
        if segment.op == "equal":
            out.append(_e(segment.text))
        elif segment.op == own:
            out.append(f"<{tag}>{_e(segment.text)}</{tag}>")
    return "".join(out)


def _side_call(tool: ToolDiff, side: Side) -> ToolCall | None:
    return tool.a if side == "a" else tool.b


def _in_row(tool: ToolDiff, step: StepDiff, side: Side) -> bool:
    """True when this side's call belongs to this row (run-wide matches may cross rows)."""
    call = _side_call(tool, side)
    return call is not None and (tool.step_a if side == "a" else tool.step_b) == step.index


def _tool_card(cmp: RunComparison, tool: ToolDiff, side: Side) -> str:
    call = _side_call(tool, side)
    assert call is not None
    marks = tool.paths
    notes = []
    if tool.only is not None:
        notes.append(f"only in {cmp.labels[0] if side == 'a' else cmp.labels[1]}")
    elif tool.step_a != tool.step_b:
        other = tool.step_b if side == "a" else tool.step_a
        notes.append(
            f"matched with step {other + 1}" if other is not None else "matched outside steps"
        )
    state = _e(call.state)
    if tool.state_changed:
        state = f"<mark>{state}</mark>"
    note = f" · {_e(', '.join(notes))}" if notes else ""
    body = []
    if call.args is not None or call.args_text:
        args = call.args if call.args is not None else call.args_text
        body += _value_rows("args", args, marks)
    if call.has_result and call.state != "error":
        body += _value_rows("result", call.result, marks)
    if call.error is not None:
        body += _value_rows("error", call.error, marks)
    mine, tag = ("- ", "del") if side == "a" else ("+ ", "ins")
    body += [
        f'<div class="cs-kv"><{tag}>{_e(line[2:])}</{tag}></div>'
        for line in tool.nested
        if line.startswith(mine)
    ]
    only = " cs-only" if tool.only is not None else ""
    return (
        f'<div class="cs-card{only}"><b>tool {_e(tool.label)}</b> · {state}{note}'
        f"{''.join(body)}</div>"
    )


def _value_rows(root: str, value: Any, marks: frozenset[str]) -> list[str]:
    """``path: value`` lines for the leaves of a value, the differing paths marked."""
    leaves = list(_leaves(value, root, 0))
    rows = []
    for path, leaf in leaves[:VALUE_ROWS]:
        text = f"{_e(path)}: {_e(compact_json(leaf, 400))}"
        if any(_under(path, mark) for mark in marks):
            text = f"<mark>{text}</mark>"
        rows.append(f'<div class="cs-kv">{text}</div>')
    if len(leaves) > VALUE_ROWS:
        rows.append(f'<div class="cs-kv cs-none">… {len(leaves) - VALUE_ROWS} more</div>')
    # A path only the other side has: say this side lacks it, where it would be.
    rows.extend(
        f'<div class="cs-kv"><mark>{_e(mark)}: (absent)</mark></div>'
        for mark in sorted(marks)
        if _under(mark, root) and not any(_under(path, mark) for path, _ in leaves)
    )
    return rows


def _under(path: str, ancestor: str) -> bool:
    """True when ``path`` is ``ancestor`` or lies inside it."""
    return path == ancestor or (path.startswith(ancestor) and path[len(ancestor)] in ".[")


def _leaves(value: Any, path: str, depth: int) -> Iterator[tuple[str, Any]]:
    """(path, value) for every leaf; the same path spelling as the diff model's."""
    if depth < 16 and isinstance(value, dict) and value:
        for key in sorted(value, key=str):
            yield from _leaves(value[key], child_path(path, key), depth + 1)
    elif depth < 16 and isinstance(value, list) and value:
        for i, item in enumerate(value):
            yield from _leaves(item, f"{path}[{i}]", depth + 1)
    else:
        yield path, value
