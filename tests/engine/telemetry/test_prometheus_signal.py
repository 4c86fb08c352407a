"""Prometheus counters for the judge's signal: unparseable passes per model (by whether the
verdict schema was enforced) and passes that recorded a grid distribution."""

from prometheus_client import generate_latest

from judge.core.domain.judging import JudgePass
from judge.engine.telemetry.prometheus import REGISTRY, observe_pass


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_unparseable_and_distribution_passes_are_counted_per_model() -> None:
    model = "metrics-signal-judge"
    before = value("judge_unparseable_passes_total", model=model, structured="false")
    before_dist = value("judge_distribution_passes_total", model=model)
    observe_pass(
        JudgePass(trait="t", index=0, model=model, parse_status="unparseable", raw_output="??")
    )
    observe_pass(JudgePass(trait="t", index=1, model=model, parse_status="out_of_range"))
    observe_pass(
        JudgePass(
            trait="t",
            index=2,
            model=model,
            parse_status="ok",
            score=0.5,
            structured_output=True,
            score_distribution=[0.0] * 5 + [1.0] + [0.0] * 5,
            expected_score=0.5,
        )
    )
    assert value("judge_unparseable_passes_total", model=model, structured="false") == before + 2
    assert value("judge_unparseable_passes_total", model=model, structured="true") == 0
    assert value("judge_distribution_passes_total", model=model) == before_dist + 1
    assert value("judge_passes_total", model=model, parse_status="unparseable") >= 1
    assert b"judge_unparseable_passes_total" in generate_latest(REGISTRY)
