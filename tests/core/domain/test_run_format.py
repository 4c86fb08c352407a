import copy
import json
from pathlib import Path

import jsonschema
import pytest

from judge.core.domain.config import ParticipationConfig
from judge.core.domain.run import ActionEvent, parse_run, parse_run_json
from judge.core.errors import RunFormatError
from tests.helpers import example_data


def test_the_spec_example_parses_with_every_event_kind_typed() -> None:
    run = parse_run(example_data("haggle.json"))
    assert run.run_id == "haggle-0007"
    assert run.scored_seats == ["buyer"]
    offers = [e for e in run.transcript if isinstance(e, ActionEvent)]
    assert [o.args["price"] for o in offers] == [40, 50, 55, 62, 62]
    assert run.win_conditions[1].progress == 0.4


def test_weight_defaults_to_one() -> None:
    data = example_data("haggle.json")
    del data["win_conditions"][1]["weight"]
    assert parse_run(data).win_conditions[1].weight == 1.0


def _error(data: object) -> str:
    with pytest.raises(RunFormatError) as info:
        parse_run(data, source="bad.json")
    return str(info.value)


def test_unknown_event_kind_names_the_field() -> None:
    data = example_data("haggle.json")
    data["transcript"][0]["kind"] = "shout"
    message = _error(data)
    assert "transcript.0" in message and "shout" in message


def test_misspelled_field_is_refused_not_ignored() -> None:
    data = example_data("haggle.json")
    data["win_conditions"][0]["wieght"] = 2
    assert "win_conditions.0.wieght" in _error(data)


def test_progress_outside_unit_interval_is_refused() -> None:
    data = example_data("haggle.json")
    data["win_conditions"][1]["progress"] = 1.4
    assert "win_conditions.1.progress" in _error(data)


def test_transcript_seat_must_be_declared() -> None:
    data = example_data("haggle.json")
    data["transcript"][0]["seat"] = "auctioneer"
    assert "refers to seats not listed in seats: ['auctioneer']" in _error(data)


def test_action_status_is_one_of_four() -> None:
    data = example_data("haggle.json")
    data["transcript"][2]["status"] = "maybe"
    assert "transcript.2.action.status" in _error(data)


def test_missing_run_id_and_duplicate_conditions_are_named() -> None:
    data = example_data("haggle.json")
    del data["run_id"]
    assert "run_id: Field required" in _error(data)
    data = example_data("haggle.json")
    data["win_conditions"].append(copy.deepcopy(data["win_conditions"][0]))
    assert "condition ids must be unique" in _error(data)


def test_a_run_without_a_scored_seat_is_refused() -> None:
    data = example_data("haggle.json")
    data["seats"][0]["scored"] = False
    assert "at least one seat must have scored: true" in _error(data)


def test_invalid_json_reports_the_line() -> None:
    with pytest.raises(RunFormatError, match=r"bad.json: not valid JSON: .* at line 2"):
        parse_run_json('{"run_id": "x",\n oops}', source="bad.json")


# The loader and docs/run.schema.json accept the same runs: a corpus of valid runs and of
# one-field changes, each read by both (pydantic strict mode on the run models).
REPO = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((REPO / "docs" / "run.schema.json").read_text())
#: (path into the haggle example, value, whether the published schema accepts it)
CHANGES: list[tuple[tuple[object, ...], object, bool]] = [
    (("win_conditions", 0, "met"), "yes", False),
    (("win_conditions", 0, "met"), 1, False),
    (("win_conditions", 0, "met"), False, True),
    (("seats", 1, "scored"), "false", False),
    (("seats", 1, "scored"), 0, False),
    (("transcript", 0, "turn"), "2", False),
    (("transcript", 0, "turn"), True, False),
    (("transcript", 0, "turn"), 2, True),
    (("transcript", 0, "turn"), 2.0, True),  # JSON's integer: a number without a fraction
    (("transcript", 0, "turn"), 2.5, False),
    (("seed",), "7", False),
    (("seed",), True, False),
    (("seed",), 7, True),
    (("seed",), 7.0, True),
    (("win_conditions", 1, "weight"), "2", False),
    (("win_conditions", 1, "weight"), True, False),
    (("win_conditions", 1, "weight"), 2, True),
    (("win_conditions", 1, "weight"), 2.5, True),
    (("win_conditions", 1, "progress"), "0.4", False),
    (("win_conditions", 1, "progress"), 1, True),
    (("run_id",), 7, False),
    (("scenario_id",), 7, False),
    (("transcript", 0, "content"), 90, False),
    (("transcript", 2, "status"), "OK", False),
    (("trace",), [{"turn": "1", "seat": "buyer"}], False),
    (("trace",), [{"turn": 1, "seat": "buyer", "tokens_in": "12"}], False),
    (("trace",), [{"turn": 1, "seat": "buyer", "tokens_in": 12, "latency_ms": 3}], True),
    (("world",), {"end_state": "w.db", "step_states": [{"turn": "1", "database": "a"}]}, False),
    (("world",), {"end_state": "w.db", "step_states": [{"turn": 1, "database": "a"}]}, True),
    (("world",), {"end_state": "w.db", "step_states": [{"turn": 1.0, "database": "a"}]}, True),
    (("trace",), [{"turn": 1, "seat": "buyer", "tokens_in": 12.0}], True),
]


def _changed(path: tuple[object, ...], value: object) -> dict[str, object]:
    data = example_data("haggle.json")
    *parents, last = path
    target: object = data
    for part in parents:
        target = target[part]  # type: ignore[index]
    target[last] = value  # type: ignore[index]
    return data


def _schema_accepts(data: object) -> bool:
    return jsonschema.Draft202012Validator(SCHEMA).is_valid(data)


def _loader_accepts(data: object) -> bool:
    try:
        parse_run(data)
    except RunFormatError:
        return False
    return True


@pytest.mark.parametrize(("path", "value", "valid"), CHANGES)
def test_the_loader_accepts_exactly_what_the_published_schema_accepts(
    path: tuple[object, ...], value: object, valid: bool
) -> None:
    data = _changed(path, value)
    assert _schema_accepts(data) is valid
    assert _loader_accepts(data) is valid


@pytest.mark.parametrize(
    "name", ["haggle.json", "gated_seat.json", "two_seats_partial_credit.json"]
)
def test_every_example_run_is_valid_to_both(name: str) -> None:
    data = example_data(name)
    assert _schema_accepts(data) and _loader_accepts(data)


def test_a_string_for_a_boolean_names_the_field_and_the_type() -> None:
    message = _error(_changed(("win_conditions", 0, "met"), "yes"))
    assert message == "bad.json: win_conditions.0.met: Input should be a valid boolean"


DOC = (REPO / "docs" / "run-format.md").read_text()


def _event_3(field: str, value: object) -> dict[str, object]:
    return _changed(("transcript", 3, field), value)


def _renamed(data: dict[str, object], parent: object, old: str, new: str) -> dict[str, object]:
    parent[new] = parent.pop(old)  # type: ignore[index, attr-defined]
    return data


def _role_for_seat() -> dict[str, object]:
    data = example_data("haggle.json")
    return _renamed(data, data["transcript"][3], "seat", "role")


def _messages_for_transcript() -> dict[str, object]:
    data = example_data("haggle.json")
    return _renamed(data, data, "transcript", "messages")


@pytest.mark.parametrize(
    ("data", "shown"),
    [
        (_event_3("kind", "yell"), "transcript.3: Input tag 'yell' found using 'kind'"),
        (_event_3("turn", "2"), "transcript.3.message.turn: Input should be a valid integer"),
        (
            _role_for_seat(),
            "transcript.3.message.role: Extra inputs are not permitted (did you mean 'seat'?)",
        ),
        (
            _messages_for_transcript(),
            "messages: Extra inputs are not permitted (did you mean 'transcript'?)",
        ),
        (
            _changed(("win_conditions", 0, "met"), "yes"),
            "win_conditions.0.met: Input should be a valid boolean",
        ),
    ],
)
def test_the_documented_errors_are_the_ones_the_loader_prints(
    data: dict[str, object], shown: str
) -> None:
    assert shown in _error(data)
    assert shown in DOC


def test_a_misspelt_field_gets_the_field_it_most_likely_meant() -> None:
    data = example_data("haggle.json")
    data["win_conditions"][0]["wieght"] = 2
    assert "win_conditions.0.wieght: Extra inputs are not permitted (did you mean 'weight'?)" in (
        _error(data)
    )


def test_an_unknown_field_with_no_likely_meaning_gets_no_guess() -> None:
    data = example_data("haggle.json")
    data["zzqx"] = 1
    assert _error(data) == "bad.json: zzqx: Extra inputs are not permitted"


def test_invalid_json_reports_the_line_and_the_column() -> None:
    with pytest.raises(RunFormatError) as info:
        parse_run_json('{"run_id": "x",\n  oops}', source="bad.json")
    assert str(info.value) == (
        "bad.json: not valid JSON: Expecting property name enclosed in double quotes at line 2, "
        "column 3"
    )


def test_the_documented_gate_thresholds_are_the_defaults() -> None:
    defaults = ParticipationConfig()
    assert f"| `min_player_messages` | {defaults.min_player_messages} |" in DOC
    assert f"| `min_actions_per_turn` | {defaults.min_actions_per_turn} |" in DOC


def test_a_span_id_is_named_within_its_trace() -> None:
    data = example_data("haggle.json")
    run = parse_run({**data, "trace_id": "ab" * 16, "span_id": "cd" * 8})
    assert (run.trace_id, run.span_id) == ("ab" * 16, "cd" * 8)
    with pytest.raises(RunFormatError, match="span_id: a span is named within its trace"):
        parse_run({**data, "span_id": "cd" * 8})
    with pytest.raises(RunFormatError, match="span_id"):
        parse_run({**data, "trace_id": "ab" * 16, "span_id": "CD" * 8})
