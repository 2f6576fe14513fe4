"""Runs on Ray workers, streamed back chunk by chunk (``chunkscope.remote``), on a local Ray
instance of two CPUs started once for the module."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

import chunkscope as cs
from chunkscope.fold.state import RunState
from chunkscope.remote import ray_chunks, ray_source


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[Any]:
    import ray

    # The workers cannot import this test module: its functions travel by value.
    module = sys.modules[__name__]
    ray.cloudpickle.register_pickle_by_value(module)
    with pytest.MonkeyPatch.context() as env:
        # Nothing leaves the machine: no usage report from the local instance.
        env.setenv("RAY_USAGE_STATS_ENABLED", "0")
        _start_local_ray(ray)
        try:
            yield ray
        finally:
            ray.shutdown()
            ray.cloudpickle.unregister_pickle_by_value(module)


def _start_local_ray(ray: Any, attempts: int = 2) -> None:
    """``ray.init`` of a local instance, tried again once: on a loaded machine its raylet
    may give up waiting for one of its own helper processes the first time."""
    for attempt in range(1, attempts + 1):
        try:
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
            return
        except Exception:
            ray.shutdown()
            if attempt == attempts:
                raise


# The functions the workers run: plain generator functions of Mastra chunks. Ray sends values
# into a streaming generator, so a list is yielded by a loop (`yield from` a list would call
# the list iterator's missing send()).


def demo_run(prompt: str = "What's the weather in Seoul?", variant: Any = "default") -> Any:
    yield from cs.demo.stream(prompt, speed=0, variant=variant)


def sweep_run(make: Callable[[], cs.demo.DemoStream]) -> Any:
    yield from make()


def pausing_run(pause: float) -> Any:
    """The demo run with a pause of ``pause`` seconds after its first chunk (in short sleeps,
    so that a cancelled task stops at once)."""
    chunks = list(cs.demo.stream(speed=0))
    yield chunks[0]
    deadline = time.monotonic() + pause
    while time.monotonic() < deadline:
        time.sleep(0.05)
    for chunk in chunks[1:]:  # noqa: UP028
        yield chunk


def failing_run() -> Any:
    for chunk in list(cs.demo.stream(speed=0))[:5]:  # noqa: UP028
        yield chunk
    raise RuntimeError("the weather station caught fire")


async def fold(stream: AsyncIterator[Any]) -> RunState:
    state = RunState()
    async for chunk in stream:
        state.handle(chunk)
    state.close()
    return state


def same_run(remote: RunState, local: RunState) -> None:
    assert remote.status == local.status
    assert remote.full_text == local.full_text
    assert remote.reasoning_text == local.reasoning_text
    assert [(c.tool_name, c.args, c.result, c.error) for c in remote.tool_calls] == [
        (c.tool_name, c.args, c.result, c.error) for c in local.tool_calls
    ]
    assert remote.usage == local.usage
    assert remote.chunk_count == local.chunk_count


async def test_a_streaming_task_folds_like_the_same_run_made_locally(ray_cluster: Any) -> None:
    task = ray_cluster.remote(demo_run)
    state = await fold(ray_chunks(task.options(num_returns="streaming").remote()))
    same_run(state, cs.accumulate(cs.demo.stream(speed=0)))
    assert state.status == "finished"


@pytest.mark.parametrize("variant", ["error", "tripwire"])
async def test_ray_source_of_a_plain_generator_function(ray_cluster: Any, variant: str) -> None:
    source = ray_source(demo_run, "What's the weather in Lisbon?", variant=variant)
    state = await fold(source())
    local = cs.accumulate(cs.demo.stream("What's the weather in Lisbon?", speed=0, variant=variant))
    same_run(state, local)
    assert state.status == variant
    assert state.tool_calls[0].args["city"] == "Lisbon"


async def test_several_remote_runs_of_a_sweep_run_at_once_and_each_completes(
    ray_cluster: Any,
) -> None:
    sweep = cs.demo.sweep(5, speed=0)
    remote = ray_cluster.remote(sweep_run)  # a @ray.remote function works as well
    sources = {label: ray_source(remote, make) for label, make in sweep.items()}
    states = await asyncio.gather(*(fold(start()) for start in sources.values()))
    for (label, make), state in zip(sweep.items(), states, strict=True):
        same_run(state, cs.accumulate(make()))
        assert state.ended, label
    assert sorted(s.status for s in states) == [
        "error",
        "finished",
        "finished",
        "finished",
        "tripwire",
    ]


async def test_a_board_starts_ray_sources_as_it_has_room(ray_cluster: Any) -> None:
    sweep = cs.demo.sweep(6, speed=0, seed=1)
    board = cs.runs(
        {label: ray_source(sweep_run, make) for label, make in sweep.items()},
        concurrency=2,
        display=False,
    )
    states = await board
    assert list(states) == list(sweep)
    for label, make in sweep.items():
        same_run(states[label], cs.accumulate(make()))


async def test_chunks_arrive_while_the_remote_task_is_still_running(ray_cluster: Any) -> None:
    stream = ray_source(pausing_run, 3.0)()
    first = await stream.__anext__()
    got_first = time.monotonic()
    assert first["type"] == "start"
    rest = [chunk async for chunk in stream]
    # the first chunk was in hand while the task slept, seconds before its last one came
    assert time.monotonic() - got_first >= 2.5
    assert rest[-1]["type"] == "finish"


async def test_a_remote_task_that_raises_ends_the_stream_with_rays_exception(
    ray_cluster: Any,
) -> None:
    seen: list[Any] = []
    with pytest.raises(RuntimeError, match="the weather station caught fire") as raised:
        async for chunk in ray_source(failing_run)():
            seen.append(chunk)
    assert len(seen) == 5  # the chunks before the failure still arrived
    assert isinstance(raised.value, ray_cluster.exceptions.RayTaskError)
    assert "failing_run" in str(raised.value)  # Ray's message names the remote function


async def test_show_reports_the_remote_failure_as_the_runs_error(ray_cluster: Any) -> None:
    view = cs.show(ray_source(failing_run)(), display=False, title="remote")
    with pytest.raises(RuntimeError, match="the weather station caught fire"):
        await view
    state = view.state
    assert state.status == "error"
    # what the worker yielded before it raised is kept
    before = cs.accumulate(list(cs.demo.stream(speed=0))[:5])
    assert state.reasoning_text == before.reasoning_text != ""
    assert "the weather station caught fire" in state.run_info()["error"]


async def test_a_remote_task_that_raised_is_not_cancelled(
    ray_cluster: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Cancelling a task Ray already holds as failed can abort the driver process, the
    # kernel: a failed run's stream ends with its error and nothing else is sent to Ray.
    cancelled: list[Any] = []
    monkeypatch.setattr(ray_cluster, "cancel", lambda *args, **kwargs: cancelled.append(args))
    view = cs.show(ray_source(failing_run)(), display=False, title="remote")
    with pytest.raises(RuntimeError, match="the weather station caught fire"):
        await view
    assert view.state.status == "error"
    assert cancelled == []


async def test_stopping_early_cancels_the_remote_task(ray_cluster: Any) -> None:
    refs = ray_cluster.remote(pausing_run).options(num_returns="streaming").remote(120.0)
    stream = ray_chunks(refs)
    assert (await stream.__anext__())["type"] == "start"
    await stream.aclose()  # what a stopped run does to its stream

    async def rest() -> None:
        async for ref in refs:
            await ref

    # cancelled, the task ends at once instead of sleeping for two minutes
    with pytest.raises(ray_cluster.exceptions.TaskCancelledError):
        await asyncio.wait_for(rest(), timeout=30)


async def test_ray_chunks_needs_a_streaming_call(ray_cluster: Any) -> None:
    ref = ray_cluster.put([{"type": "start"}])
    with pytest.raises(TypeError, match='num_returns="streaming"'):
        ray_chunks(ref)


def test_ray_source_starts_a_new_run_each_time_it_is_called_and_not_before() -> None:
    calls: list[tuple[str, Any]] = []

    class Refs:
        async def __anext__(self) -> Any:
            raise StopAsyncIteration

    class RemoteFunction:
        def options(self, **options: Any) -> RemoteFunction:
            calls.append(("options", options))
            return self

        def remote(self, *args: Any, **kwargs: Any) -> Refs:
            calls.append(("remote", (args, kwargs)))
            return Refs()

    source = ray_source(RemoteFunction(), "Seoul", unit="C")
    assert calls == []
    source()
    source()
    started = [("options", {"num_returns": "streaming"}), ("remote", (("Seoul",), {"unit": "C"}))]
    assert calls == started * 2


def test_without_ray_the_error_says_which_extra_installs_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as if not installed
    with pytest.raises(ImportError, match=r"pip install 'chunkscope\[ray\]'"):
        ray_source(demo_run)
    with pytest.raises(ImportError, match=r"chunkscope\[ray\]"):
        ray_chunks(object())


def test_importing_chunkscope_and_its_remote_module_does_not_import_ray() -> None:
    code = "import sys, chunkscope, chunkscope.remote; print('ray' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "False"
