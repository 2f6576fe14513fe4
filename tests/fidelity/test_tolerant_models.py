"""A chunk is invalid only when it lacks what chunkscope cannot render without.

Real emitters do not follow their own declared types: an agent network routing to a
workflow sends ``workflow-execution-start`` without ``name`` and ``workflow-execution-end``
without ``workflowId`` and with the workflow's whole result object; a Mastra server drops
fields from ``finish``. Such chunks are kept as they came, never dropped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

import chunkscope as cs
from chunkscope.chunks.models import CHUNK_CLASSES, InvalidChunk, parse_chunk

MASTRA = Path(__file__).parents[1] / "fixtures" / "mastra"


def _chunks(name: str) -> list[dict[str, Any]]:
    lines = (MASTRA / f"{name}.jsonl").read_text().splitlines()
    return [json.loads(line)["chunk"] for line in lines if line.strip()]


def _fold(chunks: list[dict[str, Any]]) -> cs.RunState:
    return cs.accumulate(chunks)


def test_network_routing_to_a_workflow_folds_without_invalid_chunks() -> None:
    chunks = _chunks("network-workflow")
    by_type = {c["type"]: c for c in chunks}
    assert "name" not in by_type["workflow-execution-start"]["payload"]
    end = by_type["workflow-execution-end"]["payload"]
    assert "workflowId" not in end and isinstance(end["result"], dict)
    for chunk in chunks:
        assert not isinstance(parse_chunk(chunk), InvalidChunk), chunk["type"]
    state = _fold(chunks)
    assert not state.errors, [p.describe() for p in state.errors]
    assert state.status == "finished"
    # the object result is kept as it came: the inspector row shows it whole
    rows = [r for r in state.rows if r["type"] == "workflow-execution-end"]
    assert rows and rows[0]["json"]["payload"]["result"] == end["result"]


def test_finish_without_metadata_and_messages_is_folded() -> None:
    chunks = _chunks("plain-text")
    expected = json.loads((MASTRA / "plain-text.expected.json").read_text())
    for chunk in chunks:
        if chunk["type"] in ("finish", "step-finish"):
            for key in ("metadata", "messages", "request"):
                chunk["payload"].pop(key, None)
    state = _fold(chunks)
    assert not state.errors, [p.describe() for p in state.errors]
    assert state.text == expected["text"]
    assert state.finish_reason == expected["finishReason"]
    assert state.usage is not None
    assert state.usage.total_tokens == expected["usage"]["totalTokens"]


def test_a_finish_with_only_its_usage_still_ends_the_run() -> None:
    chunks = _chunks("plain-text")
    finish = chunks[-1]
    assert finish["type"] == "finish"
    finish["payload"] = {"output": finish["payload"]["output"]}
    state = _fold(chunks)
    assert not state.errors
    assert state.status == "finished"
    assert state.usage is not None and state.usage.total_tokens == 15


def _required(cls: type[BaseModel], path: str, seen: set[type[BaseModel]]) -> set[str]:
    found: set[str] = set()
    for name, field in cls.model_fields.items():
        if field.is_required() and name not in ("type", "payload"):
            found.add(f"{path}.{name}")
        kinds = (*getattr(field.annotation, "__args__", ()), field.annotation)
        for kind in kinds:
            if isinstance(kind, type) and issubclass(kind, BaseModel) and kind not in seen:
                seen.add(kind)
                found |= _required(kind, f"{path}.{name}", seen)
    return found


# What a chunk cannot be drawn without: the id a part or call is keyed on, the text of a
# delta, a file's data, a finished workflow's status.
ALLOWED_REQUIRED = {
    *(
        f"{kind}.payload.id"
        for kind in (
            "text-start",
            "text-delta",
            "text-end",
            "reasoning-start",
            "reasoning-delta",
            "reasoning-end",
            "reasoning-signature",
            "redacted-reasoning",
        )
    ),
    "text-delta.payload.text",
    "reasoning-delta.payload.text",
    "file.payload.data",
    "reasoning-file.payload.data",
    "tool-call-delta.payload.args_text_delta",
    "workflow-finish.payload.workflow_status",
}


def test_only_what_the_fold_needs_is_required() -> None:
    required: set[str] = set()
    for kind, cls in CHUNK_CLASSES.items():
        required |= {
            path
            for path in _required(cls, kind, set())
            if not path.endswith((".tool_call_id", ".task_id"))
        }
    assert required <= ALLOWED_REQUIRED, sorted(required - ALLOWED_REQUIRED)
