"""The cost of judging and the budget rules (judge/core/scoring/cost.py): pure."""

from __future__ import annotations

from judge.core.domain.cost import Budget, CostEstimate, Spent
from judge.core.domain.judging import JudgePass
from judge.core.scoring.cost import BudgetGuard, cost_of, estimate_crossing, limits_for


def judged(cost: float | None, *, prompt: int = 100, completion: int = 10) -> JudgePass:
    return JudgePass(
        trait="negotiation",
        index=0,
        score=0.5,
        model="m",
        prompt_tokens=prompt,
        cached_prompt_tokens=40,
        completion_tokens=completion,
        cost_usd=cost,
        latency_ms=250.0,
        parse_status="ok",
    )


def estimate(**per_seat: int) -> CostEstimate:
    return CostEstimate(
        n_passes=10,
        prompt_tokens=sum(per_seat.values()),
        completion_tokens=0,
        cost_usd=0.01 * sum(per_seat.values()),
        per_seat_tokens=per_seat,
        per_seat_usd={seat: 0.01 * n for seat, n in per_seat.items()},
    )


def test_cost_sums_tokens_dollars_and_seconds() -> None:
    cost = cost_of([judged(0.25), judged(0.5)])
    assert (cost.n_passes, cost.prompt_tokens, cost.cached_prompt_tokens) == (2, 200, 80)
    assert (cost.completion_tokens, cost.cost_usd, cost.wall_s) == (20, 0.75, 0.5)
    assert cost.cost_note is None


def test_a_pass_without_a_price_makes_the_dollars_unknown_never_zero() -> None:
    cost = cost_of([judged(0.25), judged(None)])
    assert cost.cost_usd is None
    assert cost.cost_note is not None and "1 of 2 passes" in cost.cost_note


def test_a_zero_price_on_a_call_that_used_tokens_is_read_as_no_price() -> None:
    cost = cost_of([judged(0.0)])
    assert cost.cost_usd is None
    assert cost.cost_note is not None


def test_an_estimate_over_the_run_limit_is_refused_naming_it() -> None:
    limits = limits_for(
        Budget(run_tokens=100), seats_of_agent={}, agent_spent={}, platform_spent=Spent()
    )
    reason = estimate_crossing(limits, estimate(a=60, b=50))
    assert reason is not None
    assert (
        reason.text == "the estimate would exceed the run limit of 100 tokens (110 with this run)"
    )


def test_an_agents_day_limit_counts_only_its_own_seats_and_todays_spend() -> None:
    limits = limits_for(
        Budget(agent_day_usd=1.0),
        seats_of_agent={"x": ["a"], "y": ["b"]},
        agent_spent={"x": Spent(usd=0.5), "y": Spent(usd=0.3)},
        platform_spent=Spent(),
    )
    assert estimate_crossing(limits, estimate(a=40, b=60)) is None  # x: 0.9, y: 0.9
    assert estimate_crossing(limits, estimate(a=60, b=60)) is not None  # x: 1.1


def test_the_platform_day_limit_counts_what_was_spent_today() -> None:
    limits = limits_for(
        Budget(platform_day_usd=2.0),
        seats_of_agent={},
        agent_spent={},
        platform_spent=Spent(usd=1.5),
    )
    assert estimate_crossing(limits, estimate(a=40)) is None
    assert estimate_crossing(limits, estimate(a=60)) is not None


def test_the_guard_says_when_the_passes_reach_a_limit() -> None:
    guard = BudgetGuard(
        limits_for(Budget(run_usd=0.5), seats_of_agent={}, agent_spent={}, platform_spent=Spent())
    )
    guard.record("a", judged(0.25))
    assert guard.crossing() is None
    guard.record("b", judged(0.25))
    crossed = guard.crossing()
    assert crossed is not None
    assert crossed.text == "judging reached the run limit of $0.5 ($0.5000 with this run)"
