"""Finding judge-directed text in one string: the rules over the folded text, then over the
text with letter tricks undone, rot13 and decoded blobs (docs/integrity.md).

Every match is a :class:`Hit` on the *original* string, with the kind it is reported as:
the rule's intent when the plain folded text matched, ``obfuscated`` when the match needed a
trick undone (or covers a trick character), ``encoded`` when it was inside rot13 or a blob.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from judge.domain.tamper import TamperKind
from judge.scoring.tamper.fold import Folded, fold
from judge.scoring.tamper.lexicon import RULES
from judge.scoring.tamper.tricks import blobs, rot13, unleet, unspace

#: Words one of which rot13 text must show before the rules read it (a cheap first look).
_ROT13_CUES = re.compile(
    r"ignor|disregard|rubric|evaluat|grader|judge|score|instruction|system|verdict|assistant|"
    r"rate|grade|marks|tip|inst"
)
#: How deep decoded blobs are decoded again (a base64 of a hex of text is still read).
_BLOB_DEPTH = 2


class Hit(NamedTuple):
    """One match: a half-open range of the original string and how it is reported."""

    start: int
    end: int
    kind: TamperKind


def _rule_hits(text: str) -> Iterator[tuple[int, int, TamperKind]]:
    for rule in RULES:
        for match in rule.pattern.finditer(text):
            if match.end() > match.start():
                yield match.start(), match.end(), rule.kind


def _overlaps(hits: list[Hit], start: int, end: int) -> bool:
    return any(h.start < end and start < h.end for h in hits)


def find_hits(text: str, *, depth: int = 0) -> list[Hit]:
    """Every match in ``text``, on its original offsets, in order."""
    folded = fold(text)
    hits = _plain_hits(folded)
    for start, end in _tricked_spans(folded):
        if not _overlaps(hits, start, end):
            hits.append(Hit(start, end, "obfuscated"))
    for start, end in _encoded_spans(text, folded, depth):
        if not _overlaps(hits, start, end):
            hits.append(Hit(start, end, "encoded"))
    return sorted(hits)


def _plain_hits(folded: Folded) -> list[Hit]:
    hits = []
    for start, end, kind in _rule_hits(folded.text):
        a, b = folded.original_span(start, end)
        hits.append(Hit(a, b, "obfuscated" if folded.has_trick(a, b) else kind))
    return hits


def _tricked_spans(folded: Folded) -> Iterator[tuple[int, int]]:
    """Matches found only with spaced letters joined and leetspeak read."""
    spaced = unspace(folded.text)
    joined = spaced.text if spaced else folded.text
    plain = unleet(joined)
    if plain == folded.text:
        return
    for start, end, _ in _rule_hits(plain):
        if spaced:
            start, end = spaced.source_span(start, end)
        yield folded.original_span(start, end)


def _encoded_spans(text: str, folded: Folded, depth: int) -> Iterator[tuple[int, int]]:
    turned = rot13(folded.text)
    if _ROT13_CUES.search(turned):
        for start, end, _ in _rule_hits(turned):
            yield folded.original_span(start, end)
    if depth >= _BLOB_DEPTH:
        return
    for blob in blobs(text):
        if find_hits(blob.decoded, depth=depth + 1):
            yield blob.start, blob.end
