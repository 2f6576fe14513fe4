"""A board of many runs: ``cs.runs(sources)`` shows them live in one cell, a row per run.

``sources`` labels the runs; ``chunkscope.board.engine`` starts and folds them on one
schedule, ``chunkscope.board.summary`` makes their rows, ``chunkscope.board.table`` their
plain and text forms, and ``chunkscope.board.widget`` the widget itself.
"""

from .widget import RunBoard, runs

__all__ = ["RunBoard", "runs"]
