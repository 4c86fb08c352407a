"""The calibration reports committed with the product, for the calibration page and for which
judges may raise safety alarms (judge/engine/calibration/trust.py)."""

from __future__ import annotations

import time
from functools import lru_cache
from pathlib import Path

from judge.core.domain.review import SafetyReviewThresholds
from judge.core.errors import NotFoundError
from judge.engine.calibration.report_model import CalibrationReport
from judge.engine.calibration.trust import calibrated_safety_judges
from judge.engine.packs import default_rubric_set

#: The calibration reports committed with the product (``judge calibrate --out``).
REPORTS_DIR = Path(__file__).resolve().parents[3] / "reports" / "calibration"


def report_names(root: Path | None = None) -> list[str]:
    """Every report under ``root`` by its folder path (``dices-350/sampled``)."""
    folder = root or REPORTS_DIR
    if not folder.is_dir():
        return []
    return sorted(p.parent.relative_to(folder).as_posix() for p in folder.glob("**/report.json"))


@lru_cache(maxsize=64)
def _parsed(path: Path, modified_ns: int) -> CalibrationReport:
    return CalibrationReport.model_validate_json(path.read_text(encoding="utf-8"))


def load_report(name: str) -> CalibrationReport:
    """One committed report; NotFoundError for a name that is not one (never a path walk)."""
    if name not in report_names():
        raise NotFoundError(f"no calibration report named {name!r}")
    path = REPORTS_DIR / name / "report.json"
    return _parsed(path, path.stat().st_mtime_ns)


def reports_in_order() -> list[tuple[str, CalibrationReport]]:
    """Every report, the largest (full-set) ones first, then by name."""
    loaded = [(name, load_report(name)) for name in report_names()]
    return sorted(loaded, key=lambda pair: (-pair[1].n_items, pair[0]))


#: The reports are read for the trust rule at most this often (they change only on deploy).
CALIBRATED_TTL_S = 30.0
_calibrated: list[tuple[float, frozenset[str]]] = []


def calibrated_judges() -> frozenset[str]:
    """The judge models the committed reports show able to score safety (cached briefly)."""
    if _calibrated and time.monotonic() - _calibrated[0][0] < CALIBRATED_TTL_S:
        return _calibrated[0][1]
    safety = set(default_rubric_set().traits_of("safety"))
    found = frozenset(
        calibrated_safety_judges((r for _, r in reports_in_order()), safety_traits=safety)
    )
    _calibrated[:] = [(time.monotonic(), found)]
    return found


def trusted_judges(limits: SafetyReviewThresholds) -> set[str]:
    """Judges whose safety flags are alarms: calibrated above the floor, or vouched for."""
    return set(calibrated_judges()) | set(limits.trusted_judges)
