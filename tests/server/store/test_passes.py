"""A pass's row gives back the same pass: same-named columns copied, the three stored under
other names or as JSON turned back."""

from __future__ import annotations

from judge.core.domain.judging import JudgePass
from judge.server.store.passes import _values, judge_pass
from judge.server.store.tables import PassRow

UNSCORED = JudgePass(
    trait="integrity", index=0, model="m", parse_status="unparseable", unscored_reason="no verdict"
)


def test_a_pass_with_a_distribution_comes_back_from_its_row_unchanged() -> None:
    grid = [0.0] * 8 + [0.25, 0.5, 0.25]
    judged = UNSCORED.model_copy(
        update={
            "index": 3,
            "score": 0.9,
            "cited_turns": [2, 5],
            "prompt_tokens": 812,
            "cost_usd": 0.0021,
            "parse_status": "ok",
            "unscored_reason": None,
            "sampled_score": 1.0,
            "expected_score": 0.9,
            "score_distribution": grid,
            "score_entropy_bits": 1.5,
        }
    )
    row = PassRow(**_values(run_id="haggle-0007", seat="buyer", judge_pass=judged))
    assert (row.pass_index, row.cited_turns_json) == (3, "[2, 5]")
    assert judge_pass(row) == judged


def test_an_unscored_pass_comes_back_without_a_distribution() -> None:
    row = PassRow(**_values(run_id="haggle-0007", seat="buyer", judge_pass=UNSCORED))
    assert row.score_distribution_json is None
    assert judge_pass(row) == UNSCORED
