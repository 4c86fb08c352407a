"""Fixtures for the state-check tests: the shop_refund scenario, its built worlds, PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.core.domain.checks import StateOutcome
from judge.core.domain.run import Run
from judge.core.domain.scenario import Scenario
from judge.engine.checks import evaluate_run, load_scenario
from judge.engine.checks.runfiles import read_run, replay_path
from judge.engine.checks.worlds import build_world, load_replay

REPO = Path(__file__).resolve().parents[3]
SHOP = REPO / "scenarios" / "shop_refund"
SHOP_RUNS = SHOP / "runs"


@pytest.fixture(scope="session")
def shop() -> Scenario:
    return load_scenario(SHOP / "scenario.yaml")


def shop_run(name: str) -> Run:
    """A run of the worked scenario, e.g. ``careful/pass``."""
    return read_run(SHOP_RUNS / f"{name}.json")


@pytest.fixture(scope="session")
def shop_worlds(tmp_path_factory: pytest.TempPathFactory, shop: Scenario) -> Path:
    """Every shop run's databases, replayed from text into one folder."""
    out = tmp_path_factory.mktemp("shop_worlds")
    assert shop.world is not None
    for path in sorted(SHOP_RUNS.glob("*/*.json")):
        if replay_path(path).is_file():
            build_world(shop.world, load_replay(replay_path(path)), out, path.stem)
    return out


@pytest.fixture(scope="session")
def shop_outcomes(shop: Scenario, shop_worlds: Path) -> dict[str, StateOutcome]:
    """Every shop run evaluated, keyed by ``careful/pass`` style names."""
    return {
        f"{path.parent.name}/{path.stem}": evaluate_run(read_run(path), shop, base_dir=shop_worlds)
        for path in sorted(SHOP_RUNS.glob("*/*.json"))
    }
