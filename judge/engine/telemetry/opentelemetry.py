"""Scores out over OpenTelemetry: one ``judge.score`` span per scored run, lasting from the
start of its scoring to its stored card, with one ``gen_ai.evaluation.result`` event per trait
of every scored seat (safety included: the collector is the operator's), batched off the
scoring path (docs/integrations.md)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from typing import TYPE_CHECKING, NamedTuple

from judge.core.domain.judging import JudgePass, TraitResult
from judge.core.domain.scorecard import Scorecard, SeatScorecard
from judge.core.versions import __version__

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
    from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult
    from opentelemetry.sdk.trace.id_generator import IdGenerator

log = logging.getLogger("judge.otlp")

EVENT = "gen_ai.evaluation.result"
SPAN = "judge.score"
#: What kind of work the span is, for trace views that read OpenInference's kinds (Phoenix
#: shows a span without it as "unknown").
SPAN_KIND_ATTRIBUTE = "openinference.span.kind"
SPAN_KIND = "EVALUATOR"
#: Longest explanation sent: the rationale of one pass, cut here.
EXPLANATION_CHARS = 1000
#: The score label is the rubric anchor nearest the score (docs/integrations.md).
ANCHORS = ((0.0, "low"), (0.5, "middle"), (1.0, "high"))

Value = str | int | float | bool
#: Events one span may hold (the SDK keeps 128 by default): every trait of the most seats a
#: run may have, with room to spare.
MAX_EVENTS = 4096


class SpanRef(NamedTuple):
    """Where a ``judge.score`` span is: its trace and span ids, lowercase hex."""

    trace_id: str
    span_id: str


class Trait(NamedTuple):
    seat: SeatScorecard
    result: TraitResult
    block: str  # "capability" or "safety"


def traits_of(card: Scorecard) -> Iterator[Trait]:
    """Every trait of every scored seat, capability traits first."""
    for seat in card.seats.values():
        for result in seat.traits.values():
            yield Trait(seat, result, "capability")
        for result in (seat.safety_block or {}).values():
            yield Trait(seat, result, "safety")


def score_label(mean: float | None) -> str:
    """``low``, ``middle`` or ``high`` (the anchor nearest the mean), ``unscored`` without one."""
    if mean is None:
        return "unscored"
    return min(ANCHORS, key=lambda anchor: abs(anchor[0] - mean))[1]


def explanation(result: TraitResult) -> str | None:
    """The rationale of the scored pass nearest the mean (the first such pass on a tie)."""
    mean = result.mean
    scored = [p for p in result.passes if p.score is not None and p.rationale]
    if mean is None or not scored:
        return None
    nearest: JudgePass = min(scored, key=lambda p: abs((p.score or 0.0) - mean))
    return nearest.rationale[:EXPLANATION_CHARS]


def trait_attributes(card: Scorecard, seat: SeatScorecard, result: TraitResult) -> dict[str, Value]:
    """One trait's event attributes: the conventions' names first, then judge's own."""
    attrs: dict[str, Value] = {
        "gen_ai.evaluation.name": result.trait,
        "gen_ai.evaluation.score.label": score_label(result.mean),
        "judge.evaluator.name": "judge",
        "judge.evaluator.version": __version__,
        "judge.evaluator.model": card.judge_model,
        "judge.rubric.version": result.rubric_version,
        "judge.rubric.hash": result.rubric_hash,
        "judge.prompt.version": card.prompt_version,
        "judge.era_id": card.measurement_era.era_id,
        "judge.run_id": card.run_id,
        "judge.seat": seat.seat,
        "judge.agent_id": seat.agent_id,
        "judge.pack": result.pack,
        "judge.passes": result.n_passes,
        "judge.passes.scored": result.n_scored,
        "judge.complete": result.complete,
    }
    if result.mean is not None:
        attrs["gen_ai.evaluation.score.value"] = result.mean
    if (text := explanation(result)) is not None:
        attrs["gen_ai.evaluation.explanation"] = text
    if len(result.pass_scores) >= 2:
        attrs["judge.spread"] = max(result.pass_scores) - min(result.pass_scores)
    if result.variance is not None:
        attrs["judge.variance"] = result.variance
    if result.adaptive is not None:
        attrs["judge.passes.reason"] = result.adaptive.reason
    return attrs


def evaluation_events(card: Scorecard) -> Iterator[dict[str, Value]]:
    """The attributes of one evaluation event per trait, as :func:`traits_of` orders them."""
    for trait in traits_of(card):
        yield trait_attributes(card, trait.seat, trait.result)


def traces_url(endpoint: str) -> str:
    """The OTLP/HTTP traces URL of a collector given by its base URL (or by that URL)."""
    base = endpoint.rstrip("/")
    return base if base.endswith("/v1/traces") else f"{base}/v1/traces"


class EvaluationSender:
    """Sends scorecards' evaluation events to one collector, batched, off the caller's thread."""

    def __init__(
        self, endpoint: str, *, exporter: SpanExporter | None = None, delay_ms: int = 2000
    ) -> None:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import SpanLimits, TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor

        self._trace = ContextVar[int | None]("judge_otlp_trace", default=None)
        resource = Resource.create({"service.name": "judge", "service.version": __version__})
        self.provider: TracerProvider = TracerProvider(
            resource=resource,
            id_generator=_run_trace_ids(self._trace),
            span_limits=SpanLimits(max_events=MAX_EVENTS),
        )
        inner = exporter or OTLPSpanExporter(
            endpoint=traces_url(endpoint), timeout=EXPORT_TIMEOUT_S
        )
        _quiet_sdk_drop_lines()
        batches = BatchSpanProcessor(_warned(inner, endpoint), schedule_delay_millis=delay_ms)
        self.provider.add_span_processor(batches)
        self.tracer = self.provider.get_tracer("judge", __version__)

    def send(
        self, card: Scorecard, *, trace_id: str | None = None, started_ns: int | None = None
    ) -> SpanRef:
        """Queue one span with the card's events, in the run's own trace when it has one; it
        starts at ``started_ns`` (when scoring began, epoch nanoseconds) and ends now."""
        from opentelemetry.trace import SpanKind

        run_attributes: dict[str, Value] = {
            SPAN_KIND_ATTRIBUTE: SPAN_KIND,
            "judge.run_id": card.run_id,
            "judge.scenario_id": card.scenario_id,
            "judge.era_id": card.measurement_era.era_id,
            "judge.evaluator.model": card.judge_model,
            "judge.evaluator.version": __version__,
        }
        token = self._trace.set(int(trace_id, 16) if trace_id else None)
        try:
            span = self.tracer.start_span(
                f"{SPAN} {card.scenario_id}",  # what the span did, and to what, in a trace view
                kind=SpanKind.INTERNAL,
                attributes=run_attributes,
                start_time=started_ns,
            )
        finally:
            self._trace.reset(token)
        for attributes in evaluation_events(card):
            span.add_event(EVENT, attributes)
        span.end(end_time=max(time.time_ns(), started_ns or 0))
        context = span.get_span_context()
        return SpanRef(f"{context.trace_id:032x}", f"{context.span_id:016x}")

    def flush(self, timeout_s: float = 10.0) -> bool:
        """Send what is queued now; False when not emptied in time (a refused batch is
        dropped with a warning, and counts as sent)."""
        return self.provider.force_flush(int(timeout_s * 1000))

    def close(self) -> None:
        self.provider.shutdown()


_SENDERS: dict[str, EvaluationSender | None] = {}
_SENDERS_LOCK = threading.Lock()
_NO_OTEL = (
    "JUDGE_OTLP_ENDPOINT is set but %s is missing: install judge[otel]; no evaluation "
    "events are sent"
)


def sender_for(endpoint: str) -> EvaluationSender | None:
    """The process's sender to ``endpoint``; None (said once) without the ``otel`` extra."""
    with _SENDERS_LOCK:
        if endpoint not in _SENDERS:
            try:
                _SENDERS[endpoint] = EvaluationSender(endpoint)
            except ImportError as exc:
                log.warning(_NO_OTEL, exc.name)
                _SENDERS[endpoint] = None
        return _SENDERS[endpoint]


def flush_all(timeout_s: float = 10.0) -> None:
    """Send what every sender holds (a command line that exits next calls this)."""
    with _SENDERS_LOCK:
        senders = [s for s in _SENDERS.values() if s is not None]
    for sender in senders:
        sender.flush(timeout_s)


def export_card(
    card: Scorecard,
    *,
    endpoint: str | None,
    trace_id: str | None = None,
    started_ns: int | None = None,
) -> SpanRef | None:
    """Queue a stored card's evaluation events for ``endpoint`` (nothing when it is None):
    where its span is, or None when none was queued. Never raises: a telemetry failure must
    not fail a scored run, so it is logged instead."""
    if endpoint is None or (sender := sender_for(endpoint)) is None:
        return None
    try:
        return sender.send(card, trace_id=trace_id, started_ns=started_ns)
    except Exception as exc:  # noqa: BLE001 - see the docstring
        log.warning("evaluation events of run %s not sent: %s", card.run_id, exc)
        return None


def _run_trace_ids(current: ContextVar[int | None]) -> IdGenerator:
    """Random ids, except that a root span started while ``current`` holds a trace id gets
    that trace (a span cannot otherwise join a trace without a parent)."""
    from opentelemetry.sdk.trace.id_generator import RandomIdGenerator

    class RunTraceIds(RandomIdGenerator):
        def generate_trace_id(self) -> int:
            return current.get() or super().generate_trace_id()

    return RunTraceIds()


#: How long one batch may take, retries included: a dead collector holds a command's exit
#: (and a worker's flush) this long at most, and the SDK's retry lines stay quiet (one warning
#: per dropped batch says it instead).
EXPORT_TIMEOUT_S = 1.0
#: The SDK exporter's logger, whose lines on a dropped batch repeat our own warning.
_SDK_EXPORTER_LOG = "opentelemetry.exporter.otlp.proto.http.trace_exporter"

#: The SDK exporter's lines on a retry and on a dropped batch, which our one warning replaces.
_SDK_DROP_LINES = ("Transient error", "Failed to export spans batch")


class _NotTheDropLine(logging.Filter):
    """Passes every record of the SDK's exporter but its retry and "failed to export" lines."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(_SDK_DROP_LINES)


def _quiet_sdk_drop_lines() -> None:
    sdk = logging.getLogger(_SDK_EXPORTER_LOG)
    if not any(isinstance(f, _NotTheDropLine) for f in sdk.filters):
        sdk.addFilter(_NotTheDropLine())


_DROPPED = "OTLP collector %s did not take %d evaluation span(s); they are dropped"


def _warned(inner: SpanExporter, endpoint: str) -> SpanExporter:
    """``inner``, saying in one warning per failed batch that the collector did not take it."""
    from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

    class Warned(SpanExporter):
        def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
            result = inner.export(spans)
            if result is not SpanExportResult.SUCCESS:
                log.warning(_DROPPED, endpoint, len(spans))
            return result

        def shutdown(self) -> None:
            inner.shutdown()

        def force_flush(self, timeout_millis: int = 30000) -> bool:
            return inner.force_flush(timeout_millis)

    return Warned()
