"""The OpenAI route, through litellm and through the direct client alike, against a recording
OpenAI-compatible server on loopback: the verdict schema and the log-probability request go out, the returned log-probabilities
come back as the pass's grid distribution; a router deployment of a schema-capable model gets
the schema too. Each pass records the reply format its call really sent (docs/scoring.md,
"Reply format"): ``json_schema`` where the schema went, ``none`` where litellm sent none."""

from __future__ import annotations

import asyncio
import json
import math
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
import yaml

from judge.engine.judging.providers.litellm import LiteLLMBackend
from judge.engine.judging.providers.openai_compatible import OpenAICompatibleBackend
from judge.engine.judging.registry import backend_for
from judge.engine.judging.runner import RunnerConfig, pass_specs, run_passes
from judge.engine.packs import default_rubric_set
from judge.engine.settings import judge_spec, judging_environment
from tests.helpers import example

HEAD = '{"rationale": "fair", "turns": [1], "score": '
TOKENS = [HEAD, "0", ".", "7", "}"]


def _entry(token: str, alternatives: dict[str, float]) -> dict[str, Any]:
    top = alternatives or {token: 1.0}
    return {
        "token": token,
        "logprob": math.log(top.get(token, 1.0)),
        "bytes": list(token.encode()),
        "top_logprobs": [
            {"token": t, "logprob": math.log(p), "bytes": list(t.encode())} for t, p in top.items()
        ],
    }


LOGPROBS = {
    "content": [
        _entry(HEAD, {}),
        _entry("0", {"0": 0.8, "1": 0.2}),
        _entry(".", {}),
        _entry("7", {"7": 0.5, "6": 0.5}),
        _entry("}", {}),
    ]
}


class Recorder(BaseHTTPRequestHandler):
    bodies: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).bodies.append(body)
        choice: dict[str, Any] = {
            "index": 0,
            "finish_reason": "stop",
            "message": {"role": "assistant", "content": "".join(TOKENS)},
        }
        if body.get("logprobs"):
            choice["logprobs"] = LOGPROBS
        data = json.dumps(
            {
                "id": "x",
                "object": "chat.completion",
                "created": 1,
                "model": body["model"],
                "choices": [choice],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    Recorder.bodies = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()


def _run(backend: Any) -> list[Any]:
    rubrics = list(default_rubric_set().rubrics.values())[:1]
    specs = pass_specs(example("haggle.json").transcript, "buyer", rubrics, 2, RunnerConfig())
    config = RunnerConfig(score_mode="expected", max_attempts=1)
    return asyncio.run(run_passes(specs, backend, known_turns={1, 2, 3}, config=config))


@pytest.mark.parametrize("route", [LiteLLMBackend, OpenAICompatibleBackend])
def test_openai_gets_the_strict_schema_and_returns_a_distribution(
    server: str, route: type[LiteLLMBackend]
) -> None:
    passes = _run(
        route("openai/gpt-4o-mini", env=judging_environment(), api_base=server, api_key="sk-test")
    )
    body = Recorder.bodies[0]
    assert (
        body["response_format"]["type"] == "json_schema"
        and body["response_format"]["json_schema"]["strict"]
    )
    assert body["logprobs"] is True and body["top_logprobs"] == 20
    p = passes[0]
    assert p.sampled_score == 0.7 and p.structured_output
    assert [q.reply_format for q in passes] == ["json_schema", "json_schema"]
    # lead 0: 0.8, 1: 0.2; tenths 7 and 6 share the 0.8 equally
    assert p.score_distribution == pytest.approx([0, 0, 0, 0, 0, 0, 0.4, 0.4, 0, 0, 0.2])
    assert (
        p.expected_score == pytest.approx(0.4 * 0.6 + 0.4 * 0.7 + 0.2)
        and p.score == p.expected_score
    )


def test_a_router_deployment_of_a_schema_capable_model_gets_the_schema(
    server: str, tmp_path: Path
) -> None:
    path = tmp_path / "router.yaml"
    deployment = {"model": "openai/gpt-4o-mini", "api_base": server, "api_key": "sk-test"}
    path.write_text(
        yaml.safe_dump({"model_list": [{"model_name": "judge", "litellm_params": deployment}]})
    )
    passes = _run(backend_for(judge_spec(f"router:{path}")))
    assert Recorder.bodies[0]["response_format"]["json_schema"]["name"] == "verdict"
    assert passes[0].structured_output and passes[0].sampled_score == 0.7
    assert [p.reply_format for p in passes] == ["json_schema", "json_schema"]
    # what the era takes as declared for the router: its deployments' model's word
    assert judge_spec(f"router:{path}").members[0].declared_format == "json_schema"


def test_litellm_records_no_format_for_a_model_it_sends_no_schema(server: str) -> None:
    backend = LiteLLMBackend(
        "openai/smollm2", env=judging_environment(), api_base=server, api_key="sk-test"
    )
    passes = _run(backend)
    assert Recorder.bodies and all("response_format" not in b for b in Recorder.bodies)
    assert [(p.reply_format, p.structured_output) for p in passes] == [("none", False)] * 2
    assert passes[0].sampled_score == 0.7
