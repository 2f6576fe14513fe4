"""The stream objects frameworks hand over, passed as they are to every entry point.

The OpenAI SDK runs for real over an httpx mock transport (its own parsing, its own stream
helpers); pydantic-ai's ``run_stream_events()`` is an async context manager.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import chunkscope as cs

openai = pytest.importorskip("openai")
httpx = pytest.importorskip("httpx")


def _chat_chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "gpt-test",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        **extra,
    }


CHAT_SSE = (
    "".join(
        f"data: {json.dumps(chunk)}\n\n"
        for chunk in (
            _chat_chunk({"role": "assistant", "content": ""}),
            _chat_chunk({"content": "Hello"}),
            _chat_chunk({"content": " world"}),
            _chat_chunk({}, "stop"),
            {
                **_chat_chunk({}),
                "choices": [],
                "usage": {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7},
            },
        )
    )
    + "data: [DONE]\n\n"
)


def _client() -> Any:
    def answer(request: Any) -> Any:
        return httpx.Response(
            200, headers={"content-type": "text/event-stream"}, content=CHAT_SSE.encode()
        )

    return openai.OpenAI(
        api_key="sk-test",
        base_url="http://127.0.0.1:9/v1",
        http_client=httpx.Client(transport=httpx.MockTransport(answer)),
    )


def _ask(client: Any, how: str) -> Any:
    messages = [{"role": "user", "content": "hi"}]
    if how == "create":
        return client.chat.completions.create(
            model="gpt-test", messages=messages, stream=True, stream_options={"include_usage": True}
        )
    return client.chat.completions.stream(
        model="gpt-test", messages=messages, stream_options={"include_usage": True}
    )


@pytest.mark.parametrize("how", ["create", "stream-helper"])
def test_openai_streams_fold_through_accumulate_as_they_do_through_show(how: str) -> None:
    state = cs.accumulate(_ask(_client(), how))
    assert state.status == "finished"
    assert state.text == "Hello world"
    assert state.usage is not None and state.usage.total_tokens == 7

    view = cs.show(_ask(_client(), how), display=False)
    shown = view.result(timeout=30)
    assert (shown.text, shown.status) == (state.text, state.status)


@pytest.mark.parametrize("how", ["create", "stream-helper"])
def test_openai_streams_record_as_mastra_chunks_and_compare(how: str, tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    written = cs.record(_ask(_client(), how), path)
    assert written > 0
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert all("type" in line["chunk"] and "runId" in line["chunk"] for line in lines)
    assert cs.accumulate(path).text == "Hello world"
    comparison = cs.compare(_ask(_client(), how), path)
    assert comparison.status == ("finished", "finished")
    assert comparison.same, comparison.summary()


def test_an_async_context_manager_cannot_be_folded_at_once_and_says_why() -> None:
    class Events:
        async def __aenter__(self) -> Any:
            return self

        async def __aexit__(self, *exc: object) -> None:
            return None

    with pytest.raises(TypeError, match=r"accumulate\(\) reads a stream at once .* Events"):
        cs.accumulate(Events())


def test_objects_no_adapter_recognises_end_in_an_error_that_names_them() -> None:
    class Mystery:
        pass

    state = cs.accumulate([Mystery(), Mystery()])
    assert state.status != "finished"
    assert "no adapter recognizes this stream" in state.transcript()
    assert "Mystery" in state.transcript()
