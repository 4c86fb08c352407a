"""The RL trajectory export over the store: which runs and seats a caller may export, rewarded
under the weights the run was scored with (else the current ``eval_reward_weights``)."""

from __future__ import annotations

from sqlmodel import Session

from judge.core.domain.run import Run
from judge.core.scoring.trajectories import TrajectoryStep, trajectory
from judge.engine.settings import Settings
from judge.server.auth import AgentIdentity
from judge.server.service.intake import visible_run
from judge.server.service.submissions import visible_submission
from judge.server.service.views import reward_weights
from judge.server.store import queries_results as results_repo
from judge.server.store import runs as run_repo


def _seats(run: Run, *, agent_id: str | None, agent: AgentIdentity | None) -> set[str] | None:
    """Seats to export: the key's own seat, else the named agent's seats, else all (None)."""
    if agent is not None:
        return {s.seat for s in run.seats if s.seat == agent.seat and s.agent_id == agent.agent_id}
    if agent_id is not None:
        return {s.seat for s in run.seats if s.agent_id == agent_id}
    return None


def run_trajectory(
    session: Session, *, run_id: str, agent: AgentIdentity | None, settings: Settings
) -> list[TrajectoryStep]:
    """One run's steps (all seats for an owner, the key's seat for an agent)."""
    row = visible_run(session, run_id=run_id, agent=agent)
    run = run_repo.stored_run(row)
    weights = reward_weights(session, row, settings)
    return trajectory(run, weights, seats=_seats(run, agent_id=None, agent=agent))


def submission_trajectory(
    session: Session, *, submission_id: str, agent: AgentIdentity | None, settings: Settings
) -> list[TrajectoryStep]:
    """The steps of the submission's agent over every run of the submission, in run order."""
    sub = visible_submission(session, submission_id=submission_id, agent=agent)
    rows: list[TrajectoryStep] = []
    for run_id in results_repo.submission_run_ids(session, submission_id=submission_id):
        row = visible_run(session, run_id=run_id, agent=None)
        run = run_repo.stored_run(row)
        seats = _seats(run, agent_id=sub.agent_id, agent=agent)
        rows.extend(trajectory(run, reward_weights(session, row, settings), seats=seats))
    return rows
