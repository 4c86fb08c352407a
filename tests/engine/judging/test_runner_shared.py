"""Passes that share their prompt (docs/scoring.md, "Passes"): against real servers on
loopback, one that answers OpenAI's ``n`` with n choices (as vLLM and SGLang do), one that
ignores it (as llama-cpp-python's server does) and one that refuses more choices than it has
slots (as llama.cpp's server does), the runner sends the passes of one trait as one request
where the server answers them all, as few requests as the server's bound allows where it has
one, and one by one elsewhere; each pass, the card and the era say which."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from judge.core.domain.scorecard import Scorecard
from judge.core.errors import PermanentJudgeError
from judge.core.scoring.era import measurement_era
from judge.engine.judging.providers.openai_compatible import OpenAICompatibleBackend
from judge.engine.judging.runner import RunnerConfig, pass_specs, run_passes
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions, score_run_async
from judge.engine.settings import judging_environment
from judge.server.service.card_views import agent_view
from tests.fake_judge import http_response
from tests.helpers import example

TRAITS = ["integrity", "cooperation"]


class ChoicesServer:
    """Answers every chat completion with ``n`` choices (``honours_n``) or with one, each a
    verdict whose score names the trait's rubric, and usage for the whole request."""

    def __init__(
        self, *, honours_n: bool, slots: int | None = None, refusal: str | None = None
    ) -> None:
        self.honours_n = honours_n
        #: more choices than this are refused with a 400 (``refusal``, else llama.cpp's text)
        self.slots = slots
        self.refusal = refusal
        self.bodies: list[dict[str, Any]] = []

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        fields = dict(line.split(": ", 1) for line in head[1:] if ": " in line)
        length = int({k.lower(): v for k, v in fields.items()}.get("content-length", "0"))
        body = json.loads(await reader.readexactly(length))
        self.bodies.append(body)
        if self.slots is not None and int(body.get("n", 1)) > self.slots:
            message = self.refusal or (
                f"Field 'n': Value must be between 1 <= value <= {self.slots}, but got {body['n']}"
            )
            error = {"error": {"code": 400, "message": message, "type": "invalid_request_error"}}
            writer.write(http_response(400, json.dumps(error).encode(), {"Connection": "close"}))
            await writer.drain()
            writer.close()
            return
        score = 0.8 if "integrity" in body["messages"][-1]["content"] else 0.3
        n = int(body.get("n", 1)) if self.honours_n else 1
        choices = [
            {
                "index": k,
                "message": {
                    "role": "assistant",
                    "content": json.dumps({"score": score, "turns": [1], "rationale": f"c{k}"}),
                },
                "finish_reason": "stop",
            }
            for k in range(n)
        ]
        usage = {"prompt_tokens": 500, "completion_tokens": 12 * n, "total_tokens": 500 + 12 * n}
        reply = {
            "id": "x",
            "object": "chat.completion",
            "model": "m",
            "choices": choices,
            "usage": usage,
        }
        writer.write(http_response(200, json.dumps(reply).encode(), {"Connection": "close"}))
        await writer.drain()
        writer.close()


@asynccontextmanager
async def serving(server: ChoicesServer) -> AsyncIterator[str]:
    listener = await asyncio.start_server(server.handle, "127.0.0.1", 0)
    try:
        yield f"http://127.0.0.1:{listener.sockets[0].getsockname()[1]}/v1"
    finally:
        listener.close()


def _judge(server: ChoicesServer, config: RunnerConfig) -> list[Any]:
    run = example("haggle.json")
    rubrics = default_rubric_set().select(TRAITS)
    specs = pass_specs(run.transcript, "buyer", list(rubrics.rubrics.values()), 5, config)

    async def scenario() -> list[Any]:
        async with serving(server) as base:
            backend = OpenAICompatibleBackend("openai/m", env=judging_environment(), api_base=base)
            return await run_passes(specs, backend, known_turns={1, 2, 3}, config=config)

    return asyncio.run(scenario())


@pytest.fixture(autouse=True)
def _no_openai_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE", "OPENAI_API_KEY", "JUDGE_OPENAI_CLIENT"):
        monkeypatch.delenv(name, raising=False)


def test_a_server_that_answers_n_gets_one_request_per_trait() -> None:
    server = ChoicesServer(honours_n=True)
    passes = _judge(server, RunnerConfig(concurrency=1))
    assert [b.get("n") for b in server.bodies] == [5, 5]
    assert len(passes) == 10
    by_trait = {
        t: sorted((p for p in passes if p.trait == t), key=lambda p: p.index) for t in TRAITS
    }
    assert [p.score for p in by_trait["integrity"]] == [0.8] * 5
    assert [p.score for p in by_trait["cooperation"]] == [0.3] * 5
    assert [p.rationale for p in by_trait["integrity"]] == [f"c{k}" for k in range(5)]
    # the request's usage is counted once, on its first pass
    assert sum(p.prompt_tokens for p in passes) == 1000
    assert sum(p.completion_tokens for p in passes) == 120
    assert [p.prompt_tokens for p in by_trait["cooperation"]] == [500, 0, 0, 0, 0]
    # each pass says it came from a request of five choices
    assert [p.request_choices for p in passes] == [5] * 10 and all(p.shared for p in passes)


def test_a_server_that_ignores_n_gets_the_rest_one_by_one() -> None:
    server = ChoicesServer(honours_n=False)
    passes = _judge(server, RunnerConfig(concurrency=1))
    # the first trait asks n=5 once and gets one choice; every other pass goes alone
    assert [b.get("n") for b in server.bodies] == [5] + [None] * 9
    assert sorted((p.trait, p.index) for p in passes) == sorted(
        (t, i) for t in TRAITS for i in range(5)
    )
    assert all(p.score in (0.8, 0.3) and p.prompt_tokens == 500 for p in passes)
    # one choice answered is a request of its own, the asked n notwithstanding
    assert [p.request_choices for p in passes] == [1] * 10 and not any(p.shared for p in passes)


def test_a_server_with_fewer_slots_than_passes_shares_as_many_as_it_has() -> None:
    server = ChoicesServer(honours_n=True, slots=4)
    passes = _judge(server, RunnerConfig(concurrency=1))
    # n=5 is refused once, naming the bound 4; each trait then asks 4 and sends its last alone
    assert [b.get("n") for b in server.bodies] == [5, 4, None, 4, None]
    by_trait = {
        t: sorted((p for p in passes if p.trait == t), key=lambda p: p.index) for t in TRAITS
    }
    assert [p.request_choices for p in by_trait["integrity"]] == [4, 4, 4, 4, 1]
    assert [p.score for p in by_trait["cooperation"]] == [0.3] * 5
    assert sum(p.shared for p in passes) == 8


def test_a_refusal_that_names_no_bound_halves_the_choices_asked() -> None:
    server = ChoicesServer(honours_n=True, slots=2, refusal="too many choices")
    passes = _judge(server, RunnerConfig(concurrency=1))
    assert [b.get("n") for b in server.bodies] == [5, 2, 2, None, 2, 2, None]
    assert sorted(p.request_choices for p in passes) == [1, 1] + [2] * 8


def test_a_server_that_refuses_every_request_still_fails_the_passes() -> None:
    server = ChoicesServer(honours_n=True, slots=0, refusal="model not found")
    with pytest.raises(PermanentJudgeError, match="model not found"):
        _judge(server, RunnerConfig(concurrency=1, max_attempts=1))
    # asked 5, then half as many, then one alone: the last refusal is the one raised
    assert [b.get("n") for b in server.bodies] == [5, 2, None]


def test_shared_passes_can_be_switched_off() -> None:
    server = ChoicesServer(honours_n=True)
    passes = _judge(server, RunnerConfig(concurrency=2, shared_passes=False))
    assert len(server.bodies) == 10 and all("n" not in b for b in server.bodies)
    assert len(passes) == 10 and all(p.request_choices == 1 for p in passes)


def _card(server: ChoicesServer, monkeypatch: pytest.MonkeyPatch) -> Scorecard:
    """The card of ``judge score haggle.json --judge openai/m`` against ``server``."""
    rubrics = default_rubric_set().select(TRAITS)

    async def scenario() -> Scorecard:
        async with serving(server) as base:
            monkeypatch.setenv("OPENAI_API_BASE", base)
            options = ScoringOptions(judge_model="openai/m")
            return await score_run_async(example("haggle.json"), options=options, rubrics=rubrics)

    return asyncio.run(scenario())


def test_the_card_and_the_era_say_the_passes_were_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    shared = _card(ChoicesServer(honours_n=True), monkeypatch)
    alone = _card(ChoicesServer(honours_n=False), monkeypatch)
    seats = list(shared.seats)
    assert shared.judge_parse["openai/m"].shared_passes == 10 * len(seats)
    assert alone.judge_parse["openai/m"].shared_passes == 0
    every = [p for s in shared.seats.values() for t in s.traits.values() for p in t.passes]
    assert every and all(p.request_choices == 5 for p in every)
    # the era names the shared requests, and only they move it: the same stack judged a pass
    # a request is the era it always was (no shared part hashed)
    assert shared.measurement_era.shared_passes and not alone.measurement_era.shared_passes
    assert shared.measurement_era.era_id != alone.measurement_era.era_id
    unshared = shared.measurement_era.model_dump(exclude={"era_id", "shared_passes"})
    assert unshared == alone.measurement_era.model_dump(exclude={"era_id", "shared_passes"})
    # the server took the strict schema, which litellm's map does not give openai/m: the era
    # names it (docs/scoring.md, "Reply format")
    before = measurement_era(
        judge_model="openai/m",
        rubric_hashes=default_rubric_set().select(TRAITS).hashes,
        settings=ScoringOptions().settings,
        reply_formats={"openai/m": ["json_schema"]},
        declared_formats={"openai/m": "none"},
    )
    assert alone.measurement_era == before
    assert alone.measurement_era.reply_format == {"openai/m": ["json_schema"]}
    # an agent's card keeps the mark on its own passes (not safety information)
    mine = agent_view(shared, seats[0])
    assert all(p.request_choices == 5 for t in mine.seat.traits.values() for p in t.passes)
