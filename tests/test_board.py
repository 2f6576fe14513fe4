"""A board of runs on the Python side: sources, concurrency, failures, Stop, rows and messages."""

from __future__ import annotations

import asyncio
import json
import random
import re
import string
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

import chunkscope as cs
from captured_view import RecordingComm
from chunkscope.board.saving import PART_BYTES
from chunkscope.board.summary import tail
from chunkscope.fold.state import RunState
from chunkscope.live.widget import LIVE_LINE, NBVAL_SANITIZE
from chunkscope.wire.persisted import PACKED_ENCODING, unpack_snapshot


class CapturedBoard(cs.RunBoard):
    """A board that keeps what it would send to the page: ``raw`` as sent, ``sent`` as the
    page applies it (a round's messages one by one)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.raw: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []
        super().__init__(*args, **kwargs)

    def send(self, content: Any, buffers: Any = None) -> None:
        message = json.loads(json.dumps(content))
        self.raw.append(message)
        if message.get("kind") == "round":
            self.sent.extend(message["messages"])
        else:
            self.sent.append(message)


def _text_run(label: str, n: int = 20, delay: float = 0.0) -> Iterator[dict[str, Any]]:
    def chunk(kind: str, **payload: Any) -> dict[str, Any]:
        return {"type": kind, "runId": label, "from": "AGENT", "payload": payload}

    yield chunk("start")
    yield chunk("step-start", request={})
    yield chunk("text-start", id="t")
    for i in range(n):
        if delay:
            time.sleep(delay)
        yield chunk("text-delta", id="t", text=f"{label}-{i} ")
    yield chunk("text-end", id="t")
    usage = {"inputTokens": 5, "outputTokens": n, "totalTokens": 5 + n}
    yield chunk("step-finish", stepResult={"reason": "stop"}, output={"usage": usage})
    yield chunk("finish", stepResult={"reason": "stop"}, output={"usage": usage})


def _expected_text(label: str, n: int = 20) -> str:
    return "".join(f"{label}-{i} " for i in range(n))


def test_callable_sources_start_lazily_and_never_more_than_the_concurrency_limit() -> None:
    active = 0
    most = 0
    made: list[str] = []
    lock = threading.Lock()

    def factory(label: str) -> Any:
        def make() -> Iterator[dict[str, Any]]:
            made.append(label)

            def run() -> Iterator[dict[str, Any]]:
                nonlocal active, most
                with lock:
                    active += 1
                    most = max(most, active)
                try:
                    yield from _text_run(label, n=10, delay=0.005)
                finally:
                    with lock:
                        active -= 1

            return run()

        return make

    labels = [f"q{i:02}" for i in range(9)]
    board = CapturedBoard({label: factory(label) for label in labels}, concurrency=3)
    states = board.result(timeout=60)
    assert list(states) == labels
    assert most == 3, f"at most 3 runs at once, and the limit was used (saw {most})"
    assert sorted(made) == labels and len(made) == len(labels)
    for label, state in states.items():
        assert state.status == "finished"
        assert state.text == _expected_text(label, 10)


def test_a_factory_is_not_called_before_its_slot_is_free() -> None:
    release = threading.Event()
    called: list[str] = []

    def first() -> Iterator[dict[str, Any]]:
        called.append("first")
        release.wait(10)
        yield from _text_run("first", n=3)

    def second() -> Iterator[dict[str, Any]]:
        called.append("second")
        yield from _text_run("second", n=3)

    board = CapturedBoard({"first": first, "second": second}, concurrency=1)
    time.sleep(0.4)
    assert called == ["first"], "the second run waits for the first one's slot"
    assert board.table()[1]["status"] == "queued"
    release.set()
    board.result(timeout=30)
    assert called == ["first", "second"]


async def test_async_sources_and_coroutine_functions_run_on_the_kernels_loop() -> None:
    loop = asyncio.get_running_loop()
    seen_loops: list[Any] = []

    async def agen(label: str) -> AsyncIterator[dict[str, Any]]:
        seen_loops.append(asyncio.get_running_loop())
        for chunk in _text_run(label, n=5):
            await asyncio.sleep(0)
            yield chunk

    async def opened() -> AsyncIterator[dict[str, Any]]:
        await asyncio.sleep(0.01)  # a connection being opened
        return agen("coro")

    board = CapturedBoard(
        [("gen", lambda: agen("gen")), ("coro", opened), ("stream", agen("stream"))],
        concurrency=2,
    )
    states = await board.wait()
    assert {label: s.text for label, s in states.items()} == {
        label: _expected_text(label, 5) for label in ("gen", "coro", "stream")
    }
    assert seen_loops and all(seen is loop for seen in seen_loops)


def test_a_failing_source_says_so_in_its_row_and_the_others_go_on() -> None:
    def broken_factory() -> Any:
        raise ConnectionError("the agent's server refused the connection")

    def breaks_midway() -> Iterator[dict[str, Any]]:
        for index, chunk in enumerate(_text_run("mid", n=10)):
            if index == 6:
                raise RuntimeError("the stream broke after three deltas")
            yield chunk

    board = CapturedBoard(
        {
            "good": lambda: _text_run("good"),
            "refused": broken_factory,
            "midway": breaks_midway,
            "also good": lambda: _text_run("also"),
        },
        concurrency=2,
    )
    states = board.result(timeout=30)
    rows = {row["label"]: row for row in board.table()}
    assert rows["good"]["status"] == rows["also good"]["status"] == "finished"
    assert states["also good"].text == _expected_text("also")
    assert rows["refused"]["status"] == "error"
    assert "refused the connection" in str(rows["refused"]["error"])
    assert rows["midway"]["status"] == "error"
    assert "broke after three deltas" in str(rows["midway"]["error"])
    assert states["midway"].full_text == "mid-0 mid-1 mid-2 ", "what came before stays"


def test_stop_one_run_then_all_and_queued_runs_never_start() -> None:
    made: list[str] = []

    def slow(label: str) -> Any:
        def make() -> Iterator[dict[str, Any]]:
            made.append(label)
            return _text_run(label, n=400, delay=0.01)

        return make

    board = CapturedBoard({f"s{i}": slow(f"s{i}") for i in range(5)}, concurrency=3)
    deadline = time.monotonic() + 10
    while not all(board.state(f"s{i}").chunk_count > 3 for i in range(3)):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    board.stop("s1")
    deadline = time.monotonic() + 10
    while board.state("s1").status != "aborted":
        assert time.monotonic() < deadline, board.state("s1").status
        time.sleep(0.02)
    assert board.state("s0").status == "running", "stopping one run leaves the others going"
    board._on_front_end_message(board, {"kind": "stop", "id": None}, [])
    states = board.result(timeout=10)
    assert {s.status for s in states.values()} == {"aborted"}
    assert "s4" not in made or states["s4"].chunk_count < 400, "stopped before it ran through"
    rows = {row["label"]: row for row in board.table()}
    assert rows["s0"]["status"] == "aborted"
    with pytest.raises(KeyError, match="no run labelled 'nope'"):
        board.stop("nope")


def test_a_queued_run_stopped_from_the_page_never_calls_its_factory() -> None:
    made: list[str] = []
    release = threading.Event()

    def first() -> Iterator[dict[str, Any]]:
        release.wait(10)
        yield from _text_run("first", n=2)

    def second() -> Iterator[dict[str, Any]]:
        made.append("second")
        yield from _text_run("second", n=2)

    board = CapturedBoard({"first": first, "second": second}, concurrency=1)
    second_id = board._board.runs[1].id
    board._on_front_end_message(board, {"kind": "stop", "id": second_id}, [])
    release.set()
    states = board.result(timeout=10)
    assert made == []
    assert states["second"].status == "aborted"
    assert states["first"].status == "finished"


def test_rows_reach_the_page_live_and_a_ready_page_gets_them_all() -> None:
    board = CapturedBoard({f"r{i}": (lambda i=i: _text_run(f"r{i}", 30, 0.005)) for i in range(4)})
    board._on_front_end_message(board, {"kind": "ready"}, [])
    board.result(timeout=30)
    time.sleep(0.2)
    messages = [m for m in board.sent if m["kind"] == "board"]
    assert messages[0]["full"] is True and len(messages[0]["rows"]) == 4
    partial = [m for m in messages if not m["full"]]
    assert len(partial) >= 3, "rows are sent as the runs stream, not only at the end"
    seqs = [m["seq"] for m in messages]
    assert seqs == sorted(seqs)
    by_id: dict[str, dict[str, Any]] = {}
    for message in messages:
        if message["full"]:
            by_id = {}
        for row in message["rows"]:
            by_id[row["id"]] = dict(row)
        for change in message["changes"]:
            by_id[change["id"]].update(change)
    assert list(by_id.values()) == board._board.rows(), "the page has every field"
    assert any(
        "tail" in change and "marks" not in change
        for message in partial
        for change in message["changes"]
    ), "a change carries what changed, not the whole row"
    last = {row["label"]: row for row in by_id.values()}
    for i in range(4):
        row = last[f"r{i}"]
        assert row["status"] == "finished"
        assert row["tail"].endswith(f"r{i}-29")
        assert row["outputTokens"] == 30 and row["totalTokens"] == 35
        assert [mark["kind"] for mark in row["marks"]] == ["step"]
    # only the rows: no run's ops went to a page that opened none
    assert {m["kind"] for m in board.sent} == {"board"}


def test_an_opened_run_gets_its_snapshot_then_live_batches_and_closing_stops_them() -> None:
    gate = threading.Event()

    def paced() -> Iterator[dict[str, Any]]:
        for index, chunk in enumerate(cs.demo.stream(speed=0)):
            if index == 10:
                gate.wait(10)
            yield chunk

    board = CapturedBoard({"demo": paced, "other": lambda: _text_run("other", 5)})
    run_id = board._board.runs[0].id
    deadline = time.monotonic() + 10
    while board.state("demo").chunk_count < 10:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    board._on_front_end_message(board, {"kind": "open", "id": run_id}, [])
    gate.set()
    state = board.state("demo")
    board.result(timeout=30)
    time.sleep(0.2)
    run_messages = [m for m in board.sent if m["kind"] == "run"]
    assert {m["id"] for m in run_messages} == {run_id}, "only the opened run sends its ops"
    inner = [m["message"] for m in run_messages]
    assert inner[0]["kind"] == "snapshot"
    assert inner[0]["snapshot"]["run"]["chunkCount"] >= 10, "the run so far, at once"
    batches = [m for m in inner if m["kind"] == "batch"]
    assert batches, "then it goes on live"
    assert any(op["op"] == "transient" for batch in batches for op in batch["ops"]), (
        "transient chunks of the opened run travel live"
    )
    assert batches[-1]["ops"][-1]["set"]["chunkCount"] == state.chunk_count
    # closing it: no more run messages, whatever the run does next
    board._on_front_end_message(board, {"kind": "open", "id": None}, [])
    count = len(board.sent)
    board._on_front_end_message(
        board, {"kind": "run", "id": run_id, "message": {"kind": "rows"}}, []
    )
    assert len(board.sent) == count, "a closed run answers no requests"


def test_a_round_sends_the_opened_runs_batch_and_the_rows_in_one_message() -> None:
    runs = {f"r{i}": (lambda i=i: _text_run(f"r{i}", 40, 0.01)) for i in range(3)}
    board = CapturedBoard(runs)
    opened = board._board.runs[0]
    board._on_front_end_message(board, {"kind": "open", "id": opened.id}, [])
    board.result(timeout=30)
    time.sleep(0.2)
    rounds = [m for m in board.raw if m["kind"] == "round"]
    assert len(rounds) >= 5, "the runs streamed over many rounds"
    for message in rounds:
        kinds = [inner["kind"] for inner in message["messages"]]
        assert kinds == ["run", "board"], kinds
        assert message["messages"][0]["message"]["kind"] == "batch"
    # Nothing sent in a round went on its own besides it: every batch of the opened run is in
    # a round unless no row changed with it, and every row message after the first few too.
    alone = [m for m in board.raw if m["kind"] == "run" and m["message"]["kind"] == "batch"]
    assert len(alone) <= 2, alone
    # The page gets the same as before: the rows in seq order, the run's text whole.
    seqs = [m["seq"] for m in board.sent if m["kind"] == "board"]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    text = "".join(
        op.get("text", "")
        for m in board.sent
        if m["kind"] == "run" and m["message"]["kind"] == "batch"
        for op in m["message"]["ops"]
        if op.get("op") == "append"
    )
    assert _expected_text("r0", 40).endswith(text) and len(text) > 0


def test_the_opened_run_answers_rows_and_held_value_requests() -> None:
    board = CapturedBoard({"demo": lambda: cs.demo.stream(speed=0)})
    board.result(timeout=30)
    run_id = board._board.runs[0].id
    board._on_front_end_message(board, {"kind": "open", "id": run_id}, [])
    board._on_front_end_message(
        board, {"kind": "run", "id": run_id, "message": {"kind": "rows"}}, []
    )
    inner = [m["message"] for m in board.sent if m["kind"] == "run"]
    rows = [m for m in inner if m["kind"] == "rows"]
    assert rows and rows[0]["total"] == board.state("demo").row_count


def test_compare_two_runs_of_the_board() -> None:
    board = CapturedBoard(
        {
            "ok": lambda: cs.demo.stream(speed=0),
            "failing": lambda: cs.demo.stream(speed=0, variant="error"),
        }
    )
    board.result(timeout=30)
    a, b = (run.id for run in board._board.runs)
    board._on_front_end_message(board, {"kind": "compare", "a": a, "b": b}, [])
    answer = board.sent[-1]
    assert answer["kind"] == "compare" and answer["error"] is None
    assert "failing" in answer["html"] and "ok" in answer["html"]
    assert "error" in answer["html"]
    board._on_front_end_message(board, {"kind": "compare", "a": a, "b": "r99"}, [])
    assert "not runs of this board" in board.sent[-1]["error"]


def test_the_table_is_plain_rows_and_its_text_is_deterministic_and_sorted_by_label() -> None:
    sources = {
        "b second": lambda: cs.demo.stream(speed=0),
        "a first": lambda: cs.demo.stream(speed=0, variant="tripwire"),
    }
    first = CapturedBoard(sources)
    first.result(timeout=30)
    second = CapturedBoard(sources)
    second.result(timeout=30)
    table = first.table()
    assert [row["label"] for row in table] == ["b second", "a first"], "the board's order"
    assert list(table[0]) == [
        "label",
        "status",
        "elapsed_s",
        "ttft_s",
        "input_tokens",
        "output_tokens",
        "total_tokens",
        "steps",
        "tool_calls",
        "tool_errors",
        "finish_reason",
        "tripwire",
        "error",
    ]
    assert table[1]["status"] == "tripwire" and table[1]["tripwire"]
    assert isinstance(table[0]["elapsed_s"], float)
    text = repr(table)
    assert text == repr(second.table()), "the text leaves the clock out"
    assert table._repr_html_() == second.table()._repr_html_(), "and so does the HTML"
    assert "tripwire" in table._repr_html_()
    lines = text.splitlines()
    assert lines[0].split()[:2] == ["run", "status"]
    assert lines[1].startswith("a first") and lines[2].startswith("b second")
    assert "tripwire" in lines[1]


def test_to_dataframe_gives_the_same_rows() -> None:
    pandas = pytest.importorskip("pandas")
    board = CapturedBoard({"one": lambda: _text_run("one", 3)})
    board.result(timeout=30)
    frame = board.to_dataframe()
    assert isinstance(frame, pandas.DataFrame)
    assert frame.to_dict("records") == list(board.table())


def test_a_folder_of_recordings_loads_as_a_board(tmp_path: Path) -> None:
    for seed, variant in ((1, "default"), (2, "error"), (3, "tripwire")):
        cs.record(
            cs.demo.stream(speed=0, seed=seed, variant=variant),  # type: ignore[arg-type]
            tmp_path / f"{variant}.jsonl",
        )
    (tmp_path / "notes.txt").write_text("not a recording")
    board = CapturedBoard(tmp_path, concurrency=1)
    states = board.result(timeout=30)
    assert list(states) == ["default", "error", "tripwire"]
    for label, state in states.items():
        alone = cs.accumulate(tmp_path / f"{label}.jsonl")
        assert state.status == alone.status
        assert state.full_text == alone.full_text
        assert state.elapsed_ms == alone.elapsed_ms, "recorded offsets, not the clock"


def test_add_a_run_while_the_board_runs_and_after_it_ended() -> None:
    board = CapturedBoard({"one": lambda: _text_run("one", 5)})
    board.add("two", lambda: _text_run("two", 5))
    board.result(timeout=30)
    board.add("three", _text_run("three", 5))
    states = board.result(timeout=30)
    assert list(states) == ["one", "two", "three"]
    assert states["three"].text == _expected_text("three", 5)
    with pytest.raises(ValueError, match="already on the board"):
        board.add("one", _text_run("again", 1))


def test_bad_sources_are_refused_with_what_was_wrong() -> None:
    with pytest.raises(ValueError, match="used twice"):
        cs.runs([("x", []), ("x", [])], display=False)
    with pytest.raises(TypeError, match=r"expected a \(label, source\) pair"):
        cs.runs(["just a source"], display=False)
    with pytest.raises(FileNotFoundError, match="not a folder"):
        cs.runs("no/such/folder", display=False)
    with pytest.raises(ValueError, match="concurrency"):
        cs.runs({}, concurrency=0, display=False)
    board = CapturedBoard({"not a stream": 42})
    states = board.result(timeout=10)
    assert states["not a stream"].status == "error"
    assert "int" in str(board.table()[0]["error"])


def test_saved_board_keeps_rows_and_the_runs_that_fit_without_transient_chunks() -> None:
    board = CapturedBoard(
        {
            "small": lambda: _text_run("small", 3),
            "demo": lambda: cs.demo.stream(speed=0),
            "large": lambda: _text_run("large", 20_000),
        },
        keep=100_000,
    )
    board.result(timeout=30)
    saved = board.saved
    assert saved is not None
    assert [row["label"] for row in saved["rows"]] == ["small", "demo", "large"]
    ids = {run.label: run.id for run in board._board.runs}
    assert set(saved["runs"]) == {ids["small"], ids["demo"]}, "the large run keeps its row only"
    assert saved["leftOut"] == {ids["large"]: "size"}
    assert saved["keepLimit"] == 100_000
    assert all(run["encoding"] == PACKED_ENCODING for run in saved["runs"].values()), (
        "packed, so a page takes them as binary buffers and unpacks a run only when opened"
    )
    text = json.dumps([unpack_snapshot(run) for run in saved["runs"].values()])
    assert "Weather in Seoul" in text
    assert "data-progress" not in text, "transient chunks are never saved"


def test_two_saves_of_a_board_differ_in_their_first_key() -> None:
    # The page's widget model compares a new saved board with the one it holds key by key,
    # in order, before storing it: a difference only after the kept runs would make it compare
    # megabytes of packed runs byte by byte (a second for 2,000 runs, in one task).
    board = CapturedBoard({f"run{i}": (lambda i=i: _text_run(f"run{i}", 50)) for i in range(3)})
    board.result(timeout=30)
    first = board.saved_state()
    second = board.saved_state()
    assert first["runs"] == second["runs"] and first["rows"] == second["rows"]
    (key, value), (key_again, value_again) = next(iter(first.items())), next(iter(second.items()))
    assert key == key_again == "save"
    assert value != value_again


def _random_text_run(seed: int, chars: int) -> Iterator[dict[str, Any]]:
    """A run whose text does not compress much: its packed snapshot weighs about 0.6 byte a
    character."""
    letters = random.Random(seed)
    piece = 1000
    for chunk in _text_run(f"run{seed}", chars // piece):
        if chunk["type"] == "text-delta":
            text = "".join(letters.choice(string.ascii_lowercase) for _ in range(piece))
            chunk = {**chunk, "payload": {**chunk["payload"], "text": text}}
        yield chunk


def test_a_large_saved_board_reaches_the_page_in_messages_of_a_quarter_megabyte() -> None:
    # Each message is one task of the page: 2,000 kept runs in one 13 MB message held it for
    # 150-250 ms, in messages of 1 MB up to 100 ms each. Every run is still kept, over the
    # ``saved`` trait and its parts.
    comm = RecordingComm()
    sources = {f"run{i}": (lambda i=i: _random_text_run(i, 40_000)) for i in range(60)}
    board = CapturedBoard(sources)
    board.comm = comm
    board.result(timeout=60)
    kept = board.kept()
    assert len(kept) == 60
    total = sum(len(run["data"]) for run in kept.values())
    assert total > 1_000_000
    # The final save: ``saved``, then each part in an update of its own.
    finals = [
        (state, buffers)
        for state, buffers in comm.updates
        if any(key.startswith("saved") for key in state)
    ]
    last_saved = max(i for i, (state, _) in enumerate(finals) if "saved" in state)
    parts = board.saved["runParts"] if board.saved else 0
    assert parts >= 4
    sent = finals[last_saved : last_saved + 1 + parts]
    assert [sorted(state) for state, _ in sent] == [["saved"]] + [
        [f"saved_runs_{index}"] for index in range(1, parts + 1)
    ]
    # The packed runs travel as the messages' binary buffers.
    weights = [sum(len(buffer) for buffer in buffers) for _, buffers in sent]
    assert all(weight <= 250_000 for weight in weights), weights
    assert sum(weights) == total


def test_the_rows_of_a_large_board_reach_the_page_in_parts_of_a_quarter_megabyte_too(
    tmp_path: Path,
) -> None:
    # Rows weigh about 560 bytes each (most of it the tail and the marks): those of 2,000 runs
    # in the one ``saved`` message were 1.1 MB, a long task of the page of their own.
    for n in range(900):
        lines = [
            json.dumps({"t": i, "chunk": chunk})
            for i, chunk in enumerate(_text_run(f"run{n:03d}", 40))
        ]
        (tmp_path / f"run{n:03d}.jsonl").write_text("\n".join(lines) + "\n")
    comm = RecordingComm()
    board = CapturedBoard(tmp_path, keep_total=200_000)
    board.comm = comm
    board.result(timeout=60)
    saved = board.saved
    assert saved is not None
    parts = saved["runParts"]
    assert parts >= 2
    finals = [state for state, _ in comm.updates if any(k.startswith("saved") for k in state)]
    last = max(i for i, state in enumerate(finals) if "saved" in state)
    sent = finals[last : last + 1 + parts]
    assert [sorted(state) for state in sent] == [["saved"]] + [
        [f"saved_runs_{index}"] for index in range(1, parts + 1)
    ]

    # Each message under the limit, rows included (the kept runs travel as binary buffers).
    def size(value: Any) -> int:  # as the kernel writes the message, buffers apart
        return len(json.dumps(value, ensure_ascii=False, default=lambda _: ""))

    fields = size({k: v for k, v in saved.items() if k not in ("rows", "runs")})
    sizes = [size(state) for state in sent]
    # About PART_BYTES: the separators between rows, and the kept runs' fields besides their
    # packed bytes, are not weighed.
    assert sizes[0] <= PART_BYTES * 1.05 + fields, (sizes, fields)
    assert max(sizes[1:]) <= PART_BYTES * 1.05, sizes
    # The page puts the rows back together in order: the saved board's, then each part's.
    rows = list(saved["rows"])
    for state in sent[1:]:
        part = next(iter(state.values()))
        assert part["save"] == saved["save"]
        rows += part.get("rows", [])
    assert [row["label"] for row in rows] == [f"run{n:03d}" for n in range(900)]
    assert rows == board.saved_state(runs=False)["rows"]
    assert len(board.kept()) > 0, "the kept runs follow the rows"


def test_a_finished_board_keeps_its_time_axis_where_its_last_run_ended() -> None:
    board = CapturedBoard({"one": lambda: _text_run("one", 5)})
    board.result(timeout=30)
    ended = board.saved_state()["elapsedMs"]
    time.sleep(0.05)
    assert board.saved_state()["elapsedMs"] == ended, "saved or written out later"
    board.sent.clear()
    board._board.send_all()
    assert [message["elapsedMs"] for message in board.sent if message.get("kind") == "board"] == [
        round(ended, 1)
    ], "a page that asks again later"


def test_the_saved_board_stops_keeping_runs_at_its_total_budget() -> None:
    sources = {f"run{i}": (lambda i=i: _text_run(f"run{i}", 300)) for i in range(6)}
    board = CapturedBoard(sources, keep_total=10**9)
    board.result(timeout=30)
    assert len(board.kept()) == 6
    one = len(board.kept()["r0"]["data"])
    budget = CapturedBoard(sources, keep_total=3 * one + one // 2)
    budget.result(timeout=30)
    assert budget.saved is not None
    assert sorted(budget.kept()) == ["r0", "r1", "r2"]
    assert budget.saved["leftOut"] == {"r3": "total", "r4": "total", "r5": "total"}
    assert len(budget.saved["rows"]) == 6, "every run keeps its row"


def test_a_board_of_many_runs_shows_its_table_as_text_in_the_readable_html() -> None:
    # JupyterLab's table of contents sanitizes every output's text/html tag by tag in one
    # task: a 100-row HTML table took 60-80 ms of the page on each display update.
    board = CapturedBoard(
        {f"run{i:03d}": (lambda i=i: _text_run(f"run{i}", 2)) for i in range(100)}
    )
    board.result(timeout=30)
    _plain, rich = board.readable()
    assert "<table" not in rich and '<pre class="cs-static">' in rich
    assert rich.count("<") < 20
    assert all(f"run{i:03d}" in rich for i in range(100))
    small = CapturedBoard({f"run{i}": (lambda i=i: _text_run(f"run{i}", 2)) for i in range(3)})
    small.result(timeout=30)
    assert "<table" in small.readable()[1]


def test_the_output_bundle_is_the_table_and_nbval_compares_only_its_stable_head() -> None:
    board = CapturedBoard({"one": lambda: _text_run("one", 3)}, title="sweep")
    before, before_html = board.readable()
    board.result(timeout=30)
    after, after_html = board.readable()
    assert after.startswith(f"RunBoard(title='sweep')\n{LIVE_LINE}1 runs, all ended\n")
    assert repr(board.table()) in after
    assert "<table" in after_html and "finished" in after_html

    def sanitized(text: str) -> str:
        for regex, replacement in NBVAL_SANITIZE.items():
            text = re.sub(regex, replacement, text)
        return text

    assert sanitized(before) == sanitized(after) == "RunBoard(title='sweep')\n" + LIVE_LINE.rstrip()
    assert sanitized(before_html) == sanitized(after_html)


def test_write_html_of_a_board_embeds_its_rows_and_the_runs_it_keeps(tmp_path: Path) -> None:
    from chunkscope.wire.schema import BOARD_ELEMENT_ID

    board = CapturedBoard(
        {
            "demo": lambda: cs.demo.stream(speed=0),
            "big": lambda: _text_run("big", 20_000),
        },
        title="sweep <b>",
        keep=100_000,
    )
    board.result(timeout=30)
    page = cs.write_html(board, tmp_path / "board.html").read_text(encoding="utf-8")
    assert "<title>sweep &lt;b&gt;</title>" in page
    found = re.search(
        rf'<script type="application/json" id="{BOARD_ELEMENT_ID}">(.*?)</script>', page, re.S
    )
    assert found is not None
    saved = json.loads(found.group(1))
    assert [row["label"] for row in saved["rows"]] == ["demo", "big"]
    assert list(saved["runs"]) == [board._board.runs[0].id], "the big run is its row only"
    snapshot = saved["runs"][board._board.runs[0].id]
    assert "held" not in json.dumps(snapshot["parts"]) or all(
        not part.get("held") for part in snapshot["parts"]
    ), "no kernel to ask: every value is whole"
    assert "<noscript>" in page and "finished" in page.split("<noscript>")[1]
    assert "data-progress" not in page


def test_a_large_boards_readable_output_lists_a_hundred_runs_and_says_how_many_more() -> None:
    board = CapturedBoard({f"run{i:03d}": [] for i in range(105)})
    board.result(timeout=30)
    plain, rich = board.readable()
    lines = plain.splitlines()
    assert lines[3].startswith("run000") and lines[102].startswith("run099")
    assert lines[-1] == "… and 5 more runs: board.table() has them all"
    assert "run100" not in plain and "run100" not in rich
    assert "5 more runs" in rich
    assert len(board.table()) == 105


def test_a_page_that_cannot_be_sent_to_does_not_stop_the_runs_or_their_end(
    capsys: pytest.CaptureFixture[str],
) -> None:
    class Unsendable(CapturedBoard):
        def send(self, content: Any, buffers: Any = None) -> None:
            raise ConnectionError("the comm is closed")

    board = Unsendable({f"r{i}": (lambda i=i: _text_run(f"r{i}", 5)) for i in range(3)})
    states = board.result(timeout=30)
    assert {state.status for state in states.values()} == {"finished"}
    assert "could not update its page (ConnectionError: the comm is closed)" in (
        capsys.readouterr().err
    )


async def test_result_on_the_loop_the_board_starts_its_runs_on_says_to_await() -> None:
    board = CapturedBoard({"one": lambda: _text_run("one", 3)})
    with pytest.raises(RuntimeError, match=r"await board.wait\(\)"):
        board.result(timeout=5)
    states = await board.wait()
    assert states["one"].status == "finished"
    assert board.result(timeout=1) == states, "once ended, result() just returns"


def test_a_run_added_just_as_the_board_ends_is_never_left_unstarted() -> None:
    # The schedule stops once every run ended; a run added at that very moment (here: from
    # inside the round that found every run ended) must find it still going.
    board = CapturedBoard({"first": [_text_run("first", 2)][0]})
    engine = board._board
    original = engine._round
    added: list[str] = []

    def round_then_add() -> bool:
        ended = original()
        if ended and not added:
            added.append("late")
            board.add("late", _text_run("late", 2))
        return ended

    engine._round = round_then_add  # type: ignore[method-assign]
    board.result(timeout=10)  # may return as "first" ends, before "late" was added
    deadline = time.monotonic() + 10
    while not added:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    states = board.result(timeout=10)
    assert list(states) == ["first", "late"]
    assert states["late"].text == _expected_text("late", 2)


def _saves(comm: RecordingComm) -> list[dict[str, Any]]:
    """The saved boards the page received, in order."""
    return [state["saved"] for state, _ in comm.updates if state.get("saved") is not None]


def test_a_cell_that_waits_sends_the_ended_board_once_and_the_schedule_leaves_it_to_it() -> None:
    # A board of 2,000 kept runs weighs 9 MB; sent by the schedule and again by the cell that
    # waited (whose messages a notebook executed headless keeps), the page took it twice.
    comm = RecordingComm()
    board = CapturedBoard({label: (lambda label=label: _text_run(label)) for label in "abc"})
    board.comm = comm
    board.result(timeout=30)
    saves = _saves(comm)
    assert len(saves) == 1
    assert sorted(row["label"] for row in saves[0]["rows"]) == ["a", "b", "c"]
    assert len(board.kept()) == 3
    # A cell that waits again later (the board long ended) sends it again, for its own cell.
    board.result(timeout=30)
    assert len(_saves(comm)) == 2


def test_an_ended_board_nobody_waits_for_is_saved_by_its_schedule() -> None:
    comm = RecordingComm()
    board = CapturedBoard({"a": lambda: _text_run("a")})
    board.comm = comm
    deadline = time.monotonic() + 30
    while not _saves(comm) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(_saves(comm)) == 1 and len(board.kept()) == 1


def test_a_cell_that_stopped_waiting_before_the_end_leaves_the_save_to_the_schedule() -> None:
    comm = RecordingComm()
    board = CapturedBoard({"slow": lambda: _text_run("slow", n=20, delay=0.02)})
    board.comm = comm
    with pytest.raises(TimeoutError):
        board.result(timeout=0.05)
    assert _saves(comm) == []
    deadline = time.monotonic() + 30
    while not _saves(comm) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(_saves(comm)) == 1 and board.kept().keys() == {"r0"}


def test_a_rows_tail_is_the_end_of_the_text_however_it_was_read() -> None:
    # The row's tail reads the end of each text without joining it; whether the text was
    # joined before (a snapshot), partly or not at all, the tail is the text's last
    # characters, across blocks, on one line.
    words = [f"w{i}{' ' if i % 7 else chr(10)}" for i in range(400)]
    for read_every in (0, 1, 13, 150):
        state = RunState()
        state.handle({"type": "start", "runId": "r", "payload": {}}, 0.0)
        state.handle({"type": "text-start", "runId": "r", "payload": {"id": "a"}}, 1.0)
        for i, word in enumerate(words[:300]):
            delta = {"type": "text-delta", "runId": "r", "payload": {"id": "a", "text": word}}
            state.handle(delta, 2.0 + i)
            if read_every and i % read_every == 0:
                assert state.text.endswith(word)
        state.handle({"type": "text-end", "runId": "r", "payload": {"id": "a"}}, 400.0)
        state.handle({"type": "text-start", "runId": "r", "payload": {"id": "b"}}, 401.0)
        for i, word in enumerate(words[300:302]):
            delta = {"type": "text-delta", "runId": "r", "payload": {"id": "b", "text": word}}
            state.handle(delta, 402.0 + i)
        whole = "".join(words[:302])
        for size in (1, 5, 40, 120, 5_000):
            assert tail(state, size) == " ".join(whole[-size:].split()), (read_every, size)


def test_the_board_sends_its_style_sheet_for_its_shadow_root_and_none_for_the_pages_head() -> None:
    # The page draws a board in a shadow root of its output, out of reach of JupyterLab's
    # sheets. anywidget would put a `_css` sheet into the page's head, where it reaches
    # nothing of the board; the page puts `_styles` into the shadow root instead.
    board = cs.runs({})
    state = board.get_state()
    assert "_css" not in state
    built = Path(cs.__file__).parent / "static" / "board.css"
    assert state["_styles"] == built.read_text(encoding="utf-8")
    assert ".cs-brow" in state["_styles"] and ".cs-transcript" in state["_styles"]


def test_the_libraries_go_to_a_page_that_asks_and_with_a_save_that_keeps_runs_whole() -> None:
    # The board's module leaves out marked, DOMPurify and highlight.js: its rows never need
    # them, and a run opened on the board asks for them when it first draws its text.
    board = CapturedBoard({"small": lambda: _text_run("small", 3)})
    assert board._libraries == ""
    module = (Path(cs.__file__).parent / "static" / "board.js").read_text(encoding="utf-8")
    for words in ("input parameter is undefined or null", "dompurify", "Language definition for"):
        assert words not in module
    board._on_front_end_message(board, {"kind": "libraries"}, [])
    given = board._libraries
    assert "dompurify" in given and "Language definition for" in given
    board._on_front_end_message(board, {"kind": "libraries"}, [])
    assert board._libraries is given, "asked again: the same module, not another message"
    board.result(timeout=30)

    # A saved board whose runs are kept whole opens them without a kernel to ask: the save
    # sets the libraries. One that keeps rows only does not need them.
    kept = CapturedBoard({"small": lambda: _text_run("small", 3)})
    assert kept._libraries == ""
    kept.result(timeout=30)
    assert kept.kept() and kept._libraries == given
    assert "_libraries" in kept.get_state()
    rows_only = CapturedBoard({"large": lambda: _text_run("large", 3)}, keep=10)
    rows_only.result(timeout=30)
    assert not rows_only.kept() and rows_only._libraries == ""
