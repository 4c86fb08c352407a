"""Helpers shared by the SQLite and PostgreSQL attack suites."""

from __future__ import annotations

from typing import Any

from judge.core.domain.scenario import Scenario


def scenario_with_check(
    sql: str, params: dict[str, Any] | None = None, *, wanted: Any = 0, **extra: Any
) -> Scenario:
    """A scenario whose one required goal check runs `sql` as written.

    Built with ``model_validate`` so that the load-time SQL gate is skipped: what stops the
    attack is then the evaluation path itself.
    """
    return Scenario.model_validate(
        {
            "scenario_id": "attack",
            "limits": {"check_timeout_s": 0.5},
            "checks": [
                {
                    "label": "attack",
                    "sql": sql,
                    "params": params or {},
                    "op": "eq",
                    "wanted": wanted,
                }
            ],
            **extra,
        }
    )


RUN_TEMPLATE: dict[str, Any] = {
    "run_id": "attack-1",
    "scenario_id": "attack",
    "seats": [{"seat": "agent", "agent_id": "a"}],
}
