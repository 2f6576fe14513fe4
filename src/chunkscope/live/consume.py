"""Drive a source into a RunState and a front end: threads, pacing, snapshots, cancellation.

``Channel`` owns the lock that makes "fold a chunk and queue its ops" atomic with "flush and
take a snapshot", so a snapshot's ``seq`` always says exactly which batches it contains. A
flusher thread sends batches: each chunk at once while chunks arrive slower than
``PRESSURE_RATE`` a second, and at most ``max_rate`` batches a second while they arrive faster
(the arrival rate is measured, not assumed), after a few in a row (``BURST_BATCHES``).
``Consumer`` reads the source: an asyncio task on the running loop for async sources, a worker
thread for sync ones, so the cell that started it returns at once.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from typing import Any, Protocol

from ..chunks.models import parse_chunk
from ..fold.lane import Lane
from ..fold.state import RunState
from ..recording import Recorder, Replay
from ..wire.batching import Op, append_op, coalesce, weight

WAKE_INTERVAL = 0.1
"""Seconds between wake-ups of a coroutine waiting for the run, so an interrupt is seen."""

PERSIST_GROWTH = 4
"""The persisted snapshot is refreshed mid-run each time the content grew by this factor."""

ROWS_PIECE = 500
"""Inspector rows per ``rows`` message, so that no single message is slow to decode."""

ROW_WEIGHT = 200
"""What one inspector row adds to the content, as ``weight`` counts a ``rows`` op."""

PRESSURE_RATE = 250.0
"""Chunks a second above which the channel coalesces: below it every chunk leaves the kernel
in a message of its own as soon as it is folded (a model typing at 100 tokens/s is shown token
by token, with no pacing delay); above it, batches go at most ``max_rate`` a second, well
inside the server's IOPub limits (1,000 messages and 1 MB a second by default)."""

ARRIVAL_SMOOTHING = 0.2
"""Weight of the newest gap between two chunks in the measured arrival rate."""

BURST_BATCHES = 4
"""Batches that may follow each other at once before pacing holds the next one back: the
allowance of a bucket that refills at ``max_rate`` a second. The server's IOPub limits are
averages over seconds, so a few messages in a row cost nothing, while holding the second
batch of a burst for a whole interval kept a fresh view's first words (the burst's second
batch: the first holds only the run's start) 17 ms longer in the kernel."""


class Sink(Protocol):
    """Where a channel's output goes (the widget, or nothing)."""

    def send_batch(self, seq: int, ops: list[Op]) -> None:
        """Deliver one batch of ops to every live view."""

    def send_snapshot(self, snapshot: dict[str, Any], transient: list[dict[str, Any]]) -> None:
        """Deliver a whole snapshot (answer to ``ready`` / ``resync``)."""

    def send_synced(self, seq: int) -> None:
        """Tell a page that followed every batch from the first that it holds the run
        (answer to ``ready``, instead of a snapshot)."""

    def send_rows(self, seq: int, offset: int, total: int, rows: list[dict[str, Any]]) -> None:
        """Deliver a piece of the inspector rows (answer to ``rows``)."""

    def persist(self, snapshot: dict[str, Any]) -> None:
        """Store the snapshot where the saved notebook keeps it (the synced trait)."""


class Allowance:
    """How many batches may leave at once while a stream is busy: a bucket that holds up to
    ``burst`` batches and refills at one per ``interval`` seconds (``max_rate`` a second)."""

    def __init__(self, interval: float, burst: float = BURST_BATCHES) -> None:
        self.interval = interval
        self.burst = burst
        self._left = burst
        self._at = float("-inf")

    def _refill(self, now: float) -> None:
        if now > self._at:
            self._left = min(self.burst, self._left + (now - self._at) / self.interval)
            self._at = now

    def wait(self, now: float) -> float:
        """Seconds from ``now`` (monotonic) until the next batch may go."""
        self._refill(now)
        return 0.0 if self._left >= 1.0 else (1.0 - self._left) * self.interval

    def take(self, now: float) -> None:
        """A batch went at ``now``."""
        self._refill(now)
        self._left = max(0.0, self._left - 1.0)


class Channel:
    """The state, its pending ops and the pacing of what goes to the browser."""

    def __init__(self, state: RunState, sink: Sink, *, max_rate: float = 60.0) -> None:
        if max_rate <= 0:
            raise ValueError("max_rate must be positive (batches per second)")
        self.state = state
        """The run being folded."""
        self.sink = sink
        """Where batches, snapshots and persisted state go."""
        self.min_interval = 1.0 / max_rate
        """Seconds between two batches while the stream is busy."""
        self.lock = threading.RLock()
        """Held while folding a chunk and while flushing or snapshotting."""
        self.seq = 0
        """Number of the last batch sent."""
        self.batches_sent = 0
        """How many batches went out (a test and a benchmark read it)."""
        self.rows_wanted = False
        """A page asked for the inspector rows: batches and snapshots carry them from now on.
        Until then they stay in the kernel, so a run of 100k chunks does not send (and every
        page does not keep) 100k rows nobody looks at."""
        self._cond = threading.Condition(self.lock)
        self._pending: list[Op] = []
        # The deltas that grew one block in a row since the last op, merged into one
        # ``append`` op when anything else is queued or the batch goes (as ``coalesce`` would
        # merge their ops): a delta then costs a list append instead of an op.
        self._growing: Lane | None = None
        self._grown: list[str] = []
        self._grown_t = 0.0
        self._ready = False
        # Batches go out from the first one before any page said ready: the view was
        # displayed, so a page is coming, and a cell that shows a run and then awaits it is
        # live although the kernel reads no page message until the cell ends. A page that
        # missed the first batches says so in its ready and gets a snapshot.
        self._sent_from_start = False
        self._arrival_gap = 1.0
        self._last_push = 0.0
        self._allowance = Allowance(self.min_interval)
        self._closing = False
        self._size = 0
        self._persisted_size = 0
        self._flusher: threading.Thread | None = None
        self._tick: Callable[[], None] | None = None

    # ---------------------------------------------------------------- producer side

    def push(self, ops: list[Op]) -> None:
        """Queue ops (caller holds ``lock``); wake the flusher."""
        if not ops:
            return
        self._size += weight(ops)
        if self._ready or self._sent_from_start:
            self._arrived()
            self._close_growing()
            self._pending.extend(ops)

    def _arrived(self, now: float | None = None) -> None:
        """Measure the arrival rate (``now`` is when the chunk arrived, on the monotonic
        clock; read here when not given); wake the flusher when nothing was queued."""
        if now is None:
            now = time.monotonic()
        self._arrival_gap += ARRIVAL_SMOOTHING * (now - self._last_push - self._arrival_gap)
        self._last_push = now
        # The flusher waits for the first op after a flush; later ones find it awake or
        # pacing, so waking it again would only cost the producer.
        if not self._pending and not self._grown:
            self._cond.notify()

    def _close_growing(self) -> None:
        """Queue the merged deltas of the block that grew as one ``append`` op."""
        grown = self._grown
        if grown:
            lane = self._growing
            assert lane is not None
            text = grown[0] if len(grown) == 1 else "".join(grown)
            self._size += len(text)
            self._pending.append(append_op(lane.part.id, "text", text, self._grown_t))
            self._grown = []
        self._growing = None

    @property
    def pressed(self) -> bool:
        """Whether chunks arrive faster than ``PRESSURE_RATE`` (batches are then paced)."""
        return self._arrival_gap < 1.0 / PRESSURE_RATE

    def expect_view(self) -> None:
        """The view was displayed: send batches from now on without waiting for ``ready``.
        What was folded before goes first, as a snapshot."""
        with self.lock:
            if self._ready or self._sent_from_start:
                return
            self._sent_from_start = True
            if self._size or self.state.ended:
                self.sink.send_snapshot(self.state.snapshot(self.seq), list(self.state.transient))

    def fold(
        self,
        chunk: Any,
        t: float | None = None,
        where: str | int | None = None,
        now: float | None = None,
    ) -> None:
        """Fold one chunk and queue what changed, atomically (``where`` as ``handle`` takes it;
        ``now``, when the reader took the time the chunk arrived, spares the channel reading
        the clock again for the arrival rate)."""
        with self.lock:
            growing = self._growing
            if growing is not None and t is not None:
                # A delta that continues the block the last ones grew, what most chunks of
                # a stream are: the lane folds it in one call, and its text joins theirs (see
                # ``_close_growing``).
                text = growing.take(chunk, t)
                if text is not None:
                    self._arrived(now)
                    self._grown.append(text)
                    self._grown_t = t
                    return
            state = self.state
            if state.ended:
                return
            text = None if t is None else state.grow(chunk, t)
            if t is None or text is None:
                ops = state.handle(chunk, t, where=where)
                if ops:
                    self.push(ops)
            elif self._ready or self._sent_from_start:
                # The first delta of a run of them on the lane: queue its text, merged with
                # its neighbours into one ``append`` op when the batch goes.
                self._arrived(now)
                self._close_growing()
                self._growing = state.growing
                self._grown.append(text)
                self._grown_t = t
            else:
                self._size += len(text)

    def _content_size(self) -> int:
        """How much the run holds, as ``weight`` counts it: the ops so far, and the rows that
        were not sent live (the persisted snapshot holds them all the same)."""
        if self.state.row_ops:
            return self._size
        return self._size + ROW_WEIGHT * self.state.row_count

    def close(self, *, error: BaseException | None = None, stopped: bool = False) -> None:
        """End the run: final ops, last batch, final persisted snapshot."""
        with self.lock:
            if self.state.ended:
                return
            self.push(self.state.close(error=error, stopped=stopped))
            self._flush_locked()
            self.sink.persist(self.state.snapshot(self.seq))
            self._persisted_size = self._content_size()
            self._closing = True
            self._cond.notify()

    # ---------------------------------------------------------------- front-end side

    def ready(self, have: int = 0) -> None:
        """A view appeared (or asked to resync): send it everything so far, or, when it
        followed every batch from the first (``have`` is the last it applied), say so."""
        with self.lock:
            self._flush_locked()
            if self._sent_from_start and 1 <= have <= self.seq:
                # The batches after ``have`` are already on their way, in order.
                self._ready = True
                self.sink.send_synced(self.seq)
                return
            # Transient items are live-only: the first view of the run gets the ones that came
            # before it was drawn (a fast replay outruns the page); a reloaded or later page
            # starts without them, and so does one that was sent them live.
            transient = [] if self._ready or self._sent_from_start else list(self.state.transient)
            self._ready = True
            snapshot = self.state.snapshot(self.seq, rows=self.rows_wanted)
            self.sink.send_snapshot(snapshot, transient)

    def want_rows(self) -> None:
        """A page opened its inspector: send every row so far, in pieces, and keep rows in
        the batches from now on. Under the lock, so no batch comes between the pieces."""
        with self.lock:
            self._flush_locked()
            self.rows_wanted = True
            self.state.row_ops = True
            rows = self.state.chunk_rows()
            total = len(rows)
            for offset in range(0, max(total, 1), ROWS_PIECE):
                self.sink.send_rows(self.seq, offset, total, rows[offset : offset + ROWS_PIECE])

    def start(self, tick: Callable[[], None] | None = None) -> None:
        """Start the flusher thread; ``tick`` runs on it a few times a second."""
        self._tick = tick
        self._flusher = threading.Thread(target=self._run, name="chunkscope-flusher", daemon=True)
        self._flusher.start()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the flusher to send the last batch and stop."""
        if self._flusher is not None:
            self._flusher.join(timeout)

    def _run(self) -> None:
        with self._cond:
            while True:
                if self._tick is not None:
                    self._cond.release()
                    try:
                        self._tick()
                    finally:
                        self._cond.acquire()
                if not self._pending and not self._grown:
                    if self._closing:
                        return
                    self._cond.wait(0.25)
                    continue
                if self.pressed:
                    wait = self._allowance.wait(time.monotonic())
                    if wait > 0:
                        self._cond.wait(wait)
                        continue
                self._flush_locked()

    def _flush_locked(self) -> None:
        self._close_growing()
        if self._pending:
            ops, self._pending = self._pending, []
            self.seq += 1
            batch = coalesce(ops, keep_rows=self.rows_wanted)
            batch.append(
                {
                    "op": "run",
                    "set": {
                        "chunkCount": self.state.chunk_count,
                        "elapsedMs": self.state.elapsed_ms,
                    },
                }
            )
            self.sink.send_batch(self.seq, batch)
            self.batches_sent += 1
            self._allowance.take(time.monotonic())
        # The saved notebook keeps a snapshot refreshed whenever the content grew fourfold:
        # the refreshes add up to at most 4/3 of the final content, so live messages plus
        # persisted snapshots stay near 3x the content however long the run.
        size = self._content_size()
        if size >= PERSIST_GROWTH * max(self._persisted_size, 16_384) and not self.state.ended:
            self.sink.persist(self.state.snapshot(self.seq))
            self._persisted_size = size


class Waiters:
    """Coroutines waiting, each on its own event loop, for something another thread ends.

    The ending thread marks the end first, then calls ``release``; a waiter checks the mark
    after it joined the list, so either it sees the end or ``release`` sees it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    async def wait(self, done: Callable[[], bool], interrupted: Callable[[], None]) -> None:
        """Return once ``done()``; ``interrupted`` runs when the wait itself is interrupted."""
        if done():
            return
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._lock:
            self._waiting.append((loop, future))
        if done() and not future.done():
            future.set_result(None)
        try:
            # Wake a few times a second: a kernel interrupt is delivered when the loop runs,
            # and a loop waiting on a thread's future alone may not run until the end.
            while not future.done():
                await asyncio.wait((future,), timeout=WAKE_INTERVAL)
        except BaseException:
            interrupted()
            raise

    def release(self) -> None:
        """Wake every waiter (after marking the end)."""
        with self._lock:
            waiting, self._waiting = self._waiting, []
        for loop, future in waiting:
            loop.call_soon_threadsafe(_resolve, future)


class Consumer:
    """Reads a source into a channel, in the background; ``wait()`` gives the final state."""

    def __init__(
        self,
        source: Any,
        channel: Channel,
        *,
        recorder: Recorder | None = None,
        idle_timeout: float | None = None,
    ) -> None:
        self.source = source
        """What is being read."""
        self.channel = channel
        """Where chunks go."""
        self.recorder = recorder
        """Also writes every chunk to a recording, when given."""
        self.idle_timeout = idle_timeout
        """Seconds without a chunk after which the run ends with a timeout error."""
        self.error: BaseException | None = None
        """What the source raised, if it failed."""
        self._done = threading.Event()
        # A plain flag, not an Event: the reading loop checks it for every chunk, and a
        # read of an attribute costs a fraction of a call to ``Event.is_set``.
        self._stopping = False
        self._task: asyncio.Task[None] | None = None
        self._thread: threading.Thread | None = None
        self._waiters = Waiters()
        self._start = time.monotonic()
        self._last_chunk = self._start

    @property
    def done(self) -> bool:
        """True once the run ended, whatever the reason."""
        return self._done.is_set()

    def start(self) -> None:
        """Begin reading: a task on the running loop, or a thread."""
        self.channel.start(tick=self._check_idle if self.idle_timeout else None)
        is_async = _is_async_source(self.source)
        if is_async:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                loop = None
            if loop is not None:
                self._task = loop.create_task(self._read_async())
                return
        target = self._read_async_in_thread if is_async else self._read_sync
        self._thread = threading.Thread(target=target, name="chunkscope-source", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop reading (the Stop button): the run ends ``aborted`` at once."""
        if self.done:
            return
        self._stopping = True
        if self._task is not None:
            self._task.get_loop().call_soon_threadsafe(self._task.cancel)
        self._finish(stopped=True)

    async def wait(self) -> RunState:
        """Wait for the end; re-raise what the source raised. Interrupting the wait stops it."""
        await self._waiters.wait(lambda: self.done, self.stop)
        if self.error is not None:
            raise self.error
        return self.channel.state

    def result(self, timeout: float | None = None) -> RunState:
        """Block until the end (for scripts and plain IPython); re-raise the source's error."""
        if self._task is not None and not self.done:
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is self._task.get_loop():
                raise RuntimeError(
                    "result() would block the event loop this async source runs on, so the "
                    "run could never end: use `await view.wait()` (or `await view`) instead"
                )
        try:
            finished = self._done.wait(timeout)
        except BaseException:
            self.stop()
            raise
        if not finished:
            raise TimeoutError(f"the run did not end within {timeout} s")
        if self.error is not None:
            raise self.error
        return self.channel.state

    # ---------------------------------------------------------------- reading

    def _take(self, t: float | None, chunk: Any, where: str | int | None) -> None:
        now = self._last_chunk = time.monotonic()
        if t is None:
            t = (now - self._start) * 1000.0
        if self.recorder is not None:
            # parsed once: the recording and the fold share the model
            parsed = parse_chunk(chunk)
            self.recorder.write(chunk, t, parsed=parsed)
            chunk = parsed
        self.channel.fold(chunk, t, where, now)

    def _read_sync(self) -> None:
        error: BaseException | None = None
        try:
            if self.recorder is None and not isinstance(self.source, Replay):
                self._read_chunks(self.source)
            else:
                for t, chunk, where in _timed_sync(self.source):
                    if self._stopping:
                        break
                    self._take(t, chunk, where)
        except BaseException as exc:  # the source's failure belongs to the run, shown
            error = exc
        self._finish(error=error)

    def _read_chunks(self, source: Iterable[Any]) -> None:
        """``_take`` for every chunk of a plain iterable, inlined: this loop is a good part of
        what a chunk costs the kernel, so it does only what each chunk needs."""
        fold = self.channel.fold
        clock = time.monotonic
        start = self._start
        for index, chunk in enumerate(source):
            if self._stopping:
                break
            now = self._last_chunk = clock()
            fold(chunk, (now - start) * 1000.0, index, now)

    async def _read_async(self) -> None:
        error: BaseException | None = None
        try:
            async for t, chunk, where in _timed_async(self.source):
                if self._stopping:
                    break
                self._take(t, chunk, where)
        except asyncio.CancelledError:
            self._finish(stopped=True)
            return
        except BaseException as exc:
            error = exc
        self._finish(error=error)

    def _read_async_in_thread(self) -> None:
        asyncio.run(self._read_async())

    def _check_idle(self) -> None:
        if self.done or self.idle_timeout is None:
            return
        idle = time.monotonic() - self._last_chunk
        if idle > self.idle_timeout:
            self._stopping = True
            if self._task is not None:
                self._task.get_loop().call_soon_threadsafe(self._task.cancel)
            self._finish(
                error=TimeoutError(
                    f"no chunk for {self.idle_timeout:g} s (idle_timeout); the run was stopped"
                )
            )

    def _finish(self, *, error: BaseException | None = None, stopped: bool = False) -> None:
        if self._done.is_set():
            return
        if error is not None:
            self.error = error
        if self.recorder is not None:
            self.recorder.close()
        self.channel.close(error=error, stopped=stopped)
        self._done.set()
        self._waiters.release()


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _is_async_source(source: Any) -> bool:
    """Only sources that cannot be read synchronously run on the event loop: a source that is
    both (the demo, a replay) is read in a thread, so blocking on it never stalls the loop."""
    return hasattr(source, "__aiter__") and not hasattr(source, "__iter__")


def _timed_sync(source: Any) -> Iterator[tuple[float | None, Any, str | int | None]]:
    """(recorded offset or None, chunk, where) from a sync source."""
    if isinstance(source, Replay):
        yield from source.timed()
        return
    for index, chunk in enumerate(source):
        yield None, chunk, index


async def _timed_async(
    source: Any,
) -> AsyncIterator[tuple[float | None, Any, str | int | None]]:
    if isinstance(source, Replay):
        async for item in source.atimed():
            yield item
        return
    index = 0
    async for chunk in source:
        yield None, chunk, index
        index += 1
