import copy

import pytest

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
