"""Submissions: one handler per operation, mounted for owners (every submission) and agent keys
(their own agent's; others answer 404)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import status

from judge.server.api.caller import Caller, Endpoint, Mount, mount_both
from judge.server.api.deps import SessionDep, SettingsDep, credentialed_router
from judge.server.api.errors import error_responses
from judge.server.api.models import SubmissionPublic
from judge.server.service.submissions import (
    SubmissionCreate,
    SubmissionFinalize,
    SubmissionRunsAdd,
    add_runs,
    create_submission,
    finalize,
    read_submission,
)

router = credentialed_router("submissions", responses=error_responses(404))
SUBMISSIONS = {"owner": "/api/evals/submissions", "agent": "/api/agent/submissions"}

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
_WRITES = error_responses(409, 422)


def _operation(
    method: str, tail: str, action: str, doc: str, agent_doc: str | None = None, **shared: Any
) -> Callable[[Endpoint], Endpoint]:
    """Mount the handler for both audiences at ``tail`` under their submissions paths."""

    def mount(endpoint: Endpoint) -> Endpoint:
        owner = Mount(SUBMISSIONS["owner"] + tail, f"{action} (owner)", doc)
        agent = Mount(SUBMISSIONS["agent"] + tail, f"{action} (agent key)", agent_doc or doc)
        mount_both(router, endpoint, method=method, owner=owner, agent=agent, **shared)
        return endpoint

    return mount


@_operation(
    "POST",
    "",
    "Open a submission",
    _CREATE_DOC + " The owner names the `agent_id`.",
    _CREATE_DOC + " For the key's own agent; only runs the agent sits in.",
    status_code=status.HTTP_201_CREATED,
    responses=_WRITES,
)
def create(body: SubmissionCreate, caller: Caller, session: SessionDep) -> SubmissionPublic:
    created = create_submission(session, body=body, by=caller.actor, agent=caller.agent)
    return SubmissionPublic.model_validate(created, from_attributes=True)


_READ_DOC = "Its runs, status and, once finalized, the finalization decision with its flags."


@_operation(
    "GET",
    "/{submission_id}",
    "Read a submission",
    _READ_DOC,
    _READ_DOC + " The key's own agent's submissions only.",
)
def read(submission_id: str, caller: Caller, session: SessionDep) -> SubmissionPublic:
    found = read_submission(session, submission_id=submission_id, agent=caller.agent)
    return SubmissionPublic.model_validate(found, from_attributes=True)


@_operation(
    "POST", "/{submission_id}/runs", "Add runs to a submission", _ADD_DOC, responses=_WRITES
)
def add(
    submission_id: str, body: SubmissionRunsAdd, caller: Caller, session: SessionDep
) -> SubmissionPublic:
    added = add_runs(session, submission_id=submission_id, body=body, agent=caller.agent)
    return SubmissionPublic.model_validate(added, from_attributes=True)


@_operation(
    "POST", "/{submission_id}/finalize", "Finalize a submission", _FINALIZE_DOC, responses=_WRITES
)
def finalize_one(
    submission_id: str,
    body: SubmissionFinalize,
    caller: Caller,
    session: SessionDep,
    settings: SettingsDep,
) -> SubmissionPublic:
    final = finalize(
        session, submission_id=submission_id, body=body, agent=caller.agent, settings=settings
    )
    return SubmissionPublic.model_validate(final, from_attributes=True)
