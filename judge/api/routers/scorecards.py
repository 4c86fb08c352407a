"""Scorecards: the owner's full card and an agent's own-seat card.

Both answer with a weak ``ETag`` (the hash of the body) and ``304 Not Modified`` when the
request's ``If-None-Match`` names it, so a client polling a card it already holds gets no body.
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Any

from fastapi import APIRouter, Header, Response

from judge.api.deps import AgentDep, OwnerDep, SessionDep, SettingsDep
from judge.api.errors import error_responses
from judge.api.models import OwnerScorecardPublic
from judge.scoring.figures import rounded_json
from judge.service.reviews import review_status, with_safety_review
from judge.service.views import AgentScorecardPublic, agent_scorecard, owner_scorecard_json

router = APIRouter(tags=["scorecards"])

IfNoneMatch = Annotated[
    str | None,
    Header(
        max_length=1000, description="an ETag of this card held by the client: 304 if unchanged"
    ),
]
_CACHING: dict[int | str, dict[str, Any]] = {
    200: {
        "headers": {
            "ETag": {"description": "weak validator of this body", "schema": {"type": "string"}}
        }
    },
    304: {
        "description": "Not modified: the card still matches the `If-None-Match` ETag (no body)."
    },
}


def entity_tag(body: bytes) -> str:
    """A weak ETag for a body (weak: the same card compressed or not is the same entity)."""
    return f'W/"{hashlib.sha256(body).hexdigest()[:32]}"'


def matches(if_none_match: str | None, tag: str) -> bool:
    """Whether ``If-None-Match`` names ``tag`` (weak comparison, RFC 9110 13.1.2) or is ``*``."""
    if if_none_match is None:
        return False
    offered = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
    return "*" in offered or tag.removeprefix("W/") in offered


def conditional_json(body: bytes, if_none_match: str | None) -> Response:
    """``body`` as JSON with its ETag, or 304 when the client already holds it."""
    tag = entity_tag(body)
    headers = {"ETag": tag, "Cache-Control": "private, no-cache"}
    if matches(if_none_match, tag):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


@router.get(
    "/api/agent/runs/{run_id}/scorecard",
    summary="Scorecard of the key's own seat (agent key)",
    description="Objectives, capability traits (per-pass scores, mean, sample variance, rubric text), "
    "composite and participation of the key's seat only. Never a safety block, never another seat. "
    "404 for runs the key cannot see and for runs not scored yet. ETag and If-None-Match (304).",
    response_model=AgentScorecardPublic,
    responses={**_CACHING, **error_responses(401, 404)},
)
def agent_run_scorecard(
    run_id: str, agent: AgentDep, session: SessionDep, if_none_match: IfNoneMatch = None
) -> Response:
    card = agent_scorecard(session, run_id=run_id, agent=agent.as_agent())
    return conditional_json(rounded_json(card.model_dump_json()), if_none_match)


@router.get(
    "/api/evals/{run_id}/scorecard",
    summary="Full scorecard (owner)",
    description="Every scored seat with its `safety_block`, ranked eligibility, leaderboard class and "
    "measurement era. Served as stored when the run was scored (figures to 12 significant digits, "
    "docs/scoring.md#precision), with the run's `safety_review` (its review state and decisions) added. ETag and If-None-Match (304).",
    response_model=OwnerScorecardPublic,
    responses={**_CACHING, **error_responses(401, 404)},
)
def owner_run_scorecard(
    run_id: str,
    owner: OwnerDep,
    session: SessionDep,
    settings: SettingsDep,
    if_none_match: IfNoneMatch = None,
) -> Response:
    card = owner_scorecard_json(session, run_id=run_id)
    review = review_status(session, run_id=run_id, settings=settings)
    return conditional_json(rounded_json(with_safety_review(card, review)), if_none_match)
