"""The options several commands share read the same in each of them."""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

import pytest

from judge.engine.judging.runner import RUNNER_DEFAULTS
from judge.tools.cli import build_parser
from judge.tools.cli.options import (
    DEFAULT_DATABASE_URL,
    add_concurrency_option,
    add_output_options,
    add_progress_options,
    database_url,
    show_progress,
)


def parser_with_output(default_out: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    add_output_options(parser, default_out)
    return parser


def test_concurrency_defaults_to_the_runners_own() -> None:
    parser = argparse.ArgumentParser()
    add_concurrency_option(parser)

    assert parser.parse_args([]).concurrency == RUNNER_DEFAULTS.concurrency


def test_concurrency_takes_a_commands_own_default_and_a_given_number() -> None:
    parser = argparse.ArgumentParser()
    add_concurrency_option(parser, default=4)

    assert parser.parse_args([]).concurrency == 4
    assert parser.parse_args(["--concurrency", "9"]).concurrency == 9


def test_out_is_a_path_and_progress_shows_unless_refused() -> None:
    args = parser_with_output("x/<set>").parse_args(["--out", "here", "--no-progress"])

    assert (args.out, args.no_progress) == (Path("here"), True)
    assert parser_with_output("x/<set>").parse_args([]).no_progress is False


def test_out_help_names_where_output_goes_without_it() -> None:
    assert "output folder (default x/<set>)" in parser_with_output("x/<set>").format_help()


@pytest.mark.parametrize(
    ("command", "default"),
    [
        (["calibrate"], RUNNER_DEFAULTS.concurrency),
        (["audit"], 4),
        (["score", "r.json"], RUNNER_DEFAULTS.concurrency),
    ],
)
def test_each_command_keeps_its_concurrency_default(command: list[str], default: int) -> None:
    args = build_parser().parse_args(command)

    assert args.concurrency == default


def test_a_given_database_url_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUDGE_DATABASE_URL", "sqlite:///env.db")

    assert database_url("sqlite:///given.db") == "sqlite:///given.db"
    assert database_url(None) == "sqlite:///env.db"


def test_without_a_database_url_the_store_is_judge_db_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("JUDGE_DATABASE_URL", raising=False)

    assert database_url(None) == DEFAULT_DATABASE_URL == "sqlite:///./judge.db"


def _progress_args(*given: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_progress_options(parser)
    return parser.parse_args(list(given))


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_the_progress_bar_is_drawn_on_a_terminal_only_unless_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "stderr", _Stream(tty=False))
    assert show_progress(_progress_args()) is False  # a log file gets no redraws
    assert show_progress(_progress_args("--progress")) is True
    monkeypatch.setattr(sys, "stderr", _Stream(tty=True))
    assert show_progress(_progress_args()) is True
    assert show_progress(_progress_args("--no-progress")) is False


def test_progress_and_no_progress_cannot_both_be_given() -> None:
    with pytest.raises(SystemExit):
        _progress_args("--progress", "--no-progress")
