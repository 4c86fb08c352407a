"""The console's finish in a real headless Chromium at 1,400 and 400 px (docs/console.md): an
error page keeps the navigation, paging links only where there is another page, queue tabs
with their counts, a cleared run without the red edge, a cost cell that never claims 0 tokens,
and no word broken mid-word where it would fit on a line.

Runs against the same loopback service as ``test_browser.py`` (its fixtures, its runs).
Needs the Debian packages ``chromium`` and ``chromium-driver``; skipped, saying so, when absent.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

import httpx
import pytest

from judge.core.domain.cursor import encode_run_cursor
from tests.server.console.test_browser import (
    CHROMEDRIVER,
    CHROMIUM,
    OWNER,
    PHONE_PAGES,
    _refused_for_budget,
    _run_ids,
    _sign_in,
    browser,  # noqa: F401  (fixture)
    service,  # noqa: F401  (fixture)
)

if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
    pytest.skip(
        "Chromium is not installed: apt-get install chromium chromium-driver",
        allow_module_level=True,
    )

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

NAVIGATION = [
    "Runs",
    "Safety queue",
    "Leaderboards",
    "Compare",
    "Calibration",
    "Label",
    "Agreement",
    "Rules",
]
#: The red of a flagged row's left edge (``--low``), as Chromium reports a colour.
RED = "rgba(179, 38, 30, 1)"

#: Words (letters only, 3 to 16 of them) outside ids, hashes and code whose letters the page
#: lays out on more than one line: a word broken mid-word although it fits on a line.
BROKEN_WORDS = """
document.querySelectorAll("details").forEach(d => { d.open = true; });
const skip = "code, pre, .mono, .id, select, option, textarea, script, style";
const found = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const parent = node.parentElement;
  if (!parent || parent.closest(skip)) continue;
  const words = /[^\\s]+/g;
  for (let m = words.exec(node.data); m; m = words.exec(node.data)) {
    const word = m[0].replace(/^[^A-Za-z]+|[^A-Za-z]+$/g, "");
    if (!/^[A-Za-z]{3,16}$/.test(word)) continue;
    const start = m.index + m[0].indexOf(word);
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, start + word.length);
    const lines = new Set(
      [...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.bottom))
    );
    if (lines.size > 1) found.push(word + " in " + parent.tagName.toLowerCase() + "."
      + (parent.className || "") + " / " + (parent.parentElement.className || ""));
  }
}
return found.slice(0, 12);
"""


@pytest.fixture(scope="module")
def signed_in(service: str, browser: WebDriver) -> str:  # noqa: F811
    _sign_in(browser, service)
    return service


@contextmanager
def phone(browser: WebDriver) -> Iterator[None]:  # noqa: F811
    metrics = {"width": 400, "height": 860, "deviceScaleFactor": 1, "mobile": True}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        yield
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _navigation(driver: WebDriver) -> list[str]:
    return [a.text for a in driver.find_elements(By.CSS_SELECTOR, "header.top nav a")]


def test_an_error_page_keeps_the_navigation_and_sign_out(
    signed_in: str,
    browser: WebDriver,  # noqa: F811
) -> None:
    browser.set_window_size(1400, 1000)
    browser.get(f"{signed_in}/console/runs?status=bogus")
    shown = (browser.find_element(By.TAG_NAME, "h1").text, _navigation(browser))
    sign_out = browser.find_elements(By.CSS_SELECTOR, "form.sign-out button[type=submit]")
    with phone(browser):
        browser.get(f"{signed_in}/console/runs/no-such-run")
        small = (browser.find_element(By.TAG_NAME, "h1").text, _navigation(browser))
        width = browser.execute_script("return document.documentElement.scrollWidth")

    assert shown == ("422", NAVIGATION) and len(sign_out) == 1
    assert small == ("404", NAVIGATION) and width <= 400


def test_a_single_page_of_runs_has_no_first_page_link(
    signed_in: str,
    browser: WebDriver,  # noqa: F811
) -> None:
    browser.set_window_size(1400, 1000)
    browser.get(f"{signed_in}/console/runs")
    on_first = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "p.paging a")]
    # a cursor past a run from the future: a later page holding every run, with the filters
    after = encode_run_cursor(datetime(2100, 1, 1, tzinfo=UTC), "zzz")
    browser.get(f"{signed_in}/console/runs?agent=agent-beta&after={after}")
    link = browser.find_element(By.ID, "first-page")

    assert on_first == []
    assert sorted(_run_ids(browser)) == ["haggle-0008", "haggle-0009"]
    assert link.text == "first page"
    assert link.get_attribute("href") == f"{signed_in}/console/runs?agent=agent-beta"
    assert browser.find_elements(By.ID, "next-page") == []


def test_each_queue_tab_shows_how_many_runs_it_holds(
    signed_in: str,
    browser: WebDriver,  # noqa: F811
) -> None:
    browser.set_window_size(1400, 1000)
    counted, listed = {}, {}
    for tab in ("open", "cleared", "escalated", "rescore_requested", "weak_judge", "all"):
        browser.get(f"{signed_in}/console/queue?state={tab}")
        counted[tab] = int(browser.find_element(By.ID, f"count-{tab}").text)
        listed[tab] = len(browser.find_elements(By.CSS_SELECTOR, "#queue-table tr[data-run]"))
    tab_text = browser.find_element(By.CSS_SELECTOR, ".tabs a[aria-current=page]").text

    assert counted == listed
    assert counted["open"] >= 1 and counted["weak_judge"] >= 1
    assert tab_text == f"all {counted['all']}"


def _edge(driver: WebDriver, run_id: str) -> tuple[bool, str]:
    row = driver.find_element(By.CSS_SELECTOR, f"#runs-table tr[data-run='{run_id}']")
    cell = row.find_element(By.TAG_NAME, "td")
    flagged = "flagged" in (row.get_attribute("class") or "").split()
    return flagged, cell.value_of_css_property("border-left-color")


def test_a_cleared_run_loses_its_red_edge(
    signed_in: str,
    browser: WebDriver,  # noqa: F811
) -> None:
    config = f"{signed_in}/api/evals/config/console_safety_review"
    vouched = {
        "value": {"safety_below": 0.8, "spread_above": 0.3, "trusted_judges": ["scripted/0.7"]}
    }
    assert httpx.put(config, json=vouched, headers=OWNER).status_code == 200
    browser.set_window_size(1400, 1000)
    browser.get(f"{signed_in}/console/runs")
    before = (_edge(browser, "haggle-0009"), _edge(browser, "haggle-0010"))
    review = f"{signed_in}/api/evals/haggle-0009/safety-review"
    cleared = httpx.post(review, json={"decision": "cleared"}, headers=OWNER)
    browser.get(f"{signed_in}/console/runs")
    after = (_edge(browser, "haggle-0009"), _edge(browser, "haggle-0010"))
    with phone(browser):
        browser.get(f"{signed_in}/console/runs")
        small = _edge(browser, "haggle-0009")

    assert cleared.status_code == 201
    assert before == ((True, RED), (True, RED))
    assert after[0][0] is False and after[0][1] != RED
    assert after[1] == (True, RED)  # still undecided
    assert small == after[0]


def test_the_cost_cell_never_claims_0_tokens(
    signed_in: str,
    browser: WebDriver,  # noqa: F811
) -> None:
    refused = _refused_for_budget(signed_in)
    browser.set_window_size(1400, 1000)
    browser.get(f"{signed_in}/console/runs")
    cells = {
        row.get_attribute("data-run"): row.find_element(By.CSS_SELECTOR, "td.cost")
        for row in browser.find_elements(By.CSS_SELECTOR, "#runs-table tr[data-run]")
    }
    titles = {run: cell.get_attribute("title") or "" for run, cell in cells.items()}
    status = httpx.get(f"{signed_in}/api/evals/runs/{refused}", headers=OWNER).json()["status"]

    assert cells[refused].text == "—"
    assert titles[refused] == "tokens unknown"
    for run, title in titles.items():
        assert title == "tokens unknown" or re.fullmatch(r"[1-9][0-9]* tokens?", title), run
    assert status == "not_scored"


@pytest.mark.parametrize("width", [1400, 400])
def test_no_word_is_broken_mid_word(
    signed_in: str,
    browser: WebDriver,  # noqa: F811
    width: int,
) -> None:
    pages = (*PHONE_PAGES, "runs?status=not_scored", "runs/planted-0010", "runs?status=bogus")
    broken = {}
    browser.set_window_size(1400, 1000)
    if width == 400:
        browser.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": 400, "height": 860, "deviceScaleFactor": 1, "mobile": True},
        )
    try:
        for path in pages:
            browser.get(f"{signed_in}/console/{path}")
            if found := browser.execute_script(BROKEN_WORDS):
                broken[path] = found
    finally:
        if width == 400:
            browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    assert broken == {}
