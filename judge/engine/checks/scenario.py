"""Loading scenario files: YAML in, a validated :class:`~judge.core.domain.scenario.Scenario` out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from judge.core.domain.scenario import EVALUATORS, OutcomeMetric, Scenario, SqlCheck, WorldSource
from judge.core.errors import CheckError, describe_validation_error
from judge.engine.checks.errors import ScenarioFormatError
from judge.engine.checks.sqltext import parameter_names, single_query


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file, its relative world paths resolved against its
    folder; ScenarioFormatError names the field at fault (``checks.2.sql``)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioFormatError(
            f"{path}: cannot read the scenario file: {exc.strerror}"
        ) from None
    return parse_scenario_yaml(text, source=str(path), base_dir=path.parent)


def parse_scenario_yaml(
    text: str, *, source: str = "scenario", base_dir: Path | None = None
) -> Scenario:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise ScenarioFormatError(f"{source}: not valid YAML: {problem}{where}") from None
    return parse_scenario(data, source=source, base_dir=base_dir)


def parse_scenario(
    data: Any, *, source: str = "scenario", base_dir: Path | None = None
) -> Scenario:
    """Validate raw data as a scenario, then vet each check's SQL and parameters."""
    if not isinstance(data, dict):
        raise ScenarioFormatError(
            f"{source}: a scenario is a mapping of fields, not {type(data).__name__}"
        )
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as exc:
        raise ScenarioFormatError(f"{source}: {describe_errors(exc)}") from None
    problems = sql_problems(scenario)
    if problems:
        raise ScenarioFormatError(f"{source}: {'; '.join(problems)}")
    return _resolve_world(scenario, base_dir)


_UNION_MEMBERS = {"int", "float", "str", "bool", "none", "list[str]", "dict[str,any]"}
#: Path parts that name no field: the evaluator tags and the members of a union.
HIDDEN_PATH_PARTS = frozenset(EVALUATORS) | _UNION_MEMBERS


def describe_errors(exc: ValidationError, limit: int = 8) -> str:
    """Render a scenario's validation errors, evaluator tags and union members left out of the path."""
    return describe_validation_error(exc, limit, hidden=HIDDEN_PATH_PARTS)


def sql_problems(scenario: Scenario) -> list[str]:
    """What is wrong with each check's SQL: not one query, or parameters that do not match."""
    problems = []
    for index, check in enumerate(scenario.checks):
        if isinstance(check, SqlCheck | OutcomeMetric):
            problems += [f"checks.{index}.{p}" for p in _check_sql_problems(check)]
    return problems


def _check_sql_problems(check: SqlCheck | OutcomeMetric) -> list[str]:
    try:
        single_query(check.sql)
        used = parameter_names(check.sql)
    except CheckError as exc:
        return [f"sql: {exc}"]
    problems = [
        f"params: the sql uses :{name} but params gives no value for it"
        for name in sorted(used - set(check.params))
    ]
    problems += [
        f"params.{name}: not used by the sql (write :{name} where it belongs)"
        for name in sorted(set(check.params) - used)
    ]
    return problems


def _resolve_world(scenario: Scenario, base_dir: Path | None) -> Scenario:
    if scenario.world is None or base_dir is None:
        return scenario
    world = scenario.world
    resolved = WorldSource(
        schema_file=str(base_dir / world.schema_file),
        seed_file=str(base_dir / world.seed_file) if world.seed_file else None,
        horizon_file=str(base_dir / world.horizon_file) if world.horizon_file else None,
    )
    return scenario.model_copy(update={"world": resolved})


def find_scenario(scenario_id: str, root: Path) -> Scenario | None:
    """The scenario with this id among ``root/*/scenario.yaml``, or None. A file that does not
    validate is an error, not a miss: a typo must not silently turn a run's checks off."""
    for path in sorted(root.glob("*/scenario.yaml")):
        scenario = load_scenario(path)
        if scenario.scenario_id == scenario_id:
            return scenario
    return None
