"""The pairwise board beside the score board: classes, gates and eras
(judge/core/scoring/pairwise_board.py)."""

from __future__ import annotations

import pytest

from judge.core.domain.pairwise import PairKey, PairOutcome, PairSide, PairVerdict, PairwisePass
from judge.core.domain.status import LeaderboardClass
from judge.core.scoring.leaderboard import LeaderboardEntry
from judge.core.scoring.pairwise_board import (
    PairwiseLeaderboard,
    pairwise_cost,
    pairwise_leaderboard,
)
from tests.factories import objectives


def verdict(run_a: str, run_b: str, outcome: PairOutcome, era: str = "pw-1") -> PairVerdict:
    return PairVerdict(
        key=PairKey(scenario_id="s", seed=1, adversary_config=None),
        era_id=era,
        trait="negotiation",
        judge_model="m",
        prompt_version=1,
        side_a=PairSide(run_id=run_a, seat="buyer", agent_id=f"agent-{run_a}", transcript=[]),
        side_b=PairSide(run_id=run_b, seat="buyer", agent_id=f"agent-{run_b}", transcript=[]),
        orders=[],
        outcome=outcome,
        flipped=False,
        passes=[],
    )


def entry(run: str, cls: LeaderboardClass = "ranked", *, gated: bool = False) -> LeaderboardEntry:
    return LeaderboardEntry(
        run_id=run,
        seat="buyer",
        agent_id=f"agent-{run}",
        scenario_id="s",
        era_id="era-a",
        leaderboard_class=cls,
        ranked_eligible=cls == "ranked",
        participation_gated=gated,
        composite=0.5,
        objectives=objectives(1, 1),
    )


def board(
    verdicts: list[PairVerdict], entries: list[LeaderboardEntry], era: str | None = None
) -> PairwiseLeaderboard:
    return pairwise_leaderboard(
        verdicts, entries, scenario_id="s", trait="negotiation", era_id=era, n_bootstrap=20
    )


def test_pairs_of_two_ranked_seats_are_ranked() -> None:
    result = board([verdict("x", "y", "a")], [entry("x"), entry("y")])
    (fit,) = result.ranked
    assert [(r.agent_id, r.rank) for r in fit.ratings] == [("agent-x", 1), ("agent-y", 2)]
    assert result.unranked == []


def test_a_pair_with_an_unranked_seat_is_fitted_apart_without_ranks() -> None:
    result = board([verdict("x", "y", "a")], [entry("x"), entry("y", "self_reported")])
    (fit,) = result.unranked
    assert result.ranked == [] and [r.rank for r in fit.ratings] == [None, None]


def test_pairs_with_a_gated_seat_or_a_seat_on_no_board_are_left_out() -> None:
    verdicts = [verdict("x", "y", "a"), verdict("x", "z", "b")]
    result = board(verdicts, [entry("x"), entry("y", gated=True)])
    assert (result.ranked, result.unranked, result.n_left_out) == ([], [], 2)


def test_eras_are_fitted_apart_and_flagged() -> None:
    verdicts = [verdict("x", "y", "a", "pw-1"), verdict("x", "y", "b", "pw-2")]
    result = board(verdicts, [entry("x"), entry("y")])
    assert [f.era_id for f in result.ranked] == ["pw-1", "pw-2"]
    assert [f.ratings[0].agent_id for f in result.ranked] == ["agent-x", "agent-y"]
    assert result.mixed_eras and result.eras == ["pw-1", "pw-2"]


def test_one_era_asked_for_shows_only_that_era() -> None:
    verdicts = [verdict("x", "y", "a", "pw-1"), verdict("x", "y", "b", "pw-2")]
    result = board(verdicts, [entry("x"), entry("y")], era="pw-2")
    assert [f.era_id for f in result.ranked] == ["pw-2"] and not result.mixed_eras


def test_the_cost_sums_every_pass_of_every_pair() -> None:
    def judged(cost: float | None) -> PairwisePass:
        return PairwisePass(
            order="ab", index=0, position="first", winner="a", model="m", prompt_tokens=100,
            completion_tokens=10, cost_usd=cost, attempts=2, parse_status="ok",
        )  # fmt: skip

    first = verdict("x", "y", "a").model_copy(update={"passes": [judged(0.01), judged(None)]})
    second = verdict("x", "y", "a").model_copy(update={"passes": [judged(0.02)]})
    cost = pairwise_cost([first, second])
    assert (cost.n_passes, cost.n_attempts, cost.prompt_tokens, cost.completion_tokens) == (
        3,
        6,
        300,
        30,
    )
    # one pass had no price: the dollars are unknown, not the priced passes' partial sum
    assert cost.cost_usd is None
    assert cost.cost_note is not None and "1 of 3 passes" in cost.cost_note


def test_the_cost_of_priced_pairs_is_their_sum() -> None:
    judged = PairwisePass(
        order="ab", index=0, position="first", winner="a", model="m", prompt_tokens=100,
        completion_tokens=10, cost_usd=0.01, attempts=1, parse_status="ok",
    )  # fmt: skip
    pair = verdict("x", "y", "a").model_copy(update={"passes": [judged, judged, judged]})
    assert pairwise_cost([pair]).cost_usd == pytest.approx(0.03)
