"""A pairwise pass is counted on /metrics like any judge pass (judge/engine/telemetry/prometheus.py)."""

from __future__ import annotations

from judge.core.domain.pairwise import PairwisePass
from judge.engine.telemetry.prometheus import REGISTRY, observe_pairwise_pass

MODEL = "scripted/pairwise-metrics"


def sample(name: str, model: str = MODEL, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, {"model": model, **labels}) or 0.0


def pairwise_pass(winner: str | None, attempts: int = 1, model: str = MODEL) -> PairwisePass:
    return PairwisePass(
        order="ab",
        index=0,
        position="first" if winner else None,
        winner="a" if winner else None,
        model=model,
        prompt_tokens=900,
        completion_tokens=30,
        latency_ms=250.0,
        attempts=attempts,
        parse_status="ok" if winner else "unparseable",
    )


def test_calls_tokens_and_passes_are_counted() -> None:
    observe_pairwise_pass(pairwise_pass("a", attempts=2))
    assert sample("judge_calls_total") == 2 and sample("judge_retries_total") == 1
    assert sample("judge_tokens_total", direction="in") == 900
    assert sample("judge_tokens_total", direction="out") == 30
    assert sample("judge_passes_total", parse_status="ok") == 1


def test_a_pass_that_names_no_seat_is_counted_unscored() -> None:
    observe_pairwise_pass(pairwise_pass(None, model=f"{MODEL}-unscored"))
    assert sample("judge_unscored_passes_total", model=f"{MODEL}-unscored") == 1
