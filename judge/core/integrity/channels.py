"""Which text of a run an agent wrote or caused, and the judged view of a run
(docs/integrity.md, "Channels"): every such string is scanned, a withheld span is withheld
wherever it recurs, a quote of another seat's flagged span counts against its originator only,
and a judge names seats by platform labels.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from judge.core.domain.integrity import SeatTamper, WithheldSpan
from judge.core.domain.run import (
    VALUE_DEPTH_CEILING,
    ActionEvent,
    MessageEvent,
    Run,
    TranscriptEvent,
)
from judge.core.domain.scenario import Scenario
from judge.core.errors import ScanBudgetExceeded
from judge.core.integrity import learned, linear, scan, world
from judge.core.integrity.budget import checkpoint
from judge.core.integrity.fold import fold
from judge.core.integrity.scan import Piece, TextField
from judge.core.integrity.withhold import (
    KEY_SUFFIX,
    MEMBER_SUFFIX,
    SEAT_POINTER,
    merged,
    rendered,
    withhold,
)
from judge.core.versions import DETECTOR_VERSION

#: Events the engine writes in a run the platform ran; in a run an agent submitted the agent
#: wrote them too.
_ENGINE_KINDS = frozenset({"system", "fault"})

#: A withheld span shorter than this (folded, without the spaces and punctuation at its ends)
#: is not looked for elsewhere: so short a string recurs in ordinary text.
MIN_RECURRENCE_CHARS = 8
#: At most this many distinct withheld strings of a run are looked for (the first in event
#: order); each is looked for by its first :data:`NEEDLE_CHARS` characters and followed on as
#: far as the recurrence repeats it whole. The bounds keep one seat's alternation within
#: RE2's memory for a DFA (past it RE2 still matches in linear time, several times slower).
MAX_NEEDLES = 256
NEEDLE_CHARS = 160
#: What is trimmed off both ends of a withheld string before it is looked for.
_TRIM = " \t\r\n.,;:!?\"'`()[]{}<>*_~-\u00ab\u00bb\u201c\u201d\u2018\u2019\u2026\u3002"
#: About this many characters are searched between two checks of the scan's CPU budget.
_CHECK_CHARS = 256 * 1024


def pointer_part(key: str | int) -> str:
    """One JSON-pointer reference token (RFC 6901 escaping)."""
    return str(key).replace("~", "~0").replace("/", "~1")


#: How deep the walk of an action's ``args`` or ``result`` goes (the run format's own bound);
#: a container deeper down is read whole, as its rendering.
MAX_DEPTH = VALUE_DEPTH_CEILING
#: At most about this many strings of one ``args`` or ``result`` are read one by one; a
#: container whose members would pass the bound is read whole, as its rendering, so a value of
#: a million tiny members is a few strings to scan, not a million (the walk stays linear in
#: the value's size either way; the bound keeps its constant small).
MAX_VALUE_FIELDS = 1 << 14


def _strings(value: Any, pointer: str) -> Iterator[tuple[str, str]]:
    """Every scalar of a JSON value as the judge prompt shows it, in order: a string as it
    is, an object's key (``<member>~k``) as it is, a number or boolean as its JSON rendering;
    an object's member whose value is a number or boolean as one string, key and value as
    the prompt shows them (``<member>~m``: ``"score": 1.0``); ``null`` is no text. Walked
    without recursion (a stack of the containers under way); a container below the top past
    :data:`MAX_DEPTH`, or whose members would pass :data:`MAX_VALUE_FIELDS`, is one string,
    its JSON rendering (``rendered``) at its own pointer (the top one is always read member
    by member, so a withheld span never turns ``args`` into a string)."""
    if isinstance(value, str):
        yield pointer, value
        return
    if isinstance(value, _NUMBERS):
        yield pointer, rendered(value)
        return
    if not isinstance(value, dict | list):
        return
    read = len(value)
    stack = [(_members(value), pointer, 0, isinstance(value, dict))]
    while stack:
        members, where, depth, named = stack[-1]
        for key, inner in members:
            member = f"{where}/{pointer_part(key)}"
            if named and isinstance(inner, _NUMBERS):
                yield member + MEMBER_SUFFIX, f"{rendered(str(key))}: {rendered(inner)}"
                continue
            if named:
                yield member + KEY_SUFFIX, str(key)
            if isinstance(inner, str):
                yield member, inner
            elif isinstance(inner, _NUMBERS):
                yield member, rendered(inner)
            elif isinstance(inner, dict | list):
                if depth + 1 >= MAX_DEPTH or read + len(inner) > MAX_VALUE_FIELDS:
                    yield member, rendered(inner)
                    continue
                read += len(inner)
                stack.append((_members(inner), member, depth + 1, isinstance(inner, dict)))
                break  # the container first; this one goes on after it
        else:
            stack.pop()


#: The scalars read as their JSON rendering.
_NUMBERS = (bool, int, float)


def _members(item: dict[str, Any] | list[Any]) -> Iterator[tuple[Any, Any]]:
    """A container's members in order: (key, value) of an object, (index, item) of a list."""
    return iter(item.items()) if isinstance(item, dict) else enumerate(item)


def event_fields(event: TranscriptEvent, index: int) -> Iterator[TextField]:
    """Every string of one event a judge may read, in the order the prompt shows them: an
    action's name, its arguments and its result; any other event's content."""
    if isinstance(event, ActionEvent):
        yield TextField(index, event.turn, "/name", event.name, event.kind)
        for root, value in (("/args", event.args), ("/result", event.result)):
            for pointer, text in _strings(value, root):
                yield TextField(index, event.turn, pointer, text, event.kind)
    else:
        yield TextField(index, event.turn, "/content", event.content, event.kind)


def agent_fields(
    transcript: Sequence[TranscriptEvent], seat: str, *, agent_submitted: bool = False
) -> Iterator[TextField]:
    """The strings the seat wrote or caused, in event order: its messages, its actions'
    names, arguments and results, its observations and ``done`` events; in a run an agent
    submitted also its system and fault events and, first, its name (at its first event)."""
    named = not agent_submitted
    for index, event in enumerate(transcript):
        if event.seat != seat:
            continue
        if not named:
            yield TextField(index, event.turn, SEAT_POINTER, seat, "seat")
            named = True
        if event.kind in _ENGINE_KINDS and not agent_submitted:
            continue
        yield from event_fields(event, index)


# --- seat labels ------------------------------------------------------------------------


def scenario_roles(scenario: Scenario | None) -> list[str]:
    """The seat names a scenario defines (its agent seats and its customer's seat)."""
    if scenario is None:
        return []
    roles = list(scenario.agent_seats or [])
    if scenario.customer is not None and scenario.customer.seat is not None:
        roles.append(scenario.customer.seat)
    return roles


def labels_for(seats: Iterable[str], roles: Collection[str] = ()) -> dict[str, str]:
    """Each seat's platform label, in order of first appearance: its name when the scenario
    defines it (``roles``), else ``Seat A``, ``Seat B``, ... (``Seat AA`` after ``Seat Z``)."""
    out: dict[str, str] = {}
    lettered = 0
    for seat in dict.fromkeys(seats):
        if seat in roles:
            out[seat] = seat
        else:
            out[seat] = f"Seat {_letters(lettered)}"
            lettered += 1
    return out


def _letters(n: int) -> str:
    name = ""
    n += 1
    while n:
        n, rest = divmod(n - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def seat_labels(run: Run, roles: Collection[str] = ()) -> dict[str, str]:
    """:func:`labels_for` the run's seats: those that act in the order they first act, then
    the others in the order the run lists them."""
    return labels_for([*(e.seat for e in run.transcript), *(s.seat for s in run.seats)], roles)


# --- screening a run ----------------------------------------------------------------------


class Needle(NamedTuple):
    """A withheld string looked for across the run: folded and trimmed (``text``, at most
    :data:`NEEDLE_CHARS`; ``whole`` uncut), and where it first stands."""

    text: str
    whole: str
    seat: str
    event_index: int


class Recurrence(NamedTuple):
    """Where a withheld string stands in one string of the run (original offsets)."""

    event_index: int
    pointer: str
    start: int
    end: int
    needle: Needle


class SeatPieces(NamedTuple):
    """A seat's pieces, one per match, seams included (unmerged), and each half of a match
    across two messages with its other half."""

    by_field: dict[TextField, list[Piece]]
    halves: dict[Piece, Piece]


def _seats_pieces(
    fields: Mapping[str, list[TextField]], *, agent_submitted: bool = False
) -> dict[str, SeatPieces]:
    """:func:`_rule_pieces` of each seat, then the learned layer's, scored for every seat in
    one batch; less what ``world.ordinary`` excuses."""
    pieces = {seat: _rule_pieces(f) for seat, f in fields.items()}
    batch = [(fields[seat], found.by_field) for seat, found in pieces.items()]
    extra = learned.learned_pieces_of_seats(batch)  # the second layer (docs/integrity.md)
    for found, more in zip(pieces.values(), extra, strict=True):
        for piece in more:
            found.by_field[piece.field] = [*found.by_field[piece.field], piece]
        world.ordinary(found.by_field, agent_submitted=agent_submitted)
    return pieces


def _rule_pieces(fields: list[TextField]) -> SeatPieces:
    """The rules' pieces and the seams' (a split match's first half, last half and any middle
    message each point at the other half, or the first)."""
    pieces = scan.raw_pieces(fields)
    messages = [f for f in fields if f.kind == "message"]
    halves: dict[Piece, Piece] = {}
    for group in scan.seam_groups(messages, pieces):
        for piece in group:
            pieces[piece.field] = [*pieces[piece.field], piece]
        if len(group) > 1:
            first, last, *middle = group
            halves |= {first: last, last: first, **dict.fromkeys(middle, first)}
    return SeatPieces(pieces, halves)


def _needles(pieces: Mapping[str, SeatPieces]) -> list[Needle]:
    """The distinct withheld strings of the run, each at its first place (event order)."""
    every = sorted(
        (
            (seat, p)
            for seat, found in pieces.items()
            for raw in found.by_field.values()
            for p in scan.merge_sorted(raw)
        ),
        key=lambda sp: (sp[1].field.event_index, sp[1].start),
    )
    out: dict[str, Needle] = {}
    for seat, piece in every:
        event_index = piece.field.event_index
        whole = fold(piece.field.text[piece.start : piece.end]).text.strip(_TRIM)
        if len(whole) < MIN_RECURRENCE_CHARS or _has_surrogate(whole):
            continue
        text = whole[:NEEDLE_CHARS]
        if text not in out:
            out[text] = Needle(text, whole, seat, event_index)
            if len(out) >= MAX_NEEDLES:
                break
    return list(out.values())


def _has_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate (UTF-8 cannot carry one), in one C pass."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _literal(text: str) -> str:
    """``text`` as an RE2 pattern that matches it alone."""
    return "".join(c if c.isascii() and c.isalnum() else f"\\x{{{ord(c):x}}}" for c in text)


def recurrences(transcript: Sequence[TranscriptEvent], needles: list[Needle]) -> list[Recurrence]:
    """Every place a needle stands in any string of any event, after folding: one RE2 pass
    per string and originating seat (the first :data:`MAX_SEAT_PASSES` - 1 seats with
    needles, then the rest together), so one seat's withheld text never hides another's
    inside it; of one pass's needles that overlap, the longest leftmost wins. In order of
    event, string and start."""
    groups: dict[str, list[Needle]] = defaultdict(list)
    for needle in needles:
        seat = needle.seat if len(groups) < MAX_SEAT_PASSES - 1 or needle.seat in groups else ""
        groups[seat].append(needle)
    passes = [_Pass.of(group) for group in groups.values()]
    out: list[Recurrence] = []
    read = 0
    for index, event in enumerate(transcript):
        for field in event_fields(event, index) if passes else ():
            read += len(field.text) * len(passes)
            if read >= _CHECK_CHARS:
                checkpoint()
                read = 0
            if len(field.text) < MIN_RECURRENCE_CHARS:
                continue
            folded = fold(field.text)
            found = sorted(
                (start, end, needle)
                for one in passes
                for start, end, needle in one.spans(folded.text)
            )
            for start, end, needle in found:
                low, high = folded.original_span(start, end)
                out.append(Recurrence(index, field.pointer, low, high, needle))
    return out


#: At most this many RE2 passes read each string for recurrences (:func:`recurrences`).
MAX_SEAT_PASSES = 8


class _Pass(NamedTuple):
    """The needles of one seat as one RE2 alternation."""

    pattern: linear.Pattern
    by_text: dict[str, Needle]

    @classmethod
    def of(cls, needles: list[Needle]) -> _Pass:
        by_text = {n.text: n for n in needles}
        ordered = sorted(by_text, key=lambda t: (-len(t), t))
        return cls(linear.compile("|".join(map(_literal, ordered))), by_text)

    def spans(self, folded: str) -> Iterator[tuple[int, int, Needle]]:
        """Where the needles stand in the folded text (a match followed on as far as the
        text repeats its needle whole)."""
        for start, end in self.pattern.spans(folded):
            needle = self.by_text[folded[start:end]]
            if len(needle.whole) > len(needle.text) and folded.startswith(needle.whole, start):
                end = start + len(needle.whole)
            yield start, end, needle


def _quoted(piece: Piece, seat: str, here: list[Recurrence], *, overlap: bool = False) -> bool:
    """Whether the piece's match stands inside (``overlap``: touches) a recurrence (``here``:
    those of its string, by start) of another seat's earlier withheld string: a quote,
    counted against its originator."""
    f = piece.field
    end = piece.hit_end if overlap else piece.hit_start
    at = bisect_right(here, end, key=lambda r: r.start)
    return any(
        r.needle.seat != seat
        and r.needle.event_index < f.event_index
        and (r.end > piece.hit_start if overlap else piece.hit_end <= r.end)
        for r in here[max(0, at - 2 * MAX_SEAT_PASSES) : at]
    )


def _excused(
    piece: Piece,
    seat: str,
    found: SeatPieces,
    by_field: Mapping[tuple[int, str], list[Recurrence]],
) -> bool:
    """Whether the piece is a quote (:func:`_quoted`); a match across two messages is one when
    either half runs into a quote, as its words are then partly another seat's."""
    f = piece.field
    if _quoted(piece, seat, by_field.get((f.event_index, f.pointer), [])):
        return True
    other = found.halves.get(piece)
    if other is None:
        return False
    return any(
        _quoted(
            half, seat, by_field.get((half.field.event_index, half.field.pointer), []), overlap=True
        )
        for half in (piece, other)
    )


def screen(
    transcript: Sequence[TranscriptEvent], seats: Iterable[str], *, agent_submitted: bool = False
) -> dict[str, SeatTamper]:
    """The detector's answer for each of ``seats``: findings in what the seat wrote or caused
    (:func:`agent_fields`) but for its quotes of another seat's flagged text, and every span
    to withhold in its events, recurrences of any seat's withheld text included."""
    wanted = list(dict.fromkeys(seats))
    acting = dict.fromkeys([*wanted, *(e.seat for e in transcript)])
    fields = {s: list(agent_fields(transcript, s, agent_submitted=agent_submitted)) for s in acting}
    pieces = _seats_pieces(fields, agent_submitted=agent_submitted)
    found = recurrences(transcript, _needles(pieces))
    by_field: dict[tuple[int, str], list[Recurrence]] = defaultdict(list)
    echoes: dict[str, list[Recurrence]] = defaultdict(list)
    for r in found:
        by_field[(r.event_index, r.pointer)].append(r)
        echoes[transcript[r.event_index].seat].append(r)
    return {
        seat: _seat_answer(transcript, seat, fields[seat], pieces[seat], by_field, echoes[seat])
        for seat in wanted
    }


def _seat_answer(
    transcript: Sequence[TranscriptEvent],
    seat: str,
    fields: list[TextField],
    found: SeatPieces,
    by_field: Mapping[tuple[int, str], list[Recurrence]],
    echoes: list[Recurrence],
) -> SeatTamper:
    findings = []
    spans: dict[tuple[int, str], list[tuple[int, int]]] = defaultdict(list)
    for field in fields:
        pieces = found.by_field[field]
        if not pieces:
            continue
        own = [p for p in pieces if not _excused(p, seat, found, by_field)]
        findings += [scan.finding(p) for p in scan.merge_sorted(own)]
        for p in scan.merge_sorted(pieces):
            spans[(field.event_index, field.pointer)].append((p.start, p.end))
    for r in echoes:
        spans[(r.event_index, r.pointer)].append((r.start, r.end))
    withheld = [
        WithheldSpan(event_index=i, turn=transcript[i].turn, field=pointer, start=a, end=b)
        for (i, pointer) in sorted(spans, key=lambda k: _place(transcript, k))
        for a, b in merged(spans[(i, pointer)])
    ]
    return SeatTamper(
        flagged=bool(findings),
        detector_version=DETECTOR_VERSION,
        findings=findings[: scan.MAX_FINDINGS],
        withheld=withheld,
    )


def _place(transcript: Sequence[TranscriptEvent], key: tuple[int, str]) -> tuple[int, int]:
    """Where a string stands in the run: its event, then its place among the event's strings
    (a seat's name first)."""
    index, pointer = key
    if pointer == SEAT_POINTER:
        return index, -1
    order = [f.pointer for f in event_fields(transcript[index], index)]
    return index, order.index(pointer) if pointer in order else len(order)


# --- what the judge reads -----------------------------------------------------------------


def unscannable(tamper: Mapping[str, SeatTamper]) -> bool:
    """Whether the scan of the run these findings belong to ran out of its budget."""
    return any(found.unscannable for found in tamper.values())


class JudgedView(NamedTuple):
    """The events a judge reads (withheld spans replaced by the marker) and the platform
    label of every seat of the run (:func:`seat_labels`), by seat id."""

    transcript: list[TranscriptEvent]
    labels: dict[str, str]


def judged_view(
    run: Run,
    tamper: Mapping[str, SeatTamper],
    seat: str | None = None,
    *,
    roles: Collection[str] = (),
) -> JudgedView:
    """The run as a model reads it: every seat's withheld spans replaced; with ``seat``, only
    the messages of every seat and that seat's own other events (never another seat's
    actions, results, observations, system, fault or ``done`` events). ScanBudgetExceeded for
    an unscannable run, which no model reads."""
    if unscannable(tamper):
        raise ScanBudgetExceeded(f"run {run.run_id} is unscannable: it is not judged")
    spans = [span for found in tamper.values() for span in found.withheld]
    events = withhold(run.transcript, spans) if spans else list(run.transcript)
    if seat is not None:
        events = [e for e in events if e.seat == seat or isinstance(e, MessageEvent)]
    return JudgedView(events, seat_labels(run, roles))
