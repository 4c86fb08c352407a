"""Safety review decisions (append-only audit rows) and the scorecards a rescore replaced."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import Session, col, select

from judge.core.scoring.run_summary import RunFigures
from judge.server.store import leaderboard_entries as entry_repo
from judge.server.store import views as view_repo
from judge.server.store.review_tables import RunSummaryRow, SafetyReviewRow, ScorecardAttemptRow
from judge.server.store.tables import PassRow, RunRow, ScorecardRow, SeatRow, TraitScoreRow, utcnow


def add_review(
    session: Session, *, run_id: str, decision: str, note: str, by: str, seat: str | None = None
) -> SafetyReviewRow:
    """Append a decision on the run's current attempt and make it the run's latest review
    state; it becomes the hold state of ``seat``, or with no seat of every flagged seat."""
    summary = session.get(RunSummaryRow, run_id) or RunSummaryRow(run_id=run_id)
    row = SafetyReviewRow(
        run_id=run_id,
        decision=decision,
        seat=seat,
        note=note,
        attempt=summary.attempt,
        reviewed_by=by,
    )
    summary.review_state = decision
    decided = [col(SeatRow.run_id) == run_id, col(SeatRow.integrity_flagged).is_(True)]
    if seat is not None:
        decided.append(col(SeatRow.seat) == seat)
    session.execute(sa.update(SeatRow).where(*decided).values(review_state=decision))
    session.add_all([row, summary])
    return row


def flagged_seat_rows(session: Session, *, run_id: str) -> list[SeatRow]:
    """The run's flagged seats (held, or cleared by an owner), in seat order."""
    query = select(SeatRow).where(SeatRow.run_id == run_id, col(SeatRow.integrity_flagged))
    return list(session.exec(query.order_by(col(SeatRow.seat))).all())


def flagged_seats_of(session: Session, *, run_ids: list[str]) -> dict[str, list[SeatRow]]:
    """run id -> its flagged seats, for one page of the queue."""
    found: dict[str, list[SeatRow]] = {r: [] for r in run_ids}
    query = select(SeatRow).where(col(SeatRow.run_id).in_(run_ids), col(SeatRow.integrity_flagged))
    for row in session.exec(query.order_by(col(SeatRow.run_id), col(SeatRow.seat))).all():
        found[row.run_id].append(row)
    return found


def reviews_of(session: Session, *, run_id: str) -> list[SafetyReviewRow]:
    query = (
        select(SafetyReviewRow)
        .where(SafetyReviewRow.run_id == run_id)
        .order_by(col(SafetyReviewRow.id))
    )
    return list(session.exec(query).all())


def attempts_of(session: Session, *, run_id: str) -> list[ScorecardAttemptRow]:
    query = select(ScorecardAttemptRow).where(ScorecardAttemptRow.run_id == run_id)
    return list(session.exec(query.order_by(col(ScorecardAttemptRow.attempt))).all())


def get_attempt(session: Session, *, run_id: str, attempt: int) -> ScorecardAttemptRow | None:
    query = select(ScorecardAttemptRow).where(
        ScorecardAttemptRow.run_id == run_id, ScorecardAttemptRow.attempt == attempt
    )
    return session.exec(query).first()


def _archive(session: Session, card: ScorecardRow, attempt: int, by: str) -> None:
    kept = card.model_dump(include={"run_id", "scorecard_json", "measurement_era"})
    session.add(ScorecardAttemptRow(**kept, attempt=attempt, archived_by=by))


def _clear_results(session: Session, run_id: str) -> None:
    for table in (TraitScoreRow, PassRow, ScorecardRow):
        session.execute(sa.delete(table).where(col(table.run_id) == run_id))
    view_repo.delete_views(session, run_id=run_id)
    entry_repo.delete_run_entries(session, run_id=run_id)
    session.execute(
        sa.update(SeatRow)
        .where(col(SeatRow.run_id) == run_id)
        .values(
            composite=None,
            objective_met_rate=None,
            participation_gated=None,
            integrity_flagged=False,
        )
    )


def _requeue(run: RunRow) -> None:
    run.status, run.reason, run.judge_model, run.passes_total = "queued", None, None, None
    run.scoring_snapshot_json, run.scoring_starts, run.clean_stops, run.scored_at = None, 0, 0, None
    run.updated_at = utcnow()


def archive_for_rescore(session: Session, *, run: RunRow, by: str) -> int:
    """Keep the run's scorecard as an earlier attempt, clear its results and queue it again
    with no snapshot (scored under the era in force); returns the new attempt number."""
    summary = session.get(RunSummaryRow, run.run_id) or RunSummaryRow(run_id=run.run_id)
    card = session.get(ScorecardRow, run.run_id)
    if card is not None:
        _archive(session, card, summary.attempt, by)
        session.flush()
    _clear_results(session, run.run_id)
    _requeue(run)
    summary.attempt += 1
    for name in RunFigures.model_fields:  # the figures of the scorecard just archived
        setattr(summary, name, None)
    summary.tamper_flagged = summary.unscannable = False
    session.add_all([run, summary])
    return summary.attempt
