"""Leaderboards: ranked board without gated or custom runs, facilitator class apart, eras kept apart."""

from __future__ import annotations

from judge.core.scoring.leaderboard import (
    LeaderboardEntry,
    build_leaderboard,
    entries_from_scorecard,
    submission_entries,
)
from tests.factories import scorecard, seat


def _entries() -> list[LeaderboardEntry]:
    cards = [
        # alpha: two counted runs (0.75, 0.5; 2/3 and 1/3 met) and one gated run left out
        scorecard("r1", seat(agent_id="alpha", composite=0.75, met=2, total=3)),
        scorecard("r2", seat(agent_id="alpha", composite=0.5, met=1, total=3)),
        scorecard("r3", seat(agent_id="alpha", composite=0.125, met=0, total=3, gated=True)),
        # beta: one run at 0.7, 1/1 met
        scorecard("r4", seat(agent_id="beta", composite=0.7, met=1, total=1)),
        # gamma: a custom-rubric run with the best composite: never ranked
        scorecard("r5", seat(agent_id="gamma", composite=0.95, met=1, total=1), custom=True),
        # delta: another era
        scorecard("r6", seat(agent_id="delta", composite=0.5, met=0, total=2), era_id="era-b"),
        # another scenario: ignored
        scorecard("r7", seat(agent_id="alpha", composite=1.0), scenario_id="other"),
    ]
    return [e for c in cards for e in entries_from_scorecard(c)]


def test_ranked_board_excludes_gated_and_custom_runs_and_ranks_by_composite_mean() -> None:
    board = build_leaderboard(_entries(), scenario_id="market-haggle", era_id="era-a")
    assert [(r.rank, r.agent_id) for r in board.ranked] == [(1, "beta"), (2, "alpha")]
    alpha = board.ranked[1]
    assert alpha.composite_mean == 0.625
    assert alpha.objective_met_rate == 0.5  # (2 + 1) met over (3 + 3) conditions
    assert (alpha.met_count, alpha.total_count) == (3, 6)
    assert (alpha.n_runs, alpha.n_gated_excluded) == (2, 1)
    assert alpha.run_ids == ["r1", "r2"]


def test_custom_rubric_runs_are_listed_apart_without_rank() -> None:
    board = build_leaderboard(_entries(), scenario_id="market-haggle", era_id="era-a")
    assert [(r.rank, r.agent_id, r.composite_mean) for r in board.self_hosted_facilitator] == [
        (None, "gamma", 0.95)
    ]
    assert "gamma" not in [r.agent_id for r in board.ranked]


def test_one_era_is_not_flagged() -> None:
    board = build_leaderboard(_entries(), scenario_id="market-haggle", era_id="era-a")
    assert (board.eras, board.mixed_eras, board.note) == (["era-a"], False, None)


def test_a_board_over_several_eras_is_flagged_and_ranked_per_era() -> None:
    board = build_leaderboard(_entries(), scenario_id="market-haggle")
    assert board.mixed_eras is True
    assert board.eras == ["era-a", "era-b"]
    assert [(r.era_id, r.rank, r.agent_id) for r in board.ranked] == [
        ("era-a", 1, "beta"),
        ("era-a", 2, "alpha"),
        ("era-b", 1, "delta"),
    ]
    assert board.note is not None and "2 measurement eras" in board.note


def test_an_agent_with_only_gated_runs_is_shown_unranked_with_its_exclusions() -> None:
    cards = [scorecard("g1", seat(agent_id="eps", gated=True, met=1, total=1))]
    board = build_leaderboard(
        [e for c in cards for e in entries_from_scorecard(c)], scenario_id="market-haggle"
    )
    (row,) = board.ranked
    assert (row.rank, row.composite_mean, row.objective_met_rate) == (None, None, None)
    assert (row.n_runs, row.n_gated_excluded) == (0, 1)


def test_withheld_composites_are_counted_not_averaged_as_zero() -> None:
    cards = [
        scorecard("w1", seat(agent_id="zeta", composite=0.5)),
        scorecard("w2", seat(agent_id="zeta", composite=None)),
    ]
    board = build_leaderboard(
        [e for c in cards for e in entries_from_scorecard(c)], scenario_id="market-haggle"
    )
    (row,) = board.ranked
    assert (row.composite_mean, row.n_runs, row.n_composite_withheld) == (0.5, 2, 1)


def test_a_public_ranked_submission_lists_only_its_agents_seats() -> None:
    card = scorecard(
        "s1", seat("buyer", "alpha", composite=0.5), seat("seller", "beta", composite=0.25)
    )
    entries = submission_entries(
        card, agent_id="alpha", visibility="public", leaderboard_class="ranked"
    )
    assert [(e.seat, e.agent_id, e.leaderboard_class) for e in entries] == [
        ("buyer", "alpha", "ranked")
    ]


def test_an_unlisted_ranked_submission_is_on_no_board() -> None:
    card = scorecard("s1", seat(agent_id="alpha"))
    assert (
        submission_entries(
            card, agent_id="alpha", visibility="unlisted", leaderboard_class="ranked"
        )
        == []
    )


def test_every_run_of_a_self_hosted_submission_is_listed_apart() -> None:
    card = scorecard(
        "s1", seat(agent_id="alpha", composite=0.5)
    )  # this run itself used built-in rubrics
    entries = submission_entries(
        card, agent_id="alpha", visibility="unlisted", leaderboard_class="self_hosted_facilitator"
    )
    board = build_leaderboard(entries, scenario_id="market-haggle")
    assert board.ranked == []
    assert [r.agent_id for r in board.self_hosted_facilitator] == ["alpha"]


def test_a_run_in_two_submissions_counts_once() -> None:
    entries = entries_from_scorecard(
        scorecard("d1", seat(agent_id="alpha", composite=0.5, met=1, total=2))
    )
    board = build_leaderboard([*entries, *entries], scenario_id="market-haggle")
    assert (board.ranked[0].n_runs, board.ranked[0].total_count) == (1, 2)
