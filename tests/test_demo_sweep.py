"""``cs.demo.sweep()``: many labelled demo runs that differ the way a real sweep's runs do."""

from __future__ import annotations

import asyncio
import re
import statistics
import time
from typing import Any

import pytest

import chunkscope as cs
from chunkscope.chunks import InvalidChunk, UnknownChunk


def script_seconds(stream: cs.demo.DemoStream) -> float:
    return sum(delay for delay, _ in stream.script())


def folded(sweep: dict[str, Any]) -> dict[str, cs.RunState]:
    return {label: cs.accumulate(make(), title=label) for label, make in sweep.items()}


def retried(state: cs.RunState) -> bool:
    """Two calls of the same tool with the same arguments: the first failed, the second
    returned, and the run finished."""
    calls = state.tool_calls
    return (
        state.status == "finished"
        and len(calls) == 2
        and calls[0].error is not None
        and not calls[0].has_result
        and calls[1].error is None
        and calls[1].has_result
        and calls[0].tool_name == calls[1].tool_name
        and calls[0].args == calls[1].args
    )


def test_labels_are_short_unique_numbered_in_order() -> None:
    labels = list(cs.demo.sweep(20, speed=0))
    assert len(labels) == len(set(labels)) == 20
    assert [label.split(" ", 1)[0] for label in labels] == [f"q{i:02d}" for i in range(1, 21)]
    assert labels[0] == "q01 weather in Seoul"
    assert all(len(label) <= 32 for label in labels)


def test_every_chunk_of_every_run_is_valid_and_folds_without_problems() -> None:
    for label, make in cs.demo.sweep(20, speed=0).items():
        for chunk in make():
            parsed = cs.parse_chunk(chunk)
            assert not isinstance(parsed, (InvalidChunk, UnknownChunk)), (label, chunk)
        state = cs.accumulate(make())
        assert state.warnings == [], label
        assert not [n for n in state.notices if n.notice in ("invalid", "unknown")], label
        assert state.status in ("finished", "error", "tripwire"), label


def test_runs_ask_about_different_cities_and_answer_with_different_texts() -> None:
    sweep = cs.demo.sweep(20, speed=0)
    states = folded(sweep)
    finished = [s for s in states.values() if s.status == "finished"]
    texts = [s.full_text for s in finished]
    assert len(set(texts)) == len(texts)
    cities = {s.tool_calls[0].args["city"] for s in states.values()}
    assert len(cities) >= 8
    for label, make in sweep.items():
        stream = make()
        state = states[label]
        city = state.tool_calls[0].args["city"]
        # the prompt drives the run: the city it names is the tool's argument and the answer's
        assert city in stream.prompt
        assert city in label
        if state.status == "finished":
            assert f"## Weather in {city}" in state.text
            assert f'weather.get("{city}"' in state.text
    units = {s.tool_calls[0].args["unit"] for s in states.values()}
    assert units == {"C", "F"}
    lengths = {len(s.text) for s in finished}
    assert max(lengths) > 1.2 * min(lengths)


def test_token_usage_spreads_across_the_runs() -> None:
    totals = [
        s.usage.total_tokens
        for s in folded(cs.demo.sweep(20, speed=0)).values()
        if s.status == "finished" and s.usage is not None and s.usage.total_tokens is not None
    ]
    assert len(set(totals)) >= 8
    assert max(totals) >= 1.4 * min(totals)


@pytest.mark.parametrize("n", [5, 6, 20, 37])
def test_error_retry_tripwire_and_slow_runs_are_always_there(n: int) -> None:
    sweep = cs.demo.sweep(n, speed=0, seed=n)
    states = folded(sweep)
    assert len(states) == n
    statuses = [s.status for s in states.values()]
    errors = [s for s in states.values() if s.status == "error"]
    assert errors
    for state in errors:
        # the tool failed and the model call after it too: one failed call, no answer
        assert len(state.tool_calls) == 1
        assert state.tool_calls[0].error is not None and not state.tool_calls[0].has_result
        assert state.errors
    assert "tripwire" in statuses
    assert sum(retried(s) for s in states.values()) >= 1
    seconds = {label: script_seconds(make()) for label, make in sweep.items()}
    usual = statistics.median(seconds.values())
    slow = [label for label, s in seconds.items() if s >= 3 * usual]
    assert slow
    assert all(states[label].status == "finished" for label in slow)


def test_a_retry_run_shows_the_failed_call_the_second_call_and_the_answer() -> None:
    state = cs.accumulate(cs.demo.stream("What's the weather in Oslo?", speed=0, variant="retry"))
    assert retried(state)
    first, second = state.tool_calls
    assert first.tool_call_id != second.tool_call_id
    assert first.args == {"city": "Oslo", "unit": "C"}
    assert "did not answer" in str(first.error)
    assert second.result["city"] == "Oslo"
    assert "## Weather in Oslo" in state.text
    assert state.errors == []
    assert len(state.steps) == 3
    assert state.usage is not None and state.usage.total_tokens is not None
    plain = cs.accumulate(cs.demo.stream("What's the weather in Oslo?", speed=0))
    assert plain.usage is not None and plain.usage.total_tokens is not None
    assert state.usage.total_tokens > plain.usage.total_tokens


def test_the_prompt_decides_the_city_unit_and_detail() -> None:
    state = cs.accumulate(
        cs.demo.stream("Give me a detailed weather report for Lisbon in Fahrenheit.", speed=0)
    )
    (call,) = state.tool_calls
    assert call.args == {"city": "Lisbon", "unit": "F", "detail": "full"}
    assert call.result["temperature"] == 75  # 24 °C
    assert "It is **75 °F**" in state.text
    assert "| hour | °F | sky |" in state.text
    made_up = cs.accumulate(cs.demo.stream("What's the weather in Paris?", speed=0))
    assert made_up.tool_calls[0].args["city"] == "Paris"
    assert "## Weather in Paris" in made_up.text
    # a city is a whole word: "climate" does not ask about Lima; a prompt with no city is Seoul's
    unnamed = cs.accumulate(cs.demo.stream("What is the climate like today?", speed=0))
    assert unnamed.tool_calls[0].args["city"] == "Seoul"


def test_the_same_seed_gives_the_same_sweep_and_another_seed_another() -> None:
    def chunks(seed: int) -> dict[str, list[tuple[float, dict[str, Any]]]]:
        return {
            label: list(make().script()) for label, make in cs.demo.sweep(12, seed=seed).items()
        }

    assert chunks(3) == chunks(3)
    assert list(chunks(3)) != list(chunks(4))


def test_values_make_fresh_independent_streams_only_when_called() -> None:
    started = time.monotonic()
    sweep = cs.demo.sweep(20, speed=1)  # at speed 1, a single run lasts seconds
    assert time.monotonic() - started < 2
    make = sweep["q01 weather in Seoul"]
    first, second = make(), make()
    assert first is not second
    half = iter(first)
    head = [next(half) for _ in range(3)]
    whole = [chunk for _, chunk in second.script()]
    assert head == whole[:3]
    assert [chunk for _, chunk in make().script()] == whole
    assert whole[-1]["type"] == "finish"


async def test_two_streams_of_one_value_can_run_at_once() -> None:
    make = cs.demo.sweep(3, speed=50)["q01 weather in Seoul"]

    async def collect() -> list[dict[str, Any]]:
        return [chunk async for chunk in make()]

    a, b = await asyncio.gather(collect(), collect())
    assert a == b
    assert a[0]["type"] == "start" and a[-1]["type"] == "finish"


def test_one_run_is_the_default_demo_run() -> None:
    (only,) = cs.demo.sweep(1, speed=0).items()
    label, make = only
    assert label == "q01 weather in Seoul"
    state = cs.accumulate(make())
    default = cs.accumulate(cs.demo.stream(speed=0))
    assert state.status == default.status == "finished"
    assert state.full_text == default.full_text
    assert [(c.tool_name, c.args, c.result) for c in state.tool_calls] == [
        (c.tool_name, c.args, c.result) for c in default.tool_calls
    ]


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (2, ["finished", "error"]),
        (3, ["finished", "error", "finished"]),  # the retry run finishes
        (4, ["error", "finished", "finished", "tripwire"]),
    ],
)
def test_a_short_sweep_keeps_as_many_special_runs_as_fit(n: int, expected: list[str]) -> None:
    states = folded(cs.demo.sweep(n, speed=0))
    assert sorted(s.status for s in states.values()) == sorted(expected)
    assert sum(retried(s) for s in states.values()) == (1 if n >= 3 else 0)


@pytest.mark.parametrize("n", [0, -1])
def test_a_sweep_needs_at_least_one_run(n: int) -> None:
    with pytest.raises(ValueError, match=re.escape(f"n={n}")):
        cs.demo.sweep(n)
