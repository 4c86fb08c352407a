"""Migration 0022 on SQLite and PostgreSQL: a hold taken before it (an owner's proposal) keeps
its estimate and names no run and no agent, so it counts in the platform's spend and in no
agent's; a downgrade takes the columns away again (docs/service.md, "Budget holds")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from alembic import command
from sqlalchemy.engine import Engine
from sqlmodel import select

from judge.server.service import budgets
from judge.server.store import spend
from judge.server.store.db import transaction
from judge.server.store.migrate import alembic_config, upgrade
from judge.server.store.tables import BudgetHoldRow


def _to(engine: Engine, revision: str) -> None:
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)


def _columns(engine: Engine) -> set[str]:
    return {c["name"] for c in sa.inspect(engine).get_columns("budget_holds")}


def test_0022_keeps_an_earlier_hold_as_the_platforms_and_no_agents(engine: Engine) -> None:
    # a minute ago, and today even a minute after midnight
    taken = max(
        datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=1), budgets.day_start()
    )
    _to(engine, "0021_hold_expiry")
    assert {"run_id", "agent_id"}.isdisjoint(_columns(engine))
    holds = sa.table(
        "budget_holds",
        *(sa.column(c) for c in ("purpose", "what", "tokens", "cost_usd", "created_by")),
        sa.column("created_at", sa.DateTime(timezone=True)),
        sa.column("expires_at", sa.DateTime(timezone=True)),
    )
    with engine.begin() as connection:
        connection.execute(
            holds.insert().values(
                purpose="align",
                what="judge align for x",
                tokens=700,
                cost_usd=0.25,
                created_by="owner:ana",
                created_at=taken,
                expires_at=taken + timedelta(hours=1),
            )
        )

    upgrade(engine)

    assert {"run_id", "agent_id"} <= _columns(engine)
    with transaction(engine) as session:
        (row,) = session.exec(select(BudgetHoldRow)).all()
        assert (row.tokens, row.run_id, row.agent_id, row.created_by) == (
            700,
            None,
            None,
            "owner:ana",
        )
        since = budgets.day_start()
        assert spend.platform_spent(session, since=since).tokens == 700
        assert spend.agent_spent(session, agent_id="agent-alpha", since=since).tokens == 0

    _to(engine, "0021_hold_expiry")
    assert {"run_id", "agent_id"}.isdisjoint(_columns(engine))
    upgrade(engine)
