"""Checking one run against its scenario: the shell around the pure outcome rules; every
check's problem (refused, timed out, wrong shape, missing state) becomes data on its result."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import closing
from pathlib import Path
from typing import Literal, NamedTuple

from judge.core.domain.checks import (
    CheckResult,
    DuplicateRequest,
    MetricValue,
    OutcomeDecision,
    Scalar,
    StateOutcome,
    WorldState,
)
from judge.core.domain.run import Run
from judge.core.domain.scenario import (
    OutcomeMetric,
    OutsideRequests,
    Scenario,
    SqlCheck,
    TraceCheck,
)
from judge.core.errors import CheckError
from judge.core.scoring.identity import run_identity
from judge.core.scoring.operators import ValueComparison, compare
from judge.core.scoring.outcomes import decide_outcome, not_scored
from judge.core.scoring.summary import count_actions, diagnostics, duplicate_requests, run_summary
from judge.engine.checks.errors import ScenarioMismatchError, StateUnavailableError
from judge.engine.checks.sqltext import single_query
from judge.engine.checks.state import StateDatabase, fetch_value, open_state

StateName = Literal["end_state", "after_horizon"]
_MAX_DUPLICATE_GROUPS = 1_000
#: What a check's result repeats of the check's own declaration.
_DECLARED = {"label", "kind", "evaluator", "required", "weight", "op", "wanted"}


def evaluate_run(run: Run, scenario: Scenario, *, base_dir: Path | None = None) -> StateOutcome:
    """Check a run's world (relative SQLite paths under ``base_dir``, else the working
    directory) and transcript against a scenario and decide its outcome. A check that cannot
    be evaluated makes the run ``not_scored``: a broken verifier or world says nothing about
    the agent. Raises ScenarioMismatchError for another scenario's run."""
    if run.scenario_id != scenario.scenario_id:
        raise ScenarioMismatchError(
            f"run {run.run_id} is of scenario {run.scenario_id!r}, "
            f"but the checks given are for {scenario.scenario_id!r}"
        )
    seats = frozenset(scenario.agent_seats or run.scored_seats)
    if run.world is not None and run.world.environment_error is not None:
        reason = f"environment failed: {run.world.environment_error}"
        return _assemble(run, scenario, seats, not_scored(reason), [], [], [])
    with closing(_States(base_dir, scenario.limits.check_timeout_s)) as states:
        results = [_evaluate_check(check, run, seats, states) for check in scenario.scored_checks]
        metrics = [_measure(metric, run.world, states) for metric in scenario.metrics]
        scan = _scan_duplicates(scenario.outside_requests, run.world, states)
    decision = decide_outcome(results, [scan.error] if scan.error else [])
    return _assemble(run, scenario, seats, decision, results, metrics, scan.requests)


class _States:
    """Opens each database once per run, remembers failures, closes everything at the end."""

    def __init__(self, base_dir: Path | None, timeout_s: float) -> None:
        self._base_dir = base_dir
        self._timeout_s = timeout_s
        self._opened: dict[str, StateDatabase | CheckError] = {}

    def close(self) -> None:
        for db in self._opened.values():
            if not isinstance(db, CheckError):
                db.close()

    def answer(self, locator: str, sql: str, params: Mapping[str, Scalar]) -> Scalar:
        """The one value `sql` answers on the database at `locator` (else CheckError)."""
        return fetch_value(self.open(locator), single_query(sql), params)

    def open(self, locator: str) -> StateDatabase:
        if locator not in self._opened:
            try:
                self._opened[locator] = open_state(
                    locator, base_dir=self._base_dir, timeout_s=self._timeout_s
                )
            except CheckError as exc:
                self._opened[locator] = exc
        opened = self._opened[locator]
        if isinstance(opened, CheckError):
            raise opened
        return opened


def _locator(world: WorldState | None, state: StateName) -> str:
    if world is None:
        raise StateUnavailableError(
            "the run has no world; give world.end_state so checks can read it"
        )
    locator = world.end_state if state == "end_state" else world.after_horizon
    if locator is None:
        raise StateUnavailableError(f"the run gives no world.{state}, which this check reads")
    return locator


def _evaluate_check(
    check: SqlCheck | TraceCheck, run: Run, seats: frozenset[str], states: _States
) -> CheckResult:
    if isinstance(check, TraceCheck):
        count = count_actions(run.transcript, seats, check.count_actions)
        return _result(check, compare(count, check.op, check.wanted))
    if check.evaluator == "invariant":
        return _evaluate_invariant(check, run.world, states)
    state: StateName = "after_horizon" if check.evaluator == "delayed_check" else "end_state"
    try:
        value = states.answer(_locator(run.world, state), check.sql, check.params)
    except CheckError as exc:
        return _result(check, ValueComparison("error", None, str(exc)))
    return _result(check, compare(value, check.op, check.wanted))


def _evaluate_invariant(check: SqlCheck, world: WorldState | None, states: _States) -> CheckResult:
    """An invariant must hold in every step state the run provides and in the end state."""
    try:
        stages = [(f"turn {s.turn}", s.database) for s in (world.step_states if world else [])]
        stages.append(("end_state", _locator(world, "end_state")))
    except CheckError as exc:
        return _result(check, ValueComparison("error", None, str(exc)))
    seen: list[tuple[str, ValueComparison]] = []
    for name, locator in stages:
        try:
            value = states.answer(locator, check.sql, check.params)
            seen.append((name, compare(value, check.op, check.wanted)))
        except CheckError as exc:
            return _result(check, ValueComparison("error", None, f"at {name}: {exc}"))
    return _invariant_result(check, seen)


def _invariant_result(check: SqlCheck, seen: list[tuple[str, ValueComparison]]) -> CheckResult:
    for status in ("error", "failed"):
        bad = [(name, c) for name, c in seen if c.status == status]
        if bad:
            names = [name for name, _ in bad]
            first = bad[0][1]
            detail = (
                f"broken at {', '.join(names)}: {first.detail}"
                if status == "failed"
                else f"at {names[0]}: {first.detail}"
            )
            return _result(check, ValueComparison(first.status, first.answered, detail), names)
    last = seen[-1][1]
    return _result(
        check,
        ValueComparison("passed", last.answered, f"held at all {len(seen)} states: {last.detail}"),
    )


def _result(
    check: SqlCheck | TraceCheck, comparison: ValueComparison, failed_at: list[str] | None = None
) -> CheckResult:
    return CheckResult(
        **check.model_dump(include=_DECLARED), **comparison._asdict(), failed_at=failed_at or []
    )


def _measure(metric: OutcomeMetric, world: WorldState | None, states: _States) -> MetricValue:
    value: float | None = None
    error = None
    try:
        answer = states.answer(_locator(world, metric.state), metric.sql, metric.params)
    except CheckError as exc:
        error = str(exc)
    else:
        if isinstance(answer, int | float) and not isinstance(answer, bool):
            value = float(answer)
        else:
            error = f"answered {answer!r}; an outcome metric must be a number"
    declared = metric.model_dump(include={"label", "aggregate", "op", "wanted"})
    return MetricValue(**declared, value=value, error=error)


class _DuplicateScan(NamedTuple):
    requests: list[DuplicateRequest]
    error: str | None


def duplicates_query(spec: OutsideRequests) -> str:
    """The request table's key columns seen more than once. Identifiers cannot be bound as
    parameters; they are validated names (letters, digits, underscore), quoted."""
    keys = ", ".join(f'"{name}"' for name in spec.key_columns)
    return f'SELECT {keys}, COUNT(*) FROM "{spec.table}" GROUP BY {keys} HAVING COUNT(*) > 1 ORDER BY {keys}'


def _scan_duplicates(
    spec: OutsideRequests | None, world: WorldState | None, states: _States
) -> _DuplicateScan:
    if spec is None:
        return _DuplicateScan([], None)
    try:
        db = states.open(_locator(world, "end_state"))
        rows = db.fetch(duplicates_query(spec), {}, max_rows=_MAX_DUPLICATE_GROUPS).rows
    except CheckError as exc:
        return _DuplicateScan([], f"outside requests table {spec.table}: {exc}")
    return _DuplicateScan(duplicate_requests(rows[:_MAX_DUPLICATE_GROUPS], spec.key_columns), None)


def _assemble(
    run: Run,
    scenario: Scenario,
    seats: frozenset[str],
    decision: OutcomeDecision,
    results: list[CheckResult],
    metrics: list[MetricValue],
    duplicates: list[DuplicateRequest],
) -> StateOutcome:
    goals = [r for r in results if r.kind == "goal" and r.required]
    scored = decision.outcome != "not_scored"
    summary = run_summary(
        run.transcript,
        seats,
        goals_met=all(r.status == "passed" for r in goals) if scored else None,
        verified=decision.outcome == "verified",
        customer=scenario.customer,
        duplicates=duplicates,
    )
    return StateOutcome(
        **run_identity(run),
        **dict(decision),
        checks=results,
        metrics=metrics,
        summary=summary,
        diagnostics=diagnostics(run.transcript, run.trace, seats),
    )
