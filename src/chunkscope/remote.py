"""Runs on Ray workers, streamed back chunk by chunk: only the folding stays in the kernel.

A Ray task declared with ``num_returns="streaming"`` that yields chunks returns an
``ObjectRefGenerator``: a ref for each chunk, as the worker yields it. :func:`ray_chunks`
turns that generator into an async iterator of the chunks, which ``cs.show()`` (and a board
of many runs) reads like any other async stream. :func:`ray_source` goes one step further: it
makes a zero-argument callable that starts the remote run only when it is called, so a board
of many runs starts each one when it has room for it::

    import ray
    import chunkscope as cs
    from chunkscope.remote import ray_source

    @ray.remote
    def agent(question):
        yield from my_agent_stream(question)  # Mastra chunk dicts

    view = await cs.show(ray_source(agent, "What's the weather in Seoul?")())

This module needs Ray (``pip install "chunkscope[ray]"``), imported on first use: importing
chunkscope, or this module, does not import it. See ``docs/remote.md``, which also describes
the fallback for engines that cannot stream (workers write recordings into a folder).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

from .adapters._optional import optional_import, require


def _ray(feature: str) -> Any:
    """The ``ray`` module, or the ImportError that says how to install it."""
    ray = optional_import("ray", extra="ray")
    require(ray, feature)
    return ray


def ray_chunks(ref_generator: Any) -> AsyncIterator[Any]:
    """The chunks of a Ray streaming task, each as soon as the worker yields it.

    ``ref_generator`` is the ``ObjectRefGenerator`` that calling a task declared (or called
    through ``.options()``) with ``num_returns="streaming"`` returns. Each ref is awaited as
    it arrives, so a chunk reaches the consumer while the task is still running. When the
    task raises, the iteration raises Ray's exception (a ``RayTaskError`` that is also an
    instance of the task's own exception class, its message the worker's traceback), which
    ``cs.show()`` shows as the run's error. When the consumer stops early (a stopped run, a
    ``break``), the remote task is cancelled, so its worker is free for the next run.
    """
    ray = _ray("chunkscope.remote.ray_chunks()")
    if not hasattr(ref_generator, "__anext__"):
        raise TypeError(
            "ray_chunks() reads the ObjectRefGenerator of a task called with "
            f'num_returns="streaming", not a {type(ref_generator).__name__}; '
            "ray_source() makes that call for you"
        )
    return _chunks(ray, ref_generator)


async def _chunks(ray: Any, refs: Any) -> AsyncIterator[Any]:
    try:
        async for ref in refs:
            yield await ref
    except (GeneratorExit, asyncio.CancelledError):
        # The consumer stopped early (a stopped run, a ``break``): the running task is
        # stopped too. A task that ended, done or raised (its exception passes through here
        # untouched), is left alone: cancelling a task that already failed can meet Ray's
        # reply for it and abort the whole process (a failed check in Ray's task manager).
        # Cancelling must not hide why the iteration ended, so its own failure (Ray already
        # shut down) is not raised.
        with contextlib.suppress(Exception):
            ray.cancel(refs)
        raise


def ray_source(remote_fn: Any, /, *args: Any, **kwargs: Any) -> Callable[[], AsyncIterator[Any]]:
    """A zero-argument callable that starts ``remote_fn(*args, **kwargs)`` on Ray when called
    and returns its chunks (:func:`ray_chunks`).

    ``remote_fn`` is a ``@ray.remote`` function (or an actor method) that yields chunks, or a
    plain generator function, which is made a remote function here. Nothing runs until the
    callable is called: a board of many runs calls it when it starts that run. Each call
    starts a new remote run, through ``remote_fn.options(num_returns="streaming")``.
    """
    ray = _ray("chunkscope.remote.ray_source()")
    task = remote_fn if _is_remote(remote_fn) else _as_remote(ray, remote_fn)

    def start() -> AsyncIterator[Any]:
        return ray_chunks(task.options(num_returns="streaming").remote(*args, **kwargs))

    return start


def _is_remote(fn: Any) -> bool:
    """Whether ``fn`` is already something Ray runs (``.options()`` and ``.remote()``)."""
    return callable(getattr(fn, "options", None)) and callable(getattr(fn, "remote", None))


def _as_remote(ray: Any, fn: Any) -> Any:
    if not callable(fn):
        raise TypeError(
            "ray_source() runs a @ray.remote function or a generator function that yields "
            f"chunks, not a {type(fn).__name__}"
        )
    return ray.remote(fn)
