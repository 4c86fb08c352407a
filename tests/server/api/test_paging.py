"""Paging of list routes: keyset pages from an opaque cursor, the next page in a Link header."""

from __future__ import annotations

import base64
import json
import re

import pytest

from judge.core.domain.cursor import encode_cursor
from judge.core.errors import InputError
from judge.server.api.paging import Page, page_by_position, page_of
from tests.server.api.conftest import Live


def test_pages_follow_one_another_without_repeating_or_skipping() -> None:
    items = ["a", "b", "c", "d", "e"]
    first = page_of(items, str, limit=2, cursor=None)
    second = page_of(items, str, limit=2, cursor=first.next_cursor)
    last = page_of(items, str, limit=2, cursor=second.next_cursor)

    assert (first.items, second.items, last.items) == (["a", "b"], ["c", "d"], ["e"])
    assert last.next_cursor is None


def test_a_page_starts_after_its_cursors_item_even_when_items_were_added() -> None:
    first = page_of(["a", "b", "c"], str, limit=1, cursor=None)

    assert page_of(["a", "b", "c", "d"], str, limit=2, cursor=first.next_cursor).items == ["b", "c"]


def test_a_cursor_past_an_item_that_is_gone_answers_an_input_error() -> None:
    with pytest.raises(InputError, match="^cursor:"):
        page_of(["a"], str, limit=1, cursor=encode_cursor(["gone"]))


def test_pages_by_position_follow_one_another_and_the_last_has_no_cursor() -> None:
    items = ["a", "b", "c"]
    first = page_by_position(items, limit=2, cursor=None)
    last = page_by_position(items, limit=2, cursor=first.next_cursor)

    assert (first.items, last.items, last.next_cursor) == (["a", "b"], ["c"], None)


@pytest.mark.parametrize("position", ["-1", "1e3", "1234567890"])
def test_a_position_cursor_that_is_no_small_number_answers_an_input_error(position: str) -> None:
    with pytest.raises(InputError, match="^cursor: not a cursor of this list"):
        page_by_position(["a"], limit=1, cursor=encode_cursor([position]))


def test_a_keyset_read_of_one_row_more_than_the_limit_has_a_next_page_after_its_last_item() -> None:
    page = Page.of_fetched(["a", "b", "c"], limit=2, cursor_of=str.upper)

    assert page == Page(["a", "b"], "B")


def test_a_keyset_read_of_at_most_the_limit_is_the_last_page() -> None:
    assert Page.of_fetched(["a", "b"], limit=2, cursor_of=str.upper) == Page(["a", "b"], None)


def _walk(live: Live, url: str) -> list[list[str]]:
    pages: list[list[str]] = []
    next_url: str | None = url
    while next_url is not None:
        response = live.client.get(next_url, headers=live.owner)
        assert response.status_code == 200, response.text
        pages.append([entry.get("key") or entry.get("era_id") for entry in response.json()])
        match = re.fullmatch(r'<([^>]+)>; rel="next"', response.headers.get("link", ""))
        next_url = match.group(1) if match else None
    return pages


def test_the_config_list_pages_by_limit_and_cursor(live: Live) -> None:
    whole = [e["key"] for e in live.client.get("/api/evals/config", headers=live.owner).json()]
    pages = _walk(live, "/api/evals/config?limit=2")

    assert len(whole) > 2 and [k for page in pages for k in page] == whole
    assert all(len(page) <= 2 for page in pages) and len(pages) == -(-len(whole) // 2)


def test_the_eras_list_pages_by_limit_and_cursor(live: Live) -> None:
    denoise = {"value": {"temperature": 0.0, "min_n_runs": 5, "n_runs": 7}}
    changed = live.client.put(
        "/api/evals/config/academy_eval_judge_denoise", json=denoise, headers=live.owner
    )
    whole = [e["era_id"] for e in live.client.get("/api/evals/eras", headers=live.owner).json()]
    pages = _walk(live, "/api/evals/eras?limit=1")

    assert changed.json()["era_changed"] is True and len(whole) >= 2
    assert [k for page in pages for k in page] == whole and len(pages) == len(whole)


def _raw_cursor(values: list[str]) -> str:
    return base64.urlsafe_b64encode(json.dumps(values).encode()).decode().rstrip("=")


@pytest.mark.parametrize("route", ["/api/evals/runs", "/api/agent/runs"])
def test_a_cursor_holding_a_nul_answers_422_on_both_stores(live: Live, route: str) -> None:
    headers = live.owner if route.startswith("/api/evals") else live.agent
    cursor = _raw_cursor(["2026-12-01T00:00:00+00:00", "list-\x00"])

    answer = live.client.get(f"{route}?cursor={cursor}", headers=headers)

    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"].startswith("cursor:")
