"""Coaching notes for an agent's own seat (agent key)."""

from __future__ import annotations

from functools import partial

import anyio

from judge.engine.judging.panel import single_judge
from judge.server.api.deps import AgentDep, EngineDep, SettingsDep, WorkersDep, credentialed_router
from judge.server.api.errors import ErrorPublic, error_responses
from judge.server.api.models import CoachingPublic
from judge.server.service.coaching import (
    coach,
    flight_name,
    keep,
    kept,
    prepare,
    shown,
    within_budget,
)
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
The coach reads the run as the judge does, screened and datamarked, and of it only the seat's
own events and the other seats' public messages; notes whose text is addressed to the
evaluator are withheld and counted (`withheld_notes`), and an unreadable reply answers a fixed
`unparsed_reason`, never the reply. The call counts against the judging budgets: 429 (a daily limit)
or 422 (the run limit) when it would take one past it (nothing is called). The run must be scored (else 404); 409 for
a run held for review that was never judged."""


@router.get(
    "/api/agent/runs/{run_id}/coaching",
    summary="Coaching notes for the key's own seat (agent key)",
    description=_COACHING_DOC,
    responses=error_responses(404, 502)
    | {
        409: {"model": ErrorPublic, "description": "The run is held and was never judged."},
        429: {
            "model": ErrorPublic,
            "description": "A daily judging budget refuses the call today.",
        },
    },
)
async def agent_run_coaching(
    run_id: str, agent: AgentDep, engine: EngineDep, settings: SettingsDep, workers: WorkersDep
) -> CoachingPublic:
    # the store is read and written on worker threads, each in its own short transaction, so
    # neither the event loop nor a pooled connection waits on the judge
    prepared = await anyio.to_thread.run_sync(
        partial(prepare, engine, run_id=run_id, agent=agent.as_agent(), settings=settings)
    )
    if prepared.cached is not None:
        return CoachingPublic.model_validate(prepared.cached, from_attributes=True)
    inputs = prepared.inputs
    async with single_flight(engine, flight_name(inputs)):  # concurrent asks: one judge call
        answer = await anyio.to_thread.run_sync(partial(kept, engine, inputs=inputs))
        if answer is None:
            backend = single_judge(workers.backends(settings.judge))
            await anyio.to_thread.run_sync(
                partial(
                    within_budget, engine, inputs=inputs, model=backend.model, settings=settings
                )
            )
            result = await coach(inputs, backend=backend, settings=settings)
            answer = shown(result, run_id=inputs.run_id)
            await anyio.to_thread.run_sync(
                partial(keep, engine, inputs=inputs, answer=answer, spent=result)
            )
    return CoachingPublic.model_validate(answer, from_attributes=True)
