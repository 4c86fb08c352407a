"""The batch decoder's plan: which prompts decode side by side, in how many rounds."""

from judge.engine.judging.batch_decode import (
    MAX_CELLS,
    Decoded,
    Group,
    PromptTokens,
    distinct_prompts,
    group_width,
    plan_groups,
)

A = PromptTokens((1, 2, 3), (10,))
B = PromptTokens((1, 2, 3), (20, 21))
C = PromptTokens((1, 2, 3), (30,))


def test_identical_prompts_merge_in_first_seen_order_with_their_requests() -> None:
    prompts = distinct_prompts([A, B, A, C, B, A])
    assert [p.tokens for p in prompts] == [A, B, C]
    assert [p.requests for p in prompts] == [[0, 2, 5], [1, 4], [3]]


def test_groups_hold_prompts_with_equal_reply_counts_so_every_round_has_one_composition() -> None:
    prompts = distinct_prompts([A, B, A, C, B, A])
    assert plan_groups(prompts, [0, 1, 2], width=12) == [
        Group((0,), 3),
        Group((1,), 2),
        Group((2,), 1),
    ]


def test_groups_are_at_most_the_batch_width() -> None:
    prompts = distinct_prompts([PromptTokens((1,), (n,)) for n in range(5)] * 2)
    assert plan_groups(prompts, list(range(5)), width=2) == [
        Group((0, 1), 2),
        Group((2, 3), 2),
        Group((4,), 2),
    ]


def test_a_group_narrows_to_fit_the_cells_of_one_context() -> None:
    assert group_width(3000, 300, 160, 12) == 12
    assert group_width(7000, 2000, 160, 12) == (MAX_CELLS - 7000) // 2160 == 8
    assert group_width(MAX_CELLS, 1000, 160, 12) == 1


def test_a_decoded_reply_is_read_into_a_judge_reply_by_its_field_names() -> None:
    from judge.engine.judging.providers.embedded import reply_from_decoded
    from judge.engine.judging.score_grid import TokenStep

    steps = (TokenStep("0", -0.1, {"0": -0.1, "1": -2.4}), TokenStep(".", 0.0, {}))
    decoded = Decoded(3, '{"score": 0.', 812, 790, 2, steps, {"7": -0.3})

    reply = reply_from_decoded(decoded)

    assert (reply.text, reply.prompt_tokens, reply.cached_prompt_tokens) == (
        '{"score": 0.',
        812,
        790,
    )
    assert reply.completion_tokens == 2 and reply.token_logprobs == list(steps)
    assert reply.zero_branch == {"7": -0.3}
    assert reply.structured_output and not reply.refused and reply.cost_usd is None
    assert reply.reply_format == "grammar"
