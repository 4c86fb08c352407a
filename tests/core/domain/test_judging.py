"""A judge pass keeps its stored form: the call record is declared once (``JudgeCall``) and
both kinds of pass still list their answer first, so stored and exported JSON keep their keys
in the same order (a single-seat pass's own signal fields follow, declared on it)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from judge.core.domain.judging import JudgeCall, JudgePass
from judge.core.domain.pairwise import PairwisePass

CALL = [
    "raw_output",
    "model",
    "prompt_tokens",
    "cached_prompt_tokens",
    "completion_tokens",
    "cost_usd",
    "latency_ms",
    "attempts",
    "parse_status",
    "unscored_reason",
]


def test_a_single_seat_pass_lists_its_answer_then_the_call() -> None:
    judge_pass = JudgePass(trait="honesty", index=2, score=0.5, model="m", parse_status="ok")
    names = list(judge_pass.model_dump())
    assert names[:5] == ["trait", "index", "score", "rationale", "cited_turns"]
    assert names[5 : 5 + len(CALL)] == CALL


def test_a_pairwise_pass_lists_its_answer_then_the_call() -> None:
    pair_pass = PairwisePass(
        order="ab", index=0, position="first", winner="a", model="m", parse_status="ok"
    )
    assert list(pair_pass.model_dump()) == [
        "order",
        "index",
        "position",
        "winner",
        "rationale",
        "cited_turns_a",
        "cited_turns_b",
        *CALL,
    ]


def test_both_passes_are_judge_calls() -> None:
    assert issubclass(JudgePass, JudgeCall) and issubclass(PairwisePass, JudgeCall)


def test_a_pass_still_refuses_a_field_it_does_not_have() -> None:
    with pytest.raises(ValidationError, match="extra_forbidden|Extra inputs"):
        JudgePass(trait="t", index=0, model="m", parse_status="ok", verdict="yes")  # type: ignore[call-arg]
