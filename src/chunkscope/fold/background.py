"""Background tasks: ``background-task-*`` chunks and what became of each task."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..chunks.models import BaseChunk
from .context import Fold, _Run, payload_of, plain, str_or_none
from .parts import BackgroundTask, Part

_PREFIX = "background-task-"


def on_task(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``background-task-*`` chunk into its task part (created on first sight)."""
    if not chunk.type.startswith(_PREFIX):
        raise TypeError(f"background task handler got '{chunk.type}'")
    payload = plain(payload_of(chunk))
    if not isinstance(payload, Mapping):
        return None
    state = chunk.type.removeprefix(_PREFIX)
    if state == "progress":
        ids = payload.get("taskIds")
        for task_id in ids if isinstance(ids, list) else ():
            found = cx.tasks.get(task_id) if isinstance(task_id, str) else None
            if found is not None:
                found.progress = payload
                cx.set(found, t, progress=payload)
        return None
    task_id = payload.get("taskId")
    key = task_id if isinstance(task_id, str) else ""
    task = cx.tasks.get(key)
    if task is None:
        task = BackgroundTask(
            cx.new_id(),
            run.parent,
            run.step_id,
            t,
            index,
            "started" if state == "output" else state,
            key,
        )
        task.tool_name = str_or_none(payload.get("toolName"))
        task.tool_call_id = str_or_none(payload.get("toolCallId"))
        cx.tasks[key] = task
        cx.add(task)
    if state == "output":
        inner = payload.get("payload")
        cx.output(run, task, plain(inner), chunk.from_, t, index, task.tool_name or "task")
        return task
    fields: dict[str, Any] = {}
    if state == "completed":
        task.result = payload.get("result")
        fields["result"] = task.result
    elif state == "failed":
        task.error = payload.get("error")
        fields["error"] = task.error
    if task.move(state, t):
        fields["state"] = state
    if state in ("completed", "failed", "cancelled"):
        task.t1 = t
        fields["t1"] = t
    if fields:
        cx.set(task, t, **fields)
    return task
