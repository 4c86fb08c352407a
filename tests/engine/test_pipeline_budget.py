"""Budgets on the scoring path (judge/engine/pipeline.py): a counting, priced judge shows that no
trait starts once a limit is reached, and the card shows the cost beside its estimate."""

from __future__ import annotations

import pytest

from judge.core.domain.config import DenoiseConfig, MeasurementSettings
from judge.core.domain.cost import Budget, Spent
from judge.core.domain.judging import JudgePass
from judge.core.errors import BudgetExceeded
from judge.core.scoring.cost import BudgetGuard, limits_for
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions, estimate_run, score_run
from tests.budget_judge import PRICED_MODEL, priced_judge
from tests.helpers import example

RUBRICS = default_rubric_set().only(["negotiation", "integrity", "calibration"])
OPTIONS = ScoringOptions(judge_model=PRICED_MODEL)


def run_guard(budget: Budget) -> BudgetGuard:
    return BudgetGuard(
        limits_for(budget, seats_of_agent={}, agent_spent={}, platform_spent=Spent())
    )


def test_a_limit_reached_by_a_trait_stops_the_run_before_the_next_trait() -> None:
    judge, kept = priced_judge(usd=0.01), []

    def keep(seat: str, p: JudgePass) -> None:
        kept.append(p)

    with pytest.raises(BudgetExceeded, match=r"run limit of \$0.05"):
        score_run(
            example("haggle.json"),
            options=OPTIONS,
            rubrics=RUBRICS,
            backend=judge,
            on_pass=keep,
            guard=run_guard(Budget(run_usd=0.05)),
        )
    assert len(judge.history) == 5
    assert {p.trait for p in kept} == {"negotiation"} and len(kept) == 5


def test_a_trait_that_crosses_the_limit_is_finished_and_no_other_starts() -> None:
    judge = priced_judge(usd=0.01)
    with pytest.raises(BudgetExceeded):
        score_run(
            example("haggle.json"),
            options=OPTIONS,
            rubrics=RUBRICS,
            backend=judge,
            guard=run_guard(Budget(run_usd=0.07)),
        )
    assert [r.label for r in judge.history] == ["negotiation"] * 5 + ["integrity"] * 5


def test_a_token_limit_stops_the_run_like_a_dollar_limit() -> None:
    judge = priced_judge(prompt=1000, completion=50)
    with pytest.raises(BudgetExceeded, match="run limit of 5000 tokens"):
        score_run(
            example("haggle.json"),
            options=OPTIONS,
            rubrics=RUBRICS,
            backend=judge,
            guard=run_guard(Budget(run_tokens=5000)),
        )
    assert len(judge.history) == 5


def test_passes_already_stored_count_against_the_limit_on_resume() -> None:
    judge = priced_judge(usd=0.01)
    card = score_run(example("haggle.json"), options=OPTIONS, rubrics=RUBRICS, backend=judge)
    done = {
        ("buyer", p.trait, p.index): p for p in card.seats["buyer"].traits["negotiation"].passes
    }
    again = priced_judge(usd=0.01)
    with pytest.raises(BudgetExceeded):
        score_run(
            example("haggle.json"),
            options=OPTIONS,
            rubrics=RUBRICS,
            backend=again,
            done=done,
            guard=run_guard(Budget(run_usd=0.05)),
        )
    assert again.history == []


def test_a_run_within_its_limits_is_scored_with_every_pass() -> None:
    judge = priced_judge(usd=0.01)
    card = score_run(
        example("haggle.json"),
        options=OPTIONS,
        rubrics=RUBRICS,
        backend=judge,
        guard=run_guard(Budget(run_usd=1.0, run_tokens=10**6)),
    )
    assert len(judge.history) == 15
    assert card.cost is not None and card.cost.cost_usd == pytest.approx(0.15)


def test_the_card_shows_the_cost_per_seat_and_run_beside_the_estimate() -> None:
    card = score_run(
        example("haggle.json"), options=OPTIONS, rubrics=RUBRICS, backend=priced_judge(usd=0.01)
    )
    cost, seat = card.cost, card.seats["buyer"].cost
    assert cost is not None and seat is not None
    assert (cost.n_passes, cost.prompt_tokens, cost.cached_prompt_tokens) == (15, 15000, 7500)
    assert (cost.completion_tokens, seat.n_passes) == (750, 15)
    assert cost.cpu_s is None  # a hosted judge: dollars, not this process's CPU
    estimate = cost.estimate
    assert estimate is not None and estimate.n_passes == 15
    assert estimate.completion_tokens == 15 * OPTIONS.runner.max_tokens
    assert estimate.cost_usd is not None and estimate.cost_usd > 0


def test_an_unpriced_judge_has_an_estimate_in_tokens_and_no_dollars() -> None:
    options = ScoringOptions(judge_model="scripted/0.6")
    estimate = estimate_run(example("haggle.json"), rubrics=RUBRICS, options=options)
    assert estimate.cost_usd is None and estimate.prompt_tokens > 0
    assert estimate.cost_note is not None and "scripted/0.6" in estimate.cost_note


def test_the_wall_time_is_measured_not_the_calls_summed_latency() -> None:
    judge = priced_judge()
    judge.delay = 0.1  # five passes of a trait, four at a time: two rounds of 0.1 s
    card = score_run(example("haggle.json"), options=OPTIONS, rubrics=RUBRICS, backend=judge)
    cost = card.cost
    assert cost is not None
    summed = sum(p.latency_ms for t in card.seats["buyer"].traits.values() for p in t.passes)
    assert summed / 1000 >= 1.5
    assert cost.wall_s < 0.8 * summed / 1000
    assert card.seats["buyer"].cost is not None and card.seats["buyer"].cost.wall_s == cost.wall_s


def test_under_adaptive_passes_a_limit_reached_stops_before_the_next_seat() -> None:
    denoise = DenoiseConfig.model_validate({"passes": {"floor": 5, "max": 8, "spread": 0.2}})
    options = ScoringOptions(
        judge_model=PRICED_MODEL, settings=MeasurementSettings(denoise=denoise)
    )
    judge = priced_judge(usd=0.01)  # every pass agrees: five passes a trait, 15 a seat
    with pytest.raises(BudgetExceeded):
        score_run(
            example("two_seats_partial_credit.json"),
            options=options,
            rubrics=RUBRICS,
            backend=judge,
            guard=run_guard(Budget(run_usd=0.1)),
        )
    assert len(judge.history) == 15  # the first seat's rounds, no call for the second
