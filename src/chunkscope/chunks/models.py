"""Every chunk model and ``parse_chunk`` under one name (the package's modules re-exported)."""

from . import *  # noqa: F403
from . import __all__ as __all__
