"""The litellm provider: every model id no other provider claims, sent through
``litellm.acompletion``; :func:`serving_profile` says how each serving engine is talked to."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from judge.core.domain.judging import ReplyFormat
from judge.core.errors import JudgeError, PermanentJudgeError, TransientJudgeError
from judge.engine.judging.backends import (
    Content,
    JudgeReply,
    JudgeRequest,
    ServingProfile,
    shape_messages,
)
from judge.engine.judging.environment import JudgingEnvironment, custom_openai_base
from judge.engine.judging.model_check import check_model, missing_keys
from judge.engine.judging.providers.litellm_loader import load_litellm
from judge.engine.judging.score_grid import steps_from_logprobs
from judge.engine.judging.spec import Capabilities, MemberSpec, ProviderEntry

#: Providers whose engines keep many cached prefixes (hosted prompt caches, vLLM's prefix
#: caching). llama.cpp-based servers keep the previous prompt only, and an unknown server is
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


def serving_profile(
    model: str, env: JudgingEnvironment, *, api_base: str | None = None
) -> ServingProfile:
    """Content shape, cache order and call timeout of a litellm model id; ``openai/`` with an
    API base of its own is some OpenAI-compatible server, treated as keeping one prefix."""
    provider = provider_of(model)
    custom = provider == "openai" and custom_openai_base(api_base, env)
    hosted = provider in _HOSTED and not custom
    many = provider in _MANY_PREFIXES or (provider == "openai" and hosted)
    content: Content = "marked_parts" if provider in _MARKED_PARTS else "string"
    return ServingProfile(content=content, many_prefixes=many, timeout_s=120.0 if hosted else 600.0)


def capabilities(model: str) -> Capabilities:
    """litellm's word on what the model's provider returns."""
    return Capabilities(
        logprobs=supports_logprobs(model), structured_output=supports_response_schema(model)
    )


class LiteLLMBackend:
    """Any litellm model id. A subclass that reaches its model in its own way changes
    :meth:`serving_profile`, :meth:`response_format` and :meth:`asks_logprobs` (the embedded
    judge), or :meth:`send` and :meth:`check_keys` (a client other than litellm's)."""

    def __init__(
        self, model: str, *, env: JudgingEnvironment, timeout: float | None = None, **extra: Any
    ) -> None:
        self.model = model
        self.env = env
        self.extra = extra
        self.profile = self.serving_profile(extra.get("api_base"))
        self.timeout = timeout if timeout is not None else self.profile.timeout_s
        #: the server refused a request for log-probabilities once; none are asked for again
        self.logprobs_refused = False
        self.keys_present = False

    def check_keys(self) -> None:
        """A missing provider key is permanent: refused at the first call, never retried."""
        if self.keys_present:
            return
        if keys := missing_keys(self.model, self.extra):
            raise PermanentJudgeError(f"{self.model!r} needs {', '.join(keys)}, which is not set")
        self.keys_present = True

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        response, kwargs = await self.respond(request)
        return self.with_format(reply_from_response(response), kwargs)

    def with_format(self, reply: JudgeReply, kwargs: Mapping[str, Any]) -> JudgeReply:
        """The reply marked with the verdict format the call that got it sent."""
        sent = self.reply_format(kwargs)
        return reply.model_copy(update={"structured_output": sent != "none", "reply_format": sent})

    def reply_format(self, kwargs: Mapping[str, Any]) -> ReplyFormat:
        """How a call with ``kwargs`` held the reply to the verdict's shape: the type of the
        ``response_format`` it sent (``json_schema``, or ``json_object`` with the schema), or
        ``none`` (docs/scoring.md, "Reply format")."""
        shape = kwargs.get("response_format")
        if not isinstance(shape, Mapping):
            return "none"
        return "json_object" if shape.get("type") == "json_object" else "json_schema"

    async def respond(
        self, request: JudgeRequest, extra: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """The provider's answer to one request (with ``extra`` body fields), and the
        arguments that got it."""
        self.check_keys()
        for retried in (False, True):
            kwargs = self._kwargs(request) | (extra or {})
            try:
                return await self.send(kwargs), kwargs
            except Exception as exc:  # mapped to our tree; nothing is swallowed
                if retried or not refuses_logprobs(exc, kwargs):
                    if isinstance(exc, JudgeError):
                        raise
                    raise classify_litellm_error(exc) from exc
                # e.g. llama-cpp-python's server without --logits_all: never ask for them again
                self.logprobs_refused = True
        raise AssertionError("unreachable: the second try returns or raises")

    async def send(self, kwargs: dict[str, Any]) -> Any:
        """One call with litellm's ``acompletion`` arguments; its answer as litellm gives it."""
        return await load_litellm().acompletion(**kwargs)

    def _kwargs(self, request: JudgeRequest) -> dict[str, Any]:
        messages = shape_messages(request.messages, self.profile)
        kwargs: dict[str, Any] = {
            **call_arguments(self.model, messages, request, timeout=self.timeout),
            "num_retries": 0,
            **self.extra,
        }
        schema = request.response_schema
        if schema is not None and (shape := self.response_format(schema)) is not None:
            kwargs.setdefault("response_format", shape)
        if "logprobs" not in kwargs and not self.logprobs_refused and self.asks_logprobs():
            kwargs |= {"logprobs": True, "top_logprobs": TOP_LOGPROBS}
        return kwargs

    def serving_profile(self, api_base: str | None) -> ServingProfile:
        """How to talk to this model's engine (:func:`serving_profile`)."""
        return serving_profile(self.model, self.env, api_base=api_base)

    def response_format(self, schema: dict[str, Any]) -> dict[str, Any] | None:
        """The verdict schema as this model is told it, or None when it enforces none."""
        return verdict_response_format(schema) if supports_response_schema(self.model) else None

    def asks_logprobs(self) -> bool:
        """Whether a call asks for token log-probabilities with alternatives."""
        return supports_logprobs(self.model)


def call_arguments(
    model: str, messages: list[dict[str, Any]], request: JudgeRequest, *, timeout: float
) -> dict[str, Any]:
    """The ``acompletion`` arguments of one judge request, for a backend or a Router, with
    litellm's response cache off (a repeated pass is a fresh sample, never a cached copy)."""
    return {
        "model": model,
        "messages": messages,
        "temperature": request.temperature,
        "max_tokens": request.max_tokens,
        "timeout": timeout,
        "caching": False,
    }


def refuses_logprobs(exc: Exception, kwargs: dict[str, Any]) -> bool:
    """The server turned the call down because log-probabilities were asked for."""
    return (
        bool(kwargs.get("logprobs"))
        and "logprobs" in str(exc).lower()
        and not isinstance(exc, TimeoutError)
    )


#: Alternatives asked for at each token (OpenAI's maximum); the score grid needs the ten digits.
TOP_LOGPROBS = 20
#: Schema keywords OpenAI's strict structured outputs refuse; dropped from the schema sent (a
#: string's length bound is kept as a pattern, which strict mode takes).
_UNSTRICT_KEYWORDS = ("maxLength", "minLength")


@functools.lru_cache(maxsize=256)
def supports_response_schema(model: str) -> bool:
    """litellm's word on whether the provider enforces a JSON schema for this model."""
    litellm = load_litellm()
    try:
        return bool(litellm.supports_response_schema(model=model))
    except Exception:  # noqa: BLE001 - an unknown model is one without schema support
        return False


@functools.lru_cache(maxsize=256)
def supports_logprobs(model: str) -> bool:
    """litellm's word on whether the provider returns token log-probabilities with alternatives."""
    litellm = load_litellm()
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
        kept = {k: _strict(v) for k, v in schema.items() if k not in _UNSTRICT_KEYWORDS}
        if "maxLength" in schema and "pattern" not in schema:
            low = schema.get("minLength", 0)
            kept["pattern"] = f"^[\\s\\S]{{{low},{schema['maxLength']}}}$"
        return kept
    if isinstance(schema, list):
        return [_strict(v) for v in schema]
    return schema


def reply_from_response(response: Any, index: int = 0) -> JudgeReply:
    """Read text, refusal and token accounting out of a litellm ModelResponse (its choice
    ``index``; the request's token counts and cost go with the first choice, zero with the
    others, so the passes of one request add up to what it used)."""
    choice = response.choices[index]
    usage = getattr(response, "usage", None)
    cached = getattr(getattr(usage, "prompt_tokens_details", None), "cached_tokens", None)
    if cached is None:
        cached = getattr(usage, "cache_read_input_tokens", None)
    hidden = getattr(response, "_hidden_params", None) or {}
    first = index == 0
    return JudgeReply(
        text=choice.message.content or "",
        refused=choice.finish_reason == "content_filter",
        prompt_tokens=getattr(usage, "prompt_tokens", None) if first else 0,
        cached_prompt_tokens=cached if first else 0,
        completion_tokens=getattr(usage, "completion_tokens", None) if first else 0,
        cost_usd=hidden.get("response_cost") if first else 0.0,
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
    return retry_after(headers) if headers else None


def retry_after(headers: Mapping[str, str]) -> float | None:
    """A Retry-After header in seconds (absent or not a number: None)."""
    value = headers.get("retry-after") or headers.get("Retry-After")
    try:
        return max(0.0, float(value)) if value is not None else None
    except (TypeError, ValueError):
        return None


def _build(member: MemberSpec) -> LiteLLMBackend:
    load_litellm()  # banners off before anything of litellm's can print
    return LiteLLMBackend(member.model, env=member.env)


ENTRY = ProviderEntry(
    name="litellm",
    build=_build,
    prefixes=("",),
    profile=serving_profile,
    capabilities=capabilities,
    check=check_model,
)
