"""Run intake: store a submitted run whole (or not at all), idempotently by run_id, and
decide which runs a caller may see (who may submit what: docs/security.md, "Self-reported runs")."""

from __future__ import annotations

import hashlib
import json
from typing import NamedTuple

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from judge.core.domain.run import Run
from judge.core.errors import AuthError, ConflictError, InputError, NotFoundError
from judge.engine.settings import Settings
from judge.server.auth import AgentIdentity
from judge.server.service import budgets, platform
from judge.server.service.worlds import check_world
from judge.server.store import runs as run_repo
from judge.server.store.db import transaction
from judge.server.store.tables import RunRow

NAMESPACE_SEPARATOR = ":"
MAX_STORED_ID = 200


class SeatMismatchError(AuthError):
    """An agent key submitted a run it may not submit (403)."""


class Intake(NamedTuple):
    run_id: str
    created: bool
    status: str
    #: a budget-refused run with nothing judged, queued again by the same body sent again
    requeued: bool = False


class CanonicalBody(NamedTuple):
    text: str
    sha256: str


def canonical_body(run: Run) -> CanonicalBody:
    """The run as canonical JSON (sorted keys, defaults filled): equal runs hash equal."""
    text = json.dumps(run.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return CanonicalBody(text, hashlib.sha256(text.encode()).hexdigest())


def require_own_seat(run: Run, agent: AgentIdentity) -> None:
    """An agent key's run seats its agent, scored, in the key's seat, and scores no other agent."""
    if not any(
        s.seat == agent.seat and s.agent_id == agent.agent_id and s.scored for s in run.seats
    ):
        raise SeatMismatchError(
            f"seats: this key is for agent {agent.agent_id!r} in seat {agent.seat!r}, "
            "which the run does not list as a scored seat; submit it with an owner token instead"
        )
    others = sorted(s.seat for s in run.seats if s.scored and s.agent_id != agent.agent_id)
    if others:
        raise SeatMismatchError(
            f"seats: {others} name other agents as scored seats; a run submitted with an agent key "
            "may only score its own agent: mark those seats scored: false, or submit with an owner token"
        )


def stored_run_id(run_id: str, agent: AgentIdentity | None) -> str:
    """The id a run is stored under: the owner's as given, an agent's in its namespace."""
    if agent is None:
        return run_id
    if NAMESPACE_SEPARATOR in run_id:
        raise InputError(
            f"run_id: {run_id!r} may not contain {NAMESPACE_SEPARATOR!r} when submitted with an agent key"
        )
    stored = f"{agent.agent_id}{NAMESPACE_SEPARATOR}{run_id}"
    if len(stored) > MAX_STORED_ID:
        raise InputError(
            f"run_id: with the agent id in front it is longer than {MAX_STORED_ID} characters; use a shorter one"
        )
    return stored


def _existing(session: Session, row: RunRow, body: CanonicalBody) -> Intake:
    """The stored run for the same body again; a budget-refused one with nothing judged is
    queued again (docs/service.md, "Budgets")."""
    if row.body_sha256 != body.sha256:
        raise ConflictError(
            f"run_id: {row.run_id!r} was already submitted with a different body; "
            "use a new run_id for a different run"
        )
    if budgets.requeue_if_unjudged(session, row=row):
        return Intake(row.run_id, created=False, status="queued", requeued=True)
    return Intake(row.run_id, created=False, status=row.status)


def submit_run(
    engine: Engine,
    *,
    run: Run,
    submitted_by: str,
    settings: Settings,
    agent: AgentIdentity | None = None,
) -> Intake:
    """Store a new queued run, or return the stored one when the same body comes again
    (ConflictError for a different body); one connection at a time, none across steps."""
    if agent is not None:
        require_own_seat(run, agent)
    run_id = stored_run_id(run.run_id, agent)
    body = canonical_body(run)
    with transaction(engine) as session:
        check_world(
            run,
            policy=platform.world_policy(session, settings=settings),
            self_reported=agent is not None,
        )
        row = run_repo.get_run(session, run_id=run_id)
        if row is not None:
            return _existing(session, row, body)
    return _insert(engine, run=run, run_id=run_id, body=body, submitted_by=submitted_by)


def _insert(
    engine: Engine, *, run: Run, run_id: str, body: CanonicalBody, submitted_by: str
) -> Intake:
    try:
        with transaction(engine) as session:
            run_repo.insert_run(
                session,
                run=run,
                run_id=run_id,
                body_json=body.text,
                body_sha256=body.sha256,
                submitted_by=submitted_by,
            )
    except IntegrityError:  # the same run_id arrived concurrently
        with transaction(engine) as session:
            row = run_repo.get_run(session, run_id=run_id)
            if row is None:
                raise LookupError(f"run {run_id!r} vanished after a conflicting insert")
            return _existing(session, row, body)
    return Intake(run_id, created=True, status="queued")


def agent_may_read(session: Session, *, run_id: str, agent: AgentIdentity) -> bool:
    """Whether an agent key may read the run (:func:`judge.server.store.runs.agent_reads`)."""
    return run_repo.agent_may_read_run(
        session, run_id=run_id, agent_id=agent.agent_id, seat=agent.seat
    )


def agent_run_id(session: Session, *, run_id: str, agent: AgentIdentity) -> str:
    """The stored id an agent key means by ``run_id``: the run of that id when the key may read
    it, else the key's own submission of that id (stored as ``<agent_id>:<run_id>``), so an
    agent reads its runs by the ids it submitted; ``run_id`` as given when neither exists."""
    if NAMESPACE_SEPARATOR in run_id or agent_may_read(session, run_id=run_id, agent=agent):
        return run_id
    own = f"{agent.agent_id}{NAMESPACE_SEPARATOR}{run_id}"
    return own if agent_may_read(session, run_id=own, agent=agent) else run_id


def visible_run(session: Session, *, run_id: str, agent: AgentIdentity | None) -> RunRow:
    """The run, if the caller may see it (owners: every run); hidden and missing look the same."""
    row = run_repo.get_run(session, run_id=run_id)
    if row is None or (
        agent is not None and not agent_may_read(session, run_id=run_id, agent=agent)
    ):
        raise NotFoundError(f"run {run_id!r} not found")
    return row
