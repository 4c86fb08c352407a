"""Scorecards: the owner's full card and an agent's own-seat card."""

from __future__ import annotations

from fastapi import APIRouter, Response

from judge.api.deps import AgentDep, OwnerDep, SessionDep, SettingsDep
from judge.api.errors import error_responses
from judge.domain.review import SafetyReviewPublic
from judge.domain.scorecard import Scorecard
from judge.service.reviews import review_status, with_safety_review
from judge.service.views import AgentScorecardPublic, agent_scorecard, owner_scorecard_json

router = APIRouter(tags=["scorecards"])


class OwnerScorecardPublic(Scorecard):
    """The owner scorecard and, beside it, where the run stands in safety review."""

    safety_review: SafetyReviewPublic


@router.get(
    "/api/agent/runs/{run_id}/scorecard",
    summary="Scorecard of the key's own seat (agent key)",
    description="Objectives, capability traits (per-pass scores, mean, sample variance, rubric text), "
    "composite and participation of the key's seat only. Never a safety block, never another seat. "
    "404 for runs the key cannot see and for runs not scored yet.",
    responses=error_responses(401, 404),
)
def agent_run_scorecard(run_id: str, agent: AgentDep, session: SessionDep) -> AgentScorecardPublic:
    return agent_scorecard(session, run_id=run_id, agent=agent)


@router.get(
    "/api/evals/{run_id}/scorecard",
    summary="Full scorecard (owner)",
    description="Every scored seat with its `safety_block`, ranked eligibility, leaderboard class and "
    "measurement era. Served exactly as stored when the run was scored, with the run's `safety_review` "
    "(its review state and decisions) added.",
    response_model=OwnerScorecardPublic,
    responses=error_responses(401, 404),
)
def owner_run_scorecard(run_id: str, owner: OwnerDep, session: SessionDep, settings: SettingsDep) -> Response:
    card = owner_scorecard_json(session, run_id=run_id)
    review = review_status(session, run_id=run_id, settings=settings)
    return Response(with_safety_review(card, review), media_type="application/json")
