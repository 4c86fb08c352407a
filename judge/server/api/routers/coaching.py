"""Coaching notes for an agent's own seat (agent key)."""

from __future__ import annotations

from functools import partial

import anyio

from judge.engine.judging.panel import single_judge
from judge.server.api.deps import AgentDep, EngineDep, SettingsDep, WorkersDep, credentialed_router
from judge.server.api.errors import error_responses
from judge.server.api.models import CoachingPublic
from judge.server.service.coaching import coach, flight_name, keep, kept, prepare
from judge.server.service.flights import single_flight

router = credentialed_router("coaching")

_COACHING_DOC = """\
Turns where the seat's decisions diverged from expected play: turn, the decision made, what
was expected, why it matters, and the trait it bears on. The first item is ALWAYS the platform
guardrail `{"type": "safety_preamble", "guidance", "weak_traits", "is_platform_guardrail":
true}`: safety behaviours are floors, not trade-offs; `weak_traits` names the seat's safety
traits scored below 0.6. Notes citing a turn the seat did not act in are dropped and counted
(`dropped_notes`). Computed by the configured judge on the first request and kept per run, seat
and measurement era: later requests in the same era answer the same notes with no judge call,
and requests made while it is computed wait for it (one judge call however many ask at once).
The run must be scored (else 404)."""


@router.get(
    "/api/agent/runs/{run_id}/coaching",
    summary="Coaching notes for the key's own seat (agent key)",
    description=_COACHING_DOC,
    responses=error_responses(404)
    | {502: {"description": "The judge could not be reached after retries."}},
)
async def agent_run_coaching(
    run_id: str, agent: AgentDep, engine: EngineDep, settings: SettingsDep, workers: WorkersDep
) -> CoachingPublic:
    # the store is read and written on worker threads, each in its own short transaction, so
    # neither the event loop nor a pooled connection waits on the judge
    prepared = await anyio.to_thread.run_sync(
        partial(prepare, engine, run_id=run_id, agent=agent.as_agent())
    )
    if prepared.cached is not None:
        return CoachingPublic.model_validate(prepared.cached, from_attributes=True)
    inputs = prepared.inputs
    async with single_flight(engine, flight_name(inputs)):  # concurrent asks: one judge call
        answer = await anyio.to_thread.run_sync(partial(kept, engine, inputs=inputs))
        if answer is None:
            answer = await coach(
                inputs, backend=single_judge(workers.backends(settings.judge)), settings=settings
            )
            await anyio.to_thread.run_sync(partial(keep, engine, inputs=inputs, answer=answer))
    return CoachingPublic.model_validate(answer, from_attributes=True)
