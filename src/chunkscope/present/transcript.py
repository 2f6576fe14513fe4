"""A finished run as deterministic text and as static, sanitized HTML.

The text transcript carries no ids, timestamps, durations or memory addresses, so a notebook
that prints it compares equal under nbval on every run. The HTML needs no kernel and no
JavaScript (what nbconvert and GitHub show); every string from the stream is escaped, links
are http(s) only, and images are inline only for raster MIME types from base64 data.
"""

from __future__ import annotations

import html
import json
import re
from typing import TYPE_CHECKING, Any

from ..fold.parts import (
    BackgroundTask,
    DataPart,
    FilePart,
    NestedRun,
    NetworkEvent,
    Notice,
    ObjectPart,
    OutputPart,
    Part,
    ReasoningPart,
    SourcePart,
    StepPart,
    TextPart,
    ToolCall,
    Usage,
    WorkflowRun,
    WorkflowStep,
)
from ..wire.safejson import clip_for_wire, safe_text

if TYPE_CHECKING:
    from ..fold.state import RunState

VALUE_LIMIT = 400
"""Characters of a JSON value shown in the text transcript before it is cut."""

_IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
_BASE64 = re.compile(r"^[A-Za-z0-9+/=\s]*$")


def compact_json(value: Any, limit: int = VALUE_LIMIT) -> str:
    """One line of JSON, keys sorted, cut at ``limit`` characters with the rest counted."""
    text = json.dumps(clip_for_wire(value), ensure_ascii=False, sort_keys=True)
    if len(text) > limit:
        return text[:limit] + f"… [{len(text) - limit:,} more characters]"
    return text


def usage_line(usage: Usage | None) -> str:
    """``12 in / 30 out / 42 total`` plus reasoning and cached counts when reported."""
    if usage is None:
        return "n/a"
    bits = [
        f"{usage.input_tokens if usage.input_tokens is not None else '?'} in",
        f"{usage.output_tokens if usage.output_tokens is not None else '?'} out",
        f"{usage.total_tokens if usage.total_tokens is not None else '?'} total",
    ]
    if usage.reasoning_tokens:
        bits.append(f"{usage.reasoning_tokens} reasoning")
    if usage.cached_input_tokens:
        bits.append(f"{usage.cached_input_tokens} cached")
    return " / ".join(bits)


def headline(state: RunState) -> str:
    """Status, finish reason, steps, tool calls and usage on one line."""
    bits = [f"status: {state.status}"]
    if state.finish_reason:
        bits.append(f"finish reason: {state.finish_reason}")
    if state.steps or state.workflow is None:
        bits.append(f"steps: {len(state.steps)}")
    if state.workflow is not None:
        bits.append(f"workflow steps: {len(state.workflow_steps)}")
    if state.tool_calls:
        bits.append(f"tool calls: {len(state.tool_calls)}")
    usage = state.usage
    counted = usage is not None and any(
        (usage.input_tokens, usage.output_tokens, usage.total_tokens)
    )
    if counted or state.workflow is None:
        bits.append(f"usage: {usage_line(usage)}")
    return " · ".join(bits)


def part_lines(tree: PartTree, part: Part, depth: int) -> list[str]:
    """The deterministic transcript lines of one part and what is nested under it."""
    pad = "  " * depth
    lines: list[str]
    if isinstance(part, StepPart):
        reason = f" ({part.finish_reason})" if part.finish_reason else ""
        lines = [f"{pad}── step {part.index + 1}{reason}"]
    elif isinstance(part, TextPart):
        lines = [pad + line for line in part.text.splitlines() or [""]]
    elif isinstance(part, ReasoningPart):
        body = "[redacted]" if part.redacted else part.text
        lines = [f"{pad}[reasoning] " + (body.splitlines() or [""])[0]]
        lines += [f"{pad}            {line}" for line in body.splitlines()[1:]]
    elif isinstance(part, ToolCall):
        lines = [f"{pad}[tool {part.tool_name or '?'}] {part.state}"]
        if part.args is not None or part.args_text:
            args = compact_json(part.args) if part.args is not None else part.args_text
            lines.append(f"{pad}  args: {args}")
        if part.has_result and part.state != "error":
            lines.append(f"{pad}  result: {compact_json(part.result)}")
        if part.error is not None:
            lines.append(f"{pad}  error: {compact_json(part.error)}")
        if part.suspend_payload is not None:
            lines.append(f"{pad}  suspended with: {compact_json(part.suspend_payload)}")
    elif isinstance(part, OutputPart):
        lines = [f"{pad}[output] {compact_json(part.data)}"]
    elif isinstance(part, SourcePart):
        where = part.url or part.filename or ""
        lines = [f"{pad}[source] {part.title or '(untitled)'}" + (f" <{where}>" if where else "")]
    elif isinstance(part, FilePart):
        size = len(part.data) if isinstance(part.data, str) else 0
        name = f" {part.filename}" if part.filename else ""
        lines = [f"{pad}[file{name}] {part.mime_type or 'unknown type'}, {size:,} characters"]
    elif isinstance(part, ObjectPart):
        label = "object" if part.final else "object (partial)"
        lines = [f"{pad}[{label}] {compact_json(part.object)}"]
    elif isinstance(part, DataPart):
        lines = [f"{pad}[{part.data_type}] {compact_json(part.data)}"]
    elif isinstance(part, NestedRun):
        reason = f", {part.finish_reason}" if part.finish_reason else ""
        lines = [f"{pad}[run {part.label}] {part.status}{reason}"]
    elif isinstance(part, BackgroundTask):
        lines = [f"{pad}[background task {part.tool_name or '?'}] {part.state}"]
        if part.result is not None:
            lines.append(f"{pad}  result: {compact_json(part.result)}")
        if part.error is not None:
            lines.append(f"{pad}  error: {compact_json(part.error)}")
    elif isinstance(part, WorkflowRun):
        lines = [
            f"{pad}[workflow{' ' + part.workflow_id if part.workflow_id else ''}] {part.status}"
        ]
        if part.result is not None:
            lines.append(f"{pad}  result: {compact_json(part.result)}")
    elif isinstance(part, WorkflowStep):
        lines = [f"{pad}[step {part.step_id}] {part.status}"]
        if part.output is not None:
            lines.append(f"{pad}  output: {compact_json(part.output)}")
        if part.error is not None:
            lines.append(f"{pad}  error: {compact_json(part.error)}")
    elif isinstance(part, NetworkEvent):
        lines = [f"{pad}[{part.event}] {part.label}".rstrip()]
    elif isinstance(part, Notice):
        lines = [f"{pad}[{part.notice}] {part.message}"]
    else:
        lines = [f"{pad}[{part.kind}]"]
    if isinstance(part, StepPart):
        for inner in tree.in_step(part):
            lines += part_lines(tree, inner, depth + 1)
    for child in tree.level(part.id):
        lines += part_lines(tree, child, depth + 1)
    return lines


class PartTree:
    """A run's parts indexed once by parent and by step, so walking a run is linear."""

    def __init__(self, state: RunState) -> None:
        self.state = state
        self._under: dict[str | None, list[Part]] = {}
        self._steps: dict[str | None, set[str]] = {}
        self._in_step: dict[tuple[str | None, str], list[Part]] = {}
        for p in state.parts:
            self._under.setdefault(p.parent, []).append(p)
            if isinstance(p, StepPart):
                self._steps.setdefault(p.parent, set()).add(p.id)
        for p in state.parts:
            if not isinstance(p, StepPart) and p.step in self._steps.get(p.parent, ()):
                self._in_step.setdefault((p.parent, p.step or ""), []).append(p)

    def level(self, parent: str | None) -> list[Part]:
        """Parts directly under ``parent`` that are not inside one of its steps."""
        steps = self._steps.get(parent, set())
        return [
            p for p in self._under.get(parent, []) if isinstance(p, StepPart) or p.step not in steps
        ]

    def in_step(self, step: StepPart) -> list[Part]:
        """Parts of one step (same parent as the step), in order."""
        return self._in_step.get((step.parent, step.id), [])


def title_line(state: RunState) -> str:
    """The transcript's first line: the run's title (when it has one) and its headline."""
    title = f"{state.title}: " if state.title else ""
    return f"{title}{headline(state)}"


def transcript_text(state: RunState) -> str:
    """The run as deterministic text: a headline, then every part in order, nested indented."""
    lines = [title_line(state)]
    tree = PartTree(state)
    for part in tree.level(None):
        lines += part_lines(tree, part, 0)
    return "\n".join(lines)


# ------------------------------------------------------------------------- HTML


def _e(text: Any) -> str:
    """``text`` escaped for HTML, with lone surrogates replaced so that the page encodes."""
    return html.escape(safe_text(str(text)), quote=True)


def _safe_url(url: str | None) -> str | None:
    if not url:
        return None
    lowered = url.strip().lower()
    if lowered.startswith(("http://", "https://")):
        return url.strip()
    return None


_STYLE = (
    "<style>.cs-static{font-family:var(--jp-ui-font-family,system-ui,sans-serif);"
    "font-size:13px;line-height:1.45;border:1px solid var(--jp-border-color2,#ddd);"
    "border-radius:6px;padding:8px 10px;max-width:100%;overflow:auto}"
    ".cs-static .cs-h{font-weight:600;margin-bottom:6px}"
    ".cs-static .cs-step{margin:6px 0;padding-left:8px;border-left:3px solid "
    "var(--jp-border-color1,#bbb)}"
    ".cs-static .cs-step-h{color:var(--jp-ui-font-color2,#666);font-size:12px}"
    ".cs-static .cs-text{white-space:pre-wrap;margin:4px 0}"
    ".cs-static .cs-reasoning{white-space:pre-wrap;color:var(--jp-ui-font-color2,#666);"
    "font-style:italic;margin:4px 0}"
    ".cs-static .cs-card{border:1px solid var(--jp-border-color2,#ddd);border-radius:4px;"
    "padding:4px 6px;margin:4px 0}"
    ".cs-static pre{white-space:pre-wrap;margin:2px 0;font-size:12px}"
    ".cs-static .cs-nest{margin-left:14px}"
    ".cs-static .cs-error{color:var(--jp-error-color1,#c62828)}"
    ".cs-static .cs-warning{color:var(--jp-warn-color1,#a66a00)}</style>"
)


def _value_html(label: str, value: Any) -> str:
    return f"<div><b>{_e(label)}</b><pre>{_e(compact_json(value, 4000))}</pre></div>"


def _part_html(tree: PartTree, part: Part) -> str:
    inner = "".join(_part_html(tree, child) for child in tree.level(part.id))
    nested = f'<div class="cs-nest">{inner}</div>' if inner else ""
    if isinstance(part, StepPart):
        reason = f" · {_e(part.finish_reason)}" if part.finish_reason else ""
        body = "".join(_part_html(tree, p) for p in tree.in_step(part))
        return (
            f'<div class="cs-step"><div class="cs-step-h">step {part.index + 1}{reason}'
            f"</div>{body}{nested}</div>"
        )
    if isinstance(part, TextPart):
        return f'<div class="cs-text">{_e(part.text)}</div>{nested}'
    if isinstance(part, ReasoningPart):
        body = "[redacted]" if part.redacted else part.text
        return f'<details class="cs-reasoning"><summary>reasoning</summary>{_e(body)}</details>'
    if isinstance(part, ToolCall):
        rows = ""
        if part.args is not None:
            rows += _value_html("args", part.args)
        if part.has_result and part.state != "error":
            rows += _value_html("result", part.result)
        if part.error is not None:
            rows += _value_html("error", part.error)
        return (
            f'<div class="cs-card"><b>tool {_e(part.tool_name)}</b> · {_e(part.state)}'
            f"{rows}{nested}</div>"
        )
    if isinstance(part, SourcePart):
        url = _safe_url(part.url)
        title = _e(part.title or part.url or part.filename or "source")
        link = (
            f'<a href="{_e(url)}" target="_blank" rel="noopener noreferrer">{title}</a>'
            if url
            else title
        )
        return f'<div class="cs-card">source: {link}</div>'
    if isinstance(part, FilePart):
        data = part.data if isinstance(part.data, str) else ""
        mime = (part.mime_type or "").lower()
        if mime in _IMAGE_TYPES and data and len(data) < 2_000_000 and _BASE64.match(data):
            return (
                f'<div class="cs-card"><img alt="{_e(part.filename or "image")}" '
                f'style="max-width:100%" src="data:{_e(mime)};base64,{_e(data)}"></div>'
            )
        return f'<div class="cs-card">file {_e(part.filename or "")} ({_e(mime or "?")})</div>'
    if isinstance(part, Notice):
        cls = "cs-error" if part.level == "error" else "cs-warning"
        return f'<div class="cs-card {cls}">{_e(part.notice)}: {_e(part.message)}</div>'
    lines = part_lines(tree, part, 0)
    return f'<div class="cs-card"><pre>{_e(chr(10).join(lines))}</pre></div>'


def transcript_html(state: RunState) -> str:
    """The run as static, sanitized HTML (no script, no event handler, no remote fetch)."""
    title = f"{_e(state.title)} · " if state.title else ""
    tree = PartTree(state)
    body = [_part_html(tree, part) for part in tree.level(None)]
    return (
        f'{_STYLE}<div class="cs-static"><div class="cs-h">{title}'
        f"{_e(headline(state))}</div>{''.join(body)}</div>"
    )
