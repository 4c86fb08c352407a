"""Paging for every list route: ``limit`` and an opaque keyset ``cursor`` in (format in
:mod:`judge.core.domain.cursor`), a JSON array and a ``Link: <…>; rel="next"`` header out
(docs/service.md, "Paging")."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any, NamedTuple, TypeVar

from fastapi import Depends, Query, Request, Response

from judge.core.domain.cursor import decode_cursor, encode_cursor, not_a_cursor
from judge.core.errors import InputError

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
POSITION_DIGITS = 9

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
#: The ``responses=`` entry of a paged route's 200 answer.
PAGED: dict[int | str, dict[str, Any]] = {200: {"headers": LINK_HEADER}}

Item = TypeVar("Item")


class Page(NamedTuple):
    """One page of items and the cursor of the next one (None on the last page)."""

    items: list[Any]
    next_cursor: str | None

    @classmethod
    def of_fetched(
        cls, found: Sequence[Item], *, limit: int, cursor_of: Callable[[Item], str]
    ) -> Page:
        """The page of a keyset read that fetched ``limit + 1`` rows (the extra one: more exist)."""
        items = list(found[:limit])
        more = len(found) > limit and bool(items)
        return cls(items, cursor_of(items[-1]) if more else None)


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


def page_by_position(items: Sequence[Any], *, limit: int, cursor: str | None) -> Page:
    """One page of a list computed whole whose items have no key, by position."""
    start = _position(decode_cursor(cursor, size=1)[0]) if cursor else 0
    chosen = list(items[start : start + limit])
    more = start + limit < len(items) and bool(chosen)
    return Page(chosen, encode_cursor([str(start + limit)]) if more else None)


def _position(text: str) -> int:
    if not text.isdigit() or len(text) > POSITION_DIGITS:
        raise not_a_cursor()
    return int(text)


class Paging(NamedTuple):
    """A list request's ``limit`` and ``cursor``, and where its answer's Link header goes."""

    request: Request
    response: Response
    limit: int
    cursor: str | None

    def answer(self, page: Page) -> list[Any]:
        """The page's items, with the next page's link set on the response."""
        if page.next_cursor is not None:
            url = self.request.url.include_query_params(cursor=page.next_cursor)
            self.response.headers["Link"] = f'<{url.path}?{url.query}>; rel="next"'
        return page.items

    def by_key(self, items: Sequence[Item], key: Callable[[Item], str]) -> list[Any]:
        """The requested page of an ordered list computed whole (:func:`page_of`)."""
        return self.answer(page_of(items, key, limit=self.limit, cursor=self.cursor))

    def by_position(self, items: Sequence[Any]) -> list[Any]:
        """The requested page of a list computed whole (:func:`page_by_position`)."""
        return self.answer(page_by_position(items, limit=self.limit, cursor=self.cursor))

    def by_fetch(self, found: Sequence[Item], cursor_of: Callable[[Item], str]) -> list[Any]:
        """The requested page of a keyset read of ``limit + 1`` rows (:meth:`Page.of_fetched`)."""
        return self.answer(Page.of_fetched(found, limit=self.limit, cursor_of=cursor_of))


async def paging(
    request: Request, response: Response, limit: Limit = DEFAULT_LIMIT, cursor: CursorQuery = None
) -> Paging:
    """The ``limit`` and ``cursor`` query parameters of a list route."""
    return Paging(request, response, limit, cursor)


PagingDep = Annotated[Paging, Depends(paging)]
