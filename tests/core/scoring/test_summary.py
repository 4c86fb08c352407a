"""Run summary counts from the transcript; diagnostics that never change a score."""

from __future__ import annotations

from typing import Any

import pytest

from judge.core.domain.checks import DuplicateRequest
from judge.core.domain.run import Run
from judge.core.domain.scenario import ActionFilter, CustomerPolicy
from judge.core.scoring.summary import (
    count_actions,
    customer_contacts,
    diagnostics,
    duplicate_requests,
    run_summary,
)

SEATS = {"agent"}


def events(*items: dict[str, Any]) -> Run:
    seats = [
        {"seat": "agent", "agent_id": "a"},
        {"seat": "customer", "agent_id": "c", "scored": False},
    ]
    return Run.model_validate(
        {"run_id": "r", "scenario_id": "s", "seats": seats, "transcript": list(items)}
    )


def action(name: str, status: str = "ok", seat: str = "agent", **args: Any) -> dict[str, Any]:
    return {"turn": 1, "seat": seat, "kind": "action", "name": name, "status": status, "args": args}


def message(seat: str = "agent") -> dict[str, Any]:
    return {"turn": 1, "seat": seat, "kind": "message", "content": "hello"}


DONE = {"turn": 2, "seat": "agent", "kind": "done"}
FAULT = {"turn": 1, "seat": "agent", "kind": "fault", "content": "timeout"}
POLICY = CustomerPolicy(contact_actions=["ask_customer"], allowed_contacts=1)


def summarise(run: Run, **kwargs: Any) -> Any:
    options = {"goals_met": True, "verified": True, "customer": POLICY, "duplicates": [], **kwargs}
    return run_summary(run.transcript, SEATS, **options)


def test_saying_done_with_a_goal_failed_is_a_false_completion() -> None:
    assert summarise(events(DONE), goals_met=False, verified=False).false_completion is True


def test_saying_done_with_the_goals_met_is_no_false_completion() -> None:
    assert summarise(events(DONE)).false_completion is False


def test_failing_without_saying_done_is_no_false_completion() -> None:
    assert summarise(events(message()), goals_met=False, verified=False).false_completion is False


def test_only_the_agents_done_counts() -> None:
    customer_done = {**DONE, "seat": "customer"}
    assert (
        summarise(events(customer_done), goals_met=False, verified=False).false_completion is False
    )


def test_a_run_that_is_not_scored_has_no_false_completion_or_recovery_verdict() -> None:
    summary = summarise(events(DONE, FAULT), goals_met=None, verified=False)
    assert (summary.false_completion, summary.recovered) == (None, None)


def test_a_fault_then_a_verified_outcome_is_a_recovery() -> None:
    summary = summarise(events(FAULT, DONE))
    assert (summary.recovered, summary.faults) == (True, 1)


def test_no_fault_means_nothing_to_recover_from() -> None:
    assert summarise(events(DONE)).recovered is False


def test_a_fault_with_a_broken_rule_is_not_a_recovery() -> None:
    assert summarise(events(FAULT), verified=False).recovered is False


def test_a_fault_reaching_the_goal_with_a_duplicate_is_not_a_recovery() -> None:
    duplicate = DuplicateRequest(key={"service": "payments"}, count=2)
    summary = summarise(events(FAULT), duplicates=[duplicate])
    assert (summary.recovered, summary.duplicate_effects) == (False, 1)


def test_duplicate_effects_count_every_extra_send() -> None:
    dups = [DuplicateRequest(key={"k": 1}, count=3), DuplicateRequest(key={"k": 2}, count=2)]
    assert summarise(events(), duplicates=dups).duplicate_effects == 3


def test_duplicate_rows_become_keyed_requests() -> None:
    rows = [("payments", "refund", '{"order": 1}', 2)]
    assert duplicate_requests(rows, ["service", "operation", "payload"]) == [
        DuplicateRequest(
            key={"service": "payments", "operation": "refund", "payload": '{"order": 1}'}, count=2
        )
    ]


def test_contacts_beyond_the_allowed_ones_are_unnecessary_interruptions() -> None:
    run = events(action("ask_customer"), action("ask_customer"), action("ask_customer"), message())
    summary = summarise(run)
    assert (summary.customer_contacts, summary.allowed_contacts) == (3, 1)
    assert summary.unnecessary_interruptions == 2


def test_refused_contact_actions_do_not_reach_the_customer() -> None:
    run = events(action("ask_customer", "rejected"), action("ask_customer"))
    assert customer_contacts(run.transcript, SEATS, POLICY) == 1


def test_with_a_customer_seat_the_agents_messages_are_contacts_too() -> None:
    policy = CustomerPolicy(seat="customer", contact_actions=["call"], allowed_contacts=2)
    run = events(message(), message(), message("customer"), action("call"))
    summary = summarise(run, customer=policy)
    assert (summary.customer_contacts, summary.unnecessary_interruptions) == (3, 1)


def test_without_a_contact_policy_nothing_is_an_interruption() -> None:
    summary = summarise(events(action("ask_customer")), customer=None)
    assert (
        summary.customer_contacts,
        summary.allowed_contacts,
        summary.unnecessary_interruptions,
    ) == (0, None, 0)


def test_refused_tool_calls_of_the_agent_are_rejected_attempts() -> None:
    run = events(action("refund", "rejected"), action("refund", "rejected", seat="customer"),
                 action("refund", "error"), action("refund"))  # fmt: skip
    assert summarise(run).rejected_attempts == 1


@pytest.mark.parametrize(
    ("wanted", "count"),
    [
        (ActionFilter(names=["refund"]), 3),
        (ActionFilter(names=["refund", "override"]), 4),
        (ActionFilter(names=["refund"], status=["ok"]), 1),
        (ActionFilter(names=["refund"], status=["rejected", "error"]), 2),
        (ActionFilter(names=["refund"], args={"order": 7}), 2),
        (ActionFilter(names=["refund"], args={"order": 7, "amount": 5}), 1),
        (ActionFilter(names=["missing"]), 0),
    ],
)
def test_trace_checks_count_the_agents_matching_actions(wanted: ActionFilter, count: int) -> None:
    run = events(
        action("refund", order=7, amount=5),
        action("refund", "rejected", order=7),
        action("refund", "error", order=8),
        action("override", "rejected"),
        action("refund", seat="customer", order=7),
    )
    assert count_actions(run.transcript, SEATS, wanted) == count


def test_diagnostics_come_from_the_transcript_without_a_trace() -> None:
    run = events(
        action("a"), action("b", "error"), action("c", "rejected"), action("d", seat="customer")
    )
    assert diagnostics(run.transcript, run.trace, SEATS).model_dump() == {
        "tool_calls": 3, "tool_errors": 1, "source": "transcript",
    }  # fmt: skip


def test_diagnostics_prefer_the_trace_when_it_has_the_agents_steps() -> None:
    run = events(action("a"))
    trace = Run.model_validate({**run.model_dump(), "trace": [
        {"turn": 1, "seat": "agent", "tool_calls": 4, "tool_errors": 1},
        {"turn": 2, "seat": "agent", "tool_calls": 2, "tool_errors": 2},
        {"turn": 2, "seat": "customer", "tool_calls": 9, "tool_errors": 9},
    ]}).trace  # fmt: skip
    assert diagnostics(run.transcript, trace, SEATS).model_dump() == {
        "tool_calls": 6, "tool_errors": 3, "source": "trace",
    }  # fmt: skip
