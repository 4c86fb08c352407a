"""What each caller may read: run status, the owner scorecard, the agent's own-seat card
(never a safety block, never an integrity finding), and per-turn metrics."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field
from sqlmodel import Session

from judge.auth import AgentIdentity
from judge.domain.config import RewardWeights
from judge.domain.cost import Cost
from judge.domain.judging import TraitResult
from judge.domain.scorecard import Objectives, ParticipationResult, Scorecard
from judge.domain.status import RunStatus
from judge.errors import NotFoundError
from judge.scoring.cost import cost_of
from judge.scoring.metrics import RunMetrics, run_metrics
from judge.scoring.run_summary import held_for_review, tamper_flagged
from judge.service import platform
from judge.service.intake import visible_run
from judge.service.scoring import ScoringSnapshot
from judge.settings import Settings
from judge.store import passes as pass_repo
from judge.store import runs as run_repo
from judge.store import scorecards as scorecard_repo
from judge.store import summaries as summary_repo
from judge.store.tables import RunRow, as_utc


class RunPublic(BaseModel):
    """A run's scoring status."""

    model_config = ConfigDict(extra="forbid")

    run_id: str
    scenario_id: str
    status: RunStatus
    reason: str | None = Field(description="why the run was not scored (not_scored only)")
    passes_done: int
    passes_total: int | None = Field(description="known once scoring has started")
    judge_model: str | None
    ranked_eligible: bool
    leaderboard_class: str
    created_at: datetime
    updated_at: datetime
    scored_at: datetime | None


class RunAccepted(BaseModel):
    """The answer to a submission: where to poll."""

    run_id: str
    status: RunStatus
    created: bool = Field(description="false when the same body was submitted before")
    status_url: str


class AgentSeatScorecard(BaseModel):
    """One seat's card as its agent sees it: capability traits only, no safety block."""

    model_config = ConfigDict(extra="forbid")

    seat: str
    agent_id: str
    objectives: Objectives
    traits: dict[str, TraitResult]
    composite: float | None
    composite_note: str | None = None
    participation: ParticipationResult
    cost: Cost | None = Field(
        default=None,
        description="what judging the traits shown here cost (the seat's capability passes)",
    )


class AgentScorecardPublic(BaseModel):
    """The agent view of a scored run: the key's own seat only."""

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
        description="the run waits for an owner's review and is left out of leaderboards and "
        "stability until cleared (docs/integrity.md)",
    )


def shown_reason(row: RunRow, *, owner: bool) -> str | None:
    """Why the run was not scored: owners also read the internal detail, agents never do."""
    if owner and row.reason and row.reason_detail:
        return f"{row.reason}: {row.reason_detail}"
    return row.reason


def run_public(session: Session, row: RunRow, *, owner: bool = False) -> RunPublic:
    return RunPublic(
        run_id=row.run_id,
        scenario_id=row.scenario_id,
        status=row.status,
        reason=shown_reason(row, owner=owner),
        passes_done=pass_repo.count_passes(session, run_id=row.run_id),
        passes_total=row.passes_total,
        judge_model=row.judge_model,
        ranked_eligible=row.ranked_eligible,
        leaderboard_class=row.leaderboard_class,
        created_at=as_utc(row.created_at),
        updated_at=as_utc(row.updated_at),
        scored_at=as_utc(row.scored_at) if row.scored_at else None,
    )


def run_status(session: Session, *, run_id: str, agent: AgentIdentity | None) -> RunPublic:
    return run_public(
        session, visible_run(session, run_id=run_id, agent=agent), owner=agent is None
    )


def _not_scored_yet(row: RunRow, *, owner: bool) -> NotFoundError:
    reason = shown_reason(row, owner=owner)
    why = f": {reason}" if reason else ""
    return NotFoundError(f"run {row.run_id!r} has no scorecard (status {row.status}{why})")


def owner_scorecard_json(session: Session, *, run_id: str) -> str:
    """The stored owner scorecard as JSON text, served as stored (one indexed read)."""
    text = scorecard_repo.get_scorecard_json(session, run_id=run_id)
    if text is None:
        raise _not_scored_yet(visible_run(session, run_id=run_id, agent=None), owner=True)
    return text


def agent_scorecard(session: Session, *, run_id: str, agent: AgentIdentity) -> AgentScorecardPublic:
    """The key's own seat of a scored run; the safety block is never part of this model."""
    row = visible_run(session, run_id=run_id, agent=agent)
    card = scorecard_repo.get_scorecard(session, run_id=row.run_id)
    if card is None or agent.seat not in card.seats:
        raise (
            _not_scored_yet(row, owner=False)
            if card is None
            else NotFoundError(f"run {run_id!r} not found")
        )
    summary = summary_repo.get_summary(session, run_id=row.run_id)
    state = summary.review_state if summary else None
    return agent_view(card, agent.seat, held=held_for_review(tamper_flagged(card), state))


#: Owner-only parts of a seat's card: the safety block, the panel agreement (it spans every
#: trait, safety included) and the integrity findings (they would teach evasion); the seat's
#: cost spans the safety passes too, so the agent's is recounted over what it may see.
_OWNER_ONLY = {"safety_block", "panel", "tamper", "cost"}


def agent_view(card: Scorecard, seat: str, *, held: bool = False) -> AgentScorecardPublic:
    """The key's seat of ``card``; ``held`` is the run's review hold, the only integrity word an
    agent reads."""
    mine = card.seats[seat]
    shown = AgentSeatScorecard.model_validate(mine.model_dump(exclude=_OWNER_ONLY))
    if mine.cost is not None:
        passes = [p for t in mine.traits.values() for p in t.passes]
        shown = shown.model_copy(update={"cost": cost_of(passes)})
    return AgentScorecardPublic(
        run_id=card.run_id,
        scenario_id=card.scenario_id,
        seed=card.seed,
        adversary_config=card.adversary_config,
        seat=shown,
        participation_gated=mine.participation_gated,
        ranked_eligible=card.ranked_eligible,
        leaderboard_class=card.leaderboard_class,
        judge_model=card.judge_model,
        judge_note=card.judge_note,
        prompt_version=card.prompt_version,
        measurement_era=card.measurement_era.era_id,
        held_for_review=held,
    )


def reward_weights(session: Session, row: RunRow, settings: Settings) -> RewardWeights:
    """The weights the run was scored under, else the current ones."""
    if row.scoring_snapshot_json is not None:
        return ScoringSnapshot.model_validate_json(
            row.scoring_snapshot_json
        ).options.settings.reward_weights
    return platform.measurement_settings(session, settings=settings).reward_weights


def metrics(session: Session, *, run_id: str, settings: Settings) -> RunMetrics:
    row = visible_run(session, run_id=run_id, agent=None)
    return run_metrics(run_repo.stored_run(row), reward_weights(session, row, settings))
