"""The one I/O seam of judging: a backend turns a request into a reply.

:class:`LiteLLMBackend` is the only route to a remote model (hosted APIs, vLLM, Ollama,
llama.cpp servers all go through litellm); the embedded SmolLM2 also answers single calls
through litellm and adds a batch entry point (:class:`BatchJudgeBackend`). Tests swap in
:class:`ScriptedBackend`, which replays queued replies and records what it was sent.

What differs between serving engines is decided in one place, :func:`serving_profile`:
the shape of message content, whether the engine keeps many cached prefixes, and whether
the backend decodes several passes at once.
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections import deque
from collections.abc import AsyncGenerator, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from judge.errors import JudgeError, PermanentJudgeError, TransientJudgeError
from judge.judging.openai_http import direct_client
from judge.judging.prompt import flatten_content
from judge.judging.score_grid import TokenStep, steps_from_logprobs

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
    token_logprobs: list[TokenStep] | None = Field(
        default=None,
        description="the reply's tokens with their alternatives, when the backend gives them",
    )
    zero_branch: dict[str, float] | None = Field(
        default=None,
        description="tenths alternatives after '0.' when the reply did not go through it",
    )
    structured_output: bool = False


class JudgeBackend(Protocol):
    model: str

    async def complete(self, request: JudgeRequest) -> JudgeReply: ...


class IndexedReply(NamedTuple):
    """One reply of a batch, with the position of its request in the batch."""

    position: int
    reply: JudgeReply


@runtime_checkable
class BatchJudgeBackend(Protocol):
    """A backend that decodes many requests at once and yields replies as they finish."""

    model: str

    async def complete(self, request: JudgeRequest) -> JudgeReply: ...

    def complete_batch(
        self, requests: Sequence[JudgeRequest]
    ) -> AsyncGenerator[IndexedReply, None]: ...


Content = Literal["string", "parts", "marked_parts"]


@dataclass(frozen=True)
class ServingProfile:
    """How to talk to one serving engine.

    Attributes:
        content: ``"string"`` sends every message's content as one string (what every
            OpenAI-compatible server takes); ``"marked_parts"`` keeps content parts and marks
            the transcript part with Anthropic's ``cache_control``; ``"parts"`` keeps the parts
            unmarked (the in-process embedded judge cuts its shared prefix at them).
        many_prefixes: the engine keeps the KV cache of many prompts at once, so the order of
            calls does not decide what is cached; otherwise passes of one prompt must run
            back to back to find their prefix still cached.
        batched: the backend decodes the passes of a seat together (``complete_batch``).
        timeout_s: how long one call may take. A self-hosted server answers calls in turn,
            so a call also waits for the ones queued before it; giving up early only makes
            the server finish a reply nobody reads and then do the call again.
    """

    content: Content = "string"
    many_prefixes: bool = False
    batched: bool = False
    timeout_s: float = 120.0


#: Providers whose engines keep many cached prefixes: Anthropic's and OpenAI's hosted
#: prompt caches are keyed by prefix; vLLM's automatic prefix caching keeps KV blocks by a
#: hash of the tokens up to them. llama.cpp-based servers (llama-cpp-python, Ollama, a
#: llama-server with one slot) keep the previous prompt only, and an unknown server is
#: treated the same way: back-to-back passes lose nothing on an engine that keeps more.
_MANY_PREFIXES = ("anthropic", "hosted_vllm", "vllm")
_MARKED_PARTS = ("anthropic",)
#: Providers that are hosted APIs (answering within seconds) unless pointed elsewhere.
_HOSTED = (
    "anthropic",
    "openai",
    "gemini",
    "vertex_ai",
    "azure",
    "bedrock",
    "mistral",
    "groq",
    "together_ai",
)


def provider_of(model: str) -> str:
    """litellm's provider prefix of a model id (``claude-*`` without one is Anthropic)."""
    if "/" in model:
        return model.split("/", 1)[0]
    return "anthropic" if model.startswith("claude") else "openai"


def serving_profile(model: str, *, api_base: str | None = None) -> ServingProfile:
    """The one place that decides content shape, cache order and batching per backend.

    ``openai/`` with an API base of its own (``api_base`` or ``$OPENAI_API_BASE`` /
    ``$OPENAI_BASE_URL``) is some OpenAI-compatible server, not OpenAI, and is treated as
    keeping one prefix.
    """
    provider = provider_of(model)
    if provider == "embedded":
        return ServingProfile(content="parts", batched=True)
    hosted = provider in _HOSTED and not (provider == "openai" and _custom_openai_base(api_base))
    many = provider in _MANY_PREFIXES or (provider == "openai" and hosted)
    content: Content = "marked_parts" if provider in _MARKED_PARTS else "string"
    return ServingProfile(content=content, many_prefixes=many, timeout_s=120.0 if hosted else 600.0)


def _custom_openai_base(api_base: str | None) -> bool:
    base = api_base or os.environ.get("OPENAI_API_BASE") or os.environ.get("OPENAI_BASE_URL")
    return bool(base) and "api.openai.com" not in str(base)


def profile_of(backend: object) -> ServingProfile:
    """A backend's profile; one that declares none is a plain single-prefix string backend."""
    profile = getattr(backend, "profile", None)
    return profile if isinstance(profile, ServingProfile) else ServingProfile()


def shape_messages(messages: list[dict[str, Any]], profile: ServingProfile) -> list[dict[str, Any]]:
    """Messages as the engine takes them: plain strings, parts, or parts marked for caching."""
    if profile.content == "marked_parts":
        return mark_prefix_cacheable(messages)
    if profile.content == "parts":
        return messages
    return [{**m, "content": flatten_content(m["content"])} for m in messages]


Script = JudgeReply | str | Exception | Callable[[JudgeRequest], "JudgeReply | str"]


class ScriptedBackend:
    """A fake judge: replies from a queue (or a default), recording every request.

    An enqueued exception is raised for that call; a callable is called with the request.
    """

    def __init__(
        self,
        default: Script | None = None,
        *,
        model: str = "scripted",
        delay: float = 0.0,
        profile: ServingProfile | None = None,
    ):
        self.model = model
        self.profile = profile or ServingProfile()
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
    ``ollama/llama3.1``, ``hosted_vllm/...`` or the embedded ``embedded/smollm2-135m-instruct``.

    An ``openai/`` model on a server of its own takes the light client of
    :mod:`judge.judging.openai_http` (same request, same reply, less CPU per call)."""

    def __init__(self, model: str, *, timeout: float | None = None, **extra: Any) -> None:
        self.model = model
        self.extra = extra
        self.profile = serving_profile(model, api_base=extra.get("api_base"))
        self.timeout = timeout if timeout is not None else self.profile.timeout_s
        self.direct = direct_client(model, extra, timeout=self.timeout)
        #: the server refused a request for log-probabilities once; none are asked for again
        self.logprobs_refused = False
        self.keys_present = False

    def _check_keys(self) -> None:
        """A missing provider key is permanent: refused at the first call, never retried."""
        if self.keys_present or self.direct is not None:
            return
        from judge.judging.model_check import missing_keys

        if keys := missing_keys(self.model, self.extra):
            raise PermanentJudgeError(f"{self.model!r} needs {', '.join(keys)}, which is not set")
        self.keys_present = True

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        self._check_keys()
        kwargs = self._kwargs(request)
        try:
            response = await self._send(kwargs)
        except Exception as exc:  # mapped to our tree; nothing is swallowed
            if not refuses_logprobs(exc, kwargs):
                if isinstance(exc, JudgeError):
                    raise
                raise classify_litellm_error(exc) from exc
            # e.g. llama-cpp-python's server without --logits_all: ask again, and never again ask for them
            self.logprobs_refused = True
            kwargs = self._kwargs(request)
            try:
                response = await self._send(kwargs)
            except JudgeError:
                raise
            except Exception as retry_exc:
                raise classify_litellm_error(retry_exc) from retry_exc
        reply = reply_from_response(response)
        return reply.model_copy(update={"structured_output": "response_format" in kwargs})

    async def _send(self, kwargs: dict[str, Any]) -> Any:
        """One call: straight to an OpenAI-compatible server when one is named, else litellm."""
        if self.direct is not None:
            return await self.direct.complete(kwargs)
        import litellm

        return await litellm.acompletion(**kwargs)

    def _kwargs(self, request: JudgeRequest) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": shape_messages(request.messages, self.profile),
            "temperature": request.temperature,
            "max_tokens": request.max_tokens,
            "timeout": self.timeout,
            "caching": False,
            "num_retries": 0,
            **self.extra,
        }
        if request.response_schema is not None and self.model.startswith("embedded/"):
            kwargs["response_format"] = {"type": "json_object", "schema": request.response_schema}
        elif request.response_schema is not None and supports_response_schema(self.model):
            kwargs.setdefault("response_format", verdict_response_format(request.response_schema))
        if "logprobs" not in kwargs and not self.logprobs_refused and supports_logprobs(self.model):
            kwargs |= {"logprobs": True, "top_logprobs": TOP_LOGPROBS}
        return kwargs


def refuses_logprobs(exc: Exception, kwargs: dict[str, Any]) -> bool:
    """The server turned the call down because log-probabilities were asked for."""
    return (
        bool(kwargs.get("logprobs"))
        and "logprobs" in str(exc).lower()
        and not isinstance(exc, TimeoutError)
    )


#: Alternatives asked for at each token (OpenAI's maximum); the score grid needs the ten digits.
TOP_LOGPROBS = 20
#: Schema keywords OpenAI's strict structured outputs refuse; dropped from the schema sent.
_UNSTRICT_KEYWORDS = ("maxLength", "minLength")


@functools.lru_cache(maxsize=256)
def supports_response_schema(model: str) -> bool:
    """litellm's word on whether the provider enforces a JSON schema for this model."""
    import litellm

    try:
        return bool(litellm.supports_response_schema(model=model))
    except Exception:  # noqa: BLE001 - an unknown model is one without schema support
        return False


@functools.lru_cache(maxsize=256)
def supports_logprobs(model: str) -> bool:
    """litellm's word on whether the provider returns token log-probabilities with alternatives."""
    import litellm

    try:
        _, provider, _, _ = litellm.get_llm_provider(model)
        params = litellm.get_supported_openai_params(
            model=model.split("/", 1)[-1], custom_llm_provider=provider
        )
    except Exception:  # noqa: BLE001 - an unknown provider is one without log-probabilities
        return False
    supported = params or []
    return "logprobs" in supported and "top_logprobs" in supported


def verdict_response_format(schema: dict[str, Any]) -> dict[str, Any]:
    """The verdict schema as an OpenAI-style ``json_schema`` response format (strict)."""
    return {
        "type": "json_schema",
        "json_schema": {"name": "verdict", "schema": _strict(schema), "strict": True},
    }


def _strict(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: _strict(v) for k, v in schema.items() if k not in _UNSTRICT_KEYWORDS}
    if isinstance(schema, list):
        return [_strict(v) for v in schema]
    return schema


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
        token_logprobs=steps_from_logprobs(getattr(choice, "logprobs", None)),
    )


_TRANSIENT = (
    "RateLimitError",
    "Timeout",
    "APIConnectionError",
    "InternalServerError",
    "ServiceUnavailableError",
    "BadGatewayError",
)


_NO_KEY = "api_key client option must be set"


def classify_litellm_error(exc: Exception) -> TransientJudgeError | PermanentJudgeError:
    """Transient (retry with backoff) or permanent (fail now), by litellm's exception family."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    status = getattr(exc, "status_code", None)
    message = f"{type(exc).__name__}: {str(exc)[:300]}"
    if _NO_KEY in str(exc):  # the OpenAI client's missing key, which litellm reports as a 500
        return PermanentJudgeError(message)
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
