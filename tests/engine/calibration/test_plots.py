"""Calibration plots are drawn by matplotlib as SVG with axes, ticks and labels, in the HTML
report and (served apart) in the console; without matplotlib the report says how to add them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from judge.engine.calibration import plots
from judge.engine.calibration.render import render_html
from judge.engine.calibration.report_model import CalibrationReport

REPORTS = Path(__file__).resolve().parents[3] / "reports" / "calibration"


@pytest.fixture
def casino() -> CalibrationReport:
    return CalibrationReport.model_validate_json((REPORTS / "casino" / "report.json").read_text())


def test_the_scatter_has_one_panel_per_trait_with_labelled_axes(casino: CalibrationReport) -> None:
    svg = plots.scatter_svg(casino).decode()

    assert svg.count("human mean (0..1)") == 2 and svg.count("judge mean of passes (0..1)") == 1
    assert "negotiation (n=10)" in svg and "cooperation (n=10)" in svg
    assert 'id="xtick_1"' in svg and 'id="ytick_1"' in svg


def test_the_jitter_is_seeded_so_the_same_report_draws_the_same_plot(
    casino: CalibrationReport,
) -> None:
    assert plots.scatter_svg(casino) == plots.scatter_svg(casino)
    assert plots.spread_svg(casino) == plots.spread_svg(casino)


def test_the_html_report_inlines_both_plots_per_trait(casino: CalibrationReport) -> None:
    page = render_html(casino)

    assert page.count("<svg") == 4 and "<?xml" not in page
    assert page.count("pass score SD per item (n-1)") == 2


def test_without_matplotlib_the_report_says_how_to_get_its_plots(
    casino: CalibrationReport, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)

    page = render_html(casino)

    assert (
        "<svg" not in page
        and "pip install &#39;judge[console]&#39;" in page
        and "Spearman rho" in page
    )
