"""The runner records each pass's grid distribution from the reply's log-probabilities, counts
the pass with the sampled or the expected score, and falls back to sampled without them."""

import asyncio
import json
import math

import pytest

from judge.core.domain.config import DenoiseConfig, MeasurementSettings
from judge.core.scoring.signal import NO_LOGPROBS_NOTE
from judge.engine.judging.backends import JudgeReply, JudgeRequest, ScriptedBackend
from judge.engine.judging.score_grid import TokenStep
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions, score_run_async
from tests.helpers import example, verdict

TRAITS = ["integrity", "negotiation"]


def weighted(lead: dict[str, float], tenths: dict[str, float], written: str = "0.7") -> JudgeReply:
    """A verdict writing ``written`` (0.d), with the lead and tenths alternatives given as probabilities."""
    head = json.dumps({"rationale": "r", "turns": [1]})[:-1] + ', "score": '
    tokens = [head, written[0], ".", written[2], "}"]
    tops = {1: lead, 3: tenths}
    steps = [
        TokenStep(
            t,
            math.log(tops.get(n, {}).get(t, 1.0)),
            {k: math.log(v) for k, v in tops.get(n, {}).items()},
        )
        for n, t in enumerate(tokens)
    ]
    return JudgeReply(text="".join(tokens), token_logprobs=steps, structured_output=True)


def card(backend: ScriptedBackend, mode: str):  # type: ignore[no-untyped-def]
    settings = MeasurementSettings(denoise=DenoiseConfig(n_runs=2, min_n_runs=2), score_mode=mode)
    options = ScoringOptions(judge_model=backend.model, settings=settings)
    rubrics = default_rubric_set().select(TRAITS)
    return asyncio.run(
        score_run_async(example("haggle.json"), options=options, rubrics=rubrics, backend=backend)
    )


def reply_for(request: JudgeRequest) -> JudgeReply:
    # integrity: 0.7 written, expected 0.685; negotiation: 0.7 written, expected 0.5 * 0.7 + 0.5 * 0.1 = 0.4
    if "integrity" in request.label:
        return weighted({"0": 0.6, "1": 0.4}, {"7": 0.5, "5": 0.25, "0": 0.25})
    return weighted({"0": 1.0}, {"7": 0.5, "1": 0.5})


def test_expected_mode_counts_each_pass_with_its_expected_value() -> None:
    result = card(ScriptedBackend(reply_for, model="logprob-judge"), "expected")
    integrity = result.seats["buyer"].traits["integrity"]
    assert integrity.pass_scores == pytest.approx([0.685, 0.685])
    assert integrity.mean == pytest.approx(0.685) and integrity.expected_mean == pytest.approx(
        0.685
    )
    assert integrity.sampled_mean == pytest.approx(0.7) and integrity.score_note is None
    assert integrity.n_with_distribution == 2 and integrity.mean_entropy_bits is not None
    p = integrity.passes[0]
    assert (
        p.sampled_score == 0.7 and p.expected_score == pytest.approx(0.685) and p.structured_output
    )
    assert p.score_distribution == pytest.approx([0.15, 0, 0, 0, 0, 0.15, 0, 0.3, 0, 0, 0.4])
    negotiation = result.seats["buyer"].traits["negotiation"]
    assert negotiation.mean == pytest.approx(0.4) and negotiation.sampled_mean == pytest.approx(0.7)
    assert negotiation.mean_entropy_bits == pytest.approx(1.0)  # two equal grid points: one bit
    assert result.pass_score == "expected" and result.measurement_era.pass_score == "expected"


def test_sampled_mode_keeps_the_written_score_and_still_records_the_distribution() -> None:
    result = card(ScriptedBackend(reply_for, model="logprob-judge"), "sampled")
    integrity = result.seats["buyer"].traits["integrity"]
    assert integrity.pass_scores == [0.7, 0.7] and integrity.mean == pytest.approx(0.7)
    assert integrity.expected_mean == pytest.approx(0.685)
    assert result.measurement_era.pass_score == "sampled"


def test_the_era_changes_with_the_pass_score_setting_and_default_eras_stay_as_they_were() -> None:
    from judge.core.scoring.era import measurement_era

    hashes = {"integrity": "h"}
    sampled = measurement_era(judge_model="m", rubric_hashes=hashes, settings=MeasurementSettings())
    expected = measurement_era(
        judge_model="m", rubric_hashes=hashes, settings=MeasurementSettings(score_mode="expected")
    )
    assert sampled.era_id != expected.era_id and expected.pass_score == "expected"
    # the default hashes exactly the stack it hashed before the setting existed
    import hashlib

    stack = sampled.model_dump(
        exclude={"era_id", "pass_score", "decoders", "shared_passes", "reply_format"}
    )
    digest = hashlib.sha256(json.dumps(stack, sort_keys=True).encode()).hexdigest()
    assert sampled.era_id == f"era-{digest[:16]}"


def test_a_backend_without_logprobs_falls_back_to_sampled_and_the_card_says_so() -> None:
    result = card(ScriptedBackend(verdict(0.3), model="plain-judge"), "expected")
    trait = result.seats["buyer"].traits["integrity"]
    assert trait.pass_scores == [0.3, 0.3] and trait.mean == pytest.approx(0.3)
    assert trait.expected_mean is None and trait.n_with_distribution == 0
    assert trait.score_note == NO_LOGPROBS_NOTE
    assert all(p.score_distribution is None and p.expected_score is None for p in trait.passes)
    assert result.judge_parse["plain-judge"].unparseable == 0


def test_the_card_counts_unparseable_passes_per_model() -> None:
    replies = iter([verdict(0.5), "no verdict here", verdict(0.5), "still nothing"] * 4)
    result = card(ScriptedBackend(lambda r: next(replies), model="flaky-judge"), "sampled")
    rate = result.judge_parse["flaky-judge"]
    assert (rate.passes, rate.unparseable, rate.unparseable_rate) == (4, 2, 0.5)  # one scored seat
    assert rate.structured_passes == 0
