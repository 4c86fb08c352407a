"""A scenario file (docs/checks.md), loaded by :func:`judge.engine.checks.load_scenario`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, model_validator

from judge.core.domain.checks import CheckKind, Op, Scalar
from judge.core.domain.outputs import Value
from judge.core.domain.run import ActionStatus

Label = Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_.:\-]+$")]
SqlName = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")]
SQL_EVALUATORS = ("state_predicate", "invariant", "delayed_check")
EVALUATORS = (*SQL_EVALUATORS, "outcome_metric", "trace_check")


class _Compared(Value):
    """A wanted value and how the answer is compared with it."""

    op: Op
    wanted: Scalar

    @model_validator(mode="after")
    def _null_only_for_equality(self) -> _Compared:
        if self.wanted is None and self.op not in ("eq", "ne"):
            raise ValueError(f"wanted: null can only be compared with eq or ne, not {self.op}")
        return self


class _ScoredCheck(_Compared):
    """What every check that counts towards a run's outcome declares."""

    label: Label
    description: str = ""
    kind: CheckKind = "goal"
    required: bool = True
    weight: float = Field(default=1.0, gt=0.0, le=1000.0)

    @model_validator(mode="after")
    def _hard_rules_are_required(self) -> _ScoredCheck:
        if self.kind == "hard_rule" and not self.required:
            raise ValueError(
                "required: a hard rule is always required; to make it optional, "
                "declare it as a goal with required: false"
            )
        return self


class SqlCheck(_ScoredCheck):
    """One read-only SQL query returning one value; ``params`` are bound, never pasted in."""

    evaluator: Literal["state_predicate", "invariant", "delayed_check"] = "state_predicate"
    sql: str = Field(min_length=1, max_length=20_000)
    params: dict[str, Scalar] = Field(default_factory=dict)


class ActionFilter(Value):
    """Which of the agent's actions a trace check counts: any of ``names``, with one of
    ``status`` (absent: every attempt), carrying ``args`` among its arguments."""

    names: list[Annotated[str, Field(min_length=1)]] = Field(min_length=1)
    status: list[ActionStatus] | None = None
    args: dict[str, Any] = Field(default_factory=dict)


class TraceCheck(_ScoredCheck):
    """How the result was reached: counts the agent's matching actions in the transcript."""

    evaluator: Literal["trace_check"]
    count_actions: ActionFilter


class OutcomeMetric(_Compared):
    """A number measured on each run and judged only across runs (mean, sum, min or max)."""

    label: Label
    description: str = ""
    evaluator: Literal["outcome_metric"]
    sql: str = Field(min_length=1, max_length=20_000)
    params: dict[str, Scalar] = Field(default_factory=dict)
    state: Literal["end_state", "after_horizon"] = "end_state"
    aggregate: Literal["mean", "sum", "min", "max"] = "mean"
    wanted: float


def _evaluator_tag(value: Any) -> str | None:
    if isinstance(value, dict):
        evaluator = value.get("evaluator", "state_predicate")
    else:
        evaluator = getattr(value, "evaluator", None)
    return evaluator if evaluator in EVALUATORS else None


Check = Annotated[
    Annotated[SqlCheck, Tag("state_predicate")]
    | Annotated[SqlCheck, Tag("invariant")]
    | Annotated[SqlCheck, Tag("delayed_check")]
    | Annotated[TraceCheck, Tag("trace_check")]
    | Annotated[OutcomeMetric, Tag("outcome_metric")],
    Discriminator(
        _evaluator_tag,
        custom_error_type="invalid_evaluator",
        custom_error_message=f"evaluator must be one of {', '.join(EVALUATORS)}",
    ),
]


class CustomerPolicy(Value):
    """How the agent may contact the customer; contacts beyond ``allowed_contacts`` are
    interruptions."""

    seat: Label | None = None
    contact_actions: list[Annotated[str, Field(min_length=1)]] = Field(default_factory=list)
    allowed_contacts: int = Field(ge=0)


class OutsideRequests(Value):
    """The end-state table of requests to emulated outside services; rows equal on
    ``key_columns`` are one request sent several times (a duplicate effect)."""

    table: SqlName
    key_columns: list[SqlName] = Field(min_length=1)


class WorldSource(Value):
    """How to build the world from text (paths relative to the scenario file)."""

    schema_file: str = Field(min_length=1)
    seed_file: str | None = None
    horizon_file: str | None = None


class Limits(Value):
    check_timeout_s: float = Field(default=2.0, gt=0.0, le=60.0)


class Scenario(Value):
    """The checks of one scenario and the policies its run summary counts against."""

    scenario_id: Label
    title: str = ""
    description: str = ""
    agent_seats: list[Label] | None = None
    customer: CustomerPolicy | None = None
    outside_requests: OutsideRequests | None = None
    world: WorldSource | None = None
    limits: Limits = Field(default_factory=Limits)
    checks: list[Check] = Field(min_length=1)

    @model_validator(mode="after")
    def _labels_unique_and_goal_required(self) -> Scenario:
        labels = [c.label for c in self.checks]
        repeated = sorted({x for x in labels if labels.count(x) > 1})
        if repeated:
            raise ValueError(f"checks: labels must be unique, repeated: {repeated}")
        if not any(c.kind == "goal" and c.required for c in self.scored_checks):
            raise ValueError(
                "checks: at least one goal check must be required; a run cannot be graded "
                "on optional evidence or hard rules alone"
            )
        return self

    @property
    def scored_checks(self) -> list[SqlCheck | TraceCheck]:
        """The checks that decide each run's outcome (everything but outcome metrics)."""
        return [c for c in self.checks if not isinstance(c, OutcomeMetric)]

    @property
    def metrics(self) -> list[OutcomeMetric]:
        """The outcome metrics, judged across runs."""
        return [c for c in self.checks if isinstance(c, OutcomeMetric)]
