"""Mastra chunk models and ``parse_chunk``."""

from .models import *  # noqa: F403
from .models import __all__ as __all__
