"""Where the run page marks what was withheld from the judge (docs/console.md): pieces of each
event's text, which the template escapes (withheld ones inside ``<mark class="tamper">``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import NamedTuple

from judge.core.domain.integrity import WithheldSpan
from judge.core.domain.scorecard import Scorecard

CONTENT = "/content"


class TextPart(NamedTuple):
    text: str
    withheld: bool


class EventMarks(NamedTuple):
    """The withheld character ranges of one event's ``/content``, and whether another field
    of it (an action's name or arguments) was withheld."""

    ranges: list[tuple[int, int]]
    other_field: bool


def withheld_by_event(card: Scorecard | None) -> dict[int, EventMarks]:
    """Event index -> what of that event the judge did not read, over every seat."""
    spans: dict[int, list[WithheldSpan]] = defaultdict(list)
    for seat in card.seats.values() if card else ():
        for span in seat.tamper.withheld if seat.tamper else ():
            spans[span.event_index].append(span)
    return {
        index: EventMarks(
            merged((s.start, s.end) for s in found if s.field == CONTENT),
            any(s.field != CONTENT for s in found),
        )
        for index, found in spans.items()
    }


def merged(ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Non-empty ranges sorted, overlapping or touching ones joined."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(r for r in ranges if r[1] > r[0]):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def split_text(text: str, ranges: list[tuple[int, int]]) -> list[TextPart]:
    """``text`` cut into pieces, each withheld or not; ranges beyond the text are clipped."""
    parts, at = [], 0
    for start, end in ranges:
        start, end = max(start, at), min(end, len(text))
        if start >= end:
            continue
        if start > at:
            parts.append(TextPart(text[at:start], False))
        parts.append(TextPart(text[start:end], True))
        at = end
    if at < len(text):
        parts.append(TextPart(text[at:], False))
    return parts
