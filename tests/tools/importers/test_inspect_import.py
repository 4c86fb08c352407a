"""`judge import inspect`: logs that Inspect itself writes, turned into runs and scored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai.log import EvalLog, EvalSample, read_eval_log
from inspect_ai.scorer import includes

from judge import load_run, score_run
from judge.core.domain.run import ActionEvent, Run
from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.engine.judging.prompt import DATAMARK
from judge.tools.cli import main
from judge.tools.importers.common import map_score_value
from judge.tools.importers.inspect_log import runs_from_log
from tests.helpers import verdict
from tests.tools.importers.inspect_tasks import fraction, run_eval, several, shop_task

KIND_OF_ROLE = {
    "system": ("system", "agent"),
    "user": ("message", "user"),
    "assistant": ("message", "agent"),
    "tool": ("observation", "agent"),
}


@pytest.fixture(scope="module")
def shop_log(tmp_path_factory: pytest.TempPathFactory) -> EvalLog:
    task = shop_task([includes(), fraction(), several()])
    return run_eval(task, tmp_path_factory.mktemp("inspect-logs"))


def samples_by_run(log: EvalLog) -> dict[str, EvalSample]:
    assert log.samples is not None
    return {f"shop-{s.id}-e{s.epoch}-{log.eval.run_id[:8]}": s for s in log.samples}


def test_each_sample_and_epoch_becomes_a_run_and_epochs_repeat_one_scenario(
    shop_log: EvalLog,
) -> None:
    imported = runs_from_log(Path(shop_log.location))
    runs = {i.run.run_id: i.run for i in imported}
    assert set(runs) == set(samples_by_run(shop_log))
    by_scenario: dict[str, set[int | None]] = {}
    for run in runs.values():
        by_scenario.setdefault(run.scenario_id, set()).add(run.seed)
    assert by_scenario == {"shop-lamp": {None}, "shop-ghost": {None}}
    seats = {(s.seat, s.agent_id, s.scored) for s in runs[next(iter(runs))].seats}
    assert seats == {("agent", "mockllm-model", True), ("user", "inspect-dataset", False)}


def split(run: Run) -> tuple[list[Any], list[ActionEvent]]:
    actions = [e for e in run.transcript if isinstance(e, ActionEvent)]
    return [e for e in run.transcript if not isinstance(e, ActionEvent)], actions


def test_the_transcript_matches_the_messages_one_to_one(shop_log: EvalLog) -> None:
    samples = samples_by_run(shop_log)
    for item in runs_from_log(Path(shop_log.location)):
        sample = samples[item.run.run_id]
        events, actions = split(item.run)
        assert len(events) == len(sample.messages)
        for event, message in zip(events, sample.messages, strict=True):
            assert (event.kind, event.seat) == KIND_OF_ROLE[message.role]
            expected = message.text or f"error: {message.error.message}"  # type: ignore[union-attr]
            assert event.content == expected
        calls = [c for m in sample.messages if m.role == "assistant" for c in (m.tool_calls or [])]
        assert [(a.name, a.args) for a in actions] == [(c.function, c.arguments) for c in calls]
        assert [a.status for a in actions] == (["error"] if sample.id == "ghost" else ["ok"])


def test_a_turn_opens_with_input_and_closes_with_the_reply(shop_log: EvalLog) -> None:
    run = runs_from_log(Path(shop_log.location))[0].run
    assert [(e.turn, e.kind) for e in run.transcript] == [
        (1, "system"),
        (1, "message"),
        (1, "message"),
        (1, "action"),
        (2, "observation"),
        (2, "message"),
    ]


def test_scores_become_win_conditions(shop_log: EvalLog) -> None:
    imported = {i.run.run_id: i for i in runs_from_log(Path(shop_log.location))}
    lamp = next(i for r, i in imported.items() if r.startswith("shop-lamp-e1"))
    ghost = next(i for r, i in imported.items() if r.startswith("shop-ghost-e1"))
    conditions = {c.id: (c.met, c.progress) for c in lamp.run.win_conditions}
    assert conditions == {
        "includes": (True, None),
        "fraction": (False, 0.25),
        "several-polite": (True, None),
    }
    assert {c.id: c.met for c in ghost.run.win_conditions}["includes"] is False
    assert lamp.notes.skipped == ["score several-words: value 7.0 is not a number in [0, 1]"]
    assert lamp.notes.unmapped["scores"]["fraction"]["explanation"] == "a quarter of the way"


@pytest.mark.parametrize(
    ("value", "met", "progress"),
    [
        ("C", True, None),
        ("I", False, 0.0),
        ("P", False, 0.5),
        ("N", False, 0.0),
        (True, True, None),
        (False, False, 0.0),
        (1, True, None),
        (0.4, False, 0.4),
        (0, False, 0.0),
        ("yes", True, None),
        ("No", False, 0.0),
    ],
)
def test_score_values_map_to_met_and_progress(
    value: Any, met: bool, progress: float | None
) -> None:
    mapped = map_score_value(value)
    assert (mapped.met, mapped.progress) == (met, progress)


@pytest.mark.parametrize("value", [1.5, -0.1, float("nan"), "maybe", [1, 0]])
def test_other_values_are_reported_not_guessed(value: Any) -> None:
    mapped = map_score_value(value)
    assert mapped.met is None and mapped.reason


def test_round_trip_import_then_score_with_the_test_judge(
    shop_log: EvalLog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    monkeypatch.setenv("JUDGE_DEV_MODE", "1")
    out = tmp_path / "runs"
    assert main(["import", "inspect", shop_log.location, "--out", str(out)]) == 0
    written = capsys.readouterr().out.split()
    assert len(written) == 4 and all(Path(p).parent == out for p in written)
    for path in written:  # the files on disk carry the conversation one to one
        run = load_run(path)
        events, _actions = split(run)
        messages = samples_by_run(shop_log)[run.run_id].messages
        assert [e.content for e in events] == [
            m.text or f"error: {m.error.message}" for m in messages
        ]  # type: ignore[union-attr]
    assert main(["score", *written, "--judge", "scripted/0.7", "--json", "--no-progress"]) == 0
    cards = [json.loads(line) for line in capsys.readouterr().out.splitlines()]  # JSON Lines
    samples = samples_by_run(shop_log)
    for card in cards:
        sample = samples[card["run_id"]]
        agent = card["seats"]["agent"]
        replies = [m for m in sample.messages if m.role == "assistant"]
        calls = [c for m in replies for c in (m.tool_calls or [])]
        assert agent["participation"]["player_messages"] == len(replies)
        assert agent["participation"]["actions"] == len(calls)
        assert agent["participation"]["turns"] == 2
        assert agent["traits"]["integrity"]["pass_scores"] == [0.7] * 5
        met = agent["objectives"]["conditions"]
        assert met["includes"] is (sample.scores["includes"].value == "C")  # type: ignore[index]


def test_the_judge_reads_each_message_once_in_order(shop_log: EvalLog) -> None:
    seen: list[str] = []

    def answer(request: JudgeRequest) -> str:
        seen.append(str(request.messages[1]["content"][0]["text"]))
        return verdict(0.5, [1])

    item = next(
        i for i in runs_from_log(Path(shop_log.location)) if i.run.scenario_id == "shop-lamp"
    )
    score_run(load_run(item.run.model_dump(mode="json")), backend=ScriptedBackend(answer))
    unmarked = seen[0].replace(f": {DATAMARK} ", ": ")  # the line mark taken off each event
    lines = [line for line in unmarked.splitlines() if line.startswith("[turn ")]
    sample = samples_by_run(shop_log)[item.run.run_id]
    assert len(lines) == len(sample.messages) + 1  # one tool call
    # seats by platform labels in order of first appearance (the agent's system event first)
    assert lines[1] == "[turn 1] Seat B (message): What does the lamp cost?"
    assert (
        lines[3] == '[turn 1] Seat A (action): lookup_price({"item": "lamp"}) -\u203a ok'
    )  # '>' neutralised


def test_a_json_log_reads_the_same(tmp_path: Path) -> None:
    log = run_eval(shop_task([includes()], epochs=1, ids=("lamp",)), tmp_path, log_format="json")
    assert log.location.endswith(".json")
    [item] = runs_from_log(Path(log.location))
    assert read_eval_log(log.location).samples[0].id == "lamp"  # type: ignore[index]
    assert [c.id for c in item.run.win_conditions] == ["includes"]


def test_a_file_that_is_not_an_inspect_log_is_bad_input(tmp_path: Path, capsys: Any) -> None:
    bad = tmp_path / "x.eval"
    bad.write_text("not a zip")
    assert main(["import", "inspect", str(bad)]) == 2
    assert "not a readable Inspect log" in capsys.readouterr().err
    assert main(["import", "inspect", str(tmp_path / "none.eval")]) == 2
