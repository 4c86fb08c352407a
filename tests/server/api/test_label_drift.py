"""Drift between eras, on SQLite and PostgreSQL: the worked example's runs judged again in a
new era by a judge that reads safety backwards; on the items labelled in both eras its
agreement with the owners falls below the old era's interval, and the agreement API, the
console page and ``/metrics`` all say so."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.engine.calibration.manifest import shared_data_dir
from judge.server.store import eras as era_repo
from judge.server.store.db import transaction
from judge.server.store.review_tables import ScorecardAttemptRow
from judge.server.store.tables import ScorecardRow
from tests.engine.calibration.owners_example import TRAIT, card_of, example, load_store

BACKWARDS = "scripted-backwards-judge"


def rejudge_backwards(engine: Engine, items: int) -> str:
    """Keep each run's card as attempt 1 and store a new-era card whose pass is 1 - score."""
    found = example()
    era = ""
    with transaction(engine) as session:
        for item in found.items[:items]:
            old = found.passes[(item.item_id, "bot", TRAIT)][0]
            flipped = old.model_copy(update={"score": 1 - old.score, "model": BACKWARDS})
            card = card_of(item, flipped, judge_model=BACKWARDS).card
            row = session.get(ScorecardRow, item.item_id)
            assert row is not None
            session.add(
                ScorecardAttemptRow(
                    run_id=row.run_id,
                    attempt=1,
                    scorecard_json=row.scorecard_json,
                    measurement_era=row.measurement_era,
                    archived_by="owner:ops",
                )
            )
            row.scorecard_json, row.measurement_era = (
                card.model_dump_json(),
                card.measurement_era.era_id,
            )
            session.add(row)
            era = card.measurement_era.era_id
        session.flush()
        era_repo.open_era(
            session, era=card.measurement_era, opened_by="owner:ops", reason="new judge"
        )
    return era


@pytest.fixture
def drifted(engine: Engine) -> str:
    if not (shared_data_dir() / "dices").is_dir():
        pytest.skip(f"shared data not found at {shared_data_dir()} (set JUDGE_SHARED_DATA)")
    load_store(engine, example())
    return rejudge_backwards(engine, items=120)


def test_a_new_era_that_reads_people_backwards_is_reported_as_dropped(
    client: TestClient, owner: dict[str, str], drifted: str
) -> None:
    (found,) = client.get("/api/evals/labels/drift", headers=owner).json()
    eras = {a["era_id"]: a for a in client.get("/api/evals/labels/agreement", headers=owner).json()}

    assert found["era_id"] == drifted and found["n_items"] == 120 and found["dropped"] is True
    assert found["spearman"]["value"] == pytest.approx(-found["previous_spearman"]["value"])
    assert found["spearman"]["value"] < found["previous_spearman"]["low"]
    assert eras[drifted]["judge_model"] == BACKWARDS
    assert eras[drifted]["agreement"]["n_items"] == 120 and len(eras) == 2


def test_metrics_and_the_console_say_the_era_dropped(
    client: TestClient, owner: dict[str, str], drifted: str
) -> None:
    text = client.get("/metrics", headers=owner).text

    line = re.search(rf'judge_label_drift_dropped\{{[^}}]*era="{drifted}"[^}}]*\}} (\S+)', text)
    assert line is not None and float(line.group(1)) == 1.0
    assert f'judge_label_drift_spearman{{era="{drifted}"' in text or 'side="now"' in text


def test_a_scrape_with_nothing_new_bootstraps_nothing(
    client: TestClient, owner: dict[str, str], drifted: str
) -> None:
    from judge.engine.calibration.owners_cache import AGREEMENTS

    AGREEMENTS.clear()
    first = client.get("/metrics", headers=owner).text
    computed = AGREEMENTS.computed
    second = client.get("/metrics", headers=owner).text

    assert computed >= 2  # both eras, computed on the first scrape
    assert AGREEMENTS.computed == computed  # the second scrape read them back
    drift = [line for line in first.splitlines() if line.startswith("judge_label_drift")]
    assert drift and drift == [
        line for line in second.splitlines() if line.startswith("judge_label_drift")
    ]
