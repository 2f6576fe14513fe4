"""What nbval must not compare in a StreamView output, handed to nbval by chunkscope's plugin.

A ``cs.show()`` cell returns while the run goes on; its output is refreshed in place after
that (``update_display_data``), so a notebook saved in JupyterLab or executed by nbclient
holds the run as it ended, while nbval, which compares only what a cell emitted before it
returned, sees the run as it stood then. The output marks the refreshed part
(``chunkscope.live.widget.NBVAL_SANITIZE``); nbval replaces it by the marker alone on both
sides, and compares everything else as usual.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def is_nbval_file(node: Any) -> bool:
    """Whether ``node`` is nbval's collector of one notebook."""
    return type(node).__module__.startswith("nbval") and isinstance(
        getattr(node, "sanitize_patterns", None), dict
    )


def add_patterns(items: Iterable[Any]) -> None:
    """Add chunkscope's patterns to the sanitize patterns of every notebook ``items`` come
    from, before any file a user gave (``--nbval-sanitize-with``), which nbval adds later."""
    files = {id(item.parent): item.parent for item in items if is_nbval_file(item.parent)}
    if not files:
        return
    from .widget import NBVAL_SANITIZE

    for node in files.values():
        for regex, replacement in NBVAL_SANITIZE.items():
            node.sanitize_patterns.setdefault(regex, replacement)
