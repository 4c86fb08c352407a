"""Leaderboards per scenario and measurement era (owner token or agent key)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Query
from sqlmodel import Session

from judge.core.errors import InputError
from judge.server.api.caller import CallerDep
from judge.server.api.deps import EngineDep, SettingsDep, credentialed_router
from judge.server.api.errors import error_responses
from judge.server.api.models import LeaderboardPublic, PairwiseLeaderboardPublic
from judge.server.request_scope import in_read
from judge.server.service.leaderboards import leaderboard
from judge.server.service.pairwise import pairwise_board

router = credentialed_router("leaderboards")

Era = Annotated[str | None, Query(description="measurement era id; omitted: every era, flagged")]
Mode = Annotated[
    Literal["score", "pairwise"], Query(description="score board, or pairwise ratings")
]
Trait = Annotated[str | None, Query(max_length=200, description="with mode=pairwise: the trait")]

_BOARD_DOC = """\
Built from finalized submissions. The `ranked` board holds public ranked submissions;
participation-gated runs are left out and counted per agent (`n_gated_excluded`). Submissions
scored with a custom rubric are listed apart under `self_hosted_facilitator`, and self-reported
ones (runs submitted with an agent key) under `self_reported`; neither is ranked. An agent key
sees other agents' rows without their run ids. Per agent: mean composite, objective met rate
(met over all conditions across runs), runs counted. Rows and ranks are per era; without `era` a
board spanning several eras answers `mixed_eras: true` with the list rather than merging them.
`mode=pairwise&trait=T`: Bradley-Terry ratings from the stored pairwise verdicts on trait T
(docs/scoring.md), one fit per pairwise era (`era` then names a pairwise era), with the same
classes and gates: pairs whose two seats are on the ranked board are ranked, pairs with an
unranked seat are fitted apart without ranks, pairs with a gated seat are left out. An agent key
sees no pairwise board on a safety trait."""


@router.get(
    "/api/leaderboards/{scenario_id}",
    summary="Leaderboard of a scenario (owner token or agent key)",
    description=_BOARD_DOC,
    responses=error_responses(404, 422),
)
async def scenario_leaderboard(
    scenario_id: str,
    caller: CallerDep,
    engine: EngineDep,
    settings: SettingsDep,
    era: Era = None,
    mode: Mode = "score",
    trait: Trait = None,
) -> LeaderboardPublic | PairwiseLeaderboardPublic:
    viewer = caller.agent.agent_id if caller.agent is not None else None
    if mode == "pairwise" and trait is None:
        raise InputError("trait: mode=pairwise needs a trait, e.g. trait=negotiation")

    def read(session: Session) -> LeaderboardPublic | PairwiseLeaderboardPublic:
        if trait is not None and mode == "pairwise":
            pairs = pairwise_board(
                session,
                scenario_id=scenario_id,
                trait=trait,
                era_id=era,
                settings=settings,
                agent_view=viewer is not None,
            )
            return PairwiseLeaderboardPublic.model_validate(pairs.model_dump())
        board = leaderboard(session, scenario_id=scenario_id, era_id=era, viewer=viewer)
        return LeaderboardPublic.model_validate(board.model_dump())

    return await in_read(engine, read)
