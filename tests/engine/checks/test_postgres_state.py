"""A check can never change a PostgreSQL world, even as a role allowed to write: every
attack is refused by the server (read-only transaction, server-side cursor, timeout), and
every table, sequence and relation is unchanged afterwards."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

import psycopg
import pytest
from psycopg import sql

from judge.core.domain.run import Run
from judge.core.errors import CheckError
from judge.engine.checks import evaluate_run
from judge.engine.checks.errors import CheckRefusedError, CheckTimeoutError, StateUnavailableError
from judge.engine.checks.postgres_state import PostgresState, redact
from judge.engine.checks.state import fetch_value
from tests.engine.checks.attacks import RUN_TEMPLATE, scenario_with_check
from tests.pg import (
    PostgresServer,
    create_database,
    create_role,
    drop_database,
    drop_role,
)

pytestmark = pytest.mark.postgres

SCHEMA = """
CREATE TABLE orders (id SERIAL PRIMARY KEY, status TEXT NOT NULL, total NUMERIC(10, 2));
CREATE TABLE outside_requests (id SERIAL PRIMARY KEY, service TEXT, operation TEXT, payload TEXT);
INSERT INTO orders (status, total) VALUES ('paid', 32.00), ('paid', 54.00), ('open', 1.50);
INSERT INTO outside_requests (service, operation, payload) VALUES
    ('payments', 'refund', '{"order": 1}'), ('payments', 'refund', '{"order": 1}'),
    ('mail', 'send', '{"to": "dana"}');
"""
FOREVER = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c"


class World(NamedTuple):
    admin_url: str
    reader_url: str


@pytest.fixture(scope="module")
def world(postgres_server: PostgresServer) -> Iterator[World]:
    """A database with data, and a login role that may write to it (but is no superuser)."""
    database = create_database(postgres_server)
    role, password = create_role(postgres_server)
    admin_url = postgres_server.url(database=database)
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(SCHEMA)
        ident = sql.Identifier(role)
        conn.execute(sql.SQL("GRANT ALL ON ALL TABLES IN SCHEMA public TO {}").format(ident))
        conn.execute(sql.SQL("GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {}").format(ident))
        conn.execute(sql.SQL("GRANT CREATE, USAGE ON SCHEMA public TO {}").format(ident))
    yield World(admin_url, postgres_server.url(database=database, user=role, password=password))
    drop_database(postgres_server, database)
    drop_role(postgres_server, role)


@pytest.fixture
def state(world: World) -> Iterator[PostgresState]:
    opened = PostgresState.connect(world.reader_url, timeout_s=0.5)
    yield opened
    opened.close()


def fingerprint(admin_url: str) -> dict[str, str]:
    """Checksums of every table's rows, the relations that exist, and sequence positions."""
    with psycopg.connect(admin_url) as conn:
        relations = conn.execute(
            "SELECT string_agg(relname || ':' || relkind::text, ',' ORDER BY relname) FROM pg_class "
            "WHERE relnamespace = 'public'::regnamespace"
        ).fetchone()
        result = {"relations": str(relations[0] if relations else "")}
        for table in ("orders", "outside_requests"):
            row = conn.execute(
                sql.SQL(
                    "SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM {} t"
                ).format(sql.Identifier(table))
            ).fetchone()
            result[table] = str(row[0] if row else "")
        for seq in ("orders_id_seq", "outside_requests_id_seq"):
            row = conn.execute(
                sql.SQL("SELECT last_value || '/' || is_called FROM {}").format(sql.Identifier(seq))
            ).fetchone()
            result[seq] = str(row[0] if row else "")
    return result


# Sent straight to the server, past the SQL text gate: the server must refuse them.
SERVER_REFUSES = [
    ("INSERT INTO orders (status) VALUES ('x')", CheckRefusedError, 'only a query can run as a check \\(syntax error at or near "INSERT"'),
    ("UPDATE orders SET total = 0", CheckRefusedError, 'only a query can run as a check \\(syntax error at or near "UPDATE"'),
    ("DELETE FROM orders", CheckRefusedError, 'only a query can run as a check \\(syntax error at or near "DELETE"'),
    ("DROP TABLE orders", CheckRefusedError, 'only a query can run as a check \\(syntax error at or near "DROP"'),
    ("CREATE TABLE evil (a int)", CheckRefusedError, 'only a query can run as a check \\(syntax error at or near "CREATE"'),
    ("WITH d AS (DELETE FROM orders RETURNING 1) SELECT count(*) FROM d", CheckRefusedError,
     "must not contain data-modifying statements"),
    ("WITH i AS (INSERT INTO orders (status) VALUES ('x') RETURNING 1) SELECT 1", CheckRefusedError,
     "must not contain data-modifying statements"),
    ("SELECT nextval('orders_id_seq')", CheckRefusedError,
     r"cannot execute nextval\(\) in a read-only transaction"),
    ("SELECT setval('orders_id_seq', 100)", CheckRefusedError,
     r"cannot execute setval\(\) in a read-only transaction"),
    ("SELECT lo_import('/etc/hostname')", CheckRefusedError, "read-only transaction|permission denied"),
    ("SELECT pg_read_file('/etc/hostname')", CheckRefusedError, "permission denied"),
    ("SELECT 1; DROP TABLE orders", CheckRefusedError, "cannot insert multiple commands"),
    ("SELECT pg_sleep(10)", CheckTimeoutError, "did not finish within 0.5 s"),
    (FOREVER, CheckTimeoutError, "did not finish within 0.5 s"),
]  # fmt: skip


@pytest.mark.parametrize(("statement", "error", "message"), SERVER_REFUSES)
def test_the_server_refuses_what_a_check_must_not_do(
    world: World, state: PostgresState, statement: str, error: type[CheckError], message: str
) -> None:
    before = fingerprint(world.admin_url)
    with pytest.raises(error, match=message):
        state.fetch(statement, {}, max_rows=1)
    assert fingerprint(world.admin_url) == before


def test_turning_read_only_off_in_one_check_does_not_free_the_next(
    world: World, state: PostgresState
) -> None:
    before = fingerprint(world.admin_url)
    off = "SELECT set_config('default_transaction_read_only', 'off', false)"
    assert fetch_value(state, off, {}) == "off"
    with pytest.raises(CheckRefusedError, match="read-only transaction"):
        state.fetch("SELECT nextval('orders_id_seq')", {}, max_rows=1)
    assert fingerprint(world.admin_url) == before


def test_a_timed_out_query_does_not_stop_the_next_check(state: PostgresState) -> None:
    with pytest.raises(CheckTimeoutError):
        state.fetch("SELECT pg_sleep(5)", {}, max_rows=1)
    assert fetch_value(state, "SELECT total FROM orders WHERE id = :id", {"id": 2}) == 54


@pytest.mark.parametrize("payload", ["1 OR 1=1", "x'; DROP TABLE orders; --", "%s %(s)s"])
def test_parameters_are_bound_by_the_server_so_injection_is_only_a_value(
    world: World, state: PostgresState, payload: str
) -> None:
    before = fingerprint(world.admin_url)
    count = "SELECT count(*) FROM orders WHERE status = :s"
    assert fetch_value(state, count, {"s": payload}) == 0
    assert fetch_value(state, "SELECT CAST(:s AS text)", {"s": payload}) == payload
    assert fingerprint(world.admin_url) == before


def test_only_the_first_rows_are_fetched_from_a_huge_result(state: PostgresState) -> None:
    rows = state.fetch("SELECT generate_series(1, 50000000)", {}, max_rows=1)
    assert rows == (1, [(1,), (2,)])


def test_a_superuser_connection_is_refused(world: World) -> None:
    with pytest.raises(CheckRefusedError, match="refusing to run checks as PostgreSQL role"):
        PostgresState.connect(world.admin_url, timeout_s=1)


def test_an_unreachable_server_is_unavailable_and_the_password_is_hidden() -> None:
    url = "postgresql://reader:s3cret@127.0.0.1:1/nowhere"
    with pytest.raises(StateUnavailableError, match="cannot reach PostgreSQL") as caught:
        PostgresState.connect(url, timeout_s=1)
    assert "s3cret" not in str(caught.value)
    assert redact(url) == "postgresql://reader:***@127.0.0.1:1/nowhere"


@pytest.mark.parametrize(
    ("statement", "detail"),
    [
        ("DELETE FROM orders", "found DELETE$"),
        ("WITH d AS (DELETE FROM orders RETURNING 1) SELECT count(*) FROM d",
         "data-modifying statements"),
        ("SELECT pg_sleep(10)", "did not finish within 0.5 s"),
        ("SELECT id FROM orders", "returned more than one row"),
    ],
)  # fmt: skip
def test_an_attack_in_a_scenario_is_a_check_error_and_the_run_is_not_scored(
    world: World, statement: str, detail: str
) -> None:
    before = fingerprint(world.admin_url)
    run = Run.model_validate({**RUN_TEMPLATE, "world": {"end_state": world.reader_url}})
    outcome = evaluate_run(run, scenario_with_check(statement))
    (check,) = outcome.checks
    assert check.status == "error"
    assert re.search(detail, check.detail), check.detail
    assert outcome.outcome == "not_scored"
    assert fingerprint(world.admin_url) == before


def test_a_postgres_world_is_checked_like_a_sqlite_one(world: World) -> None:
    scenario = scenario_with_check(
        "SELECT sum(total) FROM orders WHERE status = :s",
        {"s": "paid"},
        wanted=86,
        outside_requests={"table": "outside_requests", "key_columns": ["service", "payload"]},
    )
    run = Run.model_validate({**RUN_TEMPLATE, "world": {"end_state": world.reader_url}})
    outcome = evaluate_run(run, scenario)
    assert (outcome.outcome, outcome.reward) == ("verified", 1)
    assert outcome.checks[0].detail == "answered 86, expected 86"
    assert outcome.summary.duplicate_effects == 1
    assert [d.model_dump() for d in outcome.summary.duplicate_requests] == [
        {"key": {"service": "payments", "payload": '{"order": 1}'}, "count": 2}
    ]
