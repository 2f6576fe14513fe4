"""A fresh view draws a streaming run's words first, and its view takes their place without
moving them (the real bundle and styles on a bare page, fed the kernel's own messages)."""

from __future__ import annotations

import json
from typing import Any

from bare_view import MOUNT_JS, bundle_files, record_messages
from lab import fresh_page
from playwright.sync_api import Browser

#: Where the first and the last character of the run's text are drawn, first in the sketch,
#: then in the view that replaced it (measured as soon as it is in the page, before its text
#: can turn to markdown), and the heights of the bars above the text.
WATCH_JS = """
async () => {
  const el = window.__bareView.el;
  // The text of `node` is in one text node (the sketch) or in pieces of one (the view).
  const glyphs = (node) => {
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    const texts = [];
    while (walker.nextNode()) texts.push(walker.currentNode);
    const at = (text, i) => {
      const range = document.createRange();
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      const box = range.getBoundingClientRect();
      return [Math.round(box.left * 10) / 10, Math.round(box.top * 10) / 10];
    };
    const last = texts[texts.length - 1];
    const chars = node.textContent.length;
    return { first: at(texts[0], 0), last: at(last, last.length - 1), chars };
  };
  const sketchText = () => el.querySelector('.cs-first-words .cs-sketch-text');
  const viewText = () => el.querySelector('.cs-md-plain');
  const result = {};
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  await new Promise((resolve, reject) => {
    const check = () => {
      const sketch = sketchText();
      if (sketch?.firstChild && result.sketch === undefined) {
        result.sketch = glyphs(sketch);
        result.sketchBars = ['.cs-sketch-header', '.cs-sketch-status']
          .map((s) => el.querySelector(s).getBoundingClientRect().height);
      }
      if (viewText()) {
        result.sketchLeft = el.querySelector('.cs-first-words') !== null;
        observer.disconnect();
        resolve();
      }
    };
    const observer = new MutationObserver(check);
    observer.observe(el, { subtree: true, childList: true, characterData: true });
    check();
    setTimeout(() => reject(new Error('the view never replaced the sketch')), 5000);
  });
  // The view as its first frames show it, its text still plain.
  await frame();
  await frame();
  const view = viewText();
  if (view) {
    result.view = glyphs(view);
    result.viewBars = ['.cs-header', '.cs-status']
      .map((s) => el.querySelector(s).getBoundingClientRect().height);
  }
  return result;
}
"""


def text_run(deltas: int) -> list[dict[str, Any]]:
    """A one-step run whose text comes as ``deltas`` words, then ends."""

    def chunk(type_: str, payload: dict[str, Any]) -> dict[str, Any]:
        return {"type": type_, "runId": "r", "from": "AGENT", "payload": payload}

    finished = {"stepResult": {"reason": "stop", "isContinued": False}, "output": {}}
    return [
        chunk("start", {}),
        chunk("step-start", {"messageId": "m"}),
        chunk("text-start", {"id": "t"}),
        *(
            chunk(
                "text-delta", {"id": "t", "text": f"\nLine {i}: " if i % 40 == 39 else f"word{i} "}
            )
            for i in range(deltas)
        ),
        chunk("text-end", {"id": "t"}),
        chunk("step-finish", finished),
        chunk("finish", finished),
    ]


def test_a_fresh_view_draws_the_words_first_and_its_view_does_not_move_them(
    browser: Browser,
) -> None:
    messages = [text for _, text in record_messages(text_run(300))]
    with fresh_page(browser) as page:
        page.goto("about:blank")
        # Watched from the task that drew the view: the sketch lives for a frame or two.
        seen = page.evaluate(
            f"async (args) => {{ await ({MOUNT_JS})(args); return await ({WATCH_JS})(); }}",
            {**bundle_files(), "early": messages},
        )
        full_text = page.evaluate("window.__bareView.el.querySelector('.cs-md').textContent")
    report = json.dumps(seen)
    assert "sketch" in seen, f"the view was built before its words were drawn: {report}"
    assert "view" in seen, f"the view's text was no longer plain two frames on: {report}"
    assert not seen["sketchLeft"], f"the sketch stayed beside the view: {report}"
    assert seen["sketch"]["chars"] == seen["view"]["chars"] == len(full_text), report
    assert seen["sketchBars"] == seen["viewBars"], f"the bars above the text differ: {report}"
    for end in ("first", "last"):
        sketch_x, sketch_y = seen["sketch"][end]
        view_x, view_y = seen["view"][end]
        assert abs(sketch_x - view_x) <= 1 and abs(sketch_y - view_y) <= 1, (
            f"the {end} character moved when the view replaced the sketch: {report}"
        )
