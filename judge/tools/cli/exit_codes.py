"""The exit codes of every `judge` command (the one table, shown by ``judge --help`` and copied
word for word into docs/ci.md), and how a command ends with an error (one line per problem)."""

from __future__ import annotations

import sys
import textwrap
from enum import IntEnum
from typing import NamedTuple

from judge.core.errors import InputError, InputErrors


class ExitCode(IntEnum):
    OK = 0
    FAILED = 1
    INPUT = 2
    BACKEND = 3
    INTERNAL = 4
    BROKEN_PIPE = 141


EXIT_OK = ExitCode.OK
EXIT_GATE = ExitCode.FAILED
EXIT_INPUT = ExitCode.INPUT
EXIT_BACKEND = ExitCode.BACKEND
EXIT_INTERNAL = ExitCode.INTERNAL
EXIT_BROKEN_PIPE = ExitCode.BROKEN_PIPE


def fail(message: str) -> None:
    """One line on stderr: a message with line breaks (a provider's error text) is joined."""
    print(f"judge: error: {' '.join(message.split())}", file=sys.stderr)


def input_failed(exc: InputError) -> int:
    """Report bad input, one line per problem (every bad file of several); exit code 2."""
    for problem in exc.problems if isinstance(exc, InputErrors) else [exc]:
        fail(str(problem))
    return EXIT_INPUT


class ExitCodeDoc(NamedTuple):
    """What a code means, and what the command prints with it."""

    meaning: str
    printed: str


EXIT_CODE_DOCS: dict[ExitCode, ExitCodeDoc] = {
    ExitCode.OK: ExitCodeDoc("Done; every gate and verdict asked for held.", "The normal output."),
    ExitCode.FAILED: ExitCodeDoc(
        "A gate (`--fail-under`) or a check verdict failed, `--max-cost` or `--max-tokens` "
        "stopped a run, or `judge scan` flagged a seat.",
        "The normal output on stdout, then **one line per failure** on stderr.",
    ),
    ExitCode.INPUT: ExitCodeDoc(
        "Bad input: a run file, a scenario, an option, a missing file, an unknown figure or trait, "
        "a test judge outside dev mode. Nothing was judged.",
        "`judge: error: ...` naming the file and field; **one line per bad file**.",
    ),
    ExitCode.BACKEND: ExitCodeDoc(
        "The judge model could not be used: a permanent refusal (unknown model, bad key, not found) "
        "at the first call, or a transient failure (unreachable, rate limit) after the retries. "
        "No further call is sent.",
        "The scorecards finished before it on stdout, then one line: "
        "`judge: error: the judge model could not be used: ...`",
    ),
    ExitCode.INTERNAL: ExitCodeDoc(
        "An internal error: a bug in judge, or an error of the product's own that is neither bad "
        "input nor the judge.",
        "One line, `judge: error: internal error: TYPE: message (run with --debug for the traceback)`.",
    ),
    ExitCode.BROKEN_PIPE: ExitCodeDoc(
        "The reader of stdout went away (`head` took what it wanted and closed the pipe): the command "
        "stops quietly, as a process ended by SIGPIPE does (128 + 13).",
        "Nothing more; no traceback.",
    ),
}


def exit_code_epilog() -> str:
    """The table as plain text, for ``judge --help``."""
    lines = ["exit codes:"]
    for code, doc in EXIT_CODE_DOCS.items():
        text = f"  {int(code):>3}  {doc.meaning.replace('`', '')}"
        lines.append(textwrap.fill(text, width=88, subsequent_indent=" " * 7))
    return "\n".join(lines)
