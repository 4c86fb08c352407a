"""Request bounds on parsed JSON, run-id rules and the run model's own limits."""

from __future__ import annotations

import json
from typing import Any

import pytest

from judge.core.domain import run as run_module
from judge.core.domain.config import PlatformDenoiseConfig, RewardWeights
from judge.core.domain.limits import (
    RESERVED_WORDS,
    BodyError,
    RequestLimits,
    check_json,
    check_run_counts,
    parse_json,
    run_id_problem,
)
from judge.core.domain.run import Run, parse_run
from judge.core.errors import RunFormatError
from tests.helpers import example_data

LIMITS = RequestLimits()


def example(name: str, **changes: Any) -> dict[str, Any]:
    return {**example_data(name), **changes}


def load_json(data: bytes, limits: RequestLimits) -> Any:
    """What the API's request guard does with a body: parse it, then check it."""
    value = parse_json(data, limits)
    check_json(value, limits)
    return value


def nested(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"w": Infinity}', "body.w: Infinity is not a number JSON allows"),
        ('{"w": [1, -Infinity]}', "body.w.1: -Infinity is not a number"),
        ('{"x": {"w_progress": NaN}}', "body.x.w_progress: NaN is not a number"),
        ('{"w": 1e400}', "body.w: not a finite number"),
        ('{"seed": 1180591620717411303424}', "body.seed: integer outside the signed 64-bit range"),
        ('{"c": "a\\ud800b"}', "body.c: contains a lone surrogate (U+D800)"),
        ('{"c": "a\\u0000b"}', "body.c: contains a NUL character (U+0000)"),
        ('{"\\udfff": 1}', "body (a key): contains a lone surrogate (U+DFFF)"),
        ("{not json", "body: not valid JSON"),
        ('{"n": ' + "1" * 5000 + "}", "body: not valid JSON"),
    ],
)
def test_bodies_that_cannot_be_stored_or_read_back_are_refused_naming_the_field(
    text: str, where: str
) -> None:
    with pytest.raises(BodyError) as caught:
        load_json(text.encode(), LIMITS)
    assert str(caught.value).startswith(where)


def test_a_valid_surrogate_pair_is_one_character_and_accepted() -> None:
    assert load_json(b'{"c": "\\ud83d\\ude00"}', LIMITS) == {"c": "\U0001f600"}


@pytest.mark.parametrize("depth", [33, 200, 900, 100_000])
def test_nesting_deeper_than_the_limit_is_refused_without_exhausting_the_stack(depth: int) -> None:
    with pytest.raises(BodyError, match="nested deeper than 32 levels"):
        load_json(nested(depth).encode(), LIMITS)


def test_nesting_at_the_limit_is_accepted() -> None:
    assert load_json(nested(32).encode(), LIMITS) is not None


def test_long_strings_and_long_lists_are_refused_naming_the_field() -> None:
    small = RequestLimits(max_text_chars=10, max_array_items=3)
    with pytest.raises(
        BodyError, match=r"^body.t.0.content: 11 characters, more than the limit of 10$"
    ):
        load_json(json.dumps({"t": [{"content": "x" * 11}]}).encode(), small)
    with pytest.raises(BodyError, match=r"^body.ids: 4 items, more than the limit of 3$"):
        load_json(json.dumps({"ids": [1, 2, 3, 4]}).encode(), small)


@pytest.mark.parametrize(
    ("field", "limit_name"),
    [
        ("seats", "max_seats"),
        ("transcript", "max_events"),
        ("win_conditions", "max_win_conditions"),
        ("trace", "max_trace_steps"),
    ],
)
def test_run_lists_are_bounded_by_their_own_limit(field: str, limit_name: str) -> None:
    limits = RequestLimits()._replace(**{limit_name: 2})
    check_run_counts({field: [{}, {}]}, limits)
    with pytest.raises(BodyError, match=rf"^body.{field}: 3 items, more than the limit of 2$"):
        check_run_counts({field: [{}, {}, {}]}, limits)


@pytest.mark.parametrize(
    "run_id",
    [
        "runs",
        "Submissions",
        "stability",
        "metrics",
        "scorecard",
        "..",
        ".",
        ".hidden",
        "a:b",
        "a/b",
        "a b",
        "x" * 129,
        "",
        "caf\u00e9",
        "-lead",
    ],
)
def test_run_ids_that_could_shadow_a_route_or_break_a_path_are_refused(run_id: str) -> None:
    assert run_id_problem(run_id) is not None
    with pytest.raises(RunFormatError, match="run_id"):
        parse_run(example("haggle.json", run_id=run_id))


@pytest.mark.parametrize("run_id", ["haggle-0007", "a", "A.b_c-9", "x" * 128, "run.42"])
def test_ordinary_run_ids_are_accepted(run_id: str) -> None:
    assert run_id_problem(run_id) is None
    assert parse_run(example("haggle.json", run_id=run_id)).run_id == run_id


def test_every_reserved_word_is_refused_in_any_case() -> None:
    assert all(run_id_problem(w.upper()) for w in RESERVED_WORDS if w.isalpha())


@pytest.mark.parametrize("seed", [2**31, 2**63, 2**70, -(2**31) - 1])
def test_seeds_outside_signed_32_bit_are_refused(seed: int) -> None:
    with pytest.raises(
        RunFormatError, match="seed: Input should be (less|greater) than or equal to"
    ):
        parse_run(example("haggle.json", seed=seed))


@pytest.mark.parametrize("seed", [2**31 - 1, -(2**31), 0])
def test_seeds_at_the_32_bit_bounds_are_accepted(seed: int) -> None:
    assert parse_run(example("haggle.json", seed=seed)).seed == seed


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("x" * 201, "at most 200 characters"),
        ("a\x00b", "NUL character"),
        ("a\ud800", "(lone surrogate|unicode string)"),
    ],
)
def test_adversary_config_must_fit_the_store(value: str, problem: str) -> None:
    with pytest.raises(RunFormatError, match=f"adversary_config: .*{problem}"):
        parse_run(example("haggle.json", adversary_config=value))


def _with_event(**event: Any) -> dict[str, Any]:
    data = example("haggle.json")
    data["transcript"] = [*data["transcript"], {"turn": 9, "seat": "buyer", **event}]
    return data


@pytest.mark.parametrize(
    ("event", "where"),
    [
        ({"kind": "message", "content": "lone \ud800"}, "content: lone surrogate"),
        ({"kind": "message", "content": "nul \x00"}, "content: contains a NUL"),
        (
            {"kind": "action", "name": "pay", "args": {"amount": float("inf")}},
            "args: value.amount: not a finite number",
        ),
        (
            {"kind": "action", "name": "pay", "args": {"a": {"b": float("nan")}}},
            "args: value.a.b: not a finite number",
        ),
        ({"kind": "action", "name": "pay", "result": json.loads(nested(80))}, "result: value.a.a"),
    ],
)
def test_the_run_model_itself_refuses_unstorable_values(event: dict[str, Any], where: str) -> None:
    with pytest.raises(RunFormatError) as caught:
        parse_run(_with_event(**event))
    assert "transcript." in str(caught.value) and where.split(": ", 1)[1] in str(caught.value)


@pytest.mark.parametrize("weight", [float("inf"), float("nan")])
def test_non_finite_weights_are_refused_by_the_run_model(weight: float) -> None:
    data = example("haggle.json")
    data["win_conditions"][0]["weight"] = weight
    with pytest.raises(
        RunFormatError, match="win_conditions.0.weight: Input should be a finite number"
    ):
        parse_run(data)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 1e9])
def test_reward_weights_must_be_finite_and_bounded(value: float) -> None:
    with pytest.raises(ValueError, match="w_progress"):
        RewardWeights(w_progress=value)


def test_the_platform_floor_of_passes_is_five() -> None:
    with pytest.raises(ValueError, match="min_n_runs"):
        PlatformDenoiseConfig(min_n_runs=4)
    assert PlatformDenoiseConfig(min_n_runs=5, n_runs=2).passes == 5


class _CountedId(str):
    """An id that counts how often it is compared or hashed."""

    calls = 0

    def __hash__(self) -> int:
        _CountedId.calls += 1
        return str.__hash__(self)

    def __eq__(self, other: object) -> bool:
        _CountedId.calls += 1
        return str.__eq__(self, other)


def test_duplicate_condition_ids_are_found_in_linear_time() -> None:
    """One hash per id, not a comparison of every pair (40,000 ids: 40,000 operations, not
    1.6 billion); counted, so the test does not depend on how busy the machine is."""
    _CountedId.calls = 0
    assert run_module._repeated(
        [_CountedId(f"c{i}") for i in range(40_000)] + [_CountedId("c7")]
    ) == ["c7"]
    assert _CountedId.calls <= 3 * 40_001
    data = example("haggle.json")
    data["win_conditions"] = [{"id": f"c{i}", "met": True} for i in range(40_000)]
    assert len(Run.model_validate(data).win_conditions) == 40_000
    data["win_conditions"].append({"id": "c7", "met": False})
    with pytest.raises(ValueError, match=r"condition ids must be unique, repeated: \['c7'\]"):
        Run.model_validate(data)
