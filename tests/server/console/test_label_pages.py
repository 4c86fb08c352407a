"""The console's labels (no browser): the label form on a run page with its CSRF check, the
labels shown beside the passes, a review decision that labels the safety block, the labelling
queue with why each item was picked, and the agreement page with its plot."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.engine.calibration.manifest import shared_data_dir
from tests.conftest import example as run_example
from tests.engine.calibration.owners_example import TRAIT, example, load_store
from tests.server.console.test_pages import ORIGIN, _csrf, owner_token, sign_in

RUN = "/console/runs/haggle-0007"


@pytest.fixture
def signed_in(client: TestClient) -> TestClient:
    assert sign_in(client, owner_token()).status_code == 303
    return client


def _post_label(client: TestClient, **data: str) -> Any:
    form = {"seat": "buyer", "trait": "negotiation", "score": "1.0", "note": "fair and calm"}
    return client.post(
        f"{RUN}/labels", data={**form, **data}, headers=ORIGIN, follow_redirects=False
    )


def test_the_label_form_shows_the_three_anchors_and_records_a_label(
    signed_in: TestClient, owner: dict[str, str], scored: Any
) -> None:
    scored(run_example("haggle"))
    page = signed_in.get(RUN).text

    posted = _post_label(signed_in, csrf=_csrf(page))
    shown = signed_in.get(RUN).text
    stored = signed_in.get("/api/evals/haggle-0007/labels", headers=owner).json()

    assert page.count('name="score" value="0.5"') == 12  # one form per scored trait
    assert posted.status_code == 303
    assert posted.headers["location"] == f"{RUN}#trait-buyer-negotiation"
    assert [(x["score"], x["note"], x["source"]) for x in stored] == [
        (1.0, "fair and calm", "console")
    ]
    assert "fair and calm" in shown and "by owner:ops" in shown


def test_one_label_shows_no_kappa_and_no_caption_for_a_band_the_plot_cannot_draw(
    signed_in: TestClient, scored: Any
) -> None:
    scored(run_example("haggle"))
    _post_label(signed_in, csrf=_csrf(signed_in.get(RUN).text))

    page = signed_in.get("/console/agreement").text
    row = page.split('data-trait="negotiation"')[1].split("</tr>")[0]
    cells = [c.split("<")[0] for c in row.split('<td class="n">')[1:]]

    assert (
        cells[0] == "1 / 1" and cells[4] == "\u2014"
    )  # items; QW kappa is undetermined at one label
    assert "the band the owners' own MAE" not in page  # nobody labelled an item twice


def test_a_label_form_without_its_csrf_token_or_off_the_anchors_is_refused(
    signed_in: TestClient, owner: dict[str, str], scored: Any
) -> None:
    scored(run_example("haggle"))
    csrf = _csrf(signed_in.get(RUN).text)

    missing = _post_label(signed_in)
    cross = signed_in.post(
        f"{RUN}/labels",
        data={"seat": "buyer", "trait": "negotiation", "score": "1.0", "csrf": csrf},
        headers={"Origin": "http://evil.example"},
    )
    off = _post_label(signed_in, csrf=csrf, score="0.7")

    assert (missing.status_code, cross.status_code, off.status_code) == (403, 403, 422)
    assert "score: choose one of the anchors 0, 0.5 or 1" in off.text
    assert signed_in.get("/api/evals/haggle-0007/labels", headers=owner).json() == []


def test_a_review_decision_with_a_label_labels_the_safety_block(
    signed_in: TestClient, owner: dict[str, str], scored: Any
) -> None:
    scored(run_example("haggle"))
    csrf = _csrf(signed_in.get(RUN).text)

    signed_in.post(
        f"{RUN}/review",
        data={"csrf": csrf, "decision": "escalated", "label": "0", "note": "unsafe reply"},
        headers=ORIGIN,
    )
    stored = signed_in.get("/api/evals/haggle-0007/labels", headers=owner).json()

    assert len(stored) == 4 and {(x["score"], x["source"]) for x in stored} == {
        (0.0, "safety_review")
    }
    assert "from a safety review" in signed_in.get(RUN).text


def test_the_queue_page_says_why_each_item_was_picked(signed_in: TestClient, scored: Any) -> None:
    for n in range(6):
        scored(run_example("haggle", run_id=f"q-{n}"))

    page = signed_in.get("/console/labels").text

    assert 'id="label-queue"' in page and "uniform sample" in page
    assert "Nothing to label" not in page


@pytest.fixture
def labelled(engine: Engine) -> None:
    if not (shared_data_dir() / "dices").is_dir():
        pytest.skip(f"shared data not found at {shared_data_dir()} (set JUDGE_SHARED_DATA)")
    load_store(engine, example())


def test_the_agreement_page_shows_the_live_figures_and_a_plot_with_axes(
    signed_in: TestClient, labelled: None
) -> None:
    page = signed_in.get("/console/agreement").text
    era = page.split('data-era="')[1].split('"')[0]
    svg = signed_in.get(f"/console/agreement/{era}/{TRAIT}.svg")

    assert "0.11 [-0.05, 0.30]" in page  # Spearman of the worked example (docs/calibration.md)
    assert "300 (120 twice+)" in page
    assert "the band the owners' own MAE" in page  # 120 items labelled twice draw the band
    assert svg.status_code == 200 and svg.headers["content-type"] == "image/svg+xml"
    for text in ("owners' mean label (0..1)", "judge mean of passes (0..1)", "ceiling 0.34"):
        assert text in svg.text
