"""What names a run wherever a result about it is kept: its id, and the scenario, seed and
adversary config it was played under (the key matched comparisons pair runs on,
docs/checks.md, "Matched comparison")."""

from __future__ import annotations

from typing import TypedDict

from judge.core.domain.checks import StateOutcome
from judge.core.domain.run import Run


class RunIdentity(TypedDict):
    run_id: str
    scenario_id: str
    seed: int | None
    adversary_config: str | None


def run_identity(source: Run | StateOutcome) -> RunIdentity:
    """The fields that name ``source``'s run, to spread into a result about the same run."""
    return {
        "run_id": source.run_id,
        "scenario_id": source.scenario_id,
        "seed": source.seed,
        "adversary_config": source.adversary_config,
    }
