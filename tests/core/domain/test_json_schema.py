"""The run format's JSON Schema: generated from the models, committed in docs/, kept equal."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from judge.core.domain.json_schema import schema, schema_text
from judge.tools.cli import main
from tests.helpers import EXAMPLES, REPO, example_data

COMMITTED = REPO / "docs" / "run.schema.json"
REGENERATE = "judge schema run > docs/run.schema.json"


def test_the_committed_schema_matches_the_models() -> None:
    assert COMMITTED.read_text() == schema_text("run"), (
        f"docs/run.schema.json is out of date with judge/core/domain/run.py; regenerate it with `{REGENERATE}` "
        "(from the repository root) and update docs/run-format.md if a field changed"
    )


def test_judge_schema_run_prints_it(capsys: Any) -> None:
    assert main(["schema", "run"]) == 0
    assert capsys.readouterr().out == COMMITTED.read_text()


def test_every_example_run_validates_against_the_schema() -> None:
    validator = jsonschema.Draft202012Validator(schema("run"))
    for path in sorted(EXAMPLES.glob("*.json")):
        errors = list(validator.iter_errors(json.loads(path.read_text())))
        assert errors == [], f"{path.name}: {errors[0].message}"


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d["transcript"][0].update(kind="yell"), ["transcript", 0]),
        (lambda d: d["win_conditions"][0].update(wieght=2), ["win_conditions", 0]),
        (lambda d: d["win_conditions"][1].update(progress=1.4), ["win_conditions", 1, "progress"]),
        (lambda d: d.update(seats=[]), ["seats"]),
    ],
)
def test_the_schema_refuses_what_the_models_refuse(change: Any, where: list[object]) -> None:
    data = example_data("haggle.json")
    change(data)
    errors = list(jsonschema.Draft202012Validator(schema("run")).iter_errors(data))
    assert errors and any(list(e.absolute_path)[: len(where)] == where for e in errors)


def test_the_scorecard_schema_is_published_too(capsys: Any) -> None:
    assert main(["schema", "scorecard"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert {"run_id", "seats", "measurement_era"} <= set(printed["properties"])


def test_an_unknown_schema_name_is_bad_input() -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["schema", "nope"])
    assert exit_info.value.code == 2
