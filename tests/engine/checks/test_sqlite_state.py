"""A check can never change a SQLite world: every attack is refused by the database itself,
answers with a clear check error, and leaves the file byte-identical."""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.core.domain.run import Run
from judge.core.errors import CheckError
from judge.engine.checks import evaluate_run
from judge.engine.checks.errors import (
    CheckRefusedError,
    CheckShapeError,
    CheckTimeoutError,
    StateUnavailableError,
)
from judge.engine.checks.sqlite_state import SqliteState
from judge.engine.checks.state import fetch_value
from tests.engine.checks.attacks import RUN_TEMPLATE, scenario_with_check

FOREVER = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c"


@pytest.fixture
def world(tmp_path: Path) -> Path:
    path = tmp_path / "world.db"
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT NOT NULL, total INTEGER);
            CREATE INDEX orders_status ON orders (status);
            INSERT INTO orders VALUES (1, 'paid', 3200), (2, 'paid', 5400), (3, 'open', 100);
            """
        )
    conn.close()
    return path


@pytest.fixture
def state(world: Path) -> Iterator[SqliteState]:
    opened = SqliteState.open(world, timeout_s=0.5)
    yield opened
    opened.close()


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# Sent straight to the database, past the SQL text gate: the database must refuse them.
DATABASE_REFUSES = [
    ("INSERT INTO orders VALUES (9, 'x', 1)", CheckRefusedError, "INSERT orders is not allowed"),
    ("REPLACE INTO orders VALUES (1, 'x', 1)", CheckRefusedError, "INSERT orders is not allowed"),
    ("UPDATE orders SET total = 0", CheckRefusedError, "UPDATE orders total is not allowed"),
    ("DELETE FROM orders", CheckRefusedError, "DELETE orders is not allowed"),
    ("DROP TABLE orders", CheckRefusedError, "changing the schema"),
    ("CREATE TABLE evil (a)", CheckRefusedError, "changing the schema"),
    ("CREATE TEMP TABLE evil (a)", CheckRefusedError, "changing the schema"),
    ("ALTER TABLE orders ADD COLUMN b", CheckRefusedError, "ALTER_TABLE main orders"),
    ("CREATE TRIGGER t AFTER INSERT ON orders BEGIN SELECT 1; END", CheckRefusedError,
     "CREATE_TRIGGER t orders"),
    ("ATTACH DATABASE ':memory:' AS side", CheckRefusedError, "ATTACH :memory: is not allowed"),
    ("VACUUM INTO '/tmp/judge-stolen-copy.db'", CheckRefusedError, "ATTACH"),
    ("PRAGMA query_only = 0", CheckRefusedError, "PRAGMA query_only 0 is not allowed"),
    ("PRAGMA journal_mode = WAL", CheckRefusedError, "PRAGMA journal_mode WAL"),
    ("BEGIN IMMEDIATE", CheckRefusedError, "TRANSACTION BEGIN"),
    ("SAVEPOINT s", CheckRefusedError, "SAVEPOINT BEGIN s"),
    ("ANALYZE", CheckRefusedError, "changing the schema"),
    ("REINDEX", CheckRefusedError, "REINDEX orders_status is not allowed"),
    ("SELECT load_extension('/tmp/evil.so')", CheckRefusedError,
     r"the function load_extension\(\) is not allowed"),
    ("SELECT randomblob(100000000)", CheckRefusedError, r"the function randomblob\(\)"),
    ("SELECT zeroblob(100000000)", CheckRefusedError, r"the function zeroblob\(\)"),
    ("SELECT fts3_tokenizer('simple')", CheckRefusedError, r"the function fts3_tokenizer\(\)"),
    ("SELECT 1; DROP TABLE orders", CheckRefusedError, "one statement at a time"),
    (FOREVER, CheckTimeoutError, "did not finish within 0.5 s"),
]  # fmt: skip


@pytest.mark.parametrize(("sql", "error", "message"), DATABASE_REFUSES)
def test_the_database_refuses_what_a_check_must_not_do(
    world: Path, state: SqliteState, sql: str, error: type[CheckError], message: str
) -> None:
    before = sha256(world)
    with pytest.raises(error, match=message):
        state.fetch(sql, {}, max_rows=1)
    assert sha256(world) == before


def test_a_refused_statement_leaves_the_connection_usable_and_the_rows_intact(
    world: Path, state: SqliteState
) -> None:
    with pytest.raises(CheckRefusedError):
        state.fetch("DELETE FROM orders", {}, max_rows=1)
    assert fetch_value(state, "SELECT count(*) FROM orders", {}) == 3


def test_a_timed_out_query_does_not_stop_the_next_check(state: SqliteState) -> None:
    with pytest.raises(CheckTimeoutError):
        state.fetch(FOREVER, {}, max_rows=1)
    assert fetch_value(state, "SELECT total FROM orders WHERE id = :id", {"id": 2}) == 5400


@pytest.mark.parametrize(
    "payload",
    ["1 OR 1=1", "1; DROP TABLE orders", "'; DELETE FROM orders; --", "paid' OR '1'='1"],
)
def test_parameters_are_bound_so_injection_is_only_a_value(
    world: Path, state: SqliteState, payload: str
) -> None:
    before = sha256(world)
    assert fetch_value(state, "SELECT count(*) FROM orders WHERE status = :s", {"s": payload}) == 0
    assert fetch_value(state, "SELECT :s", {"s": payload}) == payload
    assert sha256(world) == before


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("SELECT id FROM orders WHERE id > 99", "returned no row"),
        ("SELECT id FROM orders", "returned more than one row"),
        ("SELECT id, total FROM orders WHERE id = 1", "returned 2 columns"),
    ],
)
def test_a_query_not_answering_exactly_one_value_is_a_shape_error(
    state: SqliteState, sql: str, message: str
) -> None:
    with pytest.raises(CheckShapeError, match=message):
        fetch_value(state, sql, {})


def test_a_missing_database_is_unavailable_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.db"
    with pytest.raises(StateUnavailableError, match="no SQLite database at"):
        SqliteState.open(missing, timeout_s=1)
    assert not missing.exists()


def test_a_file_that_is_not_a_database_is_unavailable(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_text("not a database at all, just text" * 40)
    with pytest.raises(StateUnavailableError, match="cannot open .* as a SQLite database"):
        SqliteState.open(junk, timeout_s=1)


ATTACKS_THROUGH_EVALUATION = [
    ("DELETE FROM orders", "a check must be one read-only query starting with SELECT or WITH; found DELETE"),
    ("SELECT 1; DROP TABLE orders", "a check is one statement; this SQL holds more than one"),
    ("WITH x AS (SELECT 1) INSERT INTO orders VALUES (7, 'x', 1)", "INSERT orders is not allowed"),
    ("SELECT load_extension('/tmp/evil.so')", r"the function load_extension\(\) is not allowed"),
    (FOREVER, "the query did not finish within 0.5 s"),
    ("SELECT id FROM orders", "returned more than one row"),
    ("SELECT nope FROM orders WHERE id = 1", "SQLite could not run the check: no such column: nope"),
]  # fmt: skip


@pytest.mark.parametrize(("sql", "detail"), ATTACKS_THROUGH_EVALUATION)
def test_an_attack_in_a_scenario_is_a_check_error_and_the_run_is_not_scored(
    world: Path, sql: str, detail: str
) -> None:
    before = sha256(world)
    run = Run.model_validate({**RUN_TEMPLATE, "world": {"end_state": str(world)}})
    outcome = evaluate_run(run, scenario_with_check(sql))
    (check,) = outcome.checks
    assert check.status == "error"
    assert check.answered is None
    assert re.search(detail, check.detail), check.detail
    assert outcome.outcome == "not_scored"
    assert outcome.not_scored_reason == f"attack: {check.detail}"
    assert sha256(world) == before
