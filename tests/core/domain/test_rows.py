"""The export's column lists and their documented contract (docs/export.md) stay equal:
the same columns, in the same order, with the same types."""

from __future__ import annotations

import re
from pathlib import Path

from judge.core.domain.rows import COLUMN_TYPES, PASS_COLUMNS, RUN_COLUMNS, TRAIT_COLUMNS

DOC = Path(__file__).resolve().parents[3] / "docs" / "export.md"
TYPES: dict[str, type] = {"text": str, "int": int, "float": float, "bool": bool, "float list": list}


def documented(section: str) -> list[tuple[str, type]]:
    """(column, type) of each name in the first cell of the section's table, in order."""
    text = DOC.read_text(encoding="utf-8").split(f"## The `{section}` table", 1)[1]
    text = text.split("\n## ", 1)[0]
    out: list[tuple[str, type]] = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        names = re.findall(r"`([a-z_]+)`", cells[0]) if len(cells) == 3 else []
        if not names:
            continue
        kinds = [TYPES[k.strip()] for k in cells[1].split(",")]
        out += zip(names, kinds if len(kinds) == len(names) else kinds * len(names), strict=True)
    return out


def test_the_traits_table_documents_every_column_in_order_with_its_type() -> None:
    rows = documented("traits")
    assert [name for name, _ in rows] == list(TRAIT_COLUMNS)
    assert dict(rows) == {c: COLUMN_TYPES[c] for c in TRAIT_COLUMNS}


def test_the_passes_table_documents_its_columns_after_the_run_columns() -> None:
    rows = documented("passes")
    assert [name for name, _ in rows] == list(PASS_COLUMNS[len(RUN_COLUMNS) :])
    assert dict(rows) == {c: COLUMN_TYPES[c] for c in PASS_COLUMNS[len(RUN_COLUMNS) :]}
    assert "The first eleven columns are those of the" in DOC.read_text() and len(RUN_COLUMNS) == 11
