"""Small builders shared by the tests."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from judge.core.domain.run import Run, parse_run
from judge.server.store.db import autocommit

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"


def example(name: str) -> Run:
    return parse_run(json.loads((EXAMPLES / name).read_text()), source=name)


def example_data(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text())
    return data


def verdict(score: float, turns: list[int] | None = None, rationale: str = "ok") -> str:
    return json.dumps({"score": score, "turns": turns or [], "rationale": rationale})


class Sent(NamedTuple):
    """One statement as it ran: its first word, whether its connection was in autocommit (the
    driver sends no BEGIN around it then), and its text."""

    word: str
    autocommit: bool
    text: str


@contextmanager
def statements_sent(engine: Engine) -> Iterator[list[Sent]]:
    """The statements ``engine`` runs inside the block, as they run, on its write pool or its
    read pool (``judge.server.store.db.autocommit``)."""
    sent: list[Sent] = []

    def statement(conn: sa.Connection, _cursor: object, text: str, *_: object) -> None:
        dbapi = conn.connection.dbapi_connection
        autocommit = bool(getattr(dbapi, "autocommit", False))
        sent.append(Sent(text.split()[0].upper(), autocommit, text))

    pools = {engine, autocommit(engine)}
    for pool in pools:
        sa.event.listen(pool, "before_cursor_execute", statement)
    try:
        yield sent
    finally:
        for pool in pools:
            sa.event.remove(pool, "before_cursor_execute", statement)
