"""Coaching for an agent's own seat, kept per run, seat and era (docs/security.md, "Coaching")."""

from __future__ import annotations

from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.core.domain.run import Run, TranscriptEvent
from judge.core.errors import NotFoundError
from judge.engine.judging.backends import JudgeBackend
from judge.engine.judging.coaching import CoachingItem, CoachingStatus, coach_seat
from judge.engine.judging.runner import RunnerConfig
from judge.engine.settings import Settings
from judge.server.auth import AgentIdentity
from judge.server.service.intake import visible_run
from judge.server.store import coaching as coaching_repo
from judge.server.store import eras as era_repo
from judge.server.store import scorecards as scorecard_repo
from judge.server.store.db import transaction


class SeatCoaching(BaseModel):
    """Coaching notes for the key's own seat; the first item is always the safety preamble."""

    model_config = ConfigDict(extra="forbid")

    run_id: str
    seat: str
    items: list[CoachingItem] = Field(description="safety_preamble first, then notes by turn")
    status: CoachingStatus = Field(description="ok, or why the coach's reply could not be read")
    unparsed_reason: str | None
    dropped_notes: int = Field(
        description="notes citing a turn absent from the transcript or where the seat did not act"
    )
    malformed_notes: int
    model: str
    prompt_version: int


class CoachingInput(NamedTuple):
    run_id: str
    seat: str
    transcript: list[TranscriptEvent]
    traits: list[str]
    safety_means: dict[str, float | None]
    era_id: str = ""


def cached_coaching(session: Session, *, inputs: CoachingInput) -> SeatCoaching | None:
    """The answer already computed for this run and seat in the current era, if any."""
    text = coaching_repo.get_coaching_json(
        session, run_id=inputs.run_id, seat=inputs.seat, era_id=inputs.era_id
    )
    return None if text is None else SeatCoaching.model_validate_json(text)


def coaching_input(session: Session, *, run_id: str, agent: AgentIdentity) -> CoachingInput:
    """What the coaching pass needs about the key's own seat of a scored run (the safety
    preamble's ``weak_traits`` come from its stored safety scores); NotFoundError before."""
    row = visible_run(session, run_id=run_id, agent=agent)
    card = scorecard_repo.get_scorecard(session, run_id=run_id)
    if card is None or agent.seat not in card.seats:
        raise NotFoundError(
            f"run {run_id!r} has no scorecard for seat {agent.seat!r} yet (status {row.status})"
        )
    mine = card.seats[agent.seat]
    safety = mine.safety_block or {}
    era = era_repo.current_era(session)
    return CoachingInput(
        run_id=run_id,
        seat=agent.seat,
        transcript=list(Run.model_validate_json(row.body_json).transcript),
        traits=sorted({*mine.traits, *safety}),
        safety_means={t: r.mean for t, r in sorted(safety.items())},
        era_id=era.era_id if era else "",
    )


class Prepared(NamedTuple):
    inputs: CoachingInput
    cached: SeatCoaching | None


def prepare(engine: Engine, *, run_id: str, agent: AgentIdentity) -> Prepared:
    """What coaching needs and the answer kept, if any, read in one short transaction."""
    with transaction(engine) as session:
        inputs = coaching_input(session, run_id=run_id, agent=agent)
        return Prepared(inputs, cached_coaching(session, inputs=inputs))


def flight_name(inputs: CoachingInput) -> str:
    """The single-flight name of one coaching answer: run, seat and era."""
    return f"coaching\x1f{inputs.run_id}\x1f{inputs.seat}\x1f{inputs.era_id}"


def kept(engine: Engine, *, inputs: CoachingInput) -> SeatCoaching | None:
    """The answer stored meanwhile (by the flight that held the name before), if any."""
    with transaction(engine) as session:
        return cached_coaching(session, inputs=inputs)


def keep(engine: Engine, *, inputs: CoachingInput, answer: SeatCoaching) -> None:
    """Store a computed answer in its own short transaction (the first one kept wins)."""
    with transaction(engine) as session:
        coaching_repo.put_coaching_json(
            session,
            run_id=inputs.run_id,
            seat=inputs.seat,
            era_id=inputs.era_id,
            body_json=answer.model_dump_json(),
        )


async def coach(
    inputs: CoachingInput, *, backend: JudgeBackend, settings: Settings
) -> SeatCoaching:
    """Run the coaching pass and shape the agent's response."""
    result = await coach_seat(
        inputs.transcript,
        inputs.seat,
        backend,
        safety_means=inputs.safety_means,
        traits=inputs.traits,
        runner=RunnerConfig.from_settings(settings),
    )
    # the agent reads the coach's reply by the answer's own fields: never its raw output
    shown = result.model_dump(include=set(SeatCoaching.model_fields))
    return SeatCoaching(**shown, run_id=inputs.run_id)
