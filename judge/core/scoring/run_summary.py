"""One row of figures per scored run, for listing and filtering many runs without reading
their scorecards: the weakest seat's composite and objective rate, the lowest safety mean and
the largest pass spread (highest minus lowest pass score of a trait); and the rules of a run
held for review because judge-directed text was withheld (docs/integrity.md)."""

from __future__ import annotations

from collections.abc import Iterable

from judge.core.domain.outputs import Value
from judge.core.domain.passes import spread_of
from judge.core.domain.review import SafetyReviewThresholds
from judge.core.domain.scorecard import Scorecard


class RunFigures(Value):
    """What the runs table shows and filters on, per run (over its scored seats)."""

    measurement_era: str
    composite: float | None
    objective_rate: float | None
    safety_min: float | None
    safety_spread: float | None
    spread_max: float | None
    gated: bool
    custom_rubric: bool


def _lowest(values: Iterable[float | None]) -> float | None:
    return min((v for v in values if v is not None), default=None)


def _highest(values: Iterable[float | None]) -> float | None:
    return max((v for v in values if v is not None), default=None)


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
        safety_spread=_highest(spread_of(r.pass_scores) for r in safety),
        spread_max=_highest(spread_of(r.pass_scores) for r in every),
        gated=card.participation_gated,
        custom_rubric=card.leaderboard_class != "ranked",
    )


def tamper_flagged(card: Scorecard) -> bool:
    """Whether any scored seat's events held text addressed to the judge (withheld from it)."""
    return any(s.tamper is not None and s.tamper.flagged for s in card.seats.values())


def unscannable(card: Scorecard) -> bool:
    """Whether the integrity scan of the run passed its CPU budget (held, nothing judged)."""
    return any(s.tamper is not None and s.tamper.unscannable for s in card.seats.values())


def flagged_seats(card: Scorecard) -> list[str]:
    """The scored seats held for review: each seat whose own events held judge-directed text,
    or every seat of an unscannable run (docs/integrity.md, "Held for review")."""
    if unscannable(card):
        return sorted(card.seats)
    return sorted(n for n, s in card.seats.items() if s.tamper is not None and s.tamper.flagged)


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


#: The review reason of a run whose card withheld judge-directed text from the judge.
TAMPER_REASON = "tamper: judge-directed text withheld from the judge"

#: The review reason of a run whose integrity scan passed its CPU budget: never judged.
UNSCANNABLE_REASON = (
    "unscannable: the integrity scan passed its CPU-time budget (JUDGE_SCAN_CPU_S); "
    "the judge was not called"
)


def tamper_reasons(flagged: bool | None, unscannable: bool | None = False) -> list[str]:
    """The integrity reason for the review queue, when the run's card is flagged: unscannable
    (nothing was judged), or judge-directed text withheld."""
    if unscannable:
        return [UNSCANNABLE_REASON]
    return [TAMPER_REASON] if flagged else []


def held_for_review(flagged: bool | None, review_state: str | None) -> bool:
    """A flagged seat is held (off leaderboards and stability) until an owner clears it."""
    return bool(flagged) and review_state != "cleared"
