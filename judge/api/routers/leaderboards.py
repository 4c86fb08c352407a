"""Leaderboards per scenario and measurement era (owner token or agent key)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from judge.api.caller import CallerDep
from judge.api.deps import SessionDep
from judge.api.errors import error_responses
from judge.scoring.leaderboard import Leaderboard
from judge.service.leaderboards import leaderboard

router = APIRouter(tags=["leaderboards"])


class LeaderboardPublic(Leaderboard):
    """A scenario's ranked board and, apart, its self-hosted facilitator class."""


@router.get(
    "/api/leaderboards/{scenario_id}",
    summary="Leaderboard of a scenario (owner token or agent key)",
    description="Built from finalized submissions. The `ranked` board holds public ranked submissions; "
    "participation-gated runs are left out and counted per agent (`n_gated_excluded`). Submissions "
    "scored with a custom rubric are listed apart under `self_hosted_facilitator`, and self-reported ones "
    "(runs submitted with an agent key) under `self_reported`; neither is ranked. An agent key sees "
    "other agents' rows without their run ids. Per "
    "agent: mean composite, objective met rate (met over all conditions across runs), runs counted. "
    "Rows and ranks are per era; without `era` a board spanning several eras answers "
    "`mixed_eras: true` with the list rather than merging them.",
    responses=error_responses(401),
)
def scenario_leaderboard(
    scenario_id: str,
    caller: CallerDep,
    session: SessionDep,
    era: Annotated[
        str | None, Query(description="measurement era id; omitted: every era, flagged")
    ] = None,
) -> LeaderboardPublic:
    viewer = caller.agent.agent_id if caller.agent is not None else None
    board = leaderboard(session, scenario_id=scenario_id, era_id=era, viewer=viewer)
    return LeaderboardPublic.model_validate(board.model_dump())
