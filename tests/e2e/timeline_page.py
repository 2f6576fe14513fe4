"""Reading and driving one StreamView's Timeline and Chunks panels in a JupyterLab page.

Several StreamViews share a notebook here, so every helper finds its widget by title. The
timeline is a canvas: what it shows is read from its text outline (the lanes, bars and
markers listed for screen readers, ``js/src/views/timeline/outline.ts``) and from its hover
tooltips, found by moving the pointer over the canvas the way a user explores it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lab import LabPage, LabPageError
from playwright.sync_api import Locator

# Finds the StreamView whose header shows `title`; every snippet below starts from it.
_FIND_JS = """
const widgetNamed = (title) => {
  for (const root of document.querySelectorAll('.jp-NotebookPanel .chunkscope')) {
    const head = root.querySelector('.cs-title');
    if (head && head.textContent === title) return root;
  }
  return null;
};
"""

_OUTLINE_JS = (
    "(title) => {"
    + _FIND_JS
    + """
  const root = widgetNamed(title);
  const outline = root && root.querySelector('.cs-timeline-outline');
  if (!outline) return null;
  const lanes = Array.from(outline.querySelectorAll('.cs-outline-lane')).map((lane) => ({
    label: lane.querySelector('.cs-outline-lane-label').textContent,
    kind: lane.dataset.kind,
    depth: Number(lane.dataset.depth),
    rows: Number(lane.dataset.rows),
    count: Number(lane.dataset.count),
    items: Array.from(lane.querySelectorAll('.cs-outline-item')).map((item) => {
      const button = item.querySelector('button');
      return { text: item.textContent, row: Number(item.dataset.row), color: item.dataset.color,
               shape: item.dataset.shape, part: button ? button.dataset.partId : null };
    }),
  }));
  const markers = Array.from(outline.querySelectorAll('.cs-outline-marker'))
    .map((m) => ({ kind: m.dataset.kind, text: m.textContent }));
  return { lanes, markers };
}"""
)

# Moves the pointer over the whole canvas in a grid and records where each tooltip showed.
_SCAN_JS = (
    "([title, stepX, stepY]) => {"
    + _FIND_JS
    + """
  const root = widgetNamed(title);
  const canvas = root.querySelector('.cs-timeline-canvas');
  const tip = root.querySelector('.cs-timeline-tooltip');
  const rect = canvas.getBoundingClientRect();
  const found = new Map();
  const move = (type, x, y) => canvas.dispatchEvent(new PointerEvent(type, {
    clientX: rect.left + x, clientY: rect.top + y, bubbles: true, pointerId: 1 }));
  for (let y = 1; y < rect.height; y += stepY) {
    for (let x = 0; x < rect.width; x += stepX) {
      move('pointermove', x, y);
      if (tip.hidden) continue;
      const text = tip.textContent;
      let hit = found.get(text);
      if (!hit) { hit = { text, x0: x, x1: x, y0: y, y1: y }; found.set(text, hit); }
      hit.x0 = Math.min(hit.x0, x); hit.x1 = Math.max(hit.x1, x);
      hit.y0 = Math.min(hit.y0, y); hit.y1 = Math.max(hit.y1, y);
    }
  }
  move('pointerleave', -1, -1);
  return Array.from(found.values());
}"""
)

# The commonest colour of the canvas pixels inside a box (CSS px), as [r, g, b].
_COLOUR_JS = (
    "([title, x0, y0, x1, y1]) => {"
    + _FIND_JS
    + """
  const canvas = widgetNamed(title).querySelector('.cs-timeline-canvas');
  const scale = canvas.width / canvas.getBoundingClientRect().width;
  const w = Math.max(1, Math.round((x1 - x0) * scale));
  const h = Math.max(1, Math.round((y1 - y0) * scale));
  const data = canvas.getContext('2d')
    .getImageData(Math.round(x0 * scale), Math.round(y0 * scale), w, h).data;
  const counts = new Map();
  for (let i = 0; i < data.length; i += 4) {
    const key = data[i] + ',' + data[i + 1] + ',' + data[i + 2];
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  let best = null, bestCount = -1;
  for (const [key, n] of counts) if (n > bestCount) { best = key; bestCount = n; }
  return best.split(',').map(Number);
}"""
)

_CANVAS_BOX_JS = (
    "(title) => {"
    + _FIND_JS
    + """
  const r = widgetNamed(title).querySelector('.cs-timeline-canvas').getBoundingClientRect();
  return { x: r.left, y: r.top, width: r.width, height: r.height };
}"""
)

_TRANSCRIPT_JS = (
    "(title) => {"
    + _FIND_JS
    + """
  const root = widgetNamed(title);
  const panel = root.querySelector('.cs-panel-transcript');
  const scroller = root.querySelector('.cs-transcript');
  const banner = root.querySelector('.cs-scrub-banner');
  const box = scroller.getBoundingClientRect();
  const selected = Array.from(panel.querySelectorAll('.cs-selected')).map((el) => {
    const r = el.getBoundingClientRect();
    return { part: el.dataset.partId || null, text: el.textContent,
             visible: r.bottom > box.top && r.top < box.bottom && r.height > 0 };
  });
  return {
    shown: !panel.hidden,
    text: Array.from(panel.querySelectorAll('.cs-part-text')).map((n) => n.textContent).join('\\n'),
    tools: panel.querySelectorAll('.cs-part-tool').length,
    banner: banner && !banner.hidden ? banner.textContent : '',
    selected,
  };
}"""
)

_SCRUB_JS = (
    "(title) => {"
    + _FIND_JS
    + """
  const root = widgetNamed(title);
  const range = root.querySelector('.cs-scrub-range');
  return { value: Number(range.value), max: Number(range.max),
           readout: root.querySelector('.cs-scrub-time').textContent,
           liveEnabled: !root.querySelector('.cs-scrub-live').disabled };
}"""
)

_ROWS_JS = (
    "(title) => {"
    + _FIND_JS
    + """
  const root = widgetNamed(title);
  const list = root.querySelector('.cs-inspector-list');
  const rows = Array.from(list.querySelectorAll('.cs-row'))
    .filter((r) => !r.hidden)
    .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
    .map((r) => ({
      t: r.querySelector('.cs-row-t').textContent,
      type: r.querySelector('.cs-row-type').textContent,
      from: r.querySelector('.cs-row-from').textContent,
      n: r.querySelector('.cs-row-n').textContent,
      live: r.querySelector('.cs-row-live').textContent,
      family: r.dataset.family,
      selected: r.classList.contains('cs-selected'),
    }));
  const detail = root.querySelector('.cs-inspector-detail');
  return { rows, count: root.querySelector('.cs-inspector-count').textContent,
           detail: detail ? detail.textContent : '' };
}"""
)

_STATUS_JS = (
    "(title) => {"
    + _FIND_JS
    + """
  const root = widgetNamed(title);
  const badge = root && root.querySelector('.cs-status > .cs-badge');
  return badge ? badge.textContent : null;
}"""
)


@dataclass(frozen=True)
class OutlineItem:
    """One bar or tick as the timeline's outline lists it."""

    #: "name · state · from X, took Y" (or "name · at X" for an instant).
    text: str
    #: The row of its lane it is drawn on (parallel activity stacks into rows).
    row: int
    #: Its semantic colour ("success", "failure", "running", ...).
    color: str
    #: "bar" or "tick".
    shape: str
    #: The part it stands for (None for the run's own bar).
    part: str | None

    @property
    def what(self) -> str:
        """The text without its timing: "get-weather · done", "step 1 · tool-calls"."""
        return re.split(r" · (?:from|at) ", self.text, maxsplit=1)[0]


@dataclass(frozen=True)
class OutlineLane:
    """One lane as the outline lists it."""

    #: The lane's label ("Tools", "inner-wf", "researcher · Text").
    label: str
    #: What it holds: run, text, tools, background, workflow, network.
    kind: str
    #: Indentation level (nested workflows and runs are deeper).
    depth: int
    #: Stacked rows drawn.
    rows: int
    #: Items it holds (the list may be shorter for very long lanes).
    count: int
    #: The items listed, in layout order.
    items: tuple[OutlineItem, ...]

    @property
    def whats(self) -> list[str]:
        """Each listed item's text without timing."""
        return [item.what for item in self.items]


@dataclass(frozen=True)
class Outline:
    """A timeline's lanes and markers as its outline lists them."""

    #: Lanes from top to bottom.
    lanes: tuple[OutlineLane, ...]
    #: (kind, hover text) of each marker, in time order.
    markers: tuple[tuple[str, str], ...]

    def lane(self, label: str) -> OutlineLane:
        """The lane labelled ``label``; fails naming the lanes there are."""
        for lane in self.lanes:
            if lane.label == label:
                return lane
        raise AssertionError(f"no lane {label!r}; lanes: {[lane.label for lane in self.lanes]}")

    @property
    def marker_kinds(self) -> list[str]:
        """The markers' kinds in time order."""
        return [kind for kind, _ in self.markers]


@dataclass(frozen=True)
class Hit:
    """Where on the canvas (CSS px from its top-left) hovering showed one tooltip."""

    #: The tooltip's text.
    text: str
    x0: float
    x1: float
    y0: float
    y1: float

    @property
    def centre(self) -> tuple[float, float]:
        """The middle of the area where the tooltip showed."""
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)


def widget(lab: LabPage, title: str) -> Locator:
    """The StreamView whose header shows ``title``."""
    heading = lab.page.locator(".cs-title", has_text=re.compile(f"^{re.escape(title)}$"))
    return lab.page.locator(".jp-NotebookPanel .chunkscope").filter(has=heading).first


def show_tab(lab: LabPage, title: str, tab: str) -> None:
    """Bring the widget into view and press its tab ("Transcript", "Timeline", "Chunks")."""
    root = widget(lab, title)
    root.scroll_into_view_if_needed()
    root.locator(".cs-tab", has_text=re.compile(f"^{tab}$")).click()


def status(lab: LabPage, title: str) -> str | None:
    """The widget's status badge ("finished", "aborted", ...), None when it is not drawn."""
    value: str | None = lab.page.evaluate(_STATUS_JS, title)
    return value


def wait_ended(lab: LabPage, title: str, timeout_s: float = 30.0) -> str:
    """Wait until the widget's run has ended and return its status."""
    ended: str = poll(
        lambda: (s := status(lab, title)) not in (None, "", "waiting", "running") and s,
        f"{title}: the run ending",
        timeout_s,
    )
    return ended


def read_outline(lab: LabPage, title: str) -> Outline | None:
    """The timeline's outline, or None when the timeline has not been drawn."""
    raw: dict[str, Any] | None = lab.page.evaluate(_OUTLINE_JS, title)
    if raw is None:
        return None
    lanes = tuple(
        OutlineLane(
            label=lane["label"],
            kind=lane["kind"],
            depth=lane["depth"],
            rows=lane["rows"],
            count=lane["count"],
            items=tuple(OutlineItem(**item) for item in lane["items"]),
        )
        for lane in raw["lanes"]
    )
    return Outline(lanes, tuple((m["kind"], m["text"]) for m in raw["markers"]))


def wait_outline(
    lab: LabPage,
    title: str,
    condition: Callable[[Outline], bool],
    what: str,
    timeout_s: float = 15.0,
) -> Outline:
    """Poll the outline until ``condition`` holds; fail with the last outline seen."""
    last: list[Outline | None] = [None]

    def ready() -> Outline | None:
        last[0] = read_outline(lab, title)
        return last[0] if last[0] is not None and condition(last[0]) else None

    try:
        outline: Outline = poll(ready, f"{title}: {what}", timeout_s)
    except LabPageError as error:
        raise LabPageError(f"{error}; last outline: {last[0]!r}") from None
    return outline


def scan_canvas(lab: LabPage, title: str, step_x: int = 4, step_y: int = 6) -> list[Hit]:
    """Hover over the whole timeline canvas in a grid; where each tooltip showed."""
    raw: list[dict[str, Any]] = lab.page.evaluate(_SCAN_JS, [title, step_x, step_y])
    return [Hit(**hit) for hit in raw]


def hits_starting(hits: list[Hit], prefix: str) -> list[Hit]:
    """The hits whose tooltip starts with ``prefix``."""
    return [hit for hit in hits if hit.text.startswith(prefix)]


def bar_colour(lab: LabPage, title: str, hit: Hit) -> tuple[int, int, int]:
    """The commonest colour painted in the upper part of a bar found by hovering."""
    # The lower edge of a bar carries its phase strip; its label sits mid-height.
    r, g, b = lab.page.evaluate(_COLOUR_JS, [title, hit.x0, hit.y0, hit.x1 + 1, hit.y0 + 6])
    return int(r), int(g), int(b)


def click_canvas(lab: LabPage, title: str, x: float, y: float) -> None:
    """A real mouse click at canvas point (x, y)."""
    box = lab.page.evaluate(_CANVAS_BOX_JS, title)
    lab.page.mouse.click(box["x"] + x, box["y"] + y)


def drag_on_canvas(
    lab: LabPage, title: str, start: tuple[float, float], end: tuple[float, float]
) -> None:
    """A real mouse drag across the canvas from ``start`` to ``end`` (canvas CSS px)."""
    box = lab.page.evaluate(_CANVAS_BOX_JS, title)
    mouse = lab.page.mouse
    mouse.move(box["x"] + start[0], box["y"] + start[1])
    mouse.down()
    mouse.move(box["x"] + end[0], box["y"] + end[1], steps=8)
    mouse.up()


def canvas_box(lab: LabPage, title: str) -> dict[str, float]:
    """The canvas' box in page CSS px: x, y, width, height."""
    box: dict[str, float] = lab.page.evaluate(_CANVAS_BOX_JS, title)
    return box


def read_transcript(lab: LabPage, title: str) -> dict[str, Any]:
    """The transcript: shown, its text parts' text, tool-card count, scrub banner, selection."""
    reading: dict[str, Any] = lab.page.evaluate(_TRANSCRIPT_JS, title)
    return reading


def read_scrubber(lab: LabPage, title: str) -> dict[str, Any]:
    """The scrubber: range value and max (ms), the time readout, whether "Live" can be pressed."""
    reading: dict[str, Any] = lab.page.evaluate(_SCRUB_JS, title)
    return reading


def read_rows(lab: LabPage, title: str) -> dict[str, Any]:
    """The chunk inspector's drawn rows (in order), its row count text and the detail pane."""
    reading: dict[str, Any] = lab.page.evaluate(_ROWS_JS, title)
    return reading


def loaded_rows(lab: LabPage, title: str, what: str) -> dict[str, Any]:
    """``read_rows`` once the kernel's rows are in (the count says "N rows", not "loading")."""
    return poll(
        lambda: (r := read_rows(lab, title))["rows"] and re.match(r"[\d,]+ ", r["count"]) and r,
        what,
    )


def offset_ms(text: str) -> float:
    """An offset as the front end formats it ("7.4 ms", "840 ms", "1.25 s", "2:05.3") in ms."""
    if match := re.fullmatch(r"(-?[\d.]+) ms", text):
        return float(match.group(1))
    if match := re.fullmatch(r"(-?[\d.]+) s", text):
        return float(match.group(1)) * 1000
    if match := re.fullmatch(r"(\d+):([\d.]+)", text):
        return (int(match.group(1)) * 60 + float(match.group(2))) * 1000
    raise ValueError(f"not an offset: {text!r}")


def poll(condition: Callable[[], Any], what: str, timeout_s: float = 15.0) -> Any:
    """Call ``condition`` every 50 ms until it returns something truthy, and return that."""
    deadline = time.monotonic() + timeout_s
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise LabPageError(f"{what} not seen within {timeout_s:.0f} s")
        time.sleep(0.05)
