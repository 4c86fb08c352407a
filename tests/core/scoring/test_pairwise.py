"""Order verdicts, pair outcomes, flips and position bias (judge/core/scoring/pairwise.py)."""

from __future__ import annotations

from judge.core.domain.pairwise import Order, PairwisePass, Winner
from judge.core.scoring.pairwise import match_runs, order_verdict, pair_result
from tests.pairwise_builders import agent_run


def passes(order: Order, *winners: Winner | None) -> list[PairwisePass]:
    return [
        PairwisePass(
            order=order,
            index=n,
            position=None,
            winner=w,
            model="scripted",
            parse_status="ok" if w is not None else "unparseable",
        )
        for n, w in enumerate(winners)
    ]


def test_an_order_verdict_is_the_most_voted_answer() -> None:
    verdict = order_verdict(passes("ab", "a", "a", "b", "a", "neither"), "ab", 5)
    assert (verdict.winner, verdict.votes_a, verdict.votes_b, verdict.votes_neither) == (
        "a",
        3,
        1,
        1,
    )


def test_a_tied_vote_is_neither() -> None:
    verdict = order_verdict(passes("ab", "a", "a", "b", "b", "neither", "neither"), "ab", 5)
    assert verdict.winner == "neither"


def test_the_floor_applies_per_order() -> None:
    both = passes("ab", "a", "a", "a", "a", "a") + passes("ba", "a", "a", "a", "a", None)
    result = pair_result(both, 5)
    assert [o.complete for o in result.orders] == [True, False]
    assert result.outcome is None and result.flipped is None


def test_orders_that_agree_give_that_seat() -> None:
    result = pair_result(passes("ab", *"aaaaa") + passes("ba", *"aaaab"), 5)
    assert (result.outcome, result.flipped) == ("a", False)


def test_orders_that_disagree_are_a_tie_and_a_flip() -> None:
    result = pair_result(passes("ab", *"aaaaa") + passes("ba", *"bbbbb"), 5)
    assert (result.outcome, result.flipped) == ("tie", True)


def test_one_order_naming_a_seat_and_the_other_neither_is_a_tie_and_a_flip() -> None:
    result = pair_result(passes("ab", *"aaaaa") + passes("ba", *["neither"] * 5), 5)
    assert (result.outcome, result.flipped) == ("tie", True)


def test_both_orders_saying_neither_is_a_tie_without_a_flip() -> None:
    result = pair_result(passes("ab", *["neither"] * 5) + passes("ba", *["neither"] * 5), 5)
    assert (result.outcome, result.flipped) == ("tie", False)


def test_runs_match_by_scenario_seed_and_adversary() -> None:
    a1, a2 = agent_run("a", "a-1", seed=1), agent_run("a", "a-2", seed=2)
    b1, b3 = agent_run("b", "b-1", seed=1), agent_run("b", "b-3", seed=3)
    matching = match_runs([a2, a1], [b3, b1])
    assert [(m.a.run_id, m.b.run_id) for m in matching.pairs] == [("a-1", "b-1")]
    assert sorted((x.side, x.run.run_id) for x in matching.leftovers) == [
        ("a", "a-2"),
        ("b", "b-3"),
    ]


def test_a_run_without_a_seed_is_left_over_with_the_reason() -> None:
    unseeded = agent_run("a", "a-0").model_copy(update={"seed": None})
    matching = match_runs([unseeded], [agent_run("b", "b-1")])
    assert matching.pairs == []
    assert matching.leftovers[0].reason == "the run has no seed, so no run can be matched with it"
