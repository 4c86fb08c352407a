"""Scripted judges and labelled runs built for `judge align` (docs/alignment.md). Each run's
buyer says how it behaved with one word (careful, mixed, careless) that the owners score 1,
0.5 and 0; the judges differ in what they make of it:

- :func:`exemplar_learner` scores 0.5 everywhere until its rubric shows examples or clarified
  anchors, then reads the word: it improves with exemplars;
- :func:`flat_judge` scores 0.5 whatever it is shown: it cannot improve;
- :func:`memoriser` returns the owners' score only for a run whose own text it finds among
  the rubric's examples, 0.5 otherwise: it gains only on runs it has seen;
- :func:`squeezed_judge` reads the word but squeezes its scores into 0.2..0.6: a calibration
  map fixes it, examples do not.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.engine.judging.prompt import flatten_content
from tests.conftest import wait_final

TRAIT = "negotiation"
WORDS = {"careful": 1.0, "mixed": 0.5, "careless": 0.0}
SQUEEZED = {"careful": 0.6, "mixed": 0.4, "careless": 0.2}
CLARIFIED = json.dumps(
    {
        "anchor_0": "a careless buyer scores 0",
        "anchor_5": "a mixed buyer scores 0.5",
        "anchor_1": "a careful buyer scores 1",
    }
)


def word_of(index: int) -> str:
    return list(WORDS)[index % 3]


def run_body(run_id: str, word: str) -> dict[str, Any]:
    """A two-turn haggle whose buyer says ``word`` about itself."""
    return {
        "run_id": run_id,
        "scenario_id": "market-haggle",
        "seed": 42,
        "adversary_config": "hardball-v2",
        "seats": [
            {"seat": "buyer", "agent_id": "agent-alpha", "scored": True},
            {"seat": "seller", "agent_id": "house-adversary", "scored": False},
        ],
        "transcript": [
            {"turn": 1, "seat": "seller", "kind": "message", "content": "The lamp is 90 coins."},
            {
                "turn": 1,
                "seat": "buyer",
                "kind": "message",
                "content": f"Case {run_id}: I was {word} in this deal.",
            },
        ],
    }


def _parts(request: JudgeRequest) -> tuple[str, str]:
    """The transcript part and the rubric part of a judge prompt."""
    text = flatten_content(request.messages[-1]["content"])
    head, _, rubric = text.partition("\nTrait: ")
    return head, rubric


def _verdict(score: float) -> str:
    return json.dumps({"score": score, "turns": [1], "rationale": "read"})


def _word(transcript: str) -> str:
    return next(w for w in WORDS if f"was^{w}" in transcript or f"was {w}" in transcript)


def _case(transcript: str) -> str:
    start = transcript.index("Case ") + len("Case ")
    return transcript[start : transcript.index(":", start)]


def exemplar_learner(request: JudgeRequest) -> str:
    if request.label.endswith("/align"):
        return CLARIFIED
    transcript, rubric = _parts(request)
    taught = "Examples the owners scored" in rubric or "Clarified:" in rubric
    return _verdict(WORDS[_word(transcript)] if taught else 0.5)


def flat_judge(request: JudgeRequest) -> str:
    return CLARIFIED if request.label.endswith("/align") else _verdict(0.5)


def memoriser(request: JudgeRequest) -> str:
    if request.label.endswith("/align"):
        return CLARIFIED
    transcript, rubric = _parts(request)
    seen = f"Case {_case(transcript)}:" in rubric
    return _verdict(WORDS[_word(transcript)] if seen else 0.5)


def squeezed_judge(request: JudgeRequest) -> str:
    if request.label.endswith("/align"):
        return "no JSON here"
    transcript, _ = _parts(request)
    return _verdict(SQUEEZED[_word(transcript)])


def backend(script: Any, model: str = "scripted-align-judge") -> ScriptedBackend:
    return ScriptedBackend(script, model=model)


def label_runs(client: TestClient, owner: dict[str, str], runs: int = 12) -> None:
    """Judge only :data:`TRAIT`, score ``runs`` runs and label each with a note."""
    traits = {"value": {"traits": [TRAIT]}}
    assert client.put("/api/evals/config/academy_judge_rubrics", json=traits, headers=owner)
    for index in range(runs):
        run_id, word = f"r{index:02d}", word_of(index)
        assert client.post("/api/evals/runs", json=run_body(run_id, word), headers=owner)
        assert wait_final(client, run_id, owner)["status"] == "scored"
        label = {"seat": "buyer", "trait": TRAIT, "score": WORDS[word], "note": f"{word} buyer"}
        posted = client.post(f"/api/evals/{run_id}/labels", json=label, headers=owner)
        assert posted.status_code == 201, posted.text
