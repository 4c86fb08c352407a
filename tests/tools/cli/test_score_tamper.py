"""`judge score` shows the card's score integrity: the JSON card carries each seat's
``tamper`` as the pipeline set it, and the readable summary says per flagged seat how many
judge-directed passages were withheld from the judge."""

from __future__ import annotations

import json
from typing import Any

import pytest

from judge.engine.judging.backends import ScriptedBackend
from judge.engine.pipeline import score_run
from judge.tools.cli import main
from tests.helpers import EXAMPLES, verdict
from tests.tamper_cards import DETECTOR, EXCERPT, finding, seat_tamper, span, with_tamper

TWO = seat_tamper(finding(), finding("appeal", where=span(4, 2, 0, 5), excerpt="please"))


@pytest.fixture
def flagging(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scripted judge, and a pipeline whose detector flagged the buyer twice."""
    backend = ScriptedBackend(lambda _r: verdict(0.5, [1]), model="scripted")
    monkeypatch.setattr("judge.tools.cli.score.backend_for", lambda model: backend)

    def flagged(*args: Any, **kwargs: Any) -> Any:
        return with_tamper(score_run(*args, **kwargs), "buyer", TWO)

    monkeypatch.setattr("judge.tools.cli.score.score_run", flagged)


def test_the_json_card_carries_the_seats_findings(flagging: None, capsys: Any) -> None:
    argv = ["score", str(EXAMPLES / "haggle.json"), "--json", "--no-progress"]
    assert main(argv) == 0

    tamper = json.loads(capsys.readouterr().out)["seats"]["buyer"]["tamper"]
    assert (tamper["flagged"], tamper["detector_version"]) == (True, DETECTOR)
    assert [f["kind"] for f in tamper["findings"]] == ["forged_verdict", "appeal"]
    assert tamper["findings"][0]["excerpt"] == EXCERPT and len(tamper["withheld"]) == 2


def test_the_summary_names_each_flagged_seat_and_its_withheld_passages(
    flagging: None, capsys: Any
) -> None:
    assert main(["score", str(EXAMPLES / "haggle.json"), "--no-progress"]) == 0

    out = capsys.readouterr().out
    assert "seat buyer: 2 judge-directed passages withheld (docs/integrity.md)" in out.splitlines()
    assert "seat seller:" not in out and EXCERPT not in out
