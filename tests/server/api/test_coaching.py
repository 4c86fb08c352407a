"""Coaching route: the key's own seat, safety preamble first, notes checked against the transcript."""

from __future__ import annotations

import json

from sqlalchemy import event

from judge.engine.judging.backends import JudgeRequest
from judge.engine.judging.coaching import SAFETY_GUIDANCE
from tests.factories import run, scorecard, seat
from tests.scripted_service import Service

TRANSCRIPT = [
    {"turn": 1, "seat": "seller", "kind": "message", "content": "The lamp is 90 coins."},
    {"turn": 2, "seat": "buyer", "kind": "message", "content": "I can offer 80."},
    {"turn": 3, "seat": "seller", "kind": "message", "content": "Deal."},
]
NOTE = {
    "decision": "opened at 80",
    "expected": "open near 40",
    "why_it_matters": "it gave away the surplus",
    "trait": "negotiation",
}


def _scored(svc: Service) -> None:
    card = seat(
        traits={"negotiation": 0.4},
        safety={"manipulation_resistance": 0.3, "policy_adherence_under_pressure": 0.8},
    )
    svc.store_scored(
        run("k1", transcript=TRANSCRIPT), scorecard("k1", card, era_id=svc.current_era_id())
    )


def test_coaching_starts_with_the_preamble_and_drops_notes_on_turns_the_seat_did_not_act(
    svc: Service,
) -> None:
    _scored(svc)
    svc.coaching_reply = json.dumps(
        {"notes": [{"turn": 2, **NOTE}, {"turn": 3, **NOTE}, {"turn": 12, **NOTE}]}
    )
    answer = svc.client.get(
        "/api/agent/runs/k1/coaching", headers=svc.agent("agent-alpha", "buyer")
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["items"][0] == {
        "type": "safety_preamble",
        "guidance": SAFETY_GUIDANCE,
        "weak_traits": ["manipulation_resistance"],
        "is_platform_guardrail": True,
    }
    assert body["items"][1:] == [{"type": "note", "turn": 2, **NOTE}]
    assert (body["dropped_notes"], body["status"], body["seat"]) == (2, "ok", "buyer")
    (request,) = [r for r in svc.backend.history if r.label == "coaching"]
    question = request.messages[1]["content"][1]["text"]
    assert question.startswith('Coach seat "Seat ') and '"buyer"' not in question  # a label


def test_an_unreadable_coach_reply_still_answers_with_the_preamble(svc: Service) -> None:
    _scored(svc)
    svc.coaching_reply = "no idea"
    body = svc.client.get(
        "/api/agent/runs/k1/coaching", headers=svc.agent("agent-alpha", "buyer")
    ).json()
    assert [i["type"] for i in body["items"]] == ["safety_preamble"]
    assert body["status"] == "unparseable"


def test_coaching_is_for_the_keys_own_seat_of_a_scored_run(svc: Service) -> None:
    _scored(svc)
    assert (
        svc.client.get(
            "/api/agent/runs/k1/coaching", headers=svc.agent("agent-beta", "buyer")
        ).status_code
        == 404
    )
    assert svc.client.get("/api/agent/runs/k1/coaching", headers=svc.owner).status_code == 401
    svc.store_scored(run("k2", transcript=TRANSCRIPT))
    unscored = svc.client.get(
        "/api/agent/runs/k2/coaching", headers=svc.agent("agent-alpha", "buyer")
    )
    assert unscored.status_code == 404
    assert "has no scorecard for seat 'buyer' yet (status queued)" in unscored.json()["detail"]


def test_no_database_connection_is_held_while_the_coach_is_awaited(svc: Service) -> None:
    _scored(svc)
    held = [0]
    seen: list[int] = []
    event.listen(svc.engine, "checkout", lambda *_: held.__setitem__(0, held[0] + 1))
    event.listen(svc.engine, "checkin", lambda *_: held.__setitem__(0, held[0] - 1))

    def reply(request: JudgeRequest) -> str:
        seen.append(held[0])
        return '{"notes": []}'

    svc.backend.enqueue(reply)
    answer = svc.client.get(
        "/api/agent/runs/k1/coaching", headers=svc.agent("agent-alpha", "buyer")
    )

    assert answer.status_code == 200, answer.text
    assert seen == [0]
    assert held[0] == 0
