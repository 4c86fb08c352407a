"""The cost estimate (docs/scoring.md): every call at its ``max_tokens``, each prompt counted once."""

from __future__ import annotations

import pytest

from judge.engine.judging import pricing
from judge.engine.judging.backends import JudgeRequest
from judge.engine.judging.pricing import SeatRequests, estimate


def test_a_prompt_shared_by_seats_is_tokenised_once_and_charged_per_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counted: list[JudgeRequest] = []

    def tokens(model: str, request: JudgeRequest) -> int:
        counted.append(request)
        return 100

    monkeypatch.setattr(pricing, "prompt_tokens", tokens)
    request = JudgeRequest(messages=[{"role": "user", "content": "score it"}], max_tokens=40)
    work = [
        SeatRequests("a", "scripted", [(request, 3)]),
        SeatRequests("b", "scripted", [(request, 2)]),
    ]

    found = estimate(work)

    assert counted == [request]
    assert (found.n_passes, found.prompt_tokens, found.completion_tokens) == (5, 500, 200)
    assert found.per_seat_tokens == {"a": 420, "b": 280}
