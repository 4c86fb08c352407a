"""`judge score` as a real process: what reaches stdout and stderr, the exit status, a
reader that goes away, and a judge that refuses (docs/ci.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from judge.tools.cli.exit_codes import ExitCode
from tests.fake_judge import FakeJudge
from tests.helpers import EXAMPLES, REPO

HAGGLE = str(EXAMPLES / "haggle.json")
TWO_SEATS = str(EXAMPLES / "two_seats_partial_credit.json")
JUDGE = [sys.executable, "-m", "judge", "score", "--no-progress"]


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUDGE_", "OPENAI_"))}
    return {**env, "PYTHONPATH": str(REPO), **extra}


def judge(*argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*JUDGE, *argv],
        env=environment(**env),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_json_output_is_one_line_per_run_file_and_nothing_else() -> None:
    done = judge(HAGGLE, TWO_SEATS, "--judge", "scripted/0.7", "--json", JUDGE_DEV_MODE="1")
    assert done.returncode == ExitCode.OK and done.stderr == ""
    cards = [json.loads(line) for line in done.stdout.splitlines()]
    assert [c["run_id"] for c in cards] == ["haggle-0007", "camp-split-0011"]
    assert done.stdout.endswith("}\n")


def test_an_unknown_model_leaves_stdout_empty_and_says_so_in_one_line() -> None:
    done = judge(HAGGLE, "--judge", "nonexistent-model-xyz", "--json")
    assert done.returncode == ExitCode.BACKEND
    assert done.stdout == ""  # no "Provider List" banners: litellm prints them on stdout
    [line] = done.stderr.splitlines()
    assert line.startswith("judge: error: the judge model could not be used: BadRequestError")
    assert "nonexistent-model-xyz" in line


def test_a_refused_key_stops_the_run_at_the_first_calls_instead_of_sending_all_60() -> None:
    with FakeJudge(refuse_with=401) as refusing:
        done = judge(
            HAGGLE,
            TWO_SEATS,
            "--judge",
            "openai/judge",
            "--json",
            "--concurrency",
            "2",
            OPENAI_API_BASE=refusing.api_base,
            OPENAI_API_KEY="sk-refused",
        )
    assert done.returncode == ExitCode.BACKEND and done.stdout == ""
    [line] = done.stderr.splitlines()
    # an openai/ model on a server of your own takes the direct client, which names the status
    assert line.startswith(
        "judge: error: the judge model could not be used: HTTP 401 from the judge server"
    )
    assert 1 <= refusing.stats.rejected <= 2  # the calls in flight, of 60 for the first file alone
    assert refusing.stats.answered == 0


def test_a_reader_that_goes_away_ends_the_command_quietly_with_141() -> None:
    files = [HAGGLE] * 4  # ~180 KB of JSON lines: more than a pipe holds, so the write must fail
    argv = [*JUDGE, *files, "--judge", "scripted/0.7", "--json"]
    scorer = subprocess.Popen(
        argv, env=environment(JUDGE_DEV_MODE="1"), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert scorer.stdout is not None and scorer.stderr is not None
    head = subprocess.run(
        ["head", "-c", "10"], stdin=scorer.stdout, capture_output=True, check=True
    )
    scorer.stdout.close()
    errors = scorer.stderr.read().decode()
    assert scorer.wait(timeout=300) == ExitCode.BROKEN_PIPE == 141
    assert head.stdout == b'{"run_id":'
    assert errors == ""  # no BrokenPipeError traceback, no "Exception ignored" at exit


def test_every_bad_file_is_named_then_exit_2_without_judging() -> None:
    done = judge(
        "/nonexistent/a.json", HAGGLE, "/nonexistent/b.json", "--judge", "nonexistent-model-xyz"
    )
    assert done.returncode == ExitCode.INPUT and done.stdout == ""
    assert done.stderr.splitlines() == [
        "judge: error: /nonexistent/a.json: cannot read the run file: No such file or directory",
        "judge: error: /nonexistent/b.json: cannot read the run file: No such file or directory",
    ]


def test_a_missing_key_stops_at_the_first_call_without_retrying() -> None:
    done = judge(HAGGLE, "--judge", "openai/gpt-4o-mini", "--json")

    assert done.returncode == ExitCode.BACKEND and done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line == (
        "judge: error: the judge model could not be used: "
        "'openai/gpt-4o-mini' needs OPENAI_API_KEY, which is not set"
    )
    # before, this was "InternalServerError: ... api_key client option must be set" after 23 s
    # of retries; the line now comes from the check made before any call is sent
