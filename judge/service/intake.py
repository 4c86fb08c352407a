"""Run intake: store a submitted run whole (or not at all), idempotently by run_id, and
decide which runs a caller may see."""

from __future__ import annotations

import hashlib
import json
from typing import NamedTuple

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from judge.auth import AgentIdentity
from judge.domain.run import Run
from judge.errors import AuthError, ConflictError, NotFoundError
from judge.store import runs as run_repo
from judge.store.db import transaction
from judge.store.tables import RunRow


class SeatMismatchError(AuthError):
    """An agent key submitted a run in which its agent does not sit in its seat (403)."""


class Intake(NamedTuple):
    run_id: str
    created: bool
    status: str


class CanonicalBody(NamedTuple):
    text: str
    sha256: str


def canonical_body(run: Run) -> CanonicalBody:
    """The run as canonical JSON (sorted keys, defaults filled): equal runs hash equal."""
    text = json.dumps(run.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return CanonicalBody(text, hashlib.sha256(text.encode()).hexdigest())


def require_own_seat(run: Run, agent: AgentIdentity) -> None:
    """An agent key submits only runs where its agent sits in its seat."""
    if not any(s.seat == agent.seat and s.agent_id == agent.agent_id for s in run.seats):
        raise SeatMismatchError(
            f"seats: this key is for agent {agent.agent_id!r} in seat {agent.seat!r}, "
            "which the run does not list; submit it with an owner token instead"
        )


def _existing(row: RunRow, body: CanonicalBody) -> Intake:
    if row.body_sha256 != body.sha256:
        raise ConflictError(
            f"run_id: {row.run_id!r} was already submitted with a different body; "
            "use a new run_id for a different run"
        )
    return Intake(row.run_id, created=False, status=row.status)


def submit_run(engine: Engine, *, run: Run, submitted_by: str, agent: AgentIdentity | None = None) -> Intake:
    """Store a new queued run, or return the stored one when the same body comes again.

    Raises:
        ConflictError: a different body under the same run_id.
        SeatMismatchError: an agent submitting a run it does not sit in.
    """
    if agent is not None:
        require_own_seat(run, agent)
    body = canonical_body(run)
    with transaction(engine) as session:
        row = run_repo.get_run(session, run_id=run.run_id)
        if row is not None:
            return _existing(row, body)
    try:
        with transaction(engine) as session:
            run_repo.insert_run(session, run=run, body_json=body.text, body_sha256=body.sha256, submitted_by=submitted_by)
    except IntegrityError:  # the same run_id arrived concurrently
        with transaction(engine) as session:
            return _existing(_stored(session, run.run_id), body)
    return Intake(run.run_id, created=True, status="queued")


def _stored(session: Session, run_id: str) -> RunRow:
    row = run_repo.get_run(session, run_id=run_id)
    if row is None:
        raise LookupError(f"run {run_id!r} vanished after a conflicting insert")
    return row


def visible_run(session: Session, *, run_id: str, agent: AgentIdentity | None) -> RunRow:
    """The run, if the caller may see it. Owners (agent=None) see every run; an agent key
    only runs where its agent sits in its seat. Hidden and missing runs look the same."""
    row = run_repo.get_run(session, run_id=run_id)
    if row is None or (
        agent is not None and not run_repo.agent_sits_in(session, run_id=run_id, agent_id=agent.agent_id, seat=agent.seat)
    ):
        raise NotFoundError(f"run {run_id!r} not found")
    return row
