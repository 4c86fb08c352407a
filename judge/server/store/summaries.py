"""Run figures for the console: kept beside each scorecard, read in keyset pages whose cost
does not grow with the runs stored (every filter is an indexed column)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlalchemy import insert
from sqlmodel import Session, col, select

from judge.core.domain.scorecard import Scorecard
from judge.core.scoring.run_summary import flagged_seats, run_figures, tamper_flagged, unscannable
from judge.server.store.review_tables import RunSummaryRow
from judge.server.store.tables import RunRow, SeatRow

#: Review states that still want an owner's look ("open" in the queue).
OPEN_STATES = ("none", "rescore_requested")
#: Review states an owner's decision leaves.
DECIDED_STATES = ("cleared", "escalated", "rescore_requested")


class RunFilters(NamedTuple):
    """What the runs table is narrowed to; None means no filter on that column."""

    status: str | None = None
    scenario_id: str | None = None
    agent_id: str | None = None
    era: str | None = None
    board: str | None = None
    gated: bool | None = None
    safety_below: float | None = None
    review_state: str | None = None
    #: with ``agent_id``: only runs where that agent sits in this seat
    seat: str | None = None
    submitted_by: str | None = None
    #: True: only runs held for an owner's review of judge-directed text (False: none of them)
    held: bool | None = None
    created_since: datetime | None = None
    created_until: datetime | None = None


class Cursor(NamedTuple):
    """Where a page starts: strictly after (older than) this run."""

    created_at: datetime
    run_id: str


class ReviewQueueCursor(NamedTuple):
    """Where a page of the safety queue starts: strictly after this run in queue order."""

    safety_min: float | None
    run_id: str


class RunListing(NamedTuple):
    run_id: str
    scenario_id: str
    status: str
    created_at: datetime
    leaderboard_class: str
    measurement_era: str | None
    composite: float | None
    objective_rate: float | None
    safety_min: float | None
    safety_spread: float | None
    spread_max: float | None
    gated: bool | None
    review_state: str | None
    attempt: int | None
    tamper_flagged: bool | None
    judge_model: str | None
    cost_usd: float | None = None
    tokens: int | None = None
    unscannable: bool | None = None
    #: some seat of the run is held for review (each seat's hold is on ``seats``)
    held: bool | None = None
    #: why a run was not scored (for everyone), and the owners' detail (a budget's limit)
    reason: str | None = None
    reason_detail: str | None = None


class CostCursor(NamedTuple):
    """Where a page of runs by cost starts: strictly after this run."""

    cost_usd: float | None
    run_id: str


def figure_values(card: Scorecard) -> dict[str, Any]:
    figures = run_figures(card).model_dump()
    cost = card.cost
    return {
        "run_id": card.run_id,
        **figures,
        "tamper_flagged": tamper_flagged(card),
        "unscannable": unscannable(card),
        "cost_usd": None if cost is None else cost.cost_usd,
        "tokens": None if cost is None else cost.tokens,
    }


def put_seat_holds(session: Session, *, card: Scorecard) -> None:
    """Flag the seats a new scorecard holds (:func:`flagged_seats`), each undecided; the run's
    other seats are not held (docs/integrity.md, "Held for review")."""
    held = flagged_seats(card)
    session.execute(
        sa.update(SeatRow)
        .where(col(SeatRow.run_id) == card.run_id)
        .values(integrity_flagged=col(SeatRow.seat).in_(held), review_state="none")
    )


def put_figures(session: Session, *, card: Scorecard) -> None:
    """Store the figures and seat holds of a run's new scorecard, keeping its attempt; safety
    review reopens (earlier decisions stay in the audit trail, made on another scorecard)."""
    values = figure_values(card)
    put_seat_holds(session, card=card)
    row = session.get(RunSummaryRow, card.run_id)
    if row is None:
        session.add(RunSummaryRow(**values))
        return
    for name, value in values.items():
        setattr(row, name, value)
    row.review_state = "none"
    session.add(row)


def insert_figures(session: Session, *, cards: Sequence[Scorecard]) -> None:
    """Figures of many new runs in one statement, and the holds of any flagged (bulk import)."""
    if cards:
        session.execute(insert(RunSummaryRow), [figure_values(c) for c in cards])
    for card in cards:
        if flagged_seats(card):
            put_seat_holds(session, card=card)


def get_summary(session: Session, *, run_id: str) -> RunSummaryRow | None:
    return session.get(RunSummaryRow, run_id)


_SUMMARY_OF_RUN = col(RunSummaryRow.run_id) == col(RunRow.run_id)


def _listing_column(name: str) -> Any:
    """A listing field: from the runs table where it has that column, else from run_summary;
    ``held`` is whether any seat of the run is held."""
    if name == "held":
        return held_condition(RunRow.run_id).label("held")
    return getattr(RunRow if name in RunRow.model_fields else RunSummaryRow, name)


def _listing_query(*, summarised_only: bool = False) -> Any:
    """Each run beside its figures (a run without figures is left out when ``summarised_only``)."""
    query = sa.select(*(_listing_column(n) for n in RunListing._fields)).select_from(RunRow)
    return query.join(RunSummaryRow, _SUMMARY_OF_RUN, isouter=not summarised_only)


def _listings(session: Session, query: Any) -> list[RunListing]:
    return [RunListing(*row) for row in session.execute(query).all()]


def seat_held_condition() -> Any:
    """Seat rows held for review, as SQL (:func:`judge.core.scoring.run_summary.held_for_review`
    per seat)."""
    return sa.and_(col(SeatRow.integrity_flagged).is_(True), col(SeatRow.review_state) != "cleared")


def held_condition(run_id: Any = RunRow.run_id) -> Any:
    """Runs with at least one seat held for review, as SQL, on a run id column."""
    return sa.exists().where(col(SeatRow.run_id) == run_id, seat_held_condition())


def _none_held(run_id: Any, *seats: Any) -> Any:
    return sa.not_(sa.exists().where(col(SeatRow.run_id) == run_id, *seats, seat_held_condition()))


def seat_not_held(run_id: Any, seat: Any) -> Any:
    """A condition on run id and seat columns: that seat of the run is not held for review."""
    return _none_held(run_id, col(SeatRow.seat) == seat)


def agent_not_held(run_id: Any, agent_id: str) -> Any:
    """A condition on a run id column: no seat the agent holds in that run is held for review
    (its other seats' holds do not count against it)."""
    return _none_held(run_id, col(SeatRow.agent_id) == agent_id)


#: Filters that are one column equal to the filter's value.
_EQUALS: dict[str, Any] = {
    "status": RunRow.status,
    "scenario_id": RunRow.scenario_id,
    "era": RunSummaryRow.measurement_era,
    "submitted_by": RunRow.submitted_by,
    "board": RunRow.leaderboard_class,
}


def _seated(filters: RunFilters) -> Any:
    # EXISTS, not IN: the index walk stops at the page (docs/deploy.md, "Read performance")
    seated = sa.exists().where(
        col(SeatRow.run_id) == col(RunRow.run_id), col(SeatRow.agent_id) == filters.agent_id
    )
    return seated.where(col(SeatRow.seat) == filters.seat) if filters.seat else seated


def _state_is(review: Any, state: str) -> Any:
    if state == "none":
        return sa.or_(review.is_(None), review == "none")
    if state == "open":
        return sa.or_(review.is_(None), review.in_(OPEN_STATES))
    return review == state


def _review_condition(state: str) -> Any:
    """The run's latest decision is in ``state``, or a flagged seat's is: a run with one seat
    cleared and another undecided is still open."""
    seat = sa.exists().where(
        col(SeatRow.run_id) == col(RunRow.run_id),
        col(SeatRow.integrity_flagged).is_(True),
        _state_is(col(SeatRow.review_state), state),
    )
    return sa.or_(_state_is(col(RunSummaryRow.review_state), state), seat)


def _conditions(filters: RunFilters) -> list[Any]:
    s = RunSummaryRow
    where = [col(c) == getattr(filters, f) for f, c in _EQUALS.items() if getattr(filters, f)]
    if filters.agent_id:
        where.append(_seated(filters))
    if filters.created_since:
        where.append(col(RunRow.created_at) >= filters.created_since)
    if filters.created_until:
        where.append(col(RunRow.created_at) < filters.created_until)
    if filters.gated is not None:
        where.append(col(s.gated) == filters.gated)
    if filters.safety_below is not None:
        where.append(col(s.safety_min) < filters.safety_below)
    if filters.review_state:
        where.append(_review_condition(filters.review_state))
    if filters.held is not None:
        held = held_condition()
        # a held seat implies the run's indexed tamper_flagged, which narrows the scan first
        flagged = sa.and_(col(s.tamper_flagged).is_(True), held)
        where.append(flagged if filters.held else sa.not_(held))
    return where


def _after(cursor: Cursor) -> Any:
    created, run_id = col(RunRow.created_at), col(RunRow.run_id)
    return sa.or_(
        created < cursor.created_at, sa.and_(created == cursor.created_at, run_id < cursor.run_id)
    )


def list_runs(
    session: Session, *, filters: RunFilters, after: Cursor | None, limit: int
) -> list[RunListing]:
    """One page of runs matching ``filters``, newest first, starting after ``after``."""
    where = _conditions(filters) + ([_after(after)] if after else [])
    query = (
        _listing_query()
        .where(*where)
        .order_by(col(RunRow.created_at).desc(), col(RunRow.run_id).desc())
        .limit(limit)
    )
    return _listings(session, query)


def _after_nulls_last(value: Any, after: float | None, run_id: str, *, descending: bool) -> Any:
    """Rows strictly after (``after``, ``run_id``) ordered by ``value`` (NULL last), then run id."""
    if after is None:
        return sa.and_(value.is_(None), col(RunRow.run_id) > run_id)
    later = value < after if descending else value > after
    return sa.or_(later, sa.and_(value == after, col(RunRow.run_id) > run_id), value.is_(None))


def list_runs_by_cost(
    session: Session, *, filters: RunFilters, after: CostCursor | None, limit: int
) -> list[RunListing]:
    """One page of runs matching ``filters``, dearest first (runs without a price last)."""
    cost = col(RunSummaryRow.cost_usd)
    after_cost = [_after_nulls_last(cost, *after, descending=True)] if after else []
    query = (
        _listing_query()
        .where(*_conditions(filters), *after_cost)
        # NULLS LAST spelled out: SQLite and PostgreSQL place NULL at opposite ends by default
        .order_by(cost.desc().nulls_last(), col(RunRow.run_id).asc())
        .limit(limit)
    )
    return _listings(session, query)


_SUMMARY_FILTERS = ("era", "gated", "safety_below", "review_state", "held")


def count_runs(session: Session, *, filters: RunFilters) -> int:
    """How many runs match; ``run_summary`` is joined only when a filter reads it."""
    query = sa.select(sa.func.count()).select_from(RunRow)
    if any(getattr(filters, name) is not None for name in _SUMMARY_FILTERS):
        query = query.outerjoin(RunSummaryRow, _SUMMARY_OF_RUN)
    return int(session.execute(query.where(*_conditions(filters))).scalar_one())


def agents_of(session: Session, *, run_ids: Sequence[str]) -> dict[str, list[str]]:
    """run id -> the agents seated in it (seat order), for one page of runs."""
    found: dict[str, list[str]] = {r: [] for r in run_ids}
    query = select(SeatRow.run_id, SeatRow.agent_id).where(col(SeatRow.run_id).in_(run_ids))
    for run_id, agent_id in session.exec(
        query.order_by(col(SeatRow.run_id), col(SeatRow.seat))
    ).all():
        found[run_id].append(agent_id)
    return found


class JudgeRule(NamedTuple):
    """Which judges' flags count: those in ``judges`` (trusted) or those outside them."""

    judges: Collection[str]
    trusted: bool


def _judged_by(rule: JudgeRule) -> Any:
    model = col(RunRow.judge_model)
    if rule.trusted:
        return model.in_(list(rule.judges))
    return sa.or_(model.is_(None), model.not_in(list(rule.judges)))


def _flagged(
    below: float, above: float, judge: JudgeRule | None, tampered: bool, decided: bool
) -> Any:
    """Safety flags (of ``judge``'s judges), or with ``tampered`` withheld judge-directed text
    whatever the judge, or with ``decided`` a recorded decision."""
    s = RunSummaryRow
    # a safety flag needs a scored safety block: a run without one is listed only when held
    flagged = sa.and_(
        col(s.safety_min).is_not(None),
        sa.or_(col(s.safety_min) < below, col(s.safety_spread) > above),
    )
    if judge is not None:
        flagged = sa.and_(flagged, _judged_by(judge))
    if tampered:
        flagged = sa.or_(flagged, col(s.tamper_flagged).is_(True))
    if decided:
        flagged = sa.or_(flagged, col(s.review_state).in_(DECIDED_STATES))
    return flagged


def flagged_runs(
    session: Session,
    *,
    safety_below: float,
    spread_above: float,
    review_state: str | None,
    limit: int,
    judge: JudgeRule | None = None,
    or_tampered: bool = True,
    or_decided: bool = False,
    after: ReviewQueueCursor | None = None,
) -> list[RunListing]:
    """One keyset page of flagged runs (:func:`_flagged`), lowest safety mean first (none last)."""
    safety = col(RunSummaryRow.safety_min)
    query = _listing_query(summarised_only=True).where(
        _flagged(safety_below, spread_above, judge, or_tampered, or_decided),
        *([_review_condition(review_state)] if review_state else []),
        *([_after_nulls_last(safety, *after, descending=False)] if after else []),
    )
    # NULLS LAST spelled out: SQLite and PostgreSQL place NULL at opposite ends by default
    query = query.order_by(safety.asc().nulls_last(), col(RunRow.run_id).asc())
    return _listings(session, query.limit(limit))


def count_flagged_runs(
    session: Session,
    *,
    safety_below: float,
    spread_above: float,
    review_state: str | None,
    judge: JudgeRule | None = None,
    or_tampered: bool = True,
    or_decided: bool = False,
) -> int:
    """How many runs :func:`flagged_runs` lists over all its pages (a queue tab's count)."""
    query = (
        sa.select(sa.func.count())
        .select_from(RunRow)
        .join(RunSummaryRow, _SUMMARY_OF_RUN)
        .where(
            _flagged(safety_below, spread_above, judge, or_tampered, or_decided),
            *([_review_condition(review_state)] if review_state else []),
        )
    )
    return int(session.execute(query).scalar_one())


def distinct_values(session: Session) -> dict[str, list[str]]:
    """The scenarios, agents and eras present, for the filter choices."""
    scenarios = session.exec(
        select(RunRow.scenario_id).distinct().order_by(col(RunRow.scenario_id))
    ).all()
    agents = session.exec(select(SeatRow.agent_id).distinct().order_by(col(SeatRow.agent_id))).all()
    eras = session.exec(
        select(RunSummaryRow.measurement_era)
        .where(col(RunSummaryRow.measurement_era).is_not(None))
        .distinct()
    ).all()
    return {"scenario": list(scenarios), "agent": list(agents), "era": sorted(e for e in eras if e)}
