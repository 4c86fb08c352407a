"""Per-turn execution metrics of a run (owner)."""

from __future__ import annotations

from judge.core.scoring.metrics import RunMetrics
from judge.server.api.deps import SessionDep, SettingsDep, owner_router
from judge.server.api.errors import error_responses
from judge.server.service.views import metrics

router = owner_router("metrics")


@router.get(
    "/api/evals/{run_id}/metrics",
    summary="Per-turn execution data (owner)",
    responses=error_responses(404),
)
def run_metrics(run_id: str, session: SessionDep, settings: SettingsDep) -> RunMetrics:
    """One row per trace step: latency, tokens in/out, tool calls and errors, checks, progress,
    engine faults and failed actions at that turn, and the per-turn reward with its components
    (weights the run was scored under, else the current `eval_reward_weights`); totals per seat.
    Available as soon as the run is stored."""
    return metrics(session, run_id=run_id, settings=settings)
