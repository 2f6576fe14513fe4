"""The package's imports form no cycle, and the lower rooms never reach up into the live
widget or the presenters.

Every module under src/chunkscope is parsed with ``ast``; each import, at module level or
inside a function, becomes an edge to the chunkscope module it names (relative imports are
resolved; ``from pkg import name`` is an edge to ``pkg.name`` when that is a module, else to
``pkg``). Imports under ``if TYPE_CHECKING:`` are not run and are left out. Importing
``a.b.c`` also runs ``a/__init__`` and ``a/b/__init__``, so those are edges too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import chunkscope

ROOT = Path(chunkscope.__file__).parent
LOWER = ("chunkscope.fold", "chunkscope.chunks", "chunkscope.wire", "chunkscope.adapters")
UPPER = ("chunkscope.live", "chunkscope.present")


def _modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = ["chunkscope", *path.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _with_parents(name: str) -> set[str]:
    """A module and the packages whose ``__init__`` importing it runs."""
    parts = name.split(".")
    return {".".join(parts[:k]) for k in range(2, len(parts) + 1)} & MODULES.keys()


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    is_package = MODULES[module].name == "__init__.py"
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
        return set().union(*(_with_parents(n) for n in names if n.startswith("chunkscope")))
    if node.level:
        base = module.split(".")
        if not is_package:
            base = base[:-1]
        base = base[: len(base) - (node.level - 1)]
        source = ".".join([*base, node.module] if node.module else base)
    else:
        source = node.module or ""
    if not source.startswith("chunkscope"):
        return set()
    out = _with_parents(source)
    for alias in node.names:
        sub = f"{source}.{alias.name}"
        if sub in MODULES:
            out |= _with_parents(sub)
    return out


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        edges: set[str] = set()
        for node in _imports(tree):
            edges |= _targets(module, node)
        # a package's own __init__ is run before its submodules, not by them
        graph[module] = {e for e in edges if e != module and not module.startswith(e + ".")}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_graph_sees_the_packages_imports() -> None:
    graph = _graph()
    assert "chunkscope.fold.state" in graph["chunkscope.present.export"]
    assert "chunkscope.fold.dispatch" in graph["chunkscope.fold.state"]
    assert "chunkscope.fold.text" in graph["chunkscope.fold.dispatch"]


def test_the_import_graph_has_no_cycle() -> None:
    graph = _graph()
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_a_cycle_would_be_found() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_the_lower_rooms_never_import_the_live_widget_or_the_presenters() -> None:
    graph = _graph()
    bad = {
        (module, target)
        for module, targets in graph.items()
        if module.startswith(LOWER)
        for target in targets
        if target.startswith(UPPER) or target == "chunkscope"
    }
    assert not bad, sorted(bad)
