"""Selective escalation (docs/escalation.md): how sure the judge is of a verdict, the threshold
an owner's target agreement sets per trait, and who decided each seat-trait. Owner-only: no
agent view carries any of it."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from judge.core.domain.outputs import Output, Strict

#: Who settles an item below the threshold: the next judge of a panel, or the owners.
EscalatedTo = Literal["panel", "owners"]
#: The reason an escalated item carries into the labelling queue.
LOW_CONFIDENCE = "low judge confidence"
#: What ``decided_by`` says of an item left to the owners' labels.
OWNERS = "owners"


class Confidence(Output):
    """How sure a verdict is, from what its passes hold: one minus the largest of its terms."""

    value: float = Field(ge=0.0, le=1.0, description="1 - max(the terms present); 0 without any")
    spread: float | None = Field(description="highest minus lowest scored pass")
    entropy: float | None = Field(
        description="mean within-pass entropy over the grid divided by log2(11), where the "
        "backend gave probabilities"
    )
    panel: float | None = Field(description="highest minus lowest judge mean of a panel")


class EscalationTargetCreate(Strict):
    """What an owner asks for one trait: agreement at least ``target`` on the items kept."""

    target: float = Field(gt=0.0, le=1.0, description="anchor agreement wanted on kept items")
    risk: float = Field(
        default=0.1,
        gt=0.0,
        lt=0.5,
        description="chance allowed that the true agreement on kept items is below the target "
        "(the lower bound is Clopper-Pearson at 1 - risk)",
    )
    seed: int = Field(default=0, ge=0, description="the run split's seed")


class CurvePoint(Output):
    """Keeping the items whose confidence is at least ``threshold``: how many, how they agree."""

    threshold: float
    coverage: float = Field(description="share of the split's items kept")
    agreement: float | None = Field(description="anchor agreement on the kept items")
    n_kept: int


class SplitFigures(Output):
    """One split's items at the chosen threshold."""

    n_items: int
    n_runs: int
    coverage: float = Field(description="share kept (0 when no threshold was found)")
    agreement: float | None = Field(description="anchor agreement on the kept items")
    lower_bound: float | None = Field(
        default=None, description="Clopper-Pearson lower bound at 1 - risk of that agreement"
    )


class TraitEscalation(Output):
    """A trait's stored escalation: the owner's target and what the labels made of it."""

    trait: str
    target: float
    risk: float
    seed: int
    measure: str = Field(
        default="anchor agreement",
        description="judge score and owners' mean, each put on the nearest anchor, are equal",
    )
    threshold: float | None = Field(
        description="least confidence kept; None when no threshold reaches the target "
        "(then every item escalates: coverage 0)"
    )
    reachable: bool
    note: str
    selection: SplitFigures
    held_out: SplitFigures
    held_out_meets_target: bool = Field(
        description="the held-out agreement on kept items is at least the target"
    )
    curve_selection: list[CurvePoint]
    curve_held_out: list[CurvePoint]
    set_by: str
    set_at: datetime


class Decision(Output):
    """Who decided one seat-trait of a card, and how sure the verdict was."""

    seat: str
    trait: str
    confidence: Confidence
    threshold: float | None = Field(description="the trait's threshold; None: no target set")
    decided_by: str = Field(
        description="the judge model (or panel) whose verdict stands, or owners"
    )
    score: float | None = Field(description="the deciding verdict; None when left to owners")
    escalated_to: EscalatedTo | None = None
    reason: str | None = None
