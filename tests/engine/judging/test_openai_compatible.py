"""The direct OpenAI-compatible provider, against real servers on loopback: what it sends, what
it reads back, how it maps failures, and which judges it takes (the rest go through litellm)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from judge.core.domain.scorecard import Scorecard
from judge.core.errors import ConfigError, PermanentJudgeError, TransientJudgeError
from judge.core.scoring.era import measurement_era
from judge.engine.judging.backends import JudgeRequest
from judge.engine.judging.environment import openai_base
from judge.engine.judging.providers.openai_compatible import (
    OpenAICompatibleBackend,
    OpenAICompatibleClient,
)
from judge.engine.judging.registry import backend_for
from judge.engine.judging.runner import RunnerConfig, call_with_retries
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions, score_run_async
from judge.engine.settings import judge_spec, judging_environment
from tests.fake_judge import VERDICT, FakeJudge, completion, http_response
from tests.helpers import example
from tests.pg import free_port

REQUEST = JudgeRequest(
    messages=[{"role": "user", "content": [{"type": "text", "text": "transcript"}]}], max_tokens=64
)


@pytest.fixture(autouse=True)
def _no_openai_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE", "OPENAI_API_KEY", "JUDGE_OPENAI_CLIENT"):
        monkeypatch.delenv(name, raising=False)


class Recorder:
    """A one-route server: answers every POST with ``status`` and ``body``, keeping what it got."""

    def __init__(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.status, self.body, self.headers = status, body, headers or {}
        self.requests: list[tuple[str, dict[str, str], dict[str, Any]]] = []

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        fields = dict(line.split(": ", 1) for line in head[1:] if ": " in line)
        headers = {k.lower(): v for k, v in fields.items()}
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        self.requests.append((head[0].split(" ")[1], headers, json.loads(body)))
        writer.write(http_response(self.status, self.body, self.headers))
        await writer.drain()
        writer.close()


@asynccontextmanager
async def serving(recorder: Recorder) -> AsyncIterator[str]:
    server = await asyncio.start_server(recorder.handle, "127.0.0.1", 0)
    try:
        yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/v1"
    finally:
        server.close()


def test_a_call_sends_what_litellm_would_and_reads_the_reply_back() -> None:
    async def scenario() -> tuple[Any, Recorder]:
        recorder = Recorder(200, completion("qwen", VERDICT))
        async with serving(recorder) as base:
            backend = OpenAICompatibleBackend(
                "openai/qwen", env=judging_environment(), api_base=base + "/", api_key="sk-test"
            )
            return await backend.complete(REQUEST), recorder

    reply, recorder = asyncio.run(scenario())
    assert (reply.text, reply.prompt_tokens, reply.completion_tokens, reply.cost_usd) == (
        VERDICT,
        120,
        20,
        None,
    )
    [(path, headers, body)] = recorder.requests
    assert path == "/v1/chat/completions"
    assert headers["authorization"] == "Bearer sk-test"
    assert body == {
        "model": "qwen",
        "messages": [{"role": "user", "content": "transcript"}],
        "temperature": 0.0,
        "max_tokens": 64,
        "logprobs": True,  # asked of every OpenAI-compatible server (docs/judge-signal.md)
        "top_logprobs": 20,
    }


def test_a_refusal_and_cached_tokens_are_read_like_litellm_reads_them() -> None:
    answer = json.loads(completion("qwen", ""))
    answer["choices"][0].update(
        finish_reason="content_filter", message={"role": "assistant", "content": None}
    )
    answer["usage"]["prompt_tokens_details"] = {"cached_tokens": 96}

    async def scenario() -> Any:
        async with serving(Recorder(200, json.dumps(answer).encode())) as base:
            return await OpenAICompatibleBackend(
                "openai/qwen", env=judging_environment(), api_base=base
            ).complete(REQUEST)

    reply = asyncio.run(scenario())
    assert (reply.text, reply.refused, reply.cached_prompt_tokens) == ("", True, 96)


@pytest.mark.parametrize(
    ("status", "headers", "error", "retry_after"),
    [
        (429, {"Retry-After": "3"}, TransientJudgeError, 3.0),
        (503, {}, TransientJudgeError, None),
        (408, {}, TransientJudgeError, None),
        (400, {}, PermanentJudgeError, None),
        (401, {}, PermanentJudgeError, None),
    ],
)
def test_failures_are_transient_or_permanent_as_through_litellm(
    status: int, headers: dict[str, str], error: type[Exception], retry_after: float | None
) -> None:
    body = b'{"error": {"message": "no such thing"}}'

    async def scenario() -> None:
        async with serving(Recorder(status, body, headers)) as base:
            await OpenAICompatibleBackend(
                "openai/qwen", env=judging_environment(), api_base=base
            ).complete(REQUEST)

    with pytest.raises(error) as raised:
        asyncio.run(scenario())
    assert str(status) in str(raised.value) and "no such thing" in str(raised.value)
    if isinstance(raised.value, TransientJudgeError):
        assert raised.value.retry_after == retry_after


def test_an_unreachable_server_or_a_reply_without_choices_is_transient() -> None:
    client = OpenAICompatibleClient(
        "openai/qwen", base=f"http://127.0.0.1:{free_port()}/v1", api_key=None, timeout=5
    )
    with pytest.raises(TransientJudgeError, match="Connect"):
        asyncio.run(client.complete({"messages": []}))

    async def empty() -> None:
        async with serving(Recorder(200, b'{"choices": []}')) as base:
            await OpenAICompatibleBackend(
                "openai/qwen", env=judging_environment(), api_base=base
            ).complete(REQUEST)

    with pytest.raises(TransientJudgeError, match="no completion choices"):
        asyncio.run(empty())


def test_the_runner_waits_out_retry_after_and_a_429_is_not_counted_as_answered() -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        judge.rate_limited = False

    with FakeJudge(rate_limited=True, retry_after=2.0) as judge:
        backend = OpenAICompatibleBackend(
            "openai/fake", env=judging_environment(), api_base=judge.api_base
        )
        started = time.monotonic()
        attempt = asyncio.run(call_with_retries(backend, REQUEST, RunnerConfig(), sleep))
        stats = judge.snapshot()
    assert waits == [2.0] and attempt.attempts == 2 and attempt.reply.text == VERDICT
    assert (stats["rejected"], stats["answered"]) == (1, 1)
    assert time.monotonic() - started < 5


def test_a_judge_id_resolved_with_a_base_of_ones_own_is_built_with_the_direct_client(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_BASE", "https://api.openai.com/v1")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:8000/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local")
    backend = backend_for(judge_spec("openai/qwen"))
    assert isinstance(backend, OpenAICompatibleBackend)
    assert backend.client.url == "http://127.0.0.1:8000/v1/chat/completions"
    assert backend.client.headers == {"Authorization": "Bearer sk-local"}
    assert (backend.profile.content, backend.profile.many_prefixes) == ("string", False)
    assert backend.timeout == 600.0


def test_the_direct_backend_refuses_openais_own_api_and_arguments_it_does_not_send() -> None:
    with pytest.raises(ConfigError, match="needs the API base of a server of your own"):
        OpenAICompatibleBackend("openai/gpt-4o-mini", env=judging_environment())
    with pytest.raises(ConfigError, match="needs the API base"):
        OpenAICompatibleBackend(
            "openai/gpt-4o-mini", env=judging_environment(), api_base="https://api.openai.com/v1"
        )
    with pytest.raises(ConfigError, match="api_base and api_key only, not extra_headers"):
        OpenAICompatibleBackend(
            "openai/qwen",
            env=judging_environment(),
            api_base="http://127.0.0.1:8000/v1",
            extra_headers={"x": "y"},
        )


def test_openai_base_url_is_read_before_openai_api_base_as_litellm_reads_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_BASE", "https://api.openai.com/v1")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:8000/v1")
    assert openai_base(None, judging_environment()) == "http://127.0.0.1:8000/v1"
    assert (
        openai_base("http://10.0.0.5:9000/v1", judging_environment()) == "http://10.0.0.5:9000/v1"
    )


#: Each answer ends its connection, so the next call opens one (no reuse of a closed one).
CLOSE = {"Connection": "close"}


class ShapeRefuser(Recorder):
    """Answers a verdict, but turns down a ``response_format`` whose type is in ``refused``
    with a 500 naming the field, as llama-cpp-python's server does for ``json_schema``."""

    def __init__(self, refused: set[str]) -> None:
        super().__init__(200, completion("smollm2", VERDICT))
        self.refused = refused

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        fields = dict(line.split(": ", 1) for line in head[1:] if ": " in line)
        length = int({k.lower(): v for k, v in fields.items()}.get("content-length", "0"))
        body = json.loads(await reader.readexactly(length))
        self.requests.append((head[0].split(" ")[1], {}, body))
        shape = (body.get("response_format") or {}).get("type")
        if shape in self.refused:
            error = {"error": {"message": f"('body', 'response_format', 'type'): not {shape}"}}
            writer.write(http_response(500, json.dumps(error).encode(), CLOSE))
        else:
            writer.write(http_response(200, self.body, CLOSE))
        await writer.drain()
        writer.close()


SCHEMA_REQUEST = REQUEST.model_copy(
    update={"response_schema": {"type": "object", "properties": {"score": {"type": "number"}}}}
)


def _two_calls(server: ShapeRefuser) -> tuple[list[Any], OpenAICompatibleBackend]:
    async def scenario() -> tuple[list[Any], OpenAICompatibleBackend]:
        async with serving(server) as base:
            backend = OpenAICompatibleBackend(
                "openai/smollm2", env=judging_environment(), api_base=base, api_key="unused"
            )
            return [await backend.complete(SCHEMA_REQUEST) for _ in range(2)], backend

    return asyncio.run(scenario())


def test_a_server_of_ones_own_gets_the_verdict_schema_in_the_shape_it_reads() -> None:
    server = ShapeRefuser({"json_schema"})
    replies, backend = _two_calls(server)
    shapes = [b.get("response_format", {}).get("type") for _, _, b in server.requests]
    # json_schema refused once, then llama-cpp-python's json_object with the schema, for good
    assert shapes == ["json_schema", "json_object", "json_object"]
    assert server.requests[1][2]["response_format"]["schema"] == SCHEMA_REQUEST.response_schema
    assert all(r.structured_output and r.text == VERDICT for r in replies)
    assert [r.reply_format for r in replies] == ["json_object", "json_object"]
    assert backend.shapes_refused == 1


def test_a_server_that_reads_no_schema_shape_is_asked_without_one() -> None:
    server = ShapeRefuser({"json_schema", "json_object"})
    replies, _ = _two_calls(server)
    shapes = [b.get("response_format", {}).get("type") for _, _, b in server.requests]
    assert shapes == ["json_schema", "json_object", None, None]
    assert [r.structured_output for r in replies] == [False, False]
    assert [r.reply_format for r in replies] == ["none", "none"]


def test_a_server_that_reads_json_schema_gets_it_strict_every_time() -> None:
    server = ShapeRefuser(set())
    replies, backend = _two_calls(server)
    sent = [b["response_format"] for _, _, b in server.requests]
    assert [f["type"] for f in sent] == ["json_schema", "json_schema"]
    assert sent[0]["json_schema"]["strict"] and backend.shapes_refused == 0
    assert all(r.structured_output for r in replies)
    assert [r.reply_format for r in replies] == ["json_schema", "json_schema"]


def _card_from(server: ShapeRefuser, monkeypatch: pytest.MonkeyPatch) -> Scorecard:
    """The card of ``judge score haggle.json --judge openai/smollm2`` against ``server``."""
    rubrics = default_rubric_set().select(["integrity"])

    async def scenario() -> Scorecard:
        async with serving(server) as base:
            monkeypatch.setenv("OPENAI_API_BASE", base)
            options = ScoringOptions(judge_model="openai/smollm2")
            return await score_run_async(example("haggle.json"), options=options, rubrics=rubrics)

    return asyncio.run(scenario())


def test_the_era_says_which_reply_format_the_server_took(monkeypatch: pytest.MonkeyPatch) -> None:
    strict = _card_from(ShapeRefuser(set()), monkeypatch)
    shaped = _card_from(ShapeRefuser({"json_schema"}), monkeypatch)
    bare = _card_from(ShapeRefuser({"json_schema", "json_object"}), monkeypatch)
    formats = [c.measurement_era.reply_format for c in (strict, shaped, bare)]
    # litellm's map gives openai/smollm2 no schema ("none" declared): a server that took one is
    # named in the era; one that refused both is the era litellm's client would have made
    assert formats == [{"openai/smollm2": ["json_schema"]}, {"openai/smollm2": ["json_object"]}, {}]
    assert len({c.measurement_era.era_id for c in (strict, shaped, bare)}) == 3
    unmarked = measurement_era(
        judge_model="openai/smollm2",
        rubric_hashes=default_rubric_set().select(["integrity"]).hashes,
        settings=ScoringOptions().settings,
    )
    assert bare.measurement_era == unmarked
    # every pass says what it was sent in; the card counts the enforced ones as before
    for card, sent in ((strict, "json_schema"), (shaped, "json_object"), (bare, "none")):
        passes = [p for s in card.seats.values() for t in s.traits.values() for p in t.passes]
        assert passes and {p.reply_format for p in passes} == {sent}
        assert card.judge_parse["openai/smollm2"].structured_passes == (
            0 if sent == "none" else len(passes)
        )
