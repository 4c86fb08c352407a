"""Stored leaderboard entries, so a board read parses no scorecard (docs/scoring.md,
"Leaderboards"). Whether a seat is held for review is read at query time from its seat row:
a held seat leaves the board, the run's other seats stay on it."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from judge.core.domain.scorecard import Objectives, Scorecard
from judge.core.domain.status import FINALIZED_SUBMISSION_STATUSES, stored_class
from judge.core.scoring.leaderboard import LeaderboardEntry, submission_entries
from judge.server.store.summaries import seat_not_held
from judge.server.store.tables import LeaderboardEntryRow, SubmissionRow, SubmissionRunRow, table_of


def entry_rows(submission: SubmissionRow, card: Scorecard) -> list[LeaderboardEntryRow]:
    """The rows one scored run of a finalized submission adds (none when it is on no board)."""
    entries = submission_entries(
        card,
        agent_id=submission.agent_id,
        visibility=submission.visibility,
        leaderboard_class=stored_class(submission.leaderboard_class),
    )
    return [
        LeaderboardEntryRow(
            **e.model_dump(exclude={"scenario_id", "objectives"}),
            objectives_json=e.objectives.model_dump_json(),
            submission_id=submission.submission_id,
            scenario_id=submission.scenario_id,
            submission_era=submission.measurement_era or "",
            visibility=submission.visibility,
            seat_order=sorted(card.seats).index(e.seat),
        )
        for e in entries
    ]


def put_submission_entries(
    session: Session, *, submission: SubmissionRow, cards: Sequence[Scorecard]
) -> None:
    """Write a finalized submission's entries from its runs' scorecards (replacing any)."""
    session.execute(
        sa.delete(LeaderboardEntryRow).where(
            col(LeaderboardEntryRow.submission_id) == submission.submission_id
        )
    )
    if submission.status in FINALIZED_SUBMISSION_STATUSES:
        session.add_all([row for card in cards for row in entry_rows(submission, card)])


def _finalized_submissions_of(session: Session, run_id: str) -> list[SubmissionRow]:
    query = (
        select(SubmissionRow)
        .join(
            SubmissionRunRow,
            col(SubmissionRunRow.submission_id) == col(SubmissionRow.submission_id),
        )
        .where(SubmissionRunRow.run_id == run_id)
        .where(col(SubmissionRow.status).in_(FINALIZED_SUBMISSION_STATUSES))
    )
    return list(session.exec(query).all())


def delete_run_entries(session: Session, *, run_id: str) -> None:
    """Take a run off every board (its results were cleared for a rescore)."""
    session.execute(sa.delete(LeaderboardEntryRow).where(col(LeaderboardEntryRow.run_id) == run_id))


def refresh_run_entries(session: Session, *, card: Scorecard) -> None:
    """Rewrite the run's entries in every finalized submission holding it, from its new card."""
    delete_run_entries(session, run_id=card.run_id)
    for submission in _finalized_submissions_of(session, card.run_id):
        session.add_all(entry_rows(submission, card))


_READ = [name for name in LeaderboardEntry.model_fields if name != "objectives"] + [
    "objectives_json"
]


#: The entry rows a board is built from, as plain tuples in ``_READ``'s order.
EntryRows = tuple[tuple[Any, ...], ...]


def _entry(row: tuple[Any, ...]) -> LeaderboardEntry:
    values = dict(zip(_READ, row, strict=True))
    objectives = Objectives.model_validate_json(values.pop("objectives_json"))
    stored = stored_class(values.pop("leaderboard_class"))
    return LeaderboardEntry(**values, leaderboard_class=stored, objectives=objectives)


def entries_of(rows: EntryRows) -> list[LeaderboardEntry]:
    """The entries ``rows`` hold (:func:`finalized_entry_rows`)."""
    return [_entry(row) for row in rows]


def finalized_entry_rows(
    session: Session, *, scenario_id: str, era_id: str | None = None
) -> EntryRows:
    """The scenario's entries (of one era, if given) as plain rows, seats held for review left
    out, in board order, so a caller can tell whether they changed."""
    keys = {"scenario_id": scenario_id, "era_id": era_id}
    found = session.connection().execute(_entries_query(era_id is not None), keys)
    return tuple(tuple(row) for row in found)


def finalized_entries(
    session: Session, *, scenario_id: str, era_id: str | None = None
) -> list[LeaderboardEntry]:
    """:func:`finalized_entry_rows` as entries."""
    return entries_of(finalized_entry_rows(session, scenario_id=scenario_id, era_id=era_id))


@functools.cache
def _entries_query(of_one_era: bool) -> sa.Select[Any]:
    """The entries statement, built once per shape."""
    table = table_of(LeaderboardEntryRow)
    query = (
        sa.select(*(table.c[name] for name in _READ))
        .where(table.c.scenario_id == sa.bindparam("scenario_id"))
        .where(seat_not_held(table.c.run_id, table.c.seat))
        .order_by(table.c.submission_id, table.c.run_id, table.c.seat_order)
    )
    if of_one_era:
        query = query.where(table.c.submission_era == sa.bindparam("era_id"))
    return query
