"""Interop with a real OpenAI-compatible llama.cpp server (llama-cpp-python) on loopback."""

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from judge.engine.judging.prompt import judge_messages
from judge.engine.judging.providers.openai_compatible import OpenAICompatibleBackend
from judge.engine.judging.runner import RunnerConfig, pass_specs, run_passes
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions, score_run_async
from judge.engine.settings import judging_environment
from tests.engine.judging.llama_server import LlamaServer, evaluated_prompt_tokens, llama_server
from tests.helpers import example

pytestmark = pytest.mark.llama_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    with llama_server(tmp_path_factory.mktemp("llama") / "server.log") as running:
        yield running


def test_the_server_rejects_content_parts_which_is_why_they_are_flattened(
    server: LlamaServer,
) -> None:
    body = {"messages": judge_messages("TRANSCRIPT", "RUBRIC"), "max_tokens": 4}
    reply = httpx.post(f"{server.base_url}/chat/completions", json=body, timeout=120)
    assert reply.status_code == 500
    assert reply.json()["error"]["message"] == 'can only concatenate str (not "list") to str'


def test_openai_prefix_with_api_base_scores_against_the_server(server: LlamaServer) -> None:
    backend = OpenAICompatibleBackend(
        "openai/smollm2", env=judging_environment(), api_base=server.base_url, api_key="unused"
    )
    assert not backend.profile.many_prefixes and backend.profile.content == "string"
    rubrics = list(default_rubric_set().rubrics.values())[:2]
    specs = pass_specs(example("haggle.json").transcript, "buyer", rubrics, 5, RunnerConfig())
    since = server.log.stat().st_size
    passes = asyncio.run(
        run_passes(
            specs, backend, known_turns=set(range(1, 20)), config=RunnerConfig(max_tokens=48)
        )
    )
    assert len(passes) == 10 and all(p.model == "openai/smollm2" and p.raw_output for p in passes)
    assert all(p.prompt_tokens and p.prompt_tokens > 500 for p in passes)
    evaluated = evaluated_prompt_tokens(server.log, since=since)
    # trait-major order: the server evaluates the transcript once, each trait's suffix once,
    # and only a token or so for each repeated pass
    assert len(evaluated) == 10
    full, second_trait = evaluated[0], evaluated[5]
    assert full > 500 and 100 < second_trait < full - 300
    assert all(n <= 2 for n in evaluated[1:5] + evaluated[6:])


def test_scoring_through_openai_prefix_and_openai_api_base(
    server: LlamaServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What ``OPENAI_API_BASE=... judge score run.json --judge openai/smollm2`` runs."""
    monkeypatch.setenv("OPENAI_API_BASE", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "unused")
    rubrics = default_rubric_set().select(["integrity"])
    options = ScoringOptions(judge_model="openai/smollm2", runner=RunnerConfig(max_tokens=48))
    card = asyncio.run(score_run_async(example("haggle.json"), options=options, rubrics=rubrics))
    integrity = card.seats["buyer"].traits["integrity"]
    assert card.judge_model == "openai/smollm2" and integrity.n_passes == 5
    assert all(p.raw_output and p.prompt_tokens and p.prompt_tokens > 500 for p in integrity.passes)
    # the server drops n: every pass went alone, and the card and the era say so
    assert [p.request_choices for p in integrity.passes] == [1] * 5
    assert card.judge_parse["openai/smollm2"].shared_passes == 0
    assert not card.measurement_era.shared_passes


def test_the_server_answers_one_choice_whatever_n_asks(server: LlamaServer) -> None:
    """llama-cpp-python's server drops ``n`` from the request, so passes that share their
    prompt fall back to one request a pass there (docs/scoring.md)."""
    from judge.engine.judging.backends import JudgeRequest

    backend = OpenAICompatibleBackend(
        "openai/smollm2", env=judging_environment(), api_base=server.base_url, api_key="unused"
    )
    request = JudgeRequest(messages=[{"role": "user", "content": "Say yes."}], max_tokens=4)
    replies = asyncio.run(backend.complete_choices(request, 3))
    assert len(replies) == 1 and replies[0].completion_tokens
