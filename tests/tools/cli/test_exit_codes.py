"""The exit codes are one table in code (judge/tools/cli/exit_codes.py) and one in the docs
(docs/ci.md), and the two say the same."""

from __future__ import annotations

import re
from typing import Any

from judge.tools.cli import main
from judge.tools.cli.exit_codes import EXIT_CODE_DOCS, ExitCode
from tests.helpers import REPO

ROW = re.compile(r"^\| (\d+) \| (.+) \| (.+) \|$")


def documented_rows() -> dict[int, tuple[str, str]]:
    text = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    section = text.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    rows = [ROW.match(line) for line in section.splitlines()]
    return {int(m[1]): (m[2], m[3]) for m in rows if m}


def test_the_docs_table_is_the_code_table_row_for_row() -> None:
    assert documented_rows() == {int(c): (d.meaning, d.printed) for c, d in EXIT_CODE_DOCS.items()}


def test_every_exit_code_is_documented() -> None:
    assert set(EXIT_CODE_DOCS) == set(ExitCode)


def test_the_readme_points_at_the_table_instead_of_copying_it() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "| Exit code |" not in readme and "docs/ci.md#exit-codes" in readme


def test_help_shows_the_table(capsys: Any) -> None:
    try:
        main(["--help"])
    except SystemExit as done:
        assert done.code == 0
    out = capsys.readouterr().out
    for code, doc in EXIT_CODE_DOCS.items():
        assert f"{int(code):>3}  {doc.meaning.replace('`', '')[:40]}" in out
