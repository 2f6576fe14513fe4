"""The runs of a board and their one schedule: starting, folding, summarising, sending.

Every run has its own ``RunState`` and ``Channel`` (the same fold and ops as a StreamView),
but no flusher thread of its own: one board thread wakes ``TICK`` times a second, starts
queued runs as slots free up, sends the rows that changed in one message and the batches of
the one run opened in the page. Runs that are not opened send nothing but their row, so a
sweep of hundreds of runs costs the page a table, not hundreds of transcripts.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from ..fold.state import RunState
from ..live.consume import Channel, Consumer, Waiters
from ..recording import Replay
from ..wire.batching import Op
from ..wire.persisted import packed_and_size
from ..wire.schema import BoardRow
from .saving import stored_bytes
from .sources import Labelled, make
from .summary import RowTracker

TICK = 0.05
"""Seconds between two rounds of the board's schedule: rows reach the page 20 times a
second at most, and the opened run's batches with them."""

SAVE_EVERY = 10.0
"""Seconds between two refreshes of the saved board's rows while runs stream; the runs kept
whole are saved once every run has ended."""


class BoardSink(Protocol):
    """Where the board's output goes (the widget, or nothing)."""

    def send(self, message: dict[str, Any]) -> None:
        """Deliver one message to every live page of the board."""

    def persist(self, *, runs: bool) -> None:
        """Write the saved board (the synced trait) and the readable output; ``runs``: with
        the runs kept whole (once every run ended), else the rows only."""


class _Gathering(threading.local):
    """Per thread: the messages a round of the board's schedule is gathering, on its own
    thread while the round lasts (None elsewhere)."""

    messages: list[dict[str, Any]] | None = None


class _RunSink:
    """A run's channel output: wrapped for the board when the run is opened, else dropped."""

    def __init__(self, board: Board, run: BoardRun) -> None:
        self._board = board
        self._run = run

    def _send(self, message: dict[str, Any]) -> None:
        if self._board.opened is self._run:
            self._board.deliver({"kind": "run", "id": self._run.id, "message": message})

    def send_batch(self, seq: int, ops: list[Op]) -> None:
        self._send({"kind": "batch", "seq": seq, "ops": ops})

    def send_snapshot(self, snapshot: dict[str, Any], transient: list[dict[str, Any]]) -> None:
        self._send({"kind": "snapshot", "snapshot": snapshot, "transient": transient})

    def send_synced(self, seq: int) -> None:
        self._send({"kind": "synced", "seq": seq})

    def send_rows(self, seq: int, offset: int, total: int, rows: list[dict[str, Any]]) -> None:
        self._send({"kind": "rows", "seq": seq, "offset": offset, "total": total, "rows": rows})

    def persist(self, snapshot: dict[str, Any]) -> None:
        # Kept for the saved board; packed once, when the run has ended.
        self._run.snapshot = snapshot
        self._run.saved = None


class RunChannel(Channel):
    """A run's channel on the board's schedule: no thread of its own, flushed by the board,
    and sending ops only while the run is opened in the page."""

    def __init__(self, board: Board, run: BoardRun) -> None:
        super().__init__(run.state, _RunSink(board, run), max_rate=1000.0)
        self.changed = True
        """The run changed since its row was last sent (set by the fold, cleared by the
        board)."""
        self._board = board
        self.tick: Callable[[], None] | None = None
        """The consumer's idle check, run on the board's schedule."""

    def start(self, tick: Callable[[], None] | None = None) -> None:
        """Keep the consumer's idle check for the board's schedule; start no thread."""
        self.tick = tick

    def join(self, timeout: float | None = None) -> None:
        """Nothing to wait for: the board's schedule sends the last batch."""

    def fold(
        self,
        chunk: Any,
        t: float | None = None,
        where: str | int | None = None,
        now: float | None = None,
    ) -> None:
        """Fold one chunk and mark the run's row as changed."""
        super().fold(chunk, t, where, now)
        self.changed = True

    def close(self, *, error: BaseException | None = None, stopped: bool = False) -> None:
        """End the run and wake the board, which may start a queued one in its slot."""
        super().close(error=error, stopped=stopped)
        self.changed = True
        self._board.wake()

    def flush(self) -> None:
        """Send the ops folded since the last flush (to the page, when opened)."""
        with self.lock:
            self._flush_locked()

    def detach(self) -> None:
        """The page closed the run: stop queueing its ops until it is opened again."""
        with self.lock:
            self._flush_locked()
            self._ready = False
            self._pending = []


class BoardRun:
    """One run of a board."""

    def __init__(self, board: Board, index: int, item: Labelled) -> None:
        self.id = f"r{index}"
        """The row's stable key."""
        self.label = item.label
        """What the user called it."""
        self.item = item
        """What makes its stream."""
        self.state = RunState(item.label)
        """The run as folded so far."""
        self.tracker = RowTracker(self.id, item.label)
        """Its row, kept up to date incrementally."""
        self.tracker.status_override = "queued"
        self.channel = RunChannel(board, self)
        """Its fold and ops."""
        self.consumer: Consumer | None = None
        """What reads its source, once started."""
        self.started = False
        """True once the board started (or began to fold) it."""
        self.snapshot: dict[str, Any] | None = None
        """Its persisted snapshot, written by the channel (mid-run, and at the end)."""
        self.saved: tuple[dict[str, Any], int] | None = None
        """Its final snapshot as saved (packed) and the JSON's length."""
        self.sent: BoardRow | None = None
        """Its row as the pages have it: later messages carry only what differs."""

    @property
    def done(self) -> bool:
        """True once the run ended: read to the end, failed, stopped, or never started and
        stopped."""
        return self.state.ended

    def row(self) -> BoardRow:
        """Its row as of now."""
        with self.channel.lock:
            return self.tracker.row(self.state)


class Board:
    """Runs, their concurrency, and the schedule that sends their rows."""

    def __init__(
        self,
        sink: BoardSink,
        *,
        concurrency: int | None = None,
        adapter: str | None = "auto",
        idle_timeout: float | None = None,
    ) -> None:
        if concurrency is not None and (isinstance(concurrency, bool) or concurrency < 1):
            raise ValueError(
                f"concurrency must be None (no limit) or at least 1, got {concurrency!r}"
            )
        self.sink = sink
        """Where rows, run messages and the saved board go."""
        self.concurrency = concurrency
        """At most this many runs read their sources at once (recordings are folded apart)."""
        self.adapter = adapter
        """The adapter option of every run (``cs.show``'s)."""
        self.idle_timeout = idle_timeout
        """Seconds without a chunk after which a run ends with a timeout error."""
        self.runs: list[BoardRun] = []
        """Every run, in the order they were added."""
        self.by_id: dict[str, BoardRun] = {}
        self.opened: BoardRun | None = None
        """The run the page shows in full, if any."""
        self.seq = 0
        """Number of the last row message sent."""
        self.schedule_error: Exception | None = None
        """The last error the schedule met sending or saving, if any."""
        self._lock = threading.RLock()
        self._cond = threading.Condition(self._lock)
        self._send_lock = threading.Lock()
        self._gathering = _Gathering()
        self._origin = time.monotonic()
        self._thread: threading.Thread | None = None
        self._loader: threading.Thread | None = None
        self._loop = _running_loop()
        self._waiters = Waiters()
        self._all_done = threading.Event()
        self._last_saved = time.monotonic()
        self._finalized = False
        self._ended_ms: float | None = None
        self._watching = 0

    # ---------------------------------------------------------------- runs

    def now_ms(self) -> float:
        """The board's age in ms."""
        return (time.monotonic() - self._origin) * 1000.0

    def age_ms(self) -> float:
        """Where the strips' shared time axis ends: the board's age while a run goes on, its
        age when the last run ended once every run has (a page that asks again, or a board
        saved or written out later, keeps the strips as they ended)."""
        ended = self._ended_ms
        return ended if ended is not None else self.now_ms()

    def add(self, item: Labelled) -> BoardRun:
        """Queue a run; it starts when a slot is free."""
        with self._lock:
            if any(run.label == item.label for run in self.runs):
                raise ValueError(f"the label {item.label!r} is already on the board")
            run = BoardRun(self, len(self.runs), item)
            self.runs.append(run)
            self.by_id[run.id] = run
            self._all_done.clear()
            self._finalized = False
            self._ended_ms = None
            self._ensure_thread()
            self._cond.notify()
        return run

    def wake(self) -> None:
        """Run the schedule now (a run ended, a request came)."""
        with self._cond:
            self._cond.notify()

    def stop(self, run_id: str | None = None) -> None:
        """Stop one run, or every run (``None``): queued ones never start."""
        with self._lock:
            targets = self.runs if run_id is None else [self.by_id[run_id]]
        for run in targets:
            if run.done:
                continue
            if run.consumer is not None:
                run.consumer.stop()
            else:
                run.started = True
                run.tracker.status_override = None
                run.channel.close(stopped=True)
        self.wake()

    @property
    def done(self) -> bool:
        """True once every run ended."""
        with self._lock:
            return all(run.done for run in self.runs)

    def states(self) -> dict[str, RunState]:
        """Every run's state by label, in the board's order."""
        with self._lock:
            return {run.label: run.state for run in self.runs}

    def watch(self) -> None:
        """A cell starts waiting for the end. It saves the ended board itself (a notebook
        executed headless keeps only its own cell's messages), so while it waits the
        schedule leaves the final save to it instead of sending the kept runs twice."""
        with self._lock:
            self._watching += 1

    def unwatch(self) -> bool:
        """The cell is done waiting (the runs ended, or it was interrupted); True when it
        must save the board now: every run has ended. Decided under the lock the schedule's
        last round holds, so a board whose last round left the save to this cell is saved."""
        with self._lock:
            self._watching -= 1
            return self.done

    async def wait(self) -> dict[str, RunState]:
        """Wait until every run ended; the states by label. A run that failed does not raise
        here: its state holds the error, and its row says so."""
        await self._waiters.wait(self._all_done.is_set, self.stop)
        return self.states()

    def result(self, timeout: float | None = None) -> dict[str, RunState]:
        """Block until every run ended (scripts); the states by label."""
        if not self._all_done.is_set() and self._loop is not None and _running_loop() is self._loop:
            raise RuntimeError(
                "result() would block the event loop this board starts its runs on, so they "
                "could never end: use `await board.wait()` (or `await board`) instead"
            )
        try:
            finished = self._all_done.wait(timeout)
        except BaseException:
            self.stop()
            raise
        if not finished:
            raise TimeoutError(f"the board's runs did not all end within {timeout} s")
        return self.states()

    # ---------------------------------------------------------------- the page

    def rows(self) -> list[BoardRow]:
        """Every row as of now."""
        with self._lock:
            runs = list(self.runs)
        return [run.row() for run in runs]

    def send_all(self) -> None:
        """A page appeared: every row."""
        with self._send_lock:
            with self._lock:
                runs = list(self.runs)
            rows = [run.row() for run in runs]
            for run, row in zip(runs, rows, strict=True):
                run.sent = row
            self._send_rows(rows, [], full=True)

    def deliver(self, message: dict[str, Any]) -> None:
        """Send one message to the pages; during a round, on the round's thread, it waits to
        go with the round's others."""
        gathered = self._gathering.messages
        if gathered is None:
            self.sink.send(message)
        else:
            gathered.append(message)

    def _send_round(self, opened: BoardRun | None, changed: list[BoardRun]) -> None:
        """The opened run's batch and the rows that changed, in one message: a page that gets
        them together draws them in one frame. Sent under the lock of the row messages, so
        that a full answer to another page's ``ready`` goes before or after it, in ``seq``
        order. A snapshot the opened run sends meanwhile may overtake its batch: a page drops
        a batch its snapshot already holds."""
        with self._send_lock:
            gathered: list[dict[str, Any]] = []
            self._gathering.messages = gathered
            try:
                if opened is not None:
                    opened.channel.flush()
                if changed:
                    self._gather_changes(changed)
            finally:
                self._gathering.messages = None
            if len(gathered) == 1:
                self.sink.send(gathered[0])
            elif gathered:
                self.sink.send({"kind": "round", "messages": gathered})

    def _gather_changes(self, runs: list[BoardRun]) -> None:
        """The rows the pages lack and the fields that changed, in one message (the caller
        holds the lock of the row messages)."""
        added: list[BoardRow] = []
        changes: list[dict[str, Any]] = []
        for run in runs:
            row = run.row()
            before = run.sent
            run.sent = row
            if before is None:
                added.append(row)
                continue
            change = {key: value for key, value in row.items() if before.get(key) != value}
            if change:
                change["id"] = row["id"]
                changes.append(change)
        if added or changes:
            self._send_rows(added, changes, full=False)

    def _send_rows(
        self, rows: list[BoardRow], changes: list[dict[str, Any]], *, full: bool
    ) -> None:
        self.seq += 1
        self.deliver(
            {
                "kind": "board",
                "seq": self.seq,
                "full": full,
                "rows": rows,
                "changes": changes,
                "elapsedMs": round(self.age_ms(), 1),
            }
        )

    def open(self, run_id: str | None) -> None:
        """Show one run in full in the page (None: none): its snapshot now, then its batches."""
        run = None if run_id is None else self.by_id.get(run_id)
        previous = self.opened
        if previous is not None and previous is not run:
            self.opened = None
            previous.channel.detach()
        self.opened = run
        if run is not None:
            run.channel.ready()

    # ---------------------------------------------------------------- the schedule

    def _ensure_thread(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="chunkscope-board", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        due = time.monotonic()
        while True:
            # Rounds start every TICK, however long the last one took (not TICK after it).
            due = max(due + TICK, time.monotonic())
            with self._cond:
                self._cond.wait(max(0.0, due - time.monotonic()))
            try:
                self._start_queued()
                self._tick()
                ended = self._round()
            except Exception as error:  # a failed send must not stop the runs or their end
                self._schedule_failed(error)
                ended = self._all_done.is_set()
            if ended and self._leave():
                return

    def _leave(self) -> bool:
        """Let the schedule stop, unless a run was added since every run ended: decided
        under the lock ``add`` holds, so a run added now finds the schedule still going or
        starts a new one."""
        with self._lock:
            if not self._finalized:
                return False
            self._thread = None
            return True

    def _schedule_failed(self, error: Exception) -> None:
        """Say once, on the kernel's stderr, that the board could not send or save; the
        runs go on and ``wait()`` still returns."""
        if self.schedule_error is None:
            print(
                f"chunkscope: the board could not update its page ({type(error).__name__}: "
                f"{error}); its runs go on",
                file=sys.stderr,
            )
        self.schedule_error = error

    def _start_queued(self) -> None:
        with self._lock:
            queued = [run for run in self.runs if not run.started]
            running = sum(1 for run in self.runs if run.started and not run.done)
            recordings = [run for run in queued if _is_recording(run)]
            live = [run for run in queued if not _is_recording(run)]
            free = len(live) if self.concurrency is None else max(0, self.concurrency - running)
            starting = live[:free]
            for run in starting:
                run.started = True
            if recordings and (self._loader is None or not self._loader.is_alive()):
                for run in recordings:
                    run.started = True
                self._loader = threading.Thread(
                    target=self._fold_recordings,
                    args=(recordings,),
                    name="chunkscope-board-recordings",
                    daemon=True,
                )
                self._loader.start()
        for run in starting:
            if self._loop is not None and self._loop.is_running():
                self._loop.call_soon_threadsafe(self._start, run)
            else:
                self._start(run)

    def _start(self, run: BoardRun) -> None:
        run.tracker.started_ms = self.now_ms()
        run.tracker.status_override = None
        if run.done:  # stopped while its start was on its way
            return
        try:
            source = make(run.item.source, self.adapter)
        except BaseException as error:  # the factory failed: the row says so, others go on
            run.channel.close(error=error)
            return
        consumer = Consumer(source, run.channel, idle_timeout=self.idle_timeout)
        run.consumer = consumer
        consumer.start()

    def _fold_recordings(self, runs: list[BoardRun]) -> None:
        # Recordings already happened: folded one after another with their recorded offsets,
        # outside the concurrency limit (they open no connection).
        for run in runs:
            if run.done:
                continue
            run.tracker.started_ms = self.now_ms()
            run.tracker.status_override = None
            source = run.item.source
            replay = source if isinstance(source, Replay) else Replay(source, speed=0)
            error: BaseException | None = None
            try:
                for t, chunk, where in replay.timed(wait=False):
                    if run.done:
                        break
                    run.channel.fold(chunk, t, where)
            except BaseException as exc:
                error = exc
            run.channel.close(error=error)

    def _tick(self) -> None:
        with self._lock:
            runs = [run for run in self.runs if run.channel.tick is not None and not run.done]
        for run in runs:
            if run.channel.tick is not None:
                run.channel.tick()

    def _round(self) -> bool:
        """Send what changed; True when every run ended and the board was saved."""
        with self._lock:
            changed = [run for run in self.runs if run.channel.changed]
            for run in changed:
                run.channel.changed = False
        self._send_round(self.opened, changed)
        if self.done:
            with self._lock:
                if any(run.channel.changed for run in self.runs):
                    return False
                if not self._finalized:
                    self._finalized = True
                    self._ended_ms = self.now_ms()
                    finish = True
                else:
                    finish = False
                # A cell waiting for the end saves the board as soon as it wakes.
                left_to_cell = self._watching > 0
            if finish:
                try:
                    if not left_to_cell:
                        self.sink.persist(runs=True)
                finally:
                    # Whatever saving did, the runs have ended: waiters hear of it.
                    self._last_saved = time.monotonic()
                    self._all_done.set()
                    self._waiters.release()
            return True
        if time.monotonic() - self._last_saved >= SAVE_EVERY:
            self._last_saved = time.monotonic()
            # Rows only: a board of thousands of runs would otherwise resend megabytes of
            # kept runs to every page each time.
            self.sink.persist(runs=False)
        return False

    # ---------------------------------------------------------------- saving

    def saved_runs(
        self, keep: int, keep_total: int, *, whole: bool = False
    ) -> tuple[dict[str, Any], dict[str, str]]:
        """The ended runs kept whole for the saved notebook: row id → packed snapshot, each
        at most ``keep`` bytes of JSON and together at most ``keep_total`` bytes as stored;
        and why each other ended run was left out (``size`` or ``total``). Packed whatever
        their size: a page receives binary buffers without parsing them and unpacks a run
        only when it is opened.
        ``whole``: plain snapshots with every held value in full, for a page that has no
        kernel to ask."""
        kept: dict[str, Any] = {}
        total = 0
        left: dict[str, str] = {}
        with self._lock:
            runs = list(self.runs)
        for run in runs:
            if not run.done or run.snapshot is None:
                continue
            if whole:
                with run.channel.lock:
                    snapshot = run.state.snapshot(whole=True)
                value, size = snapshot, len(_json(snapshot))
            else:
                if run.saved is None:
                    run.saved = packed_and_size(run.snapshot, always=True)
                value, size = run.saved
            stored = stored_bytes(value, size)
            if size == 0 or size > keep:
                left[run.id] = "size"
                continue
            if total + stored > keep_total:
                left[run.id] = "total"
                continue
            kept[run.id] = value
            total += stored
        return kept, left


def _json(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        return ""


def _is_recording(run: BoardRun) -> bool:
    return run.item.is_recording


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
