"""The held-run rule: a run whose card withheld judge-directed text waits for an owner;
cleared runs count again, escalated or undecided ones never do."""

from __future__ import annotations

import pytest

from judge.core.domain.integrity import SeatTamper
from judge.core.scoring.run_summary import (
    TAMPER_REASON,
    flagged_seats,
    held_for_review,
    tamper_flagged,
    tamper_reasons,
)
from tests.factories import scorecard, seat
from tests.tamper_cards import DETECTOR, seat_tamper, with_tamper


@pytest.mark.parametrize(
    ("state", "held"),
    [("none", True), ("escalated", True), ("rescore_requested", True), ("cleared", False)],
)
def test_a_flagged_run_is_held_until_an_owner_clears_it(state: str, held: bool) -> None:
    assert held_for_review(True, state) is held


def test_an_unflagged_run_is_never_held() -> None:
    assert held_for_review(False, "none") is False and held_for_review(None, None) is False


def test_a_card_is_flagged_when_any_scored_seat_is() -> None:
    card = scorecard("r1", seat("buyer"), seat("seller", "agent-beta"))

    assert tamper_flagged(card) is False
    assert tamper_flagged(with_tamper(card, "seller", seat_tamper())) is True


def test_a_detector_answer_without_findings_does_not_flag() -> None:
    clean = SeatTamper(flagged=False, detector_version=DETECTOR)
    card = with_tamper(scorecard("r1", seat("buyer")), "buyer", clean)

    assert tamper_flagged(card) is False


def test_the_queue_reason_is_given_only_for_a_flagged_run() -> None:
    assert tamper_reasons(True) == [TAMPER_REASON] and tamper_reasons(False) == []


def test_only_the_seat_whose_own_events_carried_the_text_is_held() -> None:
    card = scorecard("r1", seat("north", "agent-alpha"), seat("south", "agent-gamma"))

    assert flagged_seats(card) == []
    assert flagged_seats(with_tamper(card, "north", seat_tamper())) == ["north"]


def test_an_unscannable_run_holds_every_seat_whole() -> None:
    card = scorecard("r1", seat("north", "agent-alpha"), seat("south", "agent-gamma"))
    never_judged = SeatTamper(flagged=True, unscannable=True, detector_version=DETECTOR)
    clean = SeatTamper(flagged=False, detector_version=DETECTOR)

    held = with_tamper(with_tamper(card, "north", never_judged), "south", clean)

    assert flagged_seats(held) == ["north", "south"]
