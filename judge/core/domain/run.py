"""The run format (docs/run-format.md): what a scenario engine submits after one episode."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import AfterValidator, ConfigDict, Field, ValidationError, model_validator

from judge.core.domain.checks import WorldState
from judge.core.domain.limits import (
    ADVERSARY_CONFIG_MAX,
    ID_PATTERN,
    SEED_MAX,
    SEED_MIN,
    BodyError,
    RequestLimits,
    bounded_loads,
    check_json,
    run_id_problem,
    text_problem,
)
from judge.core.domain.outputs import Strict, WholeNumber, WholeOrNone
from judge.core.errors import InputError, RunFormatError, describe_validation_error

Identifier = Annotated[str, Field(min_length=1, max_length=200, pattern=ID_PATTERN)]
#: How deep an action's ``args`` or ``result`` may nest: deeper values could not be read back.
VALUE_DEPTH_CEILING = 64
#: The bounds a run's free-form values keep wherever the run comes from (sizes are the API's job).
_VALUE_LIMITS = RequestLimits(
    max_json_depth=VALUE_DEPTH_CEILING, max_text_chars=10**9, max_array_items=10**9
)


def _refusing(problem_of: Callable[[str], str | None]) -> Callable[[str], str]:
    """A validator refusing (ValueError) the text ``problem_of`` finds a problem with."""

    def check(text: str) -> str:
        if problem := problem_of(text):
            raise ValueError(problem)
        return text

    return check


_storable = _refusing(text_problem)


def _storable_value(value: Any) -> Any:
    try:
        check_json(value, _VALUE_LIMITS, root="value")
    except BodyError as exc:
        raise ValueError(str(exc)) from None
    return value


#: Free text: any length the request limits allow, but nothing a store cannot keep.
Text = Annotated[str, AfterValidator(_storable)]
RunId = Annotated[str, AfterValidator(_refusing(run_id_problem))]
JsonValue = Annotated[Any, AfterValidator(_storable_value)]
JsonObject = Annotated[dict[str, Any], AfterValidator(_storable_value)]


class RunPart(Strict):
    """A part of the run format, read with JSON's types exactly as docs/run.schema.json states
    them: ``"yes"`` is no boolean and ``"2"`` no number (pydantic's strict mode)."""

    model_config = ConfigDict(strict=True)


#: How a tool call ended: it worked, failed, could not be told, or was refused.
ActionStatus = Literal["ok", "error", "unknown", "rejected"]


class SeatAssignment(RunPart):
    seat: Identifier
    agent_id: Identifier
    scored: bool = True


class _EventBase(RunPart):
    turn: WholeNumber = Field(ge=0)
    seat: Identifier


class MessageEvent(_EventBase):
    kind: Literal["message"]
    content: Text


class ActionEvent(_EventBase):
    """A tool call made by a participant."""

    kind: Literal["action"]
    name: Text = Field(min_length=1)
    args: JsonObject = Field(default_factory=dict)
    status: ActionStatus = "ok"
    result: JsonValue = None


class ObservationEvent(_EventBase):
    kind: Literal["observation"]
    content: Text


class SystemEvent(_EventBase):
    kind: Literal["system"]
    content: Text


class FaultEvent(_EventBase):
    """A failure the engine injected (a tool timing out, a service answering unknown)."""

    kind: Literal["fault"]
    content: Text = ""


class DoneEvent(_EventBase):
    """The participant declared it was finished."""

    kind: Literal["done"]
    content: Text = ""


TranscriptEvent = Annotated[
    MessageEvent | ActionEvent | ObservationEvent | SystemEvent | FaultEvent | DoneEvent,
    Field(discriminator="kind"),
]


class WinCondition(RunPart):
    """A binary objective decided by the engine (or by the service's state checks)."""

    id: Identifier
    weight: float = Field(default=1.0, ge=0.0)
    met: bool
    progress: float | None = Field(default=None, ge=0.0, le=1.0)
    seat: Identifier | None = None


class TraceStep(RunPart):
    """Per-turn execution data. `progress` and `conditions_met` are cumulative."""

    turn: WholeNumber = Field(ge=0)
    seat: Identifier
    checks_passed: WholeNumber = Field(default=0, ge=0)
    checks_failed: WholeNumber = Field(default=0, ge=0)
    conditions_met: list[Identifier] = Field(default_factory=list)
    progress: float = Field(default=0.0, ge=0.0, le=1.0)
    latency_ms: float | None = Field(default=None, ge=0)
    tokens_in: WholeOrNone = Field(default=None, ge=0)
    tokens_out: WholeOrNone = Field(default=None, ge=0)
    tool_calls: WholeNumber = Field(default=0, ge=0)
    tool_errors: WholeNumber = Field(default=0, ge=0)


class Run(RunPart):
    """One episode of one scenario, as submitted."""

    run_id: RunId
    scenario_id: Identifier
    seed: WholeOrNone = Field(
        default=None, ge=SEED_MIN, le=SEED_MAX, description="a signed 32-bit integer"
    )
    adversary_config: (
        Annotated[str, Field(max_length=ADVERSARY_CONFIG_MAX), AfterValidator(_storable)] | None
    ) = None
    seats: list[SeatAssignment] = Field(min_length=1)
    transcript: list[TranscriptEvent] = Field(default_factory=list)
    win_conditions: list[WinCondition] = Field(default_factory=list)
    trace: list[TraceStep] = Field(default_factory=list)
    world: WorldState | None = None
    trace_id: str | None = Field(
        default=None,
        pattern=r"^[0-9a-f]{32}$",
        description="the OpenTelemetry trace the run was recorded in (32 lowercase hex digits; "
        "`judge import otel` keeps it): its evaluation events are sent into that trace "
        "(docs/integrations.md)",
    )
    span_id: str | None = Field(
        default=None,
        pattern=r"^[0-9a-f]{16}$",
        description="the span of that trace the run stands for, its root span (16 lowercase hex "
        "digits; `judge import otel` and live traces set it): Phoenix annotations and Langfuse "
        "scores are placed on it (docs/integrations.md)",
    )

    @model_validator(mode="after")
    def _references_are_consistent(self) -> Run:
        names = [s.seat for s in self.seats]
        duplicated = _repeated(names)
        if duplicated:
            raise ValueError(f"seats: seat names must be unique, repeated: {duplicated}")
        _check_seat_refs("transcript", [e.seat for e in self.transcript], names)
        _check_seat_refs("trace", [t.seat for t in self.trace], names)
        _check_seat_refs("win_conditions", [c.seat for c in self.win_conditions if c.seat], names)
        repeated = _repeated([c.id for c in self.win_conditions])
        if repeated:
            raise ValueError(f"win_conditions: condition ids must be unique, repeated: {repeated}")
        if not any(s.scored for s in self.seats):
            raise ValueError("seats: at least one seat must have scored: true")
        if self.span_id is not None and self.trace_id is None:
            raise ValueError("span_id: a span is named within its trace; give trace_id too")
        return self

    @property
    def scored_seats(self) -> list[str]:
        return [s.seat for s in self.seats if s.scored]

    def agent_of(self, seat: str) -> str:
        return next(s.agent_id for s in self.seats if s.seat == seat)


def _repeated(values: list[str]) -> list[str]:
    """The values that occur more than once (one pass, so a wide run stays cheap)."""
    return sorted(v for v, n in Counter(values).items() if n > 1)


def _check_seat_refs(field: str, used: list[str], known: list[str]) -> None:
    unknown = sorted(set(used) - set(known))
    if unknown:
        raise ValueError(
            f"{field}: refers to seats not listed in seats: {unknown} (known: {known})"
        )


#: Names other transcript formats use for a run-format field (chat messages, mostly).
FIELD_SYNONYMS = {
    "role": "seat",
    "speaker": "seat",
    "agent": "agent_id",
    "text": "content",
    "message": "content",
    "messages": "transcript",
    "events": "transcript",
    "type": "kind",
    "tool": "name",
    "arguments": "args",
    "id": "run_id",
    "scenario": "scenario_id",
    "step": "turn",
}
#: Every field name of the run format, for "did you mean" on a misspelt one.
_MODELS = (Run, SeatAssignment, MessageEvent, ActionEvent, WinCondition, TraceStep, WorldState)
_FIELD_NAMES = sorted({name for model in _MODELS for name in model.model_fields})

#: Longer unknown names get no guess: the edit distance costs their length times a field's.
_HINT_MAX_CHARS = 40


def _edits(a: str, b: str) -> int:
    """Levenshtein distance: insertions, deletions and substitutions turning ``a`` into ``b``."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        diagonal, row[0] = row[0], i
        for j, cb in enumerate(b, start=1):
            diagonal, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, diagonal + (ca != cb))
    return row[-1]


def field_hint(name: str) -> str | None:
    """The run-format field an unknown ``name`` most likely meant (a name of another format,
    or one or two letters off a field's, the closest first), or None."""
    if name in FIELD_SYNONYMS:
        return FIELD_SYNONYMS[name]
    if len(name) > _HINT_MAX_CHARS:
        return None
    distance, field = min((_edits(name.lower(), f), f) for f in _FIELD_NAMES)
    return field if distance <= min(2, len(field) // 3) else None


def hinted_errors(errors: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Validation problems with "did you mean" added to each unknown field that has a hint."""
    out = []
    for err in errors:
        loc = err.get("loc") or ()
        last = str(loc[-1]) if loc else ""
        hint = field_hint(last) if err.get("type") == "extra_forbidden" else None
        msg = str(err.get("msg", ""))
        out.append({**err, "msg": f"{msg} (did you mean {hint!r}?)" if hint else msg})
    return out


class _Problems(NamedTuple):
    found: list[dict[str, Any]]

    def errors(self) -> list[dict[str, Any]]:
        return self.found


def parse_run(data: Any, *, source: str = "run") -> Run:
    """Validate raw JSON data as a :class:`Run` (``RunFormatError`` naming each bad field, with
    "did you mean" for a field of another format or a misspelling)."""
    try:
        return Run.model_validate(data)
    except ValidationError as exc:
        problems = _Problems(hinted_errors(exc.errors(include_url=False)))
        raise RunFormatError(f"{source}: {describe_validation_error(problems)}") from None


def parse_run_json(text: str | bytes, *, source: str = "run") -> Run:
    """Parse and validate a run from JSON text."""
    try:
        data = bounded_loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise RunFormatError(f"{source}: not valid JSON: {exc.msg} at {where}") from None
    except InputError as exc:
        raise RunFormatError(f"{source}: {exc}") from None
    return parse_run(data, source=source)
