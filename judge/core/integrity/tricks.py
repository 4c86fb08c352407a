"""Undoing letter tricks and decoding blobs, each with the way back to the text it came from.

* :func:`unspace` joins letters spaced or dotted apart ("s c o r e", "j.u.d.g.e"): a run of
  three or more lone letters or digits, each apart from the next by a little space or one
  punctuation mark, becomes one word; a wider gap inside the run stays a word break, and a
  dot between two digits stays ("1 . 0" is "1.0").
* :func:`unleet` reads digits and symbols inside words as the letters they stand for
  ("1gn0re", "5core"); a word of digits alone ("10/10", "1.0") is left as it is.
* :func:`rot13` turns the Latin letters by thirteen.
* :func:`blobs` finds base64 and hex tokens and decodes those that decode to readable text.

Work is bounded (docs/integrity.md): at most :data:`UNSPACE_MAX_CHARS` characters of spaced
runs are undone per text, and every blob of at most :data:`BLOB_MAX_CHARS` characters is
decoded (the decoded texts are read together, so their number costs nothing extra).
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import NamedTuple

UNSPACE_MAX_CHARS = 16 * 1024
BLOB_MAX_CHARS = 16 * 1024
#: The least share of printable characters a decoded blob needs to be read as text.
_PRINTABLE_SHARE = 0.9

_RUN = re.compile(
    r"(?<![^\W_])[^\W_](?:(?:[ \t]{1,3}|[ \t]*[.\-_*·,|~'][ \t]*)[^\W_]){2,}(?![^\W_])"
)
_LONE = re.compile(r"(?:^| )[^\W_](?: |$)")
_DOTTED = re.compile(r"[^\W_][.\-_*·,|~'][^\W_][.\-_*·,|~'][^\W_]")
_GAP = re.compile(r"[ \t]*[.\-_*·,|~'][ \t]*|[ \t]+")
#: A word of 2 to 24 letters, digits, ``@`` and ``$`` that reads as leetspeak: a digit or
#: symbol between two letters ("rubr1c"), leading two letters ("5core"), or ending a word of
#: at most three ("th3"). A word that only ends in digits ("agent12") is a name, not leet, and
#: a piece of a base64 token (next to ``+``, ``/`` or ``=``) is no word.
_LEET_WORD = re.compile(
    r"(?<![a-z0-9@$+/=])(?=[a-z0-9@$]{2,24}(?![a-z0-9@$+/=]))"
    r"(?:(?=[a-z0-9@$]*[a-z][0-9@$]+[a-z])|(?=[0-9@$]+[a-z]{2})|(?=[a-z]{1,2}[0-9@$](?![a-z0-9@$])))"
    r"[a-z0-9@$]+"
)
_LEET = str.maketrans("013457896@$", "oieastbbgas")
_ROT13 = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "nopqrstuvwxyzabcdefghijklmNOPQRSTUVWXYZabcdefghijklm",
)
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=_\-])[A-Za-z0-9+/_\-]{16,}={0,2}(?![A-Za-z0-9+/=_\-])")
_HEX = re.compile(r"(?<![0-9A-Fa-f])(?:(?:\\x|0x)?[0-9A-Fa-f]{2}[ :,]?){8,}(?![0-9A-Fa-f])")


@dataclass
class Rewritten:
    """A text rewritten from a source text, and the way back to the source's offsets.

    ``marks`` are ``(offset here, offset in the source)`` pairs where a stretch copied as it
    was starts; between two marks offsets advance together.
    """

    text: str
    marks: list[tuple[int, int]]

    def source_span(self, start: int, end: int) -> tuple[int, int]:
        """The source range that ``text[start:end]`` came from."""
        return self._source(start), self._source(max(start, end - 1)) + 1

    def _source(self, offset: int) -> int:
        index = bisect_right(self.marks, (offset, 1 << 62)) - 1
        here, there = self.marks[index]
        return there + offset - here


def unspace(text: str) -> Rewritten | None:
    """``text`` with spaced-out letters joined; None when there are none."""
    pieces: list[str] = []
    marks: list[tuple[int, int]] = [(0, 0)]
    done, length, budget = 0, 0, UNSPACE_MAX_CHARS
    for run in _RUN.finditer(text):
        if run.end() - run.start() > budget:
            break
        budget -= run.end() - run.start()
        pieces.append(text[done : run.start()])
        length += run.start() - done
        length = _join_run(text, run, pieces, marks, length)
        done = run.end()
        marks.append((length, done))
    if done == 0:
        return None
    pieces.append(text[done:])
    return Rewritten("".join(pieces), marks)


def _join_run(
    text: str, run: re.Match[str], pieces: list[str], marks: list[tuple[int, int]], length: int
) -> int:
    """Append one run, joined, with a mark per kept character; the new length."""
    position = run.start()
    for gap in _GAP.finditer(text, run.start(), run.end()):
        marks.append((length, position))
        pieces.append(text[position : gap.start()])
        length += gap.start() - position
        joiner = _joiner(gap.group(), text[gap.start() - 1], text[gap.end() : gap.end() + 1])
        pieces.append(joiner)
        length += len(joiner)
        position = gap.end()
    marks.append((length, position))
    pieces.append(text[position : run.end()])
    return length + run.end() - position


def _joiner(gap: str, before: str, after: str) -> str:
    if "." in gap and before.isdigit() and after.isdigit():
        return "."
    return " " if len(gap) > 1 and not gap.strip() else ""


def has_spacing(words: str) -> bool:
    """Whether a text with these words may hold spaced-out letters."""
    return bool(_LONE.search(words) or _DOTTED.search(words))


def has_leet(words: str) -> bool:
    """Whether a text with these words may hold leetspeak."""
    return bool(_LEET_WORD.search(words))


def unleet(text: str) -> str:
    """``text`` with digits and symbols inside words read as letters (same length)."""
    return _LEET_WORD.sub(lambda m: m.group().translate(_LEET), text)


def rot13(text: str) -> str:
    return text.translate(_ROT13)


class Blob(NamedTuple):
    """An encoded token of a text and what it decodes to."""

    start: int
    end: int
    decoded: str


def blobs(text: str) -> list[Blob]:
    """The base64 and hex tokens of ``text`` (each at most :data:`BLOB_MAX_CHARS`) that
    decode to readable text."""
    found: list[Blob] = []
    for pattern, decode in ((_BASE64, _from_base64), (_HEX, _from_hex)):
        for match in pattern.finditer(text):
            token = match.group()
            if len(token) > BLOB_MAX_CHARS:
                continue
            decoded = _readable(decode(token))
            if decoded is not None:
                found.append(Blob(match.start(), match.end(), decoded))
    return found


def _from_base64(token: str) -> bytes | None:
    token = token.rstrip("=")
    if token.isalpha() or token.isdigit():
        return None  # a plain word or number is no blob
    try:
        return base64.b64decode(
            token.replace("-", "+").replace("_", "/") + "=" * (-len(token) % 4), validate=True
        )
    except (binascii.Error, ValueError):
        return None


def _from_hex(token: str) -> bytes | None:
    digits = re.sub(r"\\x|0x|[ :,]", "", token)
    try:
        return bytes.fromhex(digits)
    except ValueError:
        return None


def _readable(data: bytes | None) -> str | None:
    if not data:
        return None
    try:
        text = codecs.decode(data, "utf-8")
    except UnicodeDecodeError:
        return None
    if text.isprintable():
        return text
    printable = sum(1 for c in text if c.isprintable() or c in "\n\t")
    return text if printable >= _PRINTABLE_SHARE * len(text) else None
