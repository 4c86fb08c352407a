from pathlib import Path

import pytest

from judge.engine.checks import find_scenario
from judge.engine.checks.errors import ScenarioFormatError

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios"


def test_a_scenario_is_found_by_its_id() -> None:
    scenario = find_scenario("shop-refund", SCENARIOS)
    assert scenario is not None and scenario.scenario_id == "shop-refund"


def test_an_unknown_id_is_none() -> None:
    assert find_scenario("market-haggle", SCENARIOS) is None


def test_a_broken_scenario_file_is_an_error_not_a_miss(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "scenario.yaml").write_text("scenario_id: x\nchecks: [oops]\n")
    with pytest.raises(ScenarioFormatError):
        find_scenario("x", tmp_path)
