"""Figures leave the service rounded to 12 significant digits; the store keeps them whole
(docs/scoring.md#precision)."""

from __future__ import annotations

import io

from judge.core.domain.rows import Row
from judge.core.scoring.figures import round_figure
from judge.server.store import scorecards as scorecard_repo
from judge.server.store.db import transaction
from judge.tools.tabular import write_csv
from tests.factories import run, scorecard, seat
from tests.scripted_service import Service

NOISY = 0.1 + 0.2  # 0.30000000000000004


def test_round_figure_drops_float_noise_and_keeps_small_values() -> None:
    assert round_figure(NOISY) == 0.3
    assert round_figure(0.7000000000000001) == 0.7
    assert round_figure(1.234567e-05) == 1.234567e-05
    assert round_figure(2 / 3) == 0.666666666667


def test_the_api_answers_rounded_figures_and_the_store_keeps_them_whole(svc: Service) -> None:
    card = scorecard("noisy-1", seat(composite=NOISY), era_id=svc.current_era_id())
    svc.store_scored(run("noisy-1"), card)

    answer = svc.client.get("/api/evals/noisy-1/scorecard", headers=svc.owner)
    with transaction(svc.engine) as session:
        stored = scorecard_repo.get_scorecard(session, run_id="noisy-1")

    assert answer.json()["seats"]["buyer"]["composite"] == 0.3
    assert "0.30000000000000004" not in answer.text
    assert stored is not None and stored.seats["buyer"].composite == NOISY


def test_a_csv_export_writes_rounded_figures() -> None:
    out = io.StringIO()
    rows: list[Row] = [{"run_id": "noisy-1", "composite": NOISY}]

    write_csv(rows, ["run_id", "composite"], out)

    assert out.getvalue() == "run_id,composite\nnoisy-1,0.3\n"
