"""StreamView: the anywidget that shows a run live and keeps it in the saved notebook.

Synced traits hold only what must survive (``title`` and the compact ``snapshot``); live
batches and transient chunks travel as custom messages (``docs/wire.md``). The widget is thin:
the fold is ``RunState``'s, the pacing ``Channel``'s, the reading ``Consumer``'s.

The cell's output bundle is readable without the widget: beside the widget view it holds the
run's transcript (``text/plain``) and static HTML (``text/html``), refreshed in place through
the display id whenever the persisted snapshot is, and at the end (``docs/saving.md``). Both
open with a fixed marker so that nbval compares only the part that is known when the cell
returns (``NBVAL_SANITIZE``).
"""

from __future__ import annotations

import html
import uuid
from collections.abc import Generator
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from .._static import static_path
from ..fold.state import RunState
from ..inputs import as_source
from ..present.transcript import title_line
from ..recording import Recorder
from ..wire.held import answer as held_answer
from ..wire.persisted import pack_snapshot
from ..wire.schema import PACKED_ENCODING, RowsMessage
from .consume import Channel, Consumer
from .display import DisplayedOutput
from .libraries import CarriesLibraries

WIDGET_VIEW_MIME = "application/vnd.jupyter.widget-view+json"
"""The MIME type of the widget view in an output bundle."""

LIVE_LINE = "chunkscope live output: "
"""Opens the second line of the bundle's ``text/plain``, which says how old the run is."""

LIVE_REFRESH_MAX_PARTS = 5_000
"""A run with more parts refreshes its readable output at the end only, not mid-run; so
does a run large enough to be saved packed (``PACK_OVER_BYTES`` of JSON)."""

READABLE_LIMIT = 40_000
"""Characters of transcript a view's readable output keeps; past it, the start and a note."""

READABLE_HTML_LIMIT = 200_000
"""Characters of static HTML a view's readable output may hold; a run whose static HTML is
longer shows its transcript there as preformatted text. JupyterLab parses the HTML of every
display update it receives, whichever format it draws, so this bounds the page's work too."""

READABLE_HTML_TAGS = 1_000
"""Tags (counted as ``<``) a view's static HTML may hold; past them the run or board is shown
as preformatted text. JupyterLab's table of contents sanitizes the ``text/html`` of every
output it receives, tag by tag and in one task, to find headings: about 20 µs a tag on a
two-core machine, so 1,000 tags stay near 20 ms where a 100-row board table took 60-80."""


def refreshes_mid_run(state: RunState, saved: dict[str, Any] | None) -> bool:
    """Whether a run whose saved snapshot is ``saved`` is small enough to refresh its readable
    output while it goes on (``LIVE_REFRESH_MAX_PARTS``, and not saved packed)."""
    return len(state.parts) <= LIVE_REFRESH_MAX_PARTS and "encoding" not in (saved or {})


def fits_readable_html(static: str) -> bool:
    """Whether ``static`` is small enough, in characters and tags, for the readable output."""
    return len(static) <= READABLE_HTML_LIMIT and static.count("<") <= READABLE_HTML_TAGS


HTML_OPEN = "<!-- chunkscope:live -->"
"""Opens the bundle's ``text/html``; ``HTML_CLOSE`` ends it."""

HTML_CLOSE = "<!-- /chunkscope:live -->"
"""Ends the bundle's ``text/html``."""

NBVAL_SANITIZE: dict[str, str] = {
    r"(?s)\A((?:StreamView|RunBoard)\(title=[^\n]*\)\n" + LIVE_LINE.rstrip() + r").*\Z": r"\1",
    r"(?s)" + HTML_OPEN + ".*" + HTML_CLOSE: HTML_OPEN + HTML_CLOSE,
}
"""Regex → replacement pairs that reduce a StreamView bundle to what is known when its cell
returns: the first line of ``text/plain`` (``StreamView(title=...)``) and the marker line's
opening, and the markers of ``text/html``. A board of runs (``RunBoard``) opens its output
the same way. The run itself is refreshed after the cell returned
(nbval never sees those updates, a saved notebook keeps the last one), so nbval must not
compare it. chunkscope's pytest plugin hands these to nbval; in a sanitize file they are
written as ``regex: <pattern>`` / ``replace: <replacement>`` pairs."""


def readable_html(age: str, static: str) -> str:
    """A widget's ``text/html`` output: between the markers, the line that says how old the
    run (or board) is, then ``static``."""
    return (
        f'{HTML_OPEN}<div class="chunkscope-saved">'
        f'<p style="margin:0 0 4px;opacity:0.7;font-size:12px">'
        f"{html.escape(LIVE_LINE + age)}</p>{static}</div>{HTML_CLOSE}"
    )


class StreamView(DisplayedOutput, CarriesLibraries, anywidget.AnyWidget):
    """A live view of one agent or LLM stream.

    Build one with ``chunkscope.show(source)``; ``await view.wait()`` gives the final
    ``RunState``; ``await view`` does the same.
    """

    _esm = static_path("widget.js")
    _css = static_path("widget.css")

    title = traitlets.Unicode("").tag(sync=True)
    """A label shown in the view's header."""
    _instance = traitlets.Unicode("").tag(sync=True)
    """A name unique to this view's model. anywidget hands ``initialize`` and every ``render``
    a different wrapper of the same model; the front end finds the model's one store by it."""
    snapshot = traitlets.Dict(allow_none=True, default_value=None).tag(sync=True)
    """The persisted run (``docs/wire.md`` Snapshot), refreshed rarely: whenever the content
    grew fourfold, and at the end. Never holds a transient chunk. A large run is packed
    (``chunkscope.wire.persisted``); ``chunkscope.wire.persisted.unpack_snapshot`` reads either
    form."""

    def __init__(
        self,
        source: Any = None,
        *,
        title: str = "",
        max_rate: float = 60.0,
        record: str | Path | None = None,
        include_transient: bool = False,
        idle_timeout: float | None = None,
        adapter: str | None = "auto",
        **kwargs: Any,
    ) -> None:
        super().__init__(title=title, _instance=uuid.uuid4().hex, **kwargs)
        self.state = RunState(title)
        """The run as folded so far (live while streaming)."""
        self._channel = Channel(self.state, _WidgetSink(self), max_rate=max_rate)
        self._display_id = f"chunkscope-{self._instance}"
        self.on_msg(self._on_front_end_message)
        self._consumer: Consumer | None = None
        if source is not None:
            self.start(
                source,
                record=record,
                include_transient=include_transient,
                idle_timeout=idle_timeout,
                adapter=adapter,
            )

    def start(
        self,
        source: Any,
        *,
        record: str | Path | None = None,
        include_transient: bool = False,
        idle_timeout: float | None = None,
        adapter: str | None = "auto",
    ) -> StreamView:
        """Stream ``source`` into this view, which may already be on screen (made without a
        source, shown in an earlier cell); the options are those of ``chunkscope.show``.
        A view shows one run: a second ``start`` raises ``RuntimeError``."""
        if self._consumer is not None:
            raise RuntimeError("this view already shows a run; make a new view for another")
        recorder = (
            Recorder(record, include_transient=include_transient) if record is not None else None
        )
        self._hold_refreshes()
        self._consumer = Consumer(
            as_source(source, adapter=adapter),
            self._channel,
            recorder=recorder,
            idle_timeout=idle_timeout,
        )
        self._consumer.start()
        return self

    # ---------------------------------------------------------------- public API

    @property
    def done(self) -> bool:
        """True once the run ended."""
        return self._consumer is None or self._consumer.done

    @property
    def batches_sent(self) -> int:
        """How many live batches went to the browser."""
        return self._channel.batches_sent

    async def wait(self) -> RunState:
        """The final RunState, once the stream ended; re-raises what the source raised."""
        if self._consumer is None:
            return self.state
        try:
            return await self._consumer.wait()
        finally:
            self._resend_final()

    def result(self, timeout: float | None = None) -> RunState:
        """Block until the end (scripts, plain IPython) and return the final RunState."""
        if self._consumer is None:
            return self.state
        try:
            return self._consumer.result(timeout)
        finally:
            self._resend_final()

    def _resend_final(self) -> None:
        # The final snapshot was sent from the consumer's thread, under the message parent of
        # the cell that started the run; nbclient and nbconvert --execute keep only comm
        # messages of the cell they run. Sending it again from the cell that waited makes a
        # notebook executed headless save the finished run, and the libraries to draw it.
        self._send_libraries()
        snapshot = self.snapshot
        if self.done and snapshot is not None:
            if snapshot.get("encoding") == PACKED_ENCODING:
                # Not the same value again: see PackedSnapshot.resent.
                self.snapshot = {**snapshot, "resent": int(snapshot.get("resent", 0)) + 1}
            else:
                self.send_state("snapshot")
            self._refresh_display()

    def stop(self) -> None:
        """Stop reading the source; the run ends ``aborted``."""
        if self._consumer is not None:
            self._consumer.stop()

    def __await__(self) -> Generator[Any, None, RunState]:
        return self.wait().__await__()

    def __repr__(self) -> str:
        return f"StreamView(title={self.title!r})"

    def _refresh_still_due(self) -> bool:
        # Put off until now, it is made only if the run is still small enough for one.
        return refreshes_mid_run(self.state, self.snapshot)

    def _on_displayed(self, *, run_follows: bool) -> None:
        # A page will draw this view: its batches need not wait for the page's "ready".
        self._channel.expect_view()
        if self._consumer is None and not run_follows:
            # Shown before its run, which a later cell starts: no first words wait behind the
            # libraries now, and when the page asks for them, they could come while the run's
            # first batches are on their way.
            self._send_libraries()

    def readable(self) -> tuple[str, str]:
        """The run as a reader without the widget sees it: ``text/plain`` (this view's repr,
        a line saying how old the run is, the deterministic transcript) and ``text/html``
        (the same line and the static HTML), as the cell's output bundle holds them. Never
        holds a transient chunk."""
        with self._channel.lock:
            state = self.state
            if state.ended:
                age = f"the run as it ended, {state.chunk_count} chunks"
            else:
                age = (
                    f"as of {state.elapsed_ms / 1000:.1f} s, {state.chunk_count} chunks; "
                    "the run was still going"
                )
            # A long run keeps the start of its transcript and a very large one its headline:
            # the file stays small, the channel is not held up, and the widget state and
            # cs.write_html() hold the whole run.
            whole = "view.transcript() or cs.write_html(view, path) has the whole run"
            shortened = len(state.parts) > LIVE_REFRESH_MAX_PARTS
            if shortened:
                transcript = f"{title_line(state)}\n… {len(state.parts):,} parts: {whole}"
            else:
                transcript = state.transcript()
                shortened = len(transcript) > READABLE_LIMIT
                if shortened:
                    kept = transcript[: transcript.rfind("\n", 0, READABLE_LIMIT) + 1]
                    rest = len(transcript) - len(kept)
                    transcript = f"{kept}… and {rest:,} more characters: {whole}"
            static = "" if shortened else state.static_html()
            if shortened or not fits_readable_html(static):
                static = f'<pre class="cs-static">{html.escape(transcript)}</pre>'
        plain = f"{self!r}\n{LIVE_LINE}{age}\n{transcript}"
        return plain, readable_html(age, static)

    def transcript(self) -> str:
        """The run so far as deterministic text (no ids, timestamps or durations)."""
        return self.state.transcript()

    # ---------------------------------------------------------------- front-end messages

    def _on_front_end_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        kind = content.get("kind")
        if kind == "ready":
            have = content.get("have")
            self._channel.ready(have if isinstance(have, int) and not isinstance(have, bool) else 0)
        elif kind == "resync":
            self._channel.ready()
        elif kind == "rows":
            self._channel.want_rows()
        elif kind == "stop":
            self.stop()
        elif kind == "libraries":
            self._send_libraries()
        elif kind == "fetch":
            # The fold may run in another thread: the lookup takes the channel's lock, the
            # JSON of the whole value is written outside it.
            for message in held_answer(content, self.state.held, self._channel.lock):
                self.send(dict(message))


class _WidgetSink:
    """The channel's view of the widget: messages for live views, a trait for the file."""

    def __init__(self, view: StreamView) -> None:
        self._view = view

    def send_batch(self, seq: int, ops: list[dict[str, Any]]) -> None:
        self._view.send({"kind": "batch", "seq": seq, "ops": ops})

    def send_snapshot(self, snapshot: dict[str, Any], transient: list[dict[str, Any]]) -> None:
        self._view.send({"kind": "snapshot", "snapshot": snapshot, "transient": transient})

    def send_synced(self, seq: int) -> None:
        self._view.send({"kind": "synced", "seq": seq})

    def send_rows(self, seq: int, offset: int, total: int, rows: list[dict[str, Any]]) -> None:
        message: RowsMessage = {
            "kind": "rows",
            "seq": seq,
            "offset": offset,
            "total": total,
            "rows": rows,
        }
        self._view.send(dict(message))

    def persist(self, snapshot: dict[str, Any]) -> None:
        packed = pack_snapshot(snapshot)
        with self._view.hold_sync():
            self._view.snapshot = packed
        # The readable output follows the saved snapshot's schedule, no sooner than
        # REFRESH_INTERVAL_S after the last refresh while the run goes on: a notebook saved
        # without widget state keeps the run as of then. A large run is written out
        # at the end only: its transcript, made while the channel waits, would hold back the
        # batches and reach the page as one burst; and every refresh replaces the output,
        # which JupyterLab answers by drawing the view again in a new place (a 60-120 ms
        # task in the page each time, measured at 100k and 1M deltas).
        if self._view.state.ended:
            self._view._refresh_display()
        elif refreshes_mid_run(self._view.state, packed):
            self._view._refresh_display_soon()
