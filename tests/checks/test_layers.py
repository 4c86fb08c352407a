"""The outcome rules stay pure: no database driver, no file format, no checks layer."""

from __future__ import annotations

import subprocess
import sys

from tests.checks.conftest import REPO

PURE = ["judge.scoring.outcomes", "judge.scoring.summary", "judge.scoring.comparisons",
        "judge.domain.checks", "judge.domain.scenario", "judge.domain.comparison"]  # fmt: skip
FORBIDDEN = ["sqlite3", "psycopg", "yaml", "judge.checks", "sqlmodel", "fastapi", "litellm"]


def test_scoring_rules_and_models_import_no_io_layer() -> None:
    code = (
        f"import sys\nfor m in {PURE!r}: __import__(m)\n"
        f"print(sorted(m for m in sys.modules if any(m == f or m.startswith(f + '.') for f in {FORBIDDEN!r})))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert result.stdout.strip() == "[]"
