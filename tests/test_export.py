"""The standalone run page as a file: what it holds, what it refuses, and the command line."""

from __future__ import annotations

import html
import html.parser
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chunkscope as cs
from chunkscope import _static
from chunkscope.cli import main
from chunkscope.present.export import (
    SNAPSHOT_ELEMENT_ID,
    ExportError,
    embedded_json,
    inline_script,
    page_html,
    write_html,
)

BREAKOUT = "</script><script>window.__x=1</script>"
TRANSIENT_MARKERS = ("downloading readings", "data-progress")


class _ScriptCounter(html.parser.HTMLParser):
    """Counts the script elements an HTML parser opens and closes."""

    def __init__(self) -> None:
        super().__init__()
        self.opened = self.closed = 0

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.opened += tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self.closed += tag == "script"


def script_elements(page: str) -> tuple[int, int]:
    counter = _ScriptCounter()
    counter.feed(page)
    counter.close()
    return counter.opened, counter.closed


def embedded_snapshot(page: str) -> dict[str, object]:
    match = re.search(
        rf'<script type="application/json" id="{SNAPSHOT_ELEMENT_ID}">(.*?)</script>', page, re.S
    )
    assert match is not None, "the page has no embedded snapshot"
    value: dict[str, object] = json.loads(match.group(1))
    return value


@pytest.fixture(scope="module")
def demo_state() -> cs.RunState:
    return cs.accumulate(cs.demo.stream(speed=0), title="weather")


@pytest.fixture
def demo_recording(tmp_path: Path) -> Path:
    path = tmp_path / "weather.jsonl"
    cs.record(cs.demo.stream(speed=0), path)
    return path


def test_page_embeds_the_persisted_run_and_a_static_transcript(demo_state: cs.RunState) -> None:
    page = page_html(demo_state)
    assert embedded_snapshot(page) == json.loads(json.dumps(demo_state.snapshot()))
    noscript = page.split("<noscript>", 1)[1].split("</noscript>", 1)[0]
    assert noscript == demo_state.static_html()
    assert "<title>weather</title>" in page
    for marker in TRANSIENT_MARKERS:
        assert marker not in page


def test_page_needs_nothing_from_the_network(demo_state: cs.RunState) -> None:
    page = page_html(demo_state)
    markup = page.rsplit("<script>", 1)[0]  # the page's own markup, without the inlined code
    assert not re.search(r"<(script|link|img|iframe)[^>]*\s(src|href)=", markup, re.I)
    for cdn in ("unpkg", "jsdelivr", "cdn."):
        assert cdn not in page
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page)
    assert policy is not None
    rules = html.unescape(policy.group(1))
    assert "default-src 'none'" in rules
    assert "img-src data:;" in rules


def test_text_that_closes_script_elements_stays_inside_the_json() -> None:
    chunks = [
        {
            "type": "text-delta",
            "runId": "r",
            "from": "AGENT",
            "payload": {"id": "t", "text": BREAKOUT},
        }
    ]
    state = cs.accumulate(chunks, title=BREAKOUT)
    page = page_html(state)
    # Exactly our two script elements open and close, as a browser's HTML parser reads the
    # page: the JSON one and the bundle (whose code may mention "<script" in a literal).
    assert script_elements(page) == (2, 2)
    assert embedded_snapshot(page)["run"] == json.loads(json.dumps(state.run_info()))
    assert state.text == BREAKOUT


@given(st.text())
def test_embedded_json_reads_back_unchanged_and_has_no_markup(value: str) -> None:
    text = embedded_json({"text": value})
    assert json.loads(text) == {"text": value}
    assert "<" not in text and ">" not in text and "&" not in text


def test_inlined_bundle_has_nothing_the_html_parser_would_act_on() -> None:
    assert inline_script('a="</script>";b=/<!--x/;c=`</SCRIPT`') == (
        'a="\\x3C/script>";b=/\\x3C!--x/;c=`\\x3C/SCRIPT`'
    )
    page = page_html(cs.RunState("t"))
    bundle = page.rsplit("<script>", 1)[1].rsplit("</script>", 1)[0]
    assert "</script" not in bundle.lower() and "<!--" not in bundle


def test_a_stream_view_exports_its_run(tmp_path: Path) -> None:
    view = cs.show(cs.demo.stream(speed=0), title="from a view", display=False)
    state = view.result(timeout=30)
    written = write_html(view, tmp_path / "view.html")
    page = written.read_text(encoding="utf-8")
    assert embedded_snapshot(page)["parts"] == json.loads(json.dumps(state.snapshot()["parts"]))
    assert "<title>from a view</title>" in page


def test_a_recording_exports_with_its_name_as_title(demo_recording: Path, tmp_path: Path) -> None:
    page = write_html(demo_recording, tmp_path / "out.html", title=None).read_text("utf-8")
    snapshot = embedded_snapshot(page)
    assert snapshot["run"]["title"] == "weather"  # type: ignore[index]
    assert snapshot["run"]["status"] == "finished"  # type: ignore[index]


def test_bad_lines_in_a_recording_are_shown_not_fatal(tmp_path: Path) -> None:
    recording = tmp_path / "bad.jsonl"
    recording.write_text('{"type": "start", "payload": {}}\nnot json at all\n', encoding="utf-8")
    page = write_html(recording, tmp_path / "bad.html").read_text("utf-8")
    assert "line 2" in page


def test_what_cannot_be_exported_is_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"write_html\(\): no recording at"):
        write_html(tmp_path / "missing.jsonl", tmp_path / "out.html")
    with pytest.raises(TypeError, match=r"write_html\(\): expected a RunState.*got int"):
        write_html(3, tmp_path / "out.html")
    assert not (tmp_path / "out.html").exists()


def test_a_tree_without_its_built_front_end_says_how_to_build_it(
    demo_state: cs.RunState, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_static, "STATIC_DIR", tmp_path / "static")
    with pytest.raises(ExportError, match=r"standalone\.js' is missing: build it with 'cd js"):
        write_html(demo_state, tmp_path / "out.html")
    assert not (tmp_path / "out.html").exists()


def test_command_line_writes_the_page(
    demo_recording: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", str(demo_recording)]) == 0
    target = demo_recording.with_suffix(".html")
    assert capsys.readouterr().out.strip() == str(target)
    assert "Weather in Seoul" in target.read_text("utf-8")


def test_command_line_says_what_went_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", str(tmp_path / "missing.jsonl"), "-o", str(tmp_path / "x.html")]) == 1
    assert "no recording at" in capsys.readouterr().err
    same = tmp_path / "same.html"
    same.write_text("{}", encoding="utf-8")
    assert main(["export", str(same), "-o", str(same)]) == 2
    assert "would overwrite" in capsys.readouterr().err
    assert same.read_text(encoding="utf-8") == "{}"


@pytest.mark.parametrize(
    "command",
    [[sys.executable, "-m", "chunkscope"], [str(Path(sys.executable).with_name("chunkscope"))]],
    ids=["python -m chunkscope", "chunkscope script"],
)
def test_installed_commands_export(
    command: list[str], demo_recording: Path, tmp_path: Path
) -> None:
    out = tmp_path / "cli.html"
    done = subprocess.run(
        [*command, "export", str(demo_recording), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert embedded_snapshot(out.read_text("utf-8"))["run"]["status"] == "finished"  # type: ignore[index]
