"""Repository functions for runs and their seats (keyword-only, one session each)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import sqlalchemy as sa
from sqlmodel import Session, col, func, select

from judge.core.domain.run import Run
from judge.core.domain.status import UNFINISHED_RUN_STATUSES, leaderboard_class
from judge.server.store.tables import PassRow, RunRow, SeatRow, table_of, utcnow

#: What matches runs for comparison, kept in columns of their own (docs/scoring.md).
MATCHED_ON = {"scenario_id", "seed", "adversary_config"}


def is_self_reported(submitted_by: str) -> bool:
    """Runs submitted with an agent key: the agent wrote their conditions, trace and world."""
    return submitted_by.startswith("agent:")


def is_rule_run(submitted_by: str) -> bool:
    """Runs an online evaluation rule made of a live trace (docs/integrations.md)."""
    return submitted_by.startswith("rule:")


def holds_agent_text(submitted_by: str) -> bool:
    """Runs whose every word came from an agent (an agent key's, or a live trace's): screened
    as agent-submitted (docs/integrity.md)."""
    return is_self_reported(submitted_by) or is_rule_run(submitted_by)


def insert_run(
    session: Session,
    *,
    run: Run,
    body_json: str,
    body_sha256: str,
    submitted_by: str,
    run_id: str | None = None,
) -> RunRow:
    """Add a queued run (under ``run_id``, default the body's) and its seats to the session."""
    run_id = run_id or run.run_id
    row = RunRow(
        run_id=run_id,
        ranked_eligible=not holds_agent_text(submitted_by),
        leaderboard_class="online"
        if is_rule_run(submitted_by)
        else leaderboard_class(custom_rubric=False, self_reported=is_self_reported(submitted_by)),
        **run.model_dump(include=MATCHED_ON),
        body_json=body_json,
        body_sha256=body_sha256,
        submitted_by=submitted_by,
    )
    session.add(row)
    session.add_all(
        SeatRow(run_id=run_id, seat=s.seat, agent_id=s.agent_id, scored=s.scored) for s in run.seats
    )
    return row


def get_run(session: Session, *, run_id: str) -> RunRow | None:
    return session.get(RunRow, run_id)


def stored_run(row: RunRow) -> Run:
    """The run as submitted, under the id it is stored with (an agent's: ``agent_id:run_id``)."""
    run = Run.model_validate_json(row.body_json)
    return run if run.run_id == row.run_id else run.model_copy(update={"run_id": row.run_id})


def get_seats(session: Session, *, run_id: str) -> list[SeatRow]:
    return list(session.exec(select(SeatRow).where(SeatRow.run_id == run_id)).all())


_RUNS = table_of(RunRow)
_SEATS = table_of(SeatRow)


def agent_reads(runs: sa.Table, seats: sa.Table) -> sa.ColumnElement[bool]:
    """What an agent key (:func:`reader`) may read, as SQL: runs where its agent sits, scored,
    in its seat, and that are not another agent's self-reported run."""
    return sa.and_(
        seats.c.run_id == runs.c.run_id,
        seats.c.seat == sa.bindparam("reader_seat"),
        seats.c.agent_id == sa.bindparam("reader_agent"),
        seats.c.scored.is_(True),
        sa.or_(
            runs.c.submitted_by.not_like("agent:%"),
            runs.c.submitted_by == sa.bindparam("reader_actor"),
        ),
    )


def reader(*, agent_id: str, seat: str) -> dict[str, str]:
    """The parameters of :func:`agent_reads` for a key of (``agent_id``, ``seat``)."""
    return {"reader_agent": agent_id, "reader_seat": seat, "reader_actor": f"agent:{agent_id}"}


_MAY_READ = (
    sa.select(_RUNS.c.run_id)
    .select_from(_RUNS.join(_SEATS, _SEATS.c.run_id == _RUNS.c.run_id))
    .where(_RUNS.c.run_id == sa.bindparam("run_id"), agent_reads(_RUNS, _SEATS))
)


def agent_may_read_run(session: Session, *, run_id: str, agent_id: str, seat: str) -> bool:
    """Whether an agent key for (``agent_id``, ``seat``) may read the run (:func:`agent_reads`)."""
    found = session.connection().execute(
        _MAY_READ, {"run_id": run_id, **reader(agent_id=agent_id, seat=seat)}
    )
    return found.first() is not None


def runs_in_status(session: Session, *, statuses: Sequence[str]) -> list[str]:
    """Ids of runs in any of ``statuses``, oldest first (the queue to resume on start)."""
    query = (
        select(RunRow.run_id)
        .where(col(RunRow.status).in_(statuses))
        .order_by(col(RunRow.created_at))
    )
    return list(session.exec(query).all())


def set_run_status(
    session: Session,
    *,
    run_id: str,
    status: str,
    reason: str | None = None,
    detail: str | None = None,
) -> RunRow:
    """Move a run to ``status`` (``reason`` for anyone who may see it, ``detail`` for owners)."""
    row = session.get(RunRow, run_id)
    if row is None:
        raise LookupError(f"run {run_id!r} is not stored")
    row.status, row.reason, row.reason_detail, row.updated_at = status, reason, detail, utcnow()
    session.add(row)
    return row


def start_scoring(
    session: Session, *, run_id: str, judge_model: str, passes_total: int, snapshot_json: str
) -> RunRow:
    """Mark a run as scoring under a fixed snapshot of how it is scored (kept for resumes)."""
    row = set_run_status(session, run_id=run_id, status="scoring")
    row.judge_model, row.passes_total = judge_model, passes_total
    row.scoring_snapshot_json = snapshot_json
    row.scoring_starts += 1
    session.add(row)
    return row


def interrupted_starts(row: RunRow) -> int:
    """Scoring starts that ended in a crash (or are running now): starts less clean stops."""
    return row.scoring_starts - row.clean_stops


def end_scoring_cleanly(session: Session, *, run_id: str) -> None:
    """A start that ended in a clean shutdown is not counted towards giving up (only crashes are)."""
    row = session.get(RunRow, run_id)
    if row is not None and row.status == "scoring" and row.clean_stops < row.scoring_starts:
        row.clean_stops += 1
        session.add(row)


def requeue_after_refusal(session: Session, *, row: RunRow) -> None:
    """Queue a run a budget refused or stopped again: its snapshot and stored passes stay (what
    was paid for is not judged again), and the refusal ends its start cleanly."""
    row.status, row.reason, row.reason_detail, row.updated_at = "queued", None, None, utcnow()
    row.clean_stops = row.scoring_starts
    session.add(row)


def count_passes(session: Session, *, run_id: str) -> int:
    """How many judge passes are stored for the run (0: nothing was judged)."""
    query = select(func.count()).select_from(PassRow).where(col(PassRow.run_id) == run_id)
    return int(session.exec(query).one())


def mark_leaderboard_class(
    session: Session, *, run_id: str, ranked_eligible: bool, leaderboard_class: str
) -> None:
    """Set whether a run may enter ranked leaderboards (added to the caller's transaction)."""
    row = set_run_status(session, run_id=run_id, status="scored")
    row.ranked_eligible, row.leaderboard_class = ranked_eligible, leaderboard_class
    row.scored_at = row.updated_at


def count_runs(session: Session) -> int:
    return int(session.exec(select(func.count()).select_from(RunRow)).one())


class Waiting(NamedTuple):
    """Who submitted a run, and how many of that submitter's unfinished runs came before it."""

    submitted_by: str
    earlier: int


def waiting_before(session: Session, *, run_id: str) -> Waiting | None:
    """The submitter of a run and its earlier unfinished runs (None: no such run)."""
    row = session.get(RunRow, run_id)
    if row is None:
        return None
    earlier = session.exec(
        select(func.count())
        .select_from(RunRow)
        .where(
            col(RunRow.submitted_by) == row.submitted_by,
            col(RunRow.status).in_(UNFINISHED_RUN_STATUSES),
            (col(RunRow.created_at) < row.created_at)
            | ((col(RunRow.created_at) == row.created_at) & (col(RunRow.run_id) < run_id)),
        )
    ).one()
    return Waiting(row.submitted_by, int(earlier))
