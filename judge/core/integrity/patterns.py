"""Writing rules: each is a kind, its cue words and a pattern over folded text
(docs/integrity.md). Helpers shared by the English and the other languages' rules."""

from __future__ import annotations

from judge.core.domain.integrity import TamperKind
from judge.core.integrity.fold import fold

#: One rule as written: its kind, its cue words (``|``-separated) and its pattern.
Written = tuple[TamperKind, str, str]


def folded(pattern: str) -> str:
    """Fold the pattern's non-ASCII letters as scanned text is folded (ASCII is left as is,
    so ``\\S`` stays ``\\S``). A pattern of :func:`near` pairs stays one (:data:`SECONDS`)."""
    parts = alternatives(pattern)
    if all(part in SECONDS for part in parts):
        for part in parts:
            SECONDS[_folded(part)] = _folded(SECONDS[part])
    return _folded(pattern)


def _folded(pattern: str) -> str:
    return "".join(c if c.isascii() else fold(c).text for c in pattern)


def folded_rules(rules: list[Written]) -> list[Written]:
    """The rules with their cue words and patterns folded (:func:`folded`)."""
    return [(kind, folded(cue), folded(pattern)) for kind, cue, pattern in rules]


def written(kind: TamperKind, cues: str, pattern: str) -> Written:
    """One rule as written: its kind, its cue words (``|``-separated, each contained in every
    match) and its pattern."""
    return kind, cues, pattern


#: Each pattern :func:`near` made, and its ``second``: a text where ``second`` matches nowhere
#: holds no match of the pattern (``lexicon`` gates a rule of such patterns with their seconds).
SECONDS: dict[str, str] = {}


def near(first: str, second: str, gap: int = 80) -> str:
    """``first`` then ``second`` on one line, at most ``gap`` characters apart."""
    made = f"(?:{first})[^\\n]{{0,{gap}}}?(?:{second})"
    SECONDS[made] = second
    return made


#: How many letters of a word's open ending (``x\\w*``) :func:`after_words` reads in the gap.
TAIL = 12


def after_words(words: str, second: str, gap: int) -> str:
    """``\\b(?:words)`` then ``second`` as :func:`near` has it, where a word written with an
    open ending (``x\\w*``) reads its ending inside a gap longer by :data:`TAIL`
    (``x[^\\n]{0,gap+TAIL}?``). ``x\\w*[^\\n]{0,gap}?`` reads the same lines but for endings
    past :data:`TAIL` letters (and reaches less far after a short one), and its program for
    RE2's DFA tracks every place where each ending could stop: on a line crowded with such
    words it outgrew RE2's memory and was rebuilt again and again (a 4 MiB line of them took
    seconds per rule)."""
    open_ended, closed = [], []
    for word in alternatives(words):
        if word.endswith(r"\w*"):
            open_ended.append(word.removesuffix(r"\w*"))
        else:
            closed.append(word)
    parts = [near(rf"\b(?:{'|'.join(open_ended)})", second, gap + TAIL)] if open_ended else []
    parts += [near(rf"\b(?:{'|'.join(closed)})", second, gap)] if closed else []
    return "|".join(parts)


def either(first: str, second: str, gap: int = 80) -> str:
    """``first`` and ``second`` on one line in either order, at most ``gap`` apart."""
    return f"{near(first, second, gap)}|{near(second, first, gap)}"


def cues(pattern: str) -> str:
    """The literal start of each alternative, up to its first pattern character: one of them
    starts every match. A start of several words ("ge mig") is a cue of whole words, looked
    up by its first word (``lexicon.cues_in``)."""
    found = []
    for alternative in alternatives(pattern):
        cut = min((alternative.index(c) for c in "\\([?*+{'" if c in alternative), default=None)
        if cut is not None and alternative[cut] in "?*{":
            cut -= 1  # the character before is optional
        cue = alternative[:cut]
        if " " not in cue.strip():
            cue = cue.strip()
        if len(cue.strip()) < 2:
            raise ValueError(f"a cue shorter than two letters in {pattern!r}")
        found.append(cue)
    return "|".join(dict.fromkeys(found))


def alternatives(pattern: str) -> list[str]:
    """The pattern's top-level alternatives (no ``|`` inside a group or a class, nor an
    escaped one)."""
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
