"""The owner and agent views of a scorecard, rendered once as the bytes that are served
(docs/service.md, "Stored scorecard views")."""

from __future__ import annotations

import hashlib
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from judge.core.domain.cost import Cost
from judge.core.domain.review import SafetyReview, SafetyReviewThresholds
from judge.core.domain.scorecard import ParticipationResult, Scorecard, SeatResults
from judge.core.scoring.cost import cost_of
from judge.core.scoring.figures import rounded_json
from judge.server.store.views import OWNER_VIEW, RenderedView, agent_view_name, rendered


class AgentSeatScorecard(SeatResults):
    """One seat's card as its agent sees it: capability traits only, no safety block."""

    participation: ParticipationResult
    cost: Cost | None = Field(
        default=None,
        description="what judging the traits shown here cost (the seat's capability passes)",
    )


class AgentScorecard(BaseModel):
    """The agent view of a scored run: the key's own seat only (the API documents it as
    ``AgentScorecardPublic``; the stored bytes are this model's, field for field)."""

    model_config = ConfigDict(extra="forbid")

    run_id: str
    scenario_id: str
    seed: int | None
    adversary_config: str | None
    seat: AgentSeatScorecard
    participation_gated: bool
    ranked_eligible: bool
    leaderboard_class: str
    judge_model: str
    judge_note: str | None = None
    prompt_version: int
    measurement_era: str = Field(
        description="era id; the full stack (which lists safety rubrics) is owner-only"
    )
    held_for_review: bool = Field(
        default=False,
        description="this seat waits for an owner's review and is left out of leaderboards and "
        "stability until cleared (docs/integrity.md)",
    )


#: Owner-only parts of a seat's card: the safety block, the panel agreement (it spans every
#: trait, safety included) and the integrity findings (they would teach evasion); the seat's
#: cost spans the safety passes too, so the agent's is recounted over what it may see.
_OWNER_ONLY: dict[str, Any] = {
    "safety_block": True,
    "panel": True,
    "tamper": True,
    "cost": True,
    # an adopted calibration map (docs/alignment.md): the agent reads the mapped score as the
    # trait's mean, not the judge's mean before it
    "traits": {"__all__": {"raw_mean", "calibration_map_hash"}},
}
#: What the agent card copies from the run's card as it is (the rest is the seat's own, or
#: the era's id alone: the full stack lists the safety rubrics).
_SHARED = AgentScorecard.model_fields.keys() & Scorecard.model_fields.keys()
_AS_STORED = _SHARED - {"participation_gated", "measurement_era"}


def agent_view(card: Scorecard, seat: str, *, held: bool = False) -> AgentScorecard:
    """The key's seat of ``card``; ``held`` is this seat's review hold, the only integrity word
    an agent reads."""
    mine = card.seats[seat]
    shown = AgentSeatScorecard.model_validate(mine.model_dump(exclude=_OWNER_ONLY))
    if mine.cost is not None:
        passes = [p for t in mine.traits.values() for p in t.passes]
        shown = shown.model_copy(update={"cost": cost_of(passes)})
    return AgentScorecard(
        **card.model_dump(include=_AS_STORED),
        seat=shown,
        participation_gated=mine.participation_gated,
        measurement_era=card.measurement_era.era_id,
        held_for_review=held,
    )


def thresholds_tag(limits: SafetyReviewThresholds) -> str:
    """The configuration an owner view depends on: the review thresholds it was flagged under."""
    return hashlib.sha256(limits.model_dump_json().encode()).hexdigest()[:32]


class ReviewedScorecard(Scorecard):
    """The owner card as served: the run's card with its safety review."""

    safety_review: SafetyReview


def owner_view(card: Scorecard, review: SafetyReview) -> RenderedView:
    """The owner card as served: the card and its review, figures rounded."""
    reviewed = ReviewedScorecard.model_construct(**dict(card), safety_review=review)
    body = rounded_json(reviewed.model_dump_json())
    return rendered(OWNER_VIEW, body, config_tag=thresholds_tag(review.thresholds))


def seat_view(card: Scorecard, seat: str, *, held: bool) -> RenderedView:
    """One seat's agent card as served, figures rounded."""
    body = rounded_json(agent_view(card, seat, held=held).model_dump_json())
    return rendered(agent_view_name(seat), body)


def all_views(card: Scorecard, review: SafetyReview) -> list[RenderedView]:
    """Every view of a scored run: the owner card, then each scored seat's agent card, which
    says ``held_for_review`` only when that seat is held (never another seat's hold)."""
    held = {h.seat for h in review.held_seats if h.held_for_review}
    seats = [seat_view(card, seat, held=seat in held) for seat in card.seats]
    return [owner_view(card, review), *seats]
