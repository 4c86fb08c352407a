"""The worked example of docs/calibration.md: the live agreement with owners' labels (read
from the store on SQLite and PostgreSQL) equals `judge calibrate`'s figures on the same DICES
items and votes, to the last bit, and the page quotes those figures."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine

from judge.core.scoring.labelling import in_uniform_sample
from judge.engine.calibration.manifest import load_manifest
from judge.engine.calibration.report import ReportScope, build_report
from judge.engine.calibration.report_model import CalibrationReport
from judge.engine.settings import Settings
from judge.server.service.label_agreement import live_agreement
from judge.server.store.db import make_engine, transaction
from judge.tools.cli import main
from judge.tools.importers.registry import import_set
from tests.engine.calibration.owners_example import TRAIT, example, load_store

FIELDS = (
    "n_items",
    "n_judged",
    "judge",
    "ceiling",
    "alpha_humans",
    "alpha_humans_and_judge",
    "passes",
    "denoising",
    "points",
)
DOC = Path(__file__).resolve().parents[3] / "docs" / "calibration.md"


@pytest.fixture
def calibrated(dices_dir: Path) -> dict[str, Any]:
    found = example(dices_dir)
    report = build_report(
        found.items,
        found.manifest,
        found.passes,
        ReportScope([TRAIT], 1, "embedded/smollm2-135m-instruct", "the worked example"),
    )
    return report.traits[0].model_dump(include=set(FIELDS))


def test_the_live_agreement_equals_judge_calibrate_on_the_same_items(
    engine: Engine, settings: Settings, dices_dir: Path, calibrated: dict[str, Any]
) -> None:
    load_store(engine, example(dices_dir))

    with transaction(engine) as session:
        (live,) = live_agreement(session, settings=settings)

    assert live.agreement.model_dump(include=set(FIELDS)) == calibrated
    assert (live.trait, live.judge_model) == (TRAIT, "embedded/smollm2-135m-instruct")
    assert live.n_labels == 120 + 120 + 60 and live.n_labelled_twice == 120


@pytest.fixture
def sqlite_store(tmp_path: Path, sqlite_template: Path, dices_dir: Path) -> str:
    shutil.copy(sqlite_template, tmp_path / "judge.db")
    url = f"sqlite:///{tmp_path / 'judge.db'}"
    engine = make_engine(url)
    load_store(engine, example(dices_dir))
    engine.dispose()
    return url


def test_calibrate_from_store_writes_the_same_figures(
    sqlite_store: str, tmp_path: Path, calibrated: dict[str, Any]
) -> None:
    out = tmp_path / "report"

    code = main(["calibrate", "--from-store", "--database-url", sqlite_store, "--out", str(out)])

    (era,) = [p for p in out.iterdir() if p.is_dir()]
    report = CalibrationReport.model_validate_json((era / "report.json").read_text())
    assert code == 0 and era.name.startswith("era-")
    assert report.traits[0].model_dump(include=set(FIELDS)) == calibrated


def test_exported_labels_are_a_set_judge_calibrate_reads(
    sqlite_store: str, tmp_path: Path, calibrated: dict[str, Any]
) -> None:
    out = tmp_path / "owners"

    code = main(["export", "labels", "--database-url", sqlite_store, "--out", str(out)])
    manifest = load_manifest(out / "manifest.yaml")
    items = import_set(manifest, out)
    passes = example().passes
    report = build_report(
        items,
        manifest,
        passes,
        ReportScope([TRAIT], 1, "embedded/smollm2-135m-instruct", "re-read"),
    )

    assert code == 0 and manifest.importer == "labels" and len(items) == 120
    assert {lab.rater for i in items for lab in i.labels} == {
        "owner:ana",
        "owner:bo",
        "owner:cy",
    }
    assert report.traits[0].model_dump(include=set(FIELDS)) == calibrated


def test_exporting_without_labels_names_the_problem(
    tmp_path: Path, sqlite_template: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(sqlite_template, tmp_path / "judge.db")

    code = main(
        [
            "export",
            "labels",
            "--database-url",
            f"sqlite:///{tmp_path / 'judge.db'}",
            "--out",
            str(tmp_path / "o"),
        ]
    )

    assert code == 2 and "no owner has labelled a trait yet" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_the_docs_quote_the_worked_examples_figures(calibrated: dict[str, Any]) -> None:
    text = DOC.read_text(encoding="utf-8")
    judge, ceiling = calibrated["judge"], calibrated["ceiling"]
    spearman, kendall = judge["spearman"], judge["kendall_tau_b"]

    for line in (
        (
            f"| Spearman rho [95% bootstrap] | {spearman['value']:.3f} [{spearman['low']:.3f}, "
            f"{spearman['high']:.3f}] | {ceiling['spearman']:.3f} |"
        ),
        (
            f"| Kendall tau-b [95% bootstrap] | {kendall['value']:.3f} [{kendall['low']:.3f}, "
            f"{kendall['high']:.3f}] | {ceiling['kendall_tau_b']:.3f} |"
        ),
        (
            f"| quadratic-weighted kappa (3 anchors) | {judge['quadratic_weighted_kappa']:.3f} | "
            f"{ceiling['quadratic_weighted_kappa']:.3f} |"
        ),
        f"| MAE | {judge['mae']:.3f} | {ceiling['mae']:.3f} |",
        f"| bias (judge - owners) | {judge['bias']:.3f} | |",
    ):
        assert line in text
    alpha = calibrated["alpha_humans"]
    assert (
        f"{alpha['nominal']:.3f} nominal, {alpha['ordinal']:.3f} ordinal, "
        f"{alpha['interval']:.3f} interval" in text
    )


def test_the_weighted_error_weighs_each_item_by_its_inverse_chance_of_being_offered(
    engine: Engine, settings: Settings, dices_dir: Path
) -> None:
    found = example(dices_dir)
    load_store(engine, found)

    with transaction(engine) as session:
        (live,) = live_agreement(session, settings=settings)

    # one pass per item: an expected score within 0.1 of 0.5 is targeted (weight 1); any other
    # item counts only from the 5% uniform sample (weight 20), else not at all (weight 0)
    def weight(item_id: str) -> float:
        expected = found.passes[(item_id, "bot", TRAIT)][0].expected_score
        if expected is not None and abs(expected - 0.5) <= 0.1:
            return 1.0
        return 20.0 if in_uniform_sample(f"{item_id}\x1fbot\x1f{TRAIT}", 0.05) else 0.0

    weights = [weight(p.item_id) for p in live.agreement.points]
    errors = [p.judge - p.human for p in live.agreement.points]  # type: ignore[operator]
    total = sum(weights)
    assert {1.0, 20.0, 0.0} <= set(weights)
    assert live.weighted_mae == pytest.approx(
        sum(w * abs(e) for w, e in zip(weights, errors, strict=True)) / total
    )
    assert live.weighted_bias == pytest.approx(
        sum(w * e for w, e in zip(weights, errors, strict=True)) / total
    )
