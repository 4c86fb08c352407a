"""`judge export scorecards` carries the judge's signal: sampled and expected means, entropy,
the fallback note and pass score per trait; each pass's distribution, in CSV and parquet."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from judge.core.domain.rows import PASS_COLUMNS, TRAIT_COLUMNS
from judge.tools.cli import main
from tests.signal_cards import DISTRIBUTION, ENTROPY_BITS, signal_card

NOTE = "4 of 9 passes had no token log-probabilities and count with the sampled score"


@pytest.fixture
def card_file(tmp_path: Path) -> Path:
    path = tmp_path / "card.json"
    path.write_text(signal_card().model_dump_json())
    return path


def export(card_file: Path, out: Path, table: str, fmt: str) -> None:
    argv = ["export", "scorecards", str(card_file), "--table", table, "--format", fmt]
    assert main([*argv, "--out", str(out)]) == 0


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def pick(rows: list[dict[str, Any]], **match: Any) -> dict[str, Any]:
    found = [r for r in rows if all(r[k] == v for k, v in match.items())]
    assert len(found) == 1, match
    return found[0]


def test_the_signal_columns_close_both_tables_in_the_documented_order() -> None:
    assert TRAIT_COLUMNS[28:35] == (
        "score_mode",
        "sampled_mean",
        "expected_mean",
        "mean_entropy_bits",
        "n_with_distribution",
        "score_note",
        "pass_score",
    )
    assert PASS_COLUMNS[27:34] == (
        "sampled_score",
        "expected_score",
        "score_distribution",
        "score_entropy_bits",
        "distribution_partial",
        "structured_output",
        "pass_score",
    )
    # appended, never inserted: the 28 and 27 columns that came before keep their places
    # (the four score-integrity columns came after them, then the traits table's six cost ones)
    assert TRAIT_COLUMNS.index("rubric_source") == 27 and len(TRAIT_COLUMNS) == 28 + 7 + 4 + 6
    # (and the two serving columns after those: test_export_serving.py)
    assert PASS_COLUMNS.index("raw_output") == 26 and len(PASS_COLUMNS) == 27 + 7 + 4 + 2


def test_trait_rows_in_csv_carry_both_means_the_entropy_and_the_note(
    card_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "traits.csv"
    export(card_file, out, "traits", "csv")
    rows = read_csv(out)

    integrity = pick(rows, trait="integrity")
    assert (integrity["score_mode"], integrity["pass_score"]) == ("expected", "expected")
    assert float(integrity["sampled_mean"]) == pytest.approx((5 * 0.7 + 4 * 0.5) / 9)
    assert float(integrity["expected_mean"]) == pytest.approx(0.685)
    assert float(integrity["mean_entropy_bits"]) == pytest.approx(ENTROPY_BITS)
    assert integrity["n_with_distribution"] == "5" and integrity["score_note"] == NOTE
    assert float(integrity["mean"]) == pytest.approx((0.685 + 0.5) / 2)  # the panel mean
    safety = pick(rows, trait="manipulation_resistance")
    assert float(safety["sampled_mean"]) == pytest.approx((5 * 0.7 + 5 * 0.7) / 10)


def test_pass_rows_in_csv_hold_the_distribution_as_a_json_array_and_empty_cells_without_one(
    card_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "passes.csv"
    export(card_file, out, "passes", "csv")
    rows = read_csv(out)

    a = pick(rows, trait="integrity", pass_index="0")
    assert (a["model"], a["score"], a["sampled_score"], a["expected_score"]) == (
        "judge-a",
        "0.685",
        "0.7",
        "0.685",
    )
    assert json.loads(a["score_distribution"]) == DISTRIBUTION
    assert float(a["score_entropy_bits"]) == pytest.approx(ENTROPY_BITS)
    assert (a["distribution_partial"], a["structured_output"], a["pass_score"]) == (
        "False",
        "True",
        "expected",
    )
    b = pick(rows, trait="integrity", pass_index="5")
    assert (b["model"], b["score"], b["sampled_score"]) == ("judge-b", "0.5", "0.5")
    assert [b[c] for c in ("expected_score", "score_distribution", "score_entropy_bits")] == [
        "",
        "",
        "",
    ]
    assert (b["distribution_partial"], b["structured_output"]) == ("", "False")
    unscored = pick(rows, trait="integrity", pass_index="9")
    assert (unscored["parse_status"], unscored["score"], unscored["sampled_score"]) == (
        "unparseable",
        "",
        "",
    )


def test_parquet_keeps_the_distribution_as_a_list_of_doubles_and_nulls_without_one(
    card_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "passes.parquet"
    export(card_file, out, "passes", "parquet")
    table = pq.read_table(out)

    assert table.schema.field("score_distribution").type == pa.list_(pa.float64())
    assert table.schema.field("structured_output").type == pa.bool_()
    assert table.schema.field("expected_score").type == pa.float64()
    rows = table.to_pylist()
    a = pick(rows, trait="integrity", pass_index=0)
    assert a["score_distribution"] == DISTRIBUTION
    assert (a["sampled_score"], a["expected_score"]) == (0.7, 0.685)
    assert a["score_entropy_bits"] == pytest.approx(ENTROPY_BITS)
    assert (a["distribution_partial"], a["structured_output"]) == (False, True)
    b = pick(rows, trait="integrity", pass_index=5)
    assert (b["sampled_score"], b["structured_output"]) == (0.5, False)
    assert [b[c] for c in ("expected_score", "score_distribution", "score_entropy_bits")] == [
        None,
        None,
        None,
    ]
    assert b["distribution_partial"] is None


def test_parquet_trait_rows_type_the_signal_columns(card_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "traits.parquet"
    export(card_file, out, "traits", "parquet")
    table = pq.read_table(out)

    assert tuple(table.column_names) == TRAIT_COLUMNS
    assert table.schema.field("n_with_distribution").type == pa.int64()
    assert table.schema.field("expected_mean").type == pa.float64()
    integrity = pick(table.to_pylist(), trait="integrity")
    assert integrity["expected_mean"] == pytest.approx(0.685)
    assert integrity["sampled_mean"] == pytest.approx(5.5 / 9)
    assert integrity["mean_entropy_bits"] == pytest.approx(ENTROPY_BITS)
    assert (integrity["n_with_distribution"], integrity["score_note"]) == (5, NOTE)
    assert integrity["pass_score"] == "expected"


def test_json_lines_give_the_distribution_as_an_array(card_file: Path, capsys: Any) -> None:
    argv = ["export", "scorecards", str(card_file), "--table", "passes", "--format", "jsonl"]
    assert main(argv) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]

    assert pick(rows, trait="negotiation", pass_index=4)["score_distribution"] == DISTRIBUTION
    assert pick(rows, trait="negotiation", pass_index=6)["score_distribution"] is None
