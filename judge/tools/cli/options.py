"""Options several commands take, each declared once so its flag, default and help read the
same in every command that has it."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from judge.engine.judging.runner import RUNNER_DEFAULTS
from judge.engine.settings import process_settings

#: The store a command reads when neither ``--database-url`` nor ``$JUDGE_DATABASE_URL`` names one.
DEFAULT_DATABASE_URL = "sqlite:///./judge.db"


def database_url(given: str | None) -> str:
    """The store ``--database-url`` names, else ``$JUDGE_DATABASE_URL``, else ``./judge.db``."""
    return given or process_settings().database_url or DEFAULT_DATABASE_URL


def add_concurrency_option(
    parser: argparse.ArgumentParser, default: int = RUNNER_DEFAULTS.concurrency
) -> None:
    parser.add_argument(
        "--concurrency", type=int, default=default, help="judge calls in flight at once"
    )


def add_output_options(parser: argparse.ArgumentParser, default_out: str) -> None:
    """``--out DIR`` (``default_out`` says where it goes without it) and ``--no-progress``."""
    parser.add_argument("--out", type=Path, help=f"output folder (default {default_out})")
    add_progress_options(parser)


def add_progress_options(parser: argparse.ArgumentParser) -> None:
    """``--progress`` and ``--no-progress``: the bar is drawn only on a terminal by default."""
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument(
        "--progress",
        action="store_true",
        help="draw the progress bar on stderr even when it is not a terminal (a log file)",
    )
    shown.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def show_progress(args: argparse.Namespace) -> bool:
    """Whether to draw the bar: asked for, else only when stderr is a terminal (a log or a
    pipe would collect every redraw of it)."""
    if getattr(args, "progress", False):
        return True
    return not args.no_progress and sys.stderr.isatty()


def add_log_level_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--log-level", default="info", choices=["debug", "info", "warning", "error"]
    )


def start_logging(level: str) -> None:
    logging.basicConfig(level=level.upper(), format="%(levelname)s %(name)s: %(message)s")
