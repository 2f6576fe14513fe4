"""The WHATWG event-stream parser: line ends, fields, splitting and decoding."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkscope.adapters.sse_parser import SSEEvent, SSEParser, aparse_sse, parse_sse


def feed_all(pieces: list[bytes]) -> tuple[list[SSEEvent], SSEParser]:
    parser = SSEParser()
    events: list[SSEEvent] = []
    for piece in pieces:
        events += parser.feed(piece)
    events += parser.close()
    return events, parser


def one_byte_at_a_time(data: bytes) -> list[bytes]:
    return [data[i : i + 1] for i in range(len(data))]


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_every_line_ending_dispatches_the_same_events(newline: bytes) -> None:
    data = newline.join(
        [b"event: greet", b"data: hello", b"data: world", b"", b"data: 2", b"", b""]
    )
    events, _ = feed_all([data])
    assert events == [
        SSEEvent(event="greet", data="hello\nworld", id=""),
        SSEEvent(event="message", data="2", id=""),
    ]


def test_cr_at_the_end_of_one_feed_and_lf_at_the_start_of_the_next_are_one_line_end() -> None:
    events, _ = feed_all([b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n"])
    assert events == [SSEEvent(event="message", data="a\nb", id="")]


def test_a_lone_cr_at_the_end_of_a_feed_ends_the_line_at_once() -> None:
    parser = SSEParser()
    assert parser.feed(b"data: x\r") == []
    assert parser.feed(b"\r") == [SSEEvent(event="message", data="x", id="")]


def test_leading_bom_is_dropped_once_even_when_split() -> None:
    bom = "\ufeff".encode()
    events, _ = feed_all([bom[:1], bom[1:] + b"data: \xef\xbb\xbfkept\n\n"])
    assert events[0].data == "\ufeffkept"


def test_comments_unknown_fields_and_field_without_colon() -> None:
    events, _ = feed_all([b": keep-alive\nfoo: bar\ndata\ndata:x\n\n"])
    assert events == [SSEEvent(event="message", data="\nx", id="")]


def test_only_one_leading_space_is_removed() -> None:
    events, _ = feed_all([b"data:  two spaces\n\n"])
    assert events[0].data == " two spaces"


def test_id_persists_and_an_id_with_nul_is_ignored() -> None:
    events, parser = feed_all([b"id: 7\ndata: a\n\nid: bad\x00id\ndata: b\n\nid\ndata: c\n\n"])
    assert [e.id for e in events] == ["7", "7", ""]
    assert parser.last_event_id == ""


def test_retry_accepts_only_ascii_digits() -> None:
    events, parser = feed_all(
        [b"retry: 1500\ndata: a\n\nretry: 12x\ndata: b\n\nretry: \xd9\xa3\ndata: c\n\n"]
    )
    assert parser.retry == 1500
    assert [e.retry for e in events] == [1500, 1500, 1500]


def test_an_event_without_data_is_not_dispatched_and_its_type_is_reset() -> None:
    events, _ = feed_all([b"event: ping\n\ndata: x\n\n"])
    assert events == [SSEEvent(event="message", data="x", id="")]


def test_multibyte_characters_split_across_feeds_decode_whole() -> None:
    data = "data: 안녕하세요 😀\n\n".encode()
    events, _ = feed_all(one_byte_at_a_time(data))
    assert events[0].data == "안녕하세요 😀"


def test_invalid_utf8_is_replaced_not_fatal() -> None:
    events, _ = feed_all([b"data: ok \xff\xfe end\n\n", b"data: cut \xe2\x82"])
    assert events == [SSEEvent(event="message", data="ok \ufffd\ufffd end", id="")]


def test_an_unfinished_event_is_discarded_and_reported() -> None:
    parser = SSEParser()
    assert parser.feed(b"data: complete\n\ndata: partial") == [SSEEvent("message", "complete", "")]
    assert parser.close() == []
    assert parser.incomplete
    assert parser.events_dispatched == 1


def test_str_input_is_accepted() -> None:
    assert list(parse_sse(["data: a\n", "\n"])) == [SSEEvent("message", "a", "")]


async def test_async_parsing() -> None:
    async def pieces():  # type: ignore[no-untyped-def]
        for piece in one_byte_at_a_time(b"event: e\ndata: 1\n\n"):
            yield piece

    assert [e async for e in aparse_sse(pieces())] == [SSEEvent("e", "1", "")]


SSE_LINES = st.lists(
    st.one_of(
        st.builds(lambda v: f"data: {v}", st.text(max_size=12)),
        st.builds(lambda v: f"event: {v}", st.text(alphabet="abc_", max_size=6)),
        st.builds(lambda v: f"id: {v}", st.text(max_size=4)),
        st.just(": comment"),
        st.just("retry: 300"),
        st.just(""),
    ),
    max_size=25,
)


@settings(max_examples=150, deadline=None)
@given(
    lines=SSE_LINES,
    newline=st.sampled_from(["\n", "\r\n", "\r"]),
    bom=st.booleans(),
    cuts=st.lists(st.integers(min_value=0, max_value=2000), max_size=12),
)
def test_any_split_points_give_the_same_events(
    lines: list[str], newline: str, bom: bool, cuts: list[int]
) -> None:
    text = ("\ufeff" if bom else "") + newline.join(lines) + newline + newline
    data = text.encode("utf-8")
    whole, _ = feed_all([data])
    points = sorted({c % (len(data) + 1) for c in cuts})
    pieces = [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
    split, _ = feed_all(pieces)
    assert split == whole
    single, _ = feed_all(one_byte_at_a_time(data))
    assert single == whole


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300), st.lists(st.integers(0, 300), max_size=6))
def test_arbitrary_bytes_never_raise_and_split_invariantly(data: bytes, cuts: list[int]) -> None:
    whole, _ = feed_all([data])
    points = sorted({c % (len(data) + 1) for c in cuts})
    pieces = [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
    assert feed_all(pieces)[0] == whole
