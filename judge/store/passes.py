"""Repository functions for judge passes: stored one by one as they finish."""

from __future__ import annotations

import json

from sqlmodel import Session, col, select

from judge.domain.judging import JudgePass
from judge.store.tables import PassRow

SeatPassKey = tuple[str, str, int]


def pass_row(*, run_id: str, seat: str, judge_pass: JudgePass) -> PassRow:
    data = judge_pass.model_dump(exclude={"index", "cited_turns", "score_distribution"})
    distribution = judge_pass.score_distribution
    return PassRow(
        run_id=run_id,
        seat=seat,
        pass_index=judge_pass.index,
        cited_turns_json=json.dumps(judge_pass.cited_turns),
        score_distribution_json=json.dumps(distribution) if distribution is not None else None,
        **data,
    )


def judge_pass(row: PassRow) -> JudgePass:
    return JudgePass(
        trait=row.trait,
        index=row.pass_index,
        score=row.score,
        rationale=row.rationale,
        cited_turns=json.loads(row.cited_turns_json),
        raw_output=row.raw_output,
        model=row.model,
        prompt_tokens=row.prompt_tokens,
        cached_prompt_tokens=row.cached_prompt_tokens,
        completion_tokens=row.completion_tokens,
        cost_usd=row.cost_usd,
        latency_ms=row.latency_ms,
        attempts=row.attempts,
        parse_status=row.parse_status,
        unscored_reason=row.unscored_reason,
        sampled_score=row.sampled_score,
        expected_score=row.expected_score,
        score_distribution=json.loads(row.score_distribution_json) if row.score_distribution_json else None,
        score_entropy_bits=row.score_entropy_bits,
        distribution_partial=row.distribution_partial,
        structured_output=row.structured_output,
    )


def insert_pass(session: Session, *, run_id: str, seat: str, judge_pass: JudgePass) -> None:
    session.add(pass_row(run_id=run_id, seat=seat, judge_pass=judge_pass))


def stored_passes(session: Session, *, run_id: str) -> dict[SeatPassKey, JudgePass]:
    """Every pass stored for a run, keyed (seat, trait, index): the `done` of a resumed run."""
    query = select(PassRow).where(PassRow.run_id == run_id).order_by(col(PassRow.id))
    return {(r.seat, r.trait, r.pass_index): judge_pass(r) for r in session.exec(query).all()}


def count_passes(session: Session, *, run_id: str) -> int:
    from sqlalchemy import func

    query = select(func.count()).select_from(PassRow).where(PassRow.run_id == run_id)
    return int(session.exec(query).one())
