"""Cost in the console (docs/service.md, "Cost and budgets"): the run page shows what judging
cost beside its estimate, and the runs table has a cost column that sorts dearest first
(runs without a price last), paged by a cursor."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.core.domain.cost import Cost, CostEstimate
from judge.core.domain.scorecard import Scorecard
from tests.conftest import example
from tests.server.console.test_pages import _bulk, _ids, owner_token, sign_in
from tests.server.console.test_pairwise_page import judge, judged, page

__all__ = ["judge", "judged"]  # fixtures of the compare page, used below


@pytest.fixture
def signed_in(client: TestClient) -> TestClient:
    assert sign_in(client, owner_token()).status_code == 303
    return client


def priced(usd: float | None) -> Cost:
    estimate = CostEstimate(n_passes=60, prompt_tokens=9000, completion_tokens=9600, cost_usd=0.02)
    return Cost(
        n_passes=60,
        n_attempts=60,
        prompt_tokens=6000,
        cached_prompt_tokens=3000,
        completion_tokens=600,
        cost_usd=usd,
        cost_note=None if usd is not None else "no price for 60 of 60 passes (m)",
        wall_s=12.5,
        estimate=estimate,
    )


def stored_card(client: TestClient, owner: dict[str, str], scored: Any) -> Scorecard:
    scored(example("haggle"))
    stored = client.get("/api/evals/haggle-0007/scorecard", headers=owner).json()
    return Scorecard.model_validate({k: v for k, v in stored.items() if k != "safety_review"})


def test_the_runs_table_sorts_by_cost_dearest_first_and_pages_on(
    signed_in: TestClient, owner: dict[str, str], scored: Any, engine: Engine
) -> None:
    card = stored_card(signed_in, owner, scored)  # the scripted judge: no price
    for n in range(55):
        dear = card.model_copy(update={"cost": priced(0.001 * (n + 1))})
        _bulk(engine, 1, agent="agent-beta", scenario="s", card=dear, prefix=f"p{n:02d}")
    first = signed_in.get("/console/runs?sort=cost")
    link = re.search(r'id="next-page" href="([^"]+)"', first.text)
    assert link is not None and "sort=cost" in link.group(1)
    second = signed_in.get(link.group(1).replace("&amp;", "&"))
    ids = _ids(first.text) + _ids(second.text)
    assert ids == [f"p{n:02d}-000" for n in reversed(range(55))] + ["haggle-0007"]
    assert ">$0.0550</td>" in first.text and "—</td>" in second.text


def test_the_runs_table_offers_the_cost_order_keeping_its_filters(signed_in: TestClient) -> None:
    html = signed_in.get("/console/runs?agent=agent-beta").text
    assert 'id="sort-cost" href="/console/runs?agent=agent-beta&amp;sort=cost"' in html


def test_a_bad_cost_cursor_names_the_parameter(signed_in: TestClient) -> None:
    response = signed_in.get("/console/runs?sort=cost&after=bm90LWEtY3Vyc29y")
    assert response.status_code == 422 and "after" in response.text


def test_the_run_page_shows_the_cost_beside_the_estimate(
    signed_in: TestClient, owner: dict[str, str], scored: Any, engine: Engine
) -> None:
    card = stored_card(signed_in, owner, scored)
    _bulk(
        engine,
        1,
        agent="a",
        scenario="s",
        card=card.model_copy(update={"cost": priced(0.015)}),
        prefix="c",
    )
    html = signed_in.get("/console/runs/c-000").text
    line = re.search(r'<p class="meta" id="run-cost">(.*?)</p>', html, re.DOTALL)
    assert line is not None
    text = " ".join(line.group(1).split())
    assert "cost <strong>$0.0150</strong>" in text
    assert "tokens in 6000 (3000 cached), out 600" in text
    assert "estimate at most 18600 tokens, $0.0200" in text


def test_an_unpriced_run_says_so_with_its_note_never_zero(
    signed_in: TestClient, owner: dict[str, str], scored: Any, engine: Engine
) -> None:
    card = stored_card(signed_in, owner, scored)
    _bulk(
        engine,
        1,
        agent="a",
        scenario="s",
        card=card.model_copy(update={"cost": priced(None)}),
        prefix="u",
    )
    html = signed_in.get("/console/runs/u-000").text
    assert "cost <strong>price unknown</strong>" in html and "no price for 60 of 60 passes" in html
    assert "$0.0000" not in html


def test_the_compare_page_shows_what_the_pairwise_calls_cost(judged: TestClient) -> None:
    html = page(judged, "negotiation")
    line = re.search(r'<p class="meta" id="pairwise-cost">(.*?)</p>', html, re.DOTALL)
    assert line is not None
    # the scripted test judge reports no price and no tokens: unknown, never $0
    assert "cost <strong>price unknown</strong> · 10 passes" in line.group(1)


def test_a_run_of_one_pass_says_1_pass(
    signed_in: TestClient, owner: dict[str, str], scored: Any, engine: Engine
) -> None:
    card = stored_card(signed_in, owner, scored)
    one = priced(0.001).model_copy(update={"n_passes": 1, "n_attempts": 1})
    _bulk(
        engine, 1, agent="a", scenario="s", card=card.model_copy(update={"cost": one}), prefix="o"
    )
    html = signed_in.get("/console/runs/o-000").text
    line = re.search(r'<p class="meta" id="run-cost">(.*?)</p>', html, re.DOTALL)
    assert line is not None and " · 1 pass · tokens in" in line.group(1)
    assert "1 passes" not in html
