"""The wheel, installed into fresh virtual environments with only what it declares.

Every other test runs in the development environment, which has every extra; these install
the built wheel as a user would (`pip install chunkscope`, then `pip install chunkscope[http]`)
and use it there: import, fold and show the demo agent, write its offline page (which Chromium
then renders), and reach the optional features or the message that names their extra.
"""

from __future__ import annotations

import http.server
import json
import subprocess
import sys
import threading
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest
from lab import fresh_page
from playwright.sync_api import Browser

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.install

# Runs inside the fresh environment: the five lines of the README, headless.
DEMO_SCRIPT = """
import json, sys
import chunkscope as cs
view = cs.show(cs.demo.stream(speed=0), display=False)
state = view.result(timeout=120)
bundle = view._repr_mimebundle_()
bundle = bundle[0] if isinstance(bundle, tuple) else bundle
page = cs.write_html(state, sys.argv[1])
print(json.dumps({
    "status": state.status,
    "text": state.text,
    "tools": [call.tool_name for call in state.tool_calls],
    "plain": bundle.get("text/plain", ""),
    "page": str(page),
}))
"""

SSE_SCRIPT = """
import json, sys
import chunkscope as cs
try:
    source = cs.sse(sys.argv[1], method="GET")
except ImportError as exc:
    print(json.dumps({"import_error": str(exc)}))
else:
    state = cs.accumulate(source)
    print(json.dumps({"status": state.status, "text": state.text}))
"""

SSE_CHUNKS = [
    {"type": "start", "runId": "r1", "from": "AGENT", "payload": {}},
    {"type": "text-start", "runId": "r1", "from": "AGENT", "payload": {"id": "t"}},
    {"type": "text-delta", "runId": "r1", "from": "AGENT", "payload": {"id": "t", "text": "over "}},
    {"type": "text-delta", "runId": "r1", "from": "AGENT", "payload": {"id": "t", "text": "HTTP"}},
    {"type": "text-end", "runId": "r1", "from": "AGENT", "payload": {"id": "t"}},
    {
        "type": "finish",
        "runId": "r1",
        "from": "AGENT",
        "payload": {
            "stepResult": {"reason": "stop"},
            "output": {"usage": {"totalTokens": 3}},
            "metadata": {},
            "messages": {"all": [], "user": [], "nonUser": []},
        },
    },
]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built as `pip install` builds it (front end included)."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
        check=True,
        timeout=600,
    )
    (found,) = out.glob("chunkscope-*.whl")
    return found


def _fresh_venv(where: Path, requirement: str) -> Path:
    """A new virtual environment holding ``requirement`` and what it declares, nothing else."""
    venv.EnvBuilder(with_pip=True, clear=True).create(where)
    python = where / "bin" / "python"
    subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            requirement,
        ],
        check=True,
        timeout=900,
    )
    return python


def _run(python: Path, script: str, *args: str) -> dict[str, object]:
    done = subprocess.run(
        [str(python), "-c", script, *args], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-4000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.fixture(scope="module")
def base_python(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Python of a fresh venv with the wheel and its declared dependencies only."""
    return _fresh_venv(tmp_path_factory.mktemp("venv-base"), str(wheel))


@pytest.fixture(scope="module")
def http_python(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Python of a fresh venv with the wheel and its ``http`` extra."""
    return _fresh_venv(tmp_path_factory.mktemp("venv-http"), f"{wheel}[http]")


@pytest.fixture(scope="module")
def sse_url() -> Iterator[str]:
    """A loopback server answering every GET with the chunks above as server-sent events."""
    body = "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in SSE_CHUNKS).encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/stream"
    finally:
        server.shutdown()
        server.server_close()


def _installed(python: Path) -> set[str]:
    done = subprocess.run(
        [str(python), "-m", "pip", "list", "--format=json", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return {entry["name"].lower() for entry in json.loads(done.stdout)}


def test_the_base_install_has_no_extras(base_python: Path) -> None:
    installed = _installed(base_python)
    assert "chunkscope" in installed
    assert "httpx" not in installed  # what made `import chunkscope` fail before
    assert "jupyterlab" not in installed


def test_the_base_install_shows_the_demo_and_its_page_renders(
    base_python: Path, browser: Browser, tmp_path: Path
) -> None:
    result = _run(base_python, DEMO_SCRIPT, str(tmp_path / "demo.html"))
    assert result["status"] == "finished"
    assert "Weather in Seoul" in str(result["text"])
    assert result["tools"], "the demo agent calls a tool"
    assert str(result["plain"]).strip(), "the view's text/plain is the transcript"
    with fresh_page(browser) as page:
        page.goto(Path(str(result["page"])).as_uri())
        # the answer's heading and a tool card, drawn by the bundled front end
        for shown in ("Weather in Seoul", "get-weather"):
            page.wait_for_function(
                "text => document.body.innerText.includes(text)", arg=shown, timeout=30_000
            )


def test_the_base_install_names_the_extra_for_http_sources(base_python: Path, sse_url: str) -> None:
    result = _run(base_python, SSE_SCRIPT, sse_url)
    message = str(result.get("import_error", ""))
    assert "chunkscope.sse()" in message
    assert "pip install 'chunkscope[http]'" in message


def test_the_http_extra_streams_server_sent_events(http_python: Path, sse_url: str) -> None:
    assert "httpx" in _installed(http_python)
    result = _run(http_python, SSE_SCRIPT, sse_url)
    assert result == {"status": "finished", "text": "over HTTP"}


def test_the_http_extra_still_shows_the_demo(http_python: Path, tmp_path: Path) -> None:
    result = _run(http_python, DEMO_SCRIPT, str(tmp_path / "demo.html"))
    assert result["status"] == "finished"
    assert result["tools"]
