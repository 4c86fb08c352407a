"""Runs: submission, scoring status and listing, one handler each mounted for owners and agent
keys. The submit routes read the body themselves, after the credential, and parse it off the loop.
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Annotated, Any

import anyio
from fastapi import Depends, Query, Request, Response, status
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from sqlmodel import Session

from judge.core.domain.cursor import decode_run_cursor, encode_run_cursor
from judge.core.domain.run import Run, hinted_errors
from judge.core.domain.status import RunStatus
from judge.server.api.caller import Admission, Caller, Mount, mount_both
from judge.server.api.deps import (
    EngineDep,
    OwnerDep,
    SessionDep,
    SettingsDep,
    WorkersDep,
    after_commit,
    credentialed_router,
)
from judge.server.api.errors import error_responses
from judge.server.api.models import RunPublic, RunSummaryPublic, public_list
from judge.server.api.openapi import component_ref
from judge.server.api.paging import PAGED, PagingDep
from judge.server.request_scope import get_engine, in_read
from judge.server.service import budgets
from judge.server.service.intake import submit_run
from judge.server.service.run_listing import RunSummary
from judge.server.service.run_listing import list_runs as listed_runs
from judge.server.service.views import RunAccepted, run_status
from judge.server.store.summaries import Cursor, RunFilters

router = credentialed_router("runs")

_SUBMIT_DOC = (
    "Stores the run whole (or not at all) and queues it for scoring; the answer comes at once. "
    "Idempotent by `run_id`: the same body again answers 200 with the stored run; a different "
    "body under a stored `run_id` answers 409. A run a budget refused before anything was "
    "judged is queued again by the same body (202, `created: false`, `status: queued`). A body that does not match the run format "
    "answers 422 naming the field, and nothing is stored."
)


_RUN_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": component_ref(Run)}},
    }
}
JSON = "application/json"
RUNS = {"owner": "/api/evals/runs", "agent": "/api/agent/runs"}


def parse_run(raw: bytes) -> Run:
    """Validate a run body (run in a worker thread); 422 naming the fields otherwise."""
    try:
        return Run.model_validate_json(raw)
    except ValidationError as exc:
        errors = [
            {**e, "loc": ("body", *e.get("loc", ()))}
            for e in hinted_errors(exc.errors(include_url=False, include_context=False))
        ]
        raise RequestValidationError(errors) from None


async def submit(
    request: Request,
    caller: Caller,
    engine: EngineDep,
    settings: SettingsDep,
    workers: WorkersDep,
    response: Response,
) -> RunAccepted:
    # the body is read after the credential and validated off the event loop
    run = await anyio.to_thread.run_sync(parse_run, await request.body())
    store = partial(
        submit_run,
        engine,
        run=run,
        submitted_by=caller.actor,
        settings=settings,
        agent=caller.agent,
    )
    intake = await anyio.to_thread.run_sync(store)
    status_url = f"{RUNS[caller.audience]}/{intake.run_id}"
    if intake.created or intake.requeued:  # queueing reads the store: off the event loop
        await anyio.to_thread.run_sync(workers.enqueue, intake.run_id)
        response.headers["Location"] = status_url
    else:
        response.status_code = status.HTTP_200_OK
    return RunAccepted(
        run_id=intake.run_id, status=intake.status, created=intake.created, status_url=status_url
    )


_LOCATION = {
    "Location": {
        "description": "The run's status URL (as `status_url`).",
        "schema": {"type": "string"},
    }
}
mount_both(
    router,
    submit,
    method="POST",
    status_code=status.HTTP_202_ACCEPTED,
    openapi_extra=_RUN_BODY,
    responses={
        202: {
            "description": "Stored and queued for scoring (or a budget-refused run queued again).",
            "headers": _LOCATION,
        },
        200: {"model": RunAccepted, "description": "Already stored with this body."},
    },
    owner=Mount(
        RUNS["owner"],
        "Submit a run (owner)",
        _SUBMIT_DOC + " World databases must be relative paths inside JUDGE_SCENARIOS_DIR or "
        "URLs on platform_config `state_database_urls` (else 422).",
        error_responses(409, 422),
    ),
    agent=Mount(
        RUNS["agent"],
        "Submit a run (agent key)",
        _SUBMIT_DOC + " Self-reported: the key's agent must sit, scored, in the key's seat and no "
        "other agent may hold a scored seat (else 403); no world database may be named (else 422). The run "
        "is stored in the agent's namespace: its id is `<agent_id>:<run_id>` (answered as `run_id`), and it "
        "is never ranked (`leaderboard_class: self_reported`).",
        error_responses(403, 409, 422),
    ),
)


async def read_status(run_id: str, admission: Admission, request: Request) -> Response:
    """A hot read: admits its credential itself and answers the model's own JSON."""

    def read(session: Session) -> bytes:
        progress = run_status(session, run_id=run_id, agent=admission.agent(session))
        return RunPublic.model_validate(progress, from_attributes=True).model_dump_json().encode()

    return Response(await in_read(get_engine(request), read), media_type=JSON)


_STATUS_DOC = "queued / scoring / scored / not_scored (with the reason), and passes done so far."
mount_both(
    router,
    read_status,
    method="GET",
    response_model=RunPublic,
    responses=error_responses(404),
    owner=Mount(RUNS["owner"] + "/{run_id}", "Run status (owner)", _STATUS_DOC),
    agent=Mount(
        RUNS["agent"] + "/{run_id}",
        "Run status (agent key)",
        _STATUS_DOC
        + " Only runs where the key's agent sits in the key's seat; any other run answers 404. "
        "The key's own submissions are read by the id it submitted as well as by the stored "
        "`<agent_id>:<run_id>` (a run readable under the id as given comes first).",
    ),
)


def _cursor_of(run: RunSummary) -> str:
    return encode_run_cursor(run.created_at, run.run_id)


async def run_filters(
    status: Annotated[RunStatus | None, Query(description="only runs in this status")] = None,
    scenario: Annotated[
        str | None, Query(max_length=200, description="only this scenario's runs")
    ] = None,
    agent: Annotated[
        str | None, Query(max_length=200, description="only runs this agent sits in")
    ] = None,
    era: Annotated[
        str | None, Query(max_length=40, description="only runs scored in this measurement era")
    ] = None,
    since: Annotated[
        datetime | None, Query(description="only runs submitted at or after this time")
    ] = None,
    until: Annotated[
        datetime | None, Query(description="only runs submitted before this time")
    ] = None,
) -> RunFilters:
    """The filters of a runs list, from its query parameters."""
    return RunFilters(status, scenario, agent, era, created_since=since, created_until=until)


async def list_runs(
    admission: Admission,
    request: Request,
    filters: Annotated[RunFilters, Depends(run_filters)],
    paging: PagingDep,
) -> list[RunSummaryPublic]:
    def read(session: Session) -> list[RunSummaryPublic]:
        me = admission.agent(session)  # the credential before the cursor
        after = Cursor(*decode_run_cursor(paging.cursor)) if paging.cursor else None
        found = listed_runs(session, filters=filters, agent=me, after=after, limit=paging.limit + 1)
        return public_list(RunSummaryPublic, paging.by_fetch(found, _cursor_of))

    return await in_read(get_engine(request), read)


_LIST_DOC = (
    "Newest first, with filters (combined with AND) and keyset paging: at most `limit` runs, and the "
    'next page in the `Link: <…>; rel="next"` header. A bad cursor or time answers 422.'
)
mount_both(
    router,
    list_runs,
    method="GET",
    responses={**PAGED, **error_responses(422)},
    owner=Mount(RUNS["owner"], "List runs (owner)", _LIST_DOC + " Every run."),
    agent=Mount(
        RUNS["agent"],
        "List the key's own runs (agent key)",
        _LIST_DOC
        + " Only the runs this agent submitted itself, in the key's seat (self-reported runs).",
    ),
)


@router.post(
    RUNS["owner"] + "/{run_id}/score-again",
    summary="Score a budget-refused run again (owner)",
    response_model=RunPublic,
    status_code=status.HTTP_202_ACCEPTED,
    responses=error_responses(404, 409),
)
def score_again(
    run_id: str, owner: OwnerDep, session: SessionDep, workers: WorkersDep
) -> RunPublic:
    """Queue a run not scored for `budget` again, once the limit was raised or the day it
    counted against is over: the passes it already paid for are kept and not judged again, and
    the budget is checked afresh when it starts. 409 for a run in any other state."""
    budgets.score_again(session, run_id=run_id)
    after_commit(session, lambda: workers.enqueue(run_id))
    progress = run_status(session, run_id=run_id, agent=None)
    return RunPublic.model_validate(progress, from_attributes=True)
