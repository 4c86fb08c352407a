"""The `judge` command: thin subcommands over the library.

Each module below exposes ``register(subparsers)``; a handler takes the parsed arguments
and returns the exit code. Exit codes (docs/ci.md):

- 0: done, and every gate and verdict asked for held;
- 1: a gate (``--fail-under``) or a check verdict failed; one line per failure on stderr;
- 2: bad input (a run file, a scenario, an option), named in one line;
- 3: the judge model could not be used;
- 4: an internal error: one line, the traceback only with ``--debug`` or ``JUDGE_DEBUG=1``.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence

from judge import __version__
from judge.errors import InputError, JudgeBackendError, JudgeError

EXIT_OK = 0
EXIT_GATE = 1
EXIT_INPUT = 2
EXIT_BACKEND = 3
EXIT_OTHER = 4
EXIT_INTERNAL = EXIT_OTHER


def build_parser() -> argparse.ArgumentParser:
    from judge.cli import (
        audit,
        calibration,
        check,
        compare,
        credentials,
        db,
        export,
        schema,
        score,
        serve,
        worker,
    )

    parser = argparse.ArgumentParser(prog="judge", description="Score AI-agent runs.")
    parser.add_argument("--version", action="version", version=f"judge {__version__}")
    parser.add_argument(
        "--debug", action="store_true", help="print the full traceback of an internal error (or JUDGE_DEBUG=1)"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in (score, check, compare, serve, worker, db, credentials, calibration, schema, export, audit):
        module.register(sub)
    return parser


def fail(message: str) -> None:
    print(f"judge: error: {message}", file=sys.stderr)


def debug_wanted(args: argparse.Namespace) -> bool:
    """Whether an internal error should show its traceback."""
    return bool(getattr(args, "debug", False)) or os.environ.get("JUDGE_DEBUG", "") not in ("", "0")


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _dispatch(args)
    except Exception as exc:  # noqa: BLE001 - a bug: one line by default, the traceback when asked
        fail(f"internal error: {type(exc).__name__}: {exc} (run with --debug for the traceback)")
        if debug_wanted(args):
            traceback.print_exc(file=sys.stderr)
        return EXIT_INTERNAL


def _dispatch(args: argparse.Namespace) -> int:
    try:
        code: int = args.func(args)
    except InputError as exc:
        fail(str(exc))
        return EXIT_INPUT
    except JudgeBackendError as exc:
        fail(f"the judge model could not be used: {exc}")
        return EXIT_BACKEND
    except JudgeError as exc:
        fail(str(exc))
        return EXIT_OTHER
    return code


if __name__ == "__main__":
    sys.exit(main())
