"""What the benchmark measures inside the page and on the websocket.

The page side is a script installed before JupyterLab loads: a ``longtask`` observer from the start,
a reader of the kernel websocket's frames, and, once armed, a MutationObserver on the notebook that
reads the text each change adds, looking for the end marker and for send-time stamps not seen
before, until the end marker shows. A change counts as shown when the frame that draws it is
painted: at the first task after that frame's rendering (so a view that draws in an animation frame
callback is counted in that frame, not the next). The kernel and the browser share the machine's
clock, so ``painted - stamp`` is the delta-to-screen lag, and the stamp's arrival on the websocket
and in the DOM split it into kernel and wire, page handling, and painting.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from long_frames import DESCRIBE_FRAME_JS
from playwright.sync_api import Page, WebSocket

PROBE_JS = (
    r"""
window.__bench = (() => {
  const longtasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longtasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) { /* no longtask support: the column stays empty */ }
  // What each long animation frame spent its time on, to explain a long task in the results.
  const longFrames = [];
  let frameObserver = null;
  const keepLongFrames = (entries) => {
    for (const f of entries) {
      if (f.blockingDuration <= 0) continue;
      longFrames.push({ start: f.startTime, ...("""
    + DESCRIBE_FRAME_JS
    + r""")(f) });
    }
  };
  try {
    frameObserver = new PerformanceObserver((list) => keepLongFrames(list.getEntries()));
    frameObserver.observe({ type: 'long-animation-frame', buffered: true });
  } catch (e) { /* no long-animation-frame support: nothing to explain with */ }

  const wallNow = () => performance.timeOrigin + performance.now();

  // "Painted" means: the first task after the rendering update that drew the change. A task
  // posted on a MessageChannel runs after the current frame's rendering, so a change made
  // inside an animation frame callback (where views that batch their drawing make it) is
  // counted in that frame, and a change made in any other task in the next one.
  let frameOpen = false;
  const frameEnd = new MessageChannel();
  frameEnd.port1.onmessage = () => { frameOpen = false; };
  const nativeRaf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => nativeRaf((time) => {
    if (!frameOpen) { frameOpen = true; frameEnd.port2.postMessage(0); }
    callback(time);
  });

  let s = null;
  const painted = new MessageChannel();
  let paintAsked = false;
  painted.port1.onmessage = () => {
    paintAsked = false;
    const now = wallNow();
    for (const [stamp, wsAt, domAt] of s.changed) {
      s.lags.push(now - stamp);
      s.parts.push([wsAt === undefined ? null : wsAt - stamp,
                    wsAt === undefined ? null : domAt - wsAt, now - domAt]);
    }
    s.changed = [];
    if (s.found === null && s.markerSeen) s.found = performance.now();
    if (s.firstShown === null && s.firstSeen) s.firstShown = performance.now();
  };
  const askPaint = () => {
    if (paintAsked) return;
    paintAsked = true;
    if (frameOpen) painted.port2.postMessage(0);
    else nativeRaf(() => painted.port2.postMessage(0));
  };
  const scan = (text) => {
    if (!s.markerSeen && text.includes(s.marker)) s.markerSeen = true;
    if (!s.firstSeen && text.includes(s.first)) s.firstSeen = true;
    if (s.stamps === null) return;
    const now = wallNow();
    for (const m of text.matchAll(s.stamps)) {
      if (!s.seen.has(m[1])) {
        s.seen.add(m[1]);
        s.changed.push([parseFloat(m[1]), s.wsSeen.get(m[1]), now]);
      }
    }
  };
  // Only the text a change added is read: the new nodes, and the grown end of a text node.
  const onMutations = (records) => {
    s.lastMutation = performance.now();
    // Once the end marker is in the page there is nothing left to find (it is the last
    // delta, after every stamp): a view moved in the page at the end is not read again.
    if (s.markerSeen) { askPaint(); return; }
    for (const r of records) {
      if (r.type === 'characterData') {
        const data = r.target.data, old = r.oldValue || '';
        scan(data.startsWith(old) ? data.slice(Math.max(0, old.length - 40)) : data);
      } else {
        for (const node of r.addedNodes) scan(node.textContent || '');
      }
    }
    askPaint();
  };

  // When each stamp reached the page: the kernel websocket's frames are read as they arrive.
  const decoder = new TextDecoder();
  const wsPattern = /(?:\u27e6|\\u27e6)(\d{13}\.\d)(?:\u27e7|\\u27e7)/g;
  const onSocketMessage = (event) => {
    if (s === null || s.stamps === null) return;
    const data = event.data;
    const text = typeof data === 'string' ? data
      : data instanceof ArrayBuffer ? decoder.decode(data) : '';
    const now = wallNow();
    for (const m of text.matchAll(wsPattern)) if (!s.wsSeen.has(m[1])) s.wsSeen.set(m[1], now);
  };
  const NativeSocket = window.WebSocket;
  window.WebSocket = class extends NativeSocket {
    constructor(...args) {
      super(...args);
      const kernel = String(args[0]).includes('/api/kernels/');
      if (kernel) this.addEventListener('message', onSocketMessage);
    }
  };

  const outputsText = () => {
    const parts = [];
    for (const n of s.root.querySelectorAll('.jp-Cell-outputArea')) parts.push(n.textContent);
    return parts.join('\n');
  };
  return {
    arm(marker, stampPattern, first) {
      const panel = window.jupyterapp.shell.currentWidget;
      s = {
        root: panel.content.node, marker, found: null, t0: performance.now(), markerSeen: false,
        first, firstSeen: false, firstShown: null,
        stamps: stampPattern ? new RegExp(stampPattern, 'g') : null,
        seen: new Set(), wsSeen: new Map(), changed: [], lags: [], parts: [],
        lastMutation: performance.now(),
      };
      s.observer = new MutationObserver(onMutations);
      s.observer.observe(s.root, {
        subtree: true, childList: true, characterData: true, characterDataOldValue: true,
      });
    },
    status() {
      const now = performance.now();
      return { found: s.found !== null, quietMs: now - s.lastMutation };
    },
    finish() {
      s.observer.disconnect();
      const end = performance.now();
      // Frames the observer has not been told of yet (the run's last ones) are taken too.
      if (frameObserver !== null) keepLongFrames(frameObserver.takeRecords());
      const during = longtasks.filter(([start]) => start >= s.t0 && start <= end);
      return {
        visibleMs: s.found === null ? null : s.found - s.t0,
        firstMs: s.firstShown === null ? null : s.firstShown - s.t0,
        lags: s.lags,
        parts: s.parts,
        longestTaskMs: during.reduce((m, [, d]) => Math.max(m, d), 0),
        longTasks: during.length,
        longFrames: longFrames.filter((f) => f.start >= s.t0 && f.start <= end)
          .map(({ start, ...rest }) => ({ atMs: Math.round(start - s.t0), ...rest })),
        text: outputsText(),
      };
    },
  };
})();
"""
)


@dataclass
class SocketCounter:
    """Kernel websocket frames received by the page (kernel → browser)."""

    #: Frames received since the page opened.
    frames: int = 0
    #: Payload bytes received since the page opened.
    payload_bytes: int = 0
    #: ``time.monotonic()`` of the last frame.
    last_frame: float = field(default_factory=time.monotonic)

    def attach(self, page: Page) -> None:
        """Count frames of every kernel websocket the page opens from now on."""
        page.on("websocket", self._on_socket)

    def _on_socket(self, socket: WebSocket) -> None:
        if "/api/kernels/" in socket.url:
            socket.on("framereceived", self._on_frame)

    def _on_frame(self, payload: str | bytes) -> None:
        self.frames += 1
        self.payload_bytes += len(payload.encode() if isinstance(payload, str) else payload)
        self.last_frame = time.monotonic()

    def snapshot(self) -> tuple[int, int]:
        """Frames and bytes so far, to subtract from a later snapshot."""
        return self.frames, self.payload_bytes


def percentile(values: list[float], q: float) -> float | None:
    """The ``q`` quantile (0..1) by nearest rank; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[rank]


def heap_used_mb(page: Page) -> float:
    """Live JS heap of the page after a full garbage collection, in MB."""
    session = page.context.new_cdp_session(page)
    try:
        session.send("HeapProfiler.collectGarbage")
        usage: dict[str, Any] = session.send("Runtime.getHeapUsage")
        return float(usage["usedSize"]) / 1e6
    finally:
        session.detach()
