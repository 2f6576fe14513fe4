"""The pytest plugin: ``--chunkscope-record=none|once|all`` chooses how cassettes record.

Installed with chunkscope (the ``pytest11`` entry point), so ``pytest --nbval notebooks/
--chunkscope-record=all`` re-records every cassette the notebooks use while nbval compares
their outputs with the saved ones, and ``--chunkscope-record=none`` makes a missing cassette
an error instead of a call to a live agent (CI). The option sets the ``CHUNKSCOPE_RECORD``
environment variable for the session (notebook kernels that nbval starts inherit it) and
puts back what it was at the end. Without the option nothing changes.
"""

from __future__ import annotations

import os
from typing import Any

from .cassettes import ENV_VAR, RECORD_MODES

_SAVED = "_chunkscope_saved_record_mode"
_UNSET = object()


def pytest_addoption(parser: Any) -> None:
    """Add ``--chunkscope-record``."""
    group = parser.getgroup("chunkscope", "chunkscope cassettes")
    group.addoption(
        "--chunkscope-record",
        dest="chunkscope_record",
        choices=RECORD_MODES,
        default=None,
        help=(
            "how chunkscope cassettes record during this session: none (replay only, a "
            "missing cassette is an error), once (record missing cassettes) or all (record "
            f"every cassette anew). Sets {ENV_VAR} for the session."
        ),
    )


def pytest_configure(config: Any) -> None:
    """Set ``CHUNKSCOPE_RECORD`` for the session when the option is given."""
    mode = config.getoption("chunkscope_record", default=None)
    if mode is None:
        return
    setattr(config, _SAVED, os.environ.get(ENV_VAR, _UNSET))
    os.environ[ENV_VAR] = mode


def pytest_unconfigure(config: Any) -> None:
    """Put ``CHUNKSCOPE_RECORD`` back as it was before the session."""
    if not hasattr(config, _SAVED):
        return
    saved = getattr(config, _SAVED)
    delattr(config, _SAVED)
    if saved is _UNSET:
        os.environ.pop(ENV_VAR, None)
    else:
        os.environ[ENV_VAR] = saved


def pytest_collection_modifyitems(items: list[Any]) -> None:
    """Under ``--nbval``: the part of a ``cs.show()`` output refreshed after its cell
    returned is not compared (``chunkscope.live.nbval_rules``)."""
    from .live.nbval_rules import add_patterns

    add_patterns(items)
