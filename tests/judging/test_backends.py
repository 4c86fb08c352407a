import httpx
import litellm
import pytest

from judge.errors import PermanentJudgeError, TransientJudgeError
from judge.judging.backends import (
    JudgeRequest,
    LiteLLMBackend,
    classify_litellm_error,
    reply_from_response,
)
from judge.judging.prompt import judge_messages


def _request() -> JudgeRequest:
    return JudgeRequest(messages=judge_messages("TRANSCRIPT", "RUBRIC"))


def test_anthropic_calls_mark_the_transcript_block_for_prompt_caching() -> None:
    kwargs = LiteLLMBackend("anthropic/claude-3-5-haiku-latest")._kwargs(_request())
    blocks = kwargs["messages"][1]["content"]
    assert blocks[0]["cache_control"] == {"type": "ephemeral"} and blocks[0]["text"] == "TRANSCRIPT"
    assert "cache_control" not in blocks[1]


def test_other_providers_get_plain_blocks_at_temperature_zero_without_caching() -> None:
    kwargs = LiteLLMBackend("openai/gpt-4o-mini")._kwargs(_request())
    assert all("cache_control" not in b for b in kwargs["messages"][1]["content"])
    assert kwargs["temperature"] == 0.0 and kwargs["caching"] is False and kwargs["num_retries"] == 0


def _response(status: int, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(status, headers=headers or {}, request=httpx.Request("POST", "http://x"))


def test_rate_limit_is_transient_and_carries_retry_after() -> None:
    exc = litellm.RateLimitError("slow down", llm_provider="openai", model="m", response=_response(429, {"retry-after": "12"}))
    mapped = classify_litellm_error(exc)
    assert isinstance(mapped, TransientJudgeError) and mapped.retry_after == 12.0


@pytest.mark.parametrize("exc", [
    litellm.Timeout("t", model="m", llm_provider="openai"),
    litellm.APIConnectionError("refused", llm_provider="openai", model="m"),
    litellm.InternalServerError("boom", llm_provider="openai", model="m"),
    litellm.ServiceUnavailableError("down", llm_provider="openai", model="m"),
])
def test_timeouts_5xx_and_connection_errors_are_transient(exc: Exception) -> None:
    assert isinstance(classify_litellm_error(exc), TransientJudgeError)


@pytest.mark.parametrize("exc", [
    litellm.AuthenticationError("bad key", llm_provider="openai", model="m"),
    litellm.NotFoundError("no such model", llm_provider="openai", model="m"),
    litellm.BadRequestError("bad", model="m", llm_provider="openai"),
])
def test_auth_unknown_model_and_bad_requests_are_permanent(exc: Exception) -> None:
    assert isinstance(classify_litellm_error(exc), PermanentJudgeError)


def test_reply_reads_usage_cached_tokens_and_refusal() -> None:
    response = litellm.ModelResponse(
        choices=[{"message": {"content": "{}", "role": "assistant"}, "finish_reason": "content_filter"}],
        usage={"prompt_tokens": 900, "completion_tokens": 12, "total_tokens": 912,
               "prompt_tokens_details": {"cached_tokens": 850}},
    )
    reply = reply_from_response(response)
    assert (reply.prompt_tokens, reply.cached_prompt_tokens, reply.completion_tokens) == (900, 850, 12)
    assert reply.refused
