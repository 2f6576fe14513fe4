"""A real JupyterLab server for end-to-end tests and benchmarks.

The server runs with JupyterLab's default server settings (notably the IOPub rate limits),
listens on 127.0.0.1 only, and lives in a throwaway root/config/data directory so a test never
sees a user's settings, workspaces or kernels. The venv's own ``python3`` kernel spec is used:
its ``argv[0]`` is ``python``, which jupyter_client replaces by the server's ``sys.executable``.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

#: How long JupyterLab may take to answer ``/api/status`` on a busy 2-core machine.
STARTUP_TIMEOUT_S = 90.0


class LabServerError(RuntimeError):
    """JupyterLab did not start or answered an API call with an error; the message says which."""


@dataclass
class LabServer:
    """A running JupyterLab: where it listens, how to authenticate, where it writes."""

    #: Base URL without a trailing slash, e.g. ``http://127.0.0.1:41234``.
    url: str
    #: The random token the server accepts (query ``?token=`` or ``Authorization: token``).
    token: str
    #: The directory the server serves notebooks from.
    root_dir: Path
    #: The server's combined stdout/stderr (kernel tracebacks and rate-limit warnings land here).
    log_path: Path
    #: The server process; it leads its own process group so kernels die with it.
    process: subprocess.Popen[bytes]
    #: The HTTP client used for REST calls, authenticated with the token.
    client: httpx.Client = field(repr=False)

    def api(self, method: str, path: str, body: Any = None) -> Any:
        """Call the server's REST API at ``path`` and return the decoded JSON (or None)."""
        response = self.client.request(method, path, json=body)
        if response.is_error:
            raise LabServerError(
                f"{method} {path} answered {response.status_code}: {response.text[:500]}"
            )
        return response.json() if response.content else None

    def log_text(self, start: int = 0) -> str:
        """The server log from byte offset ``start`` on."""
        with self.log_path.open("rb") as log:
            log.seek(start)
            return log.read().decode("utf-8", errors="replace")

    def log_size(self) -> int:
        """Current size of the server log in bytes, to read only what comes after it."""
        return self.log_path.stat().st_size

    def shutdown_kernels(self) -> None:
        """Stop every kernel the server runs, so no kernel keeps burning CPU."""
        for kernel in self.api("GET", "/api/kernels"):
            # A kernel may be gone between the listing and the delete.
            with suppress(LabServerError):
                self.api("DELETE", f"/api/kernels/{kernel['id']}")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _write_config(config_dir: Path, root_dir: Path, port: int, token: str) -> None:
    """Server config plus user settings that keep JupyterLab off the network."""
    config = {
        "ServerApp": {
            "ip": "127.0.0.1",
            "port": port,
            "port_retries": 0,
            "open_browser": False,
            # CI and this workplace run as root; the server refuses that unless told.
            "allow_root": True,
            "root_dir": str(root_dir),
        },
        "IdentityProvider": {"token": token},
        "LabApp": {
            # window.jupyterapp gives the tests JupyterLab's own command registry.
            "expose_app_in_browser": True,
            "news_url": None,
            "extension_manager": "readonly",
            "check_for_updates_class": "jupyterlab.handlers.announcements.NeverCheckForUpdate",
        },
        # The same for Notebook 7 (``run_lab(..., app="notebook")``).
        "JupyterNotebookApp": {"expose_app_in_browser": True},
    }
    (config_dir / "jupyter_server_config.json").write_text(json.dumps(config, indent=1))
    notification = config_dir / "lab/user-settings/@jupyterlab/apputils-extension"
    notification.mkdir(parents=True, exist_ok=True)
    (notification / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )


def start_logged(
    argv: Sequence[str], cwd: Path, env: dict[str, str], log_path: Path
) -> subprocess.Popen[bytes]:
    """Start ``argv`` in a process group of its own (so ``stop_process_group`` stops it and
    all it starts), its output going to ``log_path``."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("wb") as log:
        return subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def wait_until_up(
    process: subprocess.Popen[bytes],
    answers: Callable[[], bool],
    what: str,
    log_text: Callable[[], str],
    timeout_s: float = STARTUP_TIMEOUT_S,
) -> None:
    """Poll ``answers`` (an HTTP check) until it is true; raise with the log when the process
    exits first or ``timeout_s`` passes."""
    deadline = time.monotonic() + timeout_s
    last_error = ""
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise LabServerError(f"{what} exited with {process.returncode}; log:\n{log_text()}")
        try:
            if answers():
                return
        except httpx.HTTPError as error:
            last_error = repr(error)
        time.sleep(0.25)
    raise LabServerError(
        f"{what} did not answer within {timeout_s:.0f} s ({last_error}); log:\n{log_text()}"
    )


def stop_process_group(process: subprocess.Popen[bytes], grace_s: float = 10.0) -> None:
    """Stop a process that leads its own group, and everything it started, by its pid."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        with suppress(subprocess.TimeoutExpired):
            process.wait(timeout=grace_s)
    # Kernels are in the same group; make sure none outlives the server.
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=grace_s)


@contextmanager
def run_lab(
    workdir: Path,
    log_path: Path,
    extra_pythonpath: Sequence[Path] = (),
    server_args: Sequence[str] = (),
    app: str = "jupyterlab",
) -> Iterator[LabServer]:
    """Start JupyterLab in ``workdir`` (created empty), yield it, and stop it by process group.

    ``extra_pythonpath`` is prepended to the kernel's ``PYTHONPATH`` (for example the repo's
    ``src`` when the package is not installed, or a folder of benchmark helpers).
    ``server_args`` are extra command-line options; leave them empty to keep the defaults.
    ``app`` is the module run with ``python -m``: ``"notebook"`` starts Notebook 7 instead.
    """
    root_dir, config_dir = workdir / "root", workdir / "config"
    data_dir, ipython_dir, runtime_dir = workdir / "data", workdir / "ipython", workdir / "runtime"
    for directory in (root_dir, config_dir, data_dir, ipython_dir, runtime_dir):
        directory.mkdir(parents=True, exist_ok=True)
    port, token = free_port(), secrets.token_hex(24)
    _write_config(config_dir, root_dir, port, token)

    env = dict(os.environ)
    env.update(
        JUPYTER_CONFIG_DIR=str(config_dir),
        JUPYTER_DATA_DIR=str(data_dir),
        JUPYTER_RUNTIME_DIR=str(runtime_dir),
        IPYTHONDIR=str(ipython_dir),
        JUPYTER_PLATFORM_DIRS="1",
    )
    paths = [str(p) for p in extra_pythonpath]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    if paths:
        env["PYTHONPATH"] = os.pathsep.join(paths)

    process = start_logged([sys.executable, "-m", app, *server_args], root_dir, env, log_path)
    url = f"http://127.0.0.1:{port}"
    client = httpx.Client(base_url=url, headers={"Authorization": f"token {token}"}, timeout=30.0)
    server = LabServer(url, token, root_dir, log_path, process, client)
    try:
        wait_until_up(
            process,
            lambda: client.get("/api/status", timeout=2).status_code == 200,
            f"the {app} server",
            server.log_text,
        )
        yield server
    finally:
        client.close()
        stop_process_group(process)
