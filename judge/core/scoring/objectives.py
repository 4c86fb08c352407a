"""Mechanical objectives: binary met semantics plus weighted partial credit (docs/scoring.md)."""

from __future__ import annotations

from collections.abc import Sequence

from judge.core.domain.run import WinCondition
from judge.core.domain.scorecard import Objectives, PartialCredit


def conditions_for_seat(conditions: Sequence[WinCondition], seat: str) -> list[WinCondition]:
    """A seat's conditions: those naming it, plus those naming no seat (shared by every seat)."""
    return [c for c in conditions if c.seat is None or c.seat == seat]


def condition_credit(condition: WinCondition) -> float:
    """`weight` if met, else `weight x progress` (no progress reported counts as 0)."""
    if condition.met:
        return condition.weight
    return condition.weight * (condition.progress or 0.0)


def partial_credit(conditions: Sequence[WinCondition]) -> PartialCredit:
    per_condition = {c.id: condition_credit(c) for c in conditions}
    return PartialCredit(
        per_condition=per_condition,
        total=sum(per_condition.values()),
        max_possible=sum(c.weight for c in conditions),
    )


def objectives(conditions: Sequence[WinCondition]) -> Objectives:
    """Met counts and rate over the given conditions; the rate is None when there are none."""
    met_count = sum(1 for c in conditions if c.met)
    return Objectives(
        conditions={c.id: c.met for c in conditions},
        met_count=met_count,
        total_count=len(conditions),
        objective_met_rate=met_count / len(conditions) if conditions else None,
        partial_credit=partial_credit(conditions),
    )


def objective_met_rate(per_run: Sequence[Objectives]) -> float | None:
    """Met conditions over all conditions across runs (not a mean of per-run rates)."""
    total = sum(o.total_count for o in per_run)
    return sum(o.met_count for o in per_run) / total if total else None
