"""Run summary counts read from the transcript and trace (docs/checks.md)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from judge.core.domain.checks import Diagnostics, DuplicateRequest, Scalar, SummaryCounts
from judge.core.domain.run import (
    ActionEvent,
    DoneEvent,
    FaultEvent,
    MessageEvent,
    TraceStep,
    TranscriptEvent,
)
from judge.core.domain.scenario import ActionFilter, CustomerPolicy


def count_actions(
    transcript: Sequence[TranscriptEvent], seats: Collection[str], wanted: ActionFilter
) -> int:
    """How many of the agent's actions match the filter (what a trace check counts)."""
    return sum(1 for action in _actions(transcript, seats) if _matches(action, wanted))


def _actions(transcript: Sequence[TranscriptEvent], seats: Collection[str]) -> list[ActionEvent]:
    return [e for e in transcript if isinstance(e, ActionEvent) and e.seat in seats]


def _matches(action: ActionEvent, wanted: ActionFilter) -> bool:
    if action.name not in wanted.names:
        return False
    if wanted.status is not None and action.status not in wanted.status:
        return False
    return all(
        key in action.args and action.args[key] == value for key, value in wanted.args.items()
    )


def customer_contacts(
    transcript: Sequence[TranscriptEvent], seats: Collection[str], policy: CustomerPolicy
) -> int:
    """How often the agent reached the customer: unrefused ``contact_actions``, and its
    messages when the customer has a seat in the run."""
    contacts = sum(
        1
        for action in _actions(transcript, seats)
        if action.name in policy.contact_actions and action.status != "rejected"
    )
    if policy.seat is not None:
        contacts += sum(1 for e in transcript if isinstance(e, MessageEvent) and e.seat in seats)
    return contacts


def duplicate_requests(
    rows: Sequence[Sequence[object]], key_columns: Sequence[str]
) -> list[DuplicateRequest]:
    """Outside requests sent more than once, from ``(*key, count)`` rows of the request table."""
    return [
        DuplicateRequest(
            key=dict(zip(key_columns, _scalars(row[:-1]), strict=True)), count=int(str(row[-1]))
        )
        for row in rows
    ]


def _scalars(values: Sequence[object]) -> list[Scalar]:
    return [v if v is None or isinstance(v, bool | int | float | str) else str(v) for v in values]


def run_summary(
    transcript: Sequence[TranscriptEvent],
    seats: Collection[str],
    *,
    goals_met: bool | None,
    verified: bool,
    customer: CustomerPolicy | None,
    duplicates: Sequence[DuplicateRequest],
) -> SummaryCounts:
    """Count what the run summary reports beside the outcome, over the agent's ``seats``
    (``goals_met`` is None when the run is not scored)."""
    said_done = any(isinstance(e, DoneEvent) and e.seat in seats for e in transcript)
    faults = sum(1 for e in transcript if isinstance(e, FaultEvent))
    duplicate_effects = sum(d.count - 1 for d in duplicates)
    contacts = customer_contacts(transcript, seats, customer) if customer else 0
    allowed = customer.allowed_contacts if customer else None
    return SummaryCounts(
        false_completion=None if goals_met is None else said_done and not goals_met,
        duplicate_effects=duplicate_effects,
        duplicate_requests=list(duplicates),
        recovered=None if goals_met is None else faults > 0 and verified and duplicate_effects == 0,
        faults=faults,
        customer_contacts=contacts,
        allowed_contacts=allowed,
        unnecessary_interruptions=max(0, contacts - allowed) if allowed is not None else 0,
        rejected_attempts=sum(1 for a in _actions(transcript, seats) if a.status == "rejected"),
    )


def diagnostics(
    transcript: Sequence[TranscriptEvent], trace: Sequence[TraceStep], seats: Collection[str]
) -> Diagnostics:
    """Tool calls and errors of the agent: from the trace when it has steps, else the transcript."""
    steps = [t for t in trace if t.seat in seats]
    if steps:
        return Diagnostics(
            tool_calls=sum(t.tool_calls for t in steps),
            tool_errors=sum(t.tool_errors for t in steps),
            source="trace",
        )
    actions = _actions(transcript, seats)
    return Diagnostics(
        tool_calls=len(actions),
        tool_errors=sum(1 for a in actions if a.status == "error"),
        source="transcript",
    )
