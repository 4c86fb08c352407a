"""Matched comparison of two agents over the runs the service scored (docs/checks.md)."""

from __future__ import annotations

from sqlmodel import Session

from judge.core.domain.checks import StateOutcome
from judge.core.domain.comparison import AgentComparison, Measure
from judge.core.errors import InputError
from judge.core.scoring.matched import matched_comparison
from judge.server.store import queries_compare, queries_results


def state_outcomes_of(
    session: Session, *, agent_id: str, scenario_id: str | None
) -> list[StateOutcome]:
    """The state outcomes on an agent's scored runs (runs without state checks are skipped)."""
    run_ids = queries_compare.scored_run_ids_of(session, agent_id=agent_id, scenario_id=scenario_id)
    cards = queries_results.scorecards_for(session, run_ids=run_ids)
    return [c.state_outcome for _, c in sorted(cards.items()) if c.state_outcome is not None]


class NoStateOutcomes(InputError):
    """An agent has no scored run with state checks: nothing to pair (a fact about the runs
    stored, not a mistake in the request; the console shows it as a note)."""


def compare_agents(
    session: Session, *, agent_a: str, agent_b: str, scenario_id: str | None, measure: Measure
) -> AgentComparison:
    """Pair the two agents' runs by scenario, seed and adversary config, and test the difference."""
    if agent_a == agent_b:
        raise InputError("agent_a and agent_b must be two different agents")
    a = state_outcomes_of(session, agent_id=agent_a, scenario_id=scenario_id)
    b = state_outcomes_of(session, agent_id=agent_b, scenario_id=scenario_id)
    empty = [name for name, got in ((agent_a, a), (agent_b, b)) if not got]
    if empty:
        raise NoStateOutcomes(
            f"no scored runs with state checks for {', '.join(empty)}"
            + (f" in scenario {scenario_id}" if scenario_id else "")
            + " (state checks need the run's scenario under JUDGE_SCENARIOS_DIR)"
        )
    return matched_comparison(a, b, label_a=agent_a, label_b=agent_b, measure=measure)
