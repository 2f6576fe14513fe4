"""The Konan LLM chat API's SSE stream (LangChain-style ``on_*`` events) as Mastra chunks."""

from __future__ import annotations

import json
from typing import Any

import pytest
from adapter_fixtures import assert_coherent, of_type, types, without

from chunkscope import accumulate
from chunkscope.adapters import adapt, convert_konan, from_konan, parse_sse

RUN = "run-79d8f7d6166ea560f2436b25"
MSG = "cmpl-228581414379d85eed41075d"
RETRIEVED = [
    {
        "cid": "a3f5412e6784aa37d91104cc4df3d2dd",
        "content": "프랑스 혁명.txt\n \n \n## 프랑스 대혁명\n\n1789년 프랑스 왕국에서 발발하여 ...",
        "page": 1,
        "title": "프랑스 혁명.txt\n ",
        "url": "/ksm/rag/record/u6f92b5f2/a3f5412e6784aa37d91104cc4df3d2dd",
        "uuid": "9cf123d0-cd13-4e9a-a7be-ad189b444567",
    }
]


def frame(event: str, data: dict[str, Any]) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def service_run(*, end: str = "done") -> bytes:
    """A whole run in the API's documented shape: progress, retrieval, reasoning, answer."""
    frames = [
        frame(
            "on_chain_start",
            {"name": "kylin-service", "id": RUN, "parent_id": None, "time": 1760423229},
        ),
        frame(
            "on_chain_stream",
            {"content": "준비중...", "name": "kylin-service", "id": RUN, "parent_id": None},
        ),
        frame(
            "on_chain_start",
            {"name": "rag-agent", "id": "run-sub", "parent_id": RUN, "time": 1760423230},
        ),
        frame(
            "on_tool_start",
            {"name": "retriever", "id": "cmpl-tool", "parent_id": "run-sub", "time": 1760423234},
        ),
        frame(
            "on_tool_end",
            {
                "content": RETRIEVED,
                "name": "retriever",
                "id": "cmpl-tool",
                "parent_id": "run-sub",
                "time": 1760423234,
            },
        ),
        frame("on_custom_event", {"name": "citations", "data": {"count": 1}}),
        frame("on_chat_model_start", {"id": MSG, "parent_id": "run-sub", "time": 1760495609}),
        frame(
            "on_chat_model_stream",
            {
                "content": "",
                "additional_kwargs": {"reasoning_content": "문서를 "},
                "id": MSG,
                "parent_id": "run-sub",
            },
        ),
        frame(
            "on_chat_model_stream",
            {
                "content": "",
                "additional_kwargs": {"reasoning_content": "요약하자."},
                "id": MSG,
                "parent_id": "run-sub",
            },
        ),
        frame(
            "on_chat_model_stream",
            {"content": "안녕", "additional_kwargs": {}, "id": MSG, "parent_id": "run-sub"},
        ),
        frame(
            "on_chat_model_stream",
            {
                "content": "하세요",
                "additional_kwargs": {"reasoning_content": None},
                "id": MSG,
                "parent_id": "run-sub",
            },
        ),
        frame(
            "on_chat_model_end",
            {
                "model": "Konan-LLM-ENT-11",
                "finish_reason": "stop",
                "usage_metadata": {
                    "input_tokens": 89,
                    "output_tokens": 9,
                    "total_tokens": 98,
                    "input_token_details": {},
                    "output_token_details": {},
                },
                "id": MSG,
                "parent_id": "run-sub",
                "time": 1760495609,
            },
        ),
        frame(
            "on_chain_end",
            {"name": "rag-agent", "id": "run-sub", "parent_id": RUN, "time": 1760423235},
        ),
        frame(
            "on_chain_end",
            {"name": "kylin-service", "id": RUN, "parent_id": None, "time": 1760423235},
        ),
    ]
    if end == "done":
        frames.append(frame("done", {}))
    elif end == "error":
        frames.append(
            frame("error", {"content": "LLM 서버 응답 시간 초과", "finish_reason": "error"})
        )
        frames.append(frame("done", {}))
    return "".join(frames).encode()


def test_a_whole_service_run_becomes_a_coherent_mastra_stream() -> None:
    chunks = convert_konan(parse_sse([service_run()]))
    assert_coherent(chunks)
    assert without(chunks, "text-delta", "reasoning-delta", "raw") == [
        "start",
        "data-progress",
        "data-chain",
        "step-start",
        "tool-call",
        "tool-result",
        "source",
        "data-citations",
        "step-finish",
        "step-start",
        "reasoning-start",
        "reasoning-end",
        "text-start",
        "text-end",
        "data-chain",
        "step-finish",
        "finish",
    ]
    assert {c["runId"] for c in chunks if "runId" in c} == {RUN}
    state = accumulate(chunks)
    assert state.text == "안녕하세요"
    assert state.reasoning_text == "문서를 요약하자."
    assert state.finish_reason == "stop"
    assert (
        state.usage is not None
        and state.usage.input_tokens == 89
        and state.usage.total_tokens == 98
    )
    assert state.status == "finished"
    (call,) = state.tool_calls
    assert call.tool_name == "retriever" and call.tool_call_id == "cmpl-tool"
    assert call.result == RETRIEVED


def test_retriever_chunks_become_sources_and_progress_and_nesting_are_data() -> None:
    chunks = convert_konan(parse_sse([service_run()]))
    (source,) = of_type(chunks, "source")
    assert source["payload"]["sourceType"] == "url"
    assert source["payload"]["url"] == RETRIEVED[0]["url"]
    assert source["payload"]["title"] == "프랑스 혁명.txt"
    assert source["payload"]["providerMetadata"]["konan"]["page"] == 1
    progress = of_type(chunks, "data-progress")
    assert progress[0]["data"]["text"] == "준비중..."
    chain = of_type(chunks, "data-chain")
    assert [c["data"]["status"] for c in chain] == ["running", "done"]
    assert {c["id"] for c in chain} == {"run-sub"} and chain[0]["data"]["parentId"] == RUN
    assert of_type(chunks, "data-citations")[0]["data"] == {"count": 1}
    finish = of_type(chunks, "step-finish")[-1]
    assert finish["payload"]["metadata"]["modelId"] == "Konan-LLM-ENT-11"


def test_error_event_becomes_error_chunk_and_finish_says_error() -> None:
    chunks = convert_konan(parse_sse([service_run(end="error")]))
    assert_coherent(chunks)
    (error,) = of_type(chunks, "error")
    assert error["payload"]["error"] == {
        "message": "LLM 서버 응답 시간 초과",
        "finishReason": "error",
    }
    assert types(chunks)[-1] == "finish"
    assert chunks[-1]["payload"]["stepResult"]["reason"] == "error"


def test_a_stream_without_done_ends_with_an_error_saying_it_was_cut() -> None:
    data = service_run()
    data = data[: data.index(b"event: on_chat_model_end")]
    chunks = convert_konan(parse_sse([data]))
    assert_coherent(chunks)
    assert chunks[-1]["type"] == "error"
    assert "before its `done` event" in chunks[-1]["payload"]["error"]["message"]
    assert accumulate(chunks).text == "안녕하세요"


def test_same_chunks_from_dicts_pairs_and_split_bytes() -> None:
    data = service_run()
    from_sse = convert_konan(parse_sse([data[i : i + 3] for i in range(0, len(data), 3)]))
    dicts = [{"event": e.event, "data": json.loads(e.data)} for e in parse_sse([data])]
    assert convert_konan(dicts) == from_sse
    assert convert_konan([(d["event"], d["data"]) for d in dicts]) == from_sse
    auto = list(adapt([data]))
    assert auto == from_sse


async def test_async_source() -> None:
    async def events():  # type: ignore[no-untyped-def]
        for event in parse_sse([service_run()]):
            yield event

    chunks = [c async for c in from_konan(events())]
    assert chunks == convert_konan(parse_sse([service_run()]))


def test_unknown_events_and_bad_data_are_kept_as_raw() -> None:
    chunks = convert_konan(
        [("on_mystery", {"x": 1}), ("on_chat_model_stream", [1, 2]), 42, ("done", {})]
    )
    raws = of_type(chunks, "raw")
    assert raws[0]["payload"] == {"event": "on_mystery", "data": {"x": 1}}
    assert raws[1]["payload"]["event"] == "on_chat_model_stream"
    assert raws[2]["payload"]["event"] == 42 and "adapterError" in raws[2]["payload"]
    assert chunks[-1]["type"] == "finish"


def test_a_source_that_raises_yields_error_then_reraises() -> None:
    def broken():  # type: ignore[no-untyped-def]
        yield from parse_sse([service_run()[:600]])
        raise ConnectionResetError("peer reset")

    seen = []
    with pytest.raises(ConnectionResetError):
        for chunk in from_konan(broken()):
            seen.append(chunk)
    assert seen[-1]["type"] == "error"
    assert "ConnectionResetError: peer reset" in seen[-1]["payload"]["error"]["message"]
    assert_coherent(seen)
