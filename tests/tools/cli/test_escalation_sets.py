"""The committed escalation reports on the calibration sets are what the code computes today
from the committed pass stores and the shared data (skipped where the data is not present)."""

from __future__ import annotations

import pytest

from judge.engine.calibration.manifest import load_manifest, shared_data_dir
from tests.tools.cli.escalation_sets import REPORTS, report, report_path


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_the_committed_report_is_what_the_code_computes(name: str) -> None:
    folder = shared_data_dir() / load_manifest(REPORTS[name].set_name).local_folder
    if not folder.is_dir():
        pytest.skip(f"shared data not found at {folder} (set JUDGE_SHARED_DATA)")

    assert report(name) == report_path(name).read_text()


def test_each_report_reads_the_committed_pass_store_of_its_set() -> None:
    for name, found in REPORTS.items():
        assert found.passes.is_file() and found.passes.parent.name == name
