"""The calibration report on CaSiNo, where each label has one rater per item."""

from __future__ import annotations

import asyncio
import json

import pytest

from judge.core.domain.config import DenoiseConfig, MeasurementSettings
from judge.engine.calibration.items import CalibrationItem
from judge.engine.calibration.manifest import CalibrationManifest
from judge.engine.calibration.render import render_html, render_markdown
from judge.engine.calibration.report import ReportScope, build_report
from judge.engine.calibration.report_model import CalibrationReport
from judge.engine.calibration.runner import PassStore, judge_items
from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions


def first_seat_wins(request: JudgeRequest) -> str:
    """Scores the seat that speaks first (the prompt's "Seat A") at 0.75 and the other at
    0.25, whatever happened."""
    first = 'Participant to score: \\"Seat A\\"' in json.dumps(request.messages)
    return json.dumps({"score": 0.75 if first else 0.25, "turns": [], "rationale": "position"})


@pytest.fixture(scope="module")
def report(
    casino_items: list[CalibrationItem],
    casino_manifest: CalibrationManifest,
    tmp_path_factory: pytest.TempPathFactory,
) -> CalibrationReport:
    items = casino_items[:10]
    options = ScoringOptions(
        judge_model="scripted",
        settings=MeasurementSettings(denoise=DenoiseConfig(n_runs=2, min_n_runs=2)),
    )
    store = PassStore(tmp_path_factory.mktemp("casino") / "passes.jsonl", "scripted")
    passes = asyncio.run(
        judge_items(
            items,
            rubrics=default_rubric_set().select(["negotiation"]),
            options=options,
            backend=ScriptedBackend(first_seat_wins),
            store=store,
        )
    )
    return build_report(
        items,
        casino_manifest,
        passes,
        ReportScope(["negotiation"], 2, "scripted", "first 10"),
    )


def test_one_rater_per_item_means_no_human_ceiling(report: CalibrationReport) -> None:
    trait = report.traits[0]
    assert (trait.trait, trait.label, trait.n_items) == ("negotiation", "satisfaction", 20)
    assert trait.ceiling.measurable is False and trait.ceiling.spearman is None
    assert trait.alpha_humans.ordinal is None  # nothing to pair within an item


def test_the_judge_joins_the_single_rater_in_alpha(report: CalibrationReport) -> None:
    assert report.traits[0].alpha_humans_and_judge.ordinal is not None


def test_identical_passes_are_counted_and_give_no_denoising_gain(report: CalibrationReport) -> None:
    trait = report.traits[0]
    assert (trait.passes.items_identical, trait.passes.items, trait.passes.mean_sd) == (20, 20, 0.0)
    assert trait.denoising.gain == pytest.approx(0.0)


def test_no_model_baseline_reads_the_seats_points(report: CalibrationReport) -> None:
    assert report.traits[0].objective_baseline_spearman is not None


def test_report_renders_with_the_ceiling_marked_not_measurable(report: CalibrationReport) -> None:
    markdown = render_markdown(report)
    assert "| Spearman rho [95% bootstrap] |" in markdown and "not measurable" in markdown
    assert "Chawla" in markdown  # the set is cited
    assert render_html(report).count("<svg") == 2  # scatter and pass spread, drawn by matplotlib


def test_bias_is_judge_minus_humans(
    report: CalibrationReport, casino_items: list[CalibrationItem]
) -> None:
    human = [
        lab.score for i in casino_items[:10] for lab in i.labels if lab.label == "satisfaction"
    ]
    assert report.traits[0].judge.bias == pytest.approx(0.5 - sum(human) / len(human))
