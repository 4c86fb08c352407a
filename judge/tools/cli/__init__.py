"""The `judge` command: each module below exposes ``register(subparsers)``, and a handler takes
the parsed arguments and returns the exit code (:mod:`judge.tools.cli.exit_codes`). Only the
requested output goes to stdout; errors are one line each on stderr."""

from __future__ import annotations

import argparse
import importlib
import io
import os
import sys
import traceback
from collections.abc import Sequence

from judge.core.errors import InputError, JudgeBackendError, JudgeError
from judge.core.versions import __version__
from judge.engine.judging.providers.litellm_loader import prefer_bundled_price_map
from judge.tools.cli.exit_codes import (
    EXIT_BACKEND,
    EXIT_BROKEN_PIPE,
    EXIT_INPUT,
    EXIT_INTERNAL,
    exit_code_epilog,
    fail,
    input_failed,
)

__all__ = ["EXIT_INPUT", "build_parser", "main"]

#: The subcommand modules, in the order ``judge --help`` lists them (each imported when the
#: parser is built, so ``import judge.tools.cli`` stays light).
COMMANDS = tuple(
    "score scan check compare serve worker db credentials imports calibration escalation align "
    "budget schema export audit".split()
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="judge",
        description="Score AI-agent runs.",
        epilog=exit_code_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"judge {__version__}")
    parser.add_argument(
        "--debug",
        action="store_true",
        help="print the full traceback of an internal error (or JUDGE_DEBUG=1)",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"judge.tools.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its exit code (docs/ci.md). A reader of stdout that goes away
    (``judge score ... | head``) ends the command quietly with exit 141."""
    # before any command can import litellm, here and in the processes it starts
    prefer_bundled_price_map()
    try:
        args = build_parser().parse_args(argv)
        code = _guarded(args)
        sys.stdout.flush()
    except BrokenPipeError:
        _discard_stdout()
        return EXIT_BROKEN_PIPE
    return code


def _guarded(args: argparse.Namespace) -> int:
    """The command's exit code; each error it raises ends it with one line on stderr."""
    try:
        code: int = args.func(args)
    except InputError as exc:
        return input_failed(exc)
    except JudgeBackendError as exc:
        fail(f"the judge model could not be used: {exc}")
        return EXIT_BACKEND
    except JudgeError as exc:
        fail(str(exc))
        return EXIT_INTERNAL
    except BrokenPipeError:
        raise
    except Exception as exc:  # noqa: BLE001 - a bug: one line by default, the traceback when asked
        from judge.engine.settings import process_settings

        fail(f"internal error: {type(exc).__name__}: {exc} (run with --debug for the traceback)")
        if getattr(args, "debug", False) or process_settings().debug_on:
            traceback.print_exc(file=sys.stderr)
        return EXIT_INTERNAL
    return code


def _discard_stdout() -> None:
    """Point stdout at the null device, so the interpreter's last flush at exit does not fail
    again on the closed pipe (a stdout that is no file is left as it is)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
