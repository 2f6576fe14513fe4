"""The markdown libraries a widget's page receives apart from the widget's own module.

marked, DOMPurify and highlight.js (``static/libraries.js``) are more than half of what a
view needs, and needed only once text is to be drawn as markdown: every kilobyte a page
receives before a view's first words delays them. A widget that carries them sets its
``_libraries`` trait when its page asks (``LibrariesRequest``), when it is displayed before
its run starts (nothing of the run is waiting then) and when the notebook must keep them (a
cell that waited for the run, a saved board with runs kept whole).
"""

from __future__ import annotations

import functools
import threading

import traitlets

from .._static import read_static

_LOCK = threading.Lock()
"""The page's request comes on the kernel's thread, a waiting cell's on another."""


@functools.cache
def libraries_module() -> str:
    """The source of ``static/libraries.js`` (marked, DOMPurify, highlight.js), read once."""
    return read_static("libraries.js")


class CarriesLibraries(traitlets.HasTraits):
    """A widget whose page receives the markdown libraries through its ``_libraries``."""

    _libraries = traitlets.Unicode("").tag(sync=True)
    """The module that renders markdown and highlights code (``static/libraries.js``), or
    "" until the page asked for it or the notebook had to keep it."""

    def _send_libraries(self) -> None:
        """Set ``_libraries`` (once: the same value again sends nothing)."""
        with _LOCK:
            if not self._libraries:
                self._libraries = libraries_module()
