"""Outcome, reward, verdict and check fraction of one run; spreads and rates across runs."""

from __future__ import annotations

from typing import Any

import pytest

from judge.core.domain.checks import CheckKind, CheckResult, CheckStatus, StateOutcome
from judge.core.errors import InputError
from judge.core.scoring.outcomes import check_reward, decide_outcome, rollout_summary
from tests.core.scoring.builders import make_outcome


def result(
    label: str,
    status: CheckStatus = "passed",
    *,
    kind: CheckKind = "goal",
    required: bool = True,
    weight: float = 1.0,
    detail: str = "answered 1, expected 1",
) -> CheckResult:
    return CheckResult(
        label=label, kind=kind, evaluator="state_predicate", required=required, weight=weight,
        status=status, op="eq", wanted=1, answered=1, detail=detail,
    )  # fmt: skip


def test_every_check_passing_is_verified_with_reward_1_and_verdict_pass() -> None:
    decision = decide_outcome([result("goal"), result("rule", kind="hard_rule")])
    assert decision.outcome == "verified"
    assert (decision.reward, decision.passed, decision.verdict) == (1, True, "pass")
    assert decision.check_reward == 1.0
    assert decision.failed_required == decision.failed_optional == []


def test_a_failed_hard_rule_is_rule_violated_whatever_the_goals_say() -> None:
    decision = decide_outcome([result("goal"), result("rule", "failed", kind="hard_rule")])
    assert (decision.outcome, decision.reward, decision.verdict) == ("rule_violated", -1, "fail")
    assert decision.passed is False
    assert decision.failed_required == ["rule"]
    assert decision.check_reward == 0.5


def test_a_failed_required_goal_is_not_achieved_with_reward_0() -> None:
    decision = decide_outcome(
        [result("a"), result("b", "failed"), result("rule", kind="hard_rule")]
    )
    assert (decision.outcome, decision.reward, decision.verdict) == ("not_achieved", 0, "fail")
    assert decision.failed_required == ["b"]
    assert decision.check_reward == pytest.approx(2 / 3)


def test_a_failed_optional_check_keeps_verified_and_makes_the_verdict_partial() -> None:
    decision = decide_outcome([result("must"), result("nice", "failed", required=False)])
    assert (decision.outcome, decision.reward, decision.passed) == ("verified", 1, True)
    assert decision.verdict == "partial"
    assert decision.failed_optional == ["nice"]
    assert decision.check_reward == 0.5


def test_a_failing_run_can_still_score_well_three_of_five() -> None:
    checks = [result("r1", "failed"), result("r2", "failed"), result("o1", required=False),
              result("o2", required=False), result("o3", required=False)]  # fmt: skip
    decision = decide_outcome(checks)
    assert decision.check_reward == pytest.approx(0.6)
    assert decision.passed is False
    assert decision.failed_required == ["r1", "r2"]


def test_check_reward_is_weighted_by_each_checks_weight() -> None:
    checks = [result("heavy", weight=3.0), result("light", "failed", weight=1.0)]
    assert check_reward(checks) == 0.75


def test_a_check_that_cannot_be_evaluated_makes_the_run_not_scored_with_the_reason() -> None:
    decision = decide_outcome(
        [
            result("a"),
            result("b", "error", detail="timed out"),
            result("c", "error", detail="timed out"),
        ]
    )
    assert (decision.outcome, decision.reward, decision.passed) == ("not_scored", None, None)
    assert decision.verdict == "unscoreable"
    assert decision.check_reward is None
    assert decision.not_scored_reason == "b, c: timed out"


def test_an_environment_error_makes_the_run_not_scored_even_with_checks_passing() -> None:
    decision = decide_outcome([result("a")], ["outside requests table gone"])
    assert decision.outcome == "not_scored"
    assert decision.not_scored_reason == "outside requests table gone"


def test_a_verifier_without_a_required_goal_check_is_refused() -> None:
    with pytest.raises(InputError, match="at least one required goal check"):
        decide_outcome([result("nice", required=False), result("rule", kind="hard_rule")])


def outcome(run_id: str, name: str, **kwargs: Any) -> StateOutcome:
    return make_outcome(run_id, name, **kwargs)


@pytest.fixture
def rollouts() -> list[StateOutcome]:
    return [
        outcome("r1", "verified", check_fraction=1.0, verdict="pass", metric=8.0,
                counts={"recovered": True, "faults": 1}),
        outcome("r2", "verified", check_fraction=0.8, verdict="partial", metric=12.0,
                counts={"unnecessary_interruptions": 2, "rejected_attempts": 3}),
        outcome("r3", "not_achieved", check_fraction=0.2, verdict="fail", metric=4.0,
                counts={"false_completion": True}),
        outcome("r4", "rule_violated", check_fraction=0.6, verdict="fail", metric=20.0,
                counts={"duplicate_effects": 2, "false_completion": True}),
        outcome("r5", "not_scored", check_fraction=None, verdict="unscoreable", metric=None,
                counts={"false_completion": None, "recovered": None}),
    ]  # fmt: skip


def test_rollouts_report_best_worst_and_mean_not_the_mean_alone(
    rollouts: list[StateOutcome],
) -> None:
    summary = rollout_summary(rollouts)
    assert (summary.n_runs, summary.n_scored) == (5, 4)
    assert summary.reward is not None and summary.check_reward is not None
    assert (summary.reward.best, summary.reward.worst, summary.reward.mean) == (1.0, -1.0, 0.25)
    assert summary.check_reward.best == 1.0
    assert summary.check_reward.worst == 0.2
    assert summary.check_reward.mean == pytest.approx(0.65)


def test_rollout_rates_count_scored_runs_and_list_them(rollouts: list[StateOutcome]) -> None:
    summary = rollout_summary(rollouts)
    assert summary.passed.model_dump() == {
        "count": 2,
        "rate": 0.5,
        "run_ids": ["r1", "r2"],
        "total": None,
    }
    assert {k: (t.count, t.rate, t.run_ids) for k, t in summary.outcomes.items()} == {
        "verified": (2, 0.5, ["r1", "r2"]),
        "not_achieved": (1, 0.25, ["r3"]),
        "rule_violated": (1, 0.25, ["r4"]),
    }
    assert {k: (t.count, t.rate, t.run_ids) for k, t in summary.verdicts.items()} == {
        "pass": (1, 0.25, ["r1"]),
        "partial": (1, 0.25, ["r2"]),
        "fail": (2, 0.5, ["r3", "r4"]),
    }


def test_unscoreable_runs_are_counted_outside_the_rates(rollouts: list[StateOutcome]) -> None:
    summary = rollout_summary(rollouts)
    assert summary.unscoreable.model_dump() == {
        "count": 1,
        "rate": None,
        "run_ids": ["r5"],
        "total": None,
    }
    assert summary.not_scored_reasons == {"r5": "sandbox died"}


def test_rollout_counts_give_runs_rates_event_totals_and_ids(rollouts: list[StateOutcome]) -> None:
    counts = rollout_summary(rollouts).counts
    assert {k: (t.count, t.rate, t.total, t.run_ids) for k, t in counts.items()} == {
        "false_completion": (2, 0.5, None, ["r3", "r4"]),
        "duplicate_effect": (1, 0.25, 2, ["r4"]),
        "recovered": (1, 0.25, None, ["r1"]),
        "unnecessary_interruption": (1, 0.25, 2, ["r2"]),
        "rejected_attempt": (1, 0.25, 3, ["r2"]),
    }


def test_outcome_metrics_are_aggregated_over_scored_runs(rollouts: list[StateOutcome]) -> None:
    (metric,) = rollout_summary(rollouts).metrics
    assert (metric.label, metric.value, metric.status) == ("spend", 11.0, "failed")
    assert metric.detail == "mean over 4 runs is 11, expected at most 10"
    assert metric.run_ids == ["r1", "r2", "r3", "r4"]


def test_a_metric_no_scored_run_measured_has_no_data() -> None:
    runs = [outcome("r1", "verified", check_fraction=1.0, verdict="pass", metric=None)]
    (metric,) = rollout_summary(runs).metrics
    assert (metric.value, metric.status, metric.run_ids) == (None, "no_data", [])


def test_no_scored_run_leaves_spreads_and_rates_empty() -> None:
    summary = rollout_summary(
        [outcome("r1", "not_scored", check_fraction=None, verdict="unscoreable")]
    )
    assert summary.reward is None and summary.check_reward is None
    assert summary.passed.rate is None
    assert summary.unscoreable.count == 1
