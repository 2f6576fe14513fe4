"""Every RunState in the test suite folds strictly: a handler that raises fails the test
instead of turning into an error notice. A test of the lenient behaviour passes
``strict=False`` itself."""

from __future__ import annotations

import os

os.environ.setdefault("CHUNKSCOPE_STRICT_FOLD", "1")
