"""The run page shows the judge's signal to owners: per trait the sampled and expected means,
the within-pass entropy and the fallback note; the card's pass score, unparseable rates and
reply formats; a panel's judges' means and Krippendorff's alpha. Agent keys see none of the
owner-only parts."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.core.domain.config import MeasurementSettings
from judge.core.domain.judging import JudgePass, ReplyFormat
from judge.core.domain.scorecard import Scorecard
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions, assemble_scorecard
from judge.server.service.intake import canonical_body
from judge.server.store.bulk import PrescoredRun, insert_scored_runs
from judge.server.store.db import transaction
from tests.server.console.test_pages import owner_token, sign_in
from tests.signal_cards import B_SCORES, signal_card, signal_run

RUN = "signal-0001"
SAFETY = (
    "no_unauthorized_disclosure_conduct",
    "manipulation_resistance",
    "harmful_compliance_refusal",
    "policy_adherence_under_pressure",
)


def store(engine: Engine, card: Scorecard) -> Scorecard:
    run = signal_run(card.run_id)
    body = canonical_body(run)
    with transaction(engine) as session:
        insert_scored_runs(
            session, items=[PrescoredRun(run, body.text, body.sha256, card, "platform")]
        )
    return card


@pytest.fixture
def card(engine: Engine) -> Scorecard:
    """The hand-made panel card of tests/signal_cards.py, stored with its run."""
    return store(engine, signal_card(signal_run(RUN)))


def formats_card(run_id: str, format_of: Callable[[str], ReplyFormat]) -> Scorecard:
    """One judge's card of the haggle example, every trait's five passes sent in
    ``format_of(trait)`` (as a backend records it)."""
    run = signal_run(run_id)
    rubrics = default_rubric_set()
    passes = [
        JudgePass(
            trait=trait,
            index=i,
            score=0.6,
            model="judge-a",
            parse_status="ok",
            reply_format=format_of(trait),
            structured_output=format_of(trait) != "none",
        )
        for trait in rubrics.rubrics
        for i in range(5)
    ]
    options = ScoringOptions(judge_model="judge-a", settings=MeasurementSettings())
    return assemble_scorecard(run, {"buyer": passes}, rubrics, options)


def section(html: str, element_id: str, tag: str) -> str:
    """The HTML of one element, from its opening tag to its closing tag."""
    start = html.index(f'id="{element_id}"')
    return html[start : html.index(f"</{tag}>", start)]


@pytest.fixture
def page(client: TestClient, card: Scorecard) -> str:
    assert sign_in(client, owner_token()).status_code == 303
    answer = client.get(f"/console/runs/{RUN}")
    assert answer.status_code == 200
    return answer.text


def test_each_trait_shows_its_sampled_and_expected_means_entropy_and_note(page: str) -> None:
    integrity = section(page, "trait-buyer-integrity", "details")
    summary = integrity[: integrity.index("</summary>")]

    # judge-a wrote 0.7 five times, judge-b 0.5 four times: (3.5 + 2.0) / 9 = 0.611
    assert "sampled mean <strong>0.611</strong>" in summary
    assert "expected mean <strong>0.685</strong>" in summary
    assert "entropy 1.87 bits" in summary and "5/9 with a distribution" in summary
    assert "mean <strong>0.59</strong>" in summary  # the panel mean (0.685 + 0.5) / 2
    assert (
        '<p class="note score-note">4 of 9 passes had no token log-probabilities and count with '
        "the sampled score</p>" in integrity
    )
    assert "pass 1 · judge-a" in integrity and "wrote 0.70, expected 0.685, 1.87 bits" in integrity
    assert "pass 10 · judge-b · unparseable" in integrity
    safety = section(page, "trait-buyer-manipulation_resistance", "details")
    assert "sampled mean <strong>0.700</strong>" in safety  # both judges wrote 0.7 there


def test_the_card_shows_its_pass_score_and_each_judges_unparseable_rate(page: str) -> None:
    line = section(page, "judge-signal", "p")

    assert "pass score <strong>expected</strong>" in line
    assert "judge-a: 0/60 unparseable (0.0%), schema enforced on 60" in line
    assert "judge-b: 1/60 unparseable (1.7%), schema enforced on 0" in line


def test_a_panel_gets_a_table_of_each_judges_means_and_its_alpha(
    page: str, card: Scorecard
) -> None:
    panel = section(page, "panel-buyer", "section")
    agreement = card.seats["buyer"].panel
    assert agreement is not None and agreement.alpha_interval is not None

    # the statistic itself is tested on hand-made tables in tests/core/scoring/test_signal.py
    alpha = f"{agreement.alpha_interval:.3f}"
    assert f"Krippendorff's alpha (interval) <strong>{alpha}</strong> over 12 traits" in panel
    # widest split: tactical reasoning, judge-a 0.685 against judge-b 0.2
    assert (
        "largest disagreement <strong>tactical reasoning</strong> (0.485: judge-a 0.685, "
        "judge-b 0.200)" in panel
    )
    rows = re.findall(r"<tr><td>([a-z ]+)(?: <small>safety</small>)?</td>(.*?)</tr>", panel)
    cells = {name: re.findall(r'<td class="n">([^<]+)</td>', rest) for name, rest in rows}
    assert len(cells) == 12
    assert cells["integrity"] == ["0.685", "0.500", "0.593"]
    assert cells["negotiation"][:2] == ["0.685", f"{B_SCORES['negotiation']:.3f}"]
    assert "manipulation resistance <small>safety</small>" in panel


def test_a_single_judge_without_distributions_shows_no_panel_and_says_it_fell_back(
    client: TestClient, scored: Any
) -> None:
    scored(signal_run("plain-1").model_dump(mode="json"))
    assert sign_in(client, owner_token()).status_code == 303

    page = client.get("/console/runs/plain-1").text

    assert 'id="panel-buyer"' not in page and "pass score <strong>sampled</strong>" in page
    assert "scripted-test-judge: 0/60 unparseable (0.0%), schema enforced on 0" in page
    negotiation = section(page, "trait-buyer-negotiation", "details")
    assert "sampled mean <strong>0.700</strong> · expected mean <strong>—</strong>" in negotiation
    assert "the judge gave no token log-probabilities" in negotiation


def test_an_agent_key_sees_no_panel_parse_rates_or_safety_trait_anywhere(
    client: TestClient, card: Scorecard, agent_key: Any
) -> None:
    alpha = agent_key("agent-alpha", "buyer")

    console = client.get(f"/console/runs/{RUN}", headers=alpha)
    scorecard = client.get(f"/api/agent/runs/{RUN}/scorecard", headers=alpha)
    status = client.get(f"/api/agent/runs/{RUN}", headers=alpha)

    assert console.status_code == 401 and "0.685" not in console.text
    assert scorecard.status_code == status.status_code == 200
    for answer in (scorecard, status):
        for owner_only in ("panel", "alpha_interval", "largest_disagreement", "judge_parse"):
            assert owner_only not in answer.text, owner_only
        for trait in SAFETY:
            assert trait not in answer.text, trait
    seat = scorecard.json()["seat"]
    assert set(seat["traits"]) == set(B_SCORES) - set(SAFETY)
    # the agent's own capability traits keep their signal
    assert seat["traits"]["integrity"]["expected_mean"] == pytest.approx(0.685)


def owner_page(client: TestClient, run_id: str) -> str:
    assert sign_in(client, owner_token()).status_code == 303
    answer = client.get(f"/console/runs/{run_id}")
    assert answer.status_code == 200
    return answer.text


def test_the_card_says_its_one_reply_format_once(client: TestClient, engine: Engine) -> None:
    store(engine, formats_card("formats-1", lambda trait: "json_schema"))

    page = owner_page(client, "formats-1")

    line = section(page, "judge-signal", "p")
    assert "judge-a: 0/60 unparseable (0.0%), schema enforced on 60" in line
    assert "reply format <strong>json_schema</strong>" in line and "by trait" not in line
    assert 'class="reply-format"' not in page  # no trait repeats it


def test_traits_sent_differently_each_show_their_reply_format(
    client: TestClient, engine: Engine, agent_key: Any
) -> None:
    store(engine, formats_card("formats-2", lambda t: "none" if t == "cooperation" else "grammar"))

    page = owner_page(client, "formats-2")

    line = section(page, "judge-signal", "p")
    assert "reply format <strong>grammar 55, none 5</strong> (by trait below)" in line
    summaries = {
        trait: section(page, f"trait-buyer-{trait}", "summary")
        for trait in ("cooperation", "negotiation", "manipulation_resistance")
    }
    assert '<span class="reply-format">reply format none</span>' in summaries["cooperation"]
    assert '<span class="reply-format">reply format grammar</span>' in summaries["negotiation"]
    assert "reply format grammar" in summaries["manipulation_resistance"]  # safety block too
    assert page.count('class="reply-format"') == 12
    # the agent's card gains nothing: no counts per format, as before no judge_parse
    alpha = agent_key("agent-alpha", "buyer")
    agent = client.get("/api/agent/runs/formats-2/scorecard", headers=alpha)
    assert agent.status_code == 200
    assert "reply_formats" not in agent.text and "judge_parse" not in agent.text


def test_passes_that_recorded_no_format_say_so(page: str) -> None:
    # the panel card's passes recorded none (as a scripted judge's): both judges say so alike
    assert "reply format <strong>not recorded</strong>" in section(page, "judge-signal", "p")
