"""The rules of ``english`` and ``languages``, compiled, and the cue words without which each
is not run (docs/integrity.md)."""

from __future__ import annotations

from typing import NamedTuple

from judge.core.domain.integrity import TamperKind
from judge.core.integrity import linear
from judge.core.integrity.english import ENGLISH, ROLE_SPOOF
from judge.core.integrity.languages import OTHER


class Rule(NamedTuple):
    """One pattern, the intent a match shows, and ``cues`` one of which any match contains
    (empty: always run). Leading ``\\b`` are compiled out so RE2 can skip ahead on first
    letters; ``word_start`` asks the caller to check that a match starting with a letter
    starts a word (not for Chinese and Japanese, which have no spaces)."""

    kind: TamperKind
    pattern: linear.Pattern
    word_start: bool
    script: str | None
    cues: frozenset[str]


#: Letters of the scripts whose rules run only on text that holds one of them.
SCRIPTS = {
    "cyrillic": linear.compile(r"[\u0400-\u04ff]"),
    "cjk": linear.compile(r"[\u3040-\u30ff\u3400-\u9fff]"),
}


def _script(pattern: str) -> str | None:
    if SCRIPTS["cjk"].search(pattern):
        return "cjk"
    return "cyrillic" if SCRIPTS["cyrillic"].search(pattern) else None


def _rule(kind: TamperKind, cues: str, pattern: str) -> Rule:
    script = _script(pattern)
    bare = "|".join(_without_leading_boundary(alt) for alt in _alternatives(pattern))
    cue_list = frozenset(cues.split("|")) if cues else frozenset()
    return Rule(kind, linear.compile(bare, multiline=True), script != "cjk", script, cue_list)


def _alternatives(pattern: str) -> list[str]:
    """The pattern's top-level alternatives."""
    parts, depth, escaped, start = [], 0, False, 0
    for index, char in enumerate(pattern):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(pattern[start:index])
            start = index + 1
    return [*parts, pattern[start:]]


def _without_leading_boundary(alternative: str) -> str:
    """``(?:\\bx...`` -> ``(?:x...``: the boundary is checked on the match instead."""
    head = 0
    while alternative.startswith("(?:", head):
        head += 3
    if alternative.startswith("\\b", head):
        return alternative[:head] + alternative[head + 2 :]
    return alternative


RULES: list[Rule] = [_rule(*rule) for rule in ENGLISH + ROLE_SPOOF + OTHER]

_CUES = sorted({cue for rule in RULES for cue in rule.cues})
#: Cues that start with a letter must start a word ("rat" in "grateful" is no cue).
_WORD_CUES = tuple(" " + cue for cue in _CUES if cue[0].isalnum())
_MARK_CUES = tuple(cue for cue in _CUES if not cue[0].isalnum())


class _WordTable(dict[int, str]):
    """``ord(char) -> char`` for letters and digits, else a space (Python's ``[\\W_]``),
    filled on first sight of each character."""

    def __missing__(self, code: int) -> str:
        self[code] = char = chr(code) if chr(code).isalnum() else " "
        return char


_NON_WORD = _WordTable()


def cues_in(words: str) -> frozenset[str]:
    """Every cue that occurs in ``words``: a word cue at the start of a word, a mark cue
    (``<|``, ``{``, ``$``) anywhere."""
    starts = " " + words.translate(_NON_WORD)
    found = [cue[1:] for cue in _WORD_CUES if cue in starts]
    return frozenset(found + [cue for cue in _MARK_CUES if cue in words])
