"""The online rules pages in a real headless Chromium against a real ``judge serve`` on
loopback (dev mode, the scripted judge ``scripted/0.7``, a quiet period of half a second): an
owner makes a rule with the form, a live trace posted to ``/v1/traces`` becomes its scored
run, the owner changes the rule's filters and rate and pauses it, and the run keeps its
version and score; no rules page scrolls sideways on a 400 px phone.

Needs the Debian packages ``chromium`` and ``chromium-driver``; skipped, saying so, when absent.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.api.test_traces import TRACE, chat, export, root
from tests.server.console.test_browser import (
    CHROMEDRIVER,
    CHROMIUM,
    OWNER,
    _no_alert,
    _page_shows,
    _shot,
    _sign_in,
    _until,
    browser,  # noqa: F401  (fixture)
    judge_serve,
    shots,  # noqa: F401  (fixture)
)

if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
    pytest.skip(
        "Chromium is not installed: apt-get install chromium chromium-driver",
        allow_module_level=True,
    )

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("rules")
    with judge_serve(
        {
            "JUDGE_DATABASE_URL": f"sqlite:///{tmp / 'judge.db'}",
            "JUDGE_WORKERS": "1",
            "JUDGE_INGEST_QUIET_S": "0.5",
            "JUDGE_INGEST_SWEEP_S": "0.2",
        }
    ) as base:
        yield base


def _fill(driver: WebDriver, form: str, field: str, text: str) -> None:
    box = driver.find_element(By.ID, f"{form}-{field}")
    box.clear()
    box.send_keys(text)


def test_an_owner_makes_changes_and_pauses_a_rule_and_its_run_is_never_rescored(
    service: str,
    browser: WebDriver,  # noqa: F811
    shots: Path,  # noqa: F811
) -> None:
    _sign_in(browser, service)
    browser.get(f"{service}/console/rules")
    assert "No rule yet" in browser.find_element(By.ID, "rules").text
    _fill(browser, "new-rule", "name", "shop bot, every chat")
    _fill(browser, "new-rule", "service_names", "shop-bot")
    _fill(browser, "new-rule", "span_attributes", "gen_ai.operation.name = chat")
    _fill(browser, "new-rule", "sample_rate", "1")
    _fill(browser, "new-rule", "max_runs_per_day", "100")
    browser.find_element(By.CSS_SELECTOR, "#new-rule input[name='trait.negotiation']").click()
    browser.find_element(By.CSS_SELECTOR, "#new-rule button[type=submit]").click()
    WebDriverWait(browser, 10).until(lambda d: "/console/rules/rule-" in d.current_url)
    rule_id = browser.current_url.rsplit("/", 1)[1]

    key = httpx.post(f"{service}/api/ingest/keys", json={"source": "shop"}, headers=OWNER)
    sent = httpx.post(
        f"{service}/v1/traces",
        json=export(root(), chat()),
        headers={"x-judge-ingest-key": key.json()["key"]},
    )
    assert sent.status_code == 200, sent.text
    run_id = f"{rule_id}-shop-{TRACE}"

    def scored() -> bool:
        answer = httpx.get(f"{service}/api/evals/runs/{run_id}", headers=OWNER)
        return answer.status_code == 200 and answer.json()["status"] == "scored"

    _until(scored, 60, "the rule's run to be scored")
    before = httpx.get(f"{service}/api/evals/runs/{run_id}", headers=OWNER).json()
    browser.get(f"{service}/console/rules/{rule_id}")
    row = browser.find_element(By.CSS_SELECTOR, f"#rule-runs tr[data-run='{run_id}']")
    assert row.find_element(By.CSS_SELECTOR, "td.n").text == "1"
    _shot(browser, shots, "rule")

    _fill(browser, "edit-rule", "service_names", "billing")
    _fill(browser, "edit-rule", "sample_rate", "0.1")
    browser.find_element(By.CSS_SELECTOR, "#edit-rule button[type=submit]").click()
    _page_shows(browser, lambda d: "version 2" in d.find_element(By.ID, "rule-state").text)
    browser.find_element(By.CSS_SELECTOR, "form.pause-form button[type=submit]").click()
    _page_shows(browser, lambda d: "paused" in d.find_element(By.ID, "rule-state").text)
    browser.get(f"{service}/console/rules")
    listed = browser.find_element(By.CSS_SELECTOR, f"#rules tr[data-rule='{rule_id}']").text
    _shot(browser, shots, "rules")

    rule = httpx.get(f"{service}/api/evals/rules/{rule_id}", headers=OWNER).json()
    after = httpx.get(f"{service}/api/evals/runs/{run_id}", headers=OWNER).json()
    runs = httpx.get(f"{service}/api/evals/rules/{rule_id}/runs", headers=OWNER).json()
    assert (rule["version"], rule["paused"], rule["sample_rate"]) == (3, True, 0.1)
    assert rule["filters"]["service_names"] == ["billing"]
    assert rule["filters"]["span_attributes"] == {"gen_ai.operation.name": "chat"}
    assert rule["max_runs_per_day"] == 100
    assert [(r["run_id"], r["rule_version"]) for r in runs] == [(run_id, 1)]
    assert after["scored_at"] == before["scored_at"] and after["status"] == "scored"
    assert "paused" in listed and "service billing" in listed and "Resume" in listed
    assert _no_alert(browser)


@pytest.mark.parametrize("page", ["/console/rules", "/console/rules/{rule_id}"])
def test_no_rules_page_scrolls_sideways_on_a_phone(
    service: str,
    browser: WebDriver,  # noqa: F811
    page: str,
) -> None:
    rules = httpx.get(f"{service}/api/evals/rules", headers=OWNER).json()
    assert rules, "the first test makes a rule"
    metrics = {"width": 400, "height": 860, "deviceScaleFactor": 1, "mobile": True}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        browser.get(service + page.format(rule_id=rules[0]["rule_id"]))
        width = browser.execute_script("return document.documentElement.scrollWidth")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    assert width <= 400
