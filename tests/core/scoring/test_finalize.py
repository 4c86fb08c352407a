"""Submission finalization: era stamp, incomplete on gating, custom-rubric class, visibility."""

from __future__ import annotations

import pytest

from judge.core.errors import InputError
from judge.core.scoring.finalize import finalize_submission
from tests.factories import era, scorecard, seat

AGENT = "agent-alpha"


def test_all_clean_runs_finalize_complete_ranked_public_in_their_era() -> None:
    cards = [scorecard("r2", seat()), scorecard("r1", seat())]
    out = finalize_submission(
        cards, agent_id=AGENT, scenario_id="market-haggle", current_era=era("era-a")
    )
    assert out.status == "complete"
    assert out.measurement_era.era_id == "era-a"
    assert out.era_is_current is True
    assert out.run_ids == ["r1", "r2"]
    assert (out.ranked_eligible, out.leaderboard_class, out.visibility) == (
        True,
        "ranked",
        "public",
    )
    assert out.gated_run_ids == [] and out.custom_rubric_run_ids == [] and out.flags == []


def test_a_gated_run_marks_the_submission_incomplete() -> None:
    cards = [scorecard("r1", seat()), scorecard("r2", seat(gated=True))]
    out = finalize_submission(cards, agent_id=AGENT, scenario_id="market-haggle", current_era=era())
    assert out.status == "incomplete"
    assert out.gated_run_ids == ["r2"]
    assert out.leaderboard_class == "ranked"
    assert out.flags == ["incomplete: participation-gated runs ['r2'] are left out of leaderboards"]


def test_another_agents_gated_seat_does_not_make_the_submission_incomplete() -> None:
    card = scorecard("r1", seat("buyer", AGENT), seat("seller", "agent-beta", gated=True))
    out = finalize_submission(
        [card], agent_id=AGENT, scenario_id="market-haggle", current_era=era()
    )
    assert out.status == "complete"
    assert out.gated_run_ids == []


def test_a_custom_rubric_run_makes_the_submission_self_hosted_and_unlisted() -> None:
    cards = [scorecard("r1", seat()), scorecard("r2", seat(), custom=True)]
    out = finalize_submission(cards, agent_id=AGENT, scenario_id="market-haggle", current_era=era())
    assert out.ranked_eligible is False
    assert out.leaderboard_class == "self_hosted_facilitator"
    assert out.visibility == "unlisted"
    assert out.custom_rubric_run_ids == ["r2"]


def test_public_is_refused_for_a_custom_rubric_submission() -> None:
    cards = [scorecard("r1", seat(), custom=True)]
    with pytest.raises(InputError, match=r"may only be published unlisted.*visibility 'unlisted'"):
        finalize_submission(
            cards,
            agent_id=AGENT,
            scenario_id="market-haggle",
            current_era=era(),
            visibility="public",
        )


def test_unlisted_may_be_chosen_for_a_ranked_submission() -> None:
    out = finalize_submission(
        [scorecard("r1", seat())],
        agent_id=AGENT,
        scenario_id="market-haggle",
        current_era=era(),
        visibility="unlisted",
    )
    assert (out.visibility, out.leaderboard_class) == ("unlisted", "ranked")


def test_runs_scored_in_different_eras_are_refused_naming_each_era() -> None:
    cards = [scorecard("r1", seat(), era_id="era-a"), scorecard("r2", seat(), era_id="era-b")]
    with pytest.raises(InputError) as caught:
        finalize_submission(
            cards, agent_id=AGENT, scenario_id="market-haggle", current_era=era("era-b")
        )
    assert str(caught.value).startswith(
        "runs were scored in 2 measurement eras (era-a: ['r1']; era-b: ['r2'])"
    )


def test_runs_of_an_older_era_are_stamped_with_it_and_flagged() -> None:
    cards = [scorecard("r1", seat(), era_id="era-a")]
    out = finalize_submission(
        cards, agent_id=AGENT, scenario_id="market-haggle", current_era=era("era-b")
    )
    assert out.measurement_era.era_id == "era-a"
    assert out.era_is_current is False
    assert out.current_era_id == "era-b"
    assert out.flags == [
        "measured in era era-a, not the current era era-b: comparisons with current results cross eras"
    ]


def test_an_empty_submission_is_refused() -> None:
    with pytest.raises(InputError, match="has no runs"):
        finalize_submission([], agent_id=AGENT, scenario_id="market-haggle", current_era=era())


def test_a_run_of_another_scenario_is_refused() -> None:
    cards = [scorecard("r1", seat(), scenario_id="other")]
    with pytest.raises(InputError, match=r"runs \['r1'\] are not on scenario 'market-haggle'"):
        finalize_submission(cards, agent_id=AGENT, scenario_id="market-haggle", current_era=era())


def test_a_run_without_the_agent_is_refused() -> None:
    cards = [scorecard("r1", seat(agent_id="agent-beta"))]
    with pytest.raises(InputError, match=r"holds no scored seat in runs \['r1'\]"):
        finalize_submission(cards, agent_id=AGENT, scenario_id="market-haggle", current_era=era())


def test_a_submission_holding_every_scored_run_of_the_agent_stays_ranked() -> None:
    cards = [scorecard("r1", seat()), scorecard("r2", seat())]
    out = finalize_submission(
        cards,
        agent_id=AGENT,
        scenario_id="market-haggle",
        current_era=era(),
        every_run_id=["r2", "r1"],
    )
    assert (out.ranked_eligible, out.visibility, out.left_out_run_ids) == (True, "public", [])


def test_a_submission_leaving_out_a_scored_run_is_unranked_and_says_which() -> None:
    cards = [scorecard("r1", seat(composite=1.0, met=1, total=1))]
    out = finalize_submission(
        cards,
        agent_id=AGENT,
        scenario_id="market-haggle",
        current_era=era(),
        every_run_id=["r1", "r2", "r3", "r4"],
    )
    assert (out.ranked_eligible, out.leaderboard_class, out.visibility) == (
        False,
        "ranked",
        "unlisted",
    )
    assert out.left_out_run_ids == ["r2", "r3", "r4"]
    left_out = (
        "unranked: the agent's scored runs ['r2', 'r3', 'r4'] in this scenario and era are left "
        "out; standing counts every scored run (docs/scoring.md)"
    )
    assert out.flags == [left_out]


def test_a_selective_submission_asked_public_is_refused_naming_the_runs() -> None:
    with pytest.raises(InputError, match=r"runs \['r2'\] in this scenario and era are not in"):
        finalize_submission(
            [scorecard("r1", seat())],
            agent_id=AGENT,
            scenario_id="market-haggle",
            current_era=era(),
            visibility="public",
            every_run_id=["r1", "r2"],
        )


def test_a_set_the_platform_assembled_is_not_checked_for_left_out_runs() -> None:
    out = finalize_submission(
        [scorecard("r1", seat())], agent_id=AGENT, scenario_id="market-haggle", current_era=era()
    )
    assert (out.ranked_eligible, out.left_out_run_ids) == (True, [])
