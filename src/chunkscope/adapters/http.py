"""Live HTTP sources: stream a server's response as Mastra chunks, sync or async.

:func:`sse` sends one request (httpx) and adapts the server-sent events it answers with;
the returned :class:`HttpChunkStream` is both an iterable and an async iterable, so the
same object works in a plain loop and under ``async for``. Bytes are parsed as they arrive
(UTF-8 decoded by us, whatever the headers say).

Transport failures never raise out of the iteration: they end the stream with an ``error``
chunk that says what happened and where, and every chunk before it is kept. Covered: an
error status (the message of a JSON ``{"error": ...}`` body is used), a content type
that is not the expected one, a connection that cannot be made, a server that stops
sending (``timeout`` seconds without a byte), a connection closed in the middle of an
event, and a stream that ends without the format's end marker.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from ._base import StreamAdapter
from ._json import parse_json_text
from ._optional import optional_import, require
from ._writer import Chunk
from .detection import ADAPTERS, AutoAdapter

if TYPE_CHECKING:
    import httpx
else:
    httpx = optional_import("httpx", extra="http")

_MAX_ERROR_BODY = 64 * 1024

DEFAULT_TIMEOUT = 60.0
"""Seconds to wait for a connection and between two pieces of the response."""


def error_message(body: bytes) -> tuple[str, Any]:
    """The message of an error body (``{"error": ...}`` JSON or text) and the parsed body."""
    text = body.decode("utf-8", "replace")
    ok, value = parse_json_text(text)
    if ok and isinstance(value, dict):
        error = value.get("error", value.get("message"))
        if isinstance(error, dict):
            error = error.get("message", error)
        if error is not None:
            return str(error), value
    return (text.strip()[:500] or "(empty body)"), value if ok else text[:2000]


class HttpChunkStream:
    """One HTTP request whose streamed response is adapted into Mastra chunks."""

    def __init__(
        self,
        url: str,
        *,
        method: str = "POST",
        json: Any = None,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, str] | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        adapter: str | StreamAdapter | Callable[[], StreamAdapter] = "auto",
        transport: str = "sse",
    ) -> None:
        require(httpx, "chunkscope.sse()")
        if isinstance(adapter, str) and adapter != "auto" and adapter not in ADAPTERS:
            raise ValueError(f"unknown adapter {adapter!r}; known: auto, {', '.join(ADAPTERS)}")
        self.url = url
        """The URL requested."""
        self.method = method.upper()
        """The HTTP method."""
        self.json = json
        """The JSON body sent (None sends no body)."""
        self.headers = dict(headers or {})
        """Extra request headers."""
        self.params = dict(params or {})
        """Query parameters."""
        self.timeout = timeout
        """Seconds allowed for connecting and between two received pieces (None: no limit)."""
        self.adapter = adapter
        """Adapter name (``auto`` detects it from the first event), instance or factory."""
        self.transport = transport
        """``sse`` (server-sent events) or ``records`` (``\\x1e``/newline-separated JSON)."""
        self.status_code: int | None = None
        """The response status, once known."""
        self.requesting: str = url
        """The URL of the request in flight (named in transport errors)."""

    # -- shared decisions -------------------------------------------------------------------

    def _where(self) -> str:
        return f"{self.method} {self.url}"

    def _pipeline(self) -> AutoAdapter:
        if isinstance(self.adapter, StreamAdapter):
            return AutoAdapter(transport=self.transport, inner=self.adapter)
        if callable(self.adapter):
            return AutoAdapter(transport=self.transport, inner=self.adapter())
        forced = None if self.adapter == "auto" else self.adapter
        return AutoAdapter(format=forced, transport=self.transport)

    def _request_headers(self) -> dict[str, str]:
        headers = {"Accept": "text/event-stream" if self.transport == "sse" else "*/*"}
        if self.json is not None:
            headers["Content-Type"] = "application/json"
        headers.update(self.headers)
        return headers

    def _check_response(
        self, pipeline: AutoAdapter, response: httpx.Response, body: bytes | None
    ) -> list[Chunk] | None:
        """Error chunks when the response cannot be streamed, else None."""
        self.status_code = response.status_code
        if response.status_code >= 400:
            message, parsed = error_message(body or b"")
            return pipeline.stop(
                {
                    "message": f"{self._where()} answered HTTP {response.status_code}: {message}",
                    "status": response.status_code,
                    "body": parsed,
                }
            )
        content_type = response.headers.get("content-type", "")
        if self.transport == "sse" and not content_type.lower().startswith("text/event-stream"):
            snippet = (body or b"").decode("utf-8", "replace")[:300]
            return pipeline.stop(
                {
                    "message": f"{self._where()} answered with content type "
                    f"{content_type or '(none)'!r}, not text/event-stream: "
                    "this is not a server-sent event stream",
                    "status": response.status_code,
                    "contentType": content_type,
                    "body": snippet,
                }
            )
        return None

    def _needs_body(self, response: httpx.Response) -> bool:
        content_type = response.headers.get("content-type", "").lower()
        return response.status_code >= 400 or (
            self.transport == "sse" and not content_type.startswith("text/event-stream")
        )

    @staticmethod
    def _enough(response: httpx.Response, head: bytes) -> bool:
        """Whether ``head`` is all the body a refusal needs: an error status is read to its end
        or the limit (its message may come in pieces); a body that is not SSE only needs a
        sample, and may never end (a text/plain stream)."""
        return len(head) >= _MAX_ERROR_BODY or (response.status_code < 400 and len(head) > 0)

    def _read_head(self, response: httpx.Response) -> bytes:
        head = b""
        for piece in response.iter_bytes():
            head += piece
            if self._enough(response, head):
                break
        return head[:_MAX_ERROR_BODY]

    async def _aread_head(self, response: httpx.Response) -> bytes:
        head = b""
        async for piece in response.aiter_bytes():
            head += piece
            if self._enough(response, head):
                break
        return head[:_MAX_ERROR_BODY]

    def _broken(self, pipeline: AutoAdapter, exc: Exception) -> list[Chunk]:
        where = f"after {pipeline.events_seen} events"
        if pipeline.mid_event:
            where += ", in the middle of the next one"
        if isinstance(exc, httpx.ConnectTimeout):
            message = f"could not connect to {self.requesting} within {self.timeout} s"
        elif isinstance(exc, httpx.ConnectError):
            message = f"could not connect to {self.requesting}: {exc}"
        elif isinstance(exc, httpx.TimeoutException):
            message = (
                f"{self._where()} sent nothing for {self.timeout} s ({where}): gave up waiting"
            )
        elif isinstance(exc, (httpx.RemoteProtocolError, httpx.ReadError, httpx.NetworkError)):
            message = (
                f"the connection to {self.requesting} broke {where}: {exc or type(exc).__name__}"
            )
        else:
            message = f"{self._where()} failed {where}: {type(exc).__name__}: {exc}"
        return pipeline.stop(
            {
                "message": message,
                "name": type(exc).__name__,
                "url": self.requesting,
                "eventsReceived": pipeline.events_seen,
            }
        )

    # -- sync -------------------------------------------------------------------------------

    def _prepare(self, client: httpx.Client, pipeline: AutoAdapter) -> list[Chunk] | None:
        """Requests to make before the stream (none here); error chunks stop the stream."""
        return None

    def __iter__(self) -> Iterator[Chunk]:
        pipeline = self._pipeline()
        with httpx.Client(timeout=self.timeout) as client:
            try:
                problem = self._prepare(client, pipeline)
                if problem is not None:
                    yield from problem
                    return
                with client.stream(
                    self.method,
                    self.url,
                    json=self.json,
                    params=self.params,
                    headers=self._request_headers(),
                ) as response:
                    body = self._read_head(response) if self._needs_body(response) else None
                    problem = self._check_response(pipeline, response, body)
                    if problem is not None:
                        yield from problem
                        return
                    for piece in response.iter_bytes():
                        yield from pipeline.feed(piece)
            except httpx.HTTPError as exc:
                yield from self._broken(pipeline, exc)
                return
        yield from pipeline.end()

    # -- async ------------------------------------------------------------------------------

    async def _aprepare(
        self, client: httpx.AsyncClient, pipeline: AutoAdapter
    ) -> list[Chunk] | None:
        """Async twin of :meth:`_prepare`."""
        return None

    def __aiter__(self) -> AsyncIterator[Chunk]:
        return self._aiter()

    async def _aiter(self) -> AsyncIterator[Chunk]:
        pipeline = self._pipeline()
        async with httpx.AsyncClient(timeout=self.timeout) as client:
            try:
                problem = await self._aprepare(client, pipeline)
                if problem is not None:
                    for chunk in problem:
                        yield chunk
                    return
                async with client.stream(
                    self.method,
                    self.url,
                    json=self.json,
                    params=self.params,
                    headers=self._request_headers(),
                ) as response:
                    body = await self._aread_head(response) if self._needs_body(response) else None
                    problem = self._check_response(pipeline, response, body)
                    if problem is not None:
                        for chunk in problem:
                            yield chunk
                        return
                    async for piece in response.aiter_bytes():
                        for chunk in pipeline.feed(piece):
                            yield chunk
            except httpx.HTTPError as exc:
                for chunk in self._broken(pipeline, exc):
                    yield chunk
                return
        for chunk in pipeline.end():
            yield chunk


def sse(
    url: str,
    method: str = "POST",
    json: Any = None,
    headers: Mapping[str, str] | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    adapter: str | StreamAdapter | Callable[[], StreamAdapter] = "auto",
    params: Mapping[str, str] | None = None,
) -> HttpChunkStream:
    """Stream ``url``'s server-sent events as Mastra chunks (iterate it sync or async).

    ``adapter`` names the event format (see :data:`~chunkscope.adapters.detection.ADAPTERS`),
    ``"auto"`` detects it from the first event; or pass an adapter factory (a fresh adapter
    per iteration) or instance.
    """
    return HttpChunkStream(
        url,
        method=method,
        json=json,
        headers=headers,
        params=params,
        timeout=timeout,
        adapter=adapter,
        transport="sse",
    )
