"""The `judge` command: thin subcommands over the library.

Each module below exposes ``register(subparsers)``; a handler takes the parsed arguments
and returns the exit code. Errors of the product's own tree print as one line and exit 2
(bad input) or 3 (judge backend); anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from judge import __version__
from judge.errors import InputError, JudgeBackendError, JudgeError

EXIT_INPUT = 2
EXIT_BACKEND = 3
EXIT_OTHER = 4


def build_parser() -> argparse.ArgumentParser:
    from judge.cli import calibration, check, compare, credentials, db, score, serve, worker

    parser = argparse.ArgumentParser(prog="judge", description="Score AI-agent runs.")
    parser.add_argument("--version", action="version", version=f"judge {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in (score, check, compare, serve, worker, db, credentials, calibration):
        module.register(sub)
    return parser


def fail(message: str) -> None:
    print(f"judge: error: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
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
