"""State checks: read-only SQL and trace checks over a run's world (docs/checks.md)."""

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
