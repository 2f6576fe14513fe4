"""The parts of a run's structure: nested runs, background tasks, workflow runs and steps,
agent-network events, and notices (errors, aborts, tripwires, warnings)."""

from __future__ import annotations

from typing import Any, cast

from ..wire.schema import (
    BackgroundTaskWire,
    NestedRunWire,
    NetworkEventWire,
    NoticeWire,
    WorkflowRunWire,
    WorkflowStepWire,
)
from .part_base import Part, Usage, _Stateful


class NestedRun(Part):
    """A run inside another: a sub-agent, a workflow used as a tool, an agent workflow step."""

    kind = "run"
    wire_fields = (
        ("run_id", "runId"),
        ("label", "label"),
        ("status", "status"),
        ("finish_reason", "finishReason"),
        ("usage", "usage"),
    )
    __slots__ = ("finish_reason", "label", "run_id", "status", "usage")

    def to_wire(self) -> NestedRunWire:
        """The nested run as its wire record (``NestedRunWire``): its ``runId``, label, status,
        finish reason and usage."""
        return cast("NestedRunWire", self._wire())

    def __init__(
        self,
        id: str,
        parent: str | None,
        step: str | None,
        t0: float,
        chunk: int,
        run_id: str | None,
        label: str,
    ):
        super().__init__(id, parent, step, t0, chunk)
        self.run_id = run_id
        """The nested run's ``runId``."""
        self.label = label
        """What it is (the tool or step that ran it)."""
        self.status = "running"
        """Its own status, with the same values as the run's."""
        self.finish_reason: str | None = None
        """Its finish reason."""
        self.usage: Usage | None = None
        """Its usage."""


class BackgroundTask(_Stateful):
    """A tool call delegated to a background task (``background-task-*``)."""

    kind = "background"
    wire_fields = (
        ("task_id", "taskId"),
        ("tool_name", "toolName"),
        ("tool_call_id", "toolCallId"),
        ("state", "state"),
        ("states", "states"),
        ("progress", "progress"),
        ("result", "result"),
        ("error", "error"),
    )
    __slots__ = ("error", "progress", "result", "task_id", "tool_call_id", "tool_name")

    def to_wire(self) -> BackgroundTaskWire:
        """The task as its wire record (``BackgroundTaskWire``): the state history, progress, and
        result or error."""
        return cast("BackgroundTaskWire", self._wire())

    def __init__(
        self,
        id: str,
        parent: str | None,
        step: str | None,
        t0: float,
        chunk: int,
        state: str,
        task_id: str,
    ):
        super().__init__(id, parent, step, t0, chunk, state)
        self.task_id = task_id
        """Mastra's ``taskId``."""
        self.tool_name: str | None = None
        """The tool it runs."""
        self.tool_call_id: str | None = None
        """The tool call it came from."""
        self.progress: Any = None
        """The latest progress report."""
        self.result: Any = None
        """The task's result once completed."""
        self.error: Any = None
        """The task's error once failed."""


class WorkflowRun(Part):
    """A workflow run (``workflow-start`` … ``workflow-finish``)."""

    kind = "workflow"
    wire_fields = (
        ("run_id", "runId"),
        ("workflow_id", "workflowId"),
        ("status", "status"),
        ("result", "result"),
        ("error", "error"),
    )
    __slots__ = ("error", "result", "run_id", "status", "workflow_id")

    def to_wire(self) -> WorkflowRunWire:
        """The workflow run as its wire record (``WorkflowRunWire``): ids, status, result and
        the error of a failed run."""
        return cast("WorkflowRunWire", self._wire())

    def __init__(
        self,
        id: str,
        parent: str | None,
        step: str | None,
        t0: float,
        chunk: int,
        run_id: str | None,
        workflow_id: str | None,
    ):
        super().__init__(id, parent, step, t0, chunk)
        self.run_id = run_id
        """The workflow's ``runId``."""
        self.workflow_id = workflow_id
        """The workflow's id, when the stream names it."""
        self.status = "running"
        """``running`` until ``workflow-finish`` gives ``workflowStatus``."""
        self.result: Any = None
        """The final result or output of the workflow."""
        self.error: Any = None
        """Why a failed workflow failed, when ``workflow-finish`` metadata says."""


class WorkflowStep(_Stateful):
    """One workflow step; nested steps have dotted ids (``inner-wf.inner-step``)."""

    kind = "wstep"
    wire_fields = (
        ("step_id", "stepId"),
        ("state", "status"),
        ("states", "states"),
        ("input", "input"),
        ("output", "output"),
        ("error", "error"),
        ("progress", "progress"),
        ("suspend_payload", "suspendPayload"),
    )
    __slots__ = ("error", "input", "output", "progress", "step_id", "suspend_payload")

    def to_wire(self) -> WorkflowStepWire:
        """The step as its wire record (``WorkflowStepWire``); its state goes out as ``status``,
        with the history, input, output, error and progress."""
        return cast("WorkflowStepWire", self._wire())

    def __init__(
        self,
        id: str,
        parent: str | None,
        step: str | None,
        t0: float,
        chunk: int,
        state: str,
        step_id: str,
    ):
        super().__init__(id, parent, step, t0, chunk, state)
        self.step_id = step_id
        """The step's id."""
        self.input: Any = None
        """What the step was given."""
        self.output: Any = None
        """What it returned."""
        self.error: Any = None
        """Why it failed."""
        self.progress: Any = None
        """The latest ``workflow-step-progress`` (foreach) payload."""
        self.suspend_payload: Any = None
        """What the step passed to ``suspend()``, while it is suspended."""

    @property
    def status(self) -> str:
        """The step's status (running, waiting, suspended, success, failed, ...)."""
        return self.state


class NetworkEvent(Part):
    """An agent-network routing or execution event."""

    kind = "network"
    wire_fields = (("event", "event"), ("label", "label"), ("payload", "payload"))
    __slots__ = ("event", "label", "payload")

    def to_wire(self) -> NetworkEventWire:
        """The network event as its wire record (``NetworkEventWire``): chunk type, label and
        payload."""
        return cast("NetworkEventWire", self._wire())

    def __init__(
        self,
        id: str,
        parent: str | None,
        step: str | None,
        t0: float,
        chunk: int,
        event: str,
        label: str,
        payload: Any,
    ):
        super().__init__(id, parent, step, t0, chunk)
        self.event = event
        """The chunk type."""
        self.label = label
        """A short human label (the agent, tool or workflow concerned)."""
        self.payload = payload
        """The chunk's payload."""


class Notice(Part):
    """Something a reader must see: an error, an abort, a tripwire, a goal, a bad chunk."""

    kind = "notice"
    wire_fields = (
        ("level", "level"),
        ("notice", "notice"),
        ("message", "message"),
        ("detail", "detail"),
    )
    __slots__ = ("detail", "level", "message", "notice")

    def to_wire(self) -> NoticeWire:
        """The notice as its wire record (``NoticeWire``): level, kind, message and detail."""
        return cast("NoticeWire", self._wire())

    def __init__(
        self,
        id: str,
        parent: str | None,
        step: str | None,
        t0: float,
        chunk: int,
        level: str,
        notice: str,
        message: str,
        detail: Any,
    ):
        super().__init__(id, parent, step, t0, chunk)
        self.level = level
        """``error``, ``warning`` or ``info``."""
        self.notice = notice
        """error, abort, tripwire, goal, unknown, invalid or warning."""
        self.message = message
        """One line saying what happened, and where."""
        self.detail = detail
        """The payload or raw input behind it."""
