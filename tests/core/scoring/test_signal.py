"""Panel statistics, signal fields and unparseable rates over hand-made passes."""

import pytest

from judge.core.domain.judging import JudgePass, JudgeStats, TraitResult
from judge.core.scoring.signal import (
    NO_LOGPROBS_NOTE,
    PARTIAL_NOTE,
    format_counts,
    format_words,
    judge_stats,
    panel_agreement,
    panel_mean,
    signal_fields,
    unparseable_by_model,
)


def jp(model: str, index: int, score: float | None, **kw: object) -> JudgePass:
    status = kw.pop("parse_status", "ok" if score is not None else "unparseable")
    return JudgePass(trait="t", index=index, score=score, model=model, parse_status=status, **kw)  # type: ignore[arg-type]


def result(trait: str, judges: list[JudgeStats]) -> TraitResult:
    return TraitResult(
        trait=trait,
        pack="capability",
        pass_scores=[],
        mean=None,
        variance=None,
        n_passes=0,
        n_scored=0,
        n_unscored=0,
        n_identical=0,
        floor=1,
        complete=True,
        rubric_version=1,
        rubric_hash="h",
        rubric_source="builtin",
        rubric={},
        judges=judges,
    )


def stats(model: str, mean: float | None) -> JudgeStats:
    return JudgeStats(
        model=model, pass_scores=[], mean=mean, variance=None, n_scored=1, n_unscored=0
    )


def test_each_judge_keeps_its_own_passes_mean_and_variance() -> None:
    passes = [jp("a", 0, 0.2), jp("a", 1, 0.4), jp("b", 2, 0.9), jp("b", 3, None), jp("b", 4, 0.7)]
    a, b = judge_stats(passes, ["a", "b"], floor=2)
    assert (a.model, a.pass_scores, a.mean, a.n_scored) == ("a", [0.2, 0.4], pytest.approx(0.3), 2)
    assert a.variance == pytest.approx(0.02)  # ((0.1)^2 + (0.1)^2) / 1
    assert (b.pass_scores, b.mean, b.n_unscored) == ([0.9, 0.7], pytest.approx(0.8), 1)
    # the panel mean weighs judges equally, not passes
    assert panel_mean([a, b]) == pytest.approx(0.55)
    assert panel_mean([stats("a", None), stats("b", 0.4)]) == pytest.approx(0.4)


def test_panel_agreement_is_krippendorffs_interval_alpha_over_traits_and_names_the_widest_split() -> (
    None
):
    # traits as units, judges' means as ratings: (0, 0), (0.5, 1), (1, 1)
    # D_o = 0.5 / 6, D_e = 14.5 / 30, alpha = 1 - (1/12) / (14.5/30) = 24/29
    results = {
        "t1": result("t1", [stats("a", 0.0), stats("b", 0.0)]),
        "t2": result("t2", [stats("a", 0.5), stats("b", 1.0)]),
        "t3": result("t3", [stats("a", 1.0), stats("b", 1.0)]),
    }
    agreement = panel_agreement(results, ["a", "b"])
    assert agreement.alpha_interval == pytest.approx(24 / 29)
    assert agreement.n_traits == 3 and agreement.largest_disagreement_trait == "t2"
    assert agreement.largest_disagreement == pytest.approx(0.5)
    assert agreement.largest_disagreement_means == {"a": 0.5, "b": 1.0}


def test_perfect_agreement_is_alpha_one_and_nothing_to_disagree_about_is_none() -> None:
    same = {
        f"t{i}": result(f"t{i}", [stats("a", v), stats("b", v)])
        for i, v in enumerate([0.1, 0.5, 0.9])
    }
    assert panel_agreement(same, ["a", "b"]).alpha_interval == pytest.approx(1.0)
    flat = {"t": result("t", [stats("a", 0.5), stats("b", 0.5)])}
    assert panel_agreement(flat, ["a", "b"]).alpha_interval is None


def test_signal_fields_give_both_means_the_entropy_and_the_fallback_note() -> None:
    with_dist = [
        jp(
            "m",
            0,
            0.685,
            sampled_score=0.7,
            expected_score=0.685,
            score_entropy_bits=1.5,
            score_distribution=[0.15, 0, 0, 0, 0, 0.15, 0, 0.3, 0, 0, 0.4],
        ),
        jp(
            "m",
            1,
            0.4,
            sampled_score=0.7,
            expected_score=0.4,
            score_entropy_bits=1.0,
            score_distribution=[0, 0.5, 0, 0, 0, 0, 0, 0.5, 0, 0, 0],
        ),
    ]
    f = signal_fields(with_dist, "expected")
    assert f.sampled_mean == pytest.approx(0.7) and f.expected_mean == pytest.approx(0.5425)
    assert (
        f.mean_entropy_bits == pytest.approx(1.25)
        and f.n_with_distribution == 2
        and f.score_note is None
    )
    plain = [jp("m", 0, 0.3), jp("m", 1, 0.5)]
    assert signal_fields(plain, "expected").score_note == NO_LOGPROBS_NOTE
    assert (
        signal_fields(plain, "sampled").score_note == NO_LOGPROBS_NOTE
    )  # said on the card either way
    mixed = signal_fields([with_dist[0], plain[0]], "expected")
    assert mixed.score_note is not None and "1 of 2 passes" in mixed.score_note
    partial = jp(
        "m",
        0,
        0.8,
        sampled_score=1.0,
        expected_score=0.8,
        score_entropy_bits=0.7,
        distribution_partial=True,
        score_distribution=[0.2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.8],
    )
    assert signal_fields([partial], "expected").score_note == PARTIAL_NOTE


def test_unparseable_rate_per_model_counts_schema_enforced_passes() -> None:
    passes = [
        jp("a", 0, 0.5, structured_output=True),
        jp("a", 1, None, structured_output=True),
        jp("b", 0, None, parse_status="out_of_range"),
        jp("b", 1, None, parse_status="refused"),
    ]
    rates = unparseable_by_model(passes)
    assert rates["a"] == (2, 1, 2)
    assert rates["b"] == (2, 1, 0)  # a refusal is not an unparseable reply


def test_reply_formats_in_words_one_format_counts_or_each_judges() -> None:
    schema = [jp("a", i, 0.5, reply_format="json_schema") for i in range(4)]
    bare = jp("a", 4, 0.5, reply_format="none")
    unsaid = jp("a", 5, 0.5)

    assert format_words(schema) == "json_schema"
    assert format_words([bare, *schema]) == "json_schema 4, none 1"  # the most used first
    assert format_words([*schema, unsaid]) == "json_schema 4, not recorded 1"
    assert format_words([]) == ""
    grammar = [jp("b", 10 + i, 0.5, reply_format="grammar") for i in range(4)]
    assert format_words([*schema, *grammar]) == "a json_schema; b grammar"
    alike = [jp("b", 10 + i, 0.5, reply_format="json_schema") for i in range(2)]
    assert format_words([*schema, *alike]) == "json_schema"  # how many each made does not count
    # the card's counts leave out passes that recorded none
    assert format_counts([bare, *schema, unsaid]) == {"json_schema": 4, "none": 1}
