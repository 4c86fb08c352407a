"""Stored leaderboard entries on both stores: a board read from them is the board the
scorecards give, through finalization, review decisions, rescores and the 0011 backfill."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import command
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from judge.core.domain.scorecard import Scorecard
from judge.core.domain.status import FINALIZED_SUBMISSION_STATUSES, stored_class
from judge.core.scoring.leaderboard import (
    Leaderboard,
    LeaderboardEntry,
    build_leaderboard,
    submission_entries,
)
from judge.server.service.leaderboards import leaderboard, without_others_runs
from judge.server.store import leaderboard_entries as entry_repo
from judge.server.store import reviews as review_repo
from judge.server.store import scorecards as scorecard_repo
from judge.server.store import submissions as submission_repo
from judge.server.store.db import transaction
from judge.server.store.migrate import alembic_config, upgrade
from judge.server.store.review_tables import RunSummaryRow
from judge.server.store.summaries import seat_held_condition
from judge.server.store.tables import (
    LeaderboardEntryRow,
    RunRow,
    ScorecardRow,
    SeatRow,
    SubmissionRow,
    SubmissionRunRow,
)
from tests.factories import run, scorecard, seat
from tests.scripted_service import store_scored

SCENARIO = "market-haggle"


def entries_from_cards(
    session: Session, *, scenario_id: str, era_id: str | None = None
) -> list[LeaderboardEntry]:
    """The entries as boards took them before they were stored: each finalized submission's
    scorecards parsed, the oracle the stored entries are checked against."""
    query = (
        select(SubmissionRow, ScorecardRow)
        .join(
            SubmissionRunRow,
            col(SubmissionRunRow.submission_id) == col(SubmissionRow.submission_id),
        )
        .join(ScorecardRow, col(ScorecardRow.run_id) == col(SubmissionRunRow.run_id))
        .where(SubmissionRow.scenario_id == scenario_id)
        .where(col(SubmissionRow.status).in_(FINALIZED_SUBMISSION_STATUSES))
        .order_by(col(SubmissionRow.submission_id), col(ScorecardRow.run_id))
    )
    if era_id is not None:
        query = query.where(SubmissionRow.measurement_era == era_id)
    held = set(session.exec(select(SeatRow.run_id, SeatRow.seat).where(seat_held_condition())))
    return [
        entry
        for s, c in session.exec(query).all()
        for entry in submission_entries(
            Scorecard.model_validate_json(c.scorecard_json),
            agent_id=s.agent_id,
            visibility=s.visibility,
            leaderboard_class=stored_class(s.leaderboard_class),
        )
        if (entry.run_id, entry.seat) not in held
    ]


def _finalize(
    engine: Engine,
    sid: str,
    agent_id: str,
    cards: list[Scorecard],
    *,
    leaderboard_class: str = "ranked",
    visibility: str = "public",
) -> None:
    """Store the scored runs, then a submission of them finalized as the service does."""
    for card in cards:
        seats = [{"seat": s.seat, "agent_id": s.agent_id} for s in card.seats.values()]
        store_scored(engine, run(card.run_id, seats=seats), card)
    with transaction(engine) as session:
        submission_repo.insert_submission(
            session, submission_id=sid, agent_id=agent_id, scenario_id=SCENARIO, created_by="t"
        )
        for card in cards:
            submission_repo.add_submission_run(session, submission_id=sid, run_id=card.run_id)
        session.flush()
        assert submission_repo.finalize_if_open(
            session,
            submission_id=sid,
            status="complete",
            measurement_era=cards[0].measurement_era.era_id,
            ranked_eligible=leaderboard_class == "ranked",
            leaderboard_class=leaderboard_class,
            visibility=visibility,
            reason=None,
            summary_json="{}",
        )
        row = submission_repo.get_submission(session, submission_id=sid)
        assert row is not None
        session.refresh(row)
        entry_repo.put_submission_entries(session, submission=row, cards=cards)


def _flag(engine: Engine, run_id: str, review_state: str) -> None:
    with transaction(engine) as session:
        summary = session.get(RunSummaryRow, run_id)
        assert summary is not None
        summary.tamper_flagged, summary.review_state = True, review_state
        session.add(summary)
        session.execute(
            sa.update(SeatRow)
            .where(col(SeatRow.run_id) == run_id)
            .values(integrity_flagged=True, review_state=review_state)
        )


def _populate(engine: Engine) -> None:
    """Two eras, every class, a two-seat run, a run in two submissions, held runs."""
    _finalize(
        engine,
        "s-alpha",
        "alpha",
        [
            scorecard("r1", seat(agent_id="alpha", composite=0.75, met=2, total=3)),
            scorecard("r2", seat(agent_id="alpha", composite=0.5, met=1, total=3)),
            scorecard("r3", seat(agent_id="alpha", composite=0.1, gated=True, met=0, total=3)),
            scorecard(
                "r4",
                seat("seller", agent_id="alpha", composite=0.3, met=1, total=1),
                seat("buyer", agent_id="alpha", composite=0.9, met=1, total=2),
            ),
        ],
    )
    _finalize(engine, "s-beta", "beta", [scorecard("r5", seat(agent_id="beta", composite=None))])
    _finalize(
        engine,
        "s-beta-b",
        "beta",
        [scorecard("r6", seat(agent_id="beta", composite=0.4, met=1, total=1), era_id="era-b")],
    )
    _finalize(
        engine,
        "s-gamma",
        "gamma",
        [scorecard("r7", seat(agent_id="gamma", composite=0.95), custom=True)],
        leaderboard_class="self_hosted_facilitator",
        visibility="unlisted",
    )
    _finalize(
        engine,
        "s-delta",
        "delta",
        [scorecard(f"r8-{s}", seat(agent_id="delta", composite=0.6)) for s in "abc"],
        leaderboard_class="self_reported",
    )
    _finalize(
        engine, "s-eta", "eta", [scorecard("r9", seat(agent_id="eta"))], visibility="unlisted"
    )
    _finalize(
        engine,
        "s-zeta",
        "zeta",
        [scorecard(f"r10-{s}", seat(agent_id="zeta", composite=0.8)) for s in "abc"],
    )
    _flag(engine, "r10-a", "none")  # held, awaiting the owner
    _flag(engine, "r10-b", "cleared")
    _flag(engine, "r10-c", "escalated")


def _both_ways(engine: Engine, era_id: str | None, viewer: str | None = None) -> tuple[str, str]:
    with Session(engine) as session:
        stored = leaderboard(session, scenario_id=SCENARIO, era_id=era_id, viewer=viewer)
        entries = entries_from_cards(session, scenario_id=SCENARIO, era_id=era_id)
    parsed = build_leaderboard(entries, scenario_id=SCENARIO, era_id=era_id)
    if viewer is not None:
        parsed = without_others_runs(parsed, viewer)
    return stored.model_dump_json(), parsed.model_dump_json()


def _board(engine: Engine, era_id: str | None = None) -> Leaderboard:
    with Session(engine) as session:
        return leaderboard(session, scenario_id=SCENARIO, era_id=era_id)


def test_the_stored_board_is_the_board_the_scorecards_give(engine: Engine) -> None:
    _populate(engine)
    stored, parsed = _both_ways(engine, None)
    assert stored == parsed
    board = Leaderboard.model_validate_json(stored)
    assert board.eras == ["era-a", "era-b"]
    assert [(r.rank, r.agent_id, r.era_id) for r in board.ranked] == [
        (1, "zeta", "era-a"),
        (2, "alpha", "era-a"),
        (None, "beta", "era-a"),
        (1, "beta", "era-b"),
    ]
    assert [r.agent_id for r in board.self_hosted_facilitator] == ["gamma"]
    assert [r.n_runs for r in board.self_reported] == [3]


def test_one_era_reads_the_same_both_ways(engine: Engine) -> None:
    _populate(engine)
    stored, parsed = _both_ways(engine, "era-b")
    assert stored == parsed
    assert [r.agent_id for r in Leaderboard.model_validate_json(stored).ranked] == ["beta"]


def test_an_agent_sees_only_its_own_run_ids_both_ways(engine: Engine) -> None:
    _populate(engine)
    stored, parsed = _both_ways(engine, "era-a", viewer="zeta")
    assert stored == parsed
    ids = {r.agent_id: r.run_ids for r in Leaderboard.model_validate_json(stored).ranked}
    assert ids == {"alpha": [], "zeta": ["r10-b"], "beta": []}


def test_a_two_seat_run_puts_both_of_the_agents_seats_on_the_board(engine: Engine) -> None:
    _populate(engine)
    alpha = _board(engine, "era-a").ranked[1]
    assert (alpha.n_runs, alpha.n_gated_excluded, alpha.met_count, alpha.total_count) == (
        4,
        1,
        5,
        9,
    )


def test_held_and_escalated_runs_stay_off_until_the_owner_clears_one(engine: Engine) -> None:
    _populate(engine)
    assert _board(engine, "era-a").ranked[0].run_ids == ["r10-b"]
    _flag(engine, "r10-a", "cleared")
    assert _board(engine, "era-a").ranked[0].run_ids == ["r10-a", "r10-b"]
    stored, parsed = _both_ways(engine, "era-a")
    assert stored == parsed


def test_an_unlisted_ranked_submission_stores_no_entry(engine: Engine) -> None:
    _populate(engine)
    with Session(engine) as session:
        query = select(LeaderboardEntryRow).where(LeaderboardEntryRow.submission_id == "s-eta")
        assert session.exec(query).all() == []


def test_a_rescore_takes_the_run_off_then_puts_its_new_scores_on(engine: Engine) -> None:
    _populate(engine)
    with transaction(engine) as session:
        stored_run = session.get(RunRow, "r5")
        assert stored_run is not None
        review_repo.archive_for_rescore(session, run=stored_run, by="ops")
    assert [r.agent_id for r in _board(engine, "era-a").ranked] == ["zeta", "alpha"]
    with transaction(engine) as session:
        card = scorecard("r5", seat(agent_id="beta", composite=0.99, met=1, total=1))
        scorecard_repo.add_scorecard(session, card=card)
    first = _board(engine, "era-a").ranked[0]
    assert (first.agent_id, first.composite_mean, first.run_ids) == ("beta", 0.99, ["r5"])
    stored, parsed = _both_ways(engine, None)
    assert stored == parsed


def test_the_migration_fills_entries_for_submissions_finalized_before_it(engine: Engine) -> None:
    _populate(engine)
    before = _both_ways(engine, None)[0]
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0010_budgets")
    assert "leaderboard_entries" not in sa.inspect(engine).get_table_names()
    upgrade(engine)
    with Session(engine) as session:
        count = session.exec(select(sa.func.count()).select_from(LeaderboardEntryRow)).one()
        seats = session.exec(
            select(LeaderboardEntryRow.seat).where(col(LeaderboardEntryRow.run_id) == "r4")
        ).all()
    assert count == 14
    assert sorted(seats) == ["buyer", "seller"]
    assert _both_ways(engine, None) == (before, before)
