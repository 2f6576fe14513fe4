"""The ``chunkscope`` command line: ``chunkscope export run.jsonl -o run.html``.

Bad input ends with a one-line message on stderr and exit status 2 (usage) or 1 (the file
could not be read or written), never with a traceback.
"""

from __future__ import annotations

import argparse
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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    args = _parser().parse_args(argv)
    if args.command == "export":
        return _export(args.recording, args.output, args.title)
    return 2  # argparse already refused anything else


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
