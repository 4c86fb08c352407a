"""Coaching for an agent's own seat, kept per run, seat and era (docs/security.md, "Coaching";
docs/integrity.md, "Coaching"): the coach reads the run screened as the judge reads it, its
call is held to the judging budgets and counted in today's spend."""

from __future__ import annotations

import logging
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.core.domain.config import MeasurementSettings
from judge.core.domain.run import Run, TranscriptEvent
from judge.core.errors import BudgetExceeded, ConflictError, NotFoundError, ScanBudgetExceeded
from judge.core.integrity import judged_transcript
from judge.engine.judging.backends import JudgeBackend
from judge.engine.judging.coaching import (
    COACHING_PROMPT_VERSION,
    DEFAULT_COACHING,
    Coaching,
    CoachingItem,
    CoachingStatus,
    coach_seat,
    coaching_request,
)
from judge.engine.judging.pricing import SeatRequests, estimate
from judge.engine.judging.runner import RunnerConfig
from judge.engine.pipeline import screened
from judge.engine.settings import Settings
from judge.server.auth import AgentIdentity
from judge.server.service import budgets
from judge.server.service.intake import visible_run
from judge.server.store import coaching as coaching_repo
from judge.server.store import eras as era_repo
from judge.server.store import runs as run_repo
from judge.server.store import scorecards as scorecard_repo
from judge.server.store import spend
from judge.server.store.db import transaction

log = logging.getLogger("judge.coaching")

#: The purpose a coaching call is kept under in today's spend.
COACHING_PURPOSE = "coaching"
#: What an agent reads when a budget refuses its coaching (the limit and figures are owners').
OVER_BUDGET = (
    "coaching would take a judging budget past its limit today; ask again after 00:00 UTC "
    "or ask the platform owner"
)
#: What an agent reads for a run held for review (why it is held is for owners).
HELD = "the run is held for review: it cannot be coached until an owner reviews it"
#: The coach always reads the run screened, whatever the measurement settings (docs/integrity.md).
_SCREENING = MeasurementSettings(defence=True)


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
    withheld_notes: int = Field(
        default=0, description="notes whose text was addressed to the evaluator, never shown"
    )
    model: str
    prompt_version: int


class CoachingInput(NamedTuple):
    """What coaching needs about the key's own seat; ``transcript`` is the stored run's until
    :func:`screened_input` replaces it with the screened one the coach reads."""

    run_id: str
    seat: str
    transcript: list[TranscriptEvent]
    traits: list[str]
    safety_means: dict[str, float | None]
    era_id: str = ""
    agent_id: str = ""
    #: an agent submitted the run itself, so all of its text is the agent's (docs/integrity.md)
    agent_submitted: bool = False


def _stored_answer(session: Session, *, inputs: CoachingInput) -> SeatCoaching | None:
    text = coaching_repo.get_coaching_json(
        session, run_id=inputs.run_id, seat=inputs.seat, era_id=inputs.era_id
    )
    return None if text is None else SeatCoaching.model_validate_json(text)


def cached_coaching(session: Session, *, inputs: CoachingInput) -> SeatCoaching | None:
    """The answer already computed for this run and seat in the current era by the current
    coaching prompt, if any (an older prompt's answer read what the coach no longer reads)."""
    answer = _stored_answer(session, inputs=inputs)
    return (
        answer if answer is not None and answer.prompt_version == COACHING_PROMPT_VERSION else None
    )


def coaching_input(
    session: Session, *, run_id: str, agent: AgentIdentity
) -> tuple[CoachingInput, Run]:
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
    run = Run.model_validate_json(row.body_json)
    return CoachingInput(
        run_id=run_id,
        seat=agent.seat,
        transcript=list(run.transcript),
        traits=sorted({*mine.traits, *safety}),
        safety_means={t: r.mean for t, r in sorted(safety.items())},
        era_id=era.era_id if era else "",
        agent_id=agent.agent_id,
        agent_submitted=run_repo.holds_agent_text(row.submitted_by),
    ), run


def screened_input(inputs: CoachingInput, run: Run, *, settings: Settings) -> CoachingInput:
    """``inputs`` with the transcript the judge reads: every seat's judge-directed text
    withheld (the scan within ``JUDGE_SCAN_CPU_S``); ConflictError for a run the scan could not
    finish, which is held and never read by a model."""
    tamper = screened(
        run, _SCREENING, cpu_s=settings.scan_cpu_s, agent_submitted=inputs.agent_submitted
    )
    try:
        return inputs._replace(transcript=judged_transcript(run, tamper))
    except ScanBudgetExceeded:
        raise ConflictError(HELD) from None


class Prepared(NamedTuple):
    inputs: CoachingInput
    cached: SeatCoaching | None


def prepare(engine: Engine, *, run_id: str, agent: AgentIdentity, settings: Settings) -> Prepared:
    """What coaching needs and the answer kept, if any, read in one short transaction; with
    no answer kept, the run is screened after it (no connection held while it is scanned)."""
    with transaction(engine) as session:
        inputs, run = coaching_input(session, run_id=run_id, agent=agent)
        cached = cached_coaching(session, inputs=inputs)
    if cached is not None:
        return Prepared(inputs, cached)
    return Prepared(screened_input(inputs, run, settings=settings), None)


def flight_name(inputs: CoachingInput) -> str:
    """The single-flight name of one coaching answer: run, seat and era."""
    return f"coaching\x1f{inputs.run_id}\x1f{inputs.seat}\x1f{inputs.era_id}"


def kept(engine: Engine, *, inputs: CoachingInput) -> SeatCoaching | None:
    """The answer stored meanwhile (by the flight that held the name before), if any."""
    with transaction(engine) as session:
        return cached_coaching(session, inputs=inputs)


def within_budget(engine: Engine, *, inputs: CoachingInput, model: str, settings: Settings) -> None:
    """Hold the coaching call to the judging budgets like any judge call (the reply estimated
    at its ceiling); BudgetExceeded with :data:`OVER_BUDGET` when it would pass one (the
    figures are logged for owners)."""
    request = coaching_request(inputs.transcript, inputs.seat, inputs.traits, DEFAULT_COACHING)
    expected = estimate([SeatRequests(inputs.seat, model, [(request, 1)])])
    try:
        budgets.guard(
            engine,
            settings=settings,
            seats_of_agent={inputs.agent_id: [inputs.seat]},
            estimate=expected,
        )
    except BudgetExceeded as exc:
        log.warning("coaching of run %s seat %s refused: %s", inputs.run_id, inputs.seat, exc)
        raise BudgetExceeded(OVER_BUDGET, daily=exc.daily) from None


def keep(
    engine: Engine, *, inputs: CoachingInput, answer: SeatCoaching, spent: Coaching | None = None
) -> None:
    """Store a computed answer and the call it cost (``spent``, counted in today's spend) in
    one short transaction; the first answer kept for the current prompt wins, one an older
    prompt made is replaced."""
    with transaction(engine) as session:
        if spent is not None:
            spend.record_call(
                session,
                call=spent,
                purpose=COACHING_PURPOSE,
                run_id=inputs.run_id,
                seat=inputs.seat,
                agent_id=inputs.agent_id,
            )
        older = _stored_answer(session, inputs=inputs)
        if older is not None and older.prompt_version != COACHING_PROMPT_VERSION:
            coaching_repo.delete_coaching(
                session, run_id=inputs.run_id, seat=inputs.seat, era_id=inputs.era_id
            )
        coaching_repo.put_coaching_json(
            session,
            run_id=inputs.run_id,
            seat=inputs.seat,
            era_id=inputs.era_id,
            body_json=answer.model_dump_json(),
        )


def shown(result: Coaching, *, run_id: str) -> SeatCoaching:
    """The agent's response: the answer's own checked fields, never the coach's raw reply or
    what the call cost."""
    return SeatCoaching(**result.model_dump(include=set(SeatCoaching.model_fields)), run_id=run_id)


async def coach(inputs: CoachingInput, *, backend: JudgeBackend, settings: Settings) -> Coaching:
    """Run the coaching pass over the screened transcript (:func:`prepare`)."""
    return await coach_seat(
        inputs.transcript,
        inputs.seat,
        backend,
        safety_means=inputs.safety_means,
        traits=inputs.traits,
        runner=RunnerConfig.from_settings(settings),
    )
