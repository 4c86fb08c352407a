"""State checks: read-only SQL and trace checks over a run's world (docs/checks.md).

Entry points:

- :func:`load_scenario` reads a scenario file (YAML) and validates it;
- :func:`evaluate_run` checks one run against it and returns a
  :class:`~judge.core.domain.checks.StateOutcome`;
- :func:`judge.core.scoring.matched.matched_comparison` compares two agents over matched runs;
- :func:`judge.core.scoring.outcomes.rollout_summary` summarises several rollouts.
"""

from judge.engine.checks.evaluate import evaluate_run
from judge.engine.checks.scenario import (
    find_scenario,
    load_scenario,
    parse_scenario,
    parse_scenario_yaml,
)

__all__ = [
    "evaluate_run",
    "find_scenario",
    "load_scenario",
    "parse_scenario",
    "parse_scenario_yaml",
]
