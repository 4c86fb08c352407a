"""Which executor runs scoring jobs: the job queue on PostgreSQL, threads on SQLite."""

from __future__ import annotations

import pytest

from judge.core.errors import ConfigError
from judge.engine.settings import load_settings
from judge.server.service.jobqueue.executors import executor_kind

PG = "postgresql://judge@127.0.0.1:1/judge"
SQLITE = "sqlite:///judge.db"


@pytest.mark.parametrize(("url", "kind"), [(PG, "queue"), (SQLITE, "threads")])
def test_auto_picks_the_queue_on_postgresql_and_threads_on_sqlite(url: str, kind: str) -> None:
    assert executor_kind(load_settings(dev_mode=True, database_url=url)) == kind


def test_the_queue_on_sqlite_is_refused_naming_the_fix() -> None:
    settings = load_settings(dev_mode=True, database_url=SQLITE, executor="queue")

    with pytest.raises(ConfigError, match="JUDGE_EXECUTOR=queue needs a PostgreSQL"):
        executor_kind(settings)


def test_an_api_only_node_on_threads_is_refused() -> None:
    settings = load_settings(dev_mode=True, database_url=SQLITE, workers=0)

    with pytest.raises(ConfigError, match="JUDGE_WORKERS=0"):
        executor_kind(settings)
