"""Online evaluation rules: which incoming traces are scored, on which traits, by which judge
(docs/integrations.md, "Online evaluation rules"). A rule's filters compare plain values for
equality (agent text is never matched by a pattern); its sampling decision is a hash of the
trace id and the rule's seed, so a trace always gets the same answer, two rules with the same
rate and seed pick the same traces, and raising the rate keeps every trace picked before."""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field
from sqlmodel import Session

from judge.core.domain.run import Identifier, Run
from judge.core.errors import NotFoundError
from judge.engine.settings import Settings, judge_spec
from judge.engine.traces.otlp import Span
from judge.server.service import platform
from judge.server.store import ingest as ingest_repo
from judge.server.store.ingest_tables import EvalRuleRow
from judge.server.store.tables import utcnow

#: ``submitted_by`` of a rule's runs: the rule's id follows.
RULE_ACTOR = "rule:"
_SCALE = float(2**64)


def sampled(trace_id: str, *, rate: float, seed: str) -> bool:
    """Whether a rule of ``rate`` and ``seed`` picks the trace: the first 64 bits of
    sha256(seed, trace id) as a fraction of 2**64, below ``rate``."""
    if rate >= 1.0:
        return True
    if rate <= 0.0:
        return False
    digest = hashlib.sha256(f"{seed}\x1f{trace_id.lower()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / _SCALE < rate


Scalar = str | int | float | bool


class RuleFilters(BaseModel):
    """Which traces a rule considers; every filter given must hold, an empty one holds always."""

    model_config = ConfigDict(extra="forbid")

    service_names: list[str] = Field(default_factory=list, max_length=100)
    scenarios: list[str] = Field(default_factory=list, max_length=100)
    agents: list[str] = Field(default_factory=list, max_length=100)
    span_attributes: dict[str, Scalar] = Field(
        default_factory=dict,
        max_length=50,
        description="attribute -> value: some span of the trace carries each pair exactly",
    )


class RuleSpec(BaseModel):
    """What an owner sends to create or change a rule."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    filters: RuleFilters = Field(default_factory=RuleFilters)
    sample_rate: float = Field(ge=0.0, le=1.0)
    seed: str | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description="the sampling seed; two rules with the same rate and seed pick the same "
        "traces (default: a fresh one)",
    )
    traits: list[str] = Field(min_length=1, max_length=50)
    judge: str | None = Field(default=None, max_length=200, description="default: the service's")
    max_runs_per_day: int | None = Field(default=None, ge=1, le=10_000_000)
    paused: bool = False


class Rule(BaseModel):
    """A stored rule."""

    rule_id: Identifier
    name: str
    filters: RuleFilters
    sample_rate: float
    seed: str
    traits: list[str]
    judge: str | None
    max_runs_per_day: int | None
    paused: bool
    version: int
    created_by: str
    created_at: datetime
    updated_at: datetime


def rule_of(row: EvalRuleRow) -> Rule:
    """The stored rule; its other columns share the rule's field names."""
    return Rule.model_validate(
        {
            **row.model_dump(),
            "filters": RuleFilters.model_validate_json(row.filters_json),
            "traits": json.loads(row.traits_json),
            "judge": row.judge_model,
        }
    )


def _checked(session: Session, spec: RuleSpec, settings: Settings) -> None:
    """The traits must be the service's, the judge one it can resolve (InputError naming it)."""
    platform.rubric_set(session, settings=settings).only(spec.traits)
    if spec.judge is not None:
        judge_spec(spec.judge, dev_mode=settings.dev_mode)


def _values(spec: RuleSpec) -> dict[str, Any]:
    return {
        "name": spec.name,
        "filters_json": spec.filters.model_dump_json(),
        "sample_rate": spec.sample_rate,
        "traits_json": json.dumps(spec.traits),
        "judge_model": spec.judge,
        "max_runs_per_day": spec.max_runs_per_day,
        "paused": spec.paused,
    }


def create_rule(session: Session, *, spec: RuleSpec, by: str, settings: Settings) -> Rule:
    _checked(session, spec, settings)
    row = EvalRuleRow(
        rule_id=f"rule-{secrets.token_hex(6)}",
        seed=spec.seed or secrets.token_hex(8),
        created_by=by,
        **_values(spec),
    )
    ingest_repo.insert_rule(session, row=row)
    session.flush()
    return rule_of(row)


def _found(session: Session, rule_id: str) -> EvalRuleRow:
    """The rule's row; NotFoundError when there is none."""
    row = ingest_repo.get_rule(session, rule_id=rule_id)
    if row is None:
        raise NotFoundError(f"rule {rule_id!r} not found")
    return row


def get_rule(session: Session, *, rule_id: str) -> Rule:
    return rule_of(_found(session, rule_id))


def list_rules(session: Session) -> list[Rule]:
    return [rule_of(row) for row in ingest_repo.list_rules(session)]


def update_rule(
    session: Session, *, rule_id: str, spec: RuleSpec, by: str, settings: Settings
) -> Rule:
    """Replace what the rule does from now on (its version goes up); the runs it made already
    keep the traits and judge they were made with, and nothing is scored again."""
    row = _found(session, rule_id)
    _checked(session, spec, settings)
    for name, value in _values(spec).items():
        setattr(row, name, value)
    row.seed = spec.seed or row.seed
    row.version += 1
    row.updated_at = utcnow()
    session.add(row)
    session.flush()
    return rule_of(row)


def set_paused(session: Session, *, rule_id: str, paused: bool) -> Rule:
    """Pause or resume the rule (its version goes up when the state changes); nothing else of
    it changes, so a rule can be paused even after its traits left the service's rubrics."""
    row = _found(session, rule_id)
    if row.paused != paused:
        row.paused = paused
        row.version += 1
        row.updated_at = utcnow()
        session.add(row)
        session.flush()
    return rule_of(row)


class RuleRun(NamedTuple):
    """A run the rule made of a trace, with the rule version, traits and judge it was made with."""

    run_id: str
    rule_version: int
    source: str
    trace_id: str
    traits: list[str]
    judge: str | None
    created_at: datetime


def runs_of(session: Session, *, rule_id: str) -> list[RuleRun]:
    """The stored runs the rule made, oldest first (NotFoundError for an unknown rule)."""
    get_rule(session, rule_id=rule_id)
    return [
        RuleRun(
            r.run_id,
            r.rule_version,
            r.source,
            r.trace_id,
            traits_of(r.traits_json),
            r.judge_model,
            r.created_at,
        )
        for r in ingest_repo.runs_of_rule(session, rule_id=rule_id)
    ]


def service_name(spans: Sequence[Span]) -> str | None:
    return next(
        (
            str(s.resource["service.name"])
            for s in spans
            if isinstance(s.resource.get("service.name"), str)
        ),
        None,
    )


def _has_attribute(spans: Sequence[Span], key: str, value: Scalar) -> bool:
    return any(
        key in s.attributes
        and type(s.attributes[key]) is type(value)
        and s.attributes[key] == value
        for s in spans
    )


def matches(filters: RuleFilters, spans: Sequence[Span], run: Run) -> bool:
    """Whether every filter holds for the trace (its spans) and the run it maps to."""
    if filters.service_names and service_name(spans) not in filters.service_names:
        return False
    if filters.scenarios and run.scenario_id not in filters.scenarios:
        return False
    if filters.agents and not {s.agent_id for s in run.seats if s.scored} & set(filters.agents):
        return False
    return all(_has_attribute(spans, k, v) for k, v in filters.span_attributes.items())


def traits_of(traits_json: str) -> list[str]:
    return [str(t) for t in json.loads(traits_json)]
