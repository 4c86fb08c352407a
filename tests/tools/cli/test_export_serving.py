"""`judge export scorecards --table passes` closes each pass row with how its request was served
(docs/export.md): the choices the request answered (`request_choices`, more than 1 when the
trait's passes shared it) and the reply format the backend enforced (`reply_format`, empty when
the backend did not say), in CSV and parquet alike."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from judge.core.domain.rows import PASS_COLUMNS, SERVING_COLUMNS, TAMPER_COLUMNS
from judge.core.domain.scorecard import Scorecard
from judge.tools.cli import main
from tests.signal_cards import signal_card


def _served(card: Scorecard) -> Scorecard:
    """The panel's card with judge-a's passes shared five to a request and held to the schema
    as ``json_object``; judge-b's passes stay requests of their own with no format recorded."""
    data = card.model_dump(mode="json")
    for seat in data["seats"].values():
        for results in (seat["traits"], seat["safety_block"] or {}):
            for result in results.values():
                for p in result["passes"]:
                    if p["model"] == "judge-a":
                        p |= {"request_choices": 5, "reply_format": "json_object"}
    return Scorecard.model_validate(data)


@pytest.fixture
def card_file(tmp_path: Path) -> Path:
    path = tmp_path / "card.json"
    path.write_text(_served(signal_card()).model_dump_json())
    return path


def _export(card_file: Path, out: Path, fmt: str) -> None:
    argv = ["export", "scorecards", str(card_file), "--table", "passes", "--format", fmt]
    assert main([*argv, "--out", str(out)]) == 0


def _pick(rows: list[dict[str, Any]], trait: str, index: Any) -> dict[str, Any]:
    found = [r for r in rows if r["trait"] == trait and r["pass_index"] == index]
    assert len(found) == 1
    return found[0]


def test_the_serving_columns_are_appended_after_the_score_integrity_ones() -> None:
    assert SERVING_COLUMNS == ("request_choices", "reply_format")
    assert PASS_COLUMNS[-2:] == SERVING_COLUMNS
    assert PASS_COLUMNS[-6:-2] == TAMPER_COLUMNS


def test_csv_pass_rows_say_how_each_request_was_served(card_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "passes.csv"
    _export(card_file, out, "csv")
    with out.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        assert tuple(reader.fieldnames or ()) == PASS_COLUMNS
        rows = list(reader)
    shared = _pick(rows, "integrity", "0")
    assert (shared["model"], shared["request_choices"], shared["reply_format"]) == (
        "judge-a",
        "5",
        "json_object",
    )
    alone = _pick(rows, "integrity", "5")
    assert (alone["model"], alone["request_choices"], alone["reply_format"]) == ("judge-b", "1", "")
    assert {r["request_choices"] for r in rows} == {"1", "5"}


def test_parquet_types_the_choices_as_int_and_leaves_an_unsaid_format_null(
    card_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "passes.parquet"
    _export(card_file, out, "parquet")
    table = pq.read_table(out)
    assert tuple(table.column_names) == PASS_COLUMNS
    assert table.schema.field("request_choices").type == pa.int64()
    assert table.schema.field("reply_format").type == pa.string()
    rows = table.to_pylist()
    shared = _pick(rows, "negotiation", 4)
    assert (shared["request_choices"], shared["reply_format"]) == (5, "json_object")
    alone = _pick(rows, "negotiation", 6)
    assert (alone["request_choices"], alone["reply_format"]) == (1, None)
