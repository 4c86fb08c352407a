"""CI gates over scorecards: ``--fail-under composite=0.6`` and friends (docs/ci.md). Every
scored seat must reach each threshold; a figure not measured fails it."""

from __future__ import annotations

import math
import re  # stays on re: matches only threshold specs the owner writes in settings
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from judge.core.domain.scorecard import Scorecard, SeatScorecard
from judge.core.errors import InputError

#: Figures a threshold can name besides a trait: the seat's composite, its objective met
#: rate and, when the run was checked against a scenario, the run's check reward.
SEAT_FIGURES = ("composite", "objective_met_rate")
RUN_FIGURES = ("check_reward",)

_SPEC = re.compile(r"^\s*([A-Za-z0-9_]+)\s*=\s*([^\s]+)\s*$")


class Threshold(NamedTuple):
    """The least value a figure may have."""

    figure: str
    minimum: float


class GateFailure(NamedTuple):
    """One figure of one seat (or run) below its threshold, or not measured."""

    run_id: str
    seat: str | None
    figure: str
    value: float | None
    minimum: float

    def reason(self) -> str:
        """One line saying which figure failed where, and by how much."""
        where = f"run {self.run_id}" + (f" seat {self.seat}" if self.seat else "")
        if self.value is None:
            return (
                f"gate failed: {where}: {self.figure} was not measured (needs >= {self.minimum:g})"
            )
        return f"gate failed: {where}: {self.figure} {self.value:.4f} < {self.minimum:g}"


def parse_threshold(text: str, known_traits: Iterable[str]) -> Threshold:
    """Read ``NAME=VALUE``, NAME a figure or a trait and VALUE a finite number (``InputError``)."""
    match = _SPEC.match(text)
    if match is None:
        raise InputError(f"--fail-under {text!r}: write NAME=VALUE, e.g. composite=0.6")
    name, raw = match.groups()
    names = [*SEAT_FIGURES, *RUN_FIGURES, *sorted(known_traits)]
    if name not in names:
        raise InputError(
            f"--fail-under {text!r}: unknown figure {name!r}; use one of: {', '.join(names)}"
        )
    return Threshold(name, _finite_number(text, raw))


def _finite_number(text: str, raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise InputError(f"--fail-under {text!r}: {raw!r} is not a number") from None
    if not math.isfinite(value):
        raise InputError(f"--fail-under {text!r}: the value must be a finite number")
    return value


def seat_figure(seat: SeatScorecard, figure: str) -> float | None:
    """A seat's composite, objective met rate, or the mean of one of its traits."""
    if figure == "composite":
        return seat.composite
    if figure == "objective_met_rate":
        return seat.objectives.objective_met_rate
    result = {**seat.traits, **(seat.safety_block or {})}.get(figure)
    return None if result is None else result.mean


def _card_failures(card: Scorecard, threshold: Threshold) -> list[GateFailure]:
    figure, minimum = threshold
    measured: list[tuple[str | None, float | None]] = [
        (seat.seat, seat_figure(seat, figure)) for seat in card.seats.values()
    ]
    if figure in RUN_FIGURES:
        measured = [(None, card.state_outcome.check_reward if card.state_outcome else None)]
    return [
        GateFailure(card.run_id, seat, figure, value, minimum)
        for seat, value in measured
        if value is None or value < minimum
    ]


def gate_failures(cards: Sequence[Scorecard], thresholds: Sequence[Threshold]) -> list[GateFailure]:
    """Every (card, seat, threshold) that does not hold, in card then threshold order."""
    return [f for card in cards for t in thresholds for f in _card_failures(card, t)]
