"""Folding text to one comparable form (docs/integrity.md, ``obfuscated``), keeping the way
back to the original offsets. Each character folds on its own, through one table that
``str.translate`` applies; a character whose folding is more than dropping an accent or its
case is a *trick*.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from itertools import accumulate

from confusable_homoglyphs import confusables

#: Scripts whose confusable letters are mapped to Latin (the ones attackers draw look-alikes
#: from); letters of other scripts keep their own form, so CJK text is read as CJK.
_LOOKALIKE_SCRIPTS = ("CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC", "LISU", "MATHEMATICAL")


@cache
def _latin_lookalikes() -> dict[str, str]:
    """Each non-ASCII letter of a look-alike script that Unicode lists as confusable with one
    ASCII letter or digit, and that letter."""
    out: dict[str, str] = {}
    for char, glyphs in confusables.confusables_data.items():
        if len(char) != 1 or char.isascii() or char.casefold() != char:
            continue  # text is case-folded before the look-up
        name = unicodedata.name(char, "")
        if not name.startswith(_LOOKALIKE_SCRIPTS):
            continue
        latin = [
            g["c"] for g in glyphs if len(g["c"]) == 1 and g["c"].isascii() and g["c"].isalnum()
        ]
        if latin:
            out[char] = latin[0].lower()
    return out


class _FoldTable(dict[int, str]):
    """``ord(char) -> folded text``, filled on first sight of each character."""

    def __init__(self) -> None:
        super().__init__()
        self.tricks: set[int] = set()
        self.lookalikes: set[int] = set()

    def __missing__(self, code: int) -> str:
        folded, trick, lookalike = _fold_char(chr(code))
        self[code] = folded
        if trick:
            self.tricks.add(code)
        if lookalike:
            self.lookalikes.add(code)
        return folded


#: Marks that change no letter but split a word for the rules: variation selectors, the
#: combining grapheme joiner, Mongolian free variation selectors (dropped, like format
#: characters).
_INVISIBLE_MARKS = frozenset(
    [0x034F, 0x180B, 0x180C, 0x180D, 0x180F, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]
)
#: Blank letters and symbols used as spaces: the Hangul fillers and the blank Braille cell.
_BLANKS = frozenset([0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800])
#: Letters whose compatibility form differs but which every text of their script writes so
#: (Thai and Lao SARA AM): no disguise.
_NATIVE = frozenset([0x0E33, 0x0EB3])
#: Name prefixes of symbols that show one Latin letter (squared, circled, negative, regional
#: indicators), which NFKC leaves in part.
_LETTER_SYMBOLS = ("SQUARED ", "NEGATIVE ", "CIRCLED ", "PARENTHESIZED ", "REGIONAL INDICATOR")
#: The word before the letter in the names of Latin letter forms read as that letter.
_LETTER_FORMS = frozenset(["LETTER", "CAPITAL", "DOTLESS", "SCRIPT"])


def _named_letter(char: str) -> str | None:
    """The ASCII letter a Latin letter form or letter symbol outside NFKC shows: small
    capitals (``ᴀ``), dotless i, squared and circled letters, regional indicators."""
    words = unicodedata.name(char, "").split()
    if len(words) < 3 or len(words[-1]) != 1 or not "A" <= words[-1] <= "Z":
        return None
    if words[-2] not in _LETTER_FORMS or "WITH" in words:
        return None
    name = " ".join(words)
    if name.startswith("LATIN ") or name.startswith(_LETTER_SYMBOLS):
        return words[-1].lower()
    return None


def _fold_char(char: str) -> tuple[str, bool, bool]:
    """A character's folded form; whether folding it undid a format character, a
    compatibility form or another disguise; whether it mapped a look-alike letter to Latin."""
    if char.isascii():
        return char.lower(), False, False
    code = ord(char)
    if unicodedata.category(char) == "Cf" or code in _INVISIBLE_MARKS:
        return "", True, False
    if code in _BLANKS:
        return " ", True, False
    compat = unicodedata.normalize("NFKC", char)
    if len(compat) == 1 and not compat.isascii():
        named = _named_letter(compat)
        if named is not None:
            return named, True, False
    trick = compat != unicodedata.normalize("NFC", char) and char.isalpha() and code not in _NATIVE
    bare = "".join(
        c for c in unicodedata.normalize("NFD", compat) if not unicodedata.combining(c)
    ).casefold()
    lookalikes = _latin_lookalikes()
    mapped = "".join(lookalikes.get(c, c) for c in bare)
    return mapped, trick, mapped != bare


_TABLE = _FoldTable()


@dataclass
class Folded:
    """A text in folded form, with the way back to the original offsets."""

    original: str
    text: str
    _ends: list[int] | None = field(default=None, repr=False)

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The original characters ``[a, b)`` that fold to ``text[start:end]``."""
        if self.original.isascii():
            return start, end
        if self._ends is None:
            lengths = map(len, map(_TABLE.__getitem__, map(ord, self.original)))
            self._ends = list(accumulate(lengths))
        first = bisect_right(self._ends, start)
        last = bisect_right(self._ends, max(start, end - 1))
        return first, min(last + 1, len(self.original))

    def has_trick(self, start: int, end: int) -> bool:
        """Whether the original characters ``[start, end)`` hold a trick: a format character,
        a compatibility form, or a look-alike letter among ASCII ones (a Russian word alone
        is Russian, not a disguise)."""
        region = self.original[start:end]
        if region.isascii():
            return False
        codes = set(map(ord, region))
        if codes & _TABLE.tricks:
            return True
        return bool(codes & _TABLE.lookalikes) and any(c.isascii() and c.isalpha() for c in region)


def fold(text: str) -> Folded:
    """Fold ``text`` (see the module docstring)."""
    if text.isascii():
        return Folded(text, text.lower())
    return Folded(text, by_runs(text, str.lower, _TABLE))


#: :func:`by_runs` reads a text by runs when at most one in this many of its characters is
#: outside ASCII (its UTF-8 has at most that many more bytes than characters).
_RUNS_FROM = 8
#: Bytes of UTF-8: 0 for ASCII, 1 for the others.
_HIGH_BYTES = bytes(128) + bytes([1]) * 128


def non_ascii_runs(text: str) -> list[tuple[int, int]] | None:
    """The ranges of ``text`` that hold runs of non-ASCII characters, found with C passes over
    its UTF-8 (the ASCII between two runs has as many bytes as characters); None when more
    than one in :data:`_RUNS_FROM` characters is non-ASCII."""
    data = text.encode("utf-8", "surrogatepass")
    if (len(data) - len(text)) * _RUNS_FROM > len(text):
        return None
    high = data.translate(_HIGH_BYTES)
    runs: list[tuple[int, int]] = []
    byte, char = 0, 0  # where the last run ended, in bytes and in characters
    start = high.find(1)
    while start >= 0:
        end = high.find(0, start)
        end = len(data) if end < 0 else end
        first = char + start - byte
        char = first + len(data[start:end].decode("utf-8", "surrogatepass"))
        runs.append((first, char))
        byte = end
        start = high.find(1, end)
    return runs


class AsciiTranslation:
    """``text.translate(table)`` of an ASCII text, in one C pass over its bytes (``table``
    gives one character for each ASCII one): an ``ascii`` of :func:`by_runs`."""

    def __init__(self, table: Mapping[int, str]) -> None:
        self.table = bytes(ord(table[code]) for code in range(128)) + bytes(range(128, 256))

    def __call__(self, text: str) -> str:
        return text.encode("ascii").translate(self.table).decode("ascii")


def by_runs(text: str, ascii: Callable[[str], str], table: Mapping[int, str]) -> str:
    """``text.translate(table)``, where ``ascii`` gives what the table gives on ASCII text
    (each character on its own): each run of non-ASCII characters through the table and the
    ASCII between through ``ascii`` (a C pass, where the table is a look-up per character),
    when few of the text's characters are non-ASCII (a few emoji in a message); the table
    over all of it otherwise, so the runs are never more than an eighth of the text."""
    runs = non_ascii_runs(text)
    if runs is None:
        return text.translate(table)
    pieces: list[str] = []
    done = 0
    for start, end in runs:
        pieces += (ascii(text[done:start]), text[start:end].translate(table))
        done = end
    pieces.append(ascii(text[done:]))
    return "".join(pieces)
