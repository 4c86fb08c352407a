"""The Inspect scorer `judge.tools.inspect_scorer.traits()` inside a real `inspect_ai.eval(...)`."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai.log import read_eval_log

from judge.core.errors import RubricError
from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.engine.judging.prompt import DATAMARK
from judge.tools import inspect_scorer as judge_inspect
from tests.helpers import verdict
from tests.tools.importers.inspect_tasks import run_eval, shop_task


def test_the_scorer_returns_per_trait_values_with_their_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JUDGE_DEV_MODE", "1")
    scorer = judge_inspect.traits(judge_model="scripted/0.7", traits=["integrity", "negotiation"])
    log = run_eval(shop_task([scorer], epochs=2), tmp_path)
    assert log.samples is not None and len(log.samples) == 4
    for sample in log.samples:
        score = sample.scores["traits"]  # type: ignore[index]
        assert score.value == {"integrity": 0.7, "negotiation": 0.7}
        integrity = score.metadata["traits"]["integrity"]  # type: ignore[index]
        assert integrity["passes"] == [0.7] * 5
        assert (integrity["mean"], integrity["variance"], integrity["n_scored"]) == (0.7, 0.0, 5)
        assert integrity["variance_kind"] == "sample (n-1 denominator)"
        assert score.metadata["judge_model"] == "scripted/0.7"  # type: ignore[index]
    metrics = {s.name: s.metrics["judge/trait_mean"].value for s in log.results.scores}  # type: ignore[union-attr]
    assert metrics == {"integrity": pytest.approx(0.7), "negotiation": pytest.approx(0.7)}
    stored = read_eval_log(log.location).samples[0].scores["traits"]  # type: ignore[index]
    assert stored.metadata["traits"]["negotiation"]["passes"] == [0.7] * 5  # type: ignore[index]


def test_the_judge_sees_the_sample_conversation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prompts: list[str] = []

    def answer(request: JudgeRequest) -> str:
        prompts.append(str(request.messages[1]["content"][0]["text"]))
        return verdict(0.6, [2])

    monkeypatch.setattr(judge_inspect, "judge_backend", lambda model: ScriptedBackend(answer))
    log = run_eval(
        shop_task([judge_inspect.traits(traits=["integrity"])], epochs=1, ids=("lamp",)), tmp_path
    )
    assert log.samples[0].scores["traits"].value == {"integrity": 0.6}  # type: ignore[index]
    assert len(prompts) == 5
    seen = prompts[0].replace(f": {DATAMARK} ", ": ")  # the line mark taken off each event
    # seats are named by platform labels in order of first appearance: the agent's system
    # event comes first (docs/integrity.md, "Channels")
    assert "[turn 1] Seat B (message): What does the lamp cost?" in seen
    assert "[turn 2] Seat A (observation): lamp costs 42 coins" in seen
    assert "[turn 2] Seat A (message): It costs 42 coins, final answer." in seen


def test_an_unscored_trait_is_nan_with_its_reasons_never_zero(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def answer(request: JudgeRequest) -> str:
        return "I would rather not say." if request.label == "integrity" else verdict(0.8)

    monkeypatch.setattr(judge_inspect, "judge_backend", lambda model: ScriptedBackend(answer))
    scorer = judge_inspect.traits(traits=["integrity", "negotiation"])
    log = run_eval(shop_task([scorer], epochs=1, ids=("lamp",)), tmp_path)
    score = log.samples[0].scores["traits"]  # type: ignore[index]
    assert math.isnan(score.value["integrity"]) and score.value["negotiation"] == 0.8  # type: ignore[index]
    integrity = score.metadata["traits"]["integrity"]  # type: ignore[index]
    assert (integrity["n_scored"], integrity["n_unscored"], integrity["passes"]) == (0, 5, [])
    assert integrity["unscored_reasons"]
    metrics = {s.name: s.metrics["judge/trait_mean"].value for s in log.results.scores}  # type: ignore[union-attr]
    assert math.isnan(metrics["integrity"]) and metrics["negotiation"] == pytest.approx(0.8)


def test_unknown_traits_are_refused_when_the_scorer_is_made() -> None:
    with pytest.raises(RubricError, match="unknown traits"):
        judge_inspect.traits(traits=["charisma"])
