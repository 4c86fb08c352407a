"""Adaptive passes: a trait whose passes disagree gets more, up to max; the card says why."""

import asyncio
import itertools
from collections import Counter

import pytest
from pydantic import ValidationError

from judge.core.domain.config import DenoiseConfig, MeasurementSettings, PlatformDenoiseConfig
from judge.core.domain.judging import JudgePass
from judge.core.domain.passes import PassPolicy
from judge.core.scoring.era import measurement_era
from judge.engine.judging.adaptive import Round, pass_spread, rounds
from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.engine.judging.panel import PanelBackend
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions, score_run_async
from judge.engine.settings import Settings
from judge.server.service.platform import default_value
from judge.tools.cli import main
from tests.helpers import EXAMPLES, example, verdict

TRAITS = ["integrity", "negotiation", "cooperation"]
POLICY = PassPolicy(floor=5, max=12, spread=0.2)


def scripted(scores: dict[str, list[float]], model: str = "scripted") -> ScriptedBackend:
    """A judge answering each trait's calls with its scores in turn (cycling)."""
    turns = {t: itertools.cycle(s) for t, s in scores.items()}

    def answer(request: JudgeRequest) -> str:
        return verdict(next(turns[request.label]))

    return ScriptedBackend(answer, model=model)


def score(backend: ScriptedBackend | PanelBackend, policy: PassPolicy, model: str = "scripted"):  # type: ignore[no-untyped-def]
    options = ScoringOptions(
        judge_model=model,
        settings=MeasurementSettings(denoise=DenoiseConfig.model_validate({"passes": policy})),
    )
    return asyncio.run(
        score_run_async(
            example("haggle.json"),
            options=options,
            rubrics=default_rubric_set().select(TRAITS),
            backend=backend,
        )
    )


def a_pass(index: int, score: float | None, expected: float | None = None) -> JudgePass:
    return JudgePass(
        trait="integrity",
        index=index,
        score=score,
        expected_score=expected,
        model="m",
        parse_status="ok" if score is not None else "unparseable",
    )


def test_passes_shorthand_takes_an_integer_or_a_policy() -> None:
    assert DenoiseConfig.model_validate({"passes": 7}).passes == 7
    adaptive = DenoiseConfig.model_validate({"passes": {"floor": 5, "max": 15, "spread": 0.2}})
    assert adaptive.passes == 5 and adaptive.adaptive == PassPolicy(floor=5, max=15, spread=0.2)
    assert DenoiseConfig(n_runs=7).policy == PassPolicy(floor=7, max=7, spread=0.0)


def test_a_policy_below_the_platform_floor_or_with_max_under_floor_is_refused() -> None:
    with pytest.raises(
        ValidationError,
        match=r"floor \(3\) must equal n_runs \(3\) and be at least min_n_runs \(5\)",
    ):
        PlatformDenoiseConfig.model_validate({"passes": {"floor": 3, "max": 9, "spread": 0.1}})
    with pytest.raises(ValidationError, match=r"max \(4\) is below floor \(5\)"):
        PassPolicy(floor=5, max=4, spread=0.1)


def test_one_judge_takes_the_floor_then_the_rest_up_to_max_in_one_round() -> None:
    assert rounds(POLICY, 1) == [Round(0, 0, 5), Round(0, 5, 7)]
    assert rounds(PassPolicy(floor=5, max=5, spread=0.1), 1) == [Round(0, 0, 5)]


def test_a_panel_escalates_one_judge_at_a_time_within_max() -> None:
    assert rounds(POLICY, 3) == [Round(0, 0, 5), Round(1, 5, 5), Round(2, 10, 2)]
    assert rounds(PassPolicy(floor=5, max=10, spread=0.1), 3) == [Round(0, 0, 5), Round(1, 5, 5)]


def test_spread_uses_expected_scores_when_every_pass_has_one() -> None:
    sampled = [a_pass(0, 0.2), a_pass(1, 0.8), a_pass(2, None)]
    assert pass_spread(sampled) == pytest.approx(0.6)
    both = [a_pass(0, 0.2, expected=0.45), a_pass(1, 0.8, expected=0.55)]
    assert pass_spread(both) == pytest.approx(0.1)
    assert pass_spread([a_pass(0, 0.2), a_pass(1, None)]) is None


def test_only_the_disagreeing_trait_gets_more_passes_and_the_card_says_why() -> None:
    judge = scripted({"integrity": [0.7], "negotiation": [0.2, 0.8], "cooperation": [0.5, 0.6]})
    card = score(judge, POLICY)
    calls = Counter(r.label for r in judge.history)
    assert calls == {"integrity": 5, "negotiation": 12, "cooperation": 5}
    traits = card.seats["buyer"].traits
    negotiation = traits["negotiation"].adaptive
    assert negotiation is not None and negotiation.reason == "disagreed"
    assert (negotiation.passes, negotiation.rounds, negotiation.spread) == (12, 2, 0.6)
    assert negotiation.note == "its first 5 passes spread 0.60 > 0.2: 7 more passes (max 12)"
    cooperation = traits["cooperation"].adaptive
    assert cooperation is not None and cooperation.reason == "agreed"
    assert cooperation.note == "its first 5 passes agree (spread 0.10 <= 0.2)"
    assert traits["negotiation"].n_passes == 12 and traits["cooperation"].n_passes == 5


def test_a_trait_with_too_few_scored_passes_at_the_floor_goes_on() -> None:
    judge = ScriptedBackend(lambda r: "no verdict here" if r.label == "integrity" else verdict(0.5))
    card = score(judge, POLICY)
    integrity = card.seats["buyer"].traits["integrity"].adaptive
    assert integrity is not None and integrity.reason == "too_few_scored"
    assert Counter(r.label for r in judge.history)["integrity"] == 12


def test_a_resumed_run_takes_the_same_rounds_and_judges_nothing_twice() -> None:
    first = scripted({"integrity": [0.7], "negotiation": [0.2, 0.8], "cooperation": [0.5]})
    card = score(first, POLICY)
    stored = {
        ("buyer", p.trait, p.index): p
        for t in card.seats["buyer"].traits.values()
        for p in t.passes
        if p.index < 8
    }
    again = scripted({"integrity": [0.7], "negotiation": [0.2, 0.8], "cooperation": [0.5]})
    options = ScoringOptions(
        judge_model="scripted",
        settings=MeasurementSettings(denoise=DenoiseConfig.model_validate({"passes": POLICY})),
    )
    resumed = asyncio.run(
        score_run_async(
            example("haggle.json"),
            options=options,
            rubrics=default_rubric_set().select(TRAITS),
            backend=again,
            done=stored,
        )
    )
    assert Counter(r.label for r in again.history) == {"negotiation": 4}
    assert resumed.seats["buyer"].traits["negotiation"].n_passes == 12


def test_a_panel_escalates_a_disagreeing_trait_to_the_next_judge() -> None:
    a = scripted({"integrity": [0.7], "negotiation": [0.2, 0.8], "cooperation": [0.5]}, "judge-a")
    b = scripted({"integrity": [0.1], "negotiation": [0.5], "cooperation": [0.9]}, "judge-b")
    policy = PassPolicy(floor=5, max=10, spread=0.2)
    card = score(PanelBackend([a, b]), policy, model="judge-a,judge-b")
    assert Counter(r.label for r in b.history) == {"negotiation": 5}
    negotiation = card.seats["buyer"].traits["negotiation"]
    assert [j.model for j in negotiation.judges] == ["judge-a", "judge-b"]
    assert negotiation.mean == pytest.approx((0.44 + 0.5) / 2)  # mean of judge means
    assert negotiation.adaptive is not None
    assert negotiation.adaptive.note.endswith("escalated to judge-b (5 more passes, max 10)")
    integrity = card.seats["buyer"].traits["integrity"]
    assert integrity.judges == [] and integrity.mean == pytest.approx(0.7)
    assert integrity.complete


def test_fixed_five_passes_keep_the_era_they_had_and_a_policy_opens_a_new_one() -> None:
    hashes = {"integrity": "abc"}

    def era_of(denoise: DenoiseConfig) -> str:
        settings = MeasurementSettings(denoise=denoise)
        return measurement_era(judge_model="m", rubric_hashes=hashes, settings=settings).era_id

    fixed = era_of(DenoiseConfig())
    # the id fixed passes had before adaptive passes existed, in the stack of today (judge prompt
    # 7 with the line mark, detector 8+learned-v5)
    assert fixed == "era-4642d4e4c8ce8bbd"
    assert fixed == era_of(DenoiseConfig.model_validate({"passes": 5}))
    assert fixed == era_of(
        DenoiseConfig.model_validate({"passes": PassPolicy(floor=5, max=5, spread=0.3)})
    )
    adaptive = era_of(DenoiseConfig.model_validate({"passes": POLICY}))
    assert adaptive != fixed
    assert adaptive != era_of(
        DenoiseConfig.model_validate({"passes": POLICY.model_copy(update={"spread": 0.3})})
    )


def test_judge_score_takes_adaptive_passes_and_prints_why(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JUDGE_DEV_MODE", "1")
    run = str(EXAMPLES / "haggle.json")
    assert (
        main(["score", run, "--judge", "scripted/0.6", "--passes", "5:9:0.1", "--no-progress"]) == 0
    )
    assert "5 passes: its first 5 passes agree (spread 0.00 <= 0.1)" in capsys.readouterr().out


def test_judge_score_refuses_a_policy_below_the_floor(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JUDGE_DEV_MODE", "1")
    run = str(EXAMPLES / "haggle.json")
    assert main(["score", run, "--judge", "scripted/0.6", "--passes", "3:9:0.1"]) == 2
    assert "--passes: the floor of adaptive passes is at least 5" in capsys.readouterr().err


def test_judge_passes_in_the_environment_may_name_a_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUDGE_PASSES", '{"floor": 5, "max": 15, "spread": 0.2}')
    settings = Settings(dev_mode=True)
    denoise = default_value("academy_eval_judge_denoise", settings)
    assert isinstance(denoise, DenoiseConfig) and denoise.adaptive == PassPolicy(
        floor=5, max=15, spread=0.2
    )
    monkeypatch.setenv("JUDGE_PASSES", '{"floor": 2, "max": 15, "spread": 0.2}')
    with pytest.raises(ValidationError, match="floor must be at least 5, got 2"):
        Settings(dev_mode=True)
