"""`judge score` says the reply format each pass was really sent in: one line for the card
when the passes went alike, each trait's beside it where the traits differ, and the counts per
judge model in the JSON card (docs/judge-signal.md, "On the card")."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from judge.core.domain.judging import ReplyFormat
from judge.engine.judging.backends import JudgeReply, JudgeRequest, ScriptedBackend
from judge.tools.cli import main
from tests.helpers import EXAMPLES, verdict

#: What the scripted server took, per trait: json_schema everywhere but where a test says.
FormatOf = Callable[[str], ReplyFormat]


def score(monkeypatch: pytest.MonkeyPatch, format_of: FormatOf, *flags: str) -> None:
    """Score the haggle example with a judge whose every reply says how it was sent."""

    def reply(request: JudgeRequest) -> JudgeReply:
        sent = format_of(request.label)
        return JudgeReply(
            text=verdict(0.5, [2]), reply_format=sent, structured_output=sent != "none"
        )

    backend = ScriptedBackend(reply, model="scripted")
    monkeypatch.setattr("judge.tools.cli.score.backend_for", lambda model: backend)
    argv = ["score", str(EXAMPLES / "haggle.json"), "--no-progress", "--judge", "scripted"]
    assert main([*argv, *flags]) == 0
    assert len(backend.history) == 60


def trait_block(out: str, trait: str) -> list[str]:
    """The trait's line and the indented lines under it."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"  {trait} "))
    block = [lines[start]]
    for line in lines[start + 1 :]:
        if not line.startswith("    "):
            break
        block.append(line)
    return block


def test_one_format_is_one_line_under_the_pass_score(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    score(monkeypatch, lambda trait: "json_schema")
    lines = capsys.readouterr().out.splitlines()

    parse = next(i for i, line in enumerate(lines) if line.startswith("pass score: "))
    assert lines[parse + 1] == "reply format: json_schema"
    assert sum("reply format" in line for line in lines) == 1  # no trait repeats it


def test_traits_sent_differently_each_say_theirs(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    score(monkeypatch, lambda trait: "none" if trait == "cooperation" else "json_object")
    out = capsys.readouterr().out

    assert "\nreply format: json_object 55, none 5\n" in out
    assert trait_block(out, "cooperation")[1] == "    reply format: none"
    assert trait_block(out, "negotiation")[1] == "    reply format: json_object"
    # the safety block's traits too (the CLI prints the owner's card)
    assert trait_block(out, "manipulation_resistance")[1] == "    reply format: json_object"
    assert out.count("    reply format: ") == 12


def test_the_json_card_counts_each_models_passes_per_format(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    score(monkeypatch, lambda trait: "none" if trait == "cooperation" else "json_schema", "--json")
    card = json.loads(capsys.readouterr().out)

    assert card["judge_parse"]["scripted"]["reply_formats"] == {"json_schema": 55, "none": 5}
    assert card["judge_parse"]["scripted"]["structured_passes"] == 55
    cooperation = card["seats"]["buyer"]["traits"]["cooperation"]["passes"]
    assert {p["reply_format"] for p in cooperation} == {"none"}


def test_a_judge_that_does_not_say_is_not_recorded(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    backend = ScriptedBackend(verdict(0.5), model="scripted")
    monkeypatch.setattr("judge.tools.cli.score.backend_for", lambda model: backend)
    argv = ["score", str(EXAMPLES / "haggle.json"), "--no-progress", "--judge", "scripted"]
    assert main(argv) == 0
    assert "\nreply format: not recorded\n" in capsys.readouterr().out
