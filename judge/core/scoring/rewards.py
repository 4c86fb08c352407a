"""Per-turn scalar rewards from the trace (docs/scoring.md)."""

from __future__ import annotations

from collections.abc import Sequence

from judge.core.domain.config import RewardWeights
from judge.core.domain.outputs import Value
from judge.core.domain.run import TraceStep


class RewardComponents(Value):
    checks_passed: int
    checks_failed: int
    new_conditions_count: int
    new_conditions: list[str]
    progress_delta: float


class StepReward(Value):
    turn: int
    seat: str
    scalar_reward: float
    components: RewardComponents


def step_components(step: TraceStep, previous: TraceStep | None) -> RewardComponents:
    """Deltas against the same seat's previous step (cumulative fields become increments)."""
    before = set(previous.conditions_met) if previous else set()
    new = sorted(set(step.conditions_met) - before)
    return RewardComponents(
        checks_passed=step.checks_passed,
        checks_failed=step.checks_failed,
        new_conditions_count=len(new),
        new_conditions=new,
        progress_delta=step.progress - (previous.progress if previous else 0.0),
    )


def scalar_reward(c: RewardComponents, w: RewardWeights) -> float:
    return (
        c.checks_passed * w.w_check_pass
        + c.checks_failed * w.w_check_fail
        + c.new_conditions_count * w.w_condition_flip
        + c.progress_delta * w.w_progress
    )


def step_rewards(trace: Sequence[TraceStep], weights: RewardWeights) -> list[StepReward]:
    """Rewards for every trace step, in trace order, each seat's deltas kept apart."""
    last: dict[str, TraceStep] = {}
    rewards = []
    for step in trace:
        components = step_components(step, last.get(step.seat))
        last[step.seat] = step
        reward = scalar_reward(components, weights)
        rewards.append(
            StepReward(turn=step.turn, seat=step.seat, scalar_reward=reward, components=components)
        )
    return rewards
