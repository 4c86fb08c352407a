"""The RL trajectory export (docs/scoring.md): one row per trace step of a seat, with its
reward, components and ``done`` (the seat's last step, or a turn where it declared done)."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from typing import Any

from judge.core.domain.config import RewardWeights
from judge.core.domain.outputs import Value
from judge.core.domain.run import ActionEvent, ActionStatus, DoneEvent, Run
from judge.core.scoring.rewards import RewardComponents, StepReward, step_rewards

NDJSON_MEDIA_TYPE = "application/x-ndjson"


class StepAction(Value):
    name: str
    args: dict[str, Any]
    status: ActionStatus


class TrajectoryStep(Value):
    run_id: str
    seat: str
    agent_id: str
    step: int
    turn: int
    action: list[StepAction]
    reward: float
    components: RewardComponents
    done: bool


def actions_at(run: Run, seat: str, turn: int) -> list[StepAction]:
    """The seat's tool calls at one turn, in transcript order."""
    return [
        StepAction(name=e.name, args=e.args, status=e.status)
        for e in run.transcript
        if isinstance(e, ActionEvent) and e.seat == seat and e.turn == turn
    ]


def trajectory(
    run: Run, weights: RewardWeights, *, seats: Collection[str] | None = None
) -> list[TrajectoryStep]:
    """Every trace step of the run (of ``seats`` only, when given), with reward and done."""
    rewards = step_rewards(run.trace, weights)
    last = {step.seat: i for i, step in enumerate(run.trace)}  # each seat's last step
    declared = {(e.seat, e.turn) for e in run.transcript if isinstance(e, DoneEvent)}
    counters: dict[str, int] = {}
    rows = []
    for i, reward in enumerate(rewards):
        if seats is not None and reward.seat not in seats:
            continue
        step = counters.get(reward.seat, 0)
        counters[reward.seat] = step + 1
        is_done = i == last[reward.seat] or (reward.seat, reward.turn) in declared
        rows.append(_step_row(run, reward, step, is_done))
    return rows


def _step_row(run: Run, reward: StepReward, step: int, done: bool) -> TrajectoryStep:
    return TrajectoryStep(
        run_id=run.run_id,
        seat=reward.seat,
        agent_id=run.agent_of(reward.seat),
        step=step,
        turn=reward.turn,
        action=actions_at(run, reward.seat, reward.turn),
        reward=reward.scalar_reward,
        components=reward.components,
        done=done,
    )


def to_jsonl(rows: Iterable[TrajectoryStep]) -> str:
    """One JSON object per line, each line ending in a newline (empty text for no rows)."""
    return "".join(json.dumps(r.model_dump(mode="json"), sort_keys=True) + "\n" for r in rows)
