"""Reading a check's SQL text: one statement, a query, named parameters. The first gate, not
the last (the databases refuse writes); the scanner knows literals, quoted identifiers,
comments and dollar quotes, and where unsure it refuses."""

from __future__ import annotations

import re  # stays on re: matches only the SQL of state checks that scenario owners write
from typing import Literal, NamedTuple

from judge.engine.checks.errors import CheckRefusedError

TokenKind = Literal["code", "string", "ident", "comment", "param"]

_PARAM = re.compile(r":([A-Za-z_][A-Za-z0-9_]*)")
_DOLLAR_TAG = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)?\$")
_WORD = re.compile(r"[A-Za-z_]+")
_QUERY_STARTS = ("select", "with")


class Token(NamedTuple):
    kind: TokenKind
    text: str


def tokenize(sql: str) -> list[Token]:
    """SQL text as code, literals, comments and ``:name`` parameters (CheckRefusedError when
    a string, identifier or comment is unterminated)."""
    tokens: list[Token] = []
    i = 0
    while i < len(sql):
        token, i = _next_token(sql, i)
        tokens.append(token)
    return tokens


def _next_token(sql: str, i: int) -> tuple[Token, int]:
    ch, two = sql[i], sql[i : i + 2]
    if ch == "'":
        return _quoted(sql, i, "'", "string", backslash=_is_escape_string(sql, i))
    if ch == '"':
        return _quoted(sql, i, '"', "ident", backslash=False)
    if two == "--":
        end = sql.find("\n", i)
        end = len(sql) if end < 0 else end
        return Token("comment", sql[i:end]), end
    if two == "/*":
        end = sql.find("*/", i + 2)
        if end < 0:
            raise CheckRefusedError("unterminated /* comment in the check's SQL")
        return Token("comment", sql[i : end + 2]), end + 2
    if ch == "$" and (tag := _DOLLAR_TAG.match(sql, i)):
        return _dollar_quoted(sql, i, tag.group(0))
    if ch == ":" and (param := _PARAM.match(sql, i)) and sql[i - 1 : i] != ":":
        return Token("param", param.group(1)), param.end()
    return Token("code", ch), i + 1


def _is_escape_string(sql: str, i: int) -> bool:
    """True for PostgreSQL's E'…' strings, where a backslash escapes the next character."""
    return (
        i > 0 and sql[i - 1] in "eE" and not (i > 1 and (sql[i - 2].isalnum() or sql[i - 2] == "_"))
    )


def _quoted(sql: str, i: int, quote: str, kind: TokenKind, *, backslash: bool) -> tuple[Token, int]:
    j = i + 1
    while j < len(sql):
        if backslash and sql[j] == "\\":
            j += 2
            continue
        if sql[j] == quote:
            if sql[j + 1 : j + 2] == quote:
                j += 2
                continue
            return Token(kind, sql[i : j + 1]), j + 1
        j += 1
    what = "string literal" if kind == "string" else "quoted identifier"
    raise CheckRefusedError(f"unterminated {what} in the check's SQL")


def _dollar_quoted(sql: str, i: int, tag: str) -> tuple[Token, int]:
    end = sql.find(tag, i + len(tag))
    if end < 0:
        raise CheckRefusedError(f"unterminated dollar-quoted string {tag} in the check's SQL")
    return Token("string", sql[i : end + len(tag)]), end + len(tag)


def single_query(sql: str) -> str:
    """The one query in `sql`, without a trailing semicolon; CheckRefusedError for several
    statements or one that does not start with SELECT or WITH."""
    tokens = tokenize(sql)
    body = _strip_trailing_semicolon(tokens)
    if any(t.kind == "code" and t.text == ";" for t in body):
        raise CheckRefusedError("a check is one statement; this SQL holds more than one")
    first = _first_word(body)
    if first is None or first.lower() not in _QUERY_STARTS:
        found = first.upper() if first else "nothing"
        raise CheckRefusedError(
            f"a check must be one read-only query starting with SELECT or WITH; found {found}"
        )
    return "".join(t.text if t.kind != "param" else f":{t.text}" for t in body).strip()


def _strip_trailing_semicolon(tokens: list[Token]) -> list[Token]:
    """Drop one final ``;`` and anything after it that is only whitespace or comments."""
    for index in range(len(tokens) - 1, -1, -1):
        token = tokens[index]
        if token.kind == "comment" or (token.kind == "code" and token.text.isspace()):
            continue
        return tokens[:index] if token.kind == "code" and token.text == ";" else tokens
    return []


def _first_word(tokens: list[Token]) -> str | None:
    code = "".join(t.text if t.kind == "code" else " " for t in tokens)
    stripped = code.lstrip(" \t\r\n(")
    match = _WORD.match(stripped)
    return match.group(0) if match else None


def is_query(sql: str) -> bool:
    """Whether the first keyword (past comments and parentheses) is SELECT or WITH."""
    try:
        first = _first_word(tokenize(sql))
    except CheckRefusedError:
        return False
    return first is not None and first.lower() in _QUERY_STARTS


def parameter_names(sql: str) -> set[str]:
    """The ``:name`` parameters the SQL uses, outside literals and comments."""
    return {t.text for t in tokenize(sql) if t.kind == "param"}


def to_pyformat(sql: str) -> str:
    """Rewrite ``:name`` parameters as psycopg's ``%(name)s`` and escape every other ``%``."""
    return "".join(
        f"%({t.text})s" if t.kind == "param" else t.text.replace("%", "%%") for t in tokenize(sql)
    )
