"""Which store URLs are PostgreSQL: one rule for the executor choice, the migrations and the
request guard's shared windows."""

from __future__ import annotations

import pytest

from judge.server.store.db import is_postgres_url


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://judge@db/judge",
        "postgres://judge@db/judge",
        "postgresql+psycopg://judge@db/judge",
    ],
)
def test_every_spelling_of_postgresql_is_postgresql(url: str) -> None:
    assert is_postgres_url(url)


@pytest.mark.parametrize(
    "url", ["sqlite:///judge.db", "sqlite:///:memory:", "sqlite:///postgresql://x"]
)
def test_sqlite_urls_are_not(url: str) -> None:
    assert not is_postgres_url(url)
