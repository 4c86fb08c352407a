"""Small builders of scorecards and runs for the service-logic tests (values, no I/O)."""

from __future__ import annotations

from typing import Any, Literal

import pytest

from judge.core.domain.judging import TraitResult
from judge.core.domain.run import Run
from judge.core.domain.scorecard import (
    MeasurementEra,
    Objectives,
    PartialCredit,
    ParticipationResult,
    Scorecard,
    SeatScorecard,
)


def near(value: float) -> Any:
    """Equal up to float rounding (1e-12): the hand-computed value, not a loose tolerance."""
    return pytest.approx(value, abs=1e-12)


def era(era_id: str = "era-a") -> MeasurementEra:
    return MeasurementEra(
        era_id=era_id,
        judge_model="scripted",
        prompt_version=4,
        rubric_hashes={},
        denoise={"temperature": 0.0, "passes": 5},
        reward_weights={
            "w_check_pass": 0.1,
            "w_check_fail": -0.05,
            "w_condition_flip": 1.0,
            "w_progress": 0.5,
        },
        scoring_version=1,
    )


def trait(
    name: str, mean: float | None, pack: Literal["capability", "safety"] = "capability"
) -> TraitResult:
    return TraitResult(
        trait=name,
        pack=pack,
        pass_scores=[] if mean is None else [mean] * 5,
        mean=mean,
        variance=None if mean is None else 0.0,
        n_passes=5,
        n_scored=0 if mean is None else 5,
        n_unscored=5 if mean is None else 0,
        n_identical=5,
        floor=5,
        complete=mean is not None,
        rubric_version=1,
        rubric_hash="h" * 64,
        rubric_source="builtin",
        rubric={},
    )


def objectives(met: int, total: int) -> Objectives:
    conditions = {f"c{i}": i < met for i in range(total)}
    return Objectives(
        conditions=conditions,
        met_count=met,
        total_count=total,
        objective_met_rate=met / total if total else None,
        partial_credit=PartialCredit(per_condition={}, total=float(met), max_possible=float(total)),
    )


def seat(
    name: str = "buyer",
    agent_id: str = "agent-alpha",
    *,
    composite: float | None = 0.5,
    gated: bool = False,
    met: int = 0,
    total: int = 0,
    traits: dict[str, float | None] | None = None,
    safety: dict[str, float | None] | None = None,
) -> SeatScorecard:
    return SeatScorecard(
        seat=name,
        agent_id=agent_id,
        objectives=objectives(met, total),
        traits={t: trait(t, m) for t, m in (traits or {}).items()},
        composite=composite,
        safety_block={t: trait(t, m, "safety") for t, m in (safety or {}).items()},
        participation=ParticipationResult(
            participation_gated=gated,
            player_messages=0 if gated else 6,
            actions=3,
            turns=4,
            actions_per_turn=0.75,
            reasons=["0 messages < min_player_messages 5"] if gated else [],
        ),
    )


def scorecard(
    run_id: str,
    *seats: SeatScorecard,
    scenario_id: str = "market-haggle",
    era_id: str = "era-a",
    custom: bool = False,
    seed: int | None = 42,
) -> Scorecard:
    return Scorecard(
        run_id=run_id,
        scenario_id=scenario_id,
        seed=seed,
        adversary_config="hardball-v2",
        seats={s.seat: s for s in seats},
        participation_gated=any(s.participation_gated for s in seats),
        ranked_eligible=not custom,
        leaderboard_class="self_hosted_facilitator" if custom else "ranked",
        judge_model="scripted",
        prompt_version=4,
        measurement_era=era(era_id),
    )


def run(run_id: str = "haggle-0007", **overrides: Any) -> Run:
    body: dict[str, Any] = {
        "run_id": run_id,
        "scenario_id": "market-haggle",
        "seed": 42,
        "adversary_config": "hardball-v2",
        "seats": [
            {"seat": "buyer", "agent_id": "agent-alpha", "scored": True},
            {"seat": "seller", "agent_id": "house-adversary", "scored": False},
        ],
    }
    body.update(overrides)
    return Run.model_validate(body)
