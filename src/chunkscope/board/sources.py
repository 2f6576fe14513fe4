"""What a board's runs come from: labelled sources, made lazily.

``cs.runs`` takes a mapping of label → source, an iterable of ``(label, source)`` pairs, or a
folder of JSONL recordings. A source is anything ``cs.show`` takes, or a zero-argument
callable (a coroutine function too) that makes one when its run starts: a sweep of 200
inputs then opens its connections as slots free up, not all at once.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..inputs import RECORDING_SUFFIXES, as_source
from ..recording import Replay


@dataclass
class Labelled:
    """One run to be: its label and what makes its stream."""

    label: str
    source: Any

    @property
    def is_recording(self) -> bool:
        """A recording already happened: it is folded at once, not run, so it does not count
        against the board's concurrency."""
        return isinstance(self.source, Replay) or (
            isinstance(self.source, (str, Path)) and str(self.source).endswith(RECORDING_SUFFIXES)
        )


def labelled(sources: Any) -> list[Labelled]:
    """The board's runs in order, labels checked unique."""
    if isinstance(sources, (str, Path)):
        items = _folder(Path(sources))
    elif isinstance(sources, Mapping):
        items = [Labelled(_label(key), value) for key, value in sources.items()]
    elif isinstance(sources, Iterable) and not isinstance(sources, (bytes, bytearray)):
        items = []
        for index, item in enumerate(sources):
            if not (isinstance(item, tuple) and len(item) == 2):
                raise TypeError(
                    f"runs(): item {index} is a {type(item).__name__}, expected a "
                    "(label, source) pair (or pass a mapping of label → source)"
                )
            items.append(Labelled(_label(item[0]), item[1]))
    else:
        raise TypeError(
            "runs(): expected a mapping of label → source, an iterable of (label, source) "
            f"pairs or a folder of .jsonl recordings, got {type(sources).__name__}"
        )
    seen: set[str] = set()
    for item in items:
        if item.label in seen:
            raise ValueError(f"runs(): the label {item.label!r} is used twice; labels name rows")
        seen.add(item.label)
    return items


def _label(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float, Path)):
        return str(value)
    raise TypeError(f"runs(): a label must be a string, got {type(value).__name__} {value!r}")


def _folder(folder: Path) -> list[Labelled]:
    if not folder.is_dir():
        raise FileNotFoundError(f"runs(): {str(folder)!r} is not a folder of .jsonl recordings")
    files = sorted(
        p for p in folder.iterdir() if p.is_file() and p.name.endswith(RECORDING_SUFFIXES)
    )
    return [Labelled(path.stem, path) for path in files]


def is_factory(source: Any) -> bool:
    """A zero-argument callable that makes the stream, as opposed to the stream itself."""
    if isinstance(source, (str, Path, Replay)) or not callable(source):
        return False
    if hasattr(source, "__iter__") or hasattr(source, "__aiter__"):
        return False
    try:
        signature = inspect.signature(source)
    except (TypeError, ValueError):
        return True
    return all(
        p.default is not inspect.Parameter.empty
        or p.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        for p in signature.parameters.values()
    )


def make(source: Any, adapter: str | None) -> Any:
    """The run's stream, ready to read: a factory is called now (a coroutine it returns is
    awaited by ``as_source`` when the stream is first read)."""
    if is_factory(source):
        source = source()
    return as_source(source, adapter=adapter, to="runs()")
