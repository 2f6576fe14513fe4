"""A burst of text on a bare page in headless Chromium: what scrolls past unseen is kept out of
layout, and shows wherever the reader scrolls to.

The view gets, all at once, the messages the kernel's channel sends for a live run whose text
is one long code block still being written: about 500 KB that stay plain text (a block that has not
ended is not rendered as markdown), so nothing moves under the test but what it scrolls.
Sheets and pieces of that text that are not on screen are held (``hidden="until-found"``)
until they are; the test scrolls up from the end as a reader would and looks at what the
browser draws in the middle of the transcript's box.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from bare_view import MOUNT_JS, bundle_files, record_messages
from lab import fresh_page
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.e2e

#: Lines of the code block; two deltas each.
LINES = 12_000


def live_run_chunks() -> list[dict[str, Any]]:
    """Mastra chunks of a run that is still writing one code block of LINES lines."""

    def chunk(kind: str, **payload: Any) -> dict[str, Any]:
        return {"type": kind, "runId": "burst", "from": "AGENT", "payload": payload}

    deltas = ["```\n"]
    for k in range(LINES):
        deltas += [f"row {k:05d} = compute(", f"{k % 97}, window={k % 13})  # streamed\n"]
    return [
        chunk("start", id="writer", messageId="m"),
        chunk("step-start", request={}, warnings=[], messageId="m"),
        chunk("text-start", id="t"),
        *(chunk("text-delta", id="t", text=delta) for delta in deltas),
    ]


def _not_the_end(op: dict[str, Any]) -> bool:
    """Whether ``op`` is not one of those the run's end brings: the run's final status, and
    the notice that the stream ended before a finish chunk."""
    if op["op"] == "run":
        return "ended" not in op["set"]
    if op["op"] == "add":
        return op["part"]["kind"] != "notice"
    return True


def live_messages(*, one_batch: bool = False) -> list[str]:
    """The channel's messages for ``live_run_chunks``, as a page gets them while the run is
    still being written: the last batch also ends the run (the source ran out), so everything
    in it is kept but the end. However the channel split the burst into batches (a fast
    machine folds it into one, two or three), the page gets all of the text; ``one_batch``
    joins them into one, as the fastest machine sends them."""
    (_, snapshot), *batches = record_messages(live_run_chunks())
    sent = [json.loads(text) for _, text in batches]
    if one_batch:
        sent = [{"kind": "batch", "seq": 1, "ops": [op for batch in sent for op in batch["ops"]]}]
    sent[-1]["ops"] = [op for op in sent[-1]["ops"] if _not_the_end(op)]
    return [snapshot] + [json.dumps(batch) for batch in sent]


#: Delivers the messages in one task, waits for the frames that draw them and follow the end,
#: then marks the pieces held at that moment (to tell later whether what shows was held).
_BURST_JS = """
async ({ messages }) => {
  const { el, deliver } = window.__bareView;
  for (const text of messages) deliver(text);
  const transcript = el.querySelector('.cs-transcript');
  const atEnd = () =>
    transcript.scrollTop > 0 &&
    transcript.scrollTop + transcript.clientHeight >= transcript.scrollHeight - 2;
  for (let i = 0; i < 600 && !atEnd(); i++) {
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  }
  const held = el.querySelectorAll('.cs-md-piece[hidden="until-found"]');
  for (const piece of held) piece.dataset.testHeld = '1';
  return {
    atEnd: atEnd(),
    heldPieces: held.length,
    heldSheets: el.querySelectorAll('.cs-md-sheet[hidden="until-found"]').length,
    pieces: el.querySelectorAll('.cs-md-piece').length,
    text: el.querySelector('.cs-md-plain')?.textContent.length ?? 0,
  };
}
"""

#: Scrolls up from where the transcript is, half a box at a time, as a reader does, until the
#: middle of the box shows a piece that was held (or ``limit`` steps). After each step, says
#: what is drawn there once the browser has shown it: it tells the page what came into view
#: after a frame.
_SCROLL_UP_JS = """
async ({ limit }) => {
  const transcript = window.__bareView.el.querySelector('.cs-transcript');
  const box = transcript.getBoundingClientRect();
  const look = () => document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  const steps = [];
  for (let i = 0; i < limit; i++) {
    const by = -transcript.clientHeight / 2;
    transcript.dispatchEvent(new WheelEvent('wheel', { deltaY: by, bubbles: true }));
    transcript.scrollTop += by;
    let frames = 0;
    while (frames < 60 && (frames < 2 || look()?.closest('[hidden]'))) {
      await new Promise((r) => requestAnimationFrame(() => r()));
      frames += 1;
    }
    const hit = look();
    const step = {
      frames,
      hidden: !!hit?.closest('[hidden]'),
      inTranscript: transcript.contains(hit),
      text: (hit?.textContent ?? '').trim().length > 0,
      wasHeld: !!hit?.closest('[data-test-held]'),
    };
    steps.push(step);
    if (step.wasHeld) break;
  }
  return steps;
}
"""


@pytest.fixture
def bare_page(browser: Browser) -> Iterator[Page]:
    with fresh_page(browser) as page:
        page.goto("about:blank")
        page.evaluate(MOUNT_JS, bundle_files())
        yield page


@pytest.mark.parametrize("one_batch", [False, True], ids=["as-sent", "in-one-batch"])
def test_a_burst_lays_out_what_is_shown_and_shows_what_the_reader_scrolls_to(
    bare_page: Page, one_batch: bool
) -> None:
    messages = live_messages(one_batch=one_batch)
    drawn: dict[str, Any] = bare_page.evaluate(_BURST_JS, {"messages": messages})

    # Drawn at once and followed to its end: the text's sheets but the last two wait to be
    # scrolled to, and so do the pieces of those two that end far above the end.
    assert drawn["atEnd"], drawn
    assert drawn["text"] > 300_000, drawn
    assert drawn["pieces"] > 150, drawn
    assert drawn["heldSheets"] > 10, drawn
    assert 0 < drawn["heldPieces"] < 16, drawn

    # Scrolling up to the text that streamed past: every step shows text, never a held
    # blank, and the reader reaches a piece that was held.
    steps: list[dict[str, Any]] = bare_page.evaluate(_SCROLL_UP_JS, {"limit": 40})
    for step in steps:
        assert step["inTranscript"], steps
        assert not step["hidden"], steps
        assert step["text"], steps
    assert steps[-1]["wasHeld"], steps
