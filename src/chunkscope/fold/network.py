"""Agent-network chunks: routing (``routing-agent-*``), the network's own events, and the
``agent-execution-event-*`` / ``workflow-execution-event-*`` wrappers that carry a chunk of
the run the network started."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..chunks.models import (
    AgentExecutionEventChunk,
    BaseChunk,
    RoutingAgentTextDeltaChunk,
    RoutingAgentTextStartChunk,
    WorkflowExecutionEventChunk,
)
from .context import Fold, _Run, looks_like_chunk, payload_of, plain
from .parts import NetworkEvent, Part, TextPart, usage_from

_LABEL_KEYS = ("agentId", "toolName", "workflowId", "resourceId", "primitiveId", "task")


def on_event(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """A network event: one part that says what happened, with its payload."""
    payload = plain(payload_of(chunk))
    if isinstance(chunk, (RoutingAgentTextStartChunk, RoutingAgentTextDeltaChunk)):
        return _routing_text(cx, run, payload, t, index)
    if chunk.type == "network-execution-event-finish" and run is cx.root:
        run.finished = True
        usage = usage_from(payload.get("usage")) if isinstance(payload, Mapping) else None
        if usage is not None:
            cx.state.usage = usage
            cx.run_op(usage=usage.wire())
        if cx.state.status == "running":
            cx.set_status("finished")
    label = _label(payload)
    part = NetworkEvent(cx.new_id(), run.parent, run.step_id, t, index, chunk.type, label, payload)
    part.t1 = t
    cx.add(part)
    return part


def _label(payload: Any) -> str:
    """The agent, tool or workflow an event concerns. ``tool-execution-start`` names its tool
    only inside ``args``, next to the routing decision it carries out."""
    if not isinstance(payload, Mapping):
        return ""
    for where in (payload, payload.get("args")):
        if isinstance(where, Mapping):
            for key in _LABEL_KEYS:
                value = where.get(key)
                if isinstance(value, str) and value:
                    return value
    return ""


def _routing_text(cx: Fold, run: _Run, payload: Any, t: float, index: int) -> Part:
    """The routing agent's own words: one text part per routing run, under its event."""
    key = str(payload.get("runId", "")) if isinstance(payload, Mapping) else ""
    part = cx.routing_texts.get(key)
    if part is None:
        anchor = next(
            (
                p
                for p in reversed(cx.parts)
                if isinstance(p, NetworkEvent) and p.event.startswith("routing-agent-")
            ),
            None,
        )
        part = TextPart(cx.new_id(), anchor.id if anchor else run.parent, run.step_id, t, index)
        cx.routing_texts[key] = part
        cx.add(part)
    text = payload.get("text") if isinstance(payload, Mapping) else None
    if isinstance(text, str) and text:
        part.append(text, t)
        cx.append_op(part, "text", text, t)
    return part


def on_wrapper(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """``agent-execution-event-*`` / ``workflow-execution-event-*``: a chunk in a chunk."""
    if not isinstance(chunk, (AgentExecutionEventChunk, WorkflowExecutionEventChunk)):
        return on_event(cx, run, chunk, t, index)
    inner = plain(chunk.payload)
    anchor = next(
        (
            p
            for p in reversed(cx.parts)
            if isinstance(p, NetworkEvent) and p.event.endswith("-start")
        ),
        None,
    )
    if anchor is None or not looks_like_chunk(inner):
        return on_event(cx, run, chunk, t, index)
    nested = cx.run_for(anchor, inner, t, index, anchor.label or "execution")
    cx.fold_inner(nested, inner, t, index)
    return nested.part
