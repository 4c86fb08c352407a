"""Opaque keyset cursors, one format for every paged list (the API's ``?cursor=``, the console's
``?after=``; docs/service.md): base64url (unpadded) of a JSON array of the last item's keyset
values, each held to the checks a query value passes since it reaches the store's queries."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

from judge.core.domain.limits import query_value_problem
from judge.core.errors import InputError


class RunPosition(NamedTuple):
    """Where a page of runs (newest first) starts: strictly after this run."""

    created_at: datetime
    run_id: str


def encode_cursor(values: Sequence[str]) -> str:
    """An opaque cursor for the keyset ``values`` of a page's last item."""
    return base64.urlsafe_b64encode(json.dumps(list(values)).encode()).decode().rstrip("=")


def not_a_cursor(parameter: str = "cursor") -> InputError:
    """The one error for a cursor this list did not hand out."""
    return InputError(f"{parameter}: not a cursor of this list; start again without one")


def decode_cursor(text: str, *, size: int, parameter: str = "cursor") -> list[str]:
    """The ``size`` keyset values in ``text`` (``InputError`` when it is not such a cursor)."""
    try:
        values = json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
    except (ValueError, binascii.Error, UnicodeDecodeError):
        values = None
    if (
        not isinstance(values, list)
        or len(values) != size
        or not all(isinstance(v, str) and query_value_problem(v) is None for v in values)
    ):
        raise not_a_cursor(parameter)
    return values


def encode_run_cursor(created_at: datetime, run_id: str) -> str:
    """The cursor after one run of a newest-first list of runs."""
    return encode_cursor([created_at.isoformat(), run_id])


def decode_run_cursor(text: str, *, parameter: str = "cursor") -> RunPosition:
    """The run a runs cursor points after (``InputError`` when it is not one)."""
    when, run_id = decode_cursor(text, size=2, parameter=parameter)
    try:
        return RunPosition(datetime.fromisoformat(when), run_id)
    except ValueError:
        raise not_a_cursor(parameter) from None
