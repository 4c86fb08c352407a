"""Undoing letter tricks (spacing, leetspeak, rot13) and decoding base64 and hex blobs, each
with the way back to the text it came from (docs/integrity.md, its bounds included)."""

from __future__ import annotations

import base64
import binascii
import codecs
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from judge.core.integrity import linear

UNSPACE_MAX_CHARS = 16 * 1024
BLOB_MAX_CHARS = 16 * 1024
#: The least share of printable characters a decoded blob needs to be read as text.
_PRINTABLE_SHARE = 0.9

#: A letter or a digit (Python's ``[^\\W_]``).
_ALNUM = r"[\p{L}\p{N}]"
#: Three or more lone letters or digits, each apart from the next by a little space or one
#: punctuation mark, with the character before them when there is one (no letter or digit);
#: :func:`_runs` checks that no letter or digit follows.
_RUN = linear.compile(
    rf"(?:^|[^\p{{L}}\p{{N}}]){_ALNUM}(?:(?:[ \t]{{1,3}}|[ \t]*[.\-_*·,|~'][ \t]*){_ALNUM}){{2,}}"
)
_LONE = linear.compile(rf"(?:^| ){_ALNUM}(?: |\n?$)")  # Python's ``$`` allows a last "\n"
_DOTTED = linear.compile(rf"{_ALNUM}[.\-_*·,|~']{_ALNUM}[.\-_*·,|~']{_ALNUM}")
_GAP = linear.compile(r"[ \t]*[.\-_*·,|~'][ \t]*|[ \t]+")
#: The characters of a word of letters, digits, ``@`` and ``$`` holding one of the digits or
#: symbols, with the base64 marks ``+``, ``/`` and ``=`` it may stand among (:func:`_is_leet`
#: decides).
_LEET_CANDIDATE = "abcdefghijklmnopqrstuvwxyz0123456789@$+/="
#: Bytes of ``_LEET_CANDIDATE`` kept, every other byte a zero.
_LEET_RUNS = bytes(b if chr(b) in _LEET_CANDIDATE else 0 for b in range(256))
#: ``_LEET_RUNS``' bytes with every digit, ``@`` and ``$`` read as ``0``: the runs that hold
#: one are found by looking for it (a run without one is never leet).
_LEET_MARKS = bytes(48 if chr(b) in "0123456789@$" else b for b in _LEET_RUNS)
_LEET = str.maketrans("013457896@$", "oieastbbgas")
#: A letter next to a digit, ``@`` or ``$``: a leet word (letters and those, both) holds one.
_LEET_MIX = linear.compile(r"[a-z][0-9@$]|[0-9@$][a-z]")
_ROT13_BYTES = bytes.maketrans(
    b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    b"nopqrstuvwxyzabcdefghijklmNOPQRSTUVWXYZabcdefghijklm",
)
#: A base64 token: 16 or more base64 characters, at most two ``=`` (checked on the match).
_BASE64 = linear.compile(r"[A-Za-z0-9+/=_\-]{16,}")
#: Eight or more hex bytes, each maybe ``\x`` or ``0x`` before and a separator after, with
#: the character before them when it is no hex digit (:func:`_hex_tokens` checks the end).
_HEX = linear.compile(r"[^0-9A-Fa-f\\]?(?:(?:\\x|0x)?[0-9A-Fa-f]{2}[ :,]?){8,}")
_HEX_DIGITS = frozenset("0123456789ABCDEFabcdef")


@dataclass
class Rewritten:
    """A text rewritten from a source text; ``marks`` are ``(offset here, offset in the
    source)`` pairs where a stretch copied as it was starts (offsets then advance together)."""

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
    """``text`` with spaced-out letters joined ("s c o r e", "j.u.d.g.e"); None when there are
    none. A wider gap inside a run stays a word break, and "1 . 0" is "1.0"."""
    pieces: list[str] = []
    marks: list[tuple[int, int]] = [(0, 0)]
    done, length, budget = 0, 0, UNSPACE_MAX_CHARS
    for start, end in _runs(text):
        if end - start > budget:
            break
        budget -= end - start
        pieces.append(text[done:start])
        length += start - done
        length = _join_run(text, start, end, pieces, marks, length)
        done = end
        marks.append((length, done))
    if done == 0:
        return None
    pieces.append(text[done:])
    return Rewritten("".join(pieces), marks)


def _runs(text: str) -> Iterator[tuple[int, int]]:
    """The spaced-out runs not touching another letter or digit (a run's last letter before
    one is left out), when three or more letters remain."""
    for start, end in _RUN.spans(text):
        if not text[start].isalnum():
            start += 1  # the character before the run
        if end < len(text) and text[end].isalnum():
            gaps = _gaps(text, start, end)
            if len(gaps) < 3:
                continue
            end = gaps[-1][0]
        yield start, end


def _gaps(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The gaps between the letters of a run, on the text's offsets."""
    return [(start + a, start + b) for a, b in _GAP.spans(text[start:end])]


def _join_run(
    text: str, start: int, end: int, pieces: list[str], marks: list[tuple[int, int]], length: int
) -> int:
    """Append one run, joined, with a mark per kept character; the new length. In a run whose
    letters are joined by marks ("s-c-o-r-e m-e"), a plain space is a word break."""
    position = start
    gaps = _gaps(text, start, end)
    marked = any(text[a:b].strip() for a, b in gaps)
    for gap_start, gap_end in gaps:
        marks.append((length, position))
        pieces.append(text[position:gap_start])
        length += gap_start - position
        gap = text[gap_start:gap_end]
        joiner = (
            " "
            if marked and not gap.strip()
            else _joiner(gap, text[gap_start - 1], text[gap_end : gap_end + 1])
        )
        pieces.append(joiner)
        length += len(joiner)
        position = gap_end
    marks.append((length, position))
    pieces.append(text[position:end])
    return length + end - position


def _joiner(gap: str, before: str, after: str) -> str:
    if "." in gap and before.isdigit() and after.isdigit():
        return "."
    return " " if len(gap) > 1 and not gap.strip() else ""


#: Markup read as text: a tag is dropped ("sco<b></b>re"), comment marks and table bars
#: become spaces (``<!-- ... -->``, ``| cell |``).
_MARKUP = linear.compile(r"</?[a-z][^<>\n]{0,200}>|<!--|-->|\|")
#: Letters joined by underscores, hyphens or dots ("ignore_the_rubric", "give-me-10").
_SEPARATED = linear.compile(r"[\p{L}\p{N}](?:[._\-]+[\p{L}\p{N}])+|_")
_SEPARATORS = str.maketrans("._-", "   ")
#: Controls that show the text after them right to left, and what ends their reach.
RIGHT_TO_LEFT = "\u202e"
_RTL_END = ("\u202c", "\u2069", "\n")


def has_markup(words: str) -> bool:
    """Whether a text with these words may hold markup (tags, comments, table bars)."""
    return "<" in words or "|" in words or "-->" in words


def unmark(text: str) -> Rewritten | None:
    """``text`` with markup read as text (see ``_MARKUP``); None when there is none."""
    pieces: list[str] = []
    marks: list[tuple[int, int]] = [(0, 0)]
    done = length = 0
    for start, end in _MARKUP.spans(text):
        pieces.append(text[done:start])
        length += start - done
        marks.append((length, start))
        joiner = "" if text[start] == "<" and text[start + 1 : start + 2] != "!" else " "
        pieces.append(joiner)
        length += len(joiner)
        done = end
        marks.append((length, done))
    if len(marks) == 1:
        return None
    pieces.append(text[done:])
    return Rewritten("".join(pieces), marks)


def has_separators(words: str) -> bool:
    """Whether a text with these words may hold words joined by ``_``, ``-`` or ``.``."""
    return "_" in words or _SEPARATED.found(words)


def separate(text: str) -> str:
    """``text`` with underscores, and hyphens and dots between letters or digits, read as
    spaces (same length; "1.0" stays, as digits on both sides of one dot)."""
    pieces: list[str] = []
    done = 0
    for start, end in _SEPARATED.spans(text):
        run = text[start:end]
        if "_" not in run and run.replace(".", "").isdigit():
            continue  # a number
        pieces += (text[done:start], run.translate(_SEPARATORS))
        done = end
    pieces.append(text[done:])
    return "".join(pieces)


def unreverse(text: str) -> tuple[str, list[tuple[int, int]]]:
    """``text`` with each stretch after a right-to-left override (to its pop, an isolate's
    end or the line's end) reversed, so it reads as shown; and those stretches."""
    regions: list[tuple[int, int]] = []
    at = text.find(RIGHT_TO_LEFT)
    while at >= 0:
        start = at + 1
        ends = [e for e in (text.find(mark, start) for mark in _RTL_END) if e >= 0]
        end = min(ends, default=len(text))
        if end > start:
            regions.append((start, end))
        at = text.find(RIGHT_TO_LEFT, end)
    pieces: list[str] = []
    done = 0
    for start, end in regions:
        pieces += (text[done:start], text[start:end][::-1])
        done = end
    pieces.append(text[done:])
    return "".join(pieces), regions


def reversed_span(regions: list[tuple[int, int]], start: int, end: int) -> tuple[int, int]:
    """The original range of ``[start, end)`` of :func:`unreverse`'s text."""
    points = [start, end - 1]
    index = bisect_right(regions, (end, 0))
    for low, high in regions[max(0, index - 2) : index]:
        points += [p for p in (low, high - 1) if start <= p < end]

    def back(point: int) -> int:
        for low, high in regions[max(0, index - 2) : index]:
            if low <= point < high:
                return low + high - 1 - point
        return point

    mapped = [back(p) for p in points]
    return min(mapped), max(mapped) + 1


def has_spacing(words: str) -> bool:
    """Whether a text with these words may hold spaced-out letters."""
    return _LONE.found(words) or _DOTTED.found(words)


def has_leet(words: str) -> bool:
    """Whether a text with these words may hold leetspeak (never without a letter next to a
    digit, ``@`` or ``$``, which every leet word holds)."""
    return _LEET_MIX.found(words) and any(_leet_words(words))


def unleet(text: str) -> str:
    """``text`` with digits and symbols inside words read as letters (same length); a word of
    digits alone ("10/10") is left as it is."""
    pieces: list[str] = []
    done = 0
    for start, end in _leet_words(text):
        pieces += (text[done:start], text[start:end].translate(_LEET))
        done = end
    pieces.append(text[done:])
    return "".join(pieces)


def _leet_words(text: str) -> Iterator[tuple[int, int]]:
    """The words of 2 to 24 letters, digits, ``@`` and ``$`` that read as leetspeak: a digit
    or symbol between two letters ("rubr1c"), leading two letters ("5core"), or ending a word
    of at most three ("th3"). A word that only ends in digits ("agent12") is a name, not leet,
    and a piece of a base64 token (next to ``+``, ``/`` or ``=``) is no word."""
    # The candidates are the maximal runs of ``_LEET_CANDIDATE``'s characters in the text as
    # ASCII bytes (anything past ASCII is ``?``, no candidate's character); only those holding
    # a digit or symbol are visited (found by ``bytes.find``, each look past the last run's
    # end), each distinct run judged once.
    runs = text.encode("ascii", "replace").translate(_LEET_RUNS)
    marks = runs.translate(_LEET_MARKS)
    mark = marks.find(b"0")
    while mark >= 0:
        start = marks.rfind(b"\0", 0, mark) + 1
        end = marks.find(b"\0", mark)
        end = len(marks) if end < 0 else end
        if 2 <= end - start <= 24 and _is_leet_run(runs[start:end]):
            yield start, end
        mark = marks.find(b"0", end)


@lru_cache(maxsize=1 << 14)
def _is_leet_run(run: bytes) -> bool:
    return _is_leet(run.decode("ascii"))


def _is_leet(word: str) -> bool:
    if "+" in word or "/" in word or "=" in word:
        return False
    shape = "".join("a" if c.isalpha() else "0" for c in word)  # "0": a digit, ``@`` or ``$``
    between = shape.find("a0")
    if between >= 0 and "a" in shape[between + 2 :]:
        return True
    lead = len(shape) - len(shape.lstrip("0"))
    return (lead > 0 and shape[lead : lead + 2] == "aa") or shape in ("a0", "aa0")


def rot13(text: str) -> str:
    """``text`` with its ASCII letters turned by 13. Turned as UTF-8 bytes (one C pass): no
    byte of a character past ASCII is an ASCII byte, so only the ASCII letters change."""
    raw = text.encode("utf-8", "surrogatepass")
    return raw.translate(_ROT13_BYTES).decode("utf-8", "surrogatepass")


class Blob(NamedTuple):
    """An encoded token of a text and what it decodes to."""

    start: int
    end: int
    decoded: str


def blobs(text: str) -> list[Blob]:
    """The base64 and hex tokens of ``text`` (each at most :data:`BLOB_MAX_CHARS`) that
    decode to readable text."""
    found: list[Blob] = []
    for tokens, decode in ((_base64_tokens, _from_base64), (_hex_tokens, _from_hex)):
        for start, end in tokens(text):
            token = text[start:end]
            if len(token) > BLOB_MAX_CHARS:
                continue
            decoded = _readable(decode(token))
            if decoded is not None:
                found.append(Blob(start, end, decoded))
    return found


def _base64_tokens(text: str) -> Iterator[tuple[int, int]]:
    for start, end in _BASE64.spans(text):
        body = text[start:end].rstrip("=")
        if len(body) >= 16 and end - start - len(body) <= 2 and "=" not in body:
            yield start, end


def _hex_tokens(text: str) -> Iterator[tuple[int, int]]:
    """Eight or more hex bytes not touching another hex digit: of each match, from the first
    byte with no hex digit before it, to the last byte (or its separator) with none after."""
    for start, end in _HEX.spans(text):
        if text[start] not in _HEX_DIGITS and text[start] != "\\":
            start += 1  # the character before the bytes
        if end - start > 2 * BLOB_MAX_CHARS:
            continue  # too long to decode however it is cut
        units = _hex_units(text, start, end)
        first = next((i for i, u in enumerate(units) if _may_open(text, u)), len(units))
        kept = _hex_end(text, units[first:])
        if kept is not None:
            head = units[first]
            yield (head[0] if head[0] == start or not _after_hex(text, head[0]) else head[1]), kept


#: One hex byte of a match: its start (``\x``, ``0x``), its digits' start and end, its end
#: (after its separator).
_Unit = tuple[int, int, int, int]


def _hex_units(text: str, start: int, end: int) -> list[_Unit]:
    units: list[_Unit] = []
    at = start
    while at < end:
        digits = at + 2 if text.startswith(("\\x", "0x"), at) else at
        after = digits + 2
        stop = after + 1 if after < end and text[after] in " :," else after
        units.append((at, digits, after, stop))
        at = stop
    return units


def _after_hex(text: str, at: int) -> bool:
    return at > 0 and text[at - 1] in _HEX_DIGITS


def _may_open(text: str, unit: _Unit) -> bool:
    """Whether a token may start at this byte: nothing hex before it, or before its digits
    (after its ``x``)."""
    return not _after_hex(text, unit[0]) or unit[1] > unit[0]


def _hex_end(text: str, units: list[_Unit]) -> int | None:
    """Where a token of these bytes ends: after the last one with no hex digit after it,
    giving up its separator or the byte itself as needed; None under eight bytes."""
    while len(units) >= 8:
        stop = units[-1][3]
        if stop >= len(text) or text[stop] not in _HEX_DIGITS:
            return stop
        if stop > units[-1][2]:
            return units[-1][2]  # the separator follows
        units = units[:-1]
    return None


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
    digits = token.replace("\\x", "").replace("0x", "")
    digits = digits.replace(" ", "").replace(":", "").replace(",", "")
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
