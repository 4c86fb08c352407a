"""Repository functions for submissions (sets of runs)."""

from __future__ import annotations

from sqlmodel import Session, col, update

from judge.server.store.tables import SubmissionRow, SubmissionRunRow, utcnow


def insert_submission(
    session: Session, *, submission_id: str, agent_id: str, scenario_id: str, created_by: str
) -> SubmissionRow:
    """Open a submission; its visibility is the column's default until it is finalized."""
    row = SubmissionRow(
        submission_id=submission_id,
        agent_id=agent_id,
        scenario_id=scenario_id,
        created_by=created_by,
    )
    session.add(row)
    return row


def get_submission(session: Session, *, submission_id: str) -> SubmissionRow | None:
    return session.get(SubmissionRow, submission_id)


def add_submission_run(session: Session, *, submission_id: str, run_id: str) -> SubmissionRunRow:
    row = SubmissionRunRow(submission_id=submission_id, run_id=run_id)
    session.add(row)
    return row


def finalize_if_open(
    session: Session,
    *,
    submission_id: str,
    status: str,
    measurement_era: str,
    ranked_eligible: bool,
    leaderboard_class: str,
    visibility: str,
    reason: str | None,
    summary_json: str,
) -> bool:
    """Finalize in one conditional UPDATE; False when it was not open any more (of concurrent
    finalizations exactly one wins)."""
    statement = (
        update(SubmissionRow)
        .where(
            col(SubmissionRow.submission_id) == submission_id, col(SubmissionRow.status) == "open"
        )
        .values(
            status=status,
            measurement_era=measurement_era,
            ranked_eligible=ranked_eligible,
            leaderboard_class=leaderboard_class,
            visibility=visibility,
            reason=reason,
            summary_json=summary_json,
            finalized_at=utcnow(),
        )
    )
    result = session.exec(statement)
    return bool(result.rowcount == 1)
