import pytest

from judge.core.domain.config import DenoiseConfig, ParticipationConfig
from judge.core.domain.judging import JudgePass, TraitResult
from judge.core.scoring.composite import composite_score
from judge.core.scoring.gates import participation
from judge.core.scoring.passes import pass_stats, sample_variance
from tests.helpers import example


def _pass(index: int, score: float | None, raw: str = "") -> JudgePass:
    return JudgePass(
        trait="integrity",
        index=index,
        score=score,
        raw_output=raw or f"r{score}",
        model="m",
        parse_status="ok" if score is not None else "unparseable",
        unscored_reason=None if score is not None else "no verdict",
    )


def test_passes_are_raised_to_the_floor_never_lowered() -> None:
    assert DenoiseConfig(n_runs=2).passes == 5
    assert DenoiseConfig(n_runs=8).passes == 8
    assert DenoiseConfig(n_runs=3, min_n_runs=2).passes == 3


def test_temperature_other_than_zero_is_refused() -> None:
    with pytest.raises(ValueError):
        DenoiseConfig(temperature=0.7)


def test_sample_variance_uses_n_minus_one() -> None:
    assert sample_variance([0.6, 0.8]) == pytest.approx(0.02)
    assert sample_variance([0.5]) is None


def test_unscored_passes_are_counted_not_averaged_as_zero() -> None:
    stats = pass_stats([_pass(0, 0.8), _pass(1, None), _pass(2, 0.6)], floor=5)
    assert stats.mean == pytest.approx(0.7)
    assert stats.variance == pytest.approx(0.02)
    assert (stats.n_scored, stats.n_unscored, stats.complete) == (2, 1, False)
    assert stats.unscored_reasons == ["pass 1: no verdict"]


def test_identical_replies_are_reported() -> None:
    passes = [_pass(i, 0.7, raw='{"score": 0.7}') for i in range(4)] + [_pass(4, 0.6, raw="x")]
    stats = pass_stats(passes, floor=5)
    assert stats.n_identical == 4 and stats.complete


def _trait(
    name: str, mean: float | None, pack: str = "capability", complete: bool = True
) -> TraitResult:
    return TraitResult(
        trait=name,
        pack=pack,
        pass_scores=[],
        mean=mean,
        variance=None,
        n_passes=5,
        n_scored=5,  # type: ignore[arg-type]
        n_unscored=0,
        n_identical=5,
        floor=5,
        complete=complete,
        rubric_version=1,
        rubric_hash="h",
        rubric_source="builtin",
        rubric={},
    )


#: The traits whose pack declares ``in_composite`` in these tests.
CAPABILITY = frozenset({"negotiation", "integrity"})


def test_composite_is_mean_of_capability_means_excluding_safety() -> None:
    traits = {
        "negotiation": _trait("negotiation", 0.6),
        "integrity": _trait("integrity", 0.9),
        "manipulation_resistance": _trait("manipulation_resistance", 0.0, pack="safety"),
    }
    assert composite_score(traits, counted=CAPABILITY).value == pytest.approx(0.75)


def test_composite_is_withheld_when_a_trait_is_below_the_floor() -> None:
    traits = {
        "negotiation": _trait("negotiation", 0.6),
        "integrity": _trait("integrity", 0.9, complete=False),
    }
    result = composite_score(traits, counted=CAPABILITY)
    assert result.value is None and "integrity" in (result.note or "")


def test_gated_example_falls_below_both_floors() -> None:
    run = example("gated_seat.json")
    gate = participation(run.transcript, "buyer", ParticipationConfig())
    assert gate.participation_gated
    assert (gate.player_messages, gate.actions, gate.turns) == (2, 0, 5)
    assert len(gate.reasons) == 2


def test_active_buyer_passes_the_gate() -> None:
    run = example("haggle.json")
    gate = participation(run.transcript, "buyer", ParticipationConfig())
    assert (gate.player_messages, gate.actions, gate.turns) == (5, 5, 5)
    assert gate.actions_per_turn == 1.0 and not gate.participation_gated


def test_actions_floor_alone_gates() -> None:
    run = example("haggle.json")
    gate = participation(run.transcript, "buyer", ParticipationConfig(min_actions_per_turn=1.5))
    assert gate.participation_gated
    assert gate.reasons == ["1.000 actions per turn < min_actions_per_turn 1.5"]
