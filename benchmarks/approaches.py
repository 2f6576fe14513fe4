"""Ways a notebook user streams text today, plus chunkscope, each fed the same deltas.

Runs inside the kernel. Each approach has a ``setup`` (run in a cell of its own, not timed:
imports, and widgets displayed so their views exist before the first message) and a
``stream`` (the timed cell). The names are the benchmark's row labels.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import anywidget
import IPython.display
import ipywidgets
import stream_text
import traitlets

# IPython ships no type hints; these aliases give the two calls used here a type.
display: Callable[..., Any] = IPython.display.display
Markdown: Callable[[str], Any] = IPython.display.Markdown

# One text node that grows: appending costs O(delta), so the view is not the bottleneck. The
# text is kept from the model's first message, since a widget made and displayed in the timed
# cell gets its messages before its view is drawn (anywidget gives each call its own model
# proxy, so the kept text is found by the model's ``key``).
_APPEND_ESM = """
const kept = new Map();
function initialize({ model }) {
  const run = { text: "", nodes: new Set() };
  kept.set(model.get("key"), run);
  model.on("msg:custom", (msg) => {
    run.text += msg.text;
    for (const node of run.nodes) node.appendData(msg.text);
  });
}
function render({ model, el }) {
  el.classList.add("bench-view");
  const run = kept.get(model.get("key"));
  const node = document.createTextNode(run.text);
  const pre = document.createElement("pre");
  pre.appendChild(node);
  el.appendChild(pre);
  run.nodes.add(node);
  return () => run.nodes.delete(node);
}
export default { initialize, render };
"""

_TRAIT_ESM = """
function render({ model, el }) {
  el.classList.add("bench-view");
  const pre = document.createElement("pre");
  const draw = () => { pre.textContent = model.get("text"); };
  model.on("change:text", draw);
  draw();
  el.appendChild(pre);
}
export default { render };
"""


# The least a view can draw of a burst: every message's text is kept, and one animation frame
# after messages arrive the view shows the text's last TAIL characters. What the page spends
# on a burst is then the channel's (the websocket, JupyterLab's decoding, the widget manager)
# and hardly any drawing: the floor for the page's long tasks.
_TAIL_ESM = """
const kept = new Map();
const TAIL = 2000;
function initialize({ model }) {
  const run = { parts: [], nodes: new Set(), asked: false };
  run.draw = () => {
    run.asked = false;
    let tail = "";
    for (let k = run.parts.length - 1; k >= 0 && tail.length < TAIL; k--) {
      tail = run.parts[k] + tail;
    }
    tail = tail.slice(-TAIL);
    for (const node of run.nodes) node.data = tail;
  };
  kept.set(model.get("key"), run);
  model.on("msg:custom", (msg) => {
    run.parts.push(msg.text);
    if (!run.asked) {
      run.asked = true;
      requestAnimationFrame(run.draw);
    }
  });
}
function render({ model, el }) {
  el.classList.add("bench-view");
  const run = kept.get(model.get("key"));
  const node = document.createTextNode("");
  const pre = document.createElement("pre");
  pre.appendChild(node);
  el.appendChild(pre);
  run.nodes.add(node);
  run.draw();
  return () => run.nodes.delete(node);
}
export default { initialize, render };
"""


class TextTrait(anywidget.AnyWidget):
    """Shows its ``text`` trait; the naive way to stream into an anywidget."""

    _esm = _TRAIT_ESM
    #: The whole text so far, resent on every change.
    text = traitlets.Unicode("").tag(sync=True)


class Appender(anywidget.AnyWidget):
    """Appends the ``text`` of every custom message it receives."""

    _esm = _APPEND_ESM
    #: Names the model in the page, where its text is kept until a view shows it.
    key = traitlets.Unicode().tag(sync=True)

    def __init__(self) -> None:
        super().__init__(key=uuid.uuid4().hex)


class TailAppender(Appender):
    """Keeps the ``text`` of every custom message and shows only the end of it."""

    _esm = _TAIL_ESM


class Approach:
    """A way of showing a stream; subclasses override ``setup`` and ``stream``."""

    def setup(self) -> None:
        """Untimed preparation (imports, displaying a widget)."""

    def stream(self, deltas: Iterable[str]) -> None:
        """Show every delta as it comes."""
        raise NotImplementedError


class Print(Approach):
    def stream(self, deltas: Iterable[str]) -> None:
        for delta in deltas:
            print(delta, end="", flush=True)


class DisplayMarkdown(Approach):
    def stream(self, deltas: Iterable[str]) -> None:
        handle = display(Markdown(""), display_id=True)
        text = ""
        for delta in deltas:
            text += delta
            handle.update(Markdown(text))


class HtmlWidget(Approach):
    def setup(self) -> None:
        self.widget = ipywidgets.HTML()
        display(self.widget)

    def stream(self, deltas: Iterable[str]) -> None:
        text = ""
        for delta in deltas:
            text += delta
            self.widget.value = text


class OutputWidget(Approach):
    def setup(self) -> None:
        self.widget = ipywidgets.Output()
        display(self.widget)

    def stream(self, deltas: Iterable[str]) -> None:
        for delta in deltas:
            self.widget.append_stdout(delta)


class AnywidgetTrait(Approach):
    def setup(self) -> None:
        self.widget = TextTrait()
        display(self.widget)

    def stream(self, deltas: Iterable[str]) -> None:
        text = ""
        for delta in deltas:
            text += delta
            self.widget.text = text


class AnywidgetMessage(Approach):
    #: The widget the messages go to.
    widget_type: type[Appender] = Appender

    def setup(self) -> None:
        self.widget = self.widget_type()
        display(self.widget)

    def stream(self, deltas: Iterable[str]) -> None:
        for delta in deltas:
            self.widget.send({"text": delta})


class AnywidgetBatched(AnywidgetMessage):
    """Custom messages, at most one per ``interval`` seconds, plus a final flush."""

    interval = 0.033

    def stream(self, deltas: Iterable[str]) -> None:
        buffer: list[str] = []
        last = time.perf_counter()
        for delta in deltas:
            buffer.append(delta)
            now = time.perf_counter()
            if now - last >= self.interval:
                self.widget.send({"text": "".join(buffer)})
                buffer.clear()
                last = now
        if buffer:
            self.widget.send({"text": "".join(buffer)})


class AnywidgetBatchedFresh(AnywidgetBatched):
    """The 33 ms batcher with its widget made and displayed in the timed cell, as
    ``chunkscope.show`` makes its view: the start-up baseline (anywidget holds a new model's
    messages until its module is loaded, so none is lost)."""

    def setup(self) -> None:
        pass

    def stream(self, deltas: Iterable[str]) -> None:
        self.widget = self.widget_type()
        display(self.widget)
        super().stream(deltas)


class AnywidgetBatchedTail(AnywidgetBatched):
    """The 33 ms batcher with a view that shows only the text's last 2,000 characters: the
    page's floor under a burst. Its screen holds only that end, so it has no "delivered"."""

    widget_type = TailAppender


RAW_COMM_TARGET = "chunkscope_bench_raw"
"""The comm target the page registers for ``RawComm`` (see measure.py)."""


class RawComm(Approach):
    """One comm message per delta on a bare comm (no widget): the channel's floor. The page
    registers the target with its kernel connection and appends each text to a text node."""

    def setup(self) -> None:
        import comm

        self.comm = comm.create_comm(target_name=RAW_COMM_TARGET)

    def stream(self, deltas: Iterable[str]) -> None:
        for delta in deltas:
            self.comm.send({"text": delta})


def mastra_text_chunks(
    deltas: Iterable[str], run_id: str = "bench-run"
) -> Iterator[dict[str, Any]]:
    """A one-step Mastra agent run whose text arrives as the given deltas."""

    def chunk(type_: str, payload: dict[str, Any]) -> dict[str, Any]:
        return {"type": type_, "runId": run_id, "from": "AGENT", "payload": payload}

    yield chunk("start", {"id": "bench-agent", "messageId": "m0"})
    yield chunk("step-start", {"request": {}, "warnings": [], "messageId": "m0"})
    yield chunk("text-start", {"id": "txt-0"})
    for delta in deltas:
        yield chunk("text-delta", {"id": "txt-0", "text": delta})
    yield chunk("text-end", {"id": "txt-0"})
    usage = {"inputTokens": 10, "outputTokens": 10, "totalTokens": 20}
    result = {"reason": "stop", "isContinued": False}
    yield chunk("step-finish", {"stepResult": result, "output": {"usage": usage}})
    yield chunk("finish", {"stepResult": result, "output": {"usage": usage}})


def mastra_agent_chunks(
    deltas: Iterable[str], run_id: str = "bench-agent-run"
) -> Iterator[dict[str, Any]]:
    """A two-step agent run: streamed reasoning, a tool call with streamed arguments and its
    result, then the given deltas as the answer's text."""

    def chunk(type_: str, payload: dict[str, Any]) -> dict[str, Any]:
        return {"type": type_, "runId": run_id, "from": "AGENT", "payload": payload}

    usage = {"inputTokens": 10, "outputTokens": 10, "totalTokens": 20}
    yield chunk("start", {"id": "bench-agent", "messageId": "m0"})
    yield chunk("step-start", {"request": {}, "warnings": [], "messageId": "m0"})
    yield chunk("reasoning-start", {"id": "rsn-0"})
    for word in stream_text.make_deltas(60, seed=1):
        yield chunk("reasoning-delta", {"id": "rsn-0", "text": word})
    yield chunk("reasoning-end", {"id": "rsn-0"})
    call = {"toolCallId": "call-1", "toolName": "search-notes"}
    yield chunk("tool-call-input-streaming-start", call)
    args_text = '{"query": "streaming widgets", "limit": 5, "fields": ["title", "body"]}'
    for start in range(0, len(args_text), 4):
        yield chunk("tool-call-delta", {**call, "argsTextDelta": args_text[start : start + 4]})
    yield chunk("tool-call-input-streaming-end", {"toolCallId": "call-1"})
    args = {"query": "streaming widgets", "limit": 5, "fields": ["title", "body"]}
    yield chunk("tool-call", {**call, "args": args})
    hits = [{"title": f"note {i}", "body": "streaming " * 5} for i in range(5)]
    yield chunk("tool-result", {**call, "args": args, "result": {"hits": hits}})
    tool_step = {"reason": "tool-calls", "isContinued": True}
    yield chunk("step-finish", {"stepResult": tool_step, "output": {"usage": usage}})
    text_run = mastra_text_chunks(deltas, run_id)
    next(text_run)  # the answer continues the same run: no second "start"
    yield from text_run


class ChunkscopeText(Approach):
    """``chunkscope.show`` on Mastra text chunks."""

    def chunks(self, deltas: Iterable[str]) -> Iterator[dict[str, Any]]:
        return mastra_text_chunks(deltas)

    def setup(self) -> None:
        import chunkscope

        self.show: Callable[[Any], Any] = chunkscope.show

    def stream(self, deltas: Iterable[str]) -> None:
        self.view = self.show(self.chunks(deltas))


class ChunkscopeShownFirst(ChunkscopeText):
    """A ``chunkscope.StreamView`` displayed in the untimed cell, as the other widgets are;
    the timed cell starts the run in it."""

    def setup(self) -> None:
        import chunkscope

        self.view = chunkscope.StreamView(title="bench")
        display(self.view)

    def stream(self, deltas: Iterable[str]) -> None:
        self.view.start(self.chunks(deltas))


class ChunkscopeAgent(ChunkscopeText):
    """``chunkscope.show`` on a full agent run (reasoning, a tool call, two steps)."""

    def chunks(self, deltas: Iterable[str]) -> Iterator[dict[str, Any]]:
        return mastra_agent_chunks(deltas)


#: Every approach by its row label, in the order the report lists them.
APPROACHES: dict[str, type[Approach]] = {
    "raw-comm": RawComm,
    "print": Print,
    "display-markdown": DisplayMarkdown,
    "ipywidgets-html": HtmlWidget,
    "ipywidgets-output": OutputWidget,
    "anywidget-trait": AnywidgetTrait,
    "anywidget-message": AnywidgetMessage,
    "anywidget-batched-33ms": AnywidgetBatched,
    "anywidget-batched-fresh": AnywidgetBatchedFresh,
    "anywidget-batched-tail": AnywidgetBatchedTail,
    "chunkscope-text": ChunkscopeText,
    "chunkscope-shown-first": ChunkscopeShownFirst,
    "chunkscope-agent": ChunkscopeAgent,
}

#: Approaches whose view shows only the end of the text, so what is on screen is not all of it.
SHOWS_TAIL_ONLY = frozenset({"anywidget-batched-tail"})

#: Approaches that need chunkscope importable (with ``show``) in the kernel.
NEEDS_CHUNKSCOPE = frozenset({"chunkscope-text", "chunkscope-shown-first", "chunkscope-agent"})


def setup(name: str) -> Approach:
    """Create and prepare the approach called ``name`` (the untimed cell)."""
    if name not in APPROACHES:
        raise KeyError(f"unknown approach {name!r}; known: {', '.join(APPROACHES)}")
    approach = APPROACHES[name]()
    approach.setup()
    return approach


def run(approach: Approach, deltas: list[str], rate: float | None) -> None:
    """Stream ``deltas`` (paced at ``rate``/s when given) through ``approach`` (timed cell)."""
    approach.stream(stream_text.stream(deltas, rate))
