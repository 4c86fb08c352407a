"""`judge export scorecards`: tables from the store and from scorecard files."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from judge.core.domain.rows import PASS_COLUMNS, TRAIT_COLUMNS
from judge.core.domain.run import Run
from judge.core.domain.scorecard import Scorecard
from judge.core.scoring.figures import round_figure
from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.engine.pipeline import ScoringOptions, score_run_async
from judge.server.service.intake import canonical_body
from judge.server.store.bulk import PrescoredRun, insert_scored_runs
from judge.server.store.db import make_engine, transaction
from judge.server.store.migrate import upgrade
from judge.tools.cli import main
from tests.helpers import EXAMPLES, example, example_data
from tests.pg import PostgresServer, create_database, drop_database

N_RUNS = 1000
N_TRAITS = 12


def varied_cards(run: Run, count: int) -> list[Scorecard]:
    rng = random.Random(5)

    def answer(_request: JudgeRequest) -> str:
        return json.dumps(
            {"score": round(rng.uniform(0.1, 0.9), 2), "turns": [1], "rationale": "seen"}
        )

    options = ScoringOptions(judge_model="openai/gpt-4o-mini")
    return [
        asyncio.run(score_run_async(run, backend=ScriptedBackend(answer), options=options))
        for _ in range(count)
    ]


def fill_store(url: str, n: int) -> dict[str, Scorecard]:
    """Migrate a store and write ``n`` scored runs into it with the bulk writer."""
    engine = make_engine(url)
    upgrade(engine)
    base = example_data("haggle.json")
    templates = varied_cards(example("haggle.json"), 10)
    cards: dict[str, Scorecard] = {}
    for start in range(0, n, 250):
        items = []
        for i in range(start, min(start + 250, n)):
            run = Run.model_validate({**base, "run_id": f"exp-{i:04d}", "seed": i})
            body = canonical_body(run)
            card = templates[i % 10].model_copy(update={"run_id": run.run_id, "seed": i})
            cards[run.run_id] = card
            items.append(PrescoredRun(run, body.text, body.sha256, card, "test"))
        with transaction(engine) as session:
            insert_scored_runs(session, items=items)
    engine.dispose()
    return cards


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Scorecard]]:
    """A SQLite store holding 1,000 scored runs, written with the bulk writer."""
    url = f"sqlite:///{tmp_path_factory.mktemp('store') / 'judge.db'}"
    return url, fill_store(url, N_RUNS)


def test_csv_of_1000_stored_runs_loads_in_pandas_with_the_documented_columns(
    store: tuple[str, dict[str, Scorecard]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: Any,
) -> None:
    url, cards = store
    monkeypatch.setenv("JUDGE_DATABASE_URL", url)
    out = tmp_path / "traits.csv"
    assert main(["export", "scorecards", "--format", "csv", "--out", str(out)]) == 0
    assert capsys.readouterr().err.strip() == f"wrote {N_RUNS * N_TRAITS} traits rows to {out}"
    frame = pd.read_csv(out)
    assert tuple(frame.columns) == TRAIT_COLUMNS
    assert len(frame) == N_RUNS * N_TRAITS and frame["run_id"].nunique() == N_RUNS
    row = frame[(frame.run_id == "exp-0417") & (frame.trait == "integrity")].iloc[0]
    integrity = cards["exp-0417"].seats["buyer"].traits["integrity"]
    assert row["mean"] == pytest.approx(integrity.mean)
    assert row["variance"] == pytest.approx(integrity.variance)
    assert (row["n_scored"], row["seed"], row["seat"], row["agent_id"]) == (
        5,
        417,
        "buyer",
        "agent-alpha",
    )
    assert row["judge_model"] == "openai/gpt-4o-mini" and row["era"].startswith("era-")
    assert set(frame["pack"]) == {"capability", "safety"}
    assert frame.groupby("pack")["trait"].nunique().to_dict() == {"capability": 8, "safety": 4}


def test_parquet_of_the_store_keeps_the_column_types(
    store: tuple[str, dict[str, Scorecard]], tmp_path: Path
) -> None:
    url, cards = store
    out = tmp_path / "traits.parquet"
    assert (
        main(
            [
                "export",
                "scorecards",
                "--format",
                "parquet",
                "--out",
                str(out),
                "--database-url",
                url,
            ]
        )
        == 0
    )
    frame = pd.read_parquet(out)
    assert tuple(frame.columns) == TRAIT_COLUMNS and len(frame) == N_RUNS * N_TRAITS
    assert frame["mean"].dtype == "float64" and frame["n_scored"].dtype == "int64"
    assert frame["complete"].dtype == "bool"
    means = frame[frame.run_id == "exp-0003"].set_index("trait")["mean"].to_dict()
    seat = cards["exp-0003"].seats["buyer"]
    expected = {t: r.mean for t, r in {**seat.traits, **(seat.safety_block or {})}.items()}
    assert means == pytest.approx(expected)


def test_the_passes_table_has_one_row_per_pass(
    store: tuple[str, dict[str, Scorecard]], tmp_path: Path
) -> None:
    url, cards = store
    out = tmp_path / "passes.jsonl"
    argv = [
        "export",
        "scorecards",
        "--table",
        "passes",
        "--format",
        "jsonl",
        "--out",
        str(out),
        "--database-url",
        url,
    ]
    assert main(argv) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == N_RUNS * N_TRAITS * 5
    assert tuple(rows[0]) == PASS_COLUMNS
    mine = [r for r in rows if r["run_id"] == "exp-0010" and r["trait"] == "negotiation"]
    passes = cards["exp-0010"].seats["buyer"].traits["negotiation"].passes
    assert [r["pass_index"] for r in mine] == [0, 1, 2, 3, 4]
    assert [r["score"] for r in mine] == [p.score for p in passes]
    assert {r["cited_turns"] for r in mine} == {"[1]"}


def test_scorecard_files_export_to_stdout(tmp_path: Path, capsys: Any) -> None:
    cards = varied_cards(example("two_seats_partial_credit.json"), 2)
    single, listed = tmp_path / "one.json", tmp_path / "list.json"
    single.write_text(cards[0].model_dump_json())
    listed.write_text(json.dumps([c.model_dump(mode="json") for c in cards]))
    assert main(["export", "scorecards", str(single), str(listed)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ",".join(TRAIT_COLUMNS)
    assert len(lines) == 1 + 3 * 2 * N_TRAITS  # three cards, two scored seats each


def test_json_lines_from_judge_score_export_card_by_card(tmp_path: Path, capsys: Any) -> None:
    cards = varied_cards(example("two_seats_partial_credit.json"), 2)
    lines = tmp_path / "cards.jsonl"
    lines.write_text("".join(json.dumps(c.model_dump(mode="json")) + "\n" for c in cards))
    assert main(["export", "scorecards", str(lines), "--format", "jsonl"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == 2 * 2 * N_TRAITS
    assert [r["mean"] for r in rows] == [
        round_figure(row["mean"]) for c in cards for row in c.to_rows()
    ]  # exported to 12 significant digits (docs/scoring.md#precision)
    broken = tmp_path / "broken.jsonl"
    broken.write_text(lines.read_text() + "{not json\n")
    assert main(["export", "scorecards", str(broken)]) == 2
    assert f"{broken}: line 3 is not valid JSON" in capsys.readouterr().err


def test_to_rows_in_python() -> None:
    card = varied_cards(example("haggle.json"), 1)[0]
    rows = card.to_rows()
    assert len(rows) == N_TRAITS and tuple(rows[0]) == TRAIT_COLUMNS
    assert rows[0]["composite"] == card.seats["buyer"].composite
    assert len(card.to_rows("passes")) == N_TRAITS * 5
    assert pd.DataFrame(card.to_rows()).shape == (N_TRAITS, len(TRAIT_COLUMNS))


def test_parquet_needs_a_file(capsys: Any, tmp_path: Path) -> None:
    card = tmp_path / "card.json"
    card.write_text(varied_cards(example("haggle.json"), 1)[0].model_dump_json())
    assert main(["export", "scorecards", str(card), "--format", "parquet"]) == 2
    assert "give --out PATH" in capsys.readouterr().err


def test_parquet_without_pyarrow_says_which_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: Any
) -> None:
    card = tmp_path / "card.json"
    card.write_text(varied_cards(example("haggle.json"), 1)[0].model_dump_json())
    monkeypatch.setitem(__import__("sys").modules, "pyarrow", None)
    out = tmp_path / "t.parquet"
    assert main(["export", "scorecards", str(card), "--format", "parquet", "--out", str(out)]) == 2
    assert "pip install 'judge[parquet]'" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == [card]  # nothing half-written


def test_a_missing_store_or_a_bad_file_is_bad_input(tmp_path: Path, capsys: Any) -> None:
    assert (
        main(["export", "scorecards", "--database-url", f"sqlite:///{tmp_path / 'none.db'}"]) == 2
    )
    assert "no store at" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()
    assert main(["export", "scorecards", str(EXAMPLES / "haggle.json")]) == 2
    assert "not a scorecard" in capsys.readouterr().err


@pytest.mark.postgres
def test_the_store_on_postgresql_exports_the_same_rows(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    name = create_database(postgres_server, "judge_export")
    try:
        url = postgres_server.url(database=name)
        cards = fill_store(url, 300)
        out = tmp_path / "traits.parquet"
        assert (
            main(
                [
                    "export",
                    "scorecards",
                    "--format",
                    "parquet",
                    "--out",
                    str(out),
                    "--database-url",
                    url,
                ]
            )
            == 0
        )
        frame = pd.read_parquet(out)
        assert len(frame) == 300 * N_TRAITS and frame["run_id"].is_monotonic_increasing
        row = frame[(frame.run_id == "exp-0123") & (frame.trait == "negotiation")].iloc[0]
        assert row["mean"] == pytest.approx(
            cards["exp-0123"].seats["buyer"].traits["negotiation"].mean
        )
    finally:
        drop_database(postgres_server, name)


def test_the_help_says_what_each_export_writes(capsys: Any) -> None:
    with pytest.raises(SystemExit):
        main(["export", "--help"])

    text = " ".join(capsys.readouterr().out.split())
    assert "scorecards: one row per run x seat x trait (--table traits)" in text
    assert "labels: the owners' labels kept in the store, as a calibration set" in text
