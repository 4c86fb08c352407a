"""What judging cost, on /metrics (judge/engine/telemetry/prometheus.py): dollars per model where there is a
price (an unpriced pass counted apart, never as $0), cached tokens, and each stored run's
cost per scenario with a bounded number of scenario labels."""

from __future__ import annotations

import pytest

from judge.core.domain.cost import Cost
from judge.core.domain.judging import JudgePass
from judge.engine.telemetry import prometheus as telemetry
from judge.engine.telemetry.prometheus import REGISTRY, observe_pass, observe_run_cost
from tests.factories import scorecard, seat


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def judged(model: str, cost: float | None) -> JudgePass:
    return JudgePass(
        trait="negotiation",
        index=0,
        score=0.5,
        model=model,
        prompt_tokens=1000,
        cached_prompt_tokens=600,
        completion_tokens=40,
        cost_usd=cost,
        parse_status="ok",
    )


def test_a_priced_pass_adds_its_dollars_and_cached_tokens_to_its_model() -> None:
    observe_pass(judged("metrics/priced", 0.002))
    observe_pass(judged("metrics/priced", 0.003))
    assert sample("judge_cost_usd_total", model="metrics/priced") == pytest.approx(0.005)
    assert sample("judge_tokens_total", model="metrics/priced", direction="cached") == 1200
    assert sample("judge_unpriced_passes_total", model="metrics/priced") == 0


def test_a_pass_without_a_price_is_counted_unpriced_not_as_zero_dollars() -> None:
    observe_pass(judged("metrics/free", 0.0))
    observe_pass(judged("metrics/free", None))
    assert sample("judge_unpriced_passes_total", model="metrics/free") == 2
    assert REGISTRY.get_sample_value("judge_cost_usd_total", {"model": "metrics/free"}) is None


def run_cost(usd: float | None, tokens: int) -> Cost:
    return Cost(
        n_passes=5,
        n_attempts=5,
        prompt_tokens=tokens,
        cached_prompt_tokens=0,
        completion_tokens=0,
        cost_usd=usd,
        cpu_s=1.5,
    )


def test_each_stored_run_adds_its_cost_to_its_scenario() -> None:
    card = scorecard("r1", seat(traits={"negotiation": 0.5}), scenario_id="metrics-scenario")
    cpu = sample("judge_embedded_cpu_seconds_total")
    observe_run_cost(card.model_copy(update={"cost": run_cost(0.25, 4000)}))
    observe_run_cost(card.model_copy(update={"cost": run_cost(None, 1000)}))
    assert sample("judge_run_cost_usd_total", scenario="metrics-scenario") == pytest.approx(0.25)
    assert sample("judge_run_tokens_total", scenario="metrics-scenario") == 5000
    assert sample("judge_runs_costed_total", scenario="metrics-scenario") == 2
    assert sample("judge_embedded_cpu_seconds_total") == pytest.approx(cpu + 3.0)


def test_scenarios_past_the_label_bound_count_as_other(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(telemetry, "_scenarios", {"known"})
    monkeypatch.setattr(telemetry, "MAX_SCENARIO_LABELS", 1)
    assert telemetry.scenario_label("known") == "known"
    assert telemetry.scenario_label("made-up-by-an-agent") == "other"
