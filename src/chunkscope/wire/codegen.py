"""Render the wire declared in ``chunkscope.wire.schema`` as TypeScript and as documentation.

``python -m chunkscope.wire.codegen`` writes ``js/src/model/wire.ts`` and the generated blocks
of ``docs/wire.md`` (the text between ``<!-- generated: NAME -->`` and
``<!-- end generated -->``); ``--check`` writes nothing, prints a diff of what is stale and
exits 1 when anything is. The rules of the rendering are in the docstring of the schema
module. Run it from a checkout: both outputs live in the repository, not in the package.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import difflib
import importlib
import inspect
import itertools
import json
import re
import sys
import types
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

from . import schema as _schema

COMMAND = "python -m chunkscope.wire.codegen"
TS_PATH = "js/src/model/wire.ts"
DOCS_PATH = "docs/wire.md"
SCHEMA_PATH = "src/chunkscope/wire/schema.py"
WIRE_SUFFIX = "Wire"

_BEGIN = re.compile(r"^<!-- generated: ([a-z-]+) -->$")
_END = "<!-- end generated -->"


@dataclass
class Decl:
    """One exported name of the schema."""

    name: str
    """Its Python name."""
    what: Literal["const", "alias", "interface"]
    value: Any
    """The constant's value, the alias's type, or the TypedDict class."""
    doc: str | None
    source: str | None = None
    """For a constant: its expression as written, when that is plain arithmetic."""
    bases: tuple[str, ...] = ()
    """For a TypedDict: the names of its public bases (through its private ones)."""
    field_docs: dict[str, str] = field(default_factory=dict)
    """For a TypedDict: the docstrings of its fields (its own and those of private bases)."""

    @property
    def ts_name(self) -> str:
        """Its TypeScript name (a part's wire form drops the ``Wire`` suffix)."""
        return ts_name(self.name)


@dataclass
class Schema:
    """The declarations of a schema module, in source order."""

    decls: list[Decl]

    def __getitem__(self, name: str) -> Decl:
        for decl in self.decls:
            if decl.name == name:
                return decl
        raise KeyError(name)

    def replace(self, name: str, value: Any) -> Schema:
        """A copy with the declaration ``name`` holding ``value`` instead (for tests)."""
        return Schema(
            [dataclasses.replace(d, value=value) if d.name == name else d for d in self.decls]
        )


def ts_name(name: str) -> str:
    """The TypeScript name of a schema name: a part's wire form drops the ``Wire`` suffix."""
    return name[: -len(WIRE_SUFFIX)] if name.endswith(WIRE_SUFFIX) else name


# ------------------------------------------------------------------------------ reading


def load(module: types.ModuleType = _schema) -> Schema:
    """The declarations ``module`` exports (``__all__``), in the order of its source."""
    exported = set(getattr(module, "__all__", ()))
    tree = ast.parse(inspect.getsource(module))
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    value_docs = _value_docs(tree)
    decls: list[Decl] = []
    seen: set[str] = set()
    for node in tree.body:
        for name in _names(node):
            if name not in exported or name in seen:
                continue
            seen.add(name)
            decls.append(_decl(module, name, node, classes, value_docs))
    missing = exported - seen
    if missing:
        raise ValueError(f"__all__ names what the module does not define: {sorted(missing)}")
    return Schema(decls)


def _names(node: ast.stmt) -> Iterator[str]:
    if isinstance(node, ast.ClassDef):
        yield node.name
    elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        yield node.target.id
    elif isinstance(node, ast.Assign):
        yield from (t.id for t in node.targets if isinstance(t, ast.Name))
    elif isinstance(node, ast.ImportFrom):
        yield from (alias.asname or alias.name for alias in node.names)


def _decl(
    module: types.ModuleType,
    name: str,
    node: ast.stmt,
    classes: dict[str, ast.ClassDef],
    value_docs: dict[str, str],
) -> Decl:
    value = getattr(module, name)
    if isinstance(node, ast.ClassDef):
        if not _is_typeddict(value):
            raise TypeError(f"{name} is exported but is not a TypedDict")
        return Decl(
            name,
            "interface",
            value,
            _clean(inspect.getdoc(value)),
            bases=_public_bases(node, classes),
            field_docs=_field_docs(node, classes),
        )
    if isinstance(node, ast.ImportFrom):
        relative = "." * node.level + (node.module or "")
        origin = importlib.import_module(relative, module.__package__)
        doc = _value_docs(ast.parse(inspect.getsource(origin))).get(name)
        return Decl(name, "alias", value, _clean(doc))
    annotation = ast.unparse(node.annotation) if isinstance(node, ast.AnnAssign) else ""
    doc = _clean(value_docs.get(name))
    if annotation.startswith("Final"):
        assert isinstance(node, ast.AnnAssign)
        assert node.value is not None
        source = ast.unparse(node.value) if _is_arithmetic(node.value) else None
        return Decl(name, "const", value, doc, source=source)
    if annotation == "TypeAlias":
        return Decl(name, "alias", value, doc)
    raise TypeError(f"{name} is exported: annotate it Final or TypeAlias, or make it a TypedDict")


def _is_typeddict(value: Any) -> bool:
    return isinstance(value, type) and issubclass(value, dict) and hasattr(value, "__total__")


def _is_arithmetic(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.BinOp):
        return _is_arithmetic(node.left) and _is_arithmetic(node.right)
    return False


def _value_docs(tree: ast.Module) -> dict[str, str]:
    """Module-level name → the string literal that follows its assignment."""
    return _following_docs(tree.body)


def _following_docs(body: Sequence[ast.stmt]) -> dict[str, str]:
    docs: dict[str, str] = {}
    for node, after in itertools.pairwise(body):
        if not (
            isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            continue
        for name in _names(node) if not isinstance(node, ast.ClassDef) else ():
            docs[name] = after.value.value
    return docs


def _public_bases(node: ast.ClassDef, classes: dict[str, ast.ClassDef]) -> tuple[str, ...]:
    """The public bases of a class, looking through its private ones."""
    found: list[str] = []
    for base in node.bases:
        name = ast.unparse(base)
        if name.startswith("_"):
            if name in classes:
                found += _public_bases(classes[name], classes)
        elif name != "TypedDict":
            found.append(name)
    return tuple(dict.fromkeys(found))


def _field_docs(node: ast.ClassDef, classes: dict[str, ast.ClassDef]) -> dict[str, str]:
    """Field docstrings of a class and, first, of its private bases."""
    docs: dict[str, str] = {}
    for base in node.bases:
        name = ast.unparse(base)
        if name.startswith("_") and name in classes:
            docs.update(_field_docs(classes[name], classes))
    for key, doc in _following_docs(node.body).items():
        cleaned = _clean(doc)
        if cleaned:
            docs[key] = cleaned
    return docs


def _clean(doc: str | None) -> str | None:
    """A docstring as comment text: dedented, RST literals as Markdown ones."""
    if not doc:
        return None
    return inspect.cleandoc(doc).replace("``", "`")


# ------------------------------------------------------------------------------ types


class _Types:
    """Renders Python types as TypeScript, naming the schema's own declarations."""

    def __init__(self, schema: Schema):
        self.interfaces = {d.value: d.ts_name for d in schema.decls if d.what == "interface"}
        self.by_name = {d.name: d.ts_name for d in schema.decls if d.what == "interface"}
        self.aliases: dict[Any, str] = {}
        for decl in schema.decls:
            if decl.what == "alias":
                self.aliases.setdefault(decl.value, decl.ts_name)

    def name(self, tp: Any) -> str | None:
        if isinstance(tp, type) and tp in self.interfaces:
            return self.interfaces[tp]
        if _is_typeddict(tp) and tp.__name__ in self.by_name:
            # A declaration replaced by another of its name (``Schema.replace``).
            return self.by_name[tp.__name__]
        try:
            return self.aliases.get(tp)
        except TypeError:  # unhashable
            return None

    def render(self, tp: Any, *, top: bool = False) -> str:
        """``tp`` in TypeScript; ``top`` renders an alias's own value instead of its name."""
        named = None if top else self.name(tp)
        if named is not None:
            return named
        if tp is Any or tp is object:
            return "unknown"
        simple = {str: "string", int: "number", float: "number", bool: "boolean"}
        if tp in simple:
            return simple[tp]
        if tp is None or tp is type(None):
            return "null"
        if tp is bytes:
            return "DataView"
        origin = get_origin(tp)
        args = get_args(tp)
        if origin is Annotated:
            inner, *meta = args
            names = next((m for m in meta if isinstance(m, _schema.TupleNames)), None)
            if names is not None and get_origin(inner) is tuple:
                members = get_args(inner)
                if len(members) != len(names.names):
                    raise TypeError(f"{tp}: the names do not match the members")
                labelled = (
                    f"{n}: {self.render(m)}" for n, m in zip(names.names, members, strict=True)
                )
                return f"[{', '.join(labelled)}]"
            return self.render(inner, top=top)
        if origin is Literal:
            return " | ".join(json.dumps(a) for a in args)
        if origin is Union or origin is types.UnionType:
            return " | ".join(self.render(a) for a in args)
        if origin is list:
            (item,) = args
            rendered = self.render(item)
            return f"({rendered})[]" if " | " in rendered else f"{rendered}[]"
        if origin is dict:
            key, value = args
            if key is not str:
                raise TypeError(f"{tp}: JSON object keys are strings")
            return f"Record<string, {self.render(value)}>"
        if origin is tuple:
            return f"[{', '.join(self.render(a) for a in args)}]"
        raise TypeError(f"no TypeScript for {tp!r}")


def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls, include_extras=True)


def _keys(cls: type) -> set[str]:
    return set(cls.__required_keys__) | set(cls.__optional_keys__)  # type: ignore[attr-defined]


def _partial_of(decl: Decl, schema: Schema) -> Decl | None:
    """The declaration ``decl`` is all of made optional, if any."""
    cls = decl.value
    if cls.__required_keys__:
        return None
    hints = _hints(cls)
    for other in schema.decls:
        if other is decl or other.what != "interface" or other.value.__optional_keys__:
            continue
        theirs = _hints(other.value)
        if list(theirs) == list(hints) and theirs == hints:
            return other
    return None


@dataclass
class _Field:
    name: str
    optional: bool
    type: str
    doc: str | None


def _interface(decl: Decl, schema: Schema, types_: _Types) -> tuple[str | None, list[_Field]]:
    """The public base an interface extends (if any) and its own fields."""
    cls = decl.value
    if len(decl.bases) > 1:
        raise TypeError(f"{decl.name}: at most one public base")
    base = schema[decl.bases[0]] if decl.bases else None
    inherited = _keys(base.value) if base is not None else set()
    fields = []
    for key, tp in _hints(cls).items():
        if key in inherited:
            continue
        optional = key in cls.__optional_keys__
        fields.append(_Field(key, optional, types_.render(tp), decl.field_docs.get(key)))
    return (base.ts_name if base is not None else None), fields


# ------------------------------------------------------------------------------ rendering


def _comment(doc: str | None, indent: str, style: str) -> list[str]:
    if not doc:
        return []
    lines = doc.splitlines()
    if style == "doc":
        return [f"{indent}// {line}".rstrip() for line in lines]
    if len(lines) == 1 and len(indent) + len(lines[0]) + 7 <= 100:
        return [f"{indent}/** {lines[0]} */"]
    return [f"{indent}/**", *(f"{indent} * {line}".rstrip() for line in lines), f"{indent} */"]


def _prop(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z_$][\w$]*", name) else json.dumps(name)


def render_decl(decl: Decl, schema: Schema, style: str = "ts") -> list[str]:
    """The lines of one declaration; ``style`` "ts" for the module, "doc" for listings."""
    types_ = _Types(schema)
    export = "export " if style == "ts" else ""
    out = _comment(decl.doc, "", style)
    if decl.what == "const":
        value = decl.value
        text = decl.source
        if text is None:
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            text = json.dumps(value)
        elif re.fullmatch(r"\d+\.0", text):
            text = text[:-2]
        keyword = "export const" if style == "ts" else "const"
        return [*out, f"{keyword} {decl.name} = {text};"]
    if decl.what == "alias":
        members = _union_members(decl.value)
        head = f"{export}type {decl.ts_name} ="
        rendered = [types_.render(m) for m in members] if members else []
        one = f"{head} {' | '.join(rendered) if members else types_.render(decl.value, top=True)};"
        if len(one) <= 100 or not members:
            return [*out, one]
        return [*out, head, *(f"  | {r}" for r in rendered[:-1]), f"  | {rendered[-1]};"]
    whole = _partial_of(decl, schema)
    if whole is not None:
        return [*out, f"{export}type {decl.ts_name} = Partial<{whole.ts_name}>;"]
    base, fields = _interface(decl, schema, types_)
    extends = f" extends {base}" if base else ""
    lines = [*out, f"{export}interface {decl.ts_name}{extends} {{"]
    for f in fields:
        lines += _comment(f.doc, "  ", style)
        lines.append(f"  {_prop(f.name)}{'?' if f.optional else ''}: {f.type};")
    lines.append("}")
    return lines


def _union_members(tp: Any) -> list[Any]:
    """The members of a union or Literal alias, each rendered on its own line when long."""
    origin = get_origin(tp)
    if origin is Literal:
        return [Literal[a] for a in get_args(tp)]
    if origin is Union or origin is types.UnionType:
        return list(get_args(tp))
    return []


def render_ts(schema: Schema) -> str:
    """The TypeScript module of the whole schema."""
    lines = [
        f"// Generated from {SCHEMA_PATH} by `{COMMAND}`; do not edit.",
        "// The wire between the kernel and the front end; docs/wire.md says how it is used.",
    ]
    for decl in schema.decls:
        lines.append("")
        lines += render_decl(decl, schema)
    return "\n".join(lines) + "\n"


def _listing(*names: str) -> Callable[[Schema], str]:
    def render(schema: Schema) -> str:
        chunks = ["\n".join(render_decl(schema[n], schema, "doc")) for n in names]
        return "```ts\n" + "\n\n".join(chunks) + "\n```"

    return render


def _constants(schema: Schema) -> str:
    rows = ["| constant | value | meaning |", "| --- | --- | --- |"]
    for decl in schema.decls:
        if decl.what == "const":
            value = render_decl(decl, schema, "doc")[-1].split(" = ", 1)[1].rstrip(";")
            meaning = " ".join((decl.doc or "").split())
            rows.append(f"| `{decl.name}` | `{value}` | {meaning} |")
    return "\n".join(rows)


def _part_kinds(schema: Schema) -> str:
    types_ = _Types(schema)
    rows = ["| kind | type | its own fields |", "| --- | --- | --- |"]
    for member in get_args(schema["PartWire"].value):
        decl = next(d for d in schema.decls if d.value is member)
        _, fields = _interface(decl, schema, types_)
        kind = next(f.type for f in fields if f.name == "kind")
        own = ", ".join(
            f"`{f.name}{'?' if f.optional else ''}: {f.type}`".replace("|", "\\|")
            for f in fields
            if f.name != "kind"
        )
        summary = (decl.doc or "").split("\n\n")[0].replace("\n", " ")
        rows.append(f"| `{kind.strip(chr(34))}` | `{decl.ts_name}`: {summary} | {own} |")
    return "\n".join(rows)


BLOCKS: dict[str, Callable[[Schema], str]] = {
    "constants": _constants,
    "snapshot": _listing("Snapshot", "PackedSnapshot"),
    "run": _listing("RunInfo", "RunStatus", "UsageWire"),
    "part-base": _listing("PartBase", "PartKind"),
    "part-kinds": _part_kinds,
    "part-values": _listing(
        "Mark", "StateMark", "ToolState", "BackgroundState", "NoticeLevel", "NoticeKind"
    ),
    "held-entry": _listing("HeldEntry"),
    "chunk-row": _listing("ChunkRow", "ChunkFamily"),
    "down": _listing(
        "Down",
        "BatchMessage",
        "SnapshotMessage",
        "SyncedMessage",
        "RowsPiece",
        "HeldAnswer",
        "Op",
        "RunOp",
        "AddOp",
        "AppendOp",
        "SetOp",
        "RowsOp",
        "TransientOp",
        "TransientItem",
    ),
    "up": _listing(
        "Up",
        "ReadyRequest",
        "ResyncRequest",
        "RowsRequest",
        "StopRequest",
        "FetchRequest",
        "LibrariesRequest",
    ),
}
"""The blocks ``docs/wire.md`` may hold, by the name in their opening marker."""


def render_docs(text: str, schema: Schema) -> str:
    """``text`` (the Markdown) with every generated block rendered anew."""
    out: list[str] = []
    lines = iter(text.splitlines())
    for line in lines:
        out.append(line)
        match = _BEGIN.match(line.strip())
        if match is None:
            continue
        name = match.group(1)
        if name not in BLOCKS:
            raise ValueError(f"{DOCS_PATH}: no generated block is called {name!r}")
        for inner in lines:
            if inner.strip() == _END:
                break
        else:
            raise ValueError(f"{DOCS_PATH}: the block {name!r} has no {_END!r}")
        out += [BLOCKS[name](schema), _END]
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------ running


def outputs(root: Path, schema: Schema) -> dict[Path, str]:
    """Each generated file and what it should hold."""
    docs = root / DOCS_PATH
    return {
        root / TS_PATH: render_ts(schema),
        docs: render_docs(docs.read_text(encoding="utf-8"), schema),
    }


def drift(root: Path, schema: Schema | None = None) -> list[str]:
    """A unified diff per generated file that differs from what ``schema`` renders."""
    diffs = []
    for path, wanted in outputs(root, schema or load()).items():
        have = path.read_text(encoding="utf-8") if path.exists() else ""
        if have != wanted:
            name = str(path.relative_to(root))
            diffs.append(
                "".join(
                    difflib.unified_diff(
                        have.splitlines(keepends=True),
                        wanted.splitlines(keepends=True),
                        f"{name} (on disk)",
                        f"{name} (generated)",
                    )
                )
            )
    return diffs


def repo_root() -> Path:
    """The checkout this module lives in (``src/chunkscope/wire/`` under it)."""
    return Path(__file__).resolve().parents[3]


def run_codegen(argv: Sequence[str] | None = None) -> int:
    """Write (or with ``--check``, verify) the generated wire files; return the exit status."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check", action="store_true", help="write nothing; print a diff and exit 1 if stale"
    )
    parser.add_argument(
        "--root", type=Path, default=None, help="the repository (default: this one)"
    )
    args = parser.parse_args(argv)
    root: Path = args.root or repo_root()
    if args.check:
        diffs = drift(root)
        for diff in diffs:
            sys.stdout.write(diff)
        if diffs:
            print(f"\nThe generated wire files are stale: run `{COMMAND}`.", file=sys.stderr)
            return 1
        return 0
    for path, text in outputs(root, load()).items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(root)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_codegen())
