"""OpenTelemetry GenAI traces to runs, one per trace id; the mapping, and what the import notes
keep, is docs/integrations.md, "OpenTelemetry GenAI traces"."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from judge.core.domain.run import Run, parse_run
from judge.engine.traces.messages import (
    Message,
    MessageFormatError,
    as_arguments,
    as_text,
    messages,
)
from judge.engine.traces.messages import system_instructions as read_system
from judge.engine.traces.otlp import STATUS_ERROR, BrokenSpan, Span
from judge.engine.traces.records import ImportedRun, ImportNotes, map_score_value, safe_id

AGENT, USER = "agent", "user"
INFERENCE = {"chat", "text_completion", "generate_content"}
DETAILS_EVENT = "gen_ai.client.inference.operation.details"
EVALUATION_EVENT = "gen_ai.evaluation.result"
LEGACY_EVENTS = {
    "gen_ai.content.prompt": "gen_ai.prompt",
    "gen_ai.content.completion": "gen_ai.completion",
}
READ_ATTRIBUTES = {
    "gen_ai.operation.name", "gen_ai.input.messages", "gen_ai.output.messages",
    "gen_ai.system_instructions", "gen_ai.agent.name", "gen_ai.agent.id", "gen_ai.request.model",
    "gen_ai.response.model", "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens",
    "gen_ai.tool.name", "gen_ai.tool.call.id", "gen_ai.tool.call.arguments",
    "gen_ai.tool.call.result", "error.type",
}  # fmt: skip


class OtelImport(NamedTuple):
    runs: list[ImportedRun]
    broken: list[str]


class SpanMessages(NamedTuple):
    system: Message | None
    inputs: list[Message]
    outputs: list[Message]


def _attribute_messages(attrs: dict[str, Any]) -> SpanMessages:
    system = attrs.get("gen_ai.system_instructions")
    return SpanMessages(
        read_system(system, "gen_ai.system_instructions") if system is not None else None,
        messages(attrs.get("gen_ai.input.messages", []), "gen_ai.input.messages"),
        messages(attrs.get("gen_ai.output.messages", []), "gen_ai.output.messages"),
    )


def span_messages(span: Span) -> SpanMessages:
    """The messages of an inference span: its attributes, else its details event, else the
    older prompt/completion events (MessageFormatError: not readable)."""
    if "gen_ai.input.messages" in span.attributes or "gen_ai.output.messages" in span.attributes:
        return _attribute_messages(span.attributes)
    for event in span.events:
        if event.name == DETAILS_EVENT:
            return _attribute_messages(event.attributes)
    legacy = {
        e.name: e.attributes.get(LEGACY_EVENTS[e.name])
        for e in span.events
        if e.name in LEGACY_EVENTS
    }
    return SpanMessages(
        None,
        messages(legacy.get("gen_ai.content.prompt") or [], "gen_ai.prompt"),
        messages(legacy.get("gen_ai.content.completion") or [], "gen_ai.completion"),
    )


class TranscriptBuilder:
    """Events and per-turn trace figures, accumulated span by span."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.turn, self.replied = 1, False
        self.history: list[Message] = []
        self.systems: list[Message] = []
        self.actions: dict[str, dict[str, Any]] = {}
        self.answered: set[str] = set()
        self.steps: dict[int, dict[str, float]] = defaultdict(lambda: defaultdict(float))

    def _event(self, kind: str, seat: str, **fields: Any) -> dict[str, Any]:
        event = {"turn": self.turn, "seat": seat, "kind": kind, **fields}
        self.events.append(event)
        return event

    def _input(self, kind: str, seat: str, content: str) -> None:
        if self.replied:
            self.turn, self.replied = self.turn + 1, False
        self._event(kind, seat, content=content)

    def add_input(self, message: Message) -> None:
        if message.role == "assistant":
            self.add_output(message)
            return
        for part in message.parts:
            if part.kind == "tool_call_response":
                self.tool_result(part.call_id, part.text, error=False)
        if message.text and message.role == "system":
            self._input("system", AGENT, message.text)
        elif message.text:
            self._input("message", USER if message.role == "user" else AGENT, message.text)

    def add_output(self, message: Message) -> None:
        if message.text:
            self._event("message", AGENT, content=message.text)
        for part in message.parts:
            if part.kind == "tool_call":
                self.action(part.call_id, part.name or "tool", part.arguments or {})
        self.replied = True

    def action(self, call_id: str | None, name: str, args: dict[str, Any]) -> dict[str, Any]:
        if call_id and call_id in self.actions:
            return self.actions[call_id]
        event = self._event("action", AGENT, name=name, args=args, status="unknown")
        self.replied = True
        if call_id:
            self.actions[call_id] = event
        return event

    def tool_result(self, call_id: str | None, text: str, *, error: bool) -> None:
        """A tool's answer: the action's status (an error is never undone by a later
        success report), and one observation per call id."""
        action = self.actions.get(call_id or "")
        if action is not None and (error or action["status"] == "unknown"):
            action["status"] = "error" if error else "ok"
        if not text or (call_id and call_id in self.answered):
            return
        if call_id:
            self.answered.add(call_id)
        self._input("observation", AGENT, text)


def _new_inputs(history: Sequence[Message], inputs: Sequence[Message]) -> list[Message]:
    """The inputs the conversation has not shown yet (history is usually resent whole)."""
    if list(inputs[: len(history)]) == list(history):
        return list(inputs[len(history) :])
    return [m for m in inputs if m not in history]


def _count(value: Any) -> int:
    """A token count; anything but a non-negative whole number counts as not reported (0)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def add_inference(builder: TranscriptBuilder, span: Span) -> None:
    found = span_messages(span)
    if found.system is not None and found.system not in builder.systems:
        builder.systems.append(found.system)
        builder.add_input(found.system)
    for message in _new_inputs(builder.history, found.inputs):
        builder.add_input(message)
    for message in found.outputs:
        builder.add_output(message)
    builder.history = list(found.inputs) + list(found.outputs)
    step = builder.steps[builder.turn]
    step["tokens_in"] += _count(span.attributes.get("gen_ai.usage.input_tokens"))
    step["tokens_out"] += _count(span.attributes.get("gen_ai.usage.output_tokens"))
    step["latency_ms"] += max(span.end_ns - span.start_ns, 0) / 1e6


def add_tool(builder: TranscriptBuilder, span: Span) -> None:
    attrs = span.attributes
    call_id = attrs.get("gen_ai.tool.call.id")
    name = str(
        attrs.get("gen_ai.tool.name") or span.name.removeprefix("execute_tool ").strip() or "tool"
    )
    error = span.status_code == STATUS_ERROR or "error.type" in attrs
    action = builder.action(call_id, name, as_arguments(attrs.get("gen_ai.tool.call.arguments")))
    step = builder.steps[action["turn"]]
    step["tool_calls"] += 1
    step["tool_errors"] += int(error)
    result = attrs.get("gen_ai.tool.call.result")
    if result is not None:
        text = as_text(result)
    else:
        text = f"error: {span.status_message or attrs.get('error.type')}" if error else ""
    builder.tool_result(call_id, text, error=error)


def evaluation_conditions(spans: Iterable[Span], skipped: list[str]) -> list[dict[str, Any]]:
    """Win conditions from ``gen_ai.evaluation.result`` events (the last result per name)."""
    found: dict[str, dict[str, Any]] = {}
    for span in spans:
        for event in (e for e in span.events if e.name == EVALUATION_EVENT):
            attrs = event.attributes
            cid = safe_id(attrs.get("gen_ai.evaluation.name"), fallback="evaluation")
            value = attrs.get(
                "gen_ai.evaluation.score.value", attrs.get("gen_ai.evaluation.score.label")
            )
            mapped = map_score_value(value)
            if mapped.met is None:
                skipped.append(f"span {span.span_id}: evaluation {cid}: {mapped.reason}")
            else:
                found[cid] = {"id": cid, "met": mapped.met, "progress": mapped.progress}
    return list(found.values())


def agent_id(spans: Sequence[Span]) -> str:
    """Who the agent is: an agent id or name, else the model of the first inference span."""
    for key in (
        "gen_ai.agent.id",
        "gen_ai.agent.name",
        "gen_ai.response.model",
        "gen_ai.request.model",
    ):
        for span in spans:
            if span.attributes.get(key):
                return safe_id(span.attributes[key], fallback="agent")
    return "agent"


def unmapped_of(spans: Iterable[Span]) -> dict[str, Any]:
    """Attributes and events the mapping did not read, per span id, and the resource's."""
    per_span: dict[str, Any] = {}
    resource: dict[str, Any] = {}
    for span in spans:
        resource.update(span.resource)
        extra = {k: v for k, v in span.attributes.items() if k not in READ_ATTRIBUTES}
        events = [
            {"name": e.name, "attributes": e.attributes}
            for e in span.events
            if e.name not in {DETAILS_EVENT, EVALUATION_EVENT, *LEGACY_EVENTS}
        ]
        if extra or events:
            per_span[span.span_id] = {"name": span.name, "attributes": extra, "events": events}
    return {"resource": resource, "spans": per_span}


def trace_steps(builder: TranscriptBuilder) -> list[dict[str, Any]]:
    counts = ("tokens_in", "tokens_out", "tool_calls", "tool_errors")
    return [
        {"turn": turn, "seat": AGENT, "latency_ms": figures["latency_ms"]}
        | {name: int(figures[name]) for name in counts}
        for turn, figures in sorted(builder.steps.items())
    ]


def transcript_of(
    spans: Sequence[Span], skipped: list[str]
) -> tuple[TranscriptBuilder, list[Span]]:
    """Feed the spans in time order; a span whose messages cannot be read is reported and left out."""
    builder, used = TranscriptBuilder(), []
    for span in sorted(spans, key=lambda s: (s.start_ns, s.end_ns)):
        operation = span.attributes.get("gen_ai.operation.name")
        try:
            if operation in INFERENCE:
                add_inference(builder, span)
            elif operation == "execute_tool":
                add_tool(builder, span)
        except MessageFormatError as exc:
            skipped.append(f"span {span.span_id}: {exc}")
            continue
        used.append(span)
    return builder, used


def trace_run(
    trace_id: str, spans: Sequence[Span], scenario_id: str, source: str, broken: list[str]
) -> ImportedRun:
    """One trace as a run, with what could not be mapped in its notes."""
    skipped = list(broken)
    builder, used = transcript_of(spans, skipped)
    seats = [{"seat": AGENT, "agent_id": agent_id(used), "scored": True}]
    if any(e["seat"] == USER for e in builder.events):
        seats.append({"seat": USER, "agent_id": "otel-user", "scored": False})
    run: Run = parse_run(
        {
            "run_id": safe_id("otel", trace_id),
            "scenario_id": scenario_id,
            "seats": seats,
            "transcript": builder.events,
            "win_conditions": evaluation_conditions(used, skipped),
            "trace": trace_steps(builder),
            "trace_id": trace_id,
            "span_id": root_span_id(spans),
        },
        source=f"{source} trace {trace_id}",
    )
    notes = ImportNotes(
        source=source,
        origin={"format": "otlp-json", "trace_id": trace_id, "spans": len(spans)},
        unmapped=unmapped_of(used),
        skipped=skipped,
    )
    return ImportedRun(run, notes)


def root_span_id(spans: Sequence[Span]) -> str | None:
    """The trace's root span (no parent; the earliest when there are several), or None when
    only child spans arrived: what scores are annotated on (docs/integrations.md)."""
    roots = [s for s in spans if s.parent_span_id is None]
    return min(roots, key=lambda s: (s.start_ns, s.span_id)).span_id if roots else None


def default_scenario(spans: Sequence[Span]) -> str:
    """The resource's ``service.name`` (unless the SDK's placeholder), else ``otel``."""
    name = next(
        (s.resource.get("service.name") for s in spans if s.resource.get("service.name")), None
    )
    if not isinstance(name, str) or name.startswith("unknown_service"):
        return "otel"
    return safe_id(name, fallback="otel")


def broken_line(span: BrokenSpan) -> str:
    return f"{span.where}: {span.reason}"
