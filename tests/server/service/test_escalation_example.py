"""The committed escalation report on the DICES worked example is what the code computes today
(skipped where the shared DICES data is not present)."""

from __future__ import annotations

import pytest

from judge.engine.calibration.manifest import shared_data_dir
from tests.server.service.escalation_example import REPORT, report


def test_the_committed_report_is_what_the_code_computes() -> None:
    if not (shared_data_dir() / "dices").is_dir():
        pytest.skip(f"shared data not found at {shared_data_dir()} (set JUDGE_SHARED_DATA)")

    assert report() == REPORT.read_text()
