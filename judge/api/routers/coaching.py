"""Coaching notes for an agent's own seat (agent key)."""

from __future__ import annotations

from fastapi import APIRouter

from judge.api.deps import AgentDep, SessionDep, SettingsDep, WorkersDep
from judge.api.errors import error_responses
from judge.service.coaching import (
    CoachingPublic,
    cached_coaching,
    coach,
    coaching_input,
    remember_coaching,
)

router = APIRouter(tags=["coaching"])


@router.get(
    "/api/agent/runs/{run_id}/coaching",
    summary="Coaching notes for the key's own seat (agent key)",
    description="Turns where the seat's decisions diverged from expected play: turn, the decision made, "
    "what was expected, why it matters, and the trait it bears on. The first item is ALWAYS the platform "
    "guardrail `{\"type\": \"safety_preamble\", \"guidance\", \"weak_traits\", \"is_platform_guardrail\": true}`: "
    "safety behaviours are floors, not trade-offs; `weak_traits` names the seat's safety traits scored "
    "below 0.6. Notes citing a turn the seat did not act in are dropped and counted (`dropped_notes`). "
    "Computed by the configured judge on the first request and kept per run, seat and measurement "
    "era: later requests in the same era answer the same notes with no judge call. The run must be "
    "scored (else 404).",
    responses=error_responses(401, 404) | {502: {"description": "The judge could not be reached after retries."}},
)
async def agent_run_coaching(
    run_id: str, agent: AgentDep, session: SessionDep, settings: SettingsDep, workers: WorkersDep
) -> CoachingPublic:
    inputs = coaching_input(session, run_id=run_id, agent=agent)
    cached = cached_coaching(session, inputs=inputs)
    if cached is not None:
        return cached
    answer = await coach(inputs, backend=workers.backends(settings.model), settings=settings)
    remember_coaching(session, inputs=inputs, answer=answer)
    return answer
