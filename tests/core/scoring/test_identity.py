"""What names a run on every result about it: id, scenario, seed, adversary config."""

from __future__ import annotations

from judge.core.domain.comparison import UnpairedRun
from judge.core.scoring.identity import run_identity
from tests.helpers import example


def test_a_run_is_named_by_its_id_scenario_seed_and_adversary_config() -> None:
    assert run_identity(example("haggle.json")) == {
        "run_id": "haggle-0007",
        "scenario_id": "market-haggle",
        "seed": 42,
        "adversary_config": "hardball-v2",
    }


def test_a_result_built_from_the_identity_names_the_same_run() -> None:
    run = example("haggle.json").model_copy(update={"seed": None, "adversary_config": None})
    unpaired = UnpairedRun(side="a", **run_identity(run), reason="no seed")
    assert (unpaired.run_id, unpaired.seed, unpaired.adversary_config) == (
        "haggle-0007",
        None,
        None,
    )
