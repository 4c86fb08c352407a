"""Words for counts: "1 pass", "2 passes", never "1 passes"."""

from __future__ import annotations


def counted(n: int, one: str, many: str | None = None) -> str:
    """``n`` with the noun that fits it: ``one`` for exactly one, else ``many`` (``one`` + "s")."""
    return f"{n} {one if n == 1 else (many or one + 's')}"
