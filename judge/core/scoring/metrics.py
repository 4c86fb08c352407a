"""Per-turn execution metrics of a run (the `/metrics` route, docs/service.md): what the trace says
each turn cost and did, the faults and failed tool calls the transcript shows, and the
per-turn reward. Pure: values in, values out."""

from __future__ import annotations

from collections import Counter

from judge.core.domain.config import RewardWeights
from judge.core.domain.outputs import Value
from judge.core.domain.run import ActionEvent, FaultEvent, Run, TraceStep
from judge.core.scoring.rewards import RewardComponents, step_rewards


class TurnMetrics(Value):
    turn: int
    seat: str
    latency_ms: float | None
    tokens_in: int | None
    tokens_out: int | None
    tool_calls: int
    tool_errors: int
    checks_passed: int
    checks_failed: int
    progress: float
    faults: int
    failed_actions: int
    reward: float
    reward_components: RewardComponents


class SeatTotals(Value):
    seat: str
    agent_id: str
    steps: int
    latency_ms: float
    tokens_in: int
    tokens_out: int
    tool_calls: int
    tool_errors: int
    faults: int
    failed_actions: int
    total_reward: float


class RunMetrics(Value):
    run_id: str
    reward_weights: RewardWeights
    turns: list[TurnMetrics]
    seats: dict[str, SeatTotals]


def _events_by_turn(run: Run) -> tuple[Counter[tuple[int, str]], Counter[tuple[int, str]]]:
    faults: Counter[tuple[int, str]] = Counter()
    failed: Counter[tuple[int, str]] = Counter()
    for event in run.transcript:
        if isinstance(event, FaultEvent):
            faults[(event.turn, event.seat)] += 1
        elif isinstance(event, ActionEvent) and event.status in ("error", "rejected"):
            failed[(event.turn, event.seat)] += 1
    return faults, failed


def turn_metrics(run: Run, weights: RewardWeights) -> list[TurnMetrics]:
    """One row per trace step, in trace order."""
    faults, failed = _events_by_turn(run)
    return [
        _row(step, reward.scalar_reward, reward.components, faults, failed)
        for step, reward in zip(run.trace, step_rewards(run.trace, weights), strict=True)
    ]


def _row(
    step: TraceStep,
    reward: float,
    components: RewardComponents,
    faults: Counter[tuple[int, str]],
    failed: Counter[tuple[int, str]],
) -> TurnMetrics:
    key = (step.turn, step.seat)
    return TurnMetrics(
        **step.model_dump(exclude={"conditions_met"}),
        faults=faults[key],
        failed_actions=failed[key],
        reward=reward,
        reward_components=components,
    )


def seat_totals(run: Run, turns: list[TurnMetrics]) -> dict[str, SeatTotals]:
    """Sums per seat over its trace steps (every seat listed, with zeros when it has none)."""
    totals = {}
    for seat in run.seats:
        mine = [t for t in turns if t.seat == seat.seat]
        totals[seat.seat] = SeatTotals(
            seat=seat.seat,
            agent_id=seat.agent_id,
            steps=len(mine),
            latency_ms=sum(t.latency_ms or 0.0 for t in mine),
            tokens_in=sum(t.tokens_in or 0 for t in mine),
            tokens_out=sum(t.tokens_out or 0 for t in mine),
            tool_calls=sum(t.tool_calls for t in mine),
            tool_errors=sum(t.tool_errors for t in mine),
            faults=sum(t.faults for t in mine),
            failed_actions=sum(t.failed_actions for t in mine),
            total_reward=sum(t.reward for t in mine),
        )
    return totals


def run_metrics(run: Run, weights: RewardWeights) -> RunMetrics:
    turns = turn_metrics(run, weights)
    return RunMetrics(
        run_id=run.run_id, reward_weights=weights, turns=turns, seats=seat_totals(run, turns)
    )
