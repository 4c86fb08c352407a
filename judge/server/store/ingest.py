"""Repository functions of live trace ingestion and online evaluation rules (keyword-only, one
session each; the tables are :mod:`judge.server.store.ingest_tables`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import NamedTuple

import sqlalchemy as sa
from sqlmodel import Session, col, func, select

from judge.server.store.db import insert_into
from judge.server.store.ingest_tables import (
    EvalRuleRow,
    IngestKeyRow,
    IngestSpanRow,
    IngestTraceRow,
    RuleRunRow,
)
from judge.server.store.tables import RunRow, table_of, utcnow

PENDING, DONE = "pending", "done"

_KEYS = table_of(IngestKeyRow)
_SPANS = table_of(IngestSpanRow)
_TRACES = table_of(IngestTraceRow)


# -- ingest keys --------------------------------------------------------------------------


def insert_ingest_key(
    session: Session, *, prefix: str, key_sha256: str, source: str, label: str | None, by: str
) -> IngestKeyRow:
    row = IngestKeyRow(
        prefix=prefix, key_sha256=key_sha256, source=source, label=label, created_by=by
    )
    session.add(row)
    return row


def live_ingest_key(session: Session, *, prefix: str) -> IngestKeyRow | None:
    query = select(IngestKeyRow).where(
        IngestKeyRow.prefix == prefix, col(IngestKeyRow.revoked_at).is_(None)
    )
    return session.exec(query).first()


def list_ingest_keys(session: Session, *, source: str | None = None) -> list[IngestKeyRow]:
    query = select(IngestKeyRow).order_by(col(IngestKeyRow.id))
    if source is not None:
        query = query.where(IngestKeyRow.source == source)
    return list(session.exec(query).all())


def revoke_ingest_key(session: Session, *, prefix: str) -> bool:
    """Revoke the live key of ``prefix``; False when there is none (unknown or revoked)."""
    revoke = (
        sa.update(_KEYS)
        .where(_KEYS.c.prefix == prefix, _KEYS.c.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
    return bool(session.connection().execute(revoke).rowcount)


# -- spans and traces ---------------------------------------------------------------------


class NewSpan(NamedTuple):
    trace_id: str
    span_id: str
    root: bool
    #: a root span that carries its end time
    root_ended: bool
    span_json: str


def pending_spans(session: Session, *, source: str) -> int:
    """The spans of the source's traces not yet decided."""
    query = sa.select(func.coalesce(func.sum(_TRACES.c.spans), 0)).where(
        _TRACES.c.source == source, _TRACES.c.state == PENDING
    )
    return int(session.connection().execute(query).scalar_one())


def store_spans(
    session: Session, *, source: str, spans: Sequence[NewSpan], now: datetime | None = None
) -> int:
    """Keep the spans not stored yet (by source, trace and span id) and bring their traces up
    to date; a span stored already changes nothing (an exporter's retry). Returns how many
    spans were new."""
    now = now or utcnow()
    connection = session.connection()
    by_trace: dict[str, list[NewSpan]] = {}
    for span in spans:
        by_trace.setdefault(span.trace_id, []).append(span)
    added = 0
    for trace_id, group in by_trace.items():
        known = set(
            connection.execute(
                sa.select(_SPANS.c.span_id).where(
                    _SPANS.c.source == source,
                    _SPANS.c.trace_id == trace_id,
                    _SPANS.c.span_id.in_([s.span_id for s in group]),
                )
            ).scalars()
        )
        fresh = {s.span_id: s for s in group if s.span_id not in known}
        if not fresh:
            continue
        connection.execute(
            insert_into(session, _SPANS).on_conflict_do_nothing(),
            [
                {
                    "source": source,
                    "trace_id": trace_id,
                    "span_id": s.span_id,
                    "root": s.root,
                    "span_json": s.span_json,
                    "received_at": now,
                }
                for s in fresh.values()
            ],
        )
        added += len(fresh)
        _touch_trace(session, source, trace_id, any(s.root_ended for s in fresh.values()), now)
    return added


def _touch_trace(
    session: Session, source: str, trace_id: str, root_ended: bool, now: datetime
) -> None:
    connection = session.connection()
    connection.execute(
        insert_into(session, _TRACES).on_conflict_do_nothing(),
        {
            "source": source,
            "trace_id": trace_id,
            "state": PENDING,
            "root_ended": False,
            "spans": 0,
            "first_span_at": now,
            "last_span_at": now,
        },
    )
    count = (
        sa.select(func.count())
        .select_from(_SPANS)
        .where(_SPANS.c.source == source, _SPANS.c.trace_id == trace_id)
        .scalar_subquery()
    )
    values: dict[str, object] = {"spans": count, "last_span_at": now}
    if root_ended:
        values["root_ended"] = True
    connection.execute(
        sa.update(_TRACES)
        .where(_TRACES.c.source == source, _TRACES.c.trace_id == trace_id)
        .values(**values)
    )


class TraceKey(NamedTuple):
    source: str
    trace_id: str
    root_ended: bool


def ready_traces(
    session: Session, *, now: datetime, quiet_s: float, stale_s: float, limit: int = 100
) -> list[TraceKey]:
    """Pending traces whose root span has ended and that no span reached for ``quiet_s``, and
    those older than ``stale_s`` whatever their state (oldest first)."""
    quiet_since = now - timedelta(seconds=quiet_s)
    stale_since = now - timedelta(seconds=stale_s)
    query = (
        sa.select(_TRACES.c.source, _TRACES.c.trace_id, _TRACES.c.root_ended)
        .where(
            _TRACES.c.state == PENDING,
            sa.or_(
                sa.and_(_TRACES.c.root_ended.is_(True), _TRACES.c.last_span_at <= quiet_since),
                _TRACES.c.first_span_at <= stale_since,
            ),
        )
        .order_by(_TRACES.c.last_span_at)
        .limit(limit)
    )
    return [TraceKey(*row) for row in session.connection().execute(query)]


def trace_spans(session: Session, *, source: str, trace_id: str) -> list[str]:
    query = (
        sa.select(_SPANS.c.span_json)
        .where(_SPANS.c.source == source, _SPANS.c.trace_id == trace_id)
        .order_by(_SPANS.c.span_id)
    )
    return list(session.connection().execute(query).scalars())


def get_trace(session: Session, *, source: str, trace_id: str) -> IngestTraceRow | None:
    return session.get(IngestTraceRow, (source, trace_id))


def decide_trace(session: Session, *, source: str, trace_id: str, outcome: str) -> bool:
    """Mark a pending trace done with what became of it; False when it was decided already."""
    done = session.connection().execute(
        sa.update(_TRACES)
        .where(
            _TRACES.c.source == source,
            _TRACES.c.trace_id == trace_id,
            _TRACES.c.state == PENDING,
        )
        .values(state=DONE, outcome=outcome, decided_at=utcnow())
    )
    return bool(done.rowcount)


# -- rules ----------------------------------------------------------------------------------


def insert_rule(session: Session, *, row: EvalRuleRow) -> EvalRuleRow:
    session.add(row)
    return row


def get_rule(session: Session, *, rule_id: str) -> EvalRuleRow | None:
    return session.get(EvalRuleRow, rule_id)


def list_rules(session: Session, *, active_only: bool = False) -> list[EvalRuleRow]:
    query = select(EvalRuleRow).order_by(col(EvalRuleRow.created_at), col(EvalRuleRow.rule_id))
    if active_only:
        query = query.where(col(EvalRuleRow.paused).is_(False))
    return list(session.exec(query).all())


def rule_runs_since(session: Session, *, rule_id: str, since: datetime) -> int:
    query = (
        select(func.count())
        .select_from(RuleRunRow)
        .where(RuleRunRow.rule_id == rule_id, col(RuleRunRow.created_at) >= since)
    )
    return int(session.exec(query).one())


def rule_run(session: Session, *, run_id: str) -> RuleRunRow | None:
    return session.get(RuleRunRow, run_id)


def add_rule_run(session: Session, *, row: RuleRunRow) -> None:
    """Record which rule made the run; a record kept already stays as it is."""
    if session.get(RuleRunRow, row.run_id) is None:
        session.add(row)


def runs_of_rule(session: Session, *, rule_id: str) -> list[RuleRunRow]:
    """The runs the rule made that are stored (its record is written just before its run)."""
    query = (
        select(RuleRunRow)
        .join(RunRow, col(RunRow.run_id) == col(RuleRunRow.run_id))
        .where(RuleRunRow.rule_id == rule_id)
        .order_by(col(RuleRunRow.created_at), col(RuleRunRow.run_id))
    )
    return list(session.exec(query).all())
