"""Migrating a database logs one short line, not alembic's plugin list and each migration's
multi-line docstring (docs/deploy.md, "Settings")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from judge.server.store.migrate import MIGRATIONS
from tests.helpers import REPO

START = """
import sys
from judge.tools.cli.options import start_logging
start_logging("info")
from judge.server.store.db import make_engine
from judge.server.store.migrate import upgrade
engine = make_engine(sys.argv[1])
upgrade(engine, sys.argv[2])
"""


def _migrate(url: str, revision: str) -> list[str]:
    """The log lines of a fresh process that migrates ``url`` to ``revision`` at INFO."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", START, url, revision],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stderr.splitlines()


def test_a_first_start_logs_one_line_for_all_migrations(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'judge.db'}"
    versions = sorted(p.stem for p in (MIGRATIONS / "versions").glob("0*.py"))

    first = _migrate(url, "0005_signal")
    rest = _migrate(url, "head")
    again = _migrate(url, "head")

    line = "INFO judge.store: database schema migrated from {} to {} ({} migrations)"
    assert first == [line.format("an empty database", "0005_signal", 5)]
    assert rest == [line.format("0005_signal", versions[-1], len(versions) - 5)]
    assert again == []
