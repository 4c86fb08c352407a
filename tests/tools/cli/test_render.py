"""The plain-text scorecard never contradicts itself about the leaderboards."""

from __future__ import annotations

from typing import Any

import pytest

from judge.tools.cli.render import progress_bar, render_scorecard
from tests.factories import scorecard, seat


def test_a_gated_card_says_it_is_left_out_and_never_ranked_eligible_true() -> None:
    text = render_scorecard(scorecard("inspect-1", seat("agent", gated=True)))

    assert "ranked_eligible True" not in text
    assert (
        "participation_gated True: left out of every leaderboard "
        "(class ranked applies only to runs that are not gated)"
    ) in text
    assert "GATED: 0 messages < min_player_messages 5" in text


def test_a_card_that_is_not_gated_keeps_its_class_line() -> None:
    text = render_scorecard(scorecard("haggle-1", seat("buyer")))

    assert "ranked_eligible True  class ranked  participation_gated False" in text


def test_the_progress_bar_shows_passes_done_of_the_total(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with progress_bar(True, "run-1") as tick:
        tick(3, 10)
    err = capsys.readouterr().err
    assert "run-1" in err and "3/10" in err


def test_a_progress_bar_that_is_off_writes_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    with progress_bar(False, "run-1") as tick:
        tick(3, 10)
    assert capsys.readouterr().err == ""


def test_the_cost_line_says_1_pass_not_1_passes() -> None:
    from judge.core.domain.cost import Cost
    from judge.tools.cli.render import cost_line

    one = Cost(
        n_passes=1, n_attempts=1, prompt_tokens=10, cached_prompt_tokens=0, completion_tokens=2
    )
    assert cost_line(one).startswith("cost: 1 pass, tokens in 10 (0 cached) out 2, ")


def test_the_bar_says_what_it_waits_for_until_the_first_pass(capsys: Any) -> None:
    from judge.tools.cli.render import WAITING, progress_bar

    with progress_bar(True, "run-1") as tick:
        waiting = capsys.readouterr().err
        tick(1, 10)
        moving = capsys.readouterr().err
    assert WAITING in waiting and "1/10" in moving
    assert WAITING not in moving.rsplit("\r", 1)[-1]
