"""Property tests: `parse_chunk` never raises, whatever it is given, and whatever it accepts as
a valid chunk dumps back to exactly the input."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from chunkscope.chunks.models import CHUNK_CLASSES, BaseChunk, InvalidChunk, parse_chunk

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Chunk-shaped inputs are costly to draw; fewer of them keep the file within seconds.
CHUNK_SETTINGS = settings(SETTINGS, max_examples=150)

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)

TYPES = [
    *sorted(CHUNK_CLASSES),
    "data-progress",
    "agent-execution-event-text-delta",
    "workflow-execution-event-workflow-start",
    "not-a-mastra-type",
]


def _aliases(model: type[BaseModel]) -> list[str]:
    return [field.alias or name for name, field in model.model_fields.items()]


def _payload_keys(kind: str) -> list[str]:
    cls = CHUNK_CLASSES.get(kind)
    payload = cls.model_fields.get("payload") if cls else None
    annotation = payload.annotation if payload else None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _aliases(annotation)
    return ["type", "runId", "from", "payload", "id", "text"]


@st.composite
def chunk_like(draw: st.DrawFn) -> dict[str, Any]:
    """A dict with a known `type`, its declared keys filled with random JSON values."""
    kind = draw(st.sampled_from(TYPES))
    keys = _payload_keys(kind)
    payload = draw(st.fixed_dictionaries({}, optional=dict.fromkeys(keys, json_values)))
    value: dict[str, Any] = {"type": kind}
    value.update(
        draw(
            st.fixed_dictionaries(
                {},
                optional={
                    "runId": st.text() | st.none(),
                    "from": st.sampled_from(["AGENT", "USER", "WORKFLOW", "X"]),
                    "metadata": json_values,
                    "data": json_values,
                    "object": json_values,
                    "transient": st.booleans(),
                },
            )
        )
    )
    value["payload"] = draw(st.just(payload) | json_values)
    extra = draw(st.dictionaries(st.text(min_size=1).map(lambda k: "x-" + k), json_values))
    value.update(extra)
    return value


@SETTINGS
@given(json_values)
def test_any_json_value_never_raises(value: Any) -> None:
    for form in (value, json.dumps(value), json.dumps(value).encode()):
        parsed = parse_chunk(form)
        assert isinstance(parsed, (BaseChunk, InvalidChunk))


@SETTINGS
@given(st.text() | st.binary())
def test_any_text_or_bytes_never_raises(value: str | bytes) -> None:
    assert isinstance(parse_chunk(value), (BaseChunk, InvalidChunk))


@CHUNK_SETTINGS
@given(chunk_like())
def test_chunk_like_dicts_never_raise_and_valid_ones_round_trip(value: dict[str, Any]) -> None:
    parsed = parse_chunk(value)
    if isinstance(parsed, InvalidChunk):
        assert parsed.raw is value
        assert parsed.error
    else:
        assert parsed.model_dump(by_alias=True, exclude_unset=True, mode="json") == value


@CHUNK_SETTINGS
@given(chunk_like())
def test_wrapped_chunk_like_dicts_never_raise(value: dict[str, Any]) -> None:
    wrapper = {"type": "agent-execution-event-" + value["type"], "payload": value}
    parsed = parse_chunk(wrapper)
    if isinstance(parsed, InvalidChunk):
        assert isinstance(parse_chunk(value), InvalidChunk)
    else:
        assert parsed.model_dump(by_alias=True, exclude_unset=True, mode="json") == wrapper
