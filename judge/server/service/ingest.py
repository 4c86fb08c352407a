"""Live traces in (docs/integrations.md, "Live traces"): ingest keys, OTLP/HTTP bodies read
within bounds, spans kept in the store before the request is acknowledged, and quiet traces
turned into runs, through the mapping ``judge import otel`` uses, by the rules that pick them.

A run a rule makes is submitted like any other (the same intake, screening, budgets, eras and
review), as a platform run of its own leaderboard class; the text in it came from an agent, so
it is screened as an agent-submitted run is."""

from __future__ import annotations

import json
import logging
import threading
import zlib
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import NamedTuple

from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.core.domain.limits import bounded_loads
from judge.core.domain.run import Run
from judge.core.errors import AuthError, InputError
from judge.engine.settings import Settings
from judge.engine.traces.mapping import default_scenario, trace_run
from judge.engine.traces.otlp import (
    Decoded,
    ProtobufUnavailable,
    Span,
    decode_protobuf,
    decode_request,
    span_from_record,
    span_record,
)
from judge.engine.traces.records import safe_id
from judge.server.auth import (
    INGEST_SCHEME,
    INVALID_CREDENTIALS,
    IngestIdentity,
    ingest_key_prefix,
    key_matches,
    new_agent_key,
)
from judge.server.service import rules as rule_service
from judge.server.service.budgets import day_start
from judge.server.service.intake import submit_run
from judge.server.service.keys import identifier
from judge.server.store import ingest as ingest_repo
from judge.server.store.db import transaction
from judge.server.store.ingest_tables import RuleRunRow
from judge.server.store.tables import utcnow

log = logging.getLogger("judge.server.service")
JSON_TYPES = frozenset({"application/json"})
PROTOBUF_TYPES = frozenset({"application/x-protobuf", "application/protobuf"})
#: How long a source refused for too many pending spans is asked to wait (about one quiet period).
MIN_RETRY_S = 5.0
#: Traces decided per read of the ready ones, and reads per sweep at most (the rest wait for
#: the next sweep, so one sweep never runs unbounded).
SWEEP_BATCH, SWEEP_BATCHES = 100, 20


class IngestRefused(Exception):
    """A request the bounds or its form refuse: the status, what to tell the exporter, and for
    a passing condition how long to wait."""

    def __init__(self, status: int, detail: str, retry_after: float | None = None) -> None:
        super().__init__(detail)
        self.status, self.detail, self.retry_after = status, detail, retry_after


# -- keys ----------------------------------------------------------------------------------


def issue_ingest_key(session: Session, *, source: str, label: str | None, by: str) -> str:
    """A key for ``source``; returned the only time it exists in clear (stored hashed)."""
    new = new_agent_key(INGEST_SCHEME)
    ingest_repo.insert_ingest_key(
        session,
        prefix=new.prefix,
        key_sha256=new.key_sha256,
        source=identifier("source", source),
        label=label,
        by=by,
    )
    session.flush()
    return new.key


def authenticate_ingest(session: Session, *, key: str) -> IngestIdentity:
    """The source behind a live ingest key; AuthError (the one fixed message) otherwise."""
    row = ingest_repo.live_ingest_key(session, prefix=ingest_key_prefix(key))
    if row is None or not key_matches(key, row.key_sha256):
        raise AuthError(INVALID_CREDENTIALS)
    return IngestIdentity(source=row.source, prefix=row.prefix)


# -- bodies --------------------------------------------------------------------------------


def inflate(body: bytes, limit: int) -> bytes:
    """A gzip body inflated, refused (413) as soon as it passes ``limit`` bytes."""
    inflater = zlib.decompressobj(wbits=31)
    try:
        data = inflater.decompress(body, limit + 1)
    except zlib.error:
        raise IngestRefused(422, "body: Content-Encoding gzip, but not gzip data") from None
    if len(data) > limit or inflater.unconsumed_tail:
        raise IngestRefused(
            413, f"body: inflates to more than {limit} bytes (JUDGE_INGEST_MAX_BODY_BYTES)"
        )
    return data


def decode_body(
    body: bytes, *, content_type: str, content_encoding: str, settings: Settings
) -> Decoded:
    """The spans of one OTLP/HTTP request body (JSON or protobuf, plain or gzip)."""
    encoding = content_encoding.strip().lower()
    if encoding == "gzip":
        body = inflate(body, settings.ingest_max_body_bytes)
    elif encoding not in ("", "identity"):
        raise IngestRefused(415, f"Content-Encoding {encoding!r}: only gzip or none is taken")
    kind = content_type.split(";")[0].strip().lower()
    try:
        if kind in JSON_TYPES:
            return decode_request(bounded_loads(body, settings.max_json_depth * 4))
        if kind in PROTOBUF_TYPES:
            return decode_protobuf(body)
    except ProtobufUnavailable as exc:
        raise IngestRefused(415, str(exc)) from None
    except (InputError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise IngestRefused(422, f"body: {exc}") from None
    raise IngestRefused(
        415, f"Content-Type {kind or '(none)'!r}: send application/json or application/x-protobuf"
    )


class Accepted(NamedTuple):
    received: int
    new: int
    rejected: int
    problems: list[str]


def accept(engine: Engine, *, source: str, decoded: Decoded, settings: Settings) -> Accepted:
    """Keep the request's spans in the store (committed before the caller answers 200); spans
    stored already are left as they are. Past a bound nothing is kept (IngestRefused)."""
    spans = decoded.spans
    if len(spans) > settings.ingest_max_spans_per_request:
        raise IngestRefused(
            413,
            f"{len(spans)} spans in one request, more than "
            f"{settings.ingest_max_spans_per_request} (JUDGE_INGEST_MAX_SPANS_PER_REQUEST); "
            "send smaller batches (OTEL_BSP_MAX_EXPORT_BATCH_SIZE)",
        )
    rows = [
        ingest_repo.NewSpan(
            s.trace_id,
            s.span_id,
            s.parent_span_id is None,
            s.parent_span_id is None and s.end_ns > 0,
            json.dumps(span_record(s), ensure_ascii=False, sort_keys=True),
        )
        for s in spans
    ]
    with transaction(engine) as session:
        pending = ingest_repo.pending_spans(session, source=source)
        if rows and pending + len(rows) > settings.ingest_max_pending_spans:
            raise IngestRefused(
                429,
                f"source {source!r} has {pending} spans waiting to become runs, and this request "
                f"would pass {settings.ingest_max_pending_spans} (JUDGE_INGEST_MAX_PENDING_SPANS); "
                "retry later",
                retry_after=max(MIN_RETRY_S, settings.ingest_quiet_s),
            )
        new = ingest_repo.store_spans(session, source=source, spans=rows)
    problems = [f"{b.where}: {b.reason}" for b in decoded.broken[:20]]
    return Accepted(len(spans), new, len(decoded.broken), problems)


# -- traces to runs ------------------------------------------------------------------------


def sweep(engine: Engine, *, settings: Settings, now: datetime | None = None) -> list[str]:
    """Decide every trace that is ready (quiet with its root ended, or stale); returns the runs
    made, to be queued for scoring."""
    made: list[str] = []
    for _ in range(SWEEP_BATCHES):
        with transaction(engine) as session:
            ready = ingest_repo.ready_traces(
                session,
                now=now or utcnow(),
                quiet_s=settings.ingest_quiet_s,
                stale_s=settings.ingest_stale_s,
                limit=SWEEP_BATCH,
            )
        for trace in ready:
            made.extend(decide(engine, trace=trace, settings=settings))
        if len(ready) < SWEEP_BATCH:
            break
    return made


def _spans(engine: Engine, source: str, trace_id: str) -> list[Span]:
    with transaction(engine) as session:
        records = ingest_repo.trace_spans(session, source=source, trace_id=trace_id)
    return [span_from_record(json.loads(r)) for r in records]


def decide(engine: Engine, *, trace: ingest_repo.TraceKey, settings: Settings) -> list[str]:
    """Turn one ready trace into the runs its rules make, and record what became of it (a
    trace decided by another node meanwhile is left as that node decided it)."""
    if not trace.root_ended:
        return _close(engine, trace, "stale: no ended root span arrived", [])
    spans = _spans(engine, trace.source, trace.trace_id)
    try:
        mapped = trace_run(
            trace.trace_id, spans, default_scenario(spans), f"ingest:{trace.source}", []
        )
    except InputError as exc:
        return _close(engine, trace, f"not a run: {exc}", [])
    made, notes = [], []
    with transaction(engine) as session:
        active = ingest_repo.list_rules(session, active_only=True)
    for row in active:
        rule = rule_service.rule_of(row)
        if not rule_service.matches(rule.filters, spans, mapped.run):
            continue
        if not rule_service.sampled(trace.trace_id, rate=rule.sample_rate, seed=rule.seed):
            notes.append(f"{rule.rule_id}: not sampled")
            continue
        outcome = _rule_run(engine, rule, trace, mapped.run, settings)
        notes.append(f"{rule.rule_id}: {outcome.note}")
        if outcome.queued:
            made.append(outcome.run_id)
    return _close(engine, trace, "; ".join(notes) or "no rule matched", made)


class RuleOutcome(NamedTuple):
    run_id: str
    queued: bool
    note: str


def _rule_run(
    engine: Engine,
    rule: rule_service.Rule,
    trace: ingest_repo.TraceKey,
    mapped: Run,
    settings: Settings,
) -> RuleOutcome:
    """The rule's run of the trace, within the rule's runs a day; which rule made it (with the
    traits and judge it named) is kept first, so scoring never meets the run without it."""
    run_id = safe_id(rule.rule_id, trace.source, trace.trace_id)
    with transaction(engine) as session:
        known = ingest_repo.rule_run(session, run_id=run_id) is not None
        if not known and rule.max_runs_per_day is not None:
            made_today = ingest_repo.rule_runs_since(
                session, rule_id=rule.rule_id, since=day_start()
            )
            if made_today >= rule.max_runs_per_day:
                return RuleOutcome(run_id, False, "the rule's runs for today are spent")
        ingest_repo.add_rule_run(
            session,
            row=RuleRunRow(
                run_id=run_id,
                rule_id=rule.rule_id,
                rule_version=rule.version,
                source=trace.source,
                trace_id=trace.trace_id,
                traits_json=json.dumps(rule.traits),
                judge_model=rule.judge,
            ),
        )
    run = mapped.model_copy(update={"run_id": run_id})
    try:
        intake = submit_run(
            engine,
            run=run,
            submitted_by=f"{rule_service.RULE_ACTOR}{rule.rule_id}",
            settings=settings,
        )
    except InputError as exc:
        return RuleOutcome(run_id, False, f"not submitted: {exc}")
    return RuleOutcome(intake.run_id, intake.created or intake.requeued, f"run {intake.run_id}")


def _close(
    engine: Engine, trace: ingest_repo.TraceKey, outcome: str, made: Sequence[str]
) -> list[str]:
    with transaction(engine) as session:
        ingest_repo.decide_trace(
            session, source=trace.source, trace_id=trace.trace_id, outcome=outcome[:2000]
        )
    return list(made)


class Sweeper:
    """The service's loop that turns quiet traces into runs every ``ingest_sweep_s`` and queues
    them; a store fault is logged and the next sweep tries again (nothing is lost: the traces
    stay pending in the store)."""

    def __init__(
        self, engine: Engine, *, settings: Settings, enqueue: Callable[[str], None]
    ) -> None:
        self.engine, self.settings, self.enqueue = engine, settings, enqueue
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="judge-ingest", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def once(self) -> list[str]:
        made = sweep(self.engine, settings=self.settings)
        for run_id in made:
            self.enqueue(run_id)
        return made

    def _loop(self) -> None:
        while not self._stop.wait(self.settings.ingest_sweep_s):
            try:
                self.once()
            except Exception:  # the loop outlives any one sweep; the traces stay pending
                log.exception("turning quiet traces into runs failed; trying again")

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
