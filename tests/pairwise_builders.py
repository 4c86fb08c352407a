"""Small builders for the pairwise tests: matched runs of two agents and scripted judges."""

from __future__ import annotations

import json
from collections.abc import Callable

from judge.core.domain.pairwise import PairSide
from judge.core.domain.run import MessageEvent, Run
from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.engine.judging.prompt import flatten_content
from tests.helpers import example


def agent_run(agent: str, run_id: str, *, seed: int = 42, line: str = "") -> Run:
    """The haggle example as played by ``agent`` (buyer seat), its first message extended."""
    run = example("haggle.json")
    seats = [s.model_copy(update={"agent_id": agent}) if s.scored else s for s in run.seats]
    events = list(run.transcript)
    first = next(n for n, e in enumerate(events) if e.seat == "buyer" and e.kind == "message")
    target = events[first]
    assert isinstance(target, MessageEvent)
    events[first] = target.model_copy(update={"content": f"{target.content} {line}".strip()})
    return run.model_copy(
        update={"run_id": run_id, "seed": seed, "seats": seats, "transcript": events}
    )


def side(run: Run, seat: str = "buyer") -> PairSide:
    return PairSide(
        run_id=run.run_id, seat=seat, agent_id=run.agent_of(seat), transcript=run.transcript
    )


def reply(better: str, first: list[int] | None = None, second: list[int] | None = None) -> str:
    return json.dumps(
        {
            "rationale": f"{better} was better",
            "turns_first": first or [],
            "turns_second": second or [],
            "better": better,
        }
    )


def always_first() -> ScriptedBackend:
    """A judge with nothing but position bias: the seat shown first is always better."""
    return ScriptedBackend(reply("first", [1], [2]), model="scripted/first")


def prefers(marker: str) -> ScriptedBackend:
    """A judge without position bias: the transcript holding ``marker`` wins in either order."""

    def answer(request: JudgeRequest) -> str:
        text = flatten_content(request.messages[1]["content"][0]["text"])
        second_part = text.split("Episode of SECOND", 1)[1]
        return reply("second" if marker in second_part else "first")

    return ScriptedBackend(answer, model="scripted/fair")


Answer = Callable[[JudgeRequest], str]
