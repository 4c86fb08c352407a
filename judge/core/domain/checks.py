"""State checks (docs/checks.md): `WorldState`, submitted as ``Run.world``, and the values
:func:`judge.engine.checks.evaluate_run` returns (decided in :mod:`judge.core.scoring.outcomes`)."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from judge.core.domain.outputs import Output, Value, WholeNumber

#: One value a check can answer or want: what a single SQL cell can hold, as JSON.
Scalar = int | float | str | bool | None

Op = Literal["eq", "ne", "gt", "ge", "lt", "le"]
CheckKind = Literal["goal", "hard_rule"]
Evaluator = Literal[
    "state_predicate", "invariant", "delayed_check", "outcome_metric", "trace_check"
]
CheckStatus = Literal["passed", "failed", "error"]
OutcomeName = Literal["verified", "not_achieved", "rule_violated", "not_scored"]
CheckVerdict = Literal["pass", "partial", "fail", "unscoreable"]

#: PostgreSQL's URL schemes (libpq's two spellings): a world's database named so is a server,
#: anything else a SQLite path (``judge.server.store.db.is_postgres_url`` applies the same rule).
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class StepState(Value):
    """The world's database as it stood after one turn: what invariants are checked on."""

    model_config = ConfigDict(strict=True)  # part of the run format: JSON types exactly

    turn: WholeNumber = Field(ge=0)
    database: str = Field(min_length=1)


class WorldState(Value):
    """Where a run's world can be read.

    Each database is a SQLite path (relative to the run file, or absolute) or a
    ``postgresql://`` URL.

    Attributes:
        end_state: the world when the episode ended; goal checks and hard rules read it.
        after_horizon: the world after the horizon, once delayed events have fired.
        step_states: the world after each turn, for invariants.
        environment_error: set when the environment failed (setup, provider, sandbox);
            the run is then ``not_scored`` and never counted against the agent.
    """

    model_config = ConfigDict(strict=True)  # part of the run format: JSON types exactly

    end_state: str | None = Field(default=None, min_length=1)
    after_horizon: str | None = Field(default=None, min_length=1)
    step_states: list[StepState] = Field(default_factory=list)
    environment_error: str | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _end_state_unless_failed(self) -> WorldState:
        if self.end_state is None and self.environment_error is None:
            raise ValueError("end_state: required unless environment_error is set")
        return self


class CheckResult(Output):
    """One check of one run: what the world answered, what was wanted, and why it passed or not.

    Attributes:
        status: ``error`` means the check could not be evaluated (refused statement, timeout,
            wrong shape, missing database); ``detail`` says why.
        answered: the value the world gave (for an invariant: the first failing one).
        failed_at: for an invariant, the states that broke it ("turn 3", "end_state").
    """

    label: str
    kind: CheckKind
    evaluator: Evaluator
    required: bool
    weight: float
    status: CheckStatus
    op: Op
    wanted: Scalar
    answered: Scalar = None
    detail: str
    failed_at: list[str] = Field(default_factory=list)


class MetricValue(Output):
    """An outcome metric measured on one run; it is judged only across runs."""

    label: str
    value: float | None
    aggregate: Literal["mean", "sum", "min", "max"]
    op: Op
    wanted: float
    error: str | None = None


class DuplicateRequest(Output):
    """One outside request that was sent more than once."""

    key: dict[str, Scalar]
    count: int


class SummaryCounts(Output):
    """What the run summary counts beside the outcome (docs/checks.md).

    ``false_completion`` and ``recovered`` are None when the run is not scored: without a
    trustworthy goal verdict neither can be decided.
    """

    false_completion: bool | None
    duplicate_effects: int
    duplicate_requests: list[DuplicateRequest] = Field(default_factory=list)
    recovered: bool | None
    faults: int
    customer_contacts: int
    allowed_contacts: int | None
    unnecessary_interruptions: int
    rejected_attempts: int


class Diagnostics(Output):
    """Recorded to look at, never scored."""

    tool_calls: int
    tool_errors: int
    source: Literal["trace", "transcript"]


class OutcomeDecision(Output):
    """What the checks decide about one run; the fields are documented on :class:`StateOutcome`."""

    outcome: OutcomeName
    reward: int | None
    passed: bool | None
    check_reward: float | None
    failed_required: list[str]
    failed_optional: list[str]
    verdict: CheckVerdict
    not_scored_reason: str | None = None


class RunKey(Output):
    """The run a result is about, and the scenario, seed and adversary it was played under."""

    run_id: str
    scenario_id: str
    seed: int | None
    adversary_config: str | None


class StateOutcome(OutcomeDecision, RunKey):
    """Everything state checking says about one run.

    Attributes:
        outcome: ``rule_violated`` (any hard rule failed), else ``verified`` (every required
            goal check passed), else ``not_achieved``; ``not_scored`` when the environment
            failed or a check could not be evaluated.
        reward: -1, 1, 0, or None when not scored.
        passed: every required check passed (None when not scored).
        check_reward: weighted fraction of checks passed (None when not scored).
        verdict: pass (all checks), partial (required hold, an optional one fails), fail,
            or unscoreable (kept outside the rates).
    """

    checks: list[CheckResult]
    metrics: list[MetricValue] = Field(default_factory=list)
    summary: SummaryCounts
    diagnostics: Diagnostics


class RewardRange(Output):
    """Best, worst and mean of a reward across rollouts: the range matters more than the mean."""

    best: float
    worst: float
    mean: float


class Tally(Output):
    """How many runs had something, their share (None outside the rates: unscoreable runs),
    which runs, and ``total``: events summed over them, where one run can hold several."""

    count: int
    rate: float | None
    run_ids: list[str]
    total: int | None = None


class MetricSummary(Output):
    """An outcome metric aggregated over the scored runs that measured it."""

    label: str
    aggregate: Literal["mean", "sum", "min", "max"]
    value: float | None
    op: Op
    wanted: float
    status: Literal["passed", "failed", "no_data"]
    detail: str
    run_ids: list[str]


class RolloutSummary(Output):
    """Outcomes of several rollouts: spreads, and rates over the scored runs with their counts
    and run lists (unscoreable runs are listed beside them, never in them)."""

    n_runs: int
    n_scored: int
    reward: RewardRange | None
    check_reward: RewardRange | None
    passed: Tally
    outcomes: dict[str, Tally]
    verdicts: dict[str, Tally]
    unscoreable: Tally
    not_scored_reasons: dict[str, str]
    counts: dict[str, Tally]
    metrics: list[MetricSummary]
