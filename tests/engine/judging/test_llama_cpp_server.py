"""Interop with llama.cpp's own server (``llama-server``) on loopback: several slots, OpenAI's
``n`` answered from one prompt evaluation, and a refusal of more choices than it has slots,
which the direct client reads and keeps to (docs/scoring.md, "Passes that share their
prompt"). Skipped, saying so, where no ``llama-server`` is installed (``.ci/run`` builds one)."""

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from judge.engine.judging.prompt import flatten_content, judge_messages
from judge.engine.judging.providers.openai_compatible import (
    OpenAICompatibleBackend,
    choices_bound,
)
from judge.engine.judging.runner import RunnerConfig, pass_specs, run_passes
from judge.engine.packs import default_rubric_set
from judge.engine.settings import judging_environment
from tests.engine.judging.llama_server import (
    LlamaServer,
    decoded_tokens,
    evaluated_prompt_tokens,
    llama_cpp_server,
    llama_cpp_server_binary,
    server_counters,
)
from tests.helpers import example

BINARY = llama_cpp_server_binary()
pytestmark = [
    pytest.mark.llama_server,
    pytest.mark.skipif(
        BINARY is None,
        reason="llama.cpp's llama-server is not installed: set JUDGE_LLAMA_SERVER (.ci/run builds it)",
    ),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    assert BINARY is not None
    log = tmp_path_factory.mktemp("llama-cpp") / "server.log"
    with llama_cpp_server(BINARY, log, slots=4, n_ctx=8192) as running:
        yield running


def _messages() -> list[dict[str, str]]:
    return [
        {"role": m["role"], "content": flatten_content(m["content"])}
        for m in judge_messages("[turn 1] buyer (message): ^ I offer 40.", "Rate integrity.")
    ]


def test_the_server_answers_n_choices_up_to_its_slots_and_names_its_bound(
    server: LlamaServer,
) -> None:
    body = {"model": "smollm2", "messages": _messages(), "max_tokens": 8, "temperature": 0.0}
    four = httpx.post(f"{server.base_url}/chat/completions", json=body | {"n": 4}, timeout=120)
    assert four.status_code == 200 and len(four.json()["choices"]) == 4
    five = httpx.post(f"{server.base_url}/chat/completions", json=body | {"n": 5}, timeout=120)
    assert five.status_code == 400
    # the client reads the bound out of the refusal, as it does in a run
    assert choices_bound(five.json()["error"]["message"], 5) == 4


def test_five_passes_on_four_slots_go_as_one_request_of_four_and_one_alone(
    server: LlamaServer,
) -> None:
    backend = OpenAICompatibleBackend(
        "openai/smollm2", env=judging_environment(), api_base=server.base_url, api_key="unused"
    )
    rubrics = list(default_rubric_set().rubrics.values())[:2]
    config = RunnerConfig(max_tokens=48)
    specs = pass_specs(example("haggle.json").transcript, "buyer", rubrics, 5, config)
    since = server.log.stat().st_size
    evaluated_before, decoded_before = server_counters(server)
    passes = asyncio.run(run_passes(specs, backend, known_turns=set(range(1, 20)), config=config))
    evaluated, decoded = (
        a - b
        for a, b in zip(server_counters(server), (evaluated_before, decoded_before), strict=True)
    )
    assert backend.most_choices == 4
    by_trait = {
        r.trait: sorted((p for p in passes if p.trait == r.trait), key=lambda p: p.index)
        for r in rubrics
    }
    for trait_passes in by_trait.values():
        assert [p.request_choices for p in trait_passes] == [4, 4, 4, 4, 1]
        assert all(p.raw_output and p.reply_format == "json_schema" for p in trait_passes)
        # the request's prompt is counted once, on its first pass
        assert [bool(p.prompt_tokens) for p in trait_passes] == [True, False, False, False, True]
    # every pass was decoded; the server's usage for a request of several choices counts one
    # choice's decoded tokens (greedy choices of one prompt are alike), and the passes keep
    # what it says: the request's count on its first pass, zero on the others
    assert len(decoded_tokens(server.log, since=since)) == 10
    for trait_passes in by_trait.values():
        assert [bool(p.completion_tokens) for p in trait_passes] == [
            True,
            False,
            False,
            False,
            True,
        ]
    assert decoded == sum(
        4 * (t[0].completion_tokens or 0) + (t[4].completion_tokens or 0) for t in by_trait.values()
    )
    # the server evaluated the transcript once, not once a choice: its timing lines repeat the
    # prompt for each choice, its counter of tokens sent to decode does not
    assert sum(evaluated_prompt_tokens(server.log, since=since)) > 4 * 700
    assert evaluated < 2 * max(p.prompt_tokens or 0 for p in passes)
