"""Small builders of evaluated outcomes for tests of the pure rules."""

from __future__ import annotations

from typing import Any

from judge.core.domain.checks import Diagnostics, MetricValue, StateOutcome, SummaryCounts

REWARDS = {"verified": 1, "not_achieved": 0, "rule_violated": -1}
VERDICTS = {
    "verified": "pass",
    "not_achieved": "fail",
    "rule_violated": "fail",
    "not_scored": "unscoreable",
}


def make_outcome(
    run_id: str,
    outcome: str,
    *,
    seed: int | None = 1,
    adversary: str | None = None,
    scenario: str = "s",
    check_fraction: float | None = None,
    verdict: str | None = None,
    counts: dict[str, Any] | None = None,
    metric: float | None = None,
) -> StateOutcome:
    """An outcome as evaluate_run would return it, with only what a test cares about set."""
    reward = REWARDS.get(outcome)
    scored = reward is not None
    summary = {
        "false_completion": False if scored else None, "duplicate_effects": 0,
        "recovered": False if scored else None, "faults": 0, "customer_contacts": 0,
        "allowed_contacts": 1, "unnecessary_interruptions": 0, "rejected_attempts": 0,
        **(counts or {}),
    }  # fmt: skip
    if check_fraction is None and reward is not None:
        check_fraction = {1: 1.0, 0: 0.5, -1: 0.25}[reward]
    return StateOutcome(
        run_id=run_id, scenario_id=scenario, seed=seed, adversary_config=adversary,
        outcome=outcome, reward=reward, passed=outcome == "verified" if scored else None,
        check_reward=check_fraction, failed_required=[], failed_optional=[],
        verdict=verdict or VERDICTS[outcome],
        not_scored_reason=None if scored else "sandbox died", checks=[],
        metrics=[MetricValue(label="spend", value=metric, aggregate="mean", op="le", wanted=10.0)],
        summary=SummaryCounts.model_validate(summary),
        diagnostics=Diagnostics(tool_calls=0, tool_errors=0, source="transcript"),
    )  # fmt: skip
