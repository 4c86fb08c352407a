"""Runs: submission (agent or owner) and scoring status.

The submit routes authenticate first and only then read the body: the credential is a
dependency, and the body is read by the route itself (there is no body parameter, which
FastAPI would read and parse before any dependency). Parsing and validation run in a worker
thread, never on the event loop, and so does the store work.
"""

from __future__ import annotations

from typing import Any

import anyio
from fastapi import APIRouter, FastAPI, Request, Response, status
from fastapi.exceptions import RequestValidationError
from pydantic import TypeAdapter, ValidationError

from judge.api.deps import AgentDep, EngineDep, OwnerDep, SessionDep, SettingsDep, WorkersDep
from judge.api.errors import error_responses
from judge.auth import AgentIdentity
from judge.domain.run import Run
from judge.service.intake import Intake, submit_run
from judge.service.views import RunAccepted, RunPublic, run_status

router = APIRouter(tags=["runs"])

_SUBMIT_DOC = (
    "Stores the run whole (or not at all) and queues it for scoring; the answer comes at once. "
    "Idempotent by `run_id`: the same body again answers 200 with the stored run; a different "
    "body under a stored `run_id` answers 409. A body that does not match the run format "
    "answers 422 naming the field, and nothing is stored."
)


_REF = "#/components/schemas/{model}"
_RUN_BODY: dict[str, Any] = {
    "requestBody": {"required": True, "content": {"application/json": {"schema": {"$ref": _REF.format(model="Run")}}}}
}


def parse_run(raw: bytes) -> Run:
    """Validate a run body (run in a worker thread); 422 naming the fields otherwise."""
    try:
        return Run.model_validate_json(raw)
    except ValidationError as exc:
        errors = [{**e, "loc": ("body", *e.get("loc", ()))} for e in exc.errors(include_url=False, include_context=False)]
        raise RequestValidationError(errors) from None


async def read_run(request: Request) -> Run:
    """The request's run, read after authentication and validated off the event loop."""
    raw = await request.body()
    return await anyio.to_thread.run_sync(parse_run, raw)


async def _submit(
    request: Request, engine: EngineDep, settings: SettingsDep, submitted_by: str, agent: AgentIdentity | None
) -> Intake:
    run = await read_run(request)

    def store() -> Intake:
        return submit_run(engine, run=run, submitted_by=submitted_by, settings=settings, agent=agent)

    return await anyio.to_thread.run_sync(store)


def publish_run_schema(app: FastAPI) -> None:
    """Add the run format to the OpenAPI components (the submit routes read it themselves)."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = build()
        run = TypeAdapter(Run).json_schema(ref_template=_REF)
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        for name, definition in run.pop("$defs", {}).items():
            components.setdefault(name, definition)
        components["Run"] = run
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def _accepted(intake: Intake, response: Response, workers: WorkersDep, base: str) -> RunAccepted:
    if intake.created:
        workers.enqueue(intake.run_id)
    else:
        response.status_code = status.HTTP_200_OK
    return RunAccepted(
        run_id=intake.run_id, status=intake.status, created=intake.created,
        status_url=f"{base}/{intake.run_id}",
    )


@router.post(
    "/api/agent/runs",
    status_code=status.HTTP_202_ACCEPTED,
    summary="Submit a run (agent key)",
    description=_SUBMIT_DOC + " Self-reported: the key's agent must sit, scored, in the key's seat and no "
    "other agent may hold a scored seat (else 403); no world database may be named (else 422). The run "
    "is stored in the agent's namespace: its id is `<agent_id>:<run_id>` (answered as `run_id`), and it "
    "is never ranked (`leaderboard_class: self_reported`).",
    responses={200: {"model": RunAccepted, "description": "Already stored with this body."},
               **error_responses(401, 403, 409, 422)},
    openapi_extra=_RUN_BODY,
)
async def submit_agent_run(
    request: Request, agent: AgentDep, engine: EngineDep, settings: SettingsDep, workers: WorkersDep, response: Response
) -> RunAccepted:
    intake = await _submit(request, engine, settings, f"agent:{agent.agent_id}", agent)
    return _accepted(intake, response, workers, "/api/agent/runs")


@router.post(
    "/api/evals/runs",
    status_code=status.HTTP_202_ACCEPTED,
    summary="Submit a run (owner)",
    description=_SUBMIT_DOC + " World databases must be relative paths inside JUDGE_SCENARIOS_DIR or "
    "URLs on platform_config `state_database_urls` (else 422).",
    responses={200: {"model": RunAccepted, "description": "Already stored with this body."},
               **error_responses(401, 409, 422)},
    openapi_extra=_RUN_BODY,
)
async def submit_owner_run(
    request: Request, owner: OwnerDep, engine: EngineDep, settings: SettingsDep, workers: WorkersDep, response: Response
) -> RunAccepted:
    intake = await _submit(request, engine, settings, f"owner:{owner.owner}", None)
    return _accepted(intake, response, workers, "/api/evals/runs")


@router.get(
    "/api/agent/runs/{run_id}",
    summary="Run status (agent key)",
    description="queued / scoring / scored / not_scored (with the reason), and passes done so far. "
    "Only runs where the key's agent sits in the key's seat; any other run answers 404.",
    responses=error_responses(401, 404),
)
def agent_run_status(run_id: str, agent: AgentDep, session: SessionDep) -> RunPublic:
    return run_status(session, run_id=run_id, agent=agent)


@router.get(
    "/api/evals/runs/{run_id}",
    summary="Run status (owner)",
    description="queued / scoring / scored / not_scored (with the reason), and passes done so far.",
    responses=error_responses(401, 404),
)
def owner_run_status(run_id: str, owner: OwnerDep, session: SessionDep) -> RunPublic:
    return run_status(session, run_id=run_id, agent=None)
