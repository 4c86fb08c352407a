"""What judging has spent since a moment, summed by SQL over the stored passes, pairwise
verdicts and the other judge calls (coaching, the judge's screen), and the platform's with the
budget holds of owners' requests still judging (docs/service.md, "Cost and budgets")."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlmodel import Session, col, select

from judge.core.domain.cost import Spent, priced_usd
from judge.core.scoring.cost import Costed, tokens_of
from judge.server.store.tables import (
    BudgetHoldRow,
    JudgeCallRow,
    PairwiseVerdictRow,
    PassRow,
    SeatRow,
    utcnow,
)


def _summed(usd: Any, tokens: Any) -> Any:
    """SELECT of the total of ``usd`` and of ``tokens`` (0 over no rows)."""
    return select(sa.func.coalesce(sa.func.sum(usd), 0.0), sa.func.coalesce(sa.func.sum(tokens), 0))


def _priced(usd: Any) -> Any:
    """A cost that counts only when positive."""
    return sa.case((col(usd) > 0, col(usd)), else_=0.0)


_PASSES = _summed(
    _priced(PassRow.cost_usd),
    sa.func.coalesce(col(PassRow.prompt_tokens), 0)
    + sa.func.coalesce(col(PassRow.completion_tokens), 0),
)
_PAIRS = _summed(
    sa.func.coalesce(col(PairwiseVerdictRow.cost_usd), 0.0), col(PairwiseVerdictRow.tokens)
)
_CALLS = _summed(_priced(JudgeCallRow.cost_usd), col(JudgeCallRow.tokens))
_HOLDS = _summed(sa.func.coalesce(col(BudgetHoldRow.cost_usd), 0.0), col(BudgetHoldRow.tokens))
_PASS_SEAT = sa.and_(
    col(SeatRow.run_id) == col(PassRow.run_id), col(SeatRow.seat) == col(PassRow.seat)
)


def _spent(
    session: Session,
    passes: Any,
    pairs: Any,
    since: datetime,
    except_run: str | None,
    calls: Any = _CALLS,
) -> Spent:
    """What ``passes``, ``pairs`` and ``calls`` made since ``since`` cost (``except_run``'s
    passes left out; its other calls count: a resumed run makes them again)."""
    passes = passes.where(col(PassRow.created_at) >= since)
    if except_run is not None:
        passes = passes.where(PassRow.run_id != except_run)
    pairs = pairs.where(col(PairwiseVerdictRow.created_at) >= since)
    calls = calls.where(col(JudgeCallRow.created_at) >= since)
    found = [session.exec(query).one() for query in (passes, pairs, calls)]
    usd = sum(float(u or 0.0) for u, _ in found)
    return Spent(usd=usd, tokens=sum(int(t or 0) for _, t in found))


def platform_spent(
    session: Session,
    *,
    since: datetime,
    except_run: str | None = None,
    now: datetime | None = None,
) -> Spent:
    """Every pass, pairwise verdict and other judge call made since ``since`` (the passes of
    ``except_run`` left out: a run counts its own passes itself), and every budget hold taken
    since then, not yet settled and not expired at ``now`` (default: the clock; calls an
    owner's request may still make)."""
    made = _spent(session, _PASSES, _PAIRS, since, except_run)
    return _with_holds(session, made, _live(since, now))


def _live(since: datetime, now: datetime | None) -> Any:
    """The holds taken since ``since`` and not expired at ``now`` (default: the clock)."""
    return sa.and_(
        col(BudgetHoldRow.created_at) >= since, col(BudgetHoldRow.expires_at) > (now or utcnow())
    )


def _with_holds(session: Session, made: Spent, holds: Any) -> Spent:
    usd, tokens = session.exec(_HOLDS.where(holds)).one()
    return Spent(usd=made.usd + float(usd or 0.0), tokens=made.tokens + int(tokens or 0))


def agent_spent(
    session: Session,
    *,
    agent_id: str,
    since: datetime,
    except_run: str | None = None,
    now: datetime | None = None,
) -> Spent:
    """The passes judging the agent's seats, the pairwise verdicts it is in and the other judge
    calls made for its seats (its coaching, the judge's screen of its seats), since ``since``,
    and the holds of its seats in runs being scored, live at ``now`` (default: the clock)."""
    passes = _PASSES.join(SeatRow, _PASS_SEAT).where(SeatRow.agent_id == agent_id)
    pair = PairwiseVerdictRow
    pairs = _PAIRS.where(sa.or_(col(pair.agent_a) == agent_id, col(pair.agent_b) == agent_id))
    calls = _CALLS.where(JudgeCallRow.agent_id == agent_id)
    made = _spent(session, passes, pairs, since, except_run, calls)
    return _with_holds(
        session, made, sa.and_(_live(since, now), col(BudgetHoldRow.agent_id) == agent_id)
    )


class CallCost(NamedTuple):
    """The cost of a judge call whose answer does not name its model (a clarifying reply)."""

    model: str
    prompt_tokens: int | None
    completion_tokens: int | None
    cost_usd: float | None


def record_call(
    session: Session, *, call: Costed, purpose: str, run_id: str, seat: str, agent_id: str
) -> None:
    """Keep one judge call made beside the passes, so today's spend counts it: its prompt and
    completion tokens, and its dollars where it had a price (:func:`priced_usd`)."""
    tokens = tokens_of(call)
    session.add(
        JudgeCallRow(
            purpose=purpose,
            run_id=run_id,
            seat=seat,
            agent_id=agent_id,
            model=call.model,
            tokens=tokens,
            cost_usd=priced_usd(call.cost_usd, tokens),
        )
    )


def agents_spent(
    session: Session,
    *,
    agent_ids: Sequence[str],
    since: datetime,
    except_run: str | None = None,
    now: datetime | None = None,
) -> dict[str, Spent]:
    return {
        a: agent_spent(session, agent_id=a, since=since, except_run=except_run, now=now)
        for a in agent_ids
    }


def add_hold(
    session: Session,
    *,
    purpose: str,
    what: str,
    by: str,
    tokens: int,
    cost_usd: float | None,
    now: datetime,
    expires_at: datetime,
    run_id: str | None = None,
    agent_id: str | None = None,
) -> int:
    """Hold ``tokens`` and ``cost_usd`` in the platform's spend (and ``agent_id``'s, when it
    names one) from ``now`` until :func:`drop_hold` or ``expires_at``, whichever comes first;
    its id."""
    row = BudgetHoldRow(
        purpose=purpose,
        what=what[:200],
        created_by=by[:200],
        tokens=tokens,
        cost_usd=cost_usd,
        created_at=now,
        expires_at=expires_at,
        run_id=run_id,
        agent_id=agent_id,
    )
    session.add(row)
    session.flush()
    if row.id is None:  # the store assigns it on flush
        raise RuntimeError("a budget hold was stored without an id")
    return row.id


def drop_hold(session: Session, *, hold_id: int) -> None:
    """Release a hold (its request ended: the calls it made are kept beside it, or none)."""
    session.execute(sa.delete(BudgetHoldRow).where(col(BudgetHoldRow.id) == hold_id))


def drop_run_holds(session: Session, *, run_id: str) -> None:
    """Release every hold ``run_id`` took (its scoring ended, kept its passes or failed, or a
    new claim of it holds its estimate afresh)."""
    session.execute(sa.delete(BudgetHoldRow).where(col(BudgetHoldRow.run_id) == run_id))


def renew_holds(
    session: Session,
    *,
    expires_at: datetime,
    hold_ids: Sequence[int] = (),
    run_id: str | None = None,
) -> int:
    """Push the expiry of live holds (``hold_ids``, or every hold of ``run_id``) to
    ``expires_at``: their request is still working. A hold already expired, settled or cleared
    is not brought back (its estimate stopped counting); how many were renewed."""
    mine = (
        col(BudgetHoldRow.run_id) == run_id
        if run_id is not None
        else col(BudgetHoldRow.id).in_(list(hold_ids))
    )
    live = col(BudgetHoldRow.expires_at) > utcnow()
    later = col(BudgetHoldRow.expires_at) < expires_at
    done = session.execute(
        sa.update(BudgetHoldRow).where(mine, live, later).values(expires_at=expires_at)
    )
    return int(getattr(done, "rowcount", 0) or 0)


def list_holds(session: Session) -> list[BudgetHoldRow]:
    """Every budget hold not yet settled or cleared, oldest first (expired ones too)."""
    return list(session.exec(select(BudgetHoldRow).order_by(col(BudgetHoldRow.id))).all())


def clear_expired_holds(session: Session, *, now: datetime) -> list[int]:
    """Remove the holds expired at ``now`` (they count in no spend any more); their ids. A
    live hold is never removed: its request may still be judging."""
    expired = col(BudgetHoldRow.expires_at) <= now
    ids = [
        int(i)
        for i in session.exec(
            select(BudgetHoldRow.id).where(expired).order_by(col(BudgetHoldRow.id))
        ).all()
        if i is not None
    ]
    if ids:
        session.execute(sa.delete(BudgetHoldRow).where(col(BudgetHoldRow.id).in_(ids)))
    return ids
