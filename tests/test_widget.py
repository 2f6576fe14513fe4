"""StreamView on the Python side: traits, messages, reprs, and the front-end protocol."""

from __future__ import annotations

import html
import itertools
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import chunkscope as cs
import chunkscope.live.display
from captured_view import Captured, RecordingComm
from chunkscope.live.widget import READABLE_HTML_LIMIT, READABLE_HTML_TAGS

STATIC = Path(cs.__file__).parent / "static"


def test_repr_is_deterministic_and_replaces_the_default_address() -> None:
    view = cs.StreamView(title="weather")
    assert repr(view) == "StreamView(title='weather')"
    bundle = view._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert data["text/plain"].splitlines()[0] == "StreamView(title='weather')"
    assert "0x" not in data["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in data


def test_traits_hold_the_final_run_and_never_a_transient_chunk() -> None:
    view = cs.show(cs.demo.stream(speed=0), title="demo", display=False)
    state = view.result(timeout=30)
    assert state.status == "finished"
    snapshot = view.snapshot
    assert snapshot is not None and snapshot["run"]["ended"] is True
    text = json.dumps(snapshot)
    assert "Weather in Seoul" in text and "get-weather" in text
    assert "data-progress" not in text and "downloading readings" not in text
    state_keys = set(view.get_state())
    assert {"title", "snapshot"} <= state_keys
    assert "data-progress" not in json.dumps(
        {k: view.get_state()[k] for k in ("title", "snapshot")}
    )


def test_ready_gets_a_snapshot_without_transient_items_and_batches_follow() -> None:
    gate = threading.Event()

    def after_ready() -> Any:
        gate.wait(10)
        yield from cs.demo.stream(speed=0.0)

    view = Captured(after_ready())
    view._on_front_end_message(view, {"kind": "ready"}, [])
    gate.set()
    view.result(timeout=30)
    view._channel.join(5)
    kinds = [m["kind"] for m in view.sent]
    assert kinds[0] == "snapshot"
    assert all(k in ("snapshot", "batch") for k in kinds)
    seqs = [m["seq"] for m in view.sent if m["kind"] == "batch"]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert any(
        op["op"] == "transient" and op["item"]["type"] == "data-progress"
        for m in view.sent
        if m["kind"] == "batch"
        for op in m["ops"]
    ), "transient chunks travel live, as batch ops"
    view._on_front_end_message(view, {"kind": "ready"}, [])
    last = view.sent[-1]
    assert last["kind"] == "snapshot"
    assert last["transient"] == [], "a page that arrives later does not get live-only items"
    assert "data-progress" not in json.dumps(last)


def test_a_view_shown_first_streams_the_run_it_is_started_with() -> None:
    view = Captured(title="shown first")
    view._on_front_end_message(view, {"kind": "ready"}, [])
    assert view.sent[0]["snapshot"]["run"]["status"] == "waiting"
    assert view.done, "a view without a source has nothing to wait for"
    assert view.start(cs.demo.stream(speed=0.0)) is view
    state = view.result(timeout=30)
    view._channel.join(5)
    assert state.status == "finished" and state.text
    batches = [m for m in view.sent if m["kind"] == "batch"]
    assert batches and batches[0]["seq"] == 1
    appended = "".join(
        op["text"]
        for m in batches
        for op in m["ops"]
        if op["op"] == "append" and op["field"] == "text"
    )
    assert state.text in appended
    with pytest.raises(RuntimeError, match="already shows a run"):
        view.start(cs.demo.stream(speed=0.0))


def test_stop_message_aborts_the_run() -> None:
    view = Captured(cs.demo.stream(speed=0.2))
    view._on_front_end_message(view, {"kind": "stop"}, [])
    state = view.result(timeout=10)
    assert state.status == "aborted"


def test_the_libraries_module_goes_to_a_page_that_asks_and_to_the_cell_that_waits() -> None:
    # Kept out of the view's first message, which must arrive and be imported before the
    # page draws anything: the page asks for it once its first words are drawn.
    view = cs.show(cs.demo.stream(speed=0), title="demo", display=False)
    assert view._libraries == ""
    view._on_front_end_message(view, {"kind": "libraries"}, [])
    module = view._libraries
    assert "export" in module and len(module) > 50_000
    # marked's, DOMPurify's and highlight.js's own words are in it, not in the view's module.
    view_module = (STATIC / "widget.js").read_text(encoding="utf-8")
    for words in ("input parameter is undefined or null", "dompurify", "Language definition for"):
        assert words in module and words not in view_module
    view._on_front_end_message(view, {"kind": "libraries"}, [])
    assert view._libraries is module  # asked again: the same module, not another message
    view.result(timeout=30)

    # A notebook executed headless has no page to ask: the cell that waits for the run sets
    # it, so that the saved notebook can draw the run's markdown.
    waited = cs.show(cs.demo.stream(speed=0), title="demo", display=False)
    assert waited._libraries == ""
    waited.result(timeout=30)
    assert waited._libraries == module
    assert "_libraries" in waited.get_state()


def test_messages_that_are_not_ours_are_ignored() -> None:
    view = Captured(title="x")
    for junk in (None, "text", [], {"kind": "unknown"}, {"nokind": 1}):
        view._on_front_end_message(view, junk, [])
    assert view.sent == []


async def test_await_show_returns_the_run_state() -> None:
    state = await cs.show(cs.demo.stream(speed=0), display=False)
    assert state.finish_reason == "stop"
    assert state.text.startswith("## Weather in Seoul")


def test_show_rejects_things_that_are_not_streams_clearly() -> None:
    import pytest

    with pytest.raises(TypeError, match="not a single dict"):
        cs.show({"type": "start"}, display=False)
    with pytest.raises(TypeError, match="cannot read a int"):
        cs.show(42, display=False)


def test_record_option_writes_the_run_without_transient_chunks(tmp_path: Any) -> None:
    path = tmp_path / "demo.jsonl"
    view = cs.show(cs.demo.stream(speed=0), record=path, display=False)
    view.result(timeout=30)
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert lines and all(set(x) == {"t", "chunk"} for x in lines)
    assert not any(x["chunk"]["type"] == "data-progress" for x in lines)
    replayed = cs.accumulate(cs.replay(path, speed=0))
    assert replayed.text == view.state.text


def test_the_first_view_gets_transient_items_that_came_before_it() -> None:
    view = Captured(cs.demo.stream(speed=0))
    view.result(timeout=30)
    view._on_front_end_message(view, {"kind": "ready"}, [])
    first = view.sent[-1]
    assert any(item["type"] == "data-progress" for item in first["transient"])
    assert "data-progress" not in json.dumps(first["snapshot"])
    view._on_front_end_message(view, {"kind": "ready"}, [])
    assert view.sent[-1]["transient"] == []


def test_show_as_a_cells_last_line_draws_the_view_once() -> None:
    import nbclient
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell(code)
        for code in (
            "import chunkscope as cs\ncs.show(cs.demo.stream(speed=0), title='last line')",
            "view = cs.show(cs.demo.stream(speed=0), title='assigned')",
            "view",
        )
    ]
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    shown = [
        [o["data"]["text/plain"].splitlines()[0] for o in cell.outputs if "data" in o]
        for cell in notebook.cells
    ]
    assert shown == [
        ["StreamView(title='last line')"],
        ["StreamView(title='assigned')"],
        ["StreamView(title='assigned')"],  # a later cell draws a second view of it
    ]
    # Both outputs of one view share its display id: a refresh updates them together.
    assert notebook.cells[1].outputs[0]["data"] == notebook.cells[2].outputs[0]["data"]


def test_inspector_rows_are_sent_only_once_a_page_asks_for_them() -> None:
    halfway = threading.Event()
    resume = threading.Event()

    def source() -> Any:
        chunks = list(cs.demo.stream(speed=0.0))
        middle = len(chunks) // 2
        yield from chunks[:middle]
        halfway.set()
        resume.wait(10)
        yield from chunks[middle:]

    view = Captured(source())
    view._on_front_end_message(view, {"kind": "ready"}, [])
    assert halfway.wait(10)
    view._channel.join(0.3)  # the first half's batches go out
    before = list(view.sent)
    assert "rows" not in before[0]["snapshot"], "a page that did not ask gets no rows"
    assert not any(op["op"] == "rows" for m in before if m["kind"] == "batch" for op in m["ops"])

    # The inspector opens mid-run: every row so far, in order, then rows in the batches.
    view._on_front_end_message(view, {"kind": "rows"}, [])
    resume.set()
    state = view.result(timeout=30)
    view._channel.join(5)
    rows: list[dict[str, Any]] = []
    seq = max((m["seq"] for m in before if m["kind"] == "batch"), default=0)
    for message in view.sent[len(before) :]:
        if message["kind"] == "rows":
            assert message["seq"] == seq, "the rows are those of the batches received so far"
            assert message["offset"] == len(rows)
            rows += message["rows"]
        elif message["kind"] == "batch":
            seq = message["seq"]
            for op in message["ops"]:
                for row in op.get("rows", []) if op["op"] == "rows" else []:
                    if rows and rows[-1]["i"] == row["i"]:
                        rows[-1] = row
                    else:
                        rows.append(row)
    assert [(r["i"], r["n"]) for r in rows] == [(r["i"], r["n"]) for r in state.rows]
    assert rows == json.loads(json.dumps(state.rows))

    # From now on a page that comes (or comes back) gets them in its snapshot, and the
    # saved notebook always keeps them.
    view._on_front_end_message(view, {"kind": "ready"}, [])
    assert len(view.sent[-1]["snapshot"]["rows"]) == len(state.rows)
    assert view.snapshot is not None


def test_an_add_op_says_what_the_part_was_when_it_was_added() -> None:
    state = cs.RunState()

    def chunk(kind: str, **payload: Any) -> dict[str, Any]:
        return {"type": kind, "runId": "r", "from": "AGENT", "payload": payload}

    state.handle(chunk("start"), 1.0)
    state.handle(chunk("step-start", request={}, messageId="m"), 1.0)
    added = state.handle(chunk("tool-call", toolCallId="c", toolName="ping", args={}), 2.0)
    state.handle(chunk("tool-result", toolCallId="c", toolName="ping", result=1), 3.0)
    (part,) = [op["part"] for op in added if op["op"] == "add"]
    # The op may be sent after the result came: it must not already hold the "done" state,
    # which the result's own `set` adds (the page would show it twice).
    assert part["states"] == [[2.0, "running"]]


def test_every_view_has_a_name_of_its_own_for_the_front_end() -> None:
    first, second = cs.StreamView(title="a"), cs.StreamView(title="a")
    names = {view.get_state()["_instance"] for view in (first, second)}
    assert len(names) == 2 and "" not in names


def _sanitized(text: str) -> str:
    import re

    from chunkscope.live.widget import NBVAL_SANITIZE

    for regex, replacement in NBVAL_SANITIZE.items():
        text = re.sub(regex, replacement, text)
    return text


def test_the_output_bundle_carries_the_run_and_nbval_compares_only_its_stable_part() -> None:
    from chunkscope.live.widget import LIVE_LINE

    view = cs.show(cs.demo.stream(speed=0), title="demo", display=False)
    before_plain, before_html = cs.StreamView(title="demo").readable()
    state = view.result(timeout=30)
    plain, rich = view.readable()
    assert plain == (
        f"StreamView(title='demo')\n{LIVE_LINE}the run as it ended, {state.chunk_count} chunks\n"
        + state.transcript()
    )
    assert state.static_html() in rich
    assert "data-progress" not in plain + rich
    assert "downloading readings" not in plain + rich
    # What the cell showed when it returned and what the file keeps after the run compare
    # equal once nbval applied chunkscope's patterns; other outputs are left alone.
    assert (
        _sanitized(plain)
        == _sanitized(before_plain)
        == "StreamView(title='demo')\n" + (LIVE_LINE.rstrip())
    )
    assert _sanitized(rich) == _sanitized(before_html)
    assert _sanitized(state.transcript()) == state.transcript()
    assert _sanitized("StreamView(title='demo')\nsomething else") == (
        "StreamView(title='demo')\nsomething else"
    )


def test_a_mid_run_refresh_states_its_age() -> None:
    gate = threading.Event()

    def source() -> Any:
        chunks = list(cs.demo.stream(speed=0))
        yield from chunks[:20]
        gate.wait(10)

    view = cs.show(source(), title="t", display=False)
    try:
        deadline = __import__("time").monotonic() + 10
        while view.state.chunk_count < 20 and __import__("time").monotonic() < deadline:
            __import__("time").sleep(0.01)
        plain, rich = view.readable()
        age = plain.splitlines()[1]
        assert age.endswith("20 chunks; the run was still going")
        assert " s, 20 chunks" in rich
    finally:
        gate.set()
        view.result(timeout=30)


def test_display_updates_the_bundle_in_place_at_each_persist_and_at_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import IPython
    import IPython.display

    shown: list[tuple[str, dict[str, Any]]] = []
    # a kernel's shell, as far as the view asks: one is there
    monkeypatch.setattr(IPython, "get_ipython", lambda: object())
    monkeypatch.setattr(
        IPython.display,
        "display",
        lambda data, **kw: shown.append(("display", {"data": data, **kw})),
    )
    monkeypatch.setattr(
        IPython.display,
        "update_display",
        lambda data, **kw: shown.append(("update", {"data": data, **kw})),
    )
    view = cs.show(cs.demo.stream(speed=0), title="demo")
    view.result(timeout=30)
    kinds = [kind for kind, _ in shown]
    assert kinds[0] == "display" and "update" in kinds
    ids = {entry["display_id"] for _, entry in shown}
    assert len(ids) == 1
    final = shown[-1][1]["data"]
    assert "application/vnd.jupyter.widget-view+json" in final
    assert final["text/plain"].endswith(view.state.transcript())
    assert "the run as it ended" in final["text/html"]


def test_a_run_large_enough_to_be_saved_packed_refreshes_its_readable_output_at_the_end_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from chunkscope.wire.persisted import PACK_OVER_BYTES

    # Refreshes as often as the snapshot's schedule asks: this run is short.
    refreshed, holder = _record_refreshes(monkeypatch, interval=0.0)
    line = "A line of the answer, long enough to make the run large quickly. " * 15 + "\n"
    # A model typing: batches, and saves, go out while it does.
    holder["view"] = view = cs.show(_text_chunks((700, line, 0.002)), title="long")
    view.result(timeout=60)
    assert len(view.state.text) > 2 * PACK_OVER_BYTES
    mid_run = [chars for _, ended, chars in refreshed if not ended]
    assert mid_run, "while the run is small, its readable output follows it"
    assert max(mid_run) <= PACK_OVER_BYTES
    assert refreshed[-1][1], "the run as it ended is written out"


def _text_chunks(*phases: tuple[int, str, float]) -> Iterator[dict[str, Any]]:
    """A text run: for each phase, that many deltas of that text, that many seconds apart."""

    def chunk(type_: str, payload: dict[str, Any]) -> dict[str, Any]:
        return {"type": type_, "runId": "r", "from": "AGENT", "payload": payload}

    yield chunk("start", {})
    yield chunk("text-start", {"id": "t"})
    for deltas, text, pause in phases:
        for _ in range(deltas):
            if pause:
                time.sleep(pause)
            yield chunk("text-delta", {"id": "t", "text": text})
    yield chunk("text-end", {"id": "t"})


def _record_refreshes(
    monkeypatch: pytest.MonkeyPatch, *, interval: float
) -> tuple[list[tuple[float, bool, int]], dict[str, Any]]:
    """With refreshes ``interval`` s apart in a pretended kernel: the list that gets
    (monotonic time, ended, characters of text) at each update of the output of the view
    put in the returned holder's ``"view"``."""
    import IPython.display

    monkeypatch.setattr(chunkscope.live.display, "REFRESH_INTERVAL_S", interval)
    _pretend_a_kernel_displays(monkeypatch)
    refreshed: list[tuple[float, bool, int]] = []
    holder: dict[str, Any] = {}

    def update(data: Any, **kw: Any) -> None:
        state = holder["view"].state
        refreshed.append((time.monotonic(), state.ended, len(state.text)))

    monkeypatch.setattr(IPython.display, "update_display", update)
    return refreshed, holder


def test_a_run_that_ends_within_the_refresh_interval_refreshes_its_output_at_the_end_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    refreshed, holder = _record_refreshes(monkeypatch, interval=5.0)
    # 400 KB in 2,000 deltas over about 0.4 s: its snapshot's schedule asks for refreshes
    # at 64 KB and 256 KB, both while the run goes on.
    holder["view"] = view = cs.show(_text_chunks((2_000, "x" * 199 + "\n", 0.0002)), title="burst")
    view.result(timeout=30)
    time.sleep(0.2)  # past any refresh that would have been put off
    assert refreshed, "the run as it ended is written out"
    assert all(ended for _, ended, _ in refreshed), "no refresh while the run went on"
    assert refreshed[0][2] == len(view.state.text) == 400_000


def test_refreshes_asked_for_while_a_run_goes_on_come_an_interval_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    interval = 0.8
    refreshed, holder = _record_refreshes(monkeypatch, interval=interval)
    started = time.monotonic()
    # 100 KB at once, which makes the snapshot's schedule ask for a refresh at once, then
    # 800 short deltas over about 1.6 s.
    chunks = _text_chunks((1_000, "y" * 99 + "\n", 0.0), (800, "z\n", 0.002))
    holder["view"] = view = cs.show(chunks, title="slow")
    view.result(timeout=30)
    mid_run = [(at, chars) for at, ended, chars in refreshed if not ended]
    assert mid_run, "while the run goes on, its readable output follows it"
    times = [started] + [at for at, _ in mid_run]
    # Each came an interval after the run's start or the refresh before it, with the run as
    # it stood then.
    assert all(b - a >= interval for a, b in itertools.pairwise(times)), refreshed
    assert 100_000 < mid_run[0][1] < len(view.state.text)
    assert refreshed[-1][1], "the run as it ended is written out"


def test_a_refresh_put_off_is_not_made_once_the_run_is_saved_packed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from chunkscope.wire.persisted import PACK_OVER_BYTES

    refreshed, holder = _record_refreshes(monkeypatch, interval=0.5)
    # 100 KB at once asks for a refresh, put off; 500 KB more before it is due make the run
    # one saved packed; then 1.2 s of short deltas while the refresh falls due.
    chunks = _text_chunks(
        (1_000, "a" * 99 + "\n", 0.0), (5_000, "b" * 99 + "\n", 0.00002), (600, "c\n", 0.002)
    )
    holder["view"] = view = cs.show(chunks, title="grows")
    view.result(timeout=30)
    assert len(view.state.text) > 2 * PACK_OVER_BYTES
    assert view.snapshot is not None and "encoding" in view.snapshot
    assert refreshed and refreshed[-1][1], "the run as it ended is written out"
    assert [chars for _, ended, chars in refreshed if not ended] == []


def test_a_refresh_begun_before_another_never_sends_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import IPython.display

    from chunkscope.live.display import DisplayedOutput

    sent: list[str] = []
    monkeypatch.setattr(
        IPython.display, "update_display", lambda data, **kw: sent.append(data["text/plain"])
    )
    building = threading.Event()
    finish_build = threading.Event()

    class Output(DisplayedOutput):
        _display_id = "d"
        _displayed = True
        text = "as of 1.0 s; the run was still going"

        def _bundle(self) -> tuple[dict[str, Any], dict[str, Any]]:
            text = self.text
            if threading.current_thread() is not threading.main_thread():
                building.set()  # the refresh from another thread read the run as it stood
                finish_build.wait(10)
            return {"text/plain": text}, {}

    output = Output()
    # A refresh put off until now (a timer's thread) reads the run, and is slow to send...
    late = threading.Thread(target=output._refresh_display)
    late.start()
    assert building.wait(10)
    # ...while the run ends and its end's refresh goes out.
    output.text = "the run as it ended"
    output._refresh_display()
    finish_build.set()
    late.join(10)
    assert sent == ["the run as it ended"]


def _pretend_a_kernel_displays(monkeypatch: pytest.MonkeyPatch) -> None:
    import IPython
    import IPython.display

    monkeypatch.setattr(IPython, "get_ipython", lambda: object())
    monkeypatch.setattr(IPython.display, "display", lambda data, **kw: None)
    monkeypatch.setattr(IPython.display, "update_display", lambda data, **kw: None)


def test_a_displayed_view_is_sent_its_run_before_its_page_says_ready(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _pretend_a_kernel_displays(monkeypatch)
    view = Captured(title="early")
    view.display_once()
    view.start(cs.demo.stream(speed=0)).result(timeout=30)
    batches = [m for m in view.sent if m["kind"] == "batch"]
    assert batches and [m["seq"] for m in batches] == list(range(1, len(batches) + 1))
    assert all(m["kind"] == "batch" for m in view.sent), "no snapshot: nothing came before"
    # The page applied every batch: the kernel says so instead of sending the run again.
    view._on_front_end_message(view, {"kind": "ready", "have": batches[-1]["seq"]}, [])
    assert view.sent[-1] == {"kind": "synced", "seq": batches[-1]["seq"]}
    # A page that holds nothing gets the run.
    view._on_front_end_message(view, {"kind": "ready", "have": 0}, [])
    assert view.sent[-1]["kind"] == "snapshot"


def test_a_view_displayed_before_its_run_is_given_the_libraries_as_it_is_displayed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Nothing of a run waits behind them then; asked for later by the page, they could come
    # while the run's first batches are on their way.
    _pretend_a_kernel_displays(monkeypatch)
    waiting = Captured(title="shown first")
    assert waiting._libraries == ""
    waiting.display_once()
    assert "export" in waiting._libraries and len(waiting._libraries) > 50_000
    # A view displayed as its run starts keeps them until its page asks, after the first words.
    running = cs.show(cs.demo.stream(speed=0.001), title="shown running")
    assert running._libraries == ""
    running.stop()
    running.result(timeout=30)


def test_a_view_displayed_after_its_run_began_is_sent_what_came_before_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _pretend_a_kernel_displays(monkeypatch)
    view = Captured(cs.demo.stream(speed=0), title="late")
    view.result(timeout=30)
    assert view.sent == [], "not displayed, no page: nothing is sent"
    view.display_once()
    assert view.sent[0]["kind"] == "snapshot"
    assert view.sent[0]["snapshot"]["run"]["status"] == "finished"


def test_a_run_with_long_static_html_shows_its_transcript_as_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import chunkscope.live.widget as widget_module

    view = cs.show(cs.demo.stream(speed=0), title="html", display=False)
    state = view.result(timeout=30)
    assert "<pre" not in view.readable()[1].split("</p>", 1)[1][:40]
    monkeypatch.setattr(widget_module, "READABLE_HTML_LIMIT", len(state.static_html()) - 1)
    plain, rich = view.readable()
    assert state.transcript() in plain
    assert f'<pre class="cs-static">{html.escape(state.transcript())}</pre>' in rich


def test_a_run_whose_static_html_has_many_tags_shows_its_transcript_as_text() -> None:
    # JupyterLab's table of contents sanitizes every output's text/html tag by tag in one
    # task: a run of many short parts is shown there as preformatted text.
    def many_parts() -> Iterator[dict[str, Any]]:
        yield {"type": "start", "runId": "r", "from": "AGENT", "payload": {}}
        for n in range(READABLE_HTML_TAGS // 4):
            call = {"toolCallId": f"c{n}", "toolName": "lookup"}
            yield {
                "type": "tool-call",
                "runId": "r",
                "from": "AGENT",
                "payload": {**call, "args": {"n": n}},
            }
            yield {
                "type": "tool-result",
                "runId": "r",
                "from": "AGENT",
                "payload": {**call, "result": n},
            }

    view = cs.show(many_parts(), title="tags", display=False)
    state = view.result(timeout=30)
    assert len(state.static_html()) <= READABLE_HTML_LIMIT
    assert state.static_html().count("<") > READABLE_HTML_TAGS
    _plain, rich = view.readable()
    assert f'<pre class="cs-static">{html.escape(state.transcript())}</pre>' in rich
    assert rich.count("<") < 20


def test_a_long_run_keeps_the_start_of_its_transcript_in_the_output(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import chunkscope.live.widget as widget_module

    monkeypatch.setattr(widget_module, "READABLE_LIMIT", 400)
    view = cs.show(cs.demo.stream(speed=0), title="long", display=False)
    state = view.result(timeout=30)
    whole = state.transcript()
    assert len(whole) > 400
    plain, rich = view.readable()
    kept = plain.split("\n", 2)[2]
    assert len(kept) < len(whole)
    assert whole.startswith(kept.split("… and ")[0])
    assert "more characters: view.transcript() or cs.write_html(view, path)" in kept
    assert "<pre" in rich and "more characters" in rich


def test_a_large_run_sent_again_for_the_cell_that_waited_differs_before_its_packed_bytes() -> None:
    # The page's widget model compares a new value with the one it holds key by key before
    # storing it; the same packed snapshot sent again would be compared byte by byte.
    comm = RecordingComm()
    view = cs.StreamView(title="large")
    view.comm = comm
    line = "A line of the answer, long enough to make the run large quickly. " * 15 + "\n"

    def stream() -> Iterator[dict[str, Any]]:
        yield {"type": "text-start", "runId": "r", "from": "AGENT", "payload": {"id": "t"}}
        for _ in range(400):
            yield {
                "type": "text-delta",
                "runId": "r",
                "from": "AGENT",
                "payload": {"id": "t", "text": line},
            }

    view.start(stream())
    view.result(timeout=60)
    finals = [state["snapshot"] for state, _ in comm.updates if "snapshot" in state]
    assert len(finals) >= 2
    first, again = finals[-2], finals[-1]
    assert first.get("encoding") == again.get("encoding") == "deflate-json"
    assert first["seq"] == again["seq"], "the same final run: the page does not decode it again"
    assert again.get("resent") == 1 and "resent" not in first
    view.result(timeout=60)
    assert [state["snapshot"] for state, _ in comm.updates if "snapshot" in state][-1][
        "resent"
    ] == 2
