"""Agent-network chunks (`NetworkChunkType`), including the relayed-event wrappers
`agent-execution-event-*` and `workflow-execution-event-*`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    Field,
    StringConstraints,
)

from .agent import ToolCallApprovalPayload, ToolCallSuspendedPayload
from .base import (
    _AGENT_EVENT_PREFIX,
    _TYPE_DOC,
    _WORKFLOW_EVENT_PREFIX,
    BaseChunk,
    JsonDict,
    NestedChunk,
    Number,
    PayloadModel,
    UsagePayload,
)
from .control import IsTaskCompletePayload

__all__ = [
    "AgentExecutionAbortChunk",
    "AgentExecutionAbortPayload",
    "AgentExecutionApprovalChunk",
    "AgentExecutionApprovalPayload",
    "AgentExecutionEndChunk",
    "AgentExecutionEndPayload",
    "AgentExecutionEventChunk",
    "AgentExecutionStartChunk",
    "AgentExecutionStartPayload",
    "AgentExecutionSuspendedChunk",
    "AgentExecutionSuspendedPayload",
    "NetworkExecutionEventFinishChunk",
    "NetworkExecutionEventFinishPayload",
    "NetworkExecutionEventStepFinishChunk",
    "NetworkExecutionEventStepFinishPayload",
    "NetworkObjectChunk",
    "NetworkObjectPayload",
    "NetworkObjectResultChunk",
    "NetworkObjectResultPayload",
    "NetworkValidationEndChunk",
    "NetworkValidationEndPayload",
    "NetworkValidationStartChunk",
    "NetworkValidationStartPayload",
    "RoutingAgentAbortChunk",
    "RoutingAgentAbortPayload",
    "RoutingAgentEndChunk",
    "RoutingAgentEndPayload",
    "RoutingAgentStartChunk",
    "RoutingAgentStartPayload",
    "RoutingAgentTextDeltaChunk",
    "RoutingAgentTextDeltaPayload",
    "RoutingAgentTextStartChunk",
    "RoutingAgentTextStartPayload",
    "ToolExecutionAbortChunk",
    "ToolExecutionAbortPayload",
    "ToolExecutionApprovalChunk",
    "ToolExecutionApprovalPayload",
    "ToolExecutionEndChunk",
    "ToolExecutionEndPayload",
    "ToolExecutionStartChunk",
    "ToolExecutionStartPayload",
    "ToolExecutionSuspendedChunk",
    "ToolExecutionSuspendedPayload",
    "WorkflowExecutionAbortChunk",
    "WorkflowExecutionAbortPayload",
    "WorkflowExecutionEndChunk",
    "WorkflowExecutionEndPayload",
    "WorkflowExecutionEventChunk",
    "WorkflowExecutionStartChunk",
    "WorkflowExecutionStartPayload",
    "WorkflowExecutionSuspendedChunk",
    "WorkflowExecutionSuspendedPayload",
]


class _Routing(PayloadModel):
    task: str | None = Field(None, description="The task the network works on.")
    primitive_id: str | None = Field(
        None, description="Id of the selected agent, workflow or tool."
    )
    primitive_type: str | None = Field(None, description="agent, workflow, tool or none.")


class _Iteration(PayloadModel):
    is_complete: bool | None = Field(None, description="Whether the task is complete.")
    iteration: Number | None = Field(None, description="Network iteration number.")


class _Abort(PayloadModel):
    primitive_type: str | None = Field(None, description="routing, agent, workflow or tool.")
    primitive_id: str | None = Field(None, description="Id of the aborted primitive.")


class RoutingAgentStartPayload(PayloadModel):
    """Payload of `routing-agent-start`."""

    agent_id: str | None = Field(None, description="Id of the routing agent.")
    network_id: str | None = Field(None, description="Id of the network.")
    run_id: str | None = Field(None, description="Id of the routing run.")
    input_data: JsonDict | None = Field(
        None, description="Routing input: task, primitive, iteration, ..."
    )


class RoutingAgentTextStartPayload(PayloadModel):
    """Payload of `routing-agent-text-start`."""

    run_id: str | None = Field(None, description="Id of the routing run.")


class RoutingAgentTextDeltaPayload(PayloadModel):
    """Payload of `routing-agent-text-delta`."""

    text: str | None = Field(None, description="The new piece of routing text.")


class RoutingAgentEndPayload(_Routing):
    """Payload of `routing-agent-end`: the router chose the next primitive."""

    prompt: str | None = Field(None, description="Prompt for the selected primitive.")
    result: Any = Field(None, description="Result text of the routing step.")
    is_complete: bool | None = Field(None, description="Whether the task is complete.")
    selection_reason: str | None = Field(None, description="Why the primitive was selected.")
    iteration: Number | None = Field(None, description="Network iteration number.")
    run_id: str | None = Field(None, description="Id of the routing run.")
    usage: UsagePayload | None = Field(None, description="Token usage of the routing step.")


class RoutingAgentAbortPayload(_Abort):
    """Payload of `routing-agent-abort`."""


class AgentExecutionStartPayload(PayloadModel):
    """Payload of `agent-execution-start`."""

    agent_id: str | None = Field(None, description="Id of the agent being run.")
    args: Any = Field(None, description="Routing decision the agent runs with.")
    run_id: str | None = Field(None, description="Id of the agent's run.")


class AgentExecutionApprovalPayload(ToolCallApprovalPayload):
    """Payload of `agent-execution-approval`: a sub-agent's tool call awaits approval."""

    agent_id: str | None = Field(None, description="Id of the agent.")
    usage: UsagePayload | None = Field(None, description="Token usage so far.")
    run_id: str | None = Field(None, description="Id of the agent's run.")
    selection_reason: str | None = Field(None, description="Why the agent was selected.")


class AgentExecutionSuspendedPayload(ToolCallSuspendedPayload):
    """Payload of `agent-execution-suspended`."""

    agent_id: str | None = Field(None, description="Id of the agent.")
    usage: UsagePayload | None = Field(None, description="Token usage so far.")
    run_id: str | None = Field(None, description="Id of the agent's run.")
    selection_reason: str | None = Field(None, description="Why the agent was selected.")


class AgentExecutionEndPayload(_Iteration):
    """Payload of `agent-execution-end`."""

    task: str | None = Field(None, description="The task the network works on.")
    agent_id: str | None = Field(None, description="Id of the agent.")
    result: Any = Field(None, description="The agent's result text.")
    usage: UsagePayload | None = Field(None, description="Token usage of the agent run.")
    run_id: str | None = Field(None, description="Id of the agent's run.")


class AgentExecutionAbortPayload(_Abort):
    """Payload of `agent-execution-abort`."""


class WorkflowExecutionStartPayload(PayloadModel):
    """Payload of `workflow-execution-start`."""

    name: str | None = Field(None, description="Name of the workflow.")
    workflow_id: str | None = Field(None, description="Id of the workflow.")
    args: Any = Field(None, description="Routing decision the workflow runs with.")
    run_id: str | None = Field(None, description="Id of the workflow run.")


class WorkflowExecutionEndPayload(_Routing, _Iteration):
    """Payload of `workflow-execution-end`."""

    name: str | None = Field(None, description="Name of the workflow.")
    workflow_id: str | None = Field(None, description="Id of the workflow.")
    result: Any = Field(None, description="The workflow's result text.")
    usage: UsagePayload | None = Field(None, description="Token usage of the workflow run.")
    run_id: str | None = Field(None, description="Id of the workflow run.")


class WorkflowExecutionSuspendedPayload(ToolCallSuspendedPayload):
    """Payload of `workflow-execution-suspended`."""

    name: str | None = Field(None, description="Name of the workflow.")
    workflow_id: str | None = Field(None, description="Id of the workflow.")
    usage: UsagePayload | None = Field(None, description="Token usage so far.")
    run_id: str | None = Field(None, description="Id of the workflow run.")
    selection_reason: str | None = Field(None, description="Why the workflow was selected.")


class WorkflowExecutionAbortPayload(_Abort):
    """Payload of `workflow-execution-abort`."""


class ToolExecutionStartPayload(PayloadModel):
    """Payload of `tool-execution-start`."""

    args: JsonDict | None = Field(
        None, description="The call: toolName, toolCallId, args, selectionReason."
    )
    run_id: str | None = Field(None, description="Id of the network run.")


class ToolExecutionEndPayload(_Routing, _Iteration):
    """Payload of `tool-execution-end`."""

    result: Any = Field(None, description="What the tool returned.")
    tool_call_id: str | None = Field(None, description="Id of the tool call.")
    tool_name: str | None = Field(None, description="Name of the tool.")


class ToolExecutionApprovalPayload(ToolCallApprovalPayload):
    """Payload of `tool-execution-approval`."""

    selection_reason: str | None = Field(None, description="Why the tool was selected.")
    run_id: str | None = Field(None, description="Id of the network run.")


class ToolExecutionSuspendedPayload(ToolCallSuspendedPayload):
    """Payload of `tool-execution-suspended`."""

    selection_reason: str | None = Field(None, description="Why the tool was selected.")
    run_id: str | None = Field(None, description="Id of the network run.")


class ToolExecutionAbortPayload(_Abort):
    """Payload of `tool-execution-abort`."""


class NetworkExecutionEventStepFinishPayload(_Iteration):
    """Payload of `network-execution-event-step-finish`."""

    task: str | None = Field(None, description="The task the network works on.")
    result: Any = Field(None, description="Result text of the step.")
    run_id: str | None = Field(None, description="Id of the network run.")


class NetworkExecutionEventFinishPayload(_Routing):
    """Payload of `network-execution-event-finish`: the network run ended."""

    prompt: str | None = Field(
        None, description="Last prompt. Declared required, but real streams omit it."
    )
    result: Any = Field(None, description="Final result text.")
    object: Any = Field(None, description="Structured output, when requested.")
    is_complete: bool | None = Field(None, description="Whether the task is complete.")
    completion_reason: str | None = Field(None, description="Why the network stopped.")
    iteration: Number | None = Field(None, description="Last iteration number.")
    thread_id: str | None = Field(None, description="Memory thread id.")
    thread_resource_id: str | None = Field(None, description="Memory resource id.")
    is_one_off: bool | None = Field(None, description="Whether the run was a one-off.")
    usage: UsagePayload | None = Field(None, description="Token usage of the network run.")


class NetworkValidationStartPayload(PayloadModel):
    """Payload of `network-validation-start`."""

    run_id: str | None = Field(None, description="Id of the network run.")
    iteration: Number | None = Field(None, description="Network iteration number.")
    checks_count: Number | None = Field(None, description="Number of checks to run.")


class NetworkValidationEndPayload(IsTaskCompletePayload):
    """Payload of `network-validation-end`."""

    run_id: str | None = Field(None, description="Id of the network run.")


class NetworkObjectPayload(PayloadModel):
    """Payload of `network-object`."""

    object: Any = Field(None, description="The partial structured output.")


class NetworkObjectResultPayload(PayloadModel):
    """Payload of `network-object-result`."""

    object: Any = Field(None, description="The final structured output.")


class RoutingAgentStartChunk(BaseChunk):
    """`routing-agent-start`."""

    type: Literal["routing-agent-start"] = Field(description=_TYPE_DOC)
    payload: RoutingAgentStartPayload = Field(description="The routing run.")


class RoutingAgentTextStartChunk(BaseChunk):
    """`routing-agent-text-start`."""

    type: Literal["routing-agent-text-start"] = Field(description=_TYPE_DOC)
    payload: RoutingAgentTextStartPayload = Field(description="The routing run.")


class RoutingAgentTextDeltaChunk(BaseChunk):
    """`routing-agent-text-delta`."""

    type: Literal["routing-agent-text-delta"] = Field(description=_TYPE_DOC)
    payload: RoutingAgentTextDeltaPayload = Field(description="The routing text piece.")


class RoutingAgentEndChunk(BaseChunk):
    """`routing-agent-end`."""

    type: Literal["routing-agent-end"] = Field(description=_TYPE_DOC)
    payload: RoutingAgentEndPayload = Field(description="The routing decision.")


class RoutingAgentAbortChunk(BaseChunk):
    """`routing-agent-abort`."""

    type: Literal["routing-agent-abort"] = Field(description=_TYPE_DOC)
    payload: RoutingAgentAbortPayload = Field(description="The aborted primitive.")


class AgentExecutionStartChunk(BaseChunk):
    """`agent-execution-start`."""

    type: Literal["agent-execution-start"] = Field(description=_TYPE_DOC)
    payload: AgentExecutionStartPayload = Field(description="The agent run.")


class AgentExecutionApprovalChunk(BaseChunk):
    """`agent-execution-approval`."""

    type: Literal["agent-execution-approval"] = Field(description=_TYPE_DOC)
    payload: AgentExecutionApprovalPayload = Field(description="The call awaiting approval.")


class AgentExecutionSuspendedChunk(BaseChunk):
    """`agent-execution-suspended`."""

    type: Literal["agent-execution-suspended"] = Field(description=_TYPE_DOC)
    payload: AgentExecutionSuspendedPayload = Field(description="The suspended call.")


class AgentExecutionEndChunk(BaseChunk):
    """`agent-execution-end`."""

    type: Literal["agent-execution-end"] = Field(description=_TYPE_DOC)
    payload: AgentExecutionEndPayload = Field(description="The agent's result.")


class AgentExecutionAbortChunk(BaseChunk):
    """`agent-execution-abort`."""

    type: Literal["agent-execution-abort"] = Field(description=_TYPE_DOC)
    payload: AgentExecutionAbortPayload = Field(description="The aborted primitive.")


class WorkflowExecutionStartChunk(BaseChunk):
    """`workflow-execution-start`."""

    type: Literal["workflow-execution-start"] = Field(description=_TYPE_DOC)
    payload: WorkflowExecutionStartPayload = Field(description="The workflow run.")


class WorkflowExecutionEndChunk(BaseChunk):
    """`workflow-execution-end`."""

    type: Literal["workflow-execution-end"] = Field(description=_TYPE_DOC)
    payload: WorkflowExecutionEndPayload = Field(description="The workflow's result.")


class WorkflowExecutionSuspendedChunk(BaseChunk):
    """`workflow-execution-suspended`."""

    type: Literal["workflow-execution-suspended"] = Field(description=_TYPE_DOC)
    payload: WorkflowExecutionSuspendedPayload = Field(description="The suspended workflow.")


class WorkflowExecutionAbortChunk(BaseChunk):
    """`workflow-execution-abort`."""

    type: Literal["workflow-execution-abort"] = Field(description=_TYPE_DOC)
    payload: WorkflowExecutionAbortPayload = Field(description="The aborted primitive.")


class ToolExecutionStartChunk(BaseChunk):
    """`tool-execution-start`."""

    type: Literal["tool-execution-start"] = Field(description=_TYPE_DOC)
    payload: ToolExecutionStartPayload = Field(description="The tool call.")


class ToolExecutionEndChunk(BaseChunk):
    """`tool-execution-end`."""

    type: Literal["tool-execution-end"] = Field(description=_TYPE_DOC)
    payload: ToolExecutionEndPayload = Field(description="The tool's result.")


class ToolExecutionApprovalChunk(BaseChunk):
    """`tool-execution-approval`."""

    type: Literal["tool-execution-approval"] = Field(description=_TYPE_DOC)
    payload: ToolExecutionApprovalPayload = Field(description="The call awaiting approval.")


class ToolExecutionSuspendedChunk(BaseChunk):
    """`tool-execution-suspended`."""

    type: Literal["tool-execution-suspended"] = Field(description=_TYPE_DOC)
    payload: ToolExecutionSuspendedPayload = Field(description="The suspended call.")


class ToolExecutionAbortChunk(BaseChunk):
    """`tool-execution-abort`."""

    type: Literal["tool-execution-abort"] = Field(description=_TYPE_DOC)
    payload: ToolExecutionAbortPayload = Field(description="The aborted primitive.")


class NetworkExecutionEventStepFinishChunk(BaseChunk):
    """`network-execution-event-step-finish`."""

    type: Literal["network-execution-event-step-finish"] = Field(description=_TYPE_DOC)
    payload: NetworkExecutionEventStepFinishPayload = Field(description="The finished step.")


class NetworkExecutionEventFinishChunk(BaseChunk):
    """`network-execution-event-finish`: the network run ended."""

    type: Literal["network-execution-event-finish"] = Field(description=_TYPE_DOC)
    payload: NetworkExecutionEventFinishPayload = Field(description="The network's result.")


class NetworkValidationStartChunk(BaseChunk):
    """`network-validation-start`."""

    type: Literal["network-validation-start"] = Field(description=_TYPE_DOC)
    payload: NetworkValidationStartPayload = Field(description="The checks about to run.")


class NetworkValidationEndChunk(BaseChunk):
    """`network-validation-end`."""

    type: Literal["network-validation-end"] = Field(description=_TYPE_DOC)
    payload: NetworkValidationEndPayload = Field(description="The checks' verdict.")


class NetworkObjectChunk(BaseChunk):
    """`network-object`: the network's structured output so far."""

    type: Literal["network-object"] = Field(description=_TYPE_DOC)
    payload: NetworkObjectPayload = Field(description="The partial object.")


class NetworkObjectResultChunk(BaseChunk):
    """`network-object-result`: the network's final structured output."""

    type: Literal["network-object-result"] = Field(description=_TYPE_DOC)
    payload: NetworkObjectResultPayload = Field(description="The final object.")


class AgentExecutionEventChunk(BaseChunk):
    """`agent-execution-event-<agent chunk type>`: a sub-agent's chunk relayed by a network."""

    type: Annotated[str, StringConstraints(pattern=f"^{_AGENT_EVENT_PREFIX}")] = Field(
        description="`agent-execution-event-` followed by the relayed chunk's type."
    )
    payload: NestedChunk = Field(description="The relayed chunk, parsed.")


class WorkflowExecutionEventChunk(BaseChunk):
    """`workflow-execution-event-<workflow event>`: a workflow's event relayed by a network."""

    type: Annotated[str, StringConstraints(pattern=f"^{_WORKFLOW_EVENT_PREFIX}")] = Field(
        description="`workflow-execution-event-` followed by the relayed event's type."
    )
    payload: NestedChunk = Field(description="The relayed chunk, parsed.")
