"""Opaque keyset cursors: base64url of a small JSON list of the last item's key values.

What a cursor carries reaches the store's queries, so a decoded value is held to the checks
a query value passes (a control character, a NUL, more than 200 characters). The API's list
routes (``judge.api.paging``) and the console's pages both page with these.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence

from judge.domain.limits import query_value_problem
from judge.errors import InputError


def encode_cursor(values: Sequence[str]) -> str:
    """An opaque cursor for the keyset ``values`` of a page's last item."""
    return base64.urlsafe_b64encode(json.dumps(list(values)).encode()).decode().rstrip("=")


def decode_cursor(text: str, *, size: int) -> list[str]:
    """The keyset values in ``text``; InputError when it is not a cursor of this list."""
    try:
        values = json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
    except (ValueError, binascii.Error, UnicodeDecodeError):
        values = None
    if (
        not isinstance(values, list)
        or len(values) != size
        or not all(isinstance(v, str) and query_value_problem(v) is None for v in values)
    ):
        raise InputError("cursor: not a cursor of this list; start again without one")
    return values
