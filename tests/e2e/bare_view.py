"""The real front end on a bare page, fed the messages the kernel's channel really sends.

``record_messages`` folds a run's chunks at full speed through the live widget's own channel
and sink, its widget a recorder that keeps each message with the time it was sent.
``MOUNT_JS`` imports the built ``widget.js`` into a blank page, renders a view with a model
that holds nothing else, and leaves ``window.__bareView`` to deliver messages to it, so a
test or a benchmark measures the page's own work with nothing else on the main thread. The
model answers the view's request for its markdown libraries as a kernel does, by setting
``_libraries`` to the built ``libraries.js``: without them the text would stay plain.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "chunkscope" / "static"


def record_messages(chunks: Iterable[dict[str, Any]]) -> list[tuple[float, str]]:
    """The messages a live view of the run ``chunks`` receives, each with the time (ms) the
    channel sent it: folded at full speed, as ``chunkscope.show`` folds a burst."""
    from chunkscope.fold.state import RunState
    from chunkscope.live.consume import Channel, Consumer
    from chunkscope.live.widget import StreamView, _WidgetSink

    sent: list[tuple[float, str]] = []

    class Recorder:
        """Stands for the widget: keeps each message with the time it was sent."""

        def send(self, message: dict[str, Any]) -> None:
            sent.append((time.monotonic() * 1000.0, json.dumps(message)))

    class Sink(_WidgetSink):
        """The live widget's own messages; nothing is persisted."""

        def persist(self, snapshot: dict[str, Any]) -> None:
            pass

    channel = Channel(RunState(), Sink(cast(StreamView, Recorder())))
    channel.ready()
    consumer = Consumer(iter(chunks), channel)
    consumer.start()
    consumer.result(timeout=600)
    channel.join(10)
    return sent


#: Mounts the view: ``{ code, css, libraries }`` are the bundle, its styles and the source of
#: its markdown libraries; ``early`` (optional) the messages (JSON texts) that reach the model
#: before its view is drawn, as a burst's first batches do in a fresh JupyterLab output.
#: Leaves ``window.__bareView = { el, deliver(jsonText) }``.
MOUNT_JS = """
async ({ code, css, libraries, early = [] }) => {
  const style = document.createElement('style');
  style.textContent = css;
  document.head.append(style);
  const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
  const widget = (await import(url)).default;
  const listeners = new Map();
  const values = { snapshot: null, title: 'burst', _libraries: '' };
  const fire = (event) => { for (const fn of listeners.get(event) ?? []) fn(); };
  const model = {
    get: (name) => values[name],
    set: (name, value) => { values[name] = value; },
    save_changes: () => {},
    // The kernel's answer to the libraries request comes in a message of its own.
    send: (message) => {
      if (message?.kind !== 'libraries' || values._libraries !== '') return;
      setTimeout(() => { values._libraries = libraries; fire('change:_libraries'); }, 0);
    },
    on: (event, fn) => {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event).add(fn);
    },
    off: (event, fn) => listeners.get(event)?.delete(fn),
  };
  const el = document.createElement('div');
  el.style.width = '846px';
  document.body.append(el);
  const deliver = (text) => {
    const message = JSON.parse(text);
    for (const fn of listeners.get('msg:custom') ?? []) fn(message);
  };
  widget.initialize?.({ model });
  for (const text of early) deliver(text);
  widget.render({ model, el });
  window.__bareView = { el, deliver };
}
"""


def bundle_files(bundle: Path | None = None) -> dict[str, str]:
    """The arguments of ``MOUNT_JS``: the built widget (or ``bundle``), its styles and its
    markdown libraries."""
    code = (bundle or STATIC / "widget.js").read_text()
    return {
        "code": code,
        "css": (STATIC / "widget.css").read_text(),
        "libraries": (STATIC / "libraries.js").read_text(),
    }
