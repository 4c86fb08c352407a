"""The rules of ``english`` and ``languages``, compiled, and the cue words without which each
is not run (docs/integrity.md)."""

from __future__ import annotations

from functools import lru_cache
from itertools import chain
from typing import NamedTuple

from judge.core.domain.integrity import TamperKind
from judge.core.integrity import linear
from judge.core.integrity.declared import WRITTEN as DECLARED
from judge.core.integrity.english import ENGLISH, FAMILIES, ROLE_SPOOF, UNLESS
from judge.core.integrity.fold import AsciiTranslation, by_runs, non_ascii_runs
from judge.core.integrity.hijack import HIJACK
from judge.core.integrity.indirect import WRITTEN as INDIRECT
from judge.core.integrity.languages import OTHER
from judge.core.integrity.languages_world import GLUED as WORLD_GLUED
from judge.core.integrity.languages_world import SCRIPTS as WORLD_SCRIPTS
from judge.core.integrity.languages_world import WORLD
from judge.core.integrity.patterns import SECONDS, alternatives
from judge.core.integrity.reader import READER


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
    #: A match is excused when this matches at its start (the match and what follows).
    unless: linear.Pattern | None = None
    #: For a rule of :func:`~judge.core.integrity.patterns.near` pairs: their second parts,
    #: one of which every match ends with. A long text where none occurs is not read by the
    #: rule (its gap keeps RE2's DFA counting from every first part on a line crowded with
    #: them, so it reads slowest where it finds nothing).
    gate: linear.Pattern | None = None


#: Letters of the scripts whose rules run only on text that holds one of them.
SCRIPTS = {
    "cjk": linear.compile(r"[\u3040-\u30ff\u3400-\u9fff]"),
    "hangul": linear.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]"),
    "arabic": linear.compile(r"[\u0600-\u06ff]"),
    "hebrew": linear.compile(r"[\u0590-\u05ff]"),
    "devanagari": linear.compile(r"[\u0900-\u097f]"),
    "greek": linear.compile(r"[\u0370-\u03ff\u1f00-\u1fff]"),
    "cyrillic": linear.compile(r"[\u0400-\u04ff]"),
    **{name: linear.compile(letters) for name, letters in WORLD_SCRIPTS.items()},
}
#: Scripts whose words glue to particles, articles or each other: a match need not start a
#: word.
_GLUED = frozenset(["cjk", "hangul", "arabic", "hebrew", *WORLD_GLUED])


def _script(pattern: str) -> str | None:
    return next((name for name, letters in SCRIPTS.items() if letters.search(pattern)), None)


def _rule(kind: TamperKind, cues: str, pattern: str) -> Rule:
    script = _script(pattern)
    bare = "|".join(_without_leading_boundary(alt) for alt in alternatives(pattern))
    cue_list = frozenset(cues.split("|")) if cues else frozenset()
    compiled = linear.compile(bare, multiline=True)
    unless = UNLESS.get(pattern)
    excused = None if unless is None else linear.compile(unless)
    return Rule(kind, compiled, script not in _GLUED, script, cue_list, excused, _gate(pattern))


def _gate(pattern: str) -> linear.Pattern | None:
    """The second parts of a pattern whose every top-level alternative :func:`near` made."""
    seconds = [SECONDS.get(alternative) for alternative in alternatives(pattern)]
    if any(second is None for second in seconds):
        return None
    return linear.compile("|".join(f"(?:{second})" for second in seconds), multiline=True)


def _without_leading_boundary(alternative: str) -> str:
    """``(?:\\bx...`` -> ``(?:x...``: the boundary is checked on the match instead."""
    head = 0
    while alternative.startswith("(?:", head):
        head += 3
    if alternative.startswith("\\b", head):
        return alternative[:head] + alternative[head + 2 :]
    return alternative


RULES: list[Rule] = [
    _rule(*rule)
    for rules in (ENGLISH, FAMILIES, INDIRECT, ROLE_SPOOF, OTHER, WORLD, HIJACK, READER, DECLARED)
    for rule in rules
]

_CUES = sorted({cue for rule in RULES for cue in rule.cues})
#: For each cue, the rules it may start (by their place in RULES); the rules with no cue.
_BY_CUE: dict[str, list[int]] = {}
for _index, _found in enumerate(RULES):
    for _cue in _found.cues:
        _BY_CUE.setdefault(_cue, []).append(_index)
_UNCUED = [i for i, rule in enumerate(RULES) if not rule.cues]


def scripts_in(words: str) -> frozenset[str]:
    """The scripts of ``SCRIPTS`` whose letters occur in ``words``."""
    if words.isascii():
        return frozenset()
    runs = non_ascii_runs(words)
    if runs is None:
        return _scripts_of(frozenset(words).difference(_ASCII))
    return _scripts_of(frozenset("".join(words[a:b] for a, b in runs)))


_ASCII = frozenset(map(chr, range(128)))


@lru_cache(maxsize=4096)
def _scripts_of(chars: frozenset[str]) -> frozenset[str]:
    """The scripts of these (non-ASCII) characters: each script is a class of characters, so
    a text holds one exactly when its set of characters does (the last few thousand sets
    kept: texts of one language share theirs)."""
    joined = "".join(sorted(chars))
    return frozenset(name for name, letters in SCRIPTS.items() if letters.found(joined))


@lru_cache(maxsize=4096)
def active_rules(cues: frozenset[str], scripts: frozenset[str]) -> tuple[Rule, ...]:
    """The rules, in order, that one of these cues starts (or that need none) and whose
    script, if any, is among these (the last few thousand choices kept: texts of one kind
    share their cues)."""
    chosen: set[int] = set()
    for cue in cues:
        chosen.update(_BY_CUE.get(cue, ()))
    cued = [i for i in chosen if _SCRIPT_OF[i] is None or _SCRIPT_OF[i] in scripts]
    return tuple(RULES[i] for i in sorted([*_uncued(scripts), *cued]))


#: Each rule's script, by its place in RULES.
_SCRIPT_OF = [rule.script for rule in RULES]


@lru_cache(maxsize=256)
def _uncued(scripts: frozenset[str]) -> tuple[int, ...]:
    """The rules with no cue whose script, if any, is among these (no rule has both)."""
    return tuple(i for i in _UNCUED if _SCRIPT_OF[i] is None or _SCRIPT_OF[i] in scripts)


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
#: ``_NON_WORD`` on ASCII text.
_ascii_words = AsciiTranslation(_NON_WORD)


#: Cues of whole words ("ge mig", "bana "): present when their first word is a word of the
#: text (the words' order is not kept in a long text's vocabulary).
_WHOLE_WORD_CUES = tuple((cue, cue.split(" ")[0]) for cue in _CUES if " " in cue)
#: The whole-word cues by their first word.
_BY_FIRST_WORD: dict[str, list[str]] = {}
for _cue, _first in _WHOLE_WORD_CUES:
    _BY_FIRST_WORD.setdefault(_first, []).append(_cue)
_FIRST_WORDS = frozenset(_BY_FIRST_WORD)
#: The mark cues by their first character.
_MARK_CUES_BY_FIRST: dict[str, list[str]] = {}
for _cue in _MARK_CUES:
    _MARK_CUES_BY_FIRST.setdefault(_cue[0], []).append(_cue)
_WORD_CUE_SET = frozenset(cue[1:] for cue in _WORD_CUES if " " not in cue[1:])
_WORD_CUE_LENGTHS = sorted({len(cue) for cue in _WORD_CUE_SET})


#: The cues each word seen starts with (a word's cues never change); cleared past its bound.
_PREFIXES: dict[str, tuple[str, ...]] = {}
_PREFIXES_MAX = 1 << 16


def _cue_prefixes(word: str) -> tuple[str, ...]:
    return tuple(
        word[:length]
        for length in _WORD_CUE_LENGTHS
        if length <= len(word) and word[:length] in _WORD_CUE_SET
    )


def cues_in(words: str) -> frozenset[str]:
    """Every cue that occurs in ``words``: a word cue at the start of a word, a mark cue
    (``<|``, ``{``, ``$``) anywhere. Word cues are looked up by the prefixes of each distinct
    word (one set look-up per prefix length), not by searching the text per cue."""
    if words.isascii():  # one C pass over the bytes
        plain = _ascii_words(words)
    else:
        plain = by_runs(words, _ascii_words, _NON_WORD)
    distinct = set(plain.split())
    found = {cue for first in distinct.intersection(_FIRST_WORDS) for cue in _BY_FIRST_WORD[first]}
    if len(_PREFIXES) > _PREFIXES_MAX:
        _PREFIXES.clear()
    for word in distinct.difference(_PREFIXES):
        _PREFIXES[word] = _cue_prefixes(word)
    found.update(chain.from_iterable(map(_PREFIXES.__getitem__, distinct)))
    marks = (cue for first, cues in _MARK_CUES_BY_FIRST.items() if first in words for cue in cues)
    return frozenset(found.union(cue for cue in marks if cue in words))
