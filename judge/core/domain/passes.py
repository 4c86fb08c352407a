"""How many judge passes a trait gets: a fixed count, or an adaptive policy (docs/scoring.md).
With a judge panel a round is the next judge's ``floor`` passes, so disagreement escalates to
another judge instead of more passes of the same one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field, model_validator

from judge.core.domain.outputs import Output, Strict

#: Why a trait took the passes it took.
PassReason = Literal["agreed", "disagreed", "too_few_scored"]


def spread_of(scores: Sequence[float]) -> float | None:
    """The spread of ``scores``: highest minus lowest (None without a score)."""
    return max(scores) - min(scores) if scores else None


class PassPolicy(Strict):
    """``floor`` passes on every trait, up to ``max`` on a trait whose passes range over
    more than ``spread``."""

    floor: int = Field(default=5, ge=1, le=50, description="passes every trait gets")
    max: int = Field(ge=1, le=200, description="most passes a trait may take")
    spread: float = Field(
        ge=0.0,
        le=1.0,
        description="a trait whose spread (highest minus lowest score; expected scores when "
        "every pass has a distribution) exceeds this after a round gets another round",
    )

    @model_validator(mode="after")
    def _max_not_below_floor(self) -> PassPolicy:
        if self.max < self.floor:
            raise ValueError(f"passes: max ({self.max}) is below floor ({self.floor})")
        return self

    @property
    def adaptive(self) -> bool:
        return self.max > self.floor


class PassDecision(Output):
    """What an adaptive policy did on one trait: the card's "how many passes, and why"."""

    passes: int = Field(description="passes the trait took")
    rounds: int = Field(description="rounds of passes, the floor's included")
    spread: float | None = Field(
        description="highest minus lowest score the decision was taken on (None: fewer than "
        "two scored passes)"
    )
    reason: PassReason
    note: str
