"""Submissions: a set of runs by one agent on one scenario, and its finalization.

Owner routes act on every submission; agent-key routes only on the key's own agent's (other
submissions answer 404, like missing ones).
"""

from __future__ import annotations

from fastapi import APIRouter, status

from judge.api.deps import AgentDep, OwnerDep, SessionDep, SettingsDep
from judge.api.errors import error_responses
from judge.service.submissions import (
    SubmissionCreate,
    SubmissionFinalize,
    SubmissionPublic,
    SubmissionRunsAdd,
    add_runs,
    create_submission,
    finalize,
    read_submission,
)

router = APIRouter(tags=["submissions"])

_CREATE_DOC = (
    "Opens a submission: a set of runs by one agent on one scenario. `run_ids` may be given now "
    "or added later; each run must exist, be on the scenario and seat the agent in a scored seat "
    "(else 422). A taken `submission_id` answers 409."
)
_ADD_DOC = "Adds runs to an open submission (runs already in it are kept once). A finalized one answers 409."
_FINALIZE_DOC = (
    "Every run must be scored (else 409). Stamps the measurement era the runs were scored in "
    "(runs from different eras are refused with 422, naming each era; an era older than the "
    "current one is accepted and flagged), marks the submission `incomplete` when a run of the "
    "agent was participation-gated, sets `ranked_eligible` and `leaderboard_class` "
    "(`self_hosted_facilitator` when any run used a custom rubric) and the visibility: such a "
    "submission may only be `unlisted`, and asking for `public` answers 422."
)


@router.post(
    "/api/evals/submissions", status_code=status.HTTP_201_CREATED, summary="Open a submission (owner)",
    description=_CREATE_DOC + " The owner names the `agent_id`.", responses=error_responses(401, 404, 409, 422),
)
def owner_create(body: SubmissionCreate, owner: OwnerDep, session: SessionDep) -> SubmissionPublic:
    return create_submission(session, body=body, by=f"owner:{owner.owner}", agent=None)


@router.post(
    "/api/agent/submissions", status_code=status.HTTP_201_CREATED, summary="Open a submission (agent key)",
    description=_CREATE_DOC + " For the key's own agent; only runs the agent sits in.",
    responses=error_responses(401, 404, 409, 422),
)
def agent_create(body: SubmissionCreate, agent: AgentDep, session: SessionDep) -> SubmissionPublic:
    return create_submission(session, body=body, by=f"agent:{agent.agent_id}", agent=agent)


@router.get(
    "/api/evals/submissions/{submission_id}", summary="Read a submission (owner)",
    description="Its runs, status and, once finalized, the finalization decision with its flags.",
    responses=error_responses(401, 404),
)
def owner_read(submission_id: str, owner: OwnerDep, session: SessionDep) -> SubmissionPublic:
    return read_submission(session, submission_id=submission_id, agent=None)


@router.get(
    "/api/agent/submissions/{submission_id}", summary="Read a submission (agent key)",
    description="The key's own agent's submissions only.", responses=error_responses(401, 404),
)
def agent_read(submission_id: str, agent: AgentDep, session: SessionDep) -> SubmissionPublic:
    return read_submission(session, submission_id=submission_id, agent=agent)


@router.post(
    "/api/evals/submissions/{submission_id}/runs", summary="Add runs to a submission (owner)",
    description=_ADD_DOC, responses=error_responses(401, 404, 409, 422),
)
def owner_add(submission_id: str, body: SubmissionRunsAdd, owner: OwnerDep, session: SessionDep) -> SubmissionPublic:
    return add_runs(session, submission_id=submission_id, body=body, agent=None)


@router.post(
    "/api/agent/submissions/{submission_id}/runs", summary="Add runs to a submission (agent key)",
    description=_ADD_DOC, responses=error_responses(401, 404, 409, 422),
)
def agent_add(submission_id: str, body: SubmissionRunsAdd, agent: AgentDep, session: SessionDep) -> SubmissionPublic:
    return add_runs(session, submission_id=submission_id, body=body, agent=agent)


@router.post(
    "/api/evals/submissions/{submission_id}/finalize", summary="Finalize a submission (owner)",
    description=_FINALIZE_DOC, responses=error_responses(401, 404, 409, 422),
)
def owner_finalize(
    submission_id: str, body: SubmissionFinalize, owner: OwnerDep, session: SessionDep, settings: SettingsDep
) -> SubmissionPublic:
    return finalize(session, submission_id=submission_id, body=body, agent=None, settings=settings)


@router.post(
    "/api/agent/submissions/{submission_id}/finalize", summary="Finalize a submission (agent key)",
    description=_FINALIZE_DOC, responses=error_responses(401, 404, 409, 422),
)
def agent_finalize(
    submission_id: str, body: SubmissionFinalize, agent: AgentDep, session: SessionDep, settings: SettingsDep
) -> SubmissionPublic:
    return finalize(session, submission_id=submission_id, body=body, agent=agent, settings=settings)
