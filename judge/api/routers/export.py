"""The RL trajectory export: per-step actions, rewards and done flags as JSONL."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from judge.api.deps import AgentDep, OwnerDep, SessionDep, SettingsDep
from judge.api.errors import error_responses
from judge.scoring.export import NDJSON_MEDIA_TYPE, TrajectoryStep, to_jsonl
from judge.service.exports import run_trajectory, submission_trajectory

router = APIRouter(tags=["export"])

_DOC = (
    "One JSON object per line, one line per trace step: run_id, seat, agent_id, step, turn, "
    "`action` (the seat's tool calls at that turn: name, args, status), `reward` (the per-turn "
    "scalar reward) with its `components`, and `done` (the seat's last step, or the turn it "
    "declared itself done). Weights are those the run was scored under, else the current "
    "`eval_reward_weights`."
)
_NDJSON: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "JSONL: one TrajectoryStep per line.",
        "content": {NDJSON_MEDIA_TYPE: {"schema": TrajectoryStep.model_json_schema()}},
    }
}


def _ndjson(rows: list[TrajectoryStep]) -> Response:
    return Response(to_jsonl(rows), media_type=NDJSON_MEDIA_TYPE)


@router.get(
    "/api/evals/{run_id}/trajectory", summary="RL trajectory of a run (owner)", response_class=Response,
    description=_DOC + " Every seat of the run.", responses={**_NDJSON, **error_responses(401, 404)},
)
def owner_run_trajectory(run_id: str, owner: OwnerDep, session: SessionDep, settings: SettingsDep) -> Response:
    return _ndjson(run_trajectory(session, run_id=run_id, agent=None, settings=settings))


@router.get(
    "/api/agent/runs/{run_id}/trajectory", summary="RL trajectory of the key's seat (agent key)",
    response_class=Response, description=_DOC + " The key's own seat only.",
    responses={**_NDJSON, **error_responses(401, 404)},
)
def agent_run_trajectory(run_id: str, agent: AgentDep, session: SessionDep, settings: SettingsDep) -> Response:
    return _ndjson(run_trajectory(session, run_id=run_id, agent=agent, settings=settings))


@router.get(
    "/api/evals/submissions/{submission_id}/trajectory", summary="RL trajectories of a submission (owner)",
    response_class=Response, description=_DOC + " The submission agent's seats over every run of it.",
    responses={**_NDJSON, **error_responses(401, 404)},
)
def owner_submission_trajectory(
    submission_id: str, owner: OwnerDep, session: SessionDep, settings: SettingsDep
) -> Response:
    return _ndjson(submission_trajectory(session, submission_id=submission_id, agent=None, settings=settings))


@router.get(
    "/api/agent/submissions/{submission_id}/trajectory",
    summary="RL trajectories of the key's submission (agent key)", response_class=Response,
    description=_DOC + " The key's own seat over every run of its agent's submission.",
    responses={**_NDJSON, **error_responses(401, 404)},
)
def agent_submission_trajectory(
    submission_id: str, agent: AgentDep, session: SessionDep, settings: SettingsDep
) -> Response:
    return _ndjson(submission_trajectory(session, submission_id=submission_id, agent=agent, settings=settings))
