"""The SQL text gate: one statement, a query, named parameters found outside literals."""

from __future__ import annotations

import pytest

from judge.engine.checks.errors import CheckRefusedError
from judge.engine.checks.sqltext import is_query, parameter_names, single_query, to_pyformat


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT 1", "SELECT 1"),
        ("  select count(*) from t ;  ", "select count(*) from t"),
        ("SELECT 1; -- done\n", "SELECT 1"),
        ("WITH x AS (SELECT 1) SELECT * FROM x", "WITH x AS (SELECT 1) SELECT * FROM x"),
        ("(SELECT 1)", "(SELECT 1)"),
        ("/* lead */ SELECT ';' AS semi", "/* lead */ SELECT ';' AS semi"),
        ('SELECT "a;b" FROM t', 'SELECT "a;b" FROM t'),
        ("SELECT $$;$$", "SELECT $$;$$"),
        ("SELECT 'it''s; fine'", "SELECT 'it''s; fine'"),
    ],
)
def test_one_query_is_accepted_without_its_trailing_semicolon(sql: str, expected: str) -> None:
    assert single_query(sql) == expected


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT 1; DROP TABLE orders",
        "SELECT 1;SELECT 2",
        "SELECT 1; -- hidden\n DELETE FROM t",
        "SELECT E'\\''; DROP TABLE t; --'",
        "SELECT 1 /* a */ ; /* b */ UPDATE t SET a = 1",
    ],
)
def test_more_than_one_statement_is_refused(sql: str) -> None:
    with pytest.raises(CheckRefusedError, match="one statement"):
        single_query(sql)


@pytest.mark.parametrize(
    ("sql", "found"),
    [
        ("DELETE FROM orders", "DELETE"),
        ("update orders set status = 'x'", "UPDATE"),
        ("DROP TABLE orders", "DROP"),
        ("CREATE TABLE x (a int)", "CREATE"),
        ("INSERT INTO t VALUES (1)", "INSERT"),
        ("ATTACH DATABASE 'x' AS y", "ATTACH"),
        ("PRAGMA query_only = 0", "PRAGMA"),
        ("-- only a comment", "nothing"),
        ("", "nothing"),
    ],
)
def test_a_statement_that_is_not_a_query_is_refused(sql: str, found: str) -> None:
    with pytest.raises(CheckRefusedError, match=f"starting with SELECT or WITH; found {found}$"):
        single_query(sql)


@pytest.mark.parametrize(
    ("sql", "what"),
    [
        ("SELECT 'open", "unterminated string literal"),
        ('SELECT "open', "unterminated quoted identifier"),
        ("SELECT 1 /* open", "unterminated /\\* comment"),
        ("SELECT $x$ open", "unterminated dollar-quoted string \\$x\\$"),
    ],
)
def test_unterminated_literals_are_refused_with_what_is_open(sql: str, what: str) -> None:
    with pytest.raises(CheckRefusedError, match=what):
        single_query(sql)


def test_parameters_are_found_outside_literals_comments_and_casts() -> None:
    sql = "SELECT :a, ':b', \":c\", x::text, :d_2 -- :e\n FROM t /* :f */ WHERE y = :a"
    assert parameter_names(sql) == {"a", "d_2"}


def test_pyformat_rewrites_parameters_and_escapes_percent_signs() -> None:
    sql = "SELECT count(*) FROM t WHERE name LIKE '10%' AND id = :id AND x::int > 0"
    assert to_pyformat(sql) == (
        "SELECT count(*) FROM t WHERE name LIKE '10%%' AND id = %(id)s AND x::int > 0"
    )


@pytest.mark.parametrize(
    ("sql", "expected"),
    [("/* c */ (WITH x AS (SELECT 1) SELECT 1)", True), ("select 1", True),
     ("INSERT INTO t VALUES (1)", False), ("SELECT 'open", False), ("", False)],
)  # fmt: skip
def test_is_query_looks_at_the_first_keyword(sql: str, expected: bool) -> None:
    assert is_query(sql) is expected
