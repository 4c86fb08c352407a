import httpx
import litellm
import pytest

from judge.core.errors import PermanentJudgeError, TransientJudgeError
from judge.engine.judging.backends import JudgeRequest
from judge.engine.judging.prompt import judge_messages
from judge.engine.judging.providers.litellm import (
    LiteLLMBackend,
    classify_litellm_error,
    reply_from_response,
    serving_profile,
)
from judge.engine.settings import judge_spec, judging_environment


def _request() -> JudgeRequest:
    return JudgeRequest(messages=judge_messages("TRANSCRIPT", "RUBRIC"))


def test_anthropic_calls_mark_the_transcript_block_for_prompt_caching() -> None:
    kwargs = LiteLLMBackend("anthropic/claude-3-5-haiku-latest", env=judging_environment())._kwargs(
        _request()
    )
    blocks = kwargs["messages"][1]["content"]
    assert blocks[0]["cache_control"] == {"type": "ephemeral"} and blocks[0]["text"] == "TRANSCRIPT"
    assert "cache_control" not in blocks[1]


@pytest.mark.parametrize(
    "model",
    [
        "openai/gpt-4o-mini",
        "hosted_vllm/Qwen2.5-7B-Instruct",
        "ollama/llama3.1",
        "gemini/gemini-2.0-flash",
        "openai/smollm2",
    ],
)
def test_other_providers_get_plain_string_content_at_temperature_zero_without_caching(
    model: str,
) -> None:
    kwargs = LiteLLMBackend(
        model, env=judging_environment(), api_base="http://127.0.0.1:8080/v1"
    )._kwargs(_request())
    assert kwargs["messages"][0] == {
        "role": "system",
        "content": judge_messages("T", "R")[0]["content"],
    }
    assert kwargs["messages"][1] == {"role": "user", "content": "TRANSCRIPT\nRUBRIC"}
    assert (
        kwargs["temperature"] == 0.0 and kwargs["caching"] is False and kwargs["num_retries"] == 0
    )


def test_the_embedded_judge_keeps_its_parts_to_cut_the_shared_prefix() -> None:
    from judge.engine.judging.providers.embedded import EmbeddedBackend

    kwargs = EmbeddedBackend("embedded/smollm2-135m-instruct", env=judging_environment())._kwargs(
        _request()
    )
    assert kwargs["messages"][1]["content"] == [
        {"type": "text", "text": "TRANSCRIPT"},
        {"type": "text", "text": "RUBRIC"},
    ]


@pytest.mark.parametrize(
    ("model", "api_base", "many", "content", "batched"),
    [
        ("anthropic/claude-3-5-haiku-latest", None, True, "marked_parts", False),
        ("claude-3-5-haiku-latest", None, True, "marked_parts", False),
        ("openai/gpt-4o-mini", None, True, "string", False),
        ("openai/gpt-4o-mini", "https://api.openai.com/v1", True, "string", False),
        ("openai/smollm2", "http://127.0.0.1:8000/v1", False, "string", False),
        ("hosted_vllm/Qwen2.5-7B-Instruct", "http://127.0.0.1:8000/v1", True, "string", False),
        ("ollama/llama3.1", None, False, "string", False),
    ],
)
def test_serving_profile_per_provider(
    model: str,
    api_base: str | None,
    many: bool,
    content: str,
    batched: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OPENAI_API_BASE", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    profile = serving_profile(model, judging_environment(), api_base=api_base)
    assert (profile.many_prefixes, profile.content, profile.batched) == (many, content, batched)


def test_the_embedded_judge_is_resolved_to_a_batched_profile_that_keeps_parts() -> None:

    profile = judge_spec("embedded/smollm2-135m-instruct").members[0].profile
    assert (profile.many_prefixes, profile.content, profile.batched) == (False, "parts", True)


def test_openai_api_base_from_the_environment_marks_a_single_prefix_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_BASE", "http://127.0.0.1:8000/v1")
    assert not LiteLLMBackend("openai/smollm2", env=judging_environment()).profile.many_prefixes
    monkeypatch.delenv("OPENAI_API_BASE")
    assert LiteLLMBackend("openai/gpt-4o-mini", env=judging_environment()).profile.many_prefixes


def _response(status: int, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(status, headers=headers or {}, request=httpx.Request("POST", "http://x"))


def test_rate_limit_is_transient_and_carries_retry_after() -> None:
    exc = litellm.RateLimitError(
        "slow down",
        llm_provider="openai",
        model="m",
        response=_response(429, {"retry-after": "12"}),
    )
    mapped = classify_litellm_error(exc)
    assert isinstance(mapped, TransientJudgeError) and mapped.retry_after == 12.0


@pytest.mark.parametrize(
    "exc",
    [
        litellm.Timeout("t", model="m", llm_provider="openai"),
        litellm.APIConnectionError("refused", llm_provider="openai", model="m"),
        litellm.InternalServerError("boom", llm_provider="openai", model="m"),
        litellm.ServiceUnavailableError("down", llm_provider="openai", model="m"),
    ],
)
def test_timeouts_5xx_and_connection_errors_are_transient(exc: Exception) -> None:
    assert isinstance(classify_litellm_error(exc), TransientJudgeError)


@pytest.mark.parametrize(
    "exc",
    [
        litellm.AuthenticationError("bad key", llm_provider="openai", model="m"),
        litellm.NotFoundError("no such model", llm_provider="openai", model="m"),
        litellm.BadRequestError("bad", model="m", llm_provider="openai"),
    ],
)
def test_auth_unknown_model_and_bad_requests_are_permanent(exc: Exception) -> None:
    assert isinstance(classify_litellm_error(exc), PermanentJudgeError)


def test_reply_reads_usage_cached_tokens_and_refusal() -> None:
    response = litellm.ModelResponse(
        choices=[
            {"message": {"content": "{}", "role": "assistant"}, "finish_reason": "content_filter"}
        ],
        usage={
            "prompt_tokens": 900,
            "completion_tokens": 12,
            "total_tokens": 912,
            "prompt_tokens_details": {"cached_tokens": 850},
        },
    )
    reply = reply_from_response(response)
    assert (reply.prompt_tokens, reply.cached_prompt_tokens, reply.completion_tokens) == (
        900,
        850,
        12,
    )
    assert reply.refused


def test_self_hosted_servers_get_a_longer_call_timeout_than_hosted_apis(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OPENAI_API_BASE", raising=False)
    assert (
        LiteLLMBackend("openai/gpt-4o-mini", env=judging_environment())._kwargs(_request())[
            "timeout"
        ]
        == 120.0
    )
    assert (
        LiteLLMBackend(
            "openai/smollm2", env=judging_environment(), api_base="http://127.0.0.1:8080/v1"
        ).timeout
        == 600.0
    )
    assert LiteLLMBackend("ollama/llama3.1", env=judging_environment()).timeout == 600.0
    assert (
        LiteLLMBackend("ollama/llama3.1", env=judging_environment(), timeout=30.0).timeout == 30.0
    )
