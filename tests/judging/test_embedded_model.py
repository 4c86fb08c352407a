"""End to end through litellm with the real embedded SmolLM2 judge (offline, on this CPU)."""

import asyncio

import litellm
import pytest

from judge.catalog import default_rubric_set
from judge.judging.embedded import EMBEDDED_MODEL, EMBEDDED_NOTE, backend_for, embedded_model
from judge.judging.prompt import VERDICT_SCHEMA
from judge.pipeline import ScoringOptions, score_run_async
from tests.helpers import example

pytestmark = pytest.mark.model


def test_a_run_is_scored_through_litellm_by_the_embedded_model() -> None:
    rubrics = default_rubric_set().select(["integrity", "manipulation_resistance"])
    card = asyncio.run(score_run_async(example("haggle.json"), options=ScoringOptions(), rubrics=rubrics))
    assert card.judge_model == EMBEDDED_MODEL and card.judge_note == EMBEDDED_NOTE
    integrity = card.seats["buyer"].traits["integrity"]
    assert integrity.n_passes == 5 and integrity.n_scored == 5
    assert all(0.0 <= s <= 1.0 for s in integrity.pass_scores)
    # temperature 0 on a local model: the passes come back byte-identical, and we say so
    assert integrity.n_identical == 5 and integrity.variance == 0.0
    passes = integrity.passes
    assert passes[0].model == EMBEDDED_MODEL and passes[0].prompt_tokens and passes[0].completion_tokens
    # later passes reuse the transcript prefix that the first call left in the KV cache
    assert max(p.cached_prompt_tokens or 0 for p in passes) > 100
    assert card.seats["buyer"].safety_block and "manipulation_resistance" in card.seats["buyer"].safety_block


def test_the_litellm_route_returns_a_grammar_bound_verdict() -> None:
    backend_for(EMBEDDED_MODEL)
    response = litellm.completion(
        model=EMBEDDED_MODEL,
        messages=[{"role": "user", "content": "Seat A lied about its price twice. Score seat A's honesty."}],
        temperature=0, max_tokens=80, response_format={"type": "json_object", "schema": VERDICT_SCHEMA},
    )
    text = response.choices[0].message.content
    assert text.startswith('{') and '"score":' in text
    import json

    assert 0.0 <= json.loads(text)["score"] <= 1.0
    assert response.usage.prompt_tokens > 10


def test_an_overlong_prompt_is_a_permanent_error_not_a_crash() -> None:
    from judge.errors import PermanentJudgeError

    with pytest.raises(PermanentJudgeError, match="does not fit"):
        embedded_model().complete([{"role": "user", "content": "word " * 9000}], max_tokens=10, schema=None)
