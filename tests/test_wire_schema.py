"""The wire schema is the one source of the TypeScript and the reference of docs/wire.md, and
what Python puts on the wire fits it."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path
from typing import Any, Literal, TypedDict, get_args, get_type_hints

import pytest

from chunkscope.chunks.models import CHUNK_CLASSES
from chunkscope.fold import parts as fold_parts
from chunkscope.fold import state as fold_state
from chunkscope.wire import codegen, schema

ROOT = Path(__file__).resolve().parents[1]


def test_generated_typescript_and_docs_are_current() -> None:
    diffs = codegen.drift(ROOT)
    assert not diffs, "stale: run `python -m chunkscope.wire.codegen`\n" + "\n".join(diffs)


def test_generated_typescript_says_it_is_generated() -> None:
    text = (ROOT / codegen.TS_PATH).read_text(encoding="utf-8")
    assert text.startswith(f"// Generated from {codegen.SCHEMA_PATH} by `{codegen.COMMAND}`")


def _sample(cls: type[fold_parts.Part]) -> fold_parts.Part:
    """An instance of a part class, its extra constructor arguments filled by name."""
    extra: dict[str, Any] = {}
    params = list(inspect.signature(cls.__init__).parameters.values())[6:]
    for param in params:
        extra[param.name] = 0 if param.name == "index" else f"sample-{param.name}"
    return cls("p0", None, None, 0.0, 0, **extra)


def _part_classes() -> list[type[fold_parts.Part]]:
    return [
        cls
        for cls in vars(fold_parts).values()
        if isinstance(cls, type)
        and issubclass(cls, fold_parts.Part)
        and not cls.__name__.startswith("_")
        and cls is not fold_parts.Part
    ]


@pytest.mark.parametrize("cls", _part_classes(), ids=lambda c: c.__name__)
def test_every_part_class_gives_what_its_typeddict_allows(cls: type[fold_parts.Part]) -> None:
    wire_type = getattr(schema, cls.__name__ + codegen.WIRE_SUFFIX)
    required = set(wire_type.__required_keys__)
    allowed = required | set(wire_type.__optional_keys__)
    part = _sample(cls)
    wire = dict(part.to_wire())
    assert required <= set(wire) <= allowed, (
        f"{cls.__name__}: missing {sorted(required - set(wire))}, "
        f"unknown {sorted(set(wire) - allowed)}"
    )
    (kind,) = get_args(get_type_hints(wire_type)["kind"])
    assert wire["kind"] == kind == cls.kind
    # The class's own fields are exactly what its TypedDict adds to PartBase and kind.
    own = {name for _, name in cls.wire_fields}
    base = set(schema.PartBase.__required_keys__) | set(schema.PartBase.__optional_keys__)
    assert own == allowed - base - {"kind"}


def test_every_part_kind_has_one_wire_type_in_the_part_union() -> None:
    kinds = {get_args(get_type_hints(t)["kind"])[0] for t in get_args(schema.PartWire)}
    assert kinds == set(get_args(schema.PartKind))
    assert {cls.kind for cls in _part_classes()} == kinds


def _state_sources() -> list[str]:
    """The fold's sources: state.py and the modules it is being split into."""
    return [p.read_text(encoding="utf-8") for p in Path(fold_state.__file__).parent.glob("*.py")]


def test_every_run_status_the_fold_sets_is_in_the_schema() -> None:
    statuses = set(get_args(schema.RunStatus))
    found: set[str] = set(fold_state.RUN_STATUSES)
    for source in _state_sources():
        found |= set(re.findall(r"_?set_status\(\s*\"([^\"]+)\"", source))
        for node in ast.walk(ast.parse(source)):
            # The workflow → run status map: {"success": "finished", ...}
            if isinstance(node, ast.Dict) and any(
                isinstance(k, ast.Constant) and k.value == "success" for k in node.keys
            ):
                found |= {v.value for v in node.values if isinstance(v, ast.Constant)}
    assert found, "no status found: the fold's status calls changed shape"
    assert found <= statuses, f"unknown to the wire: {sorted(found - statuses)}"


def test_every_tool_state_the_fold_sets_is_in_the_schema() -> None:
    tool_states = set(get_args(schema.ToolState))
    moves: set[str] = set()
    for source in _state_sources():
        moves |= set(re.findall(r"\bmove\(\s*\w+,\s*\"([^\"]+)\"", source))
    assert moves, "no tool state found: the fold's state calls changed shape"
    assert moves <= tool_states, f"unknown to the wire: {sorted(moves - tool_states)}"


def test_every_background_state_a_chunk_can_give_is_in_the_schema() -> None:
    # A background task takes the state its chunk type names: background-task-<state>.
    prefix = "background-task-"
    states = {k.removeprefix(prefix) for k in CHUNK_CLASSES if k.startswith(prefix)}
    states -= {"progress", "output"}  # reports, not states ("output" keeps "started")
    assert states, "no background chunk types found"
    background = set(get_args(schema.BackgroundState))
    assert states <= background, f"unknown to the wire: {sorted(states - background)}"


def test_a_field_added_in_python_alone_is_reported_as_drift() -> None:
    class RunInfo(schema.RunInfo):
        """The run-level record."""

        extra: str

    diffs = codegen.drift(ROOT, codegen.load().replace("RunInfo", RunInfo))
    assert any("+  extra: string;" in d for d in diffs)
    assert any(d.startswith("--- js/src/model/wire.ts") for d in diffs)
    assert any(d.startswith("--- docs/wire.md") for d in diffs)


def test_a_status_added_in_python_alone_is_reported_as_drift() -> None:
    widened = Literal[(*get_args(schema.RunStatus), "bogus")]  # type: ignore[valid-type]
    diffs = codegen.drift(ROOT, codegen.load().replace("RunStatus", widened))
    assert any('"bogus"' in d for d in diffs)


def test_names_drop_the_wire_suffix_only() -> None:
    loaded = codegen.load()
    names = [d.ts_name for d in loaded.decls]
    assert len(names) == len(set(names))
    assert {"ToolCall", "TextPart", "Part", "Usage", "Op", "Down", "Up", "Model"} <= set(names)


def test_check_mode_exits_one_with_a_diff_when_stale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "js/src/model").mkdir(parents=True)
    (tmp_path / "docs").mkdir()
    (tmp_path / codegen.TS_PATH).write_text("// old\n", encoding="utf-8")
    (tmp_path / codegen.DOCS_PATH).write_text(
        "# Wire\n\n<!-- generated: up -->\n<!-- end generated -->\n", encoding="utf-8"
    )
    assert codegen.run_codegen(["--check", "--root", str(tmp_path)]) == 1
    assert "+export interface FetchRequest" in capsys.readouterr().out
    assert codegen.run_codegen(["--root", str(tmp_path)]) == 0
    assert codegen.run_codegen(["--check", "--root", str(tmp_path)]) == 0


def test_a_typeddict_unknown_to_the_renderer_is_refused() -> None:
    class Odd(TypedDict):
        when: complex

    with pytest.raises(TypeError):
        codegen.render_decl(codegen.Decl("Odd", "interface", Odd, None), codegen.load())
