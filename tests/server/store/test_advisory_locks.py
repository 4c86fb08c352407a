"""PostgreSQL advisory locks on a name: one holder across connections, free again once
released."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy.engine import Engine

from judge.server.store.advisory_locks import try_lock, unlock
from judge.server.store.db import make_engine
from tests import pg
from tests.pg import PostgresServer


@pytest.fixture
def pg_engine(postgres_server: PostgresServer) -> Iterator[Engine]:
    name = pg.create_database(postgres_server)
    engine = make_engine(postgres_server.sqlalchemy_url(name))
    yield engine
    engine.dispose()
    pg.drop_database(postgres_server, name)


def test_a_held_name_is_refused_to_a_second_holder_until_released(pg_engine: Engine) -> None:
    first = try_lock(pg_engine, "coaching:run-1")
    assert first is not None

    assert try_lock(pg_engine, "coaching:run-1") is None

    unlock(first, "coaching:run-1")
    again = try_lock(pg_engine, "coaching:run-1")
    assert again is not None
    unlock(again, "coaching:run-1")


def test_another_name_is_free_while_one_is_held(pg_engine: Engine) -> None:
    first = try_lock(pg_engine, "coaching:run-1")
    other = try_lock(pg_engine, "coaching:run-2")

    assert first is not None and other is not None
    unlock(other, "coaching:run-2")
    unlock(first, "coaching:run-1")
