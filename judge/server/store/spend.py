"""What judging has spent since a moment, summed by SQL over the stored passes and pairwise
verdicts (docs/service.md, "Cost and budgets")."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Session, col, select

from judge.core.domain.cost import Spent
from judge.server.store.tables import PairwiseVerdictRow, PassRow, SeatRow

_PASS_USD = sa.func.coalesce(
    sa.func.sum(sa.case((col(PassRow.cost_usd) > 0, col(PassRow.cost_usd)), else_=0.0)), 0.0
)
_PASS_TOKENS = sa.func.coalesce(
    sa.func.sum(
        sa.func.coalesce(col(PassRow.prompt_tokens), 0)
        + sa.func.coalesce(col(PassRow.completion_tokens), 0)
    ),
    0,
)
_PAIR_USD = sa.func.coalesce(
    sa.func.sum(sa.func.coalesce(col(PairwiseVerdictRow.cost_usd), 0.0)), 0.0
)
_PAIR_TOKENS = sa.func.coalesce(sa.func.sum(col(PairwiseVerdictRow.tokens)), 0)

_PASS_SEAT = sa.and_(
    col(SeatRow.run_id) == col(PassRow.run_id), col(SeatRow.seat) == col(PassRow.seat)
)


def _spent(usd: float | None, tokens: int | None) -> Spent:
    return Spent(usd=float(usd or 0.0), tokens=int(tokens or 0))


def _plus(a: Spent, b: Spent) -> Spent:
    return Spent(usd=a.usd + b.usd, tokens=a.tokens + b.tokens)


def platform_spent(session: Session, *, since: datetime, except_run: str | None = None) -> Spent:
    """Every pass and pairwise verdict made since ``since`` (the passes of ``except_run`` left
    out: a run counts its own passes itself)."""
    passes = select(_PASS_USD, _PASS_TOKENS).where(col(PassRow.created_at) >= since)
    if except_run is not None:
        passes = passes.where(PassRow.run_id != except_run)
    pairs = select(_PAIR_USD, _PAIR_TOKENS).where(col(PairwiseVerdictRow.created_at) >= since)
    return _plus(_spent(*session.exec(passes).one()), _spent(*session.exec(pairs).one()))


def agent_spent(
    session: Session, *, agent_id: str, since: datetime, except_run: str | None = None
) -> Spent:
    """The passes judging the agent's seats, and the pairwise verdicts it is in, since ``since``."""
    passes = (
        select(_PASS_USD, _PASS_TOKENS)
        .join(SeatRow, _PASS_SEAT)
        .where(SeatRow.agent_id == agent_id, col(PassRow.created_at) >= since)
    )
    if except_run is not None:
        passes = passes.where(PassRow.run_id != except_run)
    pairs = select(_PAIR_USD, _PAIR_TOKENS).where(
        col(PairwiseVerdictRow.created_at) >= since,
        sa.or_(
            col(PairwiseVerdictRow.agent_a) == agent_id, col(PairwiseVerdictRow.agent_b) == agent_id
        ),
    )
    return _plus(_spent(*session.exec(passes).one()), _spent(*session.exec(pairs).one()))


def agents_spent(
    session: Session, *, agent_ids: Sequence[str], since: datetime, except_run: str | None = None
) -> dict[str, Spent]:
    return {
        a: agent_spent(session, agent_id=a, since=since, except_run=except_run) for a in agent_ids
    }
