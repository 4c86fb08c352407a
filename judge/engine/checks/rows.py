"""What one query against a world's database gives back (``judge.engine.checks.state``)."""

from __future__ import annotations

from typing import NamedTuple


class Rows(NamedTuple):
    """What a query gave back: its column count and its first rows (never more than asked)."""

    columns: int
    rows: list[tuple[object, ...]]
