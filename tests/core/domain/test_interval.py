"""The one interval type: what it writes, and that every committed report still reads and
writes back unchanged."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from judge.core.domain.interval import Interval
from judge.core.scoring import agreement as ag
from judge.core.scoring.pairwise import wilson
from judge.engine.calibration.defence import DefenceComparison
from judge.engine.calibration.modes import ModeComparison
from judge.engine.calibration.report_model import CalibrationReport
from judge.tools.audit.report import AuditReport

REPORTS = Path(__file__).resolve().parents[3] / "reports"


def test_the_estimate_is_value_on_the_wire_with_the_count_when_stated() -> None:
    interval = Interval(estimate=0.5, low=0.25, high=0.75, n=12)
    assert interval.model_dump(mode="json") == {"value": 0.5, "low": 0.25, "high": 0.75, "n": 12}


def test_an_interval_without_a_count_or_method_writes_neither() -> None:
    interval = Interval(estimate=None, low=None, high=None)
    assert json.loads(interval.model_dump_json()) == {"value": None, "low": None, "high": None}


def test_a_wilson_interval_writes_its_bounds_and_method_but_no_estimate() -> None:
    interval = wilson(3, 10)
    assert interval is not None
    assert set(interval.model_dump(mode="json")) == {"low", "high", "method"}
    assert interval.method == "wilson 95%" and interval.level == 0.95


def test_bare_drops_the_count_and_keeps_the_bounds() -> None:
    full = ag.bootstrap_interval(ag.spearman, [1, 2, 3, 4, 5], [1, 3, 2, 5, 4], seed=1)
    assert full.n == 5
    bare = full.bare()
    assert (bare.estimate, bare.low, bare.high) == (full.estimate, full.low, full.high)
    assert "n" not in bare.model_dump()


def test_an_unknown_field_is_refused() -> None:
    with pytest.raises(ValidationError, match="extra"):
        Interval.model_validate({"value": 0.1, "low": 0.0, "high": 0.2, "width": 0.2})


def _model_of(path: Path) -> type[BaseModel] | None:
    if path.relative_to(REPORTS).parts[0] == "audit":
        return AuditReport
    return {
        "modes.json": ModeComparison,
        "defence.json": DefenceComparison,
        "report.json": CalibrationReport,
    }.get(path.name)


@pytest.mark.parametrize(
    "path",
    [p for p in sorted(REPORTS.rglob("*.json")) if _model_of(p) is not None],
    ids=lambda p: str(p.relative_to(REPORTS)),
)
def test_a_committed_report_reads_and_writes_back_unchanged(path: Path) -> None:
    model = _model_of(path)
    assert model is not None
    raw = json.loads(path.read_text(encoding="utf-8"))
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        again = model.model_validate(raw).model_dump(mode="json", exclude_unset=True)
    assert again == raw


@pytest.mark.parametrize(
    ("low", "high", "words"),
    [
        (0.1, 0.3, "up (interval above 0)"),
        (-0.3, -0.1, "down (interval below 0)"),
        (-0.1, 0.1, "no measurable difference (interval includes 0)"),
        (None, None, "not measurable"),
    ],
)
def test_a_difference_reads_by_where_its_interval_lies_against_zero(
    low: float | None, high: float | None, words: str
) -> None:
    interval = Interval(estimate=0.0, low=low, high=high)
    assert interval.difference_reading(above="up", below="down") == words
