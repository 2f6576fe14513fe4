"""The package's face: the names a notebook user types, and no two public things sharing a name."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
from types import ModuleType

import chunkscope as cs

TOP_LEVEL = {
    "Chunk",
    "RunBoard",
    "RunState",
    "StreamView",
    "__version__",
    "accumulate",
    "adapters",
    "arecord",
    "cassette",
    "compare",
    "demo",
    "mastra",
    "parse_chunk",
    "record",
    "replay",
    "runs",
    "show",
    "sse",
    "write_html",
}
"""What ``import chunkscope as cs`` offers; everything else is in a named submodule."""

ROOMS = {"adapters", "board", "chunks", "fold", "live", "present", "wire"}
"""The subpackages along the data path; importing the package imports them."""


def _modules() -> list[ModuleType]:
    """Every module of the package, the private ones (``_writer``) included."""
    found = [cs]
    for info in pkgutil.walk_packages(cs.__path__, prefix="chunkscope."):
        if info.name == "chunkscope.__main__":
            continue
        found.append(importlib.import_module(info.name))
    return found


def _is_public(module: ModuleType) -> bool:
    return not any(part.startswith("_") for part in module.__name__.split("."))


def test_the_top_level_offers_the_notebook_names_and_the_rooms() -> None:
    # a fresh interpreter: other tests import more submodules (cli, codegen) into the package
    listing = "import chunkscope; print(' '.join(dir(chunkscope)))"
    done = subprocess.run(
        [sys.executable, "-c", listing], capture_output=True, text=True, check=True, timeout=120
    )
    public = {name for name in done.stdout.split() if not name.startswith("_")}
    assert set(cs.__all__) == TOP_LEVEL
    assert public == (TOP_LEVEL - {"__version__"}) | ROOMS | {
        "capture",
        "cassettes",
        "inputs",
        "recording",
    }
    assert isinstance(cs.__version__, str)


def test_no_two_public_things_share_a_name() -> None:
    """A class or function defined in the package has a name no other one has.

    ``Usage`` once named three different things and ``Chunk`` two: a reader of
    ``from chunkscope.x import Usage`` could not tell which.
    """
    owners: dict[str, set[str]] = {}
    for module in _modules():
        for name, value in vars(module).items():
            if name.startswith("_") or not (inspect.isclass(value) or inspect.isfunction(value)):
                continue
            home = getattr(value, "__module__", "")
            if home != module.__name__ or not home.startswith("chunkscope"):
                continue  # imported here, defined elsewhere: counted where it is defined
            owners.setdefault(name, set()).add(f"{home}.{value.__qualname__}")
    shared = {name: sorted(places) for name, places in owners.items() if len(places) > 1}
    assert shared == {}


def test_no_module_is_shadowed_by_a_name_in_its_package() -> None:
    """``chunkscope.adapters.sse`` was both a module and the function that hid it."""
    clashes = []
    for module in _modules():
        if not hasattr(module, "__path__"):
            continue
        for info in pkgutil.iter_modules(module.__path__):
            value = getattr(module, info.name, None)
            if value is not None and not isinstance(value, ModuleType):
                clashes.append(f"{module.__name__}.{info.name}")
    assert clashes == []


def test_every_public_name_has_a_docstring() -> None:
    missing = []
    for module in _modules():
        if not _is_public(module):
            continue
        if not (module.__doc__ or "").strip():
            missing.append(module.__name__)
        for name, value in vars(module).items():
            if name.startswith("_") or not (inspect.isclass(value) or inspect.isfunction(value)):
                continue
            if getattr(value, "__module__", "") != module.__name__:
                continue
            if not (inspect.getdoc(value) or "").strip():
                missing.append(f"{module.__name__}.{name}")
    assert missing == []
