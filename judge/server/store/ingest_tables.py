"""Tables of live trace ingestion and online evaluation rules (docs/integrations.md, "Live
traces"): ingest keys (hashes only), every span received (one row per source, trace and span id,
so an exporter's retry stores nothing twice), each trace's state, the owners' rules, and which
run a rule made of which trace."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from judge.server.store.tables import UtcDateTime, utcnow


class IngestKeyRow(SQLModel, table=True):
    """A key one source sends spans with: only its sha256 and a public prefix are kept."""

    __tablename__ = "ingest_keys"

    id: int | None = Field(default=None, primary_key=True)
    prefix: str = Field(unique=True, max_length=32)
    key_sha256: str = Field(max_length=64)
    source: str = Field(index=True, max_length=200)
    label: str | None = Field(default=None, max_length=200)
    created_by: str = Field(max_length=200)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())
    revoked_at: datetime | None = Field(default=None, sa_type=UtcDateTime())


class IngestSpanRow(SQLModel, table=True):
    """One span as decoded (``span_json``), stored before its request is acknowledged."""

    __tablename__ = "ingest_spans"

    source: str = Field(primary_key=True, max_length=200)
    trace_id: str = Field(primary_key=True, max_length=32)
    span_id: str = Field(primary_key=True, max_length=16)
    root: bool
    span_json: str = Field(sa_type=sa.Text())
    received_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())


class IngestTraceRow(SQLModel, table=True):
    """A trace of one source: pending until it is quiet (or stale), then decided once."""

    __tablename__ = "ingest_traces"

    source: str = Field(primary_key=True, max_length=200)
    trace_id: str = Field(primary_key=True, max_length=32)
    state: str = Field(default="pending", index=True, max_length=16)
    root_ended: bool = False
    spans: int = 0
    first_span_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())
    last_span_at: datetime = Field(default_factory=utcnow, index=True, sa_type=UtcDateTime())
    outcome: str | None = Field(default=None, sa_type=sa.Text())
    decided_at: datetime | None = Field(default=None, sa_type=UtcDateTime())


class EvalRuleRow(SQLModel, table=True):
    """An online evaluation rule: which traces (filters, sampled rate and seed) are scored on
    which traits by which judge, within how many runs a UTC day."""

    __tablename__ = "eval_rules"

    rule_id: str = Field(primary_key=True, max_length=80)
    name: str = Field(max_length=200)
    filters_json: str = Field(sa_type=sa.Text())
    sample_rate: float
    seed: str = Field(max_length=200)
    traits_json: str = Field(sa_type=sa.Text())
    judge_model: str | None = Field(default=None, max_length=200)
    max_runs_per_day: int | None = None
    paused: bool = False
    version: int = 1
    created_by: str = Field(max_length=200)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime())


class RuleRunRow(SQLModel, table=True):
    """A run a rule made of a trace, with the traits and judge the rule named at the time (a
    later change to the rule never reaches a run already made). Written before the run itself,
    so scoring never meets the run without it (no foreign key for that reason)."""

    __tablename__ = "rule_runs"

    run_id: str = Field(primary_key=True, max_length=200)
    rule_id: str = Field(index=True, max_length=80)
    rule_version: int
    source: str = Field(max_length=200)
    trace_id: str = Field(max_length=32)
    traits_json: str = Field(sa_type=sa.Text())
    judge_model: str | None = Field(default=None, max_length=200)
    created_at: datetime = Field(default_factory=utcnow, index=True, sa_type=UtcDateTime())
