"""Tool chunks: a call's input streaming, the call, its outputs and its outcome."""

from __future__ import annotations

from typing import Any

import pydantic_core

from ..chunks.models import (
    BaseChunk,
    ToolCallApprovalChunk,
    ToolCallChunk,
    ToolCallDeltaChunk,
    ToolCallInputStreamingEndChunk,
    ToolCallInputStreamingStartChunk,
    ToolCallSuspendedChunk,
    ToolErrorChunk,
    ToolOutputChunk,
    ToolOutputDeniedChunk,
    ToolResultChunk,
)
from .context import Fold, _Run, extra, plain
from .parts import Part, ToolCall

ARGS_REPARSE_MS = 33.0
"""Streaming tool arguments are re-parsed as partial JSON at most once per this interval."""

_CALL_OPENERS = frozenset({"tool-call", "tool-call-input-streaming-start"})

ToolChunk = (
    ToolCallInputStreamingStartChunk
    | ToolCallDeltaChunk
    | ToolCallInputStreamingEndChunk
    | ToolCallChunk
    | ToolResultChunk
    | ToolErrorChunk
    | ToolCallApprovalChunk
    | ToolCallSuspendedChunk
    | ToolOutputDeniedChunk
    | ToolOutputChunk
)


def _name_of(chunk: ToolChunk) -> Any:
    if isinstance(chunk, ToolCallInputStreamingEndChunk):
        return extra(chunk.payload, "toolName")
    return chunk.payload.tool_name


def _args_of(chunk: ToolChunk) -> Any:
    if isinstance(
        chunk,
        (
            ToolCallDeltaChunk,
            ToolCallInputStreamingEndChunk,
            ToolOutputChunk,
            ToolCallInputStreamingStartChunk,
        ),
    ):
        return plain(extra(chunk.payload, "args"))
    return plain(chunk.payload.args)


def _provider_of(chunk: ToolChunk) -> Any:
    if isinstance(
        chunk,
        (ToolCallChunk, ToolCallInputStreamingStartChunk, ToolResultChunk, ToolErrorChunk),
    ):
        return chunk.payload.provider_executed
    return extra(chunk.payload, "providerExecuted")


def tool(
    cx: Fold, run: _Run, chunk: ToolChunk, t: float, index: int, state: str, expect: bool
) -> tuple[ToolCall, bool]:
    """The tool call a chunk is about; one it has not seen yet is created here. Also says
    whether the call was created."""
    key = chunk.payload.tool_call_id
    found = cx.tools.get(key)
    if found is not None and found.t1 is not None and chunk.type in _CALL_OPENERS:
        # the id of a call that already ended, used again: a new call, the first one kept
        cx.warn(f"'{chunk.type}' reuses the id of finished tool call '{key}'", None, t, chunk.type)
        found = None
    if found is not None:
        return found, False
    # A resumed stream (approval, resume) starts mid-step with no 'start': its first result
    # is for a call made in the earlier stream, which is not an error.
    if expect and cx.root.started:
        cx.warn(f"'{chunk.type}' for unknown tool call '{key}'", None, t, chunk.type)
    name = _name_of(chunk)
    step = cx.current_step(run, t, index)
    made = ToolCall(
        cx.new_id(),
        run.parent,
        step.id,
        t,
        index,
        state,
        key,
        name if isinstance(name, str) else "",
    )
    provider = _provider_of(chunk)
    made.provider_executed = provider if isinstance(provider, bool) else None
    made.args = _args_of(chunk)
    cx.tools[key] = made
    cx.add(made)
    return made, True


def _reparse_args(cx: Fold, call: ToolCall, t: float) -> None:
    try:
        args = pydantic_core.from_json(call.args_text, allow_partial="trailing-strings")
    except ValueError:
        return
    if args != call.args:
        call.args = args
        cx.set(call, t, args=args)


def on_input_start(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``tool-call-input-streaming-start`` chunk and return the part it touched."""
    if not isinstance(chunk, ToolCallInputStreamingStartChunk):
        raise TypeError(f"'{chunk.type}' handler got {type(chunk).__name__}")
    return tool(cx, run, chunk, t, index, "input-streaming", expect=False)[0]


def on_delta(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``tool-call-delta`` chunk and return the part it touched."""
    if not isinstance(chunk, ToolCallDeltaChunk):
        raise TypeError(f"'{chunk.type}' handler got {type(chunk).__name__}")
    call = tool(cx, run, chunk, t, index, "input-streaming", expect=True)[0]
    delta = chunk.payload.args_text_delta
    if not delta:
        return call
    call.append_args(delta)
    cx.append_op(call, "argsText", delta, t)
    last = cx.args_parsed_at.get(call.id)
    if last is None or t - last >= ARGS_REPARSE_MS:
        cx.args_parsed_at[call.id] = t
        _reparse_args(cx, call, t)
    return call


def on_input_end(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``tool-call-input-streaming-end`` chunk and return the part it touched."""
    if not isinstance(chunk, ToolCallInputStreamingEndChunk):
        raise TypeError(f"'{chunk.type}' handler got {type(chunk).__name__}")
    call = tool(cx, run, chunk, t, index, "input-streaming", expect=True)[0]
    cx.args_parsed_at.pop(call.id, None)
    if call.args_text:
        _reparse_args(cx, call, t)
    return call


def on_call(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``tool-call`` chunk and return the part it touched."""
    if not isinstance(chunk, ToolCallChunk):
        raise TypeError(f"'{chunk.type}' handler got {type(chunk).__name__}")
    call = tool(cx, run, chunk, t, index, "running", expect=False)[0]
    args = plain(chunk.payload.args)
    fields: dict[str, Any] = {}
    if args is not None and args != call.args:
        call.args = args
        fields["args"] = args
    name = chunk.payload.tool_name
    if name and name != call.tool_name:
        call.tool_name = name
        fields["toolName"] = name
    cx.move(call, "running", t, **fields)
    return call


def on_result(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``tool-result`` chunk and return the part it touched."""
    if not isinstance(chunk, ToolResultChunk):
        raise TypeError(f"'{chunk.type}' handler got {type(chunk).__name__}")
    cx.resume(run)
    call = tool(cx, run, chunk, t, index, "running", expect=True)[0]
    result = plain(chunk.payload.result)
    call.result = result
    call.has_result = True
    if chunk.payload.is_error is True:
        call.error = result
        cx.move(call, "error", t, result=result, error=result)
    else:
        cx.move(call, "done", t, result=result)
    cx.end(call, t)
    return call


def on_tool_error(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``tool-error`` chunk and return the part it touched."""
    if not isinstance(chunk, ToolErrorChunk):
        raise TypeError(f"'{chunk.type}' handler got {type(chunk).__name__}")
    call = tool(cx, run, chunk, t, index, "running", expect=True)[0]
    error = plain(chunk.payload.error)
    call.error = error if error is not None else "tool failed"
    cx.move(call, "error", t, error=call.error)
    cx.end(call, t)
    return call


def on_approval(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``tool-call-approval`` chunk and return the part it touched."""
    if not isinstance(chunk, ToolCallApprovalChunk):
        raise TypeError(f"'{chunk.type}' handler got {type(chunk).__name__}")
    call = tool(cx, run, chunk, t, index, "awaiting-approval", expect=False)[0]
    call.approval = plain(chunk.payload)
    cx.move(call, "awaiting-approval", t, approval=call.approval)
    cx.fix_reason(run, "suspended")
    if run is cx.root:
        cx.set_status("awaiting-approval")
    return call


def on_suspended(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``tool-call-suspended`` chunk and return the part it touched."""
    if not isinstance(chunk, ToolCallSuspendedChunk):
        raise TypeError(f"'{chunk.type}' handler got {type(chunk).__name__}")
    call = tool(cx, run, chunk, t, index, "suspended", expect=False)[0]
    call.suspend_payload = plain(chunk.payload.suspend_payload)
    cx.move(call, "suspended", t, suspendPayload=call.suspend_payload)
    cx.fix_reason(run, "suspended")
    if run is cx.root:
        cx.set_status("suspended")
    return call


def on_denied(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``tool-output-denied`` chunk and return the part it touched."""
    if not isinstance(chunk, ToolOutputDeniedChunk):
        raise TypeError(f"'{chunk.type}' handler got {type(chunk).__name__}")
    cx.resume(run)
    call = tool(cx, run, chunk, t, index, "denied", expect=False)[0]
    cx.move(call, "denied", t)
    cx.end(call, t)
    return call


def on_output(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``tool-output`` chunk and return the part it touched."""
    if not isinstance(chunk, ToolOutputChunk):
        raise TypeError(f"'{chunk.type}' handler got {type(chunk).__name__}")
    call = cx.tools.get(chunk.payload.tool_call_id)
    made: ToolCall | None = None
    if call is None:
        call, _ = tool(cx, run, chunk, t, index, "running", expect=True)
        made = call
    output = plain(chunk.payload.output)
    parent: Part | None = call if call is not None else run.step
    touched = cx.output(run, parent, output, chunk.from_, t, index, call.tool_name)
    return touched if touched is not None else made
