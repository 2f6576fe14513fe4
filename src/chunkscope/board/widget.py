"""RunBoard: many runs of an agent, live in one cell, one row each.

The widget is thin: the runs, their schedule and their rows are ``Board``'s; this class
routes the page's requests to it, writes the saved board into its ``saved`` trait and keeps
the cell's readable output (``text/plain``, ``text/html``) current.
"""

from __future__ import annotations

import functools
import html
import importlib
import itertools
import uuid
from collections.abc import Generator
from typing import Any

import anywidget
import traitlets

from .._static import read_static, static_path
from ..fold.state import RunState
from ..live.display import DisplayedOutput
from ..live.libraries import CarriesLibraries
from ..live.widget import LIVE_LINE, fits_readable_html, readable_html
from ..present.compare import compare
from ..wire.held import answer as held_answer
from .engine import Board
from .saving import part_name, split_saved
from .sources import labelled
from .table import BoardTable, html_table, plain_row, text_table


@functools.cache
def _board_styles() -> str:
    return read_static("board.css")


KEEP_BYTES = 1_000_000
"""Default ``keep``: a run whose snapshot JSON is longer is saved as its row only."""

READABLE_ROWS = 100
"""Rows the cell's readable output (``text/plain``, ``text/html``) lists, by label; past
them it says how many more there are. JupyterLab parses the HTML of every display update, so
a board of thousands of runs keeps its output small; ``board.table()`` has every row."""

KEEP_TOTAL_BYTES = 10_000_000
"""Default ``keep_total``: the most bytes of packed snapshots a saved board keeps over all
its runs."""


class RunBoard(DisplayedOutput, CarriesLibraries, anywidget.AnyWidget):
    """A live board of many runs: one row per run, opened in place, compared in pairs.

    Build one with ``chunkscope.runs(sources)``; ``await board.wait()`` gives every run's
    ``RunState`` by label.
    """

    _esm = static_path("board.js")
    _styles = traitlets.Unicode().tag(sync=True)
    """The board's style sheet. The page draws the board in a shadow root of its output, out
    of reach of JupyterLab's own sheets, and puts this sheet there."""

    title = traitlets.Unicode("").tag(sync=True)
    """A label shown in the board's header."""
    _instance = traitlets.Unicode("").tag(sync=True)
    """A name unique to this board's model (the page keeps one state per model)."""
    saved = traitlets.Dict(allow_none=True, default_value=None).tag(sync=True)
    """The board as the saved notebook keeps it (``docs/wire.md`` BoardSaved): every row,
    and the ended runs whose snapshots fit ``keep`` and ``keep_total``."""

    @traitlets.default("_styles")
    def _default_styles(self) -> str:
        return _board_styles()

    def __init__(
        self,
        sources: Any = (),
        *,
        title: str = "",
        concurrency: int | None = None,
        keep: int = KEEP_BYTES,
        keep_total: int = KEEP_TOTAL_BYTES,
        adapter: str | None = "auto",
        idle_timeout: float | None = None,
        **kwargs: Any,
    ) -> None:
        items = labelled(sources)
        super().__init__(title=title, _instance=uuid.uuid4().hex, **kwargs)
        self.keep = keep
        """Bytes of snapshot JSON over which a run is saved as its row only."""
        self.keep_total = keep_total
        """Bytes of packed snapshots the saved board keeps over all its runs."""
        self._display_id = f"chunkscope-board-{self._instance}"
        self._save_numbers = itertools.count(1)
        self._board = Board(
            _BoardSink(self), concurrency=concurrency, adapter=adapter, idle_timeout=idle_timeout
        )
        self.on_msg(self._on_front_end_message)
        for item in items:
            self._board.add(item)

    # ---------------------------------------------------------------- public API

    def add(self, label: str, source: Any) -> None:
        """Add a run while the board is on screen; it starts when a slot is free."""
        (item,) = labelled({label: source})
        self._board.add(item)

    @property
    def labels(self) -> list[str]:
        """The runs' labels, in the board's order."""
        return [run.label for run in self._board.runs]

    def state(self, label: str) -> RunState:
        """One run's state (live while it streams)."""
        for run in self._board.runs:
            if run.label == label:
                return run.state
        raise KeyError(f"no run labelled {label!r} on this board")

    @property
    def done(self) -> bool:
        """True once every run ended."""
        return self._board.done

    async def wait(self) -> dict[str, RunState]:
        """Every run's final ``RunState`` by label, once all ended. A run whose source failed
        does not raise here: its state holds the error and its row says so."""
        self._board.watch()
        try:
            return await self._board.wait()
        finally:
            self._save_after_waiting()

    def result(self, timeout: float | None = None) -> dict[str, RunState]:
        """Block until every run ended (scripts, plain IPython); the states by label."""
        self._board.watch()
        try:
            return self._board.result(timeout)
        finally:
            self._save_after_waiting()

    def __await__(self) -> Generator[Any, None, dict[str, RunState]]:
        return self.wait().__await__()

    def stop(self, label: str | None = None) -> None:
        """Stop one run by label, or every run; queued runs then never start."""
        if label is None:
            self._board.stop(None)
            return
        for run in self._board.runs:
            if run.label == label:
                self._board.stop(run.id)
                return
        raise KeyError(f"no run labelled {label!r} on this board")

    def table(self) -> BoardTable:
        """One plain row per run (label, status, elapsed, time to first token, tokens, steps,
        tool calls, tool errors, finish reason, tripwire, error), in the board's order."""
        return BoardTable(plain_row(row) for row in self._board.rows())

    def to_dataframe(self) -> Any:
        """``table()`` as a pandas DataFrame (pandas must be installed)."""
        try:
            pandas: Any = importlib.import_module("pandas")
        except ImportError:
            raise ImportError(
                "RunBoard.to_dataframe() needs pandas: pip install pandas "
                "(board.table() gives the same rows as plain dicts)"
            ) from None
        return pandas.DataFrame(list(self.table()))

    def saved_state(self, *, whole: bool = False, runs: bool = True) -> dict[str, Any]:
        """The board as a saved notebook keeps it (``BoardSaved``), as of now; ``whole``: its
        runs as plain snapshots with every value in full (a page without a kernel); without
        ``runs``, the rows only."""
        kept, left = (
            self._board.saved_runs(self.keep, self.keep_total, whole=whole) if runs else ({}, {})
        )
        # The save's number comes first: it differs between any two saves, and the page's
        # widget model compares a new value with the one it holds key by key, in this order,
        # before it stores it (ipywidgets' Backbone models, with lodash's isEqual). Without it
        # a finished board saved again (from the cell that waited) would make it compare
        # every row, then every kept run's packed bytes one by one: a second of the page's
        # time for 2,000 runs.
        return {
            "save": next(self._save_numbers),
            "elapsedMs": self._board.age_ms(),
            "seq": self._board.seq,
            "rows": self._board.rows(),
            "runs": kept,
            "runParts": 0,
            "keepLimit": self.keep,
            "keepTotal": self.keep_total,
            "leftOut": left,
        }

    def kept(self) -> dict[str, Any]:
        """Row id → packed snapshot of every run the saved notebook keeps whole, over the
        ``saved`` trait and its parts (``docs/wire.md``, BoardSaved ``runParts``)."""
        runs: dict[str, Any] = {}
        saved = self.saved
        if saved is None:
            return runs
        runs.update(saved.get("runs", {}))
        for index in range(1, int(saved.get("runParts", 0)) + 1):
            part = getattr(self, part_name(index), None)
            # As on the page: a part of another save is not this save's.
            if isinstance(part, dict) and part.get("save") == saved.get("save"):
                runs.update(part.get("runs", {}))
        return runs

    def __repr__(self) -> str:
        return f"RunBoard(title={self.title!r})"

    def readable(self) -> tuple[str, str]:
        """``text/plain``: this board's repr, a line saying how far the runs are, and the
        deterministic table (``table()``'s text); ``text/html``: the same line and the table."""
        rows = self.table()
        count = len(rows)
        ended = sum(1 for row in rows if row["status"] not in ("queued", "waiting", "running"))
        if self._board.done:
            age = f"{count} runs, all ended"
        else:
            age = f"as of {self._board.now_ms() / 1000:.1f} s, {ended} of {count} runs ended"
        listed = BoardTable(sorted(rows, key=lambda row: str(row["label"]))[:READABLE_ROWS])
        more = ""
        if len(rows) > len(listed):
            more = f"\n… and {len(rows) - len(listed):,} more runs: board.table() has them all"
        plain = f"{self!r}\n{LIVE_LINE}{age}\n{text_table(listed)}{more}"
        static = html_table(listed) + (f"<p>{html.escape(more.strip())}</p>" if more else "")
        if not fits_readable_html(static):
            static = f'<pre class="cs-static">{html.escape(text_table(listed) + more)}</pre>'
        return plain, readable_html(age, static)

    # ---------------------------------------------------------------- internals

    def _persist(self, *, runs: bool = True) -> None:
        state = self.saved_state(runs=runs)
        first, *rest = split_saved(state["rows"], state["runs"])
        # A new part's trait reaches the page empty when it is added: before the saved board,
        # so that the first rows and runs are followed by each part in a message of its own.
        missing = {
            part_name(index): traitlets.Dict(allow_none=True, default_value=None).tag(sync=True)
            for index in range(1, len(rest) + 1)
            if not self.has_trait(part_name(index))
        }
        if missing:
            self.add_traits(**missing)
        if state["runs"]:
            # Runs kept whole open in the saved notebook too: their markdown needs the
            # libraries there, with no kernel to ask.
            self._send_libraries()
        self.saved = {**state, "rows": first.rows, "runs": first.runs, "runParts": len(rest)}
        for index, group in enumerate(rest, start=1):
            self.set_trait(
                part_name(index), {"save": state["save"], "rows": group.rows, "runs": group.runs}
            )
        # A part left from an earlier, larger save is emptied.
        index = len(rest) + 1
        while self.has_trait(part_name(index)):
            self.set_trait(part_name(index), None)
            index += 1
        self._refresh_display()

    def _save_after_waiting(self) -> None:
        # As for StreamView: a notebook executed headless keeps only the comm messages of the
        # cell that runs, so the cell that waited sends the finished board (the schedule's
        # last round left it to this cell, or sent it under the cell that made the board).
        if self._board.unwatch():
            self._persist()

    def _on_front_end_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        kind = content.get("kind")
        if kind == "ready":
            self._board.send_all()
        elif kind == "open":
            run_id = content.get("id")
            self._board.open(run_id if isinstance(run_id, str) else None)
        elif kind == "stop":
            run_id = content.get("id")
            if run_id is None or run_id in self._board.by_id:
                self._board.stop(run_id)
        elif kind == "compare":
            self._compare(content.get("a"), content.get("b"))
        elif kind == "run":
            self._run_request(content.get("id"), content.get("message"))
        elif kind == "libraries":
            self._send_libraries()

    def _run_request(self, run_id: Any, message: Any) -> None:
        run = self._board.by_id.get(run_id) if isinstance(run_id, str) else None
        if run is None or run is not self._board.opened or not isinstance(message, dict):
            return
        kind = message.get("kind")
        if kind in ("ready", "resync"):
            run.channel.ready()
        elif kind == "rows":
            run.channel.want_rows()
        elif kind == "stop":
            self._board.stop(run.id)
        elif kind == "fetch":
            for answer in held_answer(message, run.state.held, run.channel.lock):
                self.send({"kind": "run", "id": run.id, "message": dict(answer)})

    def _compare(self, a: Any, b: Any) -> None:
        runs = self._board.by_id
        message: dict[str, Any] = {"kind": "compare", "a": a, "b": b, "html": "", "error": None}
        if not (isinstance(a, str) and isinstance(b, str) and a in runs and b in runs):
            message["error"] = f"cannot compare {a!r} and {b!r}: not runs of this board"
        else:
            first, second = runs[a], runs[b]
            # Both runs may still be folding: hold their locks, in a fixed order.
            ordered = sorted((first, second), key=lambda run: int(run.id[1:]))
            with ordered[0].channel.lock, ordered[1].channel.lock:
                try:
                    comparison = compare(
                        first.state, second.state, labels=(first.label, second.label)
                    )
                    message["html"] = comparison.to_html()
                except Exception as error:  # a comparison must never take the board down
                    message["error"] = f"the comparison failed: {error}"
        self.send(message)


class _BoardSink:
    def __init__(self, board: RunBoard) -> None:
        self._board = board

    def send(self, message: dict[str, Any]) -> None:
        self._board.send(message)

    def persist(self, *, runs: bool) -> None:
        self._board._persist(runs=runs)


def runs(
    sources: Any,
    *,
    concurrency: int | None = None,
    title: str = "",
    display: bool = True,
    keep: int = KEEP_BYTES,
    keep_total: int = KEEP_TOTAL_BYTES,
    adapter: str | None = "auto",
    idle_timeout: float | None = None,
) -> RunBoard:
    """Run many streams at once and show them live on one board, a row per run.

    ``sources`` is a mapping of label → source, an iterable of ``(label, source)`` pairs, or
    a folder of ``.jsonl`` recordings (labelled by file name). A source is anything
    ``cs.show`` takes, or a zero-argument callable (or coroutine function) that makes one,
    called when its run starts. At most ``concurrency`` runs read their sources at once
    (None: no limit); recordings are folded at once, apart from that limit. The saved
    notebook keeps every row and the runs whose snapshot is at most ``keep`` bytes of JSON,
    up to ``keep_total`` bytes of packed snapshots in all. Click a row to open the run;
    pick two to compare them.
    """
    board = RunBoard(
        sources,
        title=title,
        concurrency=concurrency,
        keep=keep,
        keep_total=keep_total,
        adapter=adapter,
        idle_timeout=idle_timeout,
    )
    if display:
        board.display_once()
    return board


__all__ = ["RunBoard", "runs"]
