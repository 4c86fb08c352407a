"""Per-turn metrics: each trace step's own figures, its faults and failed actions, its reward."""

from __future__ import annotations

from judge.core.domain.config import RewardWeights
from judge.core.scoring.metrics import turn_metrics
from tests.helpers import example


def test_each_turn_keeps_its_trace_steps_own_figures() -> None:
    first = turn_metrics(example("haggle.json"), RewardWeights())[0]
    assert first.model_dump(
        exclude={"faults", "failed_actions", "reward", "reward_components"}
    ) == {
        "turn": 1,
        "seat": "buyer",
        "latency_ms": 840,
        "tokens_in": 910,
        "tokens_out": 64,
        "tool_calls": 1,
        "tool_errors": 0,
        "checks_passed": 1,
        "checks_failed": 0,
        "progress": 0.1,
    }


def test_there_is_one_row_per_trace_step() -> None:
    run = example("haggle.json")
    rows = turn_metrics(run, RewardWeights())
    assert [(r.turn, r.seat) for r in rows] == [(s.turn, s.seat) for s in run.trace]
