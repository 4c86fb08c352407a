"""Bradley-Terry ratings with ties and bootstrap intervals (judge/core/scoring/bradley_terry.py)."""

from __future__ import annotations

import math

import pytest

from judge.core.scoring.bradley_terry import Game, bootstrap_intervals, bradley_terry, rate


def games(a: str, b: str, wins: int, losses: int, ties: int = 0) -> list[Game]:
    return [Game(a, b, "a")] * wins + [Game(a, b, "b")] * losses + [Game(a, b, "tie")] * ties


def test_all_ties_rate_every_agent_the_same() -> None:
    ratings = bradley_terry(games("x", "y", 0, 0, 8) + games("y", "z", 0, 0, 8))
    assert ratings == {"x": 0.0, "y": 0.0, "z": 0.0}


def test_with_many_games_the_rating_gap_is_the_log_odds_of_winning() -> None:
    ratings = bradley_terry(games("x", "y", 300, 100))
    assert ratings["x"] - ratings["y"] == pytest.approx(math.log(3), abs=0.01)


def test_a_tie_counts_as_half_a_win_for_each_side() -> None:
    with_ties = bradley_terry(games("x", "y", 300, 100, 200))
    as_halves = bradley_terry(games("x", "y", 400, 200))
    assert with_ties["x"] == pytest.approx(as_halves["x"], abs=1e-4)


def test_an_agent_that_wins_every_pair_keeps_a_finite_rating() -> None:
    ratings = bradley_terry(games("x", "y", 10, 0))
    assert 0 < ratings["x"] < 5 and ratings["y"] == pytest.approx(-ratings["x"])


def test_bootstrap_intervals_hold_the_fit_and_are_reproducible() -> None:
    played = games("x", "y", 12, 4, 4)
    first = bootstrap_intervals(played, n_bootstrap=200, seed=3)
    assert first == bootstrap_intervals(played, n_bootstrap=200, seed=3)
    fitted = bradley_terry(played)
    assert first["x"][0] < fitted["x"] < first["x"][1]
    assert first["x"][0] > 0 > first["y"][1]


def test_rows_are_best_first_with_tallies_and_shared_ranks_on_equal_ratings() -> None:
    rows = rate(games("x", "y", 6, 2) + games("z", "w", 0, 0, 4), n_bootstrap=50)
    assert [(r.agent_id, r.rank) for r in rows] == [("x", 1), ("w", 2), ("z", 2), ("y", 4)]
    assert (rows[0].wins, rows[0].losses, rows[0].ties, rows[0].n_pairs) == (6, 2, 0, 8)


def test_when_every_pair_tied_the_interval_is_undetermined_not_zero_width() -> None:
    ratings = rate([Game("x", "y", "tie")] * 6)

    assert [(r.rating, r.low, r.high) for r in ratings] == [(0.0, None, None), (0.0, None, None)]
    assert [r.ties for r in ratings] == [6, 6]
