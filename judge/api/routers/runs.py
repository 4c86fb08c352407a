"""Runs: submission (agent or owner) and scoring status."""

from __future__ import annotations

from fastapi import APIRouter, Response, status

from judge.api.deps import AgentDep, EngineDep, OwnerDep, SessionDep, WorkersDep
from judge.api.errors import error_responses
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
    description=_SUBMIT_DOC + " The key's agent must sit in the key's seat in `seats` (else 403).",
    responses={200: {"model": RunAccepted, "description": "Already stored with this body."},
               **error_responses(401, 403, 409, 422)},
)
def submit_agent_run(run: Run, agent: AgentDep, engine: EngineDep, workers: WorkersDep, response: Response) -> RunAccepted:
    intake = submit_run(engine, run=run, submitted_by=f"agent:{agent.agent_id}", agent=agent)
    return _accepted(intake, response, workers, "/api/agent/runs")


@router.post(
    "/api/evals/runs",
    status_code=status.HTTP_202_ACCEPTED,
    summary="Submit a run (owner)",
    description=_SUBMIT_DOC,
    responses={200: {"model": RunAccepted, "description": "Already stored with this body."},
               **error_responses(401, 409, 422)},
)
def submit_owner_run(run: Run, owner: OwnerDep, engine: EngineDep, workers: WorkersDep, response: Response) -> RunAccepted:
    intake = submit_run(engine, run=run, submitted_by=f"owner:{owner.owner}")
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
