"""Pairwise verdicts: keyword-only reads and writes of :class:`PairwiseVerdictRow`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from judge.core.domain.pairwise import PairSide, PairVerdict
from judge.core.scoring.cost import cost_of
from judge.server.store.tables import PairwiseVerdictRow

#: The columns a stored verdict copies from the verdict itself, under the same names.
_VERDICT_FIELDS = {"era_id", "trait", "judge_model", "outcome", "flipped"}


def _side_columns(side: PairSide, letter: str) -> dict[str, Any]:
    """One seat of the pair as its columns (``run_a``, ``seat_a``, ``agent_a`` for seat A)."""
    return {
        f"run_{letter}": side.run_id,
        f"seat_{letter}": side.seat,
        f"agent_{letter}": side.agent_id,
    }


def put_verdict(session: Session, *, verdict: PairVerdict) -> bool:
    """Store a verdict; False when the same pair, trait and era was stored meanwhile."""
    cost = cost_of(verdict.passes)
    row = PairwiseVerdictRow(
        **verdict.model_dump(include=_VERDICT_FIELDS),
        scenario_id=verdict.key.scenario_id,
        **_side_columns(verdict.side_a, "a"),
        **_side_columns(verdict.side_b, "b"),
        verdict_json=verdict.without_transcripts().model_dump_json(),
        cost_usd=cost.cost_usd,
        tokens=cost.tokens,
    )
    try:
        with session.begin_nested():
            session.add(row)
        return True
    except IntegrityError:
        return False


def get_verdict(
    session: Session, *, era_id: str, trait: str, run_a: str, seat_a: str, run_b: str, seat_b: str
) -> PairVerdict | None:
    row = session.exec(
        select(PairwiseVerdictRow).where(
            PairwiseVerdictRow.era_id == era_id,
            PairwiseVerdictRow.trait == trait,
            PairwiseVerdictRow.run_a == run_a,
            PairwiseVerdictRow.seat_a == seat_a,
            PairwiseVerdictRow.run_b == run_b,
            PairwiseVerdictRow.seat_b == seat_b,
        )
    ).first()
    return None if row is None else PairVerdict.model_validate_json(row.verdict_json)


def verdicts_of(
    session: Session,
    *,
    scenario_id: str | None = None,
    trait: str | None = None,
    era_id: str | None = None,
    agents: Sequence[str] = (),
) -> list[PairVerdict]:
    """Stored verdicts, oldest first; ``agents`` keeps those between two of the agents named."""
    v = PairwiseVerdictRow
    wanted = [(v.scenario_id, scenario_id), (v.trait, trait), (v.era_id, era_id)]
    query = select(v).where(*[col(c) == x for c, x in wanted if x is not None])
    if agents:
        query = query.where(col(v.agent_a).in_(agents), col(v.agent_b).in_(agents))
    query = query.order_by(col(v.id))
    return [PairVerdict.model_validate_json(r.verdict_json) for r in session.exec(query).all()]
