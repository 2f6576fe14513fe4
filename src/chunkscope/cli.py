"""The ``chunkscope`` command line: ``export`` a recording as a page, ``diff`` two recordings.

    chunkscope export run.jsonl -o run.html
    chunkscope diff run.previous.jsonl run.jsonl

``export`` ends bad input with a one-line message on stderr and exit status 2 (usage) or 1
(the file could not be read or written). ``diff`` prints the comparison's summary (what
``cs.compare(a, b)`` shows as text) and exits 0 when the runs do not differ, 1 when they do,
2 on bad input (a one-line message on stderr). Neither ever ends with a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from .present.export import ExportError, write_html


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="chunkscope", description="Tools for chunkscope runs and recordings."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    export = commands.add_parser(
        "export",
        help="write a recording as one self-contained HTML page",
        description=(
            "Write a JSONL recording as one self-contained HTML page (transcript, timeline "
            "and chunk inspector) that opens offline in any browser."
        ),
    )
    export.add_argument("recording", type=Path, help="the .jsonl recording to export")
    export.add_argument(
        "-o",
        "--output",
        type=Path,
        default=None,
        help="where to write the page (default: the recording's path with .html)",
    )
    export.add_argument("--title", default=None, help="the page's title (default: file name)")
    diff = commands.add_parser(
        "diff",
        help="compare two recordings; exit 0 when they do not differ, 1 when they do",
        description=(
            "Compare two JSONL recordings (say a cassette and the one it replaced, "
            "run.previous.jsonl) and print what differs: status, finish reasons, text, tool "
            "calls, steps and usage. Exit status: 0 no differences, 1 differences, 2 bad input."
        ),
    )
    diff.add_argument("a", type=Path, help="the first recording (the old run)")
    diff.add_argument("b", type=Path, help="the second recording (the new run)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    args = _parser().parse_args(argv)
    if args.command == "export":
        return _export(args.recording, args.output, args.title)
    if args.command == "diff":
        return _diff(args.a, args.b)
    return 2  # argparse already refused anything else


def _diff(a: Path, b: Path) -> int:
    from .present.compare import compare

    try:
        for path in (a, b):
            problem = _not_a_recording(path)
            if problem:
                print(f"chunkscope diff: {problem}", file=sys.stderr)
                return 2
        comparison = compare(a, b, labels=(str(a), str(b)))
    except (OSError, ValueError, TypeError) as error:
        message = str(error).splitlines()[0] if str(error) else type(error).__name__
        print(f"chunkscope diff: {message}", file=sys.stderr)
        return 2
    try:
        print(comparison.summary())
        sys.stdout.flush()
    except BrokenPipeError:  # `chunkscope diff a b | head`: the status still tells
        # Python's flush at exit would fail again on the closed pipe: point it elsewhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0 if comparison.same else 1


def _not_a_recording(path: Path) -> str | None:
    """Why ``path`` cannot be compared, or None: missing, or no line of it is a chunk.

    An empty file is an empty run; a file with some broken lines is a run whose broken
    lines show as invalid chunks; a file none of whose lines is a JSON object is not a
    recording at all.
    """
    from .recording import Replay

    if not path.is_file():
        return f"no recording at {str(path)!r}"
    lines = 0
    for _, chunk, _ in Replay(path).lines():
        if isinstance(chunk, dict):
            return None
        lines += 1
    if lines:
        return f"{str(path)!r} is not a JSONL recording (none of its lines is a JSON object)"
    return None


def _export(recording: Path, output: Path | None, title: str | None) -> int:
    target = output if output is not None else recording.with_suffix(".html")
    if target.resolve() == recording.resolve():
        print(f"chunkscope export: the output would overwrite {recording}", file=sys.stderr)
        return 2
    try:
        written = write_html(recording, target, title=title)
    except (ExportError, OSError) as error:
        print(f"chunkscope export: {error}", file=sys.stderr)
        return 1
    print(written)
    return 0
