import pytest

from judge.core.domain.config import DenoiseConfig, MeasurementSettings, RewardWeights
from judge.core.domain.scorecard import MeasurementEra
from judge.core.integrity import DETECTOR_VERSION
from judge.core.scoring.era import (
    configured_part,
    era_stack,
    measurement_era,
    reply_format_part,
    stack_digest,
    with_served,
)
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


def _era(**parts: object) -> MeasurementEra:
    return measurement_era(
        judge_model="m", rubric_hashes={"integrity": "aa"}, settings=MeasurementSettings(), **parts
    )


def test_a_reply_format_moves_the_era_only_off_the_one_the_judge_id_declares() -> None:
    base = _era()
    # passes sent as the id declares (json_schema, or the embedded grammar) keep the old era
    assert _era(reply_formats={"m": ["json_schema"]}, declared_formats={"m": "json_schema"}) == base
    same = _era(reply_formats={"m": ["grammar"]}, declared_formats={"m": "grammar"})
    assert same == base and same.reply_format == {}
    # a server of one's own that took json_object, or refused every schema, is another era
    shaped = _era(reply_formats={"m": ["json_object"]}, declared_formats={"m": "json_schema"})
    bare = _era(reply_formats={"m": {"none"}}, declared_formats={"m": "json_schema"})
    mixed = _era(
        reply_formats={"m": ["none", "json_schema"]}, declared_formats={"m": "json_schema"}
    )
    assert shaped.reply_format == {"m": ["json_object"]} and bare.reply_format == {"m": ["none"]}
    assert mixed.reply_format == {"m": ["json_schema", "none"]}
    assert len({base.era_id, shaped.era_id, bare.era_id, mixed.era_id}) == 4
    # in a panel every judge's formats are named once one judge is off its declared one
    panel = reply_format_part(
        {"a": ["json_schema"], "b": ["none"], "c": []},
        {"a": "json_schema", "b": "json_schema", "c": "none"},
    )
    assert panel == {"a": ["json_schema"], "b": ["none"]}
    # a model whose passes recorded no format is not read (a scripted judge, an older pass)
    assert _era(reply_formats={"m": []}, declared_formats={}) == base


def test_an_era_is_hashed_again_from_its_parts_and_takes_served_parts_from_another() -> None:
    expected = MeasurementSettings(score_mode="expected")
    stacks = [
        _era(),
        _era(shared_passes=True, decoders={"m": "g1"}),
        _era(reply_formats={"m": ["none"]}, declared_formats={"m": "json_schema"}),
        measurement_era(judge_model="m", rubric_hashes={}, settings=expected),
    ]
    for era in stacks:
        assert f"era-{stack_digest(era_stack(era))[:16]}" == era.era_id
    served = _era(
        shared_passes=True,
        reply_formats={"m": ["json_object"]},
        declared_formats={"m": "json_schema"},
    )
    configured = _era()
    # what the platform configures is the same; only scoring learned the served parts
    assert configured_part(served) == configured_part(configured) != configured_part(stacks[3])
    assert with_served(configured, served) == served
    assert with_served(served, configured) == configured
    # another configured stack keeps its own parts and takes the served ones
    moved = with_served(stacks[3], served)
    assert moved.shared_passes and moved.pass_score == "expected"
    assert moved.era_id not in {served.era_id, stacks[3].era_id}
