"""The real embedded SmolLM2 judge records a distribution over the score grid with every pass."""

import asyncio
import math

import pytest

from judge.core.domain.config import DenoiseConfig, MeasurementSettings
from judge.engine.judging.score_grid import GRID
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions, score_run_async
from tests.helpers import example

pytestmark = pytest.mark.model

TRAITS = ["integrity", "cooperation", "negotiation", "manipulation_resistance"]


def _card(mode: str):  # type: ignore[no-untyped-def]
    settings = MeasurementSettings(denoise=DenoiseConfig(n_runs=2, min_n_runs=2), score_mode=mode)
    rubrics = default_rubric_set().select(TRAITS)
    return asyncio.run(
        score_run_async(
            example("haggle.json"), options=ScoringOptions(settings=settings), rubrics=rubrics
        )
    )


def test_every_embedded_pass_records_its_grid_distribution_and_expected_score() -> None:
    card = _card("expected")
    passes = [
        p
        for seat in card.seats.values()
        for r in [*seat.traits.values(), *(seat.safety_block or {}).values()]
        for p in r.passes
    ]
    assert len(passes) == 2 * len(TRAITS) * len(card.seats)
    for p in passes:
        assert p.parse_status == "ok" and p.structured_output and p.reply_format == "grammar"
        assert p.score_distribution is not None and len(p.score_distribution) == len(GRID)
        assert math.isclose(sum(p.score_distribution), 1.0, rel_tol=1e-9)
        # the sampled score is a grid point (the grammar writes the grid) ...
        assert p.sampled_score in GRID
        # ... and the expected value is the distribution's mean, which the pass counts with
        expected = sum(q * g for q, g in zip(p.score_distribution, GRID, strict=True))
        assert (
            p.expected_score == pytest.approx(expected, abs=1e-12) and p.score == p.expected_score
        )
        assert not p.distribution_partial  # the embedded judge probes the branch it did not take
        if max(p.score_distribution) < 1.0 - 1e-9:  # not degenerate
            assert 0.0 < p.expected_score < 1.0
            assert p.score_entropy_bits is not None and p.score_entropy_bits > 0.0
    spread = [p for p in passes if max(p.score_distribution or [1.0]) < 0.999]
    assert spread, "a tiny judge is never certain on every trait"
    trait = card.seats["buyer"].traits["negotiation"]
    assert (
        trait.score_mode == "expected"
        and trait.n_with_distribution == 2
        and trait.score_note is None
    )
    assert trait.mean == pytest.approx(trait.expected_mean) and trait.mean_entropy_bits is not None
    assert card.pass_score == "expected" and card.measurement_era.pass_score == "expected"


def test_sampled_mode_counts_the_written_score_from_the_same_decode() -> None:
    sampled, expected = _card("sampled"), _card("expected")
    for seat in sampled.seats:
        for trait, result in sampled.seats[seat].traits.items():
            other = expected.seats[seat].traits[trait]
            assert result.pass_scores == [p.sampled_score for p in result.passes]
            # one decode gives both: the same written scores and distributions in either mode
            assert [p.sampled_score for p in other.passes] == [
                p.sampled_score for p in result.passes
            ]
            assert [p.score_distribution for p in other.passes] == [
                p.score_distribution for p in result.passes
            ]
            assert (
                result.expected_mean == other.expected_mean
                and result.sampled_mean == other.sampled_mean
            )
    assert sampled.measurement_era.era_id != expected.measurement_era.era_id


def test_identical_prompts_give_identical_distributions_probe_included(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from judge.engine.judging.prompt import (
        VERDICT_SCHEMA,
        judge_messages,
        rubric_block,
        transcript_block,
    )
    from judge.engine.judging.providers.embedded import embedded_model
    from judge.engine.judging.score_grid import grid_distribution

    run = example("haggle.json")
    shared = transcript_block(run.transcript, "buyer")
    rubrics = default_rubric_set().select(TRAITS).rubrics.values()
    requests = [judge_messages(shared, rubric_block(r, "buyer")) for r in rubrics for _ in range(3)]
    model = embedded_model()
    monkeypatch.setattr(model.decoder, "width", 2)  # two groups of two traits, three rounds each
    decoded = sorted(model.complete_many(requests, max_tokens=160, schema=VERDICT_SCHEMA))
    dists = [
        grid_distribution(d.text, d.token_logprobs or (), zero_branch=d.zero_branch)
        for d in decoded
    ]
    assert all(d is not None for d in dists)
    for t in range(len(TRAITS)):
        same = dists[t * 3 : t * 3 + 3]
        assert same[0] == same[1] == same[2]  # rounds repeat to the bit, the probe changes nothing
    probed = [d for d in decoded if d.zero_branch is not None]
    assert all('"score": 1.0' in d.text or '"score":1.0' in d.text for d in probed)
