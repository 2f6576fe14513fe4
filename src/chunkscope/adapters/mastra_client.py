r"""A small client for a Mastra server's streaming routes.

``mastra(base_url).agent(id).stream(messages)`` posts to ``/api/agents/:id/stream``: the
server answers with SSE ``data: <chunk JSON>`` frames and a final ``data: [DONE]``; a
stream without ``[DONE]`` was cut short and ends with an ``error`` chunk saying so.
``mastra(base_url).agent(id).network(messages)`` posts to ``/api/agents/:id/network``
(``agent.network()``), which answers the same way with the network's chunks.

``mastra(base_url).workflow(id).stream(input_data)`` first posts to
``/api/workflows/:id/create-run`` (answer ``{"runId": ...}``), then to
``/api/workflows/:id/stream?runId=...`` with ``{"inputData": ...}``: the server answers
``text/plain`` with one JSON chunk followed by ``\x1e`` per record and no end marker.

Neither route names a charset; bytes are decoded as UTF-8 here. Errors before streaming
(JSON ``{"error": ...}`` with a 4xx/5xx status) become an ``error`` chunk with the status
and the message. Chunks pass through unchanged (they are already Mastra's).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ._optional import optional_import, require
from ._writer import Chunk
from .detection import AutoAdapter
from .http import DEFAULT_TIMEOUT, HttpChunkStream, error_message
from .mastra_chunks import MastraChunkAdapter

if TYPE_CHECKING:
    import httpx
else:
    httpx = optional_import("httpx", extra="http")


def _workflow_chunks() -> MastraChunkAdapter:
    """A pass-through adapter whose own chunks (errors) say they come from a workflow."""
    adapter = MastraChunkAdapter()
    adapter.writer.from_ = "WORKFLOW"
    return adapter


class WorkflowRunStream(HttpChunkStream):
    """A workflow stream: creates the run first unless a ``runId`` is given."""

    def __init__(
        self,
        base_url: str,
        workflow_id: str,
        input_data: Any,
        run_id: str | None,
        headers: Mapping[str, str] | None,
        timeout: float | None,
        options: dict[str, Any],
    ) -> None:
        self.workflow_url = f"{base_url}/api/workflows/{quote(workflow_id, safe='')}"
        """The workflow's base route."""
        self.run_id = run_id
        """The run id (set from ``create-run`` when not given)."""
        super().__init__(
            f"{self.workflow_url}/stream",
            json={"inputData": input_data, **options},
            headers=headers,
            timeout=timeout,
            adapter=_workflow_chunks,
            transport="records",
        )

    def _create_run_failed(
        self, pipeline: AutoAdapter, response: httpx.Response
    ) -> list[Chunk] | None:
        if response.status_code >= 400:
            message, parsed = error_message(response.content)
            return pipeline.stop(
                {
                    "message": f"POST {self.workflow_url}/create-run answered HTTP "
                    f"{response.status_code}: {message}",
                    "status": response.status_code,
                    "body": parsed,
                }
            )
        ok_body = response.json() if response.content else {}
        run_id = ok_body.get("runId") if isinstance(ok_body, dict) else None
        if not isinstance(run_id, str):
            return pipeline.stop(
                {
                    "message": f"POST {self.workflow_url}/create-run returned no runId",
                    "body": response.text[:500],
                }
            )
        self.run_id = run_id
        self.params["runId"] = run_id
        return None

    def _prepare(self, client: httpx.Client, pipeline: AutoAdapter) -> list[Chunk] | None:
        if self.run_id is not None:
            self.params["runId"] = self.run_id
            return None
        self.requesting = f"{self.workflow_url}/create-run"
        response = client.post(self.requesting, json={}, headers=self._request_headers())
        self.requesting = self.url
        return self._create_run_failed(pipeline, response)

    async def _aprepare(
        self, client: httpx.AsyncClient, pipeline: AutoAdapter
    ) -> list[Chunk] | None:
        if self.run_id is not None:
            self.params["runId"] = self.run_id
            return None
        self.requesting = f"{self.workflow_url}/create-run"
        response = await client.post(self.requesting, json={}, headers=self._request_headers())
        self.requesting = self.url
        return self._create_run_failed(pipeline, response)


class AgentClient:
    """Streaming access to one agent."""

    def __init__(self, client: MastraClient, agent_id: str) -> None:
        self.client = client
        """The server client."""
        self.agent_id = agent_id
        """The agent's registration key (as in the route)."""

    def _route(self, route: str, messages: Any, options: dict[str, Any]) -> HttpChunkStream:
        url = f"{self.client.base_url}/api/agents/{quote(self.agent_id, safe='')}/{route}"
        return HttpChunkStream(
            url,
            json={"messages": messages, **options},
            headers=self.client.headers,
            timeout=self.client.timeout,
            adapter=partial(MastraChunkAdapter, expect_done=True),
            transport="sse",
        )

    def stream(self, messages: Any, **options: Any) -> HttpChunkStream:
        """``agent.stream(messages, options)`` over HTTP: iterate it sync or async."""
        return self._route("stream", messages, options)

    def network(self, messages: Any, **options: Any) -> HttpChunkStream:
        """``agent.network(messages, options)`` over HTTP (the agent routes to its agents,
        workflows and tools; ``memory`` names the thread it keeps): iterate it sync or
        async."""
        return self._route("network", messages, options)


class WorkflowClient:
    """Streaming access to one workflow."""

    def __init__(self, client: MastraClient, workflow_id: str) -> None:
        self.client = client
        """The server client."""
        self.workflow_id = workflow_id
        """The workflow's registration key (as in the route)."""

    def stream(
        self, input_data: Any, run_id: str | None = None, **options: Any
    ) -> WorkflowRunStream:
        """Create a run (unless ``run_id`` is given) and stream it: iterate it sync or async."""
        return WorkflowRunStream(
            self.client.base_url,
            self.workflow_id,
            input_data,
            run_id,
            self.client.headers,
            self.client.timeout,
            options,
        )


class MastraClient:
    """A Mastra server at ``base_url``."""

    def __init__(
        self,
        base_url: str,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
    ) -> None:
        require(httpx, "chunkscope.mastra()")
        self.base_url = base_url.rstrip("/")
        """The server's base URL (without ``/api``)."""
        self.headers = dict(headers or {})
        """Headers sent with every request (e.g. authorization)."""
        self.timeout = timeout
        """Seconds allowed for connecting and between two received pieces."""

    def agent(self, agent_id: str) -> AgentClient:
        """The agent registered as ``agent_id``."""
        return AgentClient(self, agent_id)

    def workflow(self, workflow_id: str) -> WorkflowClient:
        """The workflow registered as ``workflow_id``."""
        return WorkflowClient(self, workflow_id)


def mastra(
    base_url: str, headers: Mapping[str, str] | None = None, timeout: float | None = DEFAULT_TIMEOUT
) -> MastraClient:
    """A client for the Mastra server at ``base_url``."""
    return MastraClient(base_url, headers, timeout)
