"""compare(run_a, run_b) on pairs of recordings that differ in text, tool arguments, steps.

The B sides are edited copies of real Mastra recordings, written by
``tests/fixtures/compare/make_variants.py``; the A sides are the recordings themselves.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from IPython.lib.pretty import pretty

import chunkscope as cs
from chunkscope.present.compare import (
    MISSING,
    SUMMARY_LINES,
    RunComparison,
    TextSegment,
    ValueChange,
    compare,
    diff_values,
    diff_words,
)

MASTRA = Path(__file__).parent / "fixtures" / "mastra"
VARIANTS = Path(__file__).parent / "fixtures" / "compare"
PLAIN = MASTRA / "plain-text.jsonl"
REWORDED = VARIANTS / "plain-text-reworded.jsonl"
WEATHER = MASTRA / "tool-streamed-input.jsonl"
BUSAN = VARIANTS / "tool-streamed-input-busan.jsonl"
NO_TOOL = VARIANTS / "tool-streamed-input-no-tool.jsonl"


def _chunks(path: Path) -> list[dict[str, Any]]:
    """The chunks of a recording, as plain dicts a test may edit."""
    with path.open(encoding="utf-8") as file:
        return [json.loads(line)["chunk"] for line in file if line.strip()]


# ----------------------------------------------------------------------- the three pairs


def test_text_pair_marks_the_changed_words() -> None:
    cmp = compare(PLAIN, REWORDED)
    assert not cmp.same
    assert cmp.step_counts == (1, 1)
    (step,) = cmp.steps
    assert step.label == "step 1"
    assert (step.text.words_changed, step.text.words_added, step.text.words_removed) == (2, 1, 0)
    assert step.text.segments == (
        TextSegment("equal", "Hello! Streaming "),
        TextSegment("delete", "works, "),
        TextSegment("insert", "works fine, "),
        TextSegment("equal", "one word at a "),
        TextSegment("delete", "time."),
        TextSegment("insert", "time!"),
    )
    assert step.tools == () and step.other == ()
    assert [(u.field, u.delta) for u in cmp.usage if u.changed] == [("output", 1), ("total", 1)]
    assert cmp.summary() == (
        "A vs B: 1 step each\n"
        'step 1 text: 2 words changed, 1 added: "works," → "works fine,"\n'
        "usage: output +1, total +1 (10 in / 5 out / 15 total → 10 in / 6 out / 16 total)"
    )
    page = cmp._repr_html_()
    assert "<del>works, </del>" in page and "<ins>works fine, </ins>" in page
    assert "<del>time.</del>" in page and "<ins>time!</ins>" in page


def test_tool_argument_pair_names_the_paths_that_differ() -> None:
    cmp = compare(WEATHER, BUSAN)
    assert cmp.tool_matching == "step"
    (tool,) = cmp.tools
    assert (tool.label, tool.only, tool.step_a, tool.step_b) == ("get-weather#1", None, 0, 0)
    assert tool.args == (ValueChange("args.city", "Seoul", "Busan"),)
    assert tool.result == (
        ValueChange("result.city", "Seoul", "Busan"),
        ValueChange("result.temperature", 21, 24),
    )
    assert tool.error == () and not tool.state_changed
    assert cmp.steps[0].tools == (tool,)
    assert all(step.text.same for step in cmp.steps)
    assert not any(u.changed for u in cmp.usage)
    assert cmp.summary() == (
        "A vs B: 2 steps each, 1 tool call each\n"
        'step 1 tool get-weather#1 args.city: "Seoul" → "Busan"\n'
        'step 1 tool get-weather#1 result.city: "Seoul" → "Busan"\n'
        "step 1 tool get-weather#1 result.temperature: 21 → 24"
    )
    page = cmp._repr_html_()
    assert "<mark>args.city: &quot;Seoul&quot;</mark>" in page
    assert "<mark>args.city: &quot;Busan&quot;</mark>" in page
    assert "<mark>result.temperature: 24</mark>" in page
    assert "args.unit: &quot;C&quot;</div>" in page  # unchanged paths are listed, unmarked


def test_step_count_pair_aligns_by_index_and_matches_tools_across_the_run() -> None:
    cmp = compare(WEATHER, NO_TOOL)
    assert cmp.step_counts == (2, 1)
    assert cmp.tool_matching == "run"
    first, second = cmp.steps
    assert (first.finish_reason_a, first.finish_reason_b) == ("tool-calls", "stop")
    assert (first.text.a, first.text.b) == ("Let me check.", "It is 21 °C in Seoul.")
    assert (second.present_a, second.present_b, second.b) == (True, False, None)
    (tool,) = cmp.tools
    assert (tool.only, tool.step_a, tool.step_b) == ("a", 0, None)
    assert [u.describe() for u in cmp.usage] == ["input -20", "output -8", "total -28"]
    assert cmp.summary() == (
        "A vs B: 2 steps vs 1 step, 1 tool call vs 0 tool calls\n"
        "step 1 finish reason: tool-calls → stop\n"
        'step 1 text: 3 words changed, 3 added: "Let me check." → "It is 21 °C in Seoul."\n'
        "step 2: only in A (stop; 6 words)\n"
        "tool get-weather#1: only in A (step 1)\n"
        "usage: input -20, output -8, total -28 "
        "(60 in / 17 out / 77 total → 40 in / 9 out / 49 total)"
    )
    page = cmp._repr_html_()
    assert "no step 2" in page and "only in A" in page
    # The timelines share one scale: the longer run's elapsed time ends the axis.
    assert f"{cmp.timings[0].elapsed_ms:.1f} ms</text>" in page


def test_a_tool_call_that_moved_to_another_step_is_matched_and_says_so() -> None:
    chunks = _chunks(WEATHER)
    starts = [i for i, c in enumerate(chunks) if c["type"] == "step-start"]
    answer_step = chunks[starts[1] : -1]
    # B answers first, then calls the tool, then answers again: three steps.
    moved = [chunks[0], *copy.deepcopy(answer_step), *chunks[starts[0] :]]
    cmp = compare(WEATHER, moved)
    assert cmp.step_counts == (2, 3) and cmp.tool_matching == "run"
    (tool,) = cmp.tools
    assert (tool.step_a, tool.step_b, tool.args, tool.result) == (0, 1, (), ())
    assert "tool get-weather#1: step 1 → step 2" in cmp.summary().splitlines()
    assert "matched with step 2" in cmp._repr_html_()


def test_identical_runs_have_no_differences() -> None:
    cmp = compare(WEATHER, WEATHER, labels=("before", "after"))
    assert cmp.same
    assert repr(cmp) == "before vs after: no differences (2 steps each, 1 tool call each)"
    assert all(step.same for step in cmp.steps) and all(tool.same for tool in cmp.tools)


@pytest.mark.parametrize("path", sorted(MASTRA.glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_recording_equals_itself(path: Path) -> None:
    cmp = compare(path, cs.replay(path, speed=0))
    assert cmp.same, cmp.summary()
    assert cmp.summary().startswith("A vs B: no differences (")


def test_parts_other_than_text_and_tools_are_compared_by_their_transcript_lines() -> None:
    path = MASTRA / "sources-and-files.jsonl"
    edited = _chunks(path)
    for chunk in edited:
        if chunk["type"] == "source" and chunk["payload"].get("title"):
            chunk["payload"]["title"] = "A different title"
            break
    cmp = compare(path, edited)
    (step,) = cmp.steps
    assert [line[:2] for line in step.other] == ["- ", "+ "]
    assert step.other[1].startswith("+ [source] A different title")
    summary = cmp.summary()
    assert summary.splitlines()[1].startswith("step 1 other parts: 2 lines differ (first: - [")


def test_runs_without_steps_are_still_compared() -> None:
    cmp = compare(MASTRA / "workflow-nested.jsonl", MASTRA / "workflow-parallel.jsonl")
    assert cmp.step_counts == (0, 0) and not cmp.same
    (outside,) = cmp.steps
    assert outside.index is None and outside.label == "outside steps"
    assert cmp.summary().splitlines()[1].startswith("outside steps other parts: ")


# ----------------------------------------------------------------------- determinism, safety


def test_summary_and_html_are_the_same_for_two_replays_of_the_same_files() -> None:
    first = compare(cs.replay(WEATHER, speed=0), cs.replay(NO_TOOL, speed=0))
    second = compare(WEATHER, str(NO_TOOL))
    assert first.summary() == second.summary()
    assert first._repr_html_() == second._repr_html_()
    run_id = _chunks(WEATHER)[0]["runId"]
    for text in (first.summary(), first._repr_html_()):
        assert run_id not in text
        assert not re.search(r"0x[0-9a-f]{6,}", text)
    assert " ms" not in first.summary()


def test_the_view_escapes_everything_that_came_from_a_run() -> None:
    hostile = _chunks(PLAIN)
    for chunk in hostile:
        if chunk["type"] == "text-delta" and chunk["payload"]["text"] == "works, ":
            chunk["payload"]["text"] = "<script>alert(1)</script> "
    cmp = compare(PLAIN, hostile, labels=("<b>old</b>", 'new" onmouseover="x'))
    page = cmp._repr_html_()
    assert "<script" not in page and "<b>old" not in page and 'onmouseover="x' not in page
    assert "<ins>&lt;script&gt;alert(1)&lt;/script&gt; </ins>" in page
    assert "&lt;b&gt;old&lt;/b&gt;" in page
    assert 'step 1 text: 1 word changed: "works," → "<script>alert(1)</script>"' in cmp.summary()


def test_the_summary_stays_short_when_much_differs() -> None:
    wide = _chunks(WEATHER)
    for chunk in wide:
        if chunk["type"] == "tool-result":
            chunk["payload"]["result"] = {f"k{i:02}": i for i in range(80)}
    lines = compare(WEATHER, wide).summary().splitlines()
    assert len(lines) == SUMMARY_LINES + 1
    assert re.fullmatch(r"… and \d+ more differences", lines[-1])


# ----------------------------------------------------------------------- inputs and outputs


async def test_every_kind_of_run_is_accepted() -> None:
    state = cs.accumulate(cs.replay(BUSAN, speed=0))
    view = cs.show(cs.replay(WEATHER, speed=0), display=False)
    await view.wait()
    for a, b in [
        (view, state),
        (view.state, BUSAN),
        (_chunks(WEATHER), cs.replay(BUSAN, speed=0)),
        (str(WEATHER), iter(_chunks(BUSAN))),
    ]:
        cmp = compare(a, b)
        assert [c.path for t in cmp.tools for c in t.args] == ["args.city"]


@pytest.mark.parametrize(
    ("run", "error", "message"),
    [
        (42, TypeError, "run_a: expected a RunState, a StreamView, a recording path"),
        ({"type": "start"}, TypeError, "got dict"),
        (b"{}", TypeError, "got bytes"),
        ("no/such/recording.jsonl", FileNotFoundError, "run_a: no recording at"),
        (cs.replay("no/such.jsonl"), FileNotFoundError, "run_a: no recording at"),
    ],
)
def test_bad_runs_are_refused_with_a_clear_message(
    run: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=re.escape(message)):
        compare(run, WEATHER)


def test_labels_must_be_two_strings() -> None:
    with pytest.raises(TypeError, match="labels must be two strings"):
        compare(WEATHER, WEATHER, labels=("only one",))
    with pytest.raises(TypeError, match="labels must be two strings"):
        compare(WEATHER, WEATHER, labels="AB")


def test_reprs_and_widget_show_the_same_comparison() -> None:
    cmp = compare(PLAIN, REWORDED)
    assert isinstance(cmp, RunComparison)
    assert pretty(cmp) == repr(cmp) == cmp.summary()  # type: ignore[no-untyped-call]
    widget = cmp.widget()
    assert widget.value == cmp._repr_html_()


# ----------------------------------------------------------------------- the diff helpers


def test_value_paths_cover_nesting_missing_keys_lists_and_json_types() -> None:
    a = {"city": "Seoul", "days": [1, 2, 3], "two words": True, "n": 1, "deep": {"x": None}}
    b = {"city": "Seoul", "days": [1, 5], "two words": 1, "n": 1.0, "extra": "new", "deep": {}}
    assert diff_values(a, b, "args") == (
        ValueChange("args.days[1]", 2, 5),
        ValueChange("args.days[2]", 3, MISSING),
        ValueChange("args.deep.x", None, MISSING),
        ValueChange("args.extra", MISSING, "new"),
        ValueChange("args.n", 1, 1.0),
        ValueChange('args["two words"]', True, 1),
    )
    assert diff_values({"a": 1}, {"a": 1}, "args") == ()
    assert diff_values("raw text", {"a": 1}, "args") == (ValueChange("args", "raw text", {"a": 1}),)
    assert ValueChange("args.extra", MISSING, "new").describe() == 'args.extra: (absent) → "new"'


def test_word_diff_counts_words_not_whitespace() -> None:
    assert diff_words("same words", "same words").same
    spacing = diff_words("one two", "one\ntwo")
    assert not spacing.same and spacing.describe() == "whitespace changed"
    dropped = diff_words("one two three", "one three")
    assert dropped.describe() == '1 word removed: -"two"'
    assert diff_words("", "new text").describe() == '2 words added: +"new text"'


def test_long_texts_are_split_at_anchors_and_still_diffed_exactly() -> None:
    lines = [f"paragraph {i} says the same thing again" for i in range(3000)]
    a = "\n".join(lines)
    b = a.replace("paragraph 10 says", "paragraph 10 now says")
    b = b.replace("paragraph 2900 says the", "paragraph 2900 says a")
    diff = diff_words(a, b)
    assert (diff.words_changed, diff.words_added, diff.words_removed) == (1, 1, 0)
    assert "".join(s.text for s in diff.segments if s.op != "insert") == a
    assert "".join(s.text for s in diff.segments if s.op != "delete") == b
    assert [s.text for s in diff.segments if s.op != "equal"] == ["now ", "the ", "a "]


def test_runs_whose_transcripts_differ_are_never_reported_the_same() -> None:
    states = {p.stem: cs.accumulate(cs.replay(p, speed=0)) for p in sorted(MASTRA.glob("*.jsonl"))}
    states.update({p.stem: cs.accumulate(cs.replay(p, speed=0)) for p in (REWORDED, BUSAN)})
    names = sorted(states)
    missed = [
        (x, y)
        for i, x in enumerate(names)
        for y in names[i + 1 :]
        if states[x].transcript() != states[y].transcript() and compare(states[x], states[y]).same
    ]
    assert missed == []
    assert len(names) >= 30


def test_without_timings_the_view_of_live_runs_is_deterministic() -> None:
    def view(show_timings: bool) -> str:
        live_a, live_b = cs.demo.stream(speed=0), cs.demo.stream(speed=0, variant="error")
        return compare(live_a, live_b, show_timings=show_timings)._repr_html_()

    first, second = view(False), view(False)
    assert first == second
    assert "<svg" not in first and " ms" not in first
    assert "<svg" in view(True) and "elapsed" in view(True)
