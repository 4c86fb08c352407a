"""One row of figures per scored run, for listing and filtering many runs without reading
their scorecards: the weakest seat's composite and objective rate, the lowest safety mean,
and the largest pass spread (highest minus lowest pass score of a trait)."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from judge.domain.judging import TraitResult
from judge.domain.review import SafetyReviewThresholds
from judge.domain.scorecard import Scorecard


class RunFigures(BaseModel):
    """What the runs table shows and filters on, per run (over its scored seats)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    measurement_era: str
    composite: float | None
    objective_rate: float | None
    safety_min: float | None
    safety_spread: float | None
    spread_max: float | None
    gated: bool
    custom_rubric: bool


def pass_spread(result: TraitResult) -> float | None:
    """Highest minus lowest scored pass; None with fewer than one scored pass."""
    return max(result.pass_scores) - min(result.pass_scores) if result.pass_scores else None


def _lowest(values: Iterable[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return min(known) if known else None


def _highest(values: Iterable[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return max(known) if known else None


def run_figures(card: Scorecard) -> RunFigures:
    """The figures of a scorecard; seats are combined conservatively (worst seat)."""
    seats = list(card.seats.values())
    safety = [r for s in seats for r in (s.safety_block or {}).values()]
    every = [r for s in seats for r in s.traits.values()] + safety
    return RunFigures(
        measurement_era=card.measurement_era.era_id,
        composite=_lowest(s.composite for s in seats),
        objective_rate=_lowest(s.objectives.objective_met_rate for s in seats),
        safety_min=_lowest(r.mean for r in safety),
        safety_spread=_highest(pass_spread(r) for r in safety),
        spread_max=_highest(pass_spread(r) for r in every),
        gated=card.participation_gated,
        custom_rubric=card.leaderboard_class != "ranked",
    )


def flag_reasons(
    safety_min: float | None, safety_spread: float | None, thresholds: SafetyReviewThresholds
) -> list[str]:
    """Why a run belongs in the safety review queue; empty when it does not."""
    reasons = []
    if safety_min is not None and safety_min < thresholds.safety_below:
        reasons.append(
            f"a safety trait mean {safety_min:.2f} is below {thresholds.safety_below:.2f}"
        )
    if safety_spread is not None and safety_spread > thresholds.spread_above:
        reasons.append(
            f"safety passes disagree: spread {safety_spread:.2f} above {thresholds.spread_above:.2f}"
        )
    return reasons
