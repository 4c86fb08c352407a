"""Exports carry each seat's score integrity as counts and kinds, never the excerpts:
``to_rows()``, `judge export scorecards` in CSV, JSON Lines and parquet."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from judge.core.domain.rows import COST_COLUMNS, PASS_COLUMNS, TAMPER_COLUMNS, TRAIT_COLUMNS
from judge.core.domain.scorecard import Scorecard
from judge.tools.cli import main
from tests.factories import scorecard, seat
from tests.tamper_cards import DETECTOR, EXCERPT, finding, seat_tamper, span, with_tamper

TRAITS = {"negotiation": 0.5, "integrity": 0.75}


def card() -> Scorecard:
    """Buyer flagged three times (two kinds); seller with no detector answer."""
    plain = scorecard(
        "r1", seat("buyer", traits=TRAITS), seat("seller", "agent-beta", traits=TRAITS)
    )
    found = seat_tamper(
        finding("role_spoof"),
        finding("appeal", where=span(3, 2, 0, 4), excerpt="pls"),
        finding("appeal", where=span(5, 3, 0, 4), excerpt="pls2"),
    )
    return with_tamper(plain, "buyer", found)


def export(tmp_path: Path, fmt: str) -> Path:
    source, out = tmp_path / "card.json", tmp_path / f"traits.{fmt}"
    source.write_text(card().model_dump_json())
    argv = ["export", "scorecards", str(source), "--format", fmt, "--out", str(out)]
    assert main(argv) == 0
    return out


def test_the_integrity_columns_follow_the_signal_columns_in_both_tables() -> None:
    assert TAMPER_COLUMNS == (
        "tamper_flagged",
        "tamper_findings",
        "tamper_kinds",
        "tamper_detector_version",
    )
    # the passes table ends with them; the traits table then has its cost columns appended
    assert PASS_COLUMNS[-6:-2] == TAMPER_COLUMNS  # the two serving columns came after them
    assert TRAIT_COLUMNS[-10:] == (*TAMPER_COLUMNS, *COST_COLUMNS)


def test_to_rows_counts_the_findings_and_joins_the_sorted_kinds() -> None:
    rows = {(r["seat"], r["trait"]): r for r in card().to_rows()}

    buyer = rows["buyer", "integrity"]
    assert [buyer[c] for c in TAMPER_COLUMNS] == [True, 3, "appeal;role_spoof", DETECTOR]
    assert [rows["seller", "integrity"][c] for c in TAMPER_COLUMNS] == [None] * 4


def test_csv_carries_the_columns_and_no_excerpt(tmp_path: Path) -> None:
    out = export(tmp_path, "csv")
    with out.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))

    buyer = next(r for r in rows if r["seat"] == "buyer")
    assert (buyer["tamper_flagged"], buyer["tamper_findings"], buyer["tamper_kinds"]) == (
        "True",
        "3",
        "appeal;role_spoof",
    )
    assert EXCERPT not in out.read_text() and "pls2" not in out.read_text()


def test_jsonl_rows_carry_the_columns(tmp_path: Path) -> None:
    rows = [json.loads(line) for line in export(tmp_path, "jsonl").read_text().splitlines()]

    assert {r["tamper_findings"] for r in rows if r["seat"] == "buyer"} == {3}
    assert {r["tamper_flagged"] for r in rows if r["seat"] == "seller"} == {None}


def test_parquet_keeps_the_column_types(tmp_path: Path) -> None:
    schema: Any = pq.read_schema(export(tmp_path, "parquet"))

    assert schema.field("tamper_flagged").type == pa.bool_()
    assert schema.field("tamper_findings").type == pa.int64()
    assert schema.field("tamper_kinds").type == pa.string()
    assert schema.field("tamper_detector_version").type == pa.string()
