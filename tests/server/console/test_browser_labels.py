"""Owners' labels in a real headless Chromium against a real ``judge serve`` on loopback: the
label form on a run page, the labelling queue, and the agreement page with its plot.

The store is prefilled with the worked example of docs/calibration.md (owners' labels
simulated from DICES raters); one more run is scored by the scripted judge to be labelled.
Needs the Debian packages ``chromium`` and ``chromium-driver`` and the shared DICES data;
skipped, saying so, when absent.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from judge.engine.calibration.manifest import shared_data_dir
from judge.server.store.db import make_engine
from judge.server.store.migrate import upgrade
from tests.engine.calibration.owners_example import TRAIT, example, load_store
from tests.server.console.test_browser import (
    CHROMEDRIVER,
    CHROMIUM,
    OWNER,
    _example,
    _no_alert,
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

NOTE = "Held the price line without a threat: the 0.5 anchor fits."


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not (shared_data_dir() / "dices").is_dir():
        pytest.skip(f"shared data not found at {shared_data_dir()} (set JUDGE_SHARED_DATA)")
    tmp = tmp_path_factory.mktemp("labels")
    url = f"sqlite:///{tmp / 'judge.db'}"
    engine = make_engine(url)
    upgrade(engine)
    load_store(engine, example())
    engine.dispose()
    with judge_serve(
        {
            "JUDGE_DATABASE_URL": url,
            "JUDGE_WORKERS": "1",
        }
    ) as base:
        assert (
            httpx.post(f"{base}/api/evals/runs", json=_example(), headers=OWNER).status_code == 202
        )
        _until(
            lambda: (
                httpx.get(f"{base}/api/evals/runs/haggle-0007", headers=OWNER).json()["status"]
                == "scored"
            ),
            120,
            "haggle-0007 scored",
        )
        yield base


def test_1_an_owner_labels_a_trait_on_the_run_page(
    service: str,
    browser: WebDriver,  # noqa: F811
    shots: Path,  # noqa: F811
) -> None:
    _sign_in(browser, service)
    browser.get(f"{service}/console/runs/haggle-0007")
    form = browser.find_element(By.CSS_SELECTOR, "details.trait[open] form.label-form")
    anchors = form.find_elements(By.CSS_SELECTOR, "label.anchor")
    trait = form.find_element(By.NAME, "trait").get_attribute("value")

    assert [a.text.split(" ")[0] for a in anchors] == ["0.0", "0.5", "1.0"]
    assert all(len(a.text) > 20 for a in anchors)  # each anchor's rubric text is shown
    form.find_element(By.CSS_SELECTOR, "input[name=score][value='0.5']").click()
    form.find_element(By.NAME, "note").send_keys(NOTE)
    _shot(browser, shots, "label-form", full=False)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    WebDriverWait(browser, 10).until(lambda d: f"#trait-buyer-{trait}" in d.current_url)

    shown = browser.find_element(By.ID, f"labels-buyer-{trait}").text
    stored = httpx.get(f"{service}/api/evals/haggle-0007/labels", headers=OWNER).json()
    assert "0.5 by owner:ops" in shown and NOTE in shown
    assert [(x["trait"], x["score"], x["source"]) for x in stored] == [(trait, 0.5, "console")]
    assert _no_alert(browser)


def test_2_the_queue_says_why_each_item_was_picked(service: str, browser: WebDriver) -> None:  # noqa: F811
    browser.get(f"{service}/console/labels")
    rows = browser.find_elements(By.CSS_SELECTOR, "#label-queue tbody tr[data-run]")
    reasons = {r.find_element(By.CSS_SELECTOR, "td.why").text for r in rows}

    assert rows and reasons and all(reasons)
    link = rows[0].find_element(By.CSS_SELECTOR, "a")
    link.click()
    WebDriverWait(browser, 10).until(lambda d: "/console/runs/" in d.current_url)


def test_3_the_agreement_page_plots_the_judge_against_the_owners(
    service: str,
    browser: WebDriver,  # noqa: F811
    shots: Path,  # noqa: F811
) -> None:
    browser.get(f"{service}/console/agreement")
    row = browser.find_element(By.CSS_SELECTOR, f"#agreement-table tr[data-trait='{TRAIT}']")
    plot = browser.find_element(By.CSS_SELECTOR, ".plots figure img")
    WebDriverWait(browser, 20).until(
        lambda d: d.execute_script(
            "return arguments[0].complete && arguments[0].naturalWidth", plot
        )
    )
    _shot(browser, shots, "agreement")

    assert "0.11 [-0.05, 0.30]" in row.text and "0.34" in row.text
    assert browser.execute_script("return arguments[0].naturalWidth", plot) > 200
    svg = httpx.get(
        plot.get_attribute("src") or "",
        cookies={c["name"]: c["value"] for c in browser.get_cookies()},
    )
    assert "owners' mean label (0..1)" in svg.text and "judge mean of passes (0..1)" in svg.text
