"""Cutting an event's text into withheld and readable pieces for the run page."""

from __future__ import annotations

from judge.server.console.highlights import TextPart, merged, split_text, withheld_by_event
from tests.factories import scorecard, seat
from tests.tamper_cards import finding, seat_tamper, span, with_tamper


def test_ranges_are_sorted_and_overlapping_or_touching_ones_joined() -> None:
    assert merged([(8, 10), (0, 3), (2, 5), (5, 6), (7, 7)]) == [(0, 6), (8, 10)]


def test_the_text_is_cut_around_each_withheld_range() -> None:
    assert split_text("abcdefgh", [(2, 4), (6, 8)]) == [
        TextPart("ab", False),
        TextPart("cd", True),
        TextPart("ef", False),
        TextPart("gh", True),
    ]


def test_a_range_past_the_end_of_the_text_is_clipped() -> None:
    assert split_text("abc", [(1, 99), (120, 130)]) == [TextPart("a", False), TextPart("bc", True)]


def test_text_with_nothing_withheld_is_one_readable_piece() -> None:
    assert split_text("abc", []) == [TextPart("abc", False)]


def test_spans_of_every_seat_are_gathered_per_event() -> None:
    card = scorecard("r1", seat("buyer"), seat("seller", "agent-beta"))
    card = with_tamper(card, "buyer", seat_tamper(finding(where=span(1, 1, 4, 9))))
    card = with_tamper(
        card, "seller", seat_tamper(finding(where=span(3, 2, 0, 1, field="/args/price")))
    )

    marks = withheld_by_event(card)

    assert marks[1].ranges == [(4, 9)] and marks[1].other_field is False
    assert marks[3].ranges == [] and marks[3].other_field is True
    assert set(marks) == {1, 3}
