"""Faults in a real JupyterLab: a kernel interrupt while ``await view.wait()`` runs (sync and
async sources), a source that raises mid-stream, and the browser leaving and coming back
mid-stream. The run must stop or fail visibly, keep what it received, and never hang.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from lab import LabPage, LabServer, fresh_page
from lab.paths import ARTIFACTS
from playwright.sync_api import Browser
from streamview import cell_json, read_view, wait_status, wait_until, wait_view

pytestmark = pytest.mark.e2e

#: Defines a slow agent: 1,200 words at 20 a second (a minute), sync or async.
SLOW_SOURCES = """\
import asyncio, json, threading, time
import chunkscope as cs

gate = threading.Event()  # set by a later cell, for a source told to wait for it

def chunk(kind, **payload):
    return {"type": kind, "runId": "slow", "from": "AGENT", "payload": payload}

OPENING = [chunk("start"), chunk("step-start", request={}, messageId="m"),
           chunk("text-start", id="t")]
FINISH = chunk("finish", stepResult={"reason": "stop", "isContinued": False},
               output={"usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2}},
               metadata={}, messages={"all": [], "user": [], "nonUser": []})

def slow_sync(words=1200, fail_at=None, wait_at=None):
    yield from OPENING
    for i in range(words):
        if i == wait_at:
            gate.wait()
        if i == fail_at:
            raise ConnectionResetError("the model server went away")
        yield chunk("text-delta", id="t", text=f"w{i} ")
        time.sleep(0.05)
    yield chunk("text-end", id="t")
    yield FINISH

async def slow_async(words=1200):
    for item in OPENING:
        yield item
    for i in range(words):
        yield chunk("text-delta", id="t", text=f"w{i} ")
        await asyncio.sleep(0.05)
    yield FINISH
"""
WAIT = "state = await view.wait()"
REPORT = (
    'print(json.dumps({"status": view.state.status, "done": view.done, "text": view.state.text}))'
)


def words(text: str) -> list[str]:
    return re.findall(r"w\d+", text)


def interrupt_during_wait(lab: LabPage, name: str, show: str) -> None:
    lab.set_save_widget_state(False)
    path = lab.new_notebook([SLOW_SOURCES, show, WAIT, REPORT], name)
    lab.open(path)
    assert lab.run_cell(0) and lab.run_cell(1), "starting the slow source failed"
    lab.run_cell(2, wait=False)
    wait_view(lab, lambda v: len(words(v.text)) >= 20, "twenty words on screen", 60)

    lab.interrupt_kernel()
    wait_until(lab.run_finished, "the interrupted cell to end", 30)
    end = wait_status(lab, "aborted", 30)
    lab.screenshot(f"{name}-interrupted")
    assert lab.has_error_output(), "the interrupted cell shows no KeyboardInterrupt"
    shown = words(end.text)
    assert 20 <= len(shown) < 1200, len(shown)
    assert shown == [f"w{i}" for i in range(len(shown))], "words lost or out of order"
    assert not end.stop_enabled

    # The kernel is free again and agrees with the page.
    assert lab.run_cell(3, timeout_s=30), "the kernel did not answer after the interrupt"
    kernel = cell_json(lab, 3)
    assert kernel["status"] == "aborted" and kernel["done"] is True
    assert words(kernel["text"])[: len(shown)] == shown
    lab.page.wait_for_timeout(500)
    assert len(words(read_view(lab).text)) == len(words(kernel["text"]))  # type: ignore[union-attr]


def test_interrupting_await_wait_stops_a_sync_source(lab: LabPage) -> None:
    interrupt_during_wait(lab, "interrupt-sync", "view = cs.show(slow_sync(), title='sync')")


def test_interrupting_await_wait_stops_an_async_source(lab: LabPage) -> None:
    interrupt_during_wait(lab, "interrupt-async", "view = cs.show(slow_async(), title='async')")


def test_a_source_that_raises_mid_stream_shows_the_error_and_wait_reraises(
    lab: LabPage,
) -> None:
    lab.set_save_widget_state(False)
    show = "view = cs.show(slow_sync(fail_at=40), title='failing')"
    path = lab.new_notebook([SLOW_SOURCES, show, WAIT, REPORT], name="raising")
    lab.open(path)
    assert lab.run_cell(0) and lab.run_cell(1)
    assert not lab.run_cell(2, timeout_s=60), "await view.wait() did not re-raise"
    end = wait_status(lab, "error", 30)
    lab.screenshot("raising-source")
    errors = [o for cell in lab.outputs() for o in cell or [] if o.get("output_type") == "error"]
    assert [e["ename"] for e in errors] == ["ConnectionResetError"]
    assert any("the model server went away" in n for n in end.notices), end.notices
    assert words(end.text) == [f"w{i}" for i in range(40)]


@pytest.fixture
def second_page(lab_server: LabServer, browser: Browser) -> Iterator[LabPage]:
    """Another browser context on the same server: a user coming back on a new page."""
    with fresh_page(browser) as page:
        yield LabPage(lab_server, page, ARTIFACTS)


def test_closing_the_page_mid_stream_and_coming_back_shows_the_whole_run(
    lab: LabPage, second_page: LabPage
) -> None:
    lab.set_save_widget_state(False)
    # The source waits after forty words until the new page lets it go on, so the run is
    # still streaming when the page comes back however slow the machine.
    show = "view = cs.show(slow_sync(words=300, wait_at=40), title='comeback')"
    path = lab.new_notebook([SLOW_SOURCES, show, "gate.set()"], name="comeback")
    lab.open(path)
    assert lab.run_cell(0) and lab.run_cell(1)
    before = wait_view(lab, lambda v: len(words(v.text)) >= 30, "thirty words", 60)
    lab.save()
    lab.page.close()  # the browser goes away; the kernel keeps reading the source

    second_page.open(path)
    back = wait_view(second_page, lambda v: bool(words(v.text)), "the run on the new page", 60)
    assert words(back.text)[: len(words(before.text))] == words(before.text)
    assert back.status == "running", f"the run ended while the page was away: {back.status}"
    assert second_page.run_cell(2), "the cell that lets the source go on failed"
    end = wait_status(second_page, "finished", 90)
    second_page.screenshot("comeback-finished")
    assert words(end.text) == [f"w{i}" for i in range(300)], "words lost across the reconnect"


BAD_LINES = [
    b'{"type": "text-delta", "runId": "slow", "payload": {"id": "t", "te',
    b"[1, 2, 3]",
    b'{"type": "mystery-chunk", "payload": {}}',
    b'{"type": "text-delta", "payload": {"id": "t", "text": "\xff\xfe"}}',
    b'{"type": "tool-call", "runId": "slow", "from": "AGENT", "payload": {"args": {}}}',
]


def test_bad_lines_of_a_recording_show_rows_that_name_their_lines(lab: LabPage) -> None:
    lab.set_save_widget_state(False)
    good = [
        b'{"type": "start", "runId": "slow", "from": "AGENT", "payload": {}}',
        b'{"type": "text-start", "runId": "slow", "from": "AGENT", "payload": {"id": "t"}}',
        b'{"type": "text-delta", "runId": "slow", "from": "AGENT", '
        b'"payload": {"id": "t", "text": "Kept before the damage."}}',
    ]
    (lab.server.root_dir / "bad.jsonl").write_bytes(b"\n".join([*good, *BAD_LINES]) + b"\n")
    path = lab.new_notebook(
        ["import chunkscope as cs\nview = cs.show('bad.jsonl', title='bad')"], "bad"
    )
    lab.open(path)
    assert lab.run_cell(0)
    end = wait_view(lab, lambda v: v.status == "incomplete", "the run's end", 60)
    lab.screenshot("bad-lines")
    assert "Kept before the damage." in end.text
    notices = " | ".join(end.notices)
    for line in range(len(good) + 1, len(good) + len(BAD_LINES) + 1):
        assert f"line {line}" in notices, f"no row names line {line}: {notices}"
    for words_ in (
        "not valid JSON",
        "expected a JSON object",
        "mystery-chunk",
        "UTF-8",
        "toolCallId",
    ):
        assert words_ in notices, f"no row says {words_!r}: {notices}"
