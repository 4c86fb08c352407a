"""The console over HTTP (no browser): sign-in, the CSRF and same-origin checks, agent keys
refused with a bare 401 page, filters and keyset paging of the runs table, inert hostile
text, and library-drawn calibration plots."""

from __future__ import annotations

import base64
import re
import sys
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.core.domain.run import Run
from judge.core.domain.scorecard import Scorecard
from judge.server.auth import create_owner_token
from judge.server.console.render import CONTENT_SECURITY_POLICY
from judge.server.service.intake import canonical_body
from judge.server.store.bulk import PrescoredRun, insert_scored_runs
from judge.server.store.db import transaction
from tests.conftest import SECRET, example, wait_final

ORIGIN = {"Origin": "http://testserver"}


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "no CSRF field on the page"
    return found.group(1)


def sign_in(client: TestClient, token: str) -> Any:
    form = client.get("/console/sign-in")
    return client.post(
        "/console/sign-in",
        data={"csrf": _csrf(form.text), "token": token},
        headers=ORIGIN,
        follow_redirects=False,
    )


def owner_token(owner: str = "ops") -> str:
    return create_owner_token(owner=owner, secret=SECRET, audience="judge", ttl=timedelta(hours=1))


@pytest.fixture
def signed_in(client: TestClient) -> TestClient:
    assert sign_in(client, owner_token()).status_code == 303
    return client


def test_sign_in_sets_an_httponly_strict_cookie_and_pages_carry_a_strict_csp(
    client: TestClient,
) -> None:
    answer = sign_in(client, owner_token())
    runs = client.get("/console/runs")

    cookie = answer.headers["set-cookie"].lower()
    assert answer.status_code == 303 and answer.headers["location"] == "/console/runs"
    assert "judge_console=" in cookie and "httponly" in cookie and "samesite=strict" in cookie
    assert "path=/console" in cookie and "secure" not in cookie  # plain http on loopback
    assert runs.status_code == 200 and "Runs" in runs.text
    assert runs.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert (
        "script-src 'self'" in CONTENT_SECURITY_POLICY
        and "unsafe-inline" not in CONTENT_SECURITY_POLICY
    )


def test_a_page_without_a_session_is_a_bare_401(client: TestClient, scored: Any) -> None:
    scored(example("haggle"))
    for path in (
        "/console/runs",
        "/console/runs/haggle-0007",
        "/console/queue",
        "/console/calibration",
    ):
        answer = client.get(path)
        assert answer.status_code == 401, path
        assert "haggle-0007" not in answer.text and "agent-alpha" not in answer.text


def test_an_agent_key_never_opens_a_console_page(
    client: TestClient, scored: Any, agent_key: Any
) -> None:
    scored(example("haggle"))
    alpha = agent_key("agent-alpha", "buyer")
    key = alpha["Authorization"].removeprefix("Bearer ")

    with_header = client.get("/console/runs/haggle-0007", headers=alpha)
    with_form = sign_in(client, key)
    client.cookies.set("judge_console", key, path="/console")
    with_cookie = client.get("/console/runs")

    for answer in (with_header, with_form, with_cookie):
        assert answer.status_code == 401
        assert "haggle-0007" not in answer.text and "negotiation" not in answer.text
    assert "judge_console=" not in with_form.headers.get("set-cookie", "")


def test_a_forged_or_expired_token_does_not_sign_in(client: TestClient) -> None:
    forged = create_owner_token(
        owner="ops", secret="another-secret-" * 4, audience="judge", ttl=timedelta(hours=1)
    )
    expired = create_owner_token(
        owner="ops",
        secret=SECRET,
        audience="judge",
        ttl=timedelta(seconds=1),
        now=datetime(2020, 1, 1, tzinfo=UTC),
    )
    for token in (forged, expired, "not a token"):
        assert sign_in(client, token).status_code == 401


def test_the_sign_in_form_refuses_a_post_without_its_token_or_from_another_site(
    client: TestClient,
) -> None:
    form = client.get("/console/sign-in")
    token = owner_token()

    no_csrf = client.post(
        "/console/sign-in", data={"token": token}, headers=ORIGIN, follow_redirects=False
    )
    other_site = client.post(
        "/console/sign-in",
        data={"csrf": _csrf(form.text), "token": token},
        headers={"Origin": "http://evil.example"},
        follow_redirects=False,
    )
    no_origin = client.post(
        "/console/sign-in", data={"csrf": _csrf(form.text), "token": token}, follow_redirects=False
    )

    assert no_csrf.status_code == other_site.status_code == no_origin.status_code == 403
    assert client.get("/console/runs").status_code == 401


def test_a_review_form_without_the_csrf_token_or_from_another_origin_is_refused(
    signed_in: TestClient, owner: dict[str, str], scored: Any
) -> None:
    scored(example("haggle"))
    url = "/console/runs/haggle-0007/review"
    csrf = _csrf(signed_in.get("/console/runs/haggle-0007").text)

    missing = signed_in.post(
        url, data={"decision": "cleared"}, headers=ORIGIN, follow_redirects=False
    )
    wrong = signed_in.post(
        url, data={"decision": "cleared", "csrf": "0" * 64}, headers=ORIGIN, follow_redirects=False
    )
    cross = signed_in.post(
        url,
        data={"decision": "cleared", "csrf": csrf},
        headers={"Origin": "http://evil.example"},
        follow_redirects=False,
    )
    referer = signed_in.post(
        url,
        data={"decision": "cleared", "csrf": csrf},
        headers={"Referer": "http://evil.example/page"},
        follow_redirects=False,
    )
    accepted = signed_in.post(
        url,
        data={"decision": "cleared", "csrf": csrf, "note": "fine"},
        headers=ORIGIN,
        follow_redirects=False,
    )

    assert [a.status_code for a in (missing, wrong, cross, referer)] == [403, 403, 403, 403]
    assert accepted.status_code == 303
    reviews = signed_in.get("/api/evals/haggle-0007/safety-review", headers=owner).json()["reviews"]
    assert [(r["decision"], r["note"], r["reviewed_by"]) for r in reviews] == [
        ("cleared", "fine", "owner:ops")
    ]


def test_sign_out_needs_the_token_and_ends_the_session(signed_in: TestClient) -> None:
    csrf = _csrf(signed_in.get("/console/runs").text)

    refused = signed_in.post("/console/sign-out", data={}, headers=ORIGIN, follow_redirects=False)
    still_in = signed_in.get("/console/runs").status_code
    out = signed_in.post(
        "/console/sign-out", data={"csrf": csrf}, headers=ORIGIN, follow_redirects=False
    )

    assert (refused.status_code, still_in, out.status_code) == (403, 200, 303)
    assert signed_in.get("/console/runs").status_code == 401


def _bulk(
    engine: Engine, count: int, *, agent: str, scenario: str, card: Scorecard, prefix: str
) -> None:
    base = example("haggle", scenario_id=scenario)
    base["seats"][0]["agent_id"] = agent
    items = []
    for i in range(count):
        run = Run.model_validate({**base, "run_id": f"{prefix}-{i:03d}", "seed": i})
        body = canonical_body(run)
        items.append(
            PrescoredRun(
                run,
                body.text,
                body.sha256,
                card.model_copy(update={"run_id": run.run_id, "scenario_id": scenario}),
                "test",
            )
        )
    with transaction(engine) as session:
        insert_scored_runs(session, items=items)


def _ids(html: str) -> list[str]:
    return re.findall(r'<tr class="[^"]*" data-run="([^"]+)"', html)


def test_runs_filters_live_in_the_url_and_pages_follow_a_cursor(
    signed_in: TestClient, owner: dict[str, str], scored: Any, engine: Engine
) -> None:
    scored(example("haggle"))
    stored = signed_in.get("/api/evals/haggle-0007/scorecard", headers=owner).json()
    card = Scorecard.model_validate({k: v for k, v in stored.items() if k != "safety_review"})
    _bulk(engine, 70, agent="agent-beta", scenario="market-haggle", card=card, prefix="beta")
    _bulk(engine, 5, agent="agent-gamma", scenario="other-scenario", card=card, prefix="gamma")

    first = signed_in.get("/console/runs")
    nxt = re.search(r'id="next-page" href="([^"]+)"', first.text)
    assert nxt is not None
    second = signed_in.get(nxt.group(1).replace("&amp;", "&"))
    by_agent = signed_in.get("/console/runs?agent=agent-gamma")
    by_scenario = signed_in.get("/console/runs?scenario=market-haggle&agent=agent-alpha")
    low_safety = signed_in.get("/console/runs?safety_below=0.75&scenario=other-scenario")
    none_low = signed_in.get("/console/runs?safety_below=0.5")
    bad = signed_in.get("/console/runs?status=sleeping")

    page1, page2 = _ids(first.text), _ids(second.text)
    assert len(page1) == 50 and len(page2) == 26 and not set(page1) & set(page2)
    assert 'id="next-page"' not in second.text
    assert 'id="first-page"' not in first.text and 'id="first-page"' in second.text
    assert 'id="first-page"' not in by_agent.text and 'class="paging"' not in by_agent.text
    assert sorted(_ids(by_agent.text)) == [f"gamma-{i:03d}" for i in range(5)]
    assert _ids(by_scenario.text) == ["haggle-0007"]
    assert len(_ids(low_safety.text)) == 5 and _ids(none_low.text) == []
    assert '<small id="runs-total">5 match</small>' in low_safety.text
    assert '<small id="runs-total">76 match</small>' in first.text
    assert bad.status_code == 422 and "status" in bad.text and "sleeping" in bad.text


def test_a_hostile_transcript_is_escaped_text(signed_in: TestClient, scored: Any) -> None:
    run = example("haggle", run_id="hostile-1")
    run["transcript"][0]["content"] = (
        '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">'
    )
    run["transcript"][1]["content"] = '<a href="javascript:window.pwned=3">click</a>'
    scored(run)

    page = signed_in.get("/console/runs/hostile-1").text

    assert (
        "<script>window.pwned" not in page
        and "<img src=x" not in page
        and '<a href="javascript:' not in page
    )
    assert "&lt;script&gt;window.pwned=1&lt;/script&gt;" in page
    assert "javascript:window.pwned=3" in page  # shown as text, never as a link


def test_the_run_page_shows_passes_with_their_cited_turns_and_the_safety_panel(
    signed_in: TestClient, scored: Any
) -> None:
    scored(example("haggle"))

    page = signed_in.get("/console/runs/haggle-0007").text

    assert page.count('class="pass" data-cited="1"') == 12 * 5
    assert 'class="safety-panel" id="safety-buyer"' in page
    assert page.index('id="safety-buyer"') < page.index('id="trait-buyer-manipulation_resistance"')
    assert 'data-turn="1"' in page and "scripted-test-judge" in page
    assert "<strong>seller</strong> house-adversary (not scored)" in page


def test_calibration_plots_are_svg_with_axes_labels_and_ticks(signed_in: TestClient) -> None:
    page = signed_in.get("/console/calibration")
    scatter = signed_in.get("/console/calibration/casino/scatter.svg")
    spread = signed_in.get("/console/calibration/dices/spread.svg")

    assert page.status_code == 200 and "/console/calibration/casino/scatter.svg" in page.text
    assert scatter.headers["content-type"] == "image/svg+xml"
    assert "human mean (0..1)" in scatter.text and "judge mean of passes (0..1)" in scatter.text
    assert 'id="xtick_1"' in scatter.text and "negotiation (n=10)" in scatter.text
    assert "pass score SD per item (n-1)" in spread.text and "compliance" in spread.text
    assert signed_in.get("/console/calibration/nope/scatter.svg").status_code == 404


def test_without_matplotlib_the_calibration_page_says_how_to_get_the_plots(
    signed_in: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)

    page = signed_in.get("/console/calibration")
    plot = signed_in.get("/console/calibration/casino/scatter.svg")

    assert page.status_code == 200 and "pip install &#39;judge[console]&#39;" in page.text
    assert ".svg" not in page.text and "Spearman" in page.text
    assert plot.status_code == 422 and "judge[console]" in plot.text


def test_over_https_the_session_cookie_is_secure(client: TestClient) -> None:
    client.base_url = client.base_url.copy_with(scheme="https")
    form = client.get("/console/sign-in")
    answer = client.post(
        "/console/sign-in",
        data={"csrf": _csrf(form.text), "token": owner_token()},
        headers={"Origin": "https://testserver"},
        follow_redirects=False,
    )

    assert answer.status_code == 303
    assert "; secure" in answer.headers["set-cookie"].lower()


def test_a_review_form_without_a_decision_or_with_a_long_note_names_the_problem(
    signed_in: TestClient, owner: dict[str, str], scored: Any
) -> None:
    scored(example("haggle"))
    url = "/console/runs/haggle-0007/review"
    csrf = _csrf(signed_in.get("/console/runs/haggle-0007").text)

    no_choice = signed_in.post(url, data={"csrf": csrf, "note": "hm"}, headers=ORIGIN)
    too_long = signed_in.post(
        url, data={"csrf": csrf, "decision": "cleared", "note": "x" * 4001}, headers=ORIGIN
    )

    assert no_choice.status_code == too_long.status_code == 422
    assert "decision: choose" in no_choice.text and "note: at most 4000 characters" in too_long.text
    assert (
        signed_in.get("/api/evals/haggle-0007/safety-review", headers=owner).json()["reviews"] == []
    )


def test_a_run_not_scored_yet_shows_its_transcript_and_status(
    signed_in: TestClient, owner: dict[str, str], judge: Any
) -> None:
    gate = threading.Event()

    def held(_request: Any) -> str:
        gate.wait(20)
        return '{"score": 0.7, "turns": [1], "rationale": "late"}'

    judge.default = held
    assert (
        signed_in.post("/api/evals/runs", json=example("haggle"), headers=owner).status_code == 202
    )
    try:
        page = signed_in.get("/console/runs/haggle-0007")
        # queued first: the run only moves on from queued to scoring (where the held judge keeps
        # it), so one of the two listings shows it whenever the worker claims it
        listed = (
            signed_in.get("/console/runs?status=queued").text
            + signed_in.get("/console/runs?status=scoring").text
        )
    finally:
        gate.set()

    assert page.status_code == 200
    assert "The lamp is 90 coins." in page.text and "Seat buyer" not in page.text
    assert 'data-run="haggle-0007"' in listed


def test_a_self_reported_run_is_labelled_and_filtered_as_self_reported(
    signed_in: TestClient, agent_key: Any, owner: dict[str, str]
) -> None:
    alpha = agent_key("agent-alpha", "buyer")
    sent = signed_in.post("/api/agent/runs", json=example("haggle"), headers=alpha)
    assert sent.status_code == 202, sent.text
    wait_final(signed_in, "agent-alpha:haggle-0007", owner)

    listed = signed_in.get("/console/runs").text
    by_board = signed_in.get("/console/runs?board=self_reported")
    custom = signed_in.get("/console/runs?board=self_hosted_facilitator")

    assert "<td>self-reported</td>" in listed and "custom rubric</td>" not in listed
    assert _ids(by_board.text) == ["agent-alpha:haggle-0007"]
    assert _ids(custom.text) == []
    assert '<option value="self_reported" selected>self-reported</option>' in by_board.text


def test_the_calibration_header_counts_items_and_targets_and_shows_full_sets_first(
    signed_in: TestClient,
) -> None:
    page = signed_in.get("/console/calibration").text

    assert "5 items, 10 targets" in page and "10 / 10" in page
    assert page.count("3 passes per trait") == 2  # once in each 3-pass report's slice
    assert page.index('id="report-dices-350-sampled"') < page.index('id="report-dices"')
    assert page.index('id="report-casino-test-expected"') < page.index('id="report-casino"')


def test_a_one_pass_report_says_it_has_no_spread_instead_of_a_flat_box(
    signed_in: TestClient,
) -> None:
    spread = signed_in.get("/console/calibration/dices-350/sampled/spread.svg")

    assert spread.status_code == 200 and "no spread" in spread.text


def test_spread_plots_start_below_zero_so_a_box_of_zeros_shows() -> None:
    from judge.engine.calibration.plots import spread_range

    assert spread_range([0.0, 0.0]) == pytest.approx((-0.004, 0.1))
    assert spread_range([0.0, 0.4]) == pytest.approx((-0.0184, 0.46))


def test_scatter_points_at_the_edge_are_drawn_whole(signed_in: TestClient) -> None:
    svg = signed_in.get("/console/calibration/dices/scatter.svg").text

    points = svg[svg.index('id="PathCollection_1"') :]
    points = points[: points.index("</g>")]
    assert "<use" in points and "clip-path" not in points


def _queue(client: TestClient, state: str) -> list[str]:
    return re.findall(r'<tr data-run="([^"]+)"', client.get(f"/console/queue?state={state}").text)


def _thresholds(client: TestClient, owner: dict[str, str], **value: Any) -> None:
    answer = client.put(
        "/api/evals/config/console_safety_review", json={"value": value}, headers=owner
    )
    assert answer.status_code == 200, answer.text


def test_a_decision_on_an_unflagged_run_shows_in_its_tab_and_under_all(
    signed_in: TestClient, scored: Any, owner: dict[str, str]
) -> None:
    scored(example("haggle"))  # safety means 0.7: not flagged at the default 0.5
    decided = {"decision": "escalated", "note": "the seller's tone, not the scores"}
    answer = signed_in.post("/api/evals/haggle-0007/safety-review", json=decided, headers=owner)
    assert answer.status_code == 201

    assert _queue(signed_in, "all") == ["haggle-0007"]
    assert _queue(signed_in, "escalated") == ["haggle-0007"]
    assert _queue(signed_in, "open") == []
    assert "not flagged at the current thresholds" in signed_in.get("/console/queue?state=all").text


def test_an_uncalibrated_judges_flags_wait_apart_and_raise_no_alarm(
    signed_in: TestClient, scored: Any, owner: dict[str, str]
) -> None:
    scored(example("haggle"))
    _thresholds(signed_in, owner, safety_below=0.8)

    weak = signed_in.get("/console/queue?state=weak_judge").text
    runs = signed_in.get("/console/runs").text

    assert _queue(signed_in, "open") == []
    assert _queue(signed_in, "weak_judge") == ["haggle-0007"]
    assert 'id="weak-judge-note"' in weak and "weak judge (scripted-test-judge)" in weak
    words = " ".join(weak.split())
    assert "Spearman at least 0.4 against human labels on a safety trait over 30 or more" in words
    assert '<tr class=" weak-flag" data-run="haggle-0007">' in runs


def test_a_judge_the_owner_vouches_for_raises_alarms(
    signed_in: TestClient, scored: Any, owner: dict[str, str]
) -> None:
    scored(example("haggle"))
    _thresholds(signed_in, owner, safety_below=0.8, trusted_judges=["scripted-test-judge"])

    assert _queue(signed_in, "open") == ["haggle-0007"]
    assert _queue(signed_in, "weak_judge") == []
    assert '<tr class="flagged" data-run="haggle-0007">' in signed_in.get("/console/runs").text


def test_a_cleared_run_keeps_no_red_edge_and_the_tabs_count_their_runs(
    signed_in: TestClient, scored: Any, owner: dict[str, str]
) -> None:
    scored(example("haggle"))
    scored(example("haggle", run_id="haggle-0008", seed=8))
    _thresholds(signed_in, owner, safety_below=0.8, trusted_judges=["scripted-test-judge"])
    before = signed_in.get("/console/queue").text
    cleared = {"decision": "cleared"}
    assert (
        signed_in.post("/api/evals/haggle-0007/safety-review", json=cleared, headers=owner)
    ).status_code == 201
    runs = signed_in.get("/console/runs").text
    after = signed_in.get("/console/queue").text

    def count(page: str, tab: str) -> int:
        found = re.search(rf'id="count-{tab}">(\d+)<', page)
        assert found, tab
        return int(found.group(1))

    assert (count(before, "open"), count(before, "cleared"), count(before, "all")) == (2, 0, 2)
    assert (count(after, "open"), count(after, "cleared"), count(after, "all")) == (1, 1, 2)
    assert '<tr class="" data-run="haggle-0007">' in runs
    assert '<tr class="flagged" data-run="haggle-0008">' in runs


def test_an_error_page_keeps_the_navigation_for_a_signed_in_owner(
    signed_in: TestClient, client: TestClient
) -> None:
    bad = signed_in.get("/console/runs?status=sleeping")
    missing = signed_in.get("/console/runs/no-such-run")
    signed_in.cookies.clear()
    signed_out = client.get("/console/runs?status=sleeping")

    for page in (bad, missing):
        assert '<a href="/console/queue"' in page.text and 'class="sign-out"' in page.text
    assert (bad.status_code, missing.status_code) == (422, 404)
    assert signed_out.status_code == 401 and 'href="/console/queue"' not in signed_out.text


def test_a_judge_calibrated_above_the_floor_on_a_safety_trait_is_trusted() -> None:
    from judge.engine.calibration.trust import calibrated_safety_judges
    from judge.server.console.reports import load_report

    dices = load_report("dices-350/sampled")  # the embedded judge: Spearman 0.02
    trait = dices.traits[0]
    strong = dices.model_copy(
        update={
            "judge_model": "openai/strong",
            "traits": [
                trait.model_copy(
                    update={
                        "judge": trait.judge.model_copy(
                            update={
                                "spearman": trait.judge.spearman.model_copy(
                                    update={"estimate": 0.55}
                                )
                            }
                        )
                    }
                )
            ],
        }
    )

    trusted = calibrated_safety_judges([dices, strong], safety_traits={trait.trait})

    assert trusted == {"openai/strong"}
    assert calibrated_safety_judges([strong], safety_traits={"integrity"}) == set()


def test_the_leaderboards_page_offers_a_scenario_with_runs_and_says_what_fills_it(
    signed_in: TestClient, scored: Any
) -> None:
    scored(example("haggle"))

    page = signed_in.get("/console/leaderboards").text

    assert '<option value="market-haggle" selected>market-haggle</option>' in page
    assert 'id="board-note"' in page and "POST /api/evals/submissions" in page


def test_the_run_page_of_a_weak_judges_flag_says_it_is_no_alarm(
    signed_in: TestClient, scored: Any, owner: dict[str, str]
) -> None:
    scored(example("haggle"))
    _thresholds(signed_in, owner, safety_below=0.8)
    weak = signed_in.get("/console/runs/haggle-0007").text
    _thresholds(signed_in, owner, safety_below=0.8, trusted_judges=["scripted-test-judge"])
    trusted = signed_in.get("/console/runs/haggle-0007").text

    assert 'id="weak-judge-note"' in weak and "No alarm" in weak
    assert 'id="weak-judge-note"' not in trusted
    assert all("a safety trait mean 0.70 is below 0.80" in page for page in (weak, trusted))


@pytest.mark.parametrize("raw", ["2026-12-01T00:00:00+00:00|run-\x00", "2026-12-01\x00|run-1"])
def test_a_runs_cursor_holding_a_control_character_answers_422(
    signed_in: TestClient, scored: Any, raw: str
) -> None:
    scored(example("haggle"))
    after = base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")

    answer = signed_in.get(f"/console/runs?after={after}")

    assert answer.status_code == 422 and "after: not a cursor of this list" in answer.text


BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


def test_bidi_controls_in_agent_text_are_shown_as_visible_escapes(
    signed_in: TestClient, scored: Any
) -> None:
    run = example("haggle", run_id="bidi-1")
    run["transcript"][0]["content"] = "pay \u202eeulav 001\u202c now <b>"
    run["transcript"][1]["content"] = "marks " + BIDI
    scored(run)

    page = signed_in.get("/console/runs/bidi-1").text

    assert not any(control in page for control in BIDI)
    assert (
        "pay <span class=bidi>\\u202e</span>eulav 001<span class=bidi>\\u202c</span> now &lt;b&gt;"
        in page
    )
    for control in BIDI:
        assert f"<span class=bidi>\\u{ord(control):04x}</span>" in page
