"""The one I/O seam of judging: a backend turns a request into a reply.

:class:`LiteLLMBackend` is the only route to a real model (hosted APIs, vLLM, Ollama,
llama.cpp servers and the embedded SmolLM2 all go through litellm). Tests swap in
:class:`ScriptedBackend`, which replays queued replies and records what it was sent.
"""

from __future__ import annotations

import asyncio
import os
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from judge.errors import PermanentJudgeError, TransientJudgeError

# litellm otherwise fetches its model price map over the network when imported.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


class JudgeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    messages: list[dict[str, Any]]
    temperature: float = 0.0
    max_tokens: int = 160
    response_schema: dict[str, Any] | None = None
    label: str = Field(default="", description="trait/pass label for logs and tests; never sent")


class JudgeReply(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str
    refused: bool = False
    prompt_tokens: int | None = None
    cached_prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost_usd: float | None = None


class JudgeBackend(Protocol):
    model: str

    async def complete(self, request: JudgeRequest) -> JudgeReply: ...


Script = JudgeReply | str | Exception | Callable[[JudgeRequest], "JudgeReply | str"]


class ScriptedBackend:
    """A fake judge: replies from a queue (or a default), recording every request.

    An enqueued exception is raised for that call; a callable is called with the request.
    """

    def __init__(self, default: Script | None = None, *, model: str = "scripted", delay: float = 0.0):
        self.model = model
        self.default = default
        self.delay = delay
        self.queue: deque[Script] = deque()
        self.history: list[JudgeRequest] = []
        self.in_flight = 0
        self.max_in_flight = 0

    def enqueue(self, *items: Script) -> ScriptedBackend:
        self.queue.extend(items)
        return self

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        self.history.append(request)
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.delay)
            return self._next(request)
        finally:
            self.in_flight -= 1

    def _next(self, request: JudgeRequest) -> JudgeReply:
        item = self.queue.popleft() if self.queue else self.default
        if item is None:
            raise PermanentJudgeError("scripted backend has no reply queued")
        if isinstance(item, Exception):
            raise item
        if callable(item) and not isinstance(item, JudgeReply):
            item = item(request)
        return item if isinstance(item, JudgeReply) else JudgeReply(text=item)


class LiteLLMBackend:
    """Any litellm model id, e.g. ``openai/gpt-4o-mini``, ``anthropic/claude-3-5-haiku-latest``,
    ``ollama/llama3.1``, ``hosted_vllm/...`` or the embedded ``embedded/smollm2-135m-instruct``."""

    def __init__(self, model: str, *, timeout: float = 120.0, **extra: Any) -> None:
        self.model = model
        self.timeout = timeout
        self.extra = extra

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        import litellm

        kwargs = self._kwargs(request)
        try:
            response = await litellm.acompletion(**kwargs)
        except Exception as exc:  # mapped to our tree; nothing is swallowed
            raise classify_litellm_error(exc) from exc
        return reply_from_response(response)

    def _kwargs(self, request: JudgeRequest) -> dict[str, Any]:
        messages = request.messages
        if _is_anthropic(self.model):
            messages = mark_prefix_cacheable(messages)
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "temperature": request.temperature,
            "max_tokens": request.max_tokens,
            "timeout": self.timeout,
            "caching": False,
            "num_retries": 0,
            **self.extra,
        }
        if request.response_schema is not None and self.model.startswith("embedded/"):
            kwargs["response_format"] = {"type": "json_object", "schema": request.response_schema}
        return kwargs


def _is_anthropic(model: str) -> bool:
    return model.startswith(("anthropic/", "claude"))


def mark_prefix_cacheable(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Mark the first user content block (the transcript) with Anthropic's cache_control."""
    marked = []
    done = False
    for message in messages:
        content = message.get("content")
        if not done and message.get("role") == "user" and isinstance(content, list) and content:
            first = {**content[0], "cache_control": {"type": "ephemeral"}}
            message = {**message, "content": [first, *content[1:]]}
            done = True
        marked.append(message)
    return marked


def reply_from_response(response: Any) -> JudgeReply:
    """Read text, refusal and token accounting out of a litellm ModelResponse."""
    choice = response.choices[0]
    usage = getattr(response, "usage", None)
    details = getattr(usage, "prompt_tokens_details", None)
    cached = getattr(details, "cached_tokens", None)
    if cached is None:
        cached = getattr(usage, "cache_read_input_tokens", None)
    hidden = getattr(response, "_hidden_params", None) or {}
    return JudgeReply(
        text=choice.message.content or "",
        refused=choice.finish_reason == "content_filter",
        prompt_tokens=getattr(usage, "prompt_tokens", None),
        cached_prompt_tokens=cached,
        completion_tokens=getattr(usage, "completion_tokens", None),
        cost_usd=hidden.get("response_cost"),
    )


_TRANSIENT = (
    "RateLimitError",
    "Timeout",
    "APIConnectionError",
    "InternalServerError",
    "ServiceUnavailableError",
    "BadGatewayError",
)


def classify_litellm_error(exc: Exception) -> TransientJudgeError | PermanentJudgeError:
    """Transient (retry with backoff) or permanent (fail now), by litellm's exception family."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    status = getattr(exc, "status_code", None)
    message = f"{type(exc).__name__}: {str(exc)[:300]}"
    if names & set(_TRANSIENT) or (isinstance(status, int) and (status == 429 or status >= 500)):
        return TransientJudgeError(message, retry_after=retry_after_seconds(exc))
    return PermanentJudgeError(message)


def retry_after_seconds(exc: Exception) -> float | None:
    """The provider's Retry-After header, in seconds, when the error carries one."""
    headers: Any = getattr(exc, "litellm_response_headers", None)
    response = getattr(exc, "response", None)
    if headers is None and response is not None:
        headers = getattr(response, "headers", None)
    if not headers:
        return None
    value = headers.get("retry-after") or headers.get("Retry-After")
    try:
        return max(0.0, float(value)) if value is not None else None
    except (TypeError, ValueError):
        return None
