"""The coaching pass: safety preamble first, notes checked against the transcript, retries."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from judge.core.domain.run import TranscriptEvent
from judge.core.errors import TransientJudgeError
from judge.engine.judging.backends import ScriptedBackend
from judge.engine.judging.coaching import (
    COACHING_SCHEMA,
    SAFETY_GUIDANCE,
    Coaching,
    CoachingNote,
    SafetyPreamble,
    coach_seat,
    parse_notes,
)
from judge.engine.judging.prompt import transcript_block
from tests.factories import run

SAFETY = {
    "no_unauthorized_disclosure_conduct": 0.9,
    "manipulation_resistance": 0.4,
    "harmful_compliance_refusal": None,
    "policy_adherence_under_pressure": 0.59,
}


def _transcript() -> list[TranscriptEvent]:
    return run(
        transcript=[
            {"turn": 1, "seat": "seller", "kind": "message", "content": "The lamp is 90 coins."},
            {"turn": 2, "seat": "buyer", "kind": "message", "content": "I can offer 80."},
            {"turn": 2, "seat": "buyer", "kind": "action", "name": "offer", "args": {"price": 80}},
            {"turn": 3, "seat": "seller", "kind": "message", "content": "Deal."},
            {"turn": 3, "seat": "buyer", "kind": "observation", "content": "offer accepted"},
            {"turn": 4, "seat": "buyer", "kind": "done"},
        ]
    ).transcript


def _note(turn: Any, trait: str = "negotiation") -> dict[str, Any]:
    return {
        "turn": turn,
        "decision": "opened at 80",
        "expected": "open near 40",
        "why_it_matters": "it conceded most of the surplus",
        "trait": trait,
    }


def _coach(backend: ScriptedBackend, **kw: Any) -> Coaching:
    async def no_sleep(_: float) -> None:
        return None

    return asyncio.run(
        coach_seat(_transcript(), "buyer", backend, safety_means=SAFETY, sleep=no_sleep, **kw)
    )


def test_the_safety_preamble_comes_first_naming_safety_traits_below_threshold() -> None:
    backend = ScriptedBackend(json.dumps({"notes": [_note(2)]}))
    out = _coach(backend)
    assert out.items[0] == SafetyPreamble(
        guidance=SAFETY_GUIDANCE,
        weak_traits=["manipulation_resistance", "policy_adherence_under_pressure"],
    )
    dumped = out.model_dump(mode="json")["items"][0]
    assert dumped["type"] == "safety_preamble" and dumped["is_platform_guardrail"] is True


def test_notes_citing_missing_turns_or_turns_without_action_are_dropped_and_counted() -> None:
    reply = {"notes": [_note(2), _note(9), _note(3), _note("two"), _note(4, trait="made_up")]}
    out = _coach(ScriptedBackend(json.dumps(reply)), traits=["negotiation"])
    notes = [i for i in out.items if isinstance(i, CoachingNote)]
    assert [(n.turn, n.trait) for n in notes] == [(2, "negotiation"), (4, None)]
    assert out.dropped_notes == 2  # turn 9 does not exist; at turn 3 the buyer only observed
    assert out.malformed_notes == 1  # turn "two"
    assert out.status == "ok"


def test_the_last_notes_object_in_a_reply_wins() -> None:
    text = f"First: {json.dumps({'notes': [_note(2)]})} On reflection: {json.dumps({'notes': [_note(4)]})}"
    parsed = parse_notes(text, {2, 4})
    assert [n.turn for n in parsed.notes] == [4]


def test_an_unreadable_reply_is_recorded_unparsed_with_only_the_preamble() -> None:
    out = _coach(ScriptedBackend("The buyer did fine overall."))
    assert out.status == "unparseable"
    assert out.unparsed_reason == "no notes object found in reply: 'The buyer did fine overall.'"
    assert len(out.items) == 1 and isinstance(out.items[0], SafetyPreamble)


def test_the_prompt_puts_the_transcript_first_and_constrains_the_reply() -> None:
    backend = ScriptedBackend('{"notes": []}')
    _coach(backend)
    (request,) = backend.history
    user = request.messages[1]["content"]
    assert user[0]["text"] == transcript_block(_transcript(), "buyer", spotlight=False)
    assert user[1]["text"].startswith('Coach seat "buyer".')
    assert request.response_schema == COACHING_SCHEMA
    assert request.temperature == 0.0


def test_transient_failures_are_retried_like_judge_passes() -> None:
    backend = ScriptedBackend().enqueue(TransientJudgeError("429"), '{"notes": []}')
    out = _coach(backend)
    assert out.attempts == 2
    assert (out.status, out.dropped_notes, out.model) == ("ok", 0, "scripted")
