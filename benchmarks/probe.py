"""What the benchmark measures inside the page and on the websocket.

The page side is a script installed before JupyterLab loads: a ``longtask`` observer from the
start, and, once armed, a MutationObserver on the notebook that, at the next animation frame
after a change, looks for the end marker and for send-time stamps not seen before (the
kernel and the browser share the machine's clock, so ``now - stamp`` is the delta-to-screen
lag).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Page, WebSocket

PROBE_JS = r"""
window.__bench = (() => {
  const longtasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longtasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) { /* no longtask support: the column stays empty */ }

  let s = null;
  const outputsText = () => {
    const parts = [];
    for (const n of s.root.querySelectorAll('.jp-Cell-outputArea')) parts.push(n.textContent);
    return parts.join('\n');
  };
  const check = () => {
    s.pending = false;
    const now = performance.timeOrigin + performance.now();
    const text = outputsText();
    s.checks += 1;
    if (s.stamps) {
      for (const m of text.matchAll(s.stamps)) {
        if (!s.seen.has(m[1])) { s.seen.add(m[1]); s.lags.push(now - parseFloat(m[1])); }
      }
    }
    if (s.found === null && text.includes(s.marker)) s.found = performance.now();
  };
  return {
    arm(marker, stampPattern) {
      const panel = window.jupyterapp.shell.currentWidget;
      s = {
        root: panel.content.node, marker, found: null, t0: performance.now(),
        stamps: stampPattern ? new RegExp(stampPattern, 'g') : null,
        seen: new Set(), lags: [], checks: 0, pending: false, lastMutation: performance.now(),
      };
      s.observer = new MutationObserver(() => {
        s.lastMutation = performance.now();
        if (!s.pending) { s.pending = true; requestAnimationFrame(check); }
      });
      s.observer.observe(s.root, { subtree: true, childList: true, characterData: true });
    },
    status() {
      const now = performance.now();
      return { found: s.found !== null, quietMs: now - s.lastMutation };
    },
    finish() {
      s.observer.disconnect();
      const end = performance.now();
      const during = longtasks.filter(([start]) => start >= s.t0 && start <= end);
      return {
        visibleMs: s.found === null ? null : s.found - s.t0,
        lags: s.lags,
        longestTaskMs: during.reduce((m, [, d]) => Math.max(m, d), 0),
        longTasks: during.length,
        text: outputsText(),
      };
    },
  };
})();
"""


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
