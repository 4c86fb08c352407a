"""Token log-probabilities from a real OpenAI-compatible server (llama-cpp-python on loopback)
through litellm: a server started with ``--logits_all`` gives each pass a grid distribution;
one started without it still answers every pass."""

import asyncio
import math
from collections.abc import Iterator

import pytest

from judge.engine.judging.prompt import VERDICT_SCHEMA
from judge.engine.judging.providers.litellm import LiteLLMBackend
from judge.engine.judging.runner import RunnerConfig, pass_specs, run_passes
from judge.engine.packs import default_rubric_set
from judge.engine.settings import judging_environment
from tests.engine.judging.llama_server import LlamaServer, llama_server
from tests.helpers import example

pytestmark = pytest.mark.llama_server

#: The server turns a json_object response format with a schema into a grammar.
JSON = {"type": "json_object", "schema": VERDICT_SCHEMA}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    log = tmp_path_factory.mktemp("llama-logprobs") / "server.log"
    with llama_server(log, n_ctx=4096, extra=("--logits_all", "True")) as running:
        yield running


def _passes(backend: LiteLLMBackend, traits: int = 3) -> list:  # type: ignore[type-arg]
    rubrics = list(default_rubric_set().rubrics.values())[:traits]
    specs = pass_specs(example("haggle.json").transcript, "buyer", rubrics, 1, RunnerConfig())
    return asyncio.run(
        run_passes(
            specs, backend, known_turns=set(range(1, 20)), config=RunnerConfig(max_tokens=120)
        )
    )


def test_a_server_with_logprobs_gives_each_scored_pass_a_grid_distribution(
    server: LlamaServer,
) -> None:
    backend = LiteLLMBackend(
        "openai/smollm2",
        env=judging_environment(),
        api_base=server.base_url,
        api_key="unused",
        response_format=JSON,
    )
    passes = _passes(backend)
    scored = [p for p in passes if p.sampled_score is not None]
    assert scored, [p.raw_output for p in passes]
    for p in scored:
        assert p.score_distribution is not None, p.raw_output
        assert math.isclose(sum(p.score_distribution), 1.0, rel_tol=1e-9)
        assert (
            0.0 <= p.expected_score <= 1.0 and p.score == p.sampled_score
        )  # sampled is the default
    assert not backend.logprobs_refused


def test_a_server_started_without_logits_all_still_judges_every_pass(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with llama_server(tmp_path / "plain.log", n_ctx=4096) as plain:
        backend = LiteLLMBackend(
            "openai/smollm2",
            env=judging_environment(),
            api_base=plain.base_url,
            api_key="unused",
            response_format=JSON,
        )
        passes = _passes(backend, traits=1)
    # the request for log-probabilities does not break the call, whatever the server gives back
    # (the tiny model may write a score out of range: the reply was read either way)
    assert (
        len(passes) == 1
        and passes[0].raw_output
        and passes[0].parse_status in ("ok", "out_of_range")
    )
