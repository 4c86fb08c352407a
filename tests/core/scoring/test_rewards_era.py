import pytest

from judge.core.domain.config import DenoiseConfig, MeasurementSettings, RewardWeights
from judge.core.integrity import DETECTOR_VERSION
from judge.core.scoring.era import measurement_era
from judge.core.scoring.rewards import step_rewards
from tests.helpers import example


def test_step_rewards_of_the_example_with_default_weights() -> None:
    rewards = step_rewards(example("haggle.json").trace, RewardWeights())
    # turn 1: 1*0.1 + 0*-0.05 + 0*1.0 + 0.1*0.5 = 0.15
    # turn 3: 1*0.1 + 1*-0.05 + 0 + 0.1*0.5 = 0.10
    # turn 5: 1*0.1 + 0 + 1*1.0 (deal_closed flips) + 0.3*0.5 = 1.25
    assert [r.scalar_reward for r in rewards] == pytest.approx([0.15, 0.2, 0.1, 0.3, 1.25])
    assert rewards[-1].components.new_conditions == ["deal_closed"]
    assert rewards[-1].components.progress_delta == pytest.approx(0.3)


def test_cumulative_conditions_only_count_when_new() -> None:
    from judge.core.domain.run import TraceStep

    trace = [
        TraceStep(turn=1, seat="a", conditions_met=["x"], progress=0.5),
        TraceStep(turn=2, seat="b", conditions_met=["x"], progress=0.2),
        TraceStep(turn=2, seat="a", conditions_met=["x"], progress=0.5),
    ]
    rewards = step_rewards(trace, RewardWeights())
    assert [r.components.new_conditions_count for r in rewards] == [1, 1, 0]
    assert [r.scalar_reward for r in rewards] == pytest.approx([1.25, 1.1, 0.0])


def test_era_changes_with_any_part_of_the_stack() -> None:
    base = {
        "judge_model": "m",
        "rubric_hashes": {"integrity": "aa"},
        "settings": MeasurementSettings(),
    }
    era = measurement_era(**base)  # type: ignore[arg-type]
    assert era.era_id == measurement_era(**base).era_id  # type: ignore[arg-type]
    changed = [
        measurement_era(**{**base, "judge_model": "other"}),  # type: ignore[arg-type]
        measurement_era(**{**base, "rubric_hashes": {"integrity": "ab"}}),  # type: ignore[arg-type]
        measurement_era(
            **{**base, "settings": MeasurementSettings(denoise=DenoiseConfig(n_runs=7))}
        ),  # type: ignore[arg-type]
        measurement_era(
            **{
                **base,
                "settings": MeasurementSettings(reward_weights=RewardWeights(w_progress=0.4)),
            }
        ),  # type: ignore[arg-type]
        measurement_era(**base, prompt_version=99),  # type: ignore[arg-type]
        measurement_era(**base, scoring_version=2),  # type: ignore[arg-type]
    ]
    assert len({era.era_id, *(c.era_id for c in changed)}) == 7


def test_a_decode_identity_moves_the_era_and_its_absence_keeps_the_old_id() -> None:
    settings = MeasurementSettings()
    base = measurement_era(judge_model="m", rubric_hashes={"integrity": "aa"}, settings=settings)
    empty = measurement_era(
        judge_model="m", rubric_hashes={"integrity": "aa"}, settings=settings, decoders={}
    )
    one = measurement_era(
        judge_model="m", rubric_hashes={"integrity": "aa"}, settings=settings, decoders={"m": "g1"}
    )
    other = measurement_era(
        judge_model="m", rubric_hashes={"integrity": "aa"}, settings=settings, decoders={"m": "g2"}
    )
    assert empty.era_id == base.era_id and base.decoders == {}
    assert len({base.era_id, one.era_id, other.era_id}) == 3
    assert one.decoders == {"m": "g1"}


def test_the_defence_is_part_of_the_era_and_off_is_the_stack_measured_before_it() -> None:
    hashes = {"negotiation": "ab"}
    on = measurement_era(judge_model="m", rubric_hashes=hashes, settings=MeasurementSettings())
    off = measurement_era(
        judge_model="m", rubric_hashes=hashes, settings=MeasurementSettings(defence=False)
    )
    assert on.era_id != off.era_id
    assert on.prompt_version == 7 and off.prompt_version == 4
    assert on.integrity == {"detector": DETECTOR_VERSION, "spotlight": "line-mark"}
    assert off.integrity == {}
