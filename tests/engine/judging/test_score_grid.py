"""The score grid: mapping score tokens to the grid, weighting by hand-made log-probability
tables (exact expected values), the fallback, and reading litellm's log-probability shapes."""

import math
from types import SimpleNamespace

import pytest

from judge.engine.judging.score_grid import (
    GRID,
    TokenStep,
    distribution,
    grid_distribution,
    grid_index,
    score_of_pass,
    score_token,
    steps_from_logprobs,
)

ln = math.log


def spell(*tokens: str, tops: dict[int, dict[str, float]] | None = None) -> list[TokenStep]:
    """Steps spelling ``tokens``; step n gets the alternatives ``tops[n]`` (probabilities)."""
    tops = tops or {}
    return [
        TokenStep(
            t, ln(tops.get(n, {}).get(t, 1.0)), {k: ln(v) for k, v in tops.get(n, {}).items()}
        )
        for n, t in enumerate(tokens)
    ]


HEAD = ['{"rationale": "x", "turns": [1], ', '"score"', ":", " "]


def test_the_grid_is_eleven_tenths() -> None:
    assert GRID == (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


@pytest.mark.parametrize(
    ("value", "index"),
    [
        (0.0, 0),
        (0.04, 0),
        (0.05, 1),
        (0.7, 7),
        (0.74, 7),
        (0.75, 8),
        (0.95, 10),
        (1.0, 10),
        (1.3, 10),
        (-0.2, 0),
    ],
)
def test_values_map_to_the_nearest_grid_point_halves_up(value: float, index: int) -> None:
    assert grid_index(value) == index


def test_score_token_finds_the_first_character_of_the_last_score() -> None:
    steps = spell(*HEAD, "0", ".", "7", "}")
    assert score_token("".join(s.token for s in steps), steps) == 4
    glued = spell('{"score":', "0", ".", "7", "}")  # no space before the number
    assert score_token('{"score":0.7}', glued) == 1
    assert score_token("something else", glued) is None  # tokens that do not spell the text
    assert score_token("no verdict", spell("no verdict")) is None


def test_a_sampled_zero_point_seven_weights_the_lead_and_the_tenths() -> None:
    # lead: "0" 0.6, "1" 0.4; tenths after "0.": "7" 0.5, "5" 0.25, "0" 0.25
    steps = spell(
        *HEAD,
        "0",
        ".",
        "7",
        "}",
        tops={4: {"0": 0.6, "1": 0.4}, 6: {"7": 0.5, "5": 0.25, "0": 0.25}},
    )
    d = grid_distribution("".join(s.token for s in steps), steps)
    assert d is not None
    want = [0.15, 0, 0, 0, 0, 0.15, 0, 0.3, 0, 0, 0.4]
    assert d.probabilities == pytest.approx(want, abs=1e-12)
    # 0.7 * 0.3 + 0.5 * 0.15 + 1.0 * 0.4
    assert d.expected == pytest.approx(0.685, abs=1e-12)
    assert d.entropy_bits == pytest.approx(-sum(p * math.log2(p) for p in want if p), abs=1e-12)
    assert not d.partial


def test_alternatives_that_are_not_grid_numbers_are_ignored_and_the_rest_renormalised() -> None:
    steps = spell(
        *HEAD,
        "0",
        ".",
        "2",
        "}",
        tops={4: {"0": 0.3, "1": 0.3, "2": 0.1, " the": 0.3}, 6: {"2": 0.2}},
    )
    d = grid_distribution("".join(s.token for s in steps), steps)
    assert d is not None
    assert d.probabilities[2] == pytest.approx(0.5) and d.probabilities[10] == pytest.approx(0.5)
    assert d.expected == pytest.approx(0.6)


def test_a_sampled_one_without_a_probe_puts_the_unseen_zero_branch_on_zero_and_says_so() -> None:
    steps = spell(*HEAD, "1", ".", "0", "}", tops={4: {"1": 0.8, "0": 0.2}})
    d = grid_distribution("".join(s.token for s in steps), steps)
    assert d is not None and d.partial
    assert d.probabilities[0] == pytest.approx(0.2) and d.probabilities[10] == pytest.approx(0.8)
    assert d.expected == pytest.approx(0.8)


def test_a_sampled_one_with_the_embedded_probe_shares_the_zero_branch_over_its_tenths() -> None:
    steps = spell(*HEAD, "1", ".", "0", "}", tops={4: {"1": 0.8, "0": 0.2}})
    d = grid_distribution(
        "".join(s.token for s in steps),
        steps,
        zero_branch={"5": ln(0.5), "2": ln(0.5), ".": ln(0.9)},
    )
    assert d is not None and not d.partial
    assert d.probabilities[5] == pytest.approx(0.1) and d.probabilities[2] == pytest.approx(0.1)
    assert d.expected == pytest.approx(0.8 + 0.05 + 0.02)


def test_a_certain_judge_gives_a_degenerate_distribution_with_zero_entropy() -> None:
    steps = spell(*HEAD, "0", ".", "3", "}", tops={4: {"0": 1.0}, 6: {"3": 1.0}})
    d = grid_distribution("".join(s.token for s in steps), steps)
    assert (
        d is not None
        and d.probabilities[3] == 1.0
        and d.expected == pytest.approx(0.3)
        and d.entropy_bits == 0.0
    )


def test_multi_digit_tenths_tokens_round_half_up_to_the_grid() -> None:
    # tokenizers that group digits write 0.75 as "0" "." "75"
    steps = spell(*HEAD, "0", ".", "75", "}", tops={4: {"0": 1.0}, 6: {"75": 0.5, "74": 0.5}})
    d = grid_distribution("".join(s.token for s in steps), steps)
    assert (
        d is not None
        and d.probabilities[8] == pytest.approx(0.5)
        and d.probabilities[7] == pytest.approx(0.5)
    )


def test_a_bare_zero_counts_its_branch_as_zero() -> None:
    steps = spell(*HEAD, "0", "}", tops={4: {"0": 0.5, "1": 0.5}})
    d = grid_distribution("".join(s.token for s in steps), steps)
    assert d is not None and d.expected == pytest.approx(0.5) and not d.partial


def test_replies_without_a_readable_score_token_give_no_distribution() -> None:
    assert grid_distribution("no verdict at all", spell("no verdict at all")) is None
    steps = spell(*HEAD, "x", "}", tops={4: {"x": 0.9, "y": 0.1}})
    assert grid_distribution("".join(s.token for s in steps), steps) is None


def test_distribution_refuses_masses_it_cannot_normalise() -> None:
    with pytest.raises(ValueError, match="eleven|11"):
        distribution([1.0, 2.0])
    with pytest.raises(ValueError, match="positive"):
        distribution([0.0] * 11)
    with pytest.raises(ValueError):
        distribution([-1.0] + [1.0] * 10)


def test_the_pass_score_falls_back_to_the_sampled_score_without_an_expected_value() -> None:
    assert score_of_pass(0.0, 0.42, "expected") == 0.42
    assert score_of_pass(0.0, 0.42, "sampled") == 0.0
    assert score_of_pass(1.0, None, "expected") == 1.0  # backend without log-probabilities
    assert score_of_pass(None, 0.42, "expected") is None  # an unscored pass stays unscored


def test_openai_chat_logprobs_are_read_as_objects_and_as_dicts() -> None:
    item = SimpleNamespace(
        token="0", logprob=ln(0.6), top_logprobs=[SimpleNamespace(token="1", logprob=ln(0.4))]
    )
    steps = steps_from_logprobs(SimpleNamespace(content=[item]))
    assert steps == [TokenStep("0", ln(0.6), {"1": ln(0.4)})]
    as_dict = {
        "content": [
            {"token": "0", "logprob": ln(0.6), "top_logprobs": [{"token": "1", "logprob": ln(0.4)}]}
        ]
    }
    assert steps_from_logprobs(as_dict) == steps


def test_the_legacy_completions_shape_of_llama_cpp_python_is_read_too() -> None:
    legacy = {
        "tokens": ["0", "."],
        "token_logprobs": [ln(0.6), 0.0],
        "top_logprobs": [{"0": ln(0.6), "1": ln(0.4)}, {".": 0.0}],
    }
    steps = steps_from_logprobs(legacy)
    assert steps is not None and steps[0] == TokenStep("0", ln(0.6), {"0": ln(0.6), "1": ln(0.4)})
    assert steps_from_logprobs(None) is None and steps_from_logprobs({"content": None}) is None
    assert steps_from_logprobs({"content": [{"token": "0", "logprob": "bad"}]}) is None
