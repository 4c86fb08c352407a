"""The Python API: the names a user imports from `judge`, and score_run in a notebook's loop."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

import pytest

import judge
from judge import Scorecard, ScoringOptions, load_run, score_run, score_run_async
from judge.core.errors import ConfigError, RunFormatError
from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.engine.library import judge_backend
from tests.helpers import EXAMPLES, verdict


def backend(record: list[str] | None = None) -> ScriptedBackend:
    def answer(request: JudgeRequest) -> str:
        if record is not None:
            record.append(threading.current_thread().name)
        return verdict(0.8 if request.label == "integrity" else 0.6, [1])

    return ScriptedBackend(answer)


def test_the_public_names_come_from_the_package_itself() -> None:
    assert set(judge.__all__) >= {
        "score_run",
        "score_run_async",
        "load_run",
        "Scorecard",
        "ScoringOptions",
    }
    assert ScoringOptions().judge_model.startswith("embedded/")
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        judge.nope  # noqa: B018


def test_score_run_outside_a_loop_gives_the_scorecard() -> None:
    card = score_run(load_run(EXAMPLES / "haggle.json"), backend=backend())
    assert isinstance(card, Scorecard)
    buyer = card.seats["buyer"]
    assert buyer.traits["integrity"].pass_scores == [0.8] * 5
    assert buyer.composite == pytest.approx((0.8 + 0.6 * 7) / 8)


def test_score_run_inside_a_running_event_loop_scores_on_a_worker_thread() -> None:
    threads: list[str] = []
    run = load_run(EXAMPLES / "haggle.json")

    async def notebook_cell() -> Scorecard:
        asyncio.get_running_loop()  # as in Jupyter: a loop is running
        return score_run(run, backend=backend(threads))

    card = asyncio.run(notebook_cell())
    assert card.seats["buyer"].traits["integrity"].mean == pytest.approx(0.8)
    assert len(threads) == 60
    assert all(name.startswith("judge-score") for name in threads)


def test_score_run_async_is_awaited_directly_in_a_loop() -> None:
    run = load_run(EXAMPLES / "haggle.json")
    card = asyncio.run(score_run_async(run, backend=backend()))
    assert card.seats["buyer"].traits["negotiation"].mean == pytest.approx(0.6)


def test_load_run_takes_a_path_a_string_path_json_text_or_parsed_data() -> None:
    path = EXAMPLES / "haggle.json"
    text = path.read_text()
    runs = [load_run(path), load_run(str(path)), load_run(text), load_run(json.loads(text))]
    assert {r.run_id for r in runs} == {"haggle-0007"}
    assert runs[0] == runs[3]


def test_load_run_names_the_bad_field(tmp_path: Path) -> None:
    data = json.loads((EXAMPLES / "haggle.json").read_text())
    data["win_conditions"][0]["wieght"] = 2
    with pytest.raises(RunFormatError, match=r"win_conditions\.0\.wieght"):
        load_run(data)
    with pytest.raises(RunFormatError, match="cannot read the run file"):
        load_run(tmp_path / "missing.json")


def test_the_scripted_test_judge_needs_dev_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JUDGE_DEV_MODE", raising=False)
    with pytest.raises(ConfigError, match="JUDGE_DEV_MODE=1"):
        judge_backend("scripted/0.7")
    monkeypatch.setenv("JUDGE_DEV_MODE", "1")
    scripted = judge_backend("scripted/0.7")
    assert scripted is not None
    card = score_run(load_run(EXAMPLES / "haggle.json"), backend=scripted)
    assert card.seats["buyer"].traits["integrity"].pass_scores == [0.7] * 5
    assert judge_backend("openai/gpt-4o-mini") is None
