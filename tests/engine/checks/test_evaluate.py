"""Evaluating a run: each evaluator kind reads the state it should, and every problem
becomes data on the check result rather than an exception."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from judge.core.domain.run import Run
from judge.core.domain.scenario import Scenario
from judge.engine.checks import evaluate_run
from judge.engine.checks.errors import ScenarioMismatchError
from tests.engine.checks.conftest import shop_run

SCHEMA = "CREATE TABLE ledger (id INTEGER PRIMARY KEY, amount INTEGER, note TEXT);"


def make_db(path: Path, *rows: tuple[int, int, str]) -> str:
    with sqlite3.connect(path) as conn:
        conn.execute(SCHEMA)
        conn.executemany("INSERT INTO ledger VALUES (?, ?, ?)", rows)
    conn.close()
    return path.name


def scenario(*checks: dict[str, Any], **extra: Any) -> Scenario:
    goal = {"label": "goal", "sql": "SELECT count(*) FROM ledger", "op": "ge", "wanted": 0}
    return Scenario.model_validate({"scenario_id": "ledger", "checks": [goal, *checks], **extra})


def run(world: dict[str, Any] | None, transcript: list[dict[str, Any]] | None = None) -> Run:
    return Run.model_validate(
        {
            "run_id": "r1",
            "scenario_id": "ledger",
            "seats": [
                {"seat": "agent", "agent_id": "a"},
                {"seat": "customer", "agent_id": "c", "scored": False},
            ],
            "transcript": transcript or [],
            "world": world,
        }
    )


NEVER_NEGATIVE = {
    "label": "never_negative",
    "kind": "hard_rule",
    "evaluator": "invariant",
    "sql": "SELECT count(*) FROM ledger WHERE amount < 0",
    "op": "eq",
    "wanted": 0,
}


def test_an_invariant_is_checked_at_every_step_and_at_the_end(tmp_path: Path) -> None:
    world = {
        "step_states": [
            {"turn": 1, "database": make_db(tmp_path / "t1.db", (1, 5, "ok"))},
            {"turn": 2, "database": make_db(tmp_path / "t2.db", (1, -5, "overdrawn"))},
        ],
        "end_state": make_db(tmp_path / "end.db", (1, 5, "ok")),
    }
    outcome = evaluate_run(run(world), scenario(NEVER_NEGATIVE), base_dir=tmp_path)
    invariant = outcome.checks[1]
    assert (invariant.status, invariant.failed_at) == ("failed", ["turn 2"])
    assert invariant.detail == "broken at turn 2: answered 1, expected 0"
    assert (outcome.outcome, outcome.reward) == ("rule_violated", -1)


def test_an_invariant_that_holds_says_how_many_states_it_read(tmp_path: Path) -> None:
    world = {
        "step_states": [{"turn": 1, "database": make_db(tmp_path / "t1.db", (1, 5, "ok"))}],
        "end_state": make_db(tmp_path / "end.db", (1, 5, "ok")),
    }
    invariant = evaluate_run(run(world), scenario(NEVER_NEGATIVE), base_dir=tmp_path).checks[1]
    assert (invariant.status, invariant.answered) == ("passed", 0)
    assert invariant.detail == "held at all 2 states: answered 0, expected 0"


def test_an_unreadable_step_state_makes_the_invariant_an_error(tmp_path: Path) -> None:
    world = {
        "step_states": [{"turn": 3, "database": "gone.db"}],
        "end_state": make_db(tmp_path / "end.db"),
    }
    outcome = evaluate_run(run(world), scenario(NEVER_NEGATIVE), base_dir=tmp_path)
    assert outcome.checks[1].status == "error"
    assert outcome.checks[1].detail == f"at turn 3: no SQLite database at {tmp_path / 'gone.db'}"
    assert outcome.outcome == "not_scored"


DELAYED = {
    "label": "settled_later",
    "evaluator": "delayed_check",
    "sql": "SELECT count(*) FROM ledger WHERE note = :note",
    "params": {"note": "settled"},
    "op": "eq",
    "wanted": 1,
}


def test_a_delayed_check_reads_the_state_after_the_horizon(tmp_path: Path) -> None:
    world = {
        "end_state": make_db(tmp_path / "end.db", (1, 5, "pending")),
        "after_horizon": make_db(tmp_path / "later.db", (1, 5, "settled")),
    }
    delayed = evaluate_run(run(world), scenario(DELAYED), base_dir=tmp_path).checks[1]
    assert (delayed.status, delayed.detail) == ("passed", "answered 1, expected 1")


def test_a_delayed_check_without_an_after_horizon_state_is_not_scored(tmp_path: Path) -> None:
    world = {"end_state": make_db(tmp_path / "end.db")}
    outcome = evaluate_run(run(world), scenario(DELAYED), base_dir=tmp_path)
    assert (
        outcome.checks[1].detail == "the run gives no world.after_horizon, which this check reads"
    )
    assert outcome.not_scored_reason == (
        "settled_later: the run gives no world.after_horizon, which this check reads"
    )


def test_sql_checks_on_a_run_without_a_world_are_not_scored() -> None:
    outcome = evaluate_run(run(None), scenario())
    assert outcome.outcome == "not_scored"
    assert outcome.not_scored_reason == (
        "goal: the run has no world; give world.end_state so checks can read it"
    )


FORBIDDEN = {
    "label": "no_override",
    "kind": "hard_rule",
    "evaluator": "trace_check",
    "count_actions": {"names": ["override"]},
    "op": "eq",
    "wanted": 0,
}


def test_a_trace_check_reads_the_transcript_and_counts_refused_attempts_too() -> None:
    transcript = [
        {"turn": 1, "seat": "agent", "kind": "action", "name": "override", "status": "rejected"},
        {"turn": 1, "seat": "customer", "kind": "action", "name": "override"},
    ]
    trace_only = Scenario.model_validate(
        {"scenario_id": "ledger", "checks": [{**FORBIDDEN, "kind": "goal"}]}
    )
    outcome = evaluate_run(run(None, transcript), trace_only)
    assert outcome.checks[0].detail == "answered 1, expected 0"
    assert (outcome.outcome, outcome.summary.rejected_attempts) == ("not_achieved", 1)


def test_a_scenario_timeout_bounds_each_query(tmp_path: Path) -> None:
    forever = {
        "label": "slow",
        "sql": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c",
        "op": "eq",
        "wanted": 1,
    }
    world = {"end_state": make_db(tmp_path / "end.db")}
    limited = scenario(forever, limits={"check_timeout_s": 0.3})
    outcome = evaluate_run(run(world), limited, base_dir=tmp_path)
    assert outcome.checks[1].detail == "the query did not finish within 0.3 s"


def test_outcome_metrics_are_measured_per_run_and_do_not_decide_it(tmp_path: Path) -> None:
    metrics = [
        {"label": "total", "evaluator": "outcome_metric", "sql": "SELECT sum(amount) FROM ledger",
         "op": "le", "wanted": 10},
        {"label": "text", "evaluator": "outcome_metric", "sql": "SELECT note FROM ledger",
         "op": "le", "wanted": 10},
    ]  # fmt: skip
    world = {"end_state": make_db(tmp_path / "end.db", (1, 7, "a"))}
    outcome = evaluate_run(run(world), scenario(*metrics), base_dir=tmp_path)
    assert [(m.label, m.value, m.error) for m in outcome.metrics] == [
        ("total", 7.0, None),
        ("text", None, "answered 'a'; an outcome metric must be a number"),
    ]
    assert [c.label for c in outcome.checks] == ["goal"]
    assert outcome.outcome == "verified"


def test_duplicate_outside_requests_are_counted_with_their_keys(tmp_path: Path) -> None:
    rows = [(1, 5, "refund"), (2, 5, "refund"), (3, 5, "refund"), (4, 6, "refund"), (5, 5, "mail")]
    world = {"end_state": make_db(tmp_path / "end.db", *rows)}
    checked = scenario(outside_requests={"table": "ledger", "key_columns": ["amount", "note"]})
    summary = evaluate_run(run(world), checked, base_dir=tmp_path).summary
    assert summary.duplicate_effects == 2
    assert [(d.key, d.count) for d in summary.duplicate_requests] == [
        ({"amount": 5, "note": "refund"}, 3)
    ]


def test_an_unreadable_outside_request_table_makes_the_run_not_scored(tmp_path: Path) -> None:
    world = {"end_state": make_db(tmp_path / "end.db")}
    checked = scenario(outside_requests={"table": "requests", "key_columns": ["service"]})
    outcome = evaluate_run(run(world), checked, base_dir=tmp_path)
    assert outcome.not_scored_reason == (
        "outside requests table requests: SQLite could not run the check: no such table: requests"
    )


def test_a_run_of_another_scenario_is_refused() -> None:
    other = Scenario.model_validate(
        {"scenario_id": "other", "checks": [{**FORBIDDEN, "kind": "goal"}]}
    )
    with pytest.raises(
        ScenarioMismatchError, match="run r1 is of scenario 'ledger', but the checks"
    ):
        evaluate_run(run(None), other)


def test_an_absolute_database_path_ignores_base_dir(tmp_path: Path) -> None:
    world = {"end_state": str(tmp_path / make_db(tmp_path / "end.db", (1, 1, "x")))}
    outcome = evaluate_run(run(world), scenario(), base_dir=Path("/nonexistent"))
    assert outcome.checks[0].detail == "answered 1, expected at least 0"


def test_tool_calls_and_errors_never_change_the_score(shop: Scenario, shop_worlds: Path) -> None:
    run = shop_run("careful/pass")
    noisy_trace = [
        step.model_copy(update={"tool_calls": 10, "tool_errors": 7}) for step in run.trace
    ]
    noisy = run.model_copy(update={"trace": noisy_trace})
    plain, with_errors = (evaluate_run(r, shop, base_dir=shop_worlds) for r in (run, noisy))
    assert (plain.diagnostics.tool_errors, with_errors.diagnostics.tool_errors) == (0, 28)
    assert with_errors.model_dump(exclude={"diagnostics"}) == plain.model_dump(
        exclude={"diagnostics"}
    )
