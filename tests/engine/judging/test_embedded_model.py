"""End to end through litellm with the real embedded SmolLM2 judge (offline, on this CPU)."""

import asyncio
import json

import litellm
import pytest

from judge.engine.judging.prompt import (
    VERDICT_SCHEMA,
    judge_messages,
    rubric_block,
    transcript_block,
)
from judge.engine.judging.providers.embedded import EMBEDDED_MODEL, EMBEDDED_NOTE, embedded_model
from judge.engine.judging.registry import backend_for
from judge.engine.judging.verdict import parse_verdict
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions, score_run_async
from judge.engine.settings import judge_spec
from tests.helpers import example

pytestmark = pytest.mark.model


def test_a_run_is_scored_through_litellm_by_the_embedded_model() -> None:
    rubrics = default_rubric_set().select(["integrity", "manipulation_resistance"])
    card = asyncio.run(
        score_run_async(example("haggle.json"), options=ScoringOptions(), rubrics=rubrics)
    )
    assert card.judge_model == EMBEDDED_MODEL and card.judge_note == EMBEDDED_NOTE
    integrity = card.seats["buyer"].traits["integrity"]
    assert integrity.n_passes == 5 and integrity.n_scored == 5
    assert all(0.0 <= s <= 1.0 for s in integrity.pass_scores)
    # temperature 0 on a local model: the passes come back byte-identical, and we say so
    assert integrity.n_identical == 5 and integrity.variance == 0.0
    passes = integrity.passes
    assert (
        passes[0].model == EMBEDDED_MODEL
        and passes[0].prompt_tokens
        and passes[0].completion_tokens
    )
    # later passes reuse the transcript prefix that the first call left in the KV cache
    assert max(p.cached_prompt_tokens or 0 for p in passes) > 100
    assert (
        card.seats["buyer"].safety_block
        and "manipulation_resistance" in card.seats["buyer"].safety_block
    )


def test_the_litellm_route_returns_a_grammar_bound_verdict() -> None:
    backend_for(judge_spec(EMBEDDED_MODEL))
    response = litellm.completion(
        model=EMBEDDED_MODEL,
        messages=[
            {
                "role": "user",
                "content": "Seat A lied about its price twice. Score seat A's honesty.",
            }
        ],
        temperature=0,
        max_tokens=80,
        response_format={"type": "json_object", "schema": VERDICT_SCHEMA},
    )
    text = response.choices[0].message.content
    assert text.startswith('{"score": ')  # the score first: a reply cut at the cap keeps it
    verdict = parse_verdict(text, {1})
    assert verdict.status == "ok" and verdict.score is not None and 0.0 <= verdict.score <= 1.0
    assert response.usage.prompt_tokens > 10


def test_an_overlong_prompt_is_a_permanent_error_not_a_crash() -> None:
    from judge.core.errors import PermanentJudgeError

    with pytest.raises(PermanentJudgeError, match="does not fit"):
        embedded_model().complete(
            [{"role": "user", "content": "word " * 9000}], max_tokens=10, schema=None
        )


def _verdict_requests(traits: int, passes: int) -> list[list[dict[str, object]]]:
    run = example("haggle.json")
    shared = transcript_block(run.transcript, "buyer")
    rubrics = list(default_rubric_set().rubrics.values())[:traits]
    return [
        judge_messages(shared, rubric_block(r, "buyer")) for r in rubrics for _ in range(passes)
    ]


def test_batched_decoding_gives_byte_identical_passes_for_identical_prompts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    requests = _verdict_requests(traits=3, passes=4)
    model = embedded_model()
    monkeypatch.setattr(model.decoder, "width", 2)  # two groups: traits 1-2 side by side, then 3
    first = sorted(model.complete_many(requests, max_tokens=160, schema=VERDICT_SCHEMA))
    again = sorted(model.complete_many(requests, max_tokens=160, schema=VERDICT_SCHEMA))
    assert [d.request for d in first] == list(range(12))
    texts = [d.text for d in first]
    per_trait = [set(texts[t * 4 : t * 4 + 4]) for t in range(3)]
    assert all(len(s) == 1 for s in per_trait)  # four passes, one byte string
    assert len(set.union(*per_trait)) > 1  # yet the traits got replies of their own
    assert texts == [d.text for d in again]  # and the same job repeats to the byte
    for text in texts:  # every reply is a grammar-bound verdict, sequence by sequence
        assert 0.0 <= json.loads(text)["score"] <= 1.0


def test_the_batch_evaluates_the_prefix_once_and_each_suffix_once() -> None:
    requests = _verdict_requests(traits=3, passes=2)
    model = embedded_model()
    model.decoder._held = None  # start from an empty cache
    decoded = list(model.complete_many(requests, max_tokens=160, schema=VERDICT_SCHEMA))
    prompts = [model.split_prompt(r) for r in requests]
    fresh = sum(d.prompt_tokens - d.cached_prompt_tokens for d in decoded)
    assert fresh == len(prompts[0].prefix) + sum(len(p.rest) for p in prompts[::2])
    assert all(
        d.prompt_tokens == len(p.prefix) + len(p.rest)
        for d, p in zip(sorted(decoded), prompts, strict=True)
    )


def test_the_embedded_verdict_is_short_and_a_reply_cut_at_the_cap_keeps_its_score() -> None:
    from judge.engine.judging.prompt import CITED_TURNS, RATIONALE_WORDS
    from judge.engine.judging.verdict import CUT_MARK, parse_verdict

    (request,) = _verdict_requests(traits=1, passes=1)
    model = embedded_model()
    full = model.complete(request, max_tokens=160, schema=VERDICT_SCHEMA)
    verdict = json.loads(full.text)
    assert list(verdict) == ["score", "turns", "rationale"]
    assert len(verdict["rationale"].split()) <= RATIONALE_WORDS
    assert len(verdict["turns"]) <= CITED_TURNS
    cut = model.complete(request, max_tokens=16, schema=VERDICT_SCHEMA)
    assert cut.completion_tokens == 16 and full.text.startswith(cut.text)
    parsed = parse_verdict(cut.text, set(range(1, 100)))
    assert (parsed.status, parsed.score) == ("ok", verdict["score"])
    assert parsed.rationale.endswith(CUT_MARK.strip())
