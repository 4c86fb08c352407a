"""What the litellm backend asks for: the verdict schema where litellm says the model enforces
one, token log-probabilities where the provider returns them; and what it reads back."""

import math
import re

import litellm
import pytest

from judge.engine.judging.backends import JudgeRequest
from judge.engine.judging.prompt import VERDICT_SCHEMA
from judge.engine.judging.providers.litellm import (
    TOP_LOGPROBS,
    LiteLLMBackend,
    reply_from_response,
    supports_logprobs,
    supports_response_schema,
)
from judge.engine.settings import judging_environment

REQUEST = JudgeRequest(messages=[{"role": "user", "content": "x"}], response_schema=VERDICT_SCHEMA)


def test_litellm_decides_schema_and_logprob_support_per_model() -> None:
    assert supports_response_schema("openai/gpt-4o-mini")
    assert not supports_response_schema("ollama/llama3.1")
    assert not supports_response_schema("no-such-provider/x")
    assert supports_logprobs("openai/gpt-4o-mini") and supports_logprobs("hosted_vllm/qwen")
    assert not supports_logprobs("anthropic/claude-3-5-haiku-latest")


def test_a_schema_capable_model_gets_the_verdict_schema_strict_and_logprobs() -> None:
    kwargs = LiteLLMBackend("openai/gpt-4o-mini", env=judging_environment())._kwargs(REQUEST)
    fmt = kwargs["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    schema = fmt["json_schema"]["schema"]
    assert (
        schema["required"] == ["score", "turns", "rationale"]
        and schema["additionalProperties"] is False
    )
    rationale = schema["properties"]["rationale"]
    assert "maxLength" not in rationale  # refused by strict structured outputs
    assert rationale["pattern"] == r"^[\s\S]{0,100}$"  # the length bound stays, as a pattern
    assert re.fullmatch(rationale["pattern"], "w" * 100)
    assert not re.fullmatch(rationale["pattern"], "w" * 101)
    assert schema["properties"]["score"] == {"type": "number", "minimum": 0, "maximum": 1}
    assert (kwargs["logprobs"], kwargs["top_logprobs"]) == (True, TOP_LOGPROBS)


def test_other_models_keep_prompt_and_parse() -> None:
    kwargs = LiteLLMBackend("anthropic/claude-3-5-haiku-latest", env=judging_environment())._kwargs(
        REQUEST
    )
    assert "response_format" not in kwargs and "logprobs" not in kwargs
    ollama = LiteLLMBackend("ollama/llama3.1", env=judging_environment())._kwargs(REQUEST)
    assert "response_format" not in ollama
    plain = LiteLLMBackend("openai/gpt-4o-mini", env=judging_environment())._kwargs(
        REQUEST.model_copy(update={"response_schema": None})
    )
    assert "response_format" not in plain


def test_once_refused_logprobs_are_not_asked_for_again() -> None:
    backend = LiteLLMBackend(
        "openai/smollm2", env=judging_environment(), api_base="http://127.0.0.1:9/v1"
    )
    assert backend._kwargs(REQUEST)["logprobs"] is True
    backend.logprobs_refused = True
    assert "logprobs" not in backend._kwargs(REQUEST)


def test_the_reply_carries_the_token_logprobs_of_a_litellm_response() -> None:
    response = litellm.ModelResponse(
        choices=[
            {
                "message": {"role": "assistant", "content": '{"score": 1.0}'},
                "finish_reason": "stop",
                "logprobs": {
                    "content": [
                        {"token": '{"score": ', "logprob": 0.0, "top_logprobs": []},
                        {
                            "token": "1",
                            "logprob": math.log(0.75),
                            "top_logprobs": [
                                {"token": "1", "logprob": math.log(0.75)},
                                {"token": "0", "logprob": math.log(0.25)},
                            ],
                        },
                        {"token": ".0}", "logprob": 0.0, "top_logprobs": []},
                    ]
                },
            }
        ]
    )
    reply = reply_from_response(response)
    assert reply.token_logprobs is not None and [s.token for s in reply.token_logprobs] == [
        '{"score": ',
        "1",
        ".0}",
    ]
    assert reply.token_logprobs[1].top == pytest.approx({"1": math.log(0.75), "0": math.log(0.25)})
