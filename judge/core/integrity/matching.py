"""Finding judge-directed text in one string: the rules over the folded text, then over the
text with letter tricks undone, rot13 and decoded blobs (docs/integrity.md). Each distinct
line or sentence is read once; the second look reads only the segments the undoing changed.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate, islice
from typing import NamedTuple

from judge.core.domain.integrity import WITHHELD_MARKER, TamperKind
from judge.core.integrity import linear
from judge.core.integrity.budget import checker, checkpoint
from judge.core.integrity.fold import Folded, fold
from judge.core.integrity.lexicon import Rule, active_rules, cues_in, scripts_in
from judge.core.integrity.tricks import (
    RIGHT_TO_LEFT,
    Rewritten,
    blobs,
    has_leet,
    has_markup,
    has_separators,
    has_spacing,
    reversed_span,
    rot13,
    separate,
    unleet,
    unmark,
    unreverse,
    unspace,
)

#: At most this many matches are placed one by one in a seat's text; the rest is withheld.
MAX_HITS = 1000
#: How far past a match a rule's exception (``Rule.unless``) reads.
_UNLESS_READS = 120
#: From this length on, a rule with a gate (``Rule.gate``) reads a text only where the gate
#: finds one of its second parts (below it, the extra search costs more than it saves).
_GATED_FROM = 1 << 16
#: From this length on, cues are looked up in a text's distinct words rather than the text.
_VOCABULARY_FROM = 4096
#: How deep decoded blobs are decoded again (a base64 of a hex of text is still read).
_BLOB_DEPTH = 2
#: A folded word long enough to be a blob (blobs are looked for only when there is one).
_BLOB_CUE = linear.compile(r"[a-z0-9+/_\-]{16,}")
_ROT13_WORDS = linear.compile(
    r"\b(?:ignore|disregard|rubric|instructions?|evaluators?|grader|judge|score|rate|verdict|"
    r"rationale|system|assistant|evaluation|marks|grade|dear|note|final)\b"
)
#: The line break, sentence end and spaces a rule's match may start with.
_LEAD = frozenset("\n.!?。！？ \t")
#: A segment ends at a line break, or at the spaces after a sentence's closing mark (the mark
#: stays in the segment): ``\n|[.!?。！？][ \t]+``, which :func:`_split` finds with each
#: sentence mark read as ``.`` and a tab as a space (a few ``str.replace``, each one pass).
_SEGMENT_READS = (*((mark, ".") for mark in "!?。！？"), ("\t", " "))
#: ``_SEGMENT_READS`` an ASCII text can hold (``str.isascii`` is a flag, not a scan).
_ASCII_SEGMENT_READS = tuple((sign, read) for sign, read in _SEGMENT_READS if sign.isascii())


class Hit(NamedTuple):
    """One match: a half-open range of the original string and its kind (``obfuscated`` when
    it needed a trick undone, ``encoded`` inside rot13 or a blob)."""

    start: int
    end: int
    kind: TamperKind


class Segments:
    """The distinct segments of a text joined by newlines, and where each one occurs."""

    def __init__(
        self, text: str, *, skip: frozenset[str] = frozenset(), parts: list[str] | None = None
    ) -> None:
        """``parts``: ``_split(text)`` when the caller has it already."""
        parts = _split(text) if parts is None else parts
        offsets = list(accumulate(map(len, parts), initial=0))
        where: dict[str, list[int]] = {}
        for piece, origin in zip(parts[0::2], offsets[0::2], strict=False):
            if piece and piece not in skip:
                where.setdefault(piece, []).append(origin)
        self._hold(where)

    @classmethod
    def of(cls, where: dict[str, list[int]]) -> Segments:
        """Segments of the given distinct pieces and the places each occurs."""
        made = cls.__new__(cls)
        made._hold(where)
        return made

    def _hold(self, where: dict[str, list[int]]) -> None:
        self.distinct = list(where)
        self.occurrences = list(where.values())
        self.starts = list(accumulate((len(p) + 1 for p in self.distinct), initial=0))[:-1]
        self.joined = "\n".join(self.distinct)

    def back(self, start: int, end: int) -> Iterator[tuple[int, int]]:
        """Every place in the text that ``joined[start:end]`` stands for."""
        index = bisect_right(self.starts, start) - 1
        local = start - self.starts[index]
        length = min(end - start, len(self.distinct[index]) - local)
        for origin in self.occurrences[index]:
            yield origin + local, origin + local + length


def _split(text: str) -> list[str]:
    """``[segment, end, segment, end, ..., segment]``: the text cut at each segment end,
    found with ``str.find`` over the text read through ``_SEGMENT_READS`` (linear: one step per
    segment end, the spaces after a mark read a bounded slice at a time)."""
    if "\n" not in text and " " not in text and "\t" not in text:
        return [text]
    marked = text
    for sign, read in _ASCII_SEGMENT_READS if text.isascii() else _SEGMENT_READS:
        if sign in marked:
            marked = marked.replace(sign, read)
    parts: list[str] = []
    done = 0
    newline = marked.find("\n")
    mark = marked.find(". ")
    while newline >= 0 or mark >= 0:
        if mark < 0 or 0 <= newline < mark:
            parts += (text[done:newline], "\n")
            done = newline + 1
            newline = marked.find("\n", done)
            continue
        end = mark + 2
        while True:  # the spaces after the mark, a bounded slice at a time
            window = marked[end : end + 64]
            rest = len(window.lstrip(" "))
            end += len(window) - rest
            if rest or not window:
                break
        parts += (text[done : mark + 1], text[mark + 1 : end])
        done = end
        mark = marked.find(". ", done)
    parts.append(text[done:])
    return parts


def read_parts(text: str) -> list[str]:
    """``_split`` of the text :func:`find_hits` reads (the platform's marker blanked)."""
    if WITHHELD_MARKER in text:
        text = text.replace(WITHHELD_MARKER, " " * len(WITHHELD_MARKER))
    return _split(text)


def crosses(parts: list[str], starts: list[int]) -> bool:
    """Whether a segment of ``parts`` (:func:`read_parts` of a text) holds characters of two
    of the pieces of the text that begin at ``starts`` (sorted, the first 0): only then can a
    hit of :func:`find_hits` span two pieces, as every hit lies inside one segment."""
    offset = 0
    for index, part in enumerate(parts):
        if index % 2 == 0 and part:
            end = offset + len(part) - 1
            if bisect_right(starts, offset) != bisect_right(starts, end):
                return True
        offset += len(part)
    return False


def rule_hits(
    text: str, words: str | None = None, *, cap: int = MAX_HITS + 1
) -> Iterator[tuple[int, int, TamperKind]]:
    """Every rule's matches in ``text`` (folded), skipping rules none of whose cues occur
    among ``words`` (the text's vocabulary, when the caller has it); each rule's first ``cap``
    only. A caller that keeps the first ``cap - 1`` matches of all rules in order and withholds
    from the next one on loses nothing: a rule's later match has ``cap`` of its own before it.
    On a hostile text every rule matching everywhere costs ``cap`` searches, not thousands."""
    words = _vocabulary(text) if words is None else words
    subject = linear.Subject(text)  # encoded once for all the rules
    check = checker()
    rules: Iterable[Rule] = active_rules(cues_in(words), scripts_in(words))
    if len(text) >= _GATED_FROM:
        rules = _through_gates(rules, subject, check)
    for rule in rules:
        check()  # one rule over one text is the smallest piece the scan reads
        left = cap
        for start, end in rule.pattern.spans_in(subject):
            while start < end and text[start] in _LEAD:  # it belongs to the text before
                start += 1
            if end <= start or (rule.word_start and _inside_word(text, start)):
                continue
            if rule.unless is None or not rule.unless.match(text[start : end + _UNLESS_READS]):
                yield start, end, rule.kind
                left -= 1
                if not left:
                    break


def _through_gates(
    rules: Iterable[Rule], subject: linear.Subject, check: Callable[[], None]
) -> Iterator[Rule]:
    """The rules but those whose gate finds none of their second parts in the text: they
    have no match there (docs/integrity.md, "Linear-time matching")."""
    for rule in rules:
        if rule.gate is not None:
            check()
            if not rule.gate.found_in(subject):
                continue
        yield rule


def _vocabulary(text: str) -> str:
    """The distinct words of a long text, one space apart (cues are looked up in it: far
    shorter than the text when words repeat)."""
    if len(text) < _VOCABULARY_FROM:
        return text
    return " ".join(dict.fromkeys(text.split()))


def _inside_word(text: str, start: int) -> bool:
    return start > 0 and text[start].isalnum() and text[start - 1].isalnum()


class _Taken:
    """Ranges already reported, to keep a later look from reporting them again."""

    def __init__(self, hits: Iterable[tuple[int, int, TamperKind]]) -> None:
        self.ranges = sorted((h[0], h[1]) for h in hits)
        self.starts = [r[0] for r in self.ranges]

    def overlaps(self, start: int, end: int) -> bool:
        index = bisect_right(self.starts, end - 1)
        return any(s < end and start < e for s, e in self.ranges[max(0, index - 8) : index])


def find_hits(
    text: str, *, depth: int = 0, limit: int = MAX_HITS, parts: list[str] | None = None
) -> list[Hit]:
    """Every match in ``text``, on its original offsets, in order; past ``limit`` matches, one
    last hit covers the rest of the text. The platform's own marker is not read. ``parts``:
    :func:`read_parts` of the text when the caller has it already."""
    checkpoint()
    if WITHHELD_MARKER in text:
        text = text.replace(WITHHELD_MARKER, " " * len(WITHHELD_MARKER))
    segments = Segments(text, parts=parts)
    folded = fold(segments.joined)
    words = _vocabulary(folded.text)
    cap = limit + 1
    found = list(_plain_hits(folded, words, cap))
    taken = _Taken(found)
    looks: list[tuple[TamperKind, Iterator[tuple[int, int]]]] = [
        ("obfuscated", _tricked_spans(folded, words, cap)),
        ("encoded", _rot13_spans(folded, words, cap)),
    ]
    if RIGHT_TO_LEFT in segments.joined:
        looks.append(("obfuscated", _reversed_spans(segments.joined, folded, cap)))
    extra = [(a, b, kind) for kind, spans in looks for a, b in spans if not taken.overlaps(a, b)]
    if depth < _BLOB_DEPTH and _BLOB_CUE.found(words):
        extra += [(a, b, "encoded") for a, b in _blob_spans(folded.original, depth)]
    return _everywhere(segments, found + extra, len(text), limit)


def _everywhere(
    segments: Segments, found: list[tuple[int, int, TamperKind]], length: int, limit: int
) -> list[Hit]:
    """The hits in the joined distinct segments, at every place of the text they stand for."""
    placed = sorted(
        (start, end, kind) for a, b, kind in found for start, end in segments.back(a, b)
    )
    hits = [Hit(*h) for h in islice(placed, limit)]
    if len(placed) > limit:
        hits.append(Hit(placed[limit][0], length, placed[limit][2]))
    return hits


def _plain_hits(folded: Folded, words: str, cap: int) -> Iterator[tuple[int, int, TamperKind]]:
    """Matches in the folded joined text, on the joined (unfolded) offsets."""
    for start, end, kind in rule_hits(folded.text, words, cap=cap):
        a, b = folded.original_span(start, end)
        yield a, b, "obfuscated" if folded.has_trick(a, b) else kind


def _tricked_spans(folded: Folded, words: str, cap: int) -> Iterator[tuple[int, int]]:
    """Matches found only with markup read as text, spaced letters joined, separators read
    as spaces and leetspeak read."""
    marked = unmark(folded.text) if has_markup(words) else None
    unmarked = marked.text if marked else folded.text
    spaced = unspace(unmarked) if has_spacing(words) else None
    joined = spaced.text if spaced else unmarked
    joined = separate(joined) if has_separators(words) else joined
    plain = unleet(joined) if has_leet(words) else joined
    if plain == folded.text:
        return

    def source(span: tuple[int, int]) -> tuple[int, int]:
        return _source(_source(span, spaced), marked)

    changed = Segments(plain, skip=frozenset(folded.text.split("\n")))
    changed = _narrowed(changed, lambda a, b: folded.text[slice(*source((a, b)))] == plain[a:b])
    for start, end, _ in rule_hits(changed.joined, cap=cap):
        for span in changed.back(start, end):
            yield folded.original_span(*source(span))


#: A changed segment longer than this is read only around its changes (:func:`_narrowed`).
_LONG_SEGMENT = 4096
#: The stretch of a long segment that is compared with its source and read, or not, whole.
_STRETCH = 1024


def _narrowed(changed: Segments, same: Callable[[int, int], bool]) -> Segments:
    """``changed`` with each segment past :data:`_LONG_SEGMENT` characters cut to the
    stretches a rewrite changed, each with the stretch before and after it (a match reaches
    at most that far from a changed character: gaps are bounded, no sentence is that long).
    ``same(a, b)``: whether ``[a, b)`` of the rewritten text is its source as it was. One
    rewritten letter in a 4 MiB run-on line would otherwise have the whole line read again.
    Segments no longer than the bound are kept whole, so ordinary text reads as before."""
    if all(len(piece) <= _LONG_SEGMENT for piece in changed.distinct):
        return changed
    kept: dict[str, list[int]] = {}
    for piece, places in zip(changed.distinct, changed.occurrences, strict=True):
        if len(piece) <= _LONG_SEGMENT:
            kept.setdefault(piece, []).extend(places)
            continue
        cuts = _stretches(piece)
        touched = [
            index
            for index, (a, b) in enumerate(cuts)
            if not all(same(place + a, place + b) for place in places)
        ]
        for first, last in _runs_of(touched, len(cuts)):
            start, end = cuts[first][0], cuts[last][1]
            kept.setdefault(piece[start:end], []).extend(place + start for place in places)
    return Segments.of(kept)


def _stretches(piece: str) -> list[tuple[int, int]]:
    """``piece`` cut into stretches of about :data:`_STRETCH` characters, each ending at a
    space where there is one near (``str.find``: linear)."""
    cuts, start = [], 0
    while start < len(piece):
        end = min(start + _STRETCH, len(piece))
        space = piece.find(" ", end, end + _STRETCH // 4)
        end = space + 1 if space >= 0 else end
        cuts.append((start, end))
        start = end
    return cuts


def _runs_of(touched: list[int], count: int) -> Iterator[tuple[int, int]]:
    """The stretches to read: each touched one with its neighbours, joined where they meet
    (first and last index of each run)."""
    run: list[int] | None = None
    for index in touched:
        first, last = max(0, index - 1), min(count - 1, index + 1)
        if run is not None and first <= run[1] + 1:
            run[1] = last
            continue
        if run is not None:
            yield run[0], run[1]
        run = [first, last]
    if run is not None:
        yield run[0], run[1]


def _source(span: tuple[int, int], rewritten: Rewritten | None) -> tuple[int, int]:
    return rewritten.source_span(*span) if rewritten else span


def _reversed_spans(text: str, folded: Folded, cap: int) -> Iterator[tuple[int, int]]:
    """Matches in the text with what a right-to-left override shows reversed read as shown."""
    turned, regions = unreverse(text)
    refolded = fold(turned)
    changed = Segments(refolded.text, skip=frozenset(folded.text.split("\n")))
    for start, end, _ in rule_hits(changed.joined, cap=cap):
        for span in changed.back(start, end):
            yield reversed_span(regions, *refolded.original_span(*span))


def _rot13_spans(folded: Folded, words: str, cap: int) -> Iterator[tuple[int, int]]:
    """Matches in the text turned by rot13, when the turned words hold an attack's word."""
    turned = rot13(words)
    if not _ROT13_WORDS.found(turned):
        return
    for start, end, _ in rule_hits(rot13(folded.text), turned, cap=cap):
        yield folded.original_span(start, end)


def _blob_spans(text: str, depth: int) -> Iterator[tuple[int, int]]:
    """Blobs that decode to a match (all decoded texts are read in one go)."""
    words = _vocabulary(text)
    found = blobs(words)
    if not found:
        return
    starts = list(accumulate((len(b.decoded) + 1 for b in found), initial=0))
    decoded = "\n".join(b.decoded for b in found)
    matched = {bisect_right(starts, h.start) - 1 for h in find_hits(decoded, depth=depth + 1)}
    for blob in (found[i] for i in sorted(matched)):
        if words is text:
            yield blob.start, blob.end
        else:
            token = words[blob.start : blob.end]
            yield from islice(_occurrences(token, text), MAX_HITS + 1)


def _occurrences(token: str, text: str) -> Iterator[tuple[int, int]]:
    """Where ``token`` occurs in ``text``, left to right, not overlapping."""
    at = text.find(token)
    while at >= 0:
        yield at, at + len(token)
        at = text.find(token, at + len(token))
