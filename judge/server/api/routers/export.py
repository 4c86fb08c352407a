"""The RL trajectory export as JSONL, mounted for owners (every seat) and agent keys (their own)."""

from __future__ import annotations

from typing import Any

from fastapi import Response

from judge.core.scoring.trajectories import NDJSON_MEDIA_TYPE, TrajectoryStep, to_jsonl
from judge.server.api.caller import Caller, Mount, mount_both
from judge.server.api.deps import SessionDep, SettingsDep, credentialed_router
from judge.server.api.errors import error_responses
from judge.server.api.openapi import component_ref
from judge.server.service.trajectories import run_trajectory, submission_trajectory

router = credentialed_router("export")

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
        "content": {NDJSON_MEDIA_TYPE: {"schema": component_ref(TrajectoryStep)}},
    },
    **error_responses(404),
}


def _ndjson(rows: list[TrajectoryStep]) -> Response:
    return Response(to_jsonl(rows), media_type=NDJSON_MEDIA_TYPE)


def run_steps(run_id: str, caller: Caller, session: SessionDep, settings: SettingsDep) -> Response:
    return _ndjson(run_trajectory(session, run_id=run_id, agent=caller.agent, settings=settings))


mount_both(
    router,
    run_steps,
    method="GET",
    response_class=Response,
    responses=_NDJSON,
    owner=Mount(
        "/api/evals/{run_id}/trajectory",
        "RL trajectory of a run (owner)",
        _DOC + " Every seat of the run.",
    ),
    agent=Mount(
        "/api/agent/runs/{run_id}/trajectory",
        "RL trajectory of the key's seat (agent key)",
        _DOC + " The key's own seat only.",
    ),
)


def submission_steps(
    submission_id: str, caller: Caller, session: SessionDep, settings: SettingsDep
) -> Response:
    rows = submission_trajectory(
        session, submission_id=submission_id, agent=caller.agent, settings=settings
    )
    return _ndjson(rows)


mount_both(
    router,
    submission_steps,
    method="GET",
    response_class=Response,
    responses=_NDJSON,
    owner=Mount(
        "/api/evals/submissions/{submission_id}/trajectory",
        "RL trajectories of a submission (owner)",
        _DOC + " The submission agent's seats over every run of it.",
    ),
    agent=Mount(
        "/api/agent/submissions/{submission_id}/trajectory",
        "RL trajectories of the key's submission (agent key)",
        _DOC + " The key's own seat over every run of its agent's submission.",
    ),
)
