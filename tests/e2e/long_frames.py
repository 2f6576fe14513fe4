"""What a long animation frame spent its time on, as the browser tests and the benchmarks
record it for a long task they report."""

from __future__ import annotations

#: A JavaScript function expression turning a ``long-animation-frame`` entry into a plain
#: record: its length, how much of it blocked the page, its rendering (0 for a frame that did
#: not render), and each script that ran in it with its own time and forced layout.
DESCRIBE_FRAME_JS = """(f) => ({
  ms: Math.round(f.duration),
  blockingMs: Math.round(f.blockingDuration),
  renderingMs: f.renderStart > 0 ? Math.round(f.startTime + f.duration - f.renderStart) : 0,
  scripts: f.scripts.map((s) => `${s.invoker} ${s.sourceFunctionName}`
    + ` ${s.sourceURL.split('/').pop().slice(0, 40)}:${s.sourceCharPosition}`
    + ` ${Math.round(s.duration)} ms, forced layout`
    + ` ${Math.round(s.forcedStyleAndLayoutDuration)} ms`),
})"""
