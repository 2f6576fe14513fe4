"""The shape every adapter shares: feed one foreign event, get Mastra chunks back.

An adapter is a small state machine (:class:`StreamAdapter`) plus a driver that runs it over
a sync or async iterable. The rules, the same for every format:

* a foreign event the adapter cannot translate becomes a ``raw`` chunk holding the event
  and the reason, so it stays visible; :meth:`StreamAdapter.feed` never raises;
* when the foreign stream ends, :meth:`StreamAdapter.end` closes whatever is open (and says
  so with an ``error`` chunk when the format has an end marker that never came);
* when the foreign stream *raises*, the driver yields an ``error`` chunk (open parts closed
  first) and then re-raises the exception, so the consumer sees both the chunk and the
  failure.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Callable, Generator, Iterable, Iterator
from typing import Any, ClassVar, TypeVar, overload

from ._json import exception_info, to_jsonable
from ._writer import Chunk, MastraWriter

SOURCE_ENDED: Any = object()
"""What :meth:`StreamAdapter.relay` returns when the source ran out."""

Relay = Generator[Any, None, Any]
"""A :meth:`StreamAdapter.relay`: yields the events that pass, returns the first that does
not (or :data:`SOURCE_ENDED`)."""

Handler = Callable[..., None]
"""A handler method: called as ``handler(adapter, event, ...)``."""

_H = TypeVar("_H", bound=Handler)


def on(*names: str) -> Callable[[_H], _H]:
    """Mark a method as the handler of the foreign events called ``names``.

    The class collects its marked methods into :attr:`StreamAdapter.HANDLERS`; its
    :meth:`~StreamAdapter.handle` looks the event's name up there.
    """

    def mark(method: _H) -> _H:
        method.handles = (*getattr(method, "handles", ()), *names)  # type: ignore[attr-defined]
        return method

    return mark


class StreamAdapter:
    """Base class: subclasses implement :meth:`handle` and may override :meth:`finalize`."""

    format_name = "foreign"
    """Short name of the foreign format, used in messages and ``raw`` chunks."""

    HANDLERS: ClassVar[dict[str, Handler]] = {}
    """Foreign event name → handler method, built from the methods marked with :func:`on`
    (a subclass starts from its parent's table and may replace entries)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        table = dict(cls.HANDLERS)
        for attribute in vars(cls).values():
            for name in getattr(attribute, "handles", ()):
                table[name] = attribute
        cls.HANDLERS = table

    def __init__(self, run_id: str | None = None) -> None:
        self.writer = MastraWriter(run_id)
        """The writer that keeps the produced Mastra stream coherent."""

    def handle(self, event: Any) -> None:
        """Translate one foreign event into writer calls."""
        raise NotImplementedError

    def finalize(self) -> None:
        """Called once when the foreign stream ends normally."""
        self.writer.close_parts()

    def feed(self, event: Any) -> list[Chunk]:
        """Translate one event; never raises (an untranslatable event becomes ``raw``)."""
        try:
            self.handle(event)
        except Exception as exc:
            self.writer.raw(
                {
                    "format": self.format_name,
                    "event": to_jsonable(event),
                    "adapterError": f"could not translate this event: {exc!r}",
                }
            )
        return self.writer.drain()

    def end(self) -> list[Chunk]:
        """Close the stream after the last event; never raises."""
        try:
            self.finalize()
        except Exception as exc:
            self.writer.error(
                {"message": f"{self.format_name} adapter failed at end of stream: {exc!r}"}
            )
        return self.writer.drain()

    def fail(self, exc: BaseException) -> list[Chunk]:
        """Chunks that report the foreign stream raising ``exc`` (open parts closed)."""
        info = exception_info(exc)
        info["message"] = f"{self.format_name} stream raised {info['name']}: {info['message']}"
        self.writer.error(info)
        return self.writer.drain()

    def passes(self, event: Any) -> bool:
        """Whether ``event`` is already a chunk that ``feed`` would hand back unchanged and
        alone; if so, it is counted as fed. The drivers then skip ``feed`` for it: most
        events of a Mastra stream are such chunks, and this runs once per token."""
        return False

    def relay(
        self, advance: Callable[[], Any], tally: Callable[[int], None] | None = None
    ) -> Relay:
        """Yield the events ``advance`` gives for as long as each :meth:`passes`, and return
        the first that does not, or :data:`SOURCE_ENDED` when ``advance`` ran out (what else it
        raises goes through). ``tally`` is told how many passed, once, when the relay ends.

        The drivers hand a source over to it after an event that passed: in a Mastra stream
        the next ones usually pass too, and an adapter can relay them in one loop of its own
        (see ``MastraChunkAdapter.relay``) instead of a call of :meth:`passes` each."""
        passes = self.passes
        relayed = 0
        try:
            while True:
                try:
                    event = advance()
                except StopIteration:
                    return SOURCE_ENDED
                if not passes(event):
                    return event
                relayed += 1
                yield event
        finally:
            if tally is not None:
                tally(relayed)

    def convert(self, events: Iterable[Any]) -> list[Chunk]:
        """Convert a whole list of events (re-raises what the iterable raises)."""
        return list(self.iter_sync(events))

    def iter_sync(self, source: Iterable[Any]) -> Iterator[Chunk]:
        """Chunks for a sync iterable of foreign events."""
        # Looked up once: this loop runs once per token of a stream.
        advance = iter(source).__next__
        passes = self.passes
        relay = self.relay
        while True:
            try:
                event = advance()
            except StopIteration:
                break
            except Exception as exc:
                yield from self.fail(exc)
                raise
            if passes(event):
                yield event
                try:
                    event = yield from relay(advance)
                except Exception as exc:  # raised by the source, within the relay
                    yield from self.fail(exc)
                    raise
                if event is SOURCE_ENDED:
                    break
            yield from self.feed(event)
        yield from self.end()

    async def iter_async(self, source: AsyncIterable[Any]) -> AsyncIterator[Chunk]:
        """Chunks for an async iterable of foreign events."""
        iterator = source.__aiter__()
        while True:
            try:
                event = await iterator.__anext__()
            except StopAsyncIteration:
                break
            except Exception as exc:
                for chunk in self.fail(exc):
                    yield chunk
                raise
            if self.passes(event):
                yield event
                continue
            for chunk in self.feed(event):
                yield chunk
        for chunk in self.end():
            yield chunk

    @overload
    def stream(self, source: AsyncIterable[Any]) -> AsyncIterator[Chunk]: ...
    @overload
    def stream(self, source: Iterable[Any]) -> Iterator[Chunk]: ...
    def stream(
        self, source: Iterable[Any] | AsyncIterable[Any]
    ) -> Iterator[Chunk] | AsyncIterator[Chunk]:
        """Sync chunks for a sync iterable, async chunks for an async iterable."""
        if isinstance(source, AsyncIterable):
            return self.iter_async(source)
        return self.iter_sync(source)


def as_dict(event: Any) -> dict[str, Any] | None:
    """The event as a plain dict (SDK objects are dumped), or ``None`` when it is not one."""
    if isinstance(event, dict):
        return event
    value = to_jsonable(event)
    return value if isinstance(value, dict) else None
