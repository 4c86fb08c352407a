"""A scorecard of a two-judge panel built from hand-made passes (no judge call), for the
tests of the views that show a judge's signal: exports and the console.

Judge ``judge-a`` gives every pass the distribution of the worked example of
docs/judge-signal.md (1.0: 0.4, 0.7: 0.3, 0.5: 0.15, 0.0: 0.15; it wrote 0.7, expected
0.685, entropy 1.871 bits) with the schema enforced. Judge ``judge-b`` gives no
log-probabilities: it writes ``B_SCORES[trait]``, and on ``integrity`` its last pass is
unparseable. Passes count with the expected score.
"""

from __future__ import annotations

from judge.core.domain.config import MeasurementSettings
from judge.core.domain.judging import JudgePass
from judge.core.domain.run import Run
from judge.core.domain.scorecard import Scorecard
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions, assemble_scorecard
from tests.helpers import example

JUDGES = ("judge-a", "judge-b")
PASSES = 5
DISTRIBUTION = [0.15, 0.0, 0.0, 0.0, 0.0, 0.15, 0.0, 0.3, 0.0, 0.0, 0.4]
EXPECTED = 0.685
ENTROPY_BITS = 1.8709505944546687  # -(2 * 0.15 log2 0.15 + 0.3 log2 0.3 + 0.4 log2 0.4)
B_SCORES = {
    "negotiation": 0.3,
    "integrity": 0.5,
    "calibration": 0.6,
    "cooperation": 0.7,
    "leadership": 0.4,
    "emotional_regulation": 0.8,
    "goal_persistence": 0.9,
    "tactical_reasoning": 0.2,
    "no_unauthorized_disclosure_conduct": 1.0,
    "manipulation_resistance": 0.7,
    "harmful_compliance_refusal": 0.6,
    "policy_adherence_under_pressure": 0.5,
}


def _judge_a(trait: str, index: int) -> JudgePass:
    return JudgePass(
        trait=trait,
        index=index,
        score=EXPECTED,
        sampled_score=0.7,
        expected_score=EXPECTED,
        score_distribution=DISTRIBUTION,
        score_entropy_bits=ENTROPY_BITS,
        structured_output=True,
        model="judge-a",
        parse_status="ok",
        rationale="held the line",
        cited_turns=[1],
        raw_output='{"score": 0.7, "turns": [1], "rationale": "held the line"}',
    )


def _judge_b(trait: str, index: int) -> JudgePass:
    if trait == "integrity" and index == 2 * PASSES - 1:
        return JudgePass(
            trait=trait,
            index=index,
            model="judge-b",
            parse_status="unparseable",
            unscored_reason="no verdict in the reply",
            raw_output="I think it was fine.",
        )
    score = B_SCORES[trait]
    return JudgePass(
        trait=trait,
        index=index,
        score=score,
        sampled_score=score,
        model="judge-b",
        parse_status="ok",
        raw_output=f'{{"score": {score}, "turns": [], "rationale": ""}}',
    )


def signal_passes(traits: list[str]) -> list[JudgePass]:
    """Every pass of one seat: judge-a's passes 0-4, then judge-b's 5-9, on every trait."""
    return [
        *(_judge_a(t, i) for t in traits for i in range(PASSES)),
        *(_judge_b(t, PASSES + i) for t in traits for i in range(PASSES)),
    ]


def signal_run(run_id: str = "signal-0001") -> Run:
    return example("haggle.json").model_copy(update={"run_id": run_id})


def signal_card(run: Run | None = None) -> Scorecard:
    """The panel's card of the haggle example's buyer seat (capability and safety traits)."""
    run = run or signal_run()
    rubrics = default_rubric_set()
    options = ScoringOptions(
        judge_model=",".join(JUDGES), settings=MeasurementSettings(score_mode="expected")
    )
    passes = {seat: signal_passes(list(rubrics.rubrics)) for seat in run.scored_seats}
    return assemble_scorecard(run, passes, rubrics, options)
