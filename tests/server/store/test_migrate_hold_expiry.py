"""Migration 0021 on SQLite and PostgreSQL: a budget hold taken before it keeps its estimate
and gets an expiry an hour after it was taken (the default JUDGE_BUDGET_HOLD_S) and no owner,
so a hold a dead process left before the upgrade stops counting too (docs/service.md,
"Budgets")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from alembic import command
from sqlalchemy.engine import Engine

from judge.server.service import budgets
from judge.server.store import spend
from judge.server.store.db import transaction
from judge.server.store.migrate import alembic_config, upgrade


def _to(engine: Engine, revision: str) -> None:
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)


def _columns(engine: Engine) -> set[str]:
    return {c["name"] for c in sa.inspect(engine).get_columns("budget_holds")}


def test_0021_gives_an_earlier_hold_an_hour_and_keeps_its_estimate(engine: Engine) -> None:
    taken = datetime(2026, 12, 5, 9, 30, 15, tzinfo=UTC)
    _to(engine, "0020_budget_holds")
    assert {"expires_at", "created_by"}.isdisjoint(_columns(engine))
    holds = sa.table(
        "budget_holds",
        *(sa.column(c) for c in ("purpose", "what", "tokens", "cost_usd")),
        sa.column("created_at", sa.DateTime(timezone=True)),
    )
    with engine.begin() as connection:
        connection.execute(
            holds.insert().values(
                purpose="align",
                what="judge align for x",
                tokens=700,
                cost_usd=0.25,
                created_at=taken,
            )
        )

    upgrade(engine)

    assert {"expires_at", "created_by"} <= _columns(engine)
    with transaction(engine) as session:
        (found,) = budgets.holds(session, now=taken + timedelta(minutes=59))
        assert (found.tokens, found.cost_usd, found.by, found.expired) == (700, 0.25, None, False)
        assert (found.created_at, found.expires_at) == (taken, taken + timedelta(hours=1))
        day = budgets.day_start(taken)
        live = spend.platform_spent(session, since=day, now=taken + timedelta(minutes=59))
        dead = spend.platform_spent(session, since=day, now=taken + timedelta(hours=1))
    assert (live.tokens, dead.tokens) == (700, 0)
