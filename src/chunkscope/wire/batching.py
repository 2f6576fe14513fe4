"""Turn the stream of ops into few, small messages.

Ops from ``RunState.handle`` arrive per chunk; the browser must get them per *batch*: at once
when the wire has been idle (so a slow stream shows each delta with no added lag), and at most
``max_rate`` batches a second under load (so a tight loop of 100k deltas costs a few hundred
messages, well inside Jupyter's IOPub limits). Within a batch, neighbouring appends to one
part merge into one op, the ``set`` ops of a part added in the same batch are folded into its
``add`` (a fast run of tool calls then sends one op per call instead of three), and repeated
run fields collapse into one ``run`` op.
"""

from __future__ import annotations

from typing import Any, cast

from .schema import AddOp, AppendOp, ChunkRow, PartWire, RunPatch, SetOp
from .schema import Op as WireOp

Op = dict[str, Any]
"""An op as the fold hands it over: a ``WireOp`` (``chunkscope.wire.schema``) not yet typed
as one. ``coalesce`` and ``weight`` read it as a ``WireOp``."""


def append_op(part_id: str, field: str, text: str, t: float) -> Op:
    """The ``append`` op of ``text`` (already safe for the wire) added to a part's growing
    ``field`` at ``t``."""
    return {"op": "append", "id": part_id, "field": field, "text": text, "t": t}


def coalesce(ops: list[Op], *, keep_rows: bool = True) -> list[Op]:
    """Merge what can be merged without changing what applying the ops gives; inspector
    ``rows`` ops are left out unless ``keep_rows``."""
    return cast("list[Op]", coalesce_wire(cast("list[WireOp]", ops), keep_rows=keep_rows))


def coalesce_wire(ops: list[WireOp], *, keep_rows: bool = True) -> list[WireOp]:
    """``coalesce`` for typed ops."""
    out: list[WireOp] = []
    run_fields: RunPatch = {}
    rows: list[ChunkRow] = []
    seen_rows: set[int] = set()
    last_append: AppendOp | None = None
    pieces: list[str] = []
    # Part id -> position in ``out`` of its ``add``, while later ops may still fold into it.
    foldable: dict[str, int] = {}

    def close_append() -> None:
        nonlocal last_append
        if last_append is not None and len(pieces) > 1:
            last_append["text"] = "".join(pieces)
        last_append = None

    for op in ops:
        if op["op"] == "set" and op["id"] in foldable and _can_fold(op):
            at = foldable[op["id"]]
            add = out[at]
            assert add["op"] == "add"
            out[at] = _folded(add, op)
            continue
        if op["op"] == "add":
            foldable[op["part"]["id"]] = len(out)
        elif op["op"] in ("append", "set"):
            # A set after an append must not move before it: the part takes no more folds.
            foldable.pop(op["id"], None)
        if op["op"] == "append":
            if (
                last_append is not None
                and last_append["id"] == op["id"]
                and last_append["field"] == op["field"]
            ):
                pieces.append(op["text"])
                last_append["t"] = op["t"]
                continue
            close_append()
            last_append = {**op}
            pieces = [op["text"]]
            out.append(last_append)
            continue
        if op["op"] == "run":
            run_fields.update(op["set"])
            continue
        if op["op"] == "rows":
            if not keep_rows:
                continue
            for row in op["rows"]:
                if id(row) not in seen_rows:
                    seen_rows.add(id(row))
                    rows.append(row)
            continue
        close_append()
        out.append(op)
    close_append()
    if rows:
        out.append({"op": "rows", "rows": rows})
    if run_fields:
        out.append({"op": "run", "set": run_fields})
    return out


def _can_fold(op: SetOp) -> bool:
    """Whether a ``set`` gives the same part folded into the ``add`` as applied after it.
    A ``state`` pushes ``[t, state]`` onto the history when applied, which the fold does
    too; a ``state`` that is not text would be pushed as its text, so it stays a ``set``."""
    fields: object = op.get("set")
    if not isinstance(fields, dict):
        return False
    return "state" not in fields or "states" in fields or isinstance(fields["state"], str)


def _folded(add: AddOp, op: SetOp) -> AddOp:
    """``add`` with the part as ``op`` (a ``set`` of docs/wire.md) leaves it: a shallow merge,
    and a new ``state`` appended to ``states`` with the op's time. The ops are not changed."""
    fields = op["set"]
    part: dict[str, Any] = {**add["part"], **{k: v for k, v in fields.items() if k != "id"}}
    if "state" in fields and "states" not in fields:
        history = add["part"].get("states")
        earlier = history if isinstance(history, list) else []
        part["states"] = [*earlier, [op["t"], fields["state"]]]
    return {"op": "add", "part": cast("PartWire", part)}


def weight(ops: list[Op]) -> int:
    """A cheap estimate of how many bytes the ops add to the run's content."""
    if len(ops) == 1 and ops[0]["op"] == "append":  # a delta: most calls
        return len(ops[0]["text"])
    total = 0
    for op in cast("list[WireOp]", ops):
        total += len(op["text"]) if op["op"] == "append" else 200
    return total
