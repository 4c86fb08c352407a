"""Scenario files are validated on load; every problem names its field."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.core.domain.scenario import OutcomeMetric, SqlCheck, TraceCheck
from judge.core.errors import InputError
from judge.engine.checks import load_scenario, parse_scenario_yaml
from judge.engine.checks.errors import ScenarioFormatError
from tests.engine.checks.conftest import SHOP

GOAL = """
  - label: done
    sql: SELECT count(*) FROM t WHERE id = :id
    params: {id: 1}
    op: eq
    wanted: 1
"""


def parse(text: str) -> None:
    parse_scenario_yaml(text, source="s.yaml")


def test_the_worked_scenario_loads_with_every_evaluator_kind() -> None:
    scenario = load_scenario(SHOP / "scenario.yaml")
    assert scenario.scenario_id == "shop-refund"
    kinds = [(type(c).__name__, c.evaluator) for c in scenario.checks]
    assert kinds == [
        ("SqlCheck", "state_predicate"),
        ("SqlCheck", "state_predicate"),
        ("SqlCheck", "delayed_check"),
        ("SqlCheck", "state_predicate"),
        ("SqlCheck", "state_predicate"),
        ("SqlCheck", "state_predicate"),
        ("SqlCheck", "invariant"),
        ("TraceCheck", "trace_check"),
        ("OutcomeMetric", "outcome_metric"),
    ]
    assert [c.label for c in scenario.scored_checks if c.kind == "hard_rule"] == [
        "other_orders_untouched", "refunds_within_captured", "no_privileged_call",
    ]  # fmt: skip
    assert [c.label for c in scenario.checks if isinstance(c, SqlCheck | TraceCheck) and not c.required] == [
        "customer_emailed_once", "order_partially_refunded",
    ]  # fmt: skip
    assert isinstance(scenario.metrics[0], OutcomeMetric)
    assert scenario.world is not None
    assert scenario.world.schema_file == str(SHOP / "world" / "schema.sql")


def test_a_minimal_scenario_gets_sensible_defaults() -> None:
    scenario = parse_scenario_yaml(f"scenario_id: s\nchecks:{GOAL}")
    (check,) = scenario.checks
    assert isinstance(check, SqlCheck)
    assert (check.kind, check.required, check.weight, check.evaluator) == (
        "goal", True, 1.0, "state_predicate",
    )  # fmt: skip
    assert scenario.limits.check_timeout_s == 2.0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("scenario_id: s\nchecks: [\n", "s.yaml: not valid YAML: .* at line 3"),
        ("- just\n- a list\n", "s.yaml: a scenario is a mapping of fields, not list"),
        ("scenario_id: s\nchecks: []\n", "s.yaml: checks: List should have at least 1 item"),
        (f"scenario_id: s\ncheks: 1\nchecks:{GOAL}", "s.yaml: cheks: Extra inputs are not permitted"),
        (f"scenario_id: s\nchecks:{GOAL.replace('op: eq', 'op: equals')}",
         "s.yaml: checks.0.op: Input should be 'eq', 'ne', 'gt', 'ge', 'lt' or 'le'"),
        (f"scenario_id: s\nchecks:{GOAL}    colour: red\n",
         "checks.0.colour: Extra inputs are not permitted"),
        (f"scenario_id: s\nchecks:{GOAL}    evaluator: magic\n",
         ("checks.0: evaluator must be one of state_predicate, invariant, delayed_check, "
         "outcome_metric, trace_check")),
        (f"scenario_id: s\nchecks:{GOAL}{GOAL}", "checks: labels must be unique, repeated: \\['done'\\]"),
        (f"scenario_id: s\nchecks:{GOAL.replace('wanted: 1', 'wanted: [1]')}",
         "checks.0.wanted: Input should be a valid integer or a valid number or a valid string or a valid boolean"),
        (f"scenario_id: s\nchecks:{GOAL.replace('op: eq', 'op: gt').replace('wanted: 1', 'wanted: null')}",
         "checks.0: wanted: null can only be compared with eq or ne, not gt"),
        (f"scenario_id: s\nchecks:{GOAL}    weight: 0\n", "checks.0.weight: Input should be greater than 0"),
    ],
)  # fmt: skip
def test_a_malformed_scenario_is_refused_naming_the_field(text: str, message: str) -> None:
    with pytest.raises(ScenarioFormatError, match=message):
        parse(text)


def test_a_hard_rule_cannot_be_optional() -> None:
    text = f"scenario_id: s\nchecks:{GOAL}{GOAL.replace('done', 'rule')}    kind: hard_rule\n    required: false\n"
    with pytest.raises(
        ScenarioFormatError, match="checks.1: required: a hard rule is always required"
    ):
        parse(text)


def test_a_verifier_with_no_required_goal_check_is_refused() -> None:
    text = f"scenario_id: s\nchecks:{GOAL}    required: false\n{GOAL.replace('done', 'rule')}    kind: hard_rule\n"
    with pytest.raises(ScenarioFormatError, match="at least one goal check must be required"):
        parse(text)


@pytest.mark.parametrize(
    ("sql", "params", "message"),
    [
        ("DELETE FROM t WHERE id = :id", "{id: 1}",
         "checks.0.sql: a check must be one read-only query starting with SELECT or WITH; found DELETE"),
        ("SELECT 1 WHERE :id; DROP TABLE t", "{id: 1}", "checks.0.sql: a check is one statement"),
        ("SELECT count(*) FROM t WHERE id = :id AND x = :x", "{id: 1}",
         "checks.0.params: the sql uses :x but params gives no value for it"),
        ("SELECT count(*) FROM t", "{id: 1}", "checks.0.params.id: not used by the sql"),
        ("SELECT 'unterminated", "{}", "checks.0.sql: unterminated string literal"),
    ],
)  # fmt: skip
def test_bad_sql_or_parameters_are_refused_on_load(sql: str, params: str, message: str) -> None:
    text = f'scenario_id: s\nchecks:\n  - label: c\n    sql: "{sql}"\n    params: {params}\n    op: eq\n    wanted: 1\n'
    with pytest.raises(ScenarioFormatError, match=message):
        parse(text)


def test_a_trace_check_needs_action_names() -> None:
    text = f"scenario_id: s\nchecks:{GOAL}  - label: t\n    evaluator: trace_check\n    count_actions: {{names: []}}\n    op: eq\n    wanted: 0\n"
    with pytest.raises(
        ScenarioFormatError, match="checks.1.count_actions.names: List should have at least 1 item"
    ):
        parse(text)


def test_outside_request_columns_must_be_plain_identifiers() -> None:
    text = (
        f"scenario_id: s\noutside_requests: {{table: 'x; DROP', key_columns: [a]}}\nchecks:{GOAL}"
    )
    with pytest.raises(
        ScenarioFormatError, match="outside_requests.table: String should match pattern"
    ):
        parse(text)


def test_a_missing_scenario_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(
        InputError, match="cannot read the scenario file: No such file or directory"
    ):
        load_scenario(tmp_path / "absent.yaml")
