"""Turn the stream of ops into few, small messages.

Ops from ``RunState.handle`` arrive per chunk; the browser must get them per *batch*: at once
when the wire has been idle (so a slow stream shows each delta with no added lag), and at most
``max_rate`` batches a second under load (so a tight loop of 100k deltas costs a few hundred
messages, well inside Jupyter's IOPub limits). Within a batch, neighbouring appends to one
part merge into one op, and repeated run fields collapse into one ``run`` op.
"""

from __future__ import annotations

from typing import Any

Op = dict[str, Any]


def coalesce(ops: list[Op], *, keep_rows: bool = True) -> list[Op]:
    """Merge what can be merged without changing what applying the ops gives; inspector
    ``rows`` ops are left out unless ``keep_rows``."""
    out: list[Op] = []
    run_fields: dict[str, Any] = {}
    rows: list[dict[str, Any]] = []
    seen_rows: set[int] = set()
    last_append: Op | None = None
    pieces: list[str] = []

    def close_append() -> None:
        nonlocal last_append
        if last_append is not None and len(pieces) > 1:
            last_append["text"] = "".join(pieces)
        last_append = None

    for op in ops:
        kind = op["op"]
        if kind == "append":
            if (
                last_append is not None
                and last_append["id"] == op["id"]
                and last_append["field"] == op["field"]
            ):
                pieces.append(op["text"])
                last_append["t"] = op["t"]
                continue
            close_append()
            last_append = dict(op)
            pieces = [op["text"]]
            out.append(last_append)
            continue
        if kind == "run":
            run_fields.update(op["set"])
            continue
        if kind == "rows":
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


def weight(ops: list[Op]) -> int:
    """A cheap estimate of how many bytes the ops add to the run's content."""
    total = 0
    for op in ops:
        total += len(op["text"]) if op["op"] == "append" else 200
    return total
