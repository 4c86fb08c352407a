"""Paging for every list route: ``limit`` and an opaque ``cursor`` in, a JSON array and a
``Link: <…>; rel="next"`` header out (absent on the last page).

A cursor names the last item of the page it came from (keyset paging), so a page does not
shift when items are added meanwhile. Cursors are opaque to clients (``judge.domain.cursor``:
base64url of a small JSON list), refused with 422 when they do not decode or when a decoded value would fail the
checks a query value passes (a control character, a NUL, more than 200 characters): what a
cursor carries reaches the store's queries, so it is held to the same rules as ``?since=``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any, NamedTuple, TypeVar

from fastapi import Query, Request, Response

from judge.domain.cursor import decode_cursor, encode_cursor
from judge.errors import InputError

DEFAULT_LIMIT = 50
MAX_LIMIT = 200

Limit = Annotated[
    int, Query(ge=1, le=MAX_LIMIT, description=f"items per page (at most {MAX_LIMIT})")
]
CursorQuery = Annotated[
    str | None,
    Query(
        max_length=200,
        description='opaque: from the previous page\'s `Link: <…>; rel="next"` header',
    ),
]
#: The OpenAPI description of a paged 200 answer's Link header.
LINK_HEADER: dict[str, Any] = {
    "Link": {
        "description": 'The next page, `<url>; rel="next"` (RFC 8288); absent on the last page.',
        "schema": {"type": "string"},
    }
}

__all__ = ["Page", "decode_cursor", "encode_cursor", "page_of", "paged"]

Item = TypeVar("Item")


class Page(NamedTuple):
    """One page of items and the cursor of the next one (None on the last page)."""

    items: list[Any]
    next_cursor: str | None


def page_of(
    items: Sequence[Item], key: Callable[[Item], str], *, limit: int, cursor: str | None
) -> Page:
    """The page of an ordered list after the item whose ``key`` the cursor names."""
    start = 0
    if cursor is not None:
        after = decode_cursor(cursor, size=1)[0]
        keys = [key(item) for item in items]
        if after not in keys:
            raise InputError("cursor: the item it points after is gone; start again without one")
        start = keys.index(after) + 1
    chosen = list(items[start : start + limit])
    more = start + limit < len(items)
    return Page(chosen, encode_cursor([key(chosen[-1])]) if more and chosen else None)


def paged(request: Request, response: Response, page: Page) -> list[Any]:
    """The page's items, with the next page's link set on ``response``."""
    if page.next_cursor is not None:
        url = request.url.include_query_params(cursor=page.next_cursor)
        response.headers["Link"] = f'<{url.path}?{url.query}>; rel="next"'
    return page.items
