"""How a chunkscope widget sits in a cell's output: once, under one display id, readable
without the widget, and refreshed in place as its run (or runs) go on.

The output bundle holds, beside the widget view, a ``text/plain`` and a ``text/html`` that
the widget's ``readable()`` writes: what a reader sees in a notebook saved without widget
state, on GitHub, or in a terminal.
"""

from __future__ import annotations

import contextvars
import threading
import time
from typing import Any

REFRESH_INTERVAL_S = 2.0
"""The least time between a run's start (or a refresh) and a refresh asked for while the
run goes on (``_refresh_display_soon``); one asked for sooner comes when the interval has
passed. Each refresh replaces the cell's output: JupyterLab draws it again, and 200 ms later
its table of contents sanitizes every output's HTML to find headings, a task of 30-90 ms
measured in the middle of a burst of 100k deltas. A run that ends within the interval gets
its end's refresh only; a long one is kept as current as a reader saving it could notice."""


class DisplayedOutput:
    """Mixed into an anywidget: ``readable()`` gives the bundle's text and HTML, and
    ``_display_id`` names every output of the widget so that a refresh updates all of them."""

    _display_id: str
    _displayed: bool = False
    _shown_in: int | None = None
    # When the output was last brought up to date (or its run started), time.monotonic().
    _refreshed_at: float = float("-inf")
    _refresh_timer: threading.Timer | None = None
    _refreshes_begun = 0
    # One lock for every widget's refresh schedule: it guards a few attribute reads and writes.
    _refresh_lock = threading.Lock()

    def readable(self) -> tuple[str, str]:
        """The ``text/plain`` and ``text/html`` of the output bundle."""
        raise NotImplementedError

    def display_once(self, *, run_follows: bool = False) -> None:
        """Display the widget now. When the call that made it is a cell's last line, the
        cell's echo of the returned widget does not draw it a second time; a later cell does.
        ``run_follows``: the caller starts the widget's run right after, so its page is to
        receive the run before anything it can do without."""
        try:
            from IPython import get_ipython
        except ImportError:
            return
        self._display_bundle(run_follows=run_follows)
        shell = get_ipython()
        self._shown_in = getattr(shell, "execution_count", None) if shell else None

    def _ipython_display_(self) -> None:
        from IPython import get_ipython

        shell = get_ipython()
        count = getattr(shell, "execution_count", None) if shell else None
        if self._shown_in is not None and count == self._shown_in:
            self._shown_in = None  # the echo of the cell that showed it
            return
        self._display_bundle(run_follows=False)

    def _display_bundle(self, *, run_follows: bool) -> None:
        # Every output of this widget shares one display id, so each refresh updates all of
        # them in place (JupyterLab, nbclient and so nbconvert --execute follow display ids).
        from IPython import get_ipython
        from IPython.display import display

        data, metadata = self._bundle()
        if get_ipython() is None:
            # plain Python: no display machinery, so show what a terminal can (its text)
            print(data["text/plain"])
            return
        display(data, metadata=metadata, raw=True, display_id=self._display_id)  # type: ignore[no-untyped-call]
        self._displayed = True
        self._on_displayed(run_follows=run_follows)

    def _on_displayed(self, *, run_follows: bool) -> None:
        """Called after each display of the widget in a notebook; ``run_follows`` as
        ``display_once``'s."""

    def _refresh_display(self) -> None:
        """Bring every displayed output of this widget up to date."""
        with self._refresh_lock:
            self._refreshed_at = time.monotonic()
            if self._refresh_timer is not None:
                self._refresh_timer.cancel()
                self._refresh_timer = None
            self._refreshes_begun += 1
            this_one = self._refreshes_begun
        if not self._displayed:
            return
        try:
            from IPython.display import update_display
        except ImportError:
            return
        data, metadata = self._bundle()
        with self._refresh_lock:
            # Refreshes come from several threads (the run's, a timer's, the cell's): one
            # begun after this one sends the output as it stood then, and must stay the last.
            if this_one != self._refreshes_begun:
                return
            update_display(data, raw=True, metadata=metadata, display_id=self._display_id)  # type: ignore[no-untyped-call]

    def _hold_refreshes(self) -> None:
        """A run starts: refreshes asked for while it goes on wait ``REFRESH_INTERVAL_S``."""
        with self._refresh_lock:
            self._refreshed_at = time.monotonic()

    def _refresh_display_soon(self) -> None:
        """Refresh now if ``REFRESH_INTERVAL_S`` passed since the last refresh (or the run's
        start), else once it has; a refresh in between (the run's end) makes that one moot."""
        with self._refresh_lock:
            wait = self._refreshed_at + REFRESH_INTERVAL_S - time.monotonic()
            if wait > 0:
                if self._refresh_timer is None:
                    # The timer's thread runs in the caller's context, where ipykernel keeps
                    # the message parent that the update is sent under.
                    context = contextvars.copy_context()
                    timer = threading.Timer(wait, context.run, (self._refresh_when_due,))
                    timer.daemon = True
                    self._refresh_timer = timer
                    timer.start()
                return
        self._refresh_display()

    def _refresh_when_due(self) -> None:
        with self._refresh_lock:
            if self._refresh_timer is None:
                return  # refreshed in the meantime
            self._refresh_timer = None
        if self._refresh_still_due():
            self._refresh_display()

    def _refresh_still_due(self) -> bool:
        """Whether a refresh put off by ``_refresh_display_soon`` is to be made when due."""
        return True

    def _bundle(self) -> tuple[dict[str, Any], dict[str, Any]]:
        bundle = self._repr_mimebundle_()
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        return dict(data), dict(metadata or {})

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # anywidget's bundle has the default object repr (a memory address) as text/plain,
        # which changes on every run and breaks nbval: put the deterministic repr there,
        # followed by what a reader without the widget sees.
        bundle = super()._repr_mimebundle_(**kwargs)  # type: ignore[misc]
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        if isinstance(data, dict):
            plain, rich = self.readable()
            data["text/plain"] = plain
            data["text/html"] = rich
        return bundle
