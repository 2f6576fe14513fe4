"""Reading a StreamView in a JupyterLab page: its DOM, its status, its colours.

The selectors follow the front end's classes (``js/src/views/app.ts``, ``status.ts``,
``activity.ts``, ``transcript/*``). Every read is one ``page.evaluate`` so a sample is a
consistent picture of the widget at one moment.
"""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from lab import LabPage, LabPageError
from playwright.sync_api import Error

#: The widget's root element.
WIDGET = ".chunkscope"
#: The Stop button in the status bar.
STOP_BUTTON = ".chunkscope .cs-stop"
#: A tool-call card in the transcript.
TOOL_CARD = ".chunkscope .cs-part-tool"
#: The transcript's "jump to latest" button, shown once the user scrolled up.
JUMP_BUTTON = ".chunkscope .cs-jump"
#: The live activity strip's items (transient chunks).
ACTIVITY_ITEM = ".chunkscope .cs-activity .cs-activity-item"

#: The JupyterLab theme names ``apputils:change-theme`` accepts.
LIGHT_THEME = "JupyterLab Light"
DARK_THEME = "JupyterLab Dark"

T = TypeVar("T")

# One picture of the index-th StreamView on the page (null when it is not drawn yet).
_READ_JS = """
(index) => {
  const root = document.querySelectorAll('.chunkscope')[index];
  // A fresh view shows its run's first words in a sketch for a frame before it is built:
  // not drawn yet, as far as a reading goes.
  if (!root || !root.querySelector('.cs-status')) return null;
  const text = (sel) => Array.from(root.querySelectorAll(sel)).map((n) => n.textContent);
  const status = root.querySelector('.cs-status');
  const badge = status && status.querySelector(':scope > .cs-badge');
  const stop = root.querySelector('.cs-stop');
  const activity = root.querySelector('.cs-activity');
  const blocks = root.querySelector('.cs-blocks');
  const reasoning = Array.from(root.querySelectorAll('.cs-part-reasoning details.cs-reasoning'))
    .map((d) => ({ open: d.open, summary: d.querySelector('summary').textContent }));
  const tools = Array.from(root.querySelectorAll('.cs-part-tool')).map((card) => ({
    name: card.querySelector('.cs-tool-name').textContent,
    badge: card.querySelector('.cs-card-head .cs-badge').textContent,
  }));
  return {
    status: badge ? badge.textContent : '',
    statusBar: status ? status.textContent : '',
    stopEnabled: !!stop && !stop.disabled,
    transcript: blocks ? blocks.textContent : '',
    text: text('.cs-part-text').join('\\n'),
    reasoning,
    tools,
    notices: text('.cs-part-notice'),
    activityVisible: !!activity && !activity.hidden,
    activity: activity ? activity.textContent : '',
  };
}
"""

_STATUS_IS_JS = """
([status, index]) => {
  const root = document.querySelectorAll('.chunkscope')[index];
  const badge = root && root.querySelector('.cs-status > .cs-badge');
  return !!badge && badge.textContent === status;
}
"""

_SCROLL_JS = """
() => {
  const s = document.querySelector('.chunkscope .cs-transcript');
  const jump = document.querySelector('.chunkscope .cs-jump');
  if (!s) return null;
  return { top: s.scrollTop, height: s.scrollHeight, client: s.clientHeight,
           jump: !!jump && !jump.hidden };
}
"""

#: Whether the page's views have been given the markdown libraries: the registry that
#: js/src/views/libraries.ts keeps on the page under its REGISTRY_KEY, read from there.
_LIBRARIES_TS = Path(__file__).parents[2] / "js" / "src" / "views" / "libraries.ts"
_REGISTRY_KEY = re.search(r'REGISTRY_KEY = "(\w+)"', _LIBRARIES_TS.read_text("utf-8"))
if _REGISTRY_KEY is None:
    raise RuntimeError(f"{_LIBRARIES_TS} no longer declares REGISTRY_KEY as a string")
_LIBRARIES_GIVEN_JS = f"() => globalThis[{json.dumps(_REGISTRY_KEY[1])}]?.provided != null"

_SCROLL_TO_JS = """
(top) => {
  const s = document.querySelector('.chunkscope .cs-transcript');
  // A user's scroll begins with their wheel, touch or key on the transcript.
  s.dispatchEvent(new WheelEvent('wheel', { deltaY: top - s.scrollTop, bubbles: true }));
  s.scrollTop = top;
  s.dispatchEvent(new Event('scroll'));
}
"""

_COLOURS_JS = """
() => {
  const root = document.querySelector('.chunkscope');
  if (!root) return null;
  const style = getComputedStyle(root);
  return { background: style.backgroundColor, color: style.color,
           theme: document.body.dataset.jpThemeName || '' };
}
"""

_CHANGE_THEME_JS = """
async (theme) => {
  await window.jupyterapp.commands.execute('apputils:change-theme', { theme });
}
"""

_THEME_APPLIED_JS = """
(theme) => document.body.dataset.jpThemeName === theme
  && document.body.dataset.jpThemeLight === String(theme !== 'JupyterLab Dark')
"""


@dataclass(frozen=True)
class ToolCard:
    """A tool-call card as drawn."""

    #: The tool's name in the card head.
    name: str
    #: The state badge's text ("input streaming", "running", "done", ...).
    badge: str


@dataclass(frozen=True)
class Reasoning:
    """A reasoning block as drawn."""

    #: Whether the collapsible is open.
    open: bool
    #: Its summary line ("Thinking…", "Thought for 1.2 s").
    summary: str


@dataclass(frozen=True)
class ViewReading:
    """What the first StreamView on the page shows at one moment."""

    #: The status bar's status badge ("running", "finished", "aborted", ...).
    status: str
    #: The whole status bar's text (elapsed, chunk count, usage, finish reason).
    status_bar: str
    #: Whether the Stop button can be pressed.
    stop_enabled: bool
    #: The transcript's text (every block, collapsed ones included).
    transcript: str
    #: The text parts' rendered text, joined by newlines.
    text: str
    #: The reasoning blocks, in order.
    reasoning: tuple[Reasoning, ...]
    #: The tool cards, in order.
    tools: tuple[ToolCard, ...]
    #: The notice rows' texts (errors, aborts, tripwires).
    notices: tuple[str, ...]
    #: Whether the live activity strip is shown.
    activity_visible: bool
    #: The activity strip's text.
    activity: str


@dataclass(frozen=True)
class Scroll:
    """Where the transcript's scroll area stands."""

    #: ``scrollTop`` in pixels.
    top: float
    #: ``scrollHeight``: the whole content's height.
    height: float
    #: ``clientHeight``: the visible height.
    client: float
    #: Whether the "jump to latest" button is shown.
    jump_shown: bool

    @property
    def from_bottom(self) -> float:
        """Pixels between the visible bottom and the content's end."""
        return self.height - self.top - self.client


@dataclass(frozen=True)
class Colours:
    """The widget root's computed colours under the current JupyterLab theme."""

    #: CSS ``background-color`` of the widget root.
    background: str
    #: CSS ``color`` of the widget root.
    color: str
    #: The theme JupyterLab reports on ``<body>``.
    theme: str


def read_view(lab: LabPage, index: int = 0) -> ViewReading | None:
    """The ``index``-th StreamView's current picture (page order), or None when not drawn."""
    raw: dict[str, Any] | None = lab.page.evaluate(_READ_JS, index)
    if raw is None:
        return None
    return ViewReading(
        status=raw["status"],
        status_bar=raw["statusBar"],
        stop_enabled=raw["stopEnabled"],
        transcript=raw["transcript"],
        text=raw["text"],
        reasoning=tuple(Reasoning(r["open"], r["summary"]) for r in raw["reasoning"]),
        tools=tuple(ToolCard(t["name"], t["badge"]) for t in raw["tools"]),
        notices=tuple(raw["notices"]),
        activity_visible=raw["activityVisible"],
        activity=raw["activity"],
    )


def wait_view(
    lab: LabPage,
    condition: Callable[[ViewReading], bool],
    what: str,
    timeout_s: float = 30.0,
    index: int = 0,
) -> ViewReading:
    """Poll the widget until ``condition`` holds; fail saying ``what`` and the last picture."""
    deadline = time.monotonic() + timeout_s
    last: ViewReading | None = None
    while True:
        last = read_view(lab, index)
        if last is not None and condition(last):
            return last
        if time.monotonic() > deadline:
            raise LabPageError(
                f"StreamView: {what} not seen within {timeout_s:.0f} s; last picture: {last!r}"
            )
        time.sleep(0.05)


def wait_status(lab: LabPage, status: str, timeout_s: float = 30.0, index: int = 0) -> ViewReading:
    """Wait until the status bar shows ``status``, and return the widget's picture then."""
    try:
        # Polled inside the page: cheap even when the transcript is huge.
        lab.page.wait_for_function(
            _STATUS_IS_JS, arg=[status, index], timeout=timeout_s * 1000, polling=50
        )
    except Error as error:
        raise LabPageError(
            f"StreamView: status {status!r} not seen within {timeout_s:.0f} s; "
            f"the status bar says {status_bar_text(lab, index)!r}"
        ) from error
    reading = read_view(lab, index)
    assert reading is not None
    return reading


def status_bar_text(lab: LabPage, index: int = 0) -> str:
    """The ``index``-th StreamView's status bar text ('' when it is not drawn)."""
    text: str = lab.page.evaluate(
        "(i) => document.querySelectorAll('.chunkscope')[i]"
        "?.querySelector('.cs-status')?.textContent ?? ''",
        index,
    )
    return text


def text_parts(lab: LabPage) -> str:
    """The rendered text of the first StreamView's text parts, joined by newlines."""
    text: str = lab.page.evaluate(
        "() => Array.from(document.querySelectorAll('.chunkscope .cs-part-text'))"
        ".map((n) => n.textContent).join('\\n')"
    )
    return text


def wait_until(condition: Callable[[], T | None], what: str, timeout_s: float = 30.0) -> T:
    """Poll ``condition`` until it returns something truthy, and return that."""
    deadline = time.monotonic() + timeout_s
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise LabPageError(f"{what} not seen within {timeout_s:.0f} s")
        time.sleep(0.05)


def cell_stdout(lab: LabPage, index: int) -> str:
    """What the cell at ``index`` printed (its stream outputs, joined)."""
    cells = lab.outputs()
    outputs = cells[index] if index < len(cells) else None
    return "".join(
        "".join(o["text"]) if isinstance(o.get("text"), list) else str(o.get("text", ""))
        for o in outputs or []
        if o.get("output_type") == "stream"
    )


def cell_json(lab: LabPage, index: int) -> Any:
    """The JSON object the cell at ``index`` printed as its last line of output."""
    lines = cell_stdout(lab, index).strip().splitlines()
    if not lines:
        raise LabPageError(f"cell {index} printed nothing; outputs: {lab.outputs()[index]!r}")
    return json.loads(lines[-1])


def scroll_if_drawn(lab: LabPage) -> Scroll | None:
    """The transcript's scroll position, or None while no view has drawn one yet: a cell
    that shows a stream returns before the page has drawn its view."""
    raw: dict[str, Any] | None = lab.page.evaluate(_SCROLL_JS)
    if raw is None:
        return None
    return Scroll(raw["top"], raw["height"], raw["client"], raw["jump"])


def scroll(lab: LabPage) -> Scroll:
    """The transcript's scroll position."""
    now = scroll_if_drawn(lab)
    if now is None:
        raise LabPageError("no StreamView transcript on the page")
    return now


def wait_transcript_settled(lab: LabPage, timeout_s: float = 15.0) -> Scroll:
    """Wait until the transcript is drawn as it will stay: no text still shown as plain text
    on its way to markdown, and its height unchanged over half a second. A finished run's
    text can still become markdown frames after its status did, and a block above the
    reader that changes height moves what they see (the browser's scroll anchoring)."""
    steady_since = {"t": 0.0, "height": -1.0}
    seen: dict[str, Any] = {"heights": []}

    def settled() -> Scroll | None:
        now = scroll_if_drawn(lab)
        if now is None:  # the output drawn again, its view not placed yet
            return None
        plain = lab.page.locator(f"{WIDGET} .cs-transcript .cs-md-plain").count()
        seen["plain"] = plain
        if now.height != steady_since["height"]:
            seen["heights"] = [*seen["heights"][-9:], now.height]
        if plain or now.height != steady_since["height"]:
            steady_since.update(t=time.monotonic(), height=now.height)
            return None
        return now if time.monotonic() - steady_since["t"] >= 0.5 else None

    try:
        return wait_until(
            settled, "the transcript settled (height steady, no plain text)", timeout_s
        )
    except LabPageError as error:
        # Say which half failed: markdown never came (and whether the page holds the
        # libraries), or the height kept changing.
        seen["libraries given"] = lab.page.evaluate(_LIBRARIES_GIVEN_JS)
        raise LabPageError(f"{error}: last seen {seen}") from None


def scroll_transcript_to(lab: LabPage, top: float) -> None:
    """Scroll the transcript as a user would (the view hears the scroll event)."""
    lab.page.evaluate(_SCROLL_TO_JS, top)


def colours(lab: LabPage) -> Colours:
    """The widget's computed background and text colours."""
    raw: dict[str, str] | None = lab.page.evaluate(_COLOURS_JS)
    if raw is None:
        raise LabPageError("no StreamView on the page")
    return Colours(raw["background"], raw["color"], raw["theme"])


def change_theme(lab: LabPage, theme: str, timeout_s: float = 30.0) -> None:
    """Switch JupyterLab's theme with its own command and wait until it is applied."""
    lab.page.evaluate(_CHANGE_THEME_JS, theme)
    lab.page.wait_for_function(_THEME_APPLIED_JS, arg=theme, timeout=timeout_s * 1000)


def luminance(css_colour: str) -> float:
    """Relative luminance (0 black … 1 white) of a computed ``rgb()``/``rgba()`` colour."""
    inside = css_colour[css_colour.index("(") + 1 : css_colour.rindex(")")]
    red, green, blue = (float(v) / 255 for v in inside.replace("/", ",").split(",")[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def widget_screenshot(lab: LabPage, name: str) -> str:
    """Save a PNG of the first StreamView alone under ``<artifacts>/screenshots/<name>.png``."""
    target = lab.artifacts_dir / "screenshots" / f"{name}.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    lab.page.locator(WIDGET).first.screenshot(path=str(target))
    return str(target)


class Picture(Protocol):
    """What any reading of a view says (the JupyterLab one here, marimo's in its test)."""

    @property
    def status(self) -> str: ...
    @property
    def transcript(self) -> str: ...
    @property
    def activity_visible(self) -> bool: ...
    @property
    def activity(self) -> str: ...


P = TypeVar("P", bound=Picture)


def sample_readings(read: Callable[[], P | None], timeout_s: float) -> list[P]:
    """Call ``read`` every ~50 ms until the run ended; every picture taken, in order."""
    samples: list[P] = []
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        reading = read()
        if reading is not None:
            samples.append(reading)
            if reading.status not in ("waiting", "running"):
                return samples
        time.sleep(0.05)
    raise AssertionError(f"the run did not end within {timeout_s:.0f} s; last: {samples[-1:]!r}")


def sample_until_ended(lab: LabPage, timeout_s: float = 45.0) -> list[ViewReading]:
    """Read the widget every ~50 ms until its run ended; every picture taken, in order."""
    return sample_readings(lambda: read_view(lab), timeout_s)


def assert_grew_while_streaming(live: Sequence[Picture]) -> None:
    """The transcript got longer at least twice between pictures taken while running."""
    lengths = [len(s.transcript) for s in live]
    growths = sum(1 for before, after in itertools.pairwise(lengths) if after > before)
    assert growths >= 2, f"the transcript did not grow while streaming: {lengths}"


def assert_progress_showed_live(live: Sequence[Picture]) -> None:
    """The demo's transient progress chunk was in the activity strip while running."""
    assert any(
        s.activity_visible and "data-progress #weather-progress" in s.activity for s in live
    ), "the transient progress never showed live"
