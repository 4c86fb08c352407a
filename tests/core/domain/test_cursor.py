"""Keyset cursors: one format for the API's ``?cursor=`` and the console's ``?after=``."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime

import pytest

from judge.core.domain.cursor import (
    RunPosition,
    decode_cursor,
    decode_run_cursor,
    encode_cursor,
    encode_run_cursor,
)
from judge.core.errors import InputError


def _raw(values: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(values).encode()).decode().rstrip("=")


def test_a_cursor_decodes_to_the_values_it_was_made_from() -> None:
    assert decode_cursor(encode_cursor(["x", "y"]), size=2) == ["x", "y"]


@pytest.mark.parametrize("bad", ["%%%", _raw(["x"]), "bm90IGpzb24", _raw({"a": "b"}), _raw([1, 2])])
def test_text_that_is_not_a_cursor_of_this_list_is_an_input_error(bad: str) -> None:
    with pytest.raises(InputError, match="^cursor: not a cursor of this list"):
        decode_cursor(bad, size=2)


@pytest.mark.parametrize(
    "values",
    [["2026-12-01T00:00:00+00:00", "a\x00b"], ["2026-12-01T00:00:00\x00", "x"], ["t", "x" * 201]],
)
def test_a_decoded_cursor_value_is_checked_like_a_query_value(values: list[str]) -> None:
    with pytest.raises(InputError, match="^cursor:"):
        decode_cursor(_raw(values), size=2)


def test_a_runs_cursor_carries_the_time_and_the_run_id() -> None:
    when = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)
    assert decode_run_cursor(encode_run_cursor(when, "run-7")) == RunPosition(when, "run-7")


def test_a_runs_cursor_without_a_time_names_the_parameter_it_came_in() -> None:
    with pytest.raises(InputError, match="^after: not a cursor of this list"):
        decode_run_cursor(encode_cursor(["yesterday", "run-7"]), parameter="after")


def test_the_console_s_old_pipe_format_is_refused() -> None:
    old = base64.urlsafe_b64encode(b"2026-12-01T00:00:00+00:00|run-1").decode().rstrip("=")
    with pytest.raises(InputError, match="^after:"):
        decode_run_cursor(old, parameter="after")
