"""A run as one self-contained HTML page, to share with someone who has no notebook.

The page holds everything it needs: the standalone front-end bundle and its styles inlined,
the persisted run (``docs/wire.md`` Snapshot) embedded as JSON, and the static transcript in a
``<noscript>`` for readers without JavaScript. It fetches nothing: a Content-Security-Policy
allows only the page's own script (by hash), inline styles and ``data:`` images, so opening a
shared file never reaches the network, not even for an image URL in the model's output.

Transient chunks are never in the page: only the persisted run is written.

>>> import chunkscope as cs
>>> from chunkscope.present.export import write_html
>>> write_html(cs.accumulate(cs.demo.stream(speed=0)), "run.html")  # doctest: +SKIP
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from .._static import MissingBundleError, read_static
from ..fold.state import RunState
from ..inputs import as_run
from ..wire.safejson import safe_text
from ..wire.schema import BOARD_ELEMENT_ID, ROOT_ELEMENT_ID, SNAPSHOT_ELEMENT_ID


class ExportError(RuntimeError):
    """The page could not be written; the message says what was missing or wrong."""


def write_html(run: Any, path: str | Path, *, title: str | None = None) -> Path:
    """Write ``run`` as one self-contained HTML page at ``path`` and return the path.

    ``run`` is a ``RunState``, a ``StreamView`` (its run as folded so far), the path of a
    JSONL recording (folded with its recorded timing), or a ``RunBoard`` (its table, and the
    runs its saved notebook would keep, openable in place). ``title`` overrides the title.
    """
    if isinstance(run, BoardLike):
        page = board_page_html(run, title=title)
    else:
        page = page_html(as_run(run, to="write_html()"), title=title)
    target = Path(path)
    target.write_text(page, encoding="utf-8")
    return target


def page_html(state: RunState, *, title: str | None = None) -> str:
    """The standalone page for ``state`` as a string."""
    page_title = title if title is not None else (state.title or "chunkscope run")
    # The page has no kernel to fetch held values from: every value goes in whole.
    snapshot = state.snapshot(whole=True)
    if title is not None:
        snapshot["run"]["title"] = title
    return _page(page_title, SNAPSHOT_ELEMENT_ID, snapshot, state.static_html())


@runtime_checkable
class BoardLike(Protocol):
    """What a page of a board needs from it (``chunkscope.board.RunBoard`` has it)."""

    title: str

    def saved_state(self, *, whole: bool = False) -> dict[str, Any]:
        """The board's rows and kept runs (``BoardSaved``)."""

    def readable(self) -> tuple[str, str]:
        """Its text and static HTML."""


def board_page_html(board: BoardLike, *, title: str | None = None) -> str:
    """The standalone page of a ``RunBoard`` as a string: every row, and the runs within the
    board's ``keep`` and ``keep_total``, whole (no kernel is there to fetch the rest)."""
    saved = board.saved_state(whole=True)
    page_title = title if title is not None else (board.title or "chunkscope runs")
    _, static = board.readable()
    return _page(page_title, BOARD_ELEMENT_ID, saved, static)


def _page(page_title: str, element_id: str, embedded: Any, static: str) -> str:
    script = inline_script(_read_static("standalone.js"))
    style = _read_static("standalone.css")
    if re.search(r"</style", style, re.IGNORECASE):
        raise ExportError("the standalone stylesheet contains '</style'; it cannot be inlined")
    script_hash = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    policy = (
        "default-src 'none'; "
        f"script-src 'sha256-{script_hash}'; "
        "style-src 'unsafe-inline'; "
        "img-src data:; "
        "base-uri 'none'; form-action 'none'"
    )
    page = (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{html.escape(policy)}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="generator" content="chunkscope">\n'
        f"<title>{html.escape(page_title)}</title>\n"
        f"<style>{style}</style>\n"
        "</head>\n<body>\n"
        f'<div id="{ROOT_ELEMENT_ID}"></div>\n'
        f"<noscript>{static}</noscript>\n"
        f'<script type="application/json" id="{element_id}">'
        f"{embedded_json(embedded)}</script>\n"
        f"<script>{script}</script>\n"
        "</body>\n</html>\n"
    )
    return safe_text(page)


def embedded_json(value: Any) -> str:
    r"""``value`` as JSON that can sit inside a ``<script>`` element without ending it.

    ``<``, ``>`` and ``&`` become ``\u`` escapes, so no ``</script>`` or ``<!--`` survives in
    the text, whatever the run's content; ``JSON.parse`` reads the escapes back unchanged.
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def inline_script(code: str) -> str:
    r"""The bundle's code made safe to inline in a classic ``<script>`` element.

    The HTML parser ends a script at ``</script`` and treats ``<!--`` specially. In the
    minified bundle both can occur only inside string, template and regular-expression
    literals (``<!--`` as code is a comment in classic scripts, which esbuild never emits), so
    escaping the ``<`` as ``\x3C`` keeps the meaning in all three.
    """
    return re.sub(r"<(?=/script|!--)", r"\\x3C", code, flags=re.IGNORECASE)


def _read_static(name: str) -> str:
    try:
        return read_static(name)
    except MissingBundleError as error:
        raise ExportError(str(error)) from None
