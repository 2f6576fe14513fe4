"""Watching a board of runs in a JupyterLab page: what its browser tests and its benchmark
measure from inside the page."""

from __future__ import annotations

from long_frames import DESCRIBE_FRAME_JS

#: A JavaScript expression for the page's board element: the board is drawn in an open
#: shadow root of its output, where a query on the document does not reach.
BOARD_JS = (
    "[...document.querySelectorAll('.cs-shadow-host')]"
    ".map((host) => host.shadowRoot?.querySelector('.cs-board')).find(Boolean) ?? null"
)

#: Installs, in the page, the record of long tasks (``window.__longtasks``), of what long
#: frames spent their time on (``window.__longframes``) and of the animation frames in which
#: the board's rows changed (``window.__rowDraws``).
OBSERVE_JS = (
    """
() => {
  window.__longtasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longtasks.push(Math.round(entry.duration));
  }).observe({ type: 'longtask' });
  // What the long frames spent their time on, for the record when the budget is missed.
  window.__longframes = [];
  new PerformanceObserver((list) => {
    for (const f of list.getEntries()) {
      if (f.duration <= 50) continue;
      window.__longframes.push(("""
    + DESCRIBE_FRAME_JS
    + """)(f));
    }
  }).observe({ type: 'long-animation-frame' });
  // When the board's rows change: one timestamp per animation frame that changed them.
  window.__rowDraws = [];
  const watch = () => {
    const canvas = ("""
    + BOARD_JS
    + """)?.querySelector('.cs-board-canvas');
    if (!canvas) { requestAnimationFrame(watch); return; }
    new MutationObserver(() => {
      const now = performance.now();
      const last = window.__rowDraws[window.__rowDraws.length - 1];
      if (last === undefined || now - last > 8) window.__rowDraws.push(now);
    }).observe(canvas, { subtree: true, childList: true, characterData: true, attributes: true });
  };
  watch();
}
"""
)
