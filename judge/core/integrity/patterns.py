"""Writing rules: each is a kind, its cue words and a pattern over folded text
(docs/integrity.md). Helpers shared by the English and the other languages' rules."""

from __future__ import annotations

from judge.core.domain.integrity import TamperKind
from judge.core.integrity.fold import fold

#: One rule as written: its kind, its cue words (``|``-separated) and its pattern.
Written = tuple[TamperKind, str, str]


def folded(pattern: str) -> str:
    """Fold the pattern's non-ASCII letters as scanned text is folded (ASCII is left as is,
    so ``\\S`` stays ``\\S``)."""
    return "".join(c if c.isascii() else fold(c).text for c in pattern)


def written(kind: TamperKind, cues: str, pattern: str) -> Written:
    """One rule as written: its kind, its cue words (``|``-separated, each contained in every
    match) and its pattern."""
    return kind, cues, pattern


def near(first: str, second: str, gap: int = 80) -> str:
    """``first`` then ``second`` on one line, at most ``gap`` characters apart."""
    return f"(?:{first})[^\\n]{{0,{gap}}}?(?:{second})"


def either(first: str, second: str, gap: int = 80) -> str:
    """``first`` and ``second`` on one line in either order, at most ``gap`` apart."""
    return f"{near(first, second, gap)}|{near(second, first, gap)}"
