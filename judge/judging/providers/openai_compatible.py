"""A light client for OpenAI-compatible judge servers (vLLM, llama.cpp, Ollama's /v1, a proxy).

A judge model ``openai/<name>`` with an API base of its own (``api_base``, or the settings'
``OPENAI_BASE_URL`` / ``OPENAI_API_BASE`` as litellm reads them) is some OpenAI-compatible
server. Its calls are posted straight to ``<base>/chat/completions`` over one aiohttp session
per event loop, whose keep-alive connections every call reuses, instead of going through
litellm: litellm's own work per call (building the request, its response objects, logging
hooks, the cost lookup) costs several milliseconds of CPU, which is most of a scoring
worker's CPU when it makes dozens of calls a second (README, "Scale-out").

The request body is what litellm would send for such a server (the call's arguments, less
litellm's own options); the reply is read through :class:`Fields`, attribute access to the
JSON answer, which is what litellm's response objects mirror for this provider, so
:func:`judge.judging.providers.litellm.reply_from_response` reads both alike. Errors are mapped as for
litellm: connection failures, timeouts, 408, 429 and 5xx are transient (with the server's
Retry-After), any other answer is permanent. The cost of a call comes from litellm's price map
when it knows the model (it mostly does not, for a self-hosted one).

Everything else (hosted APIs, other providers, Router deployments) goes through litellm, and
``JUDGE_OPENAI_CLIENT=litellm`` sends these calls through litellm as well. This client is not
an entry of its own in :mod:`judge.judging.registry`: the litellm entry claims ``openai/`` ids
and its backend hands the calls here when :func:`direct_client` gives a client.

The API base of ``openai/`` is decided here and nowhere else (:func:`openai_base`): the
argument, then ``$OPENAI_BASE_URL``, then ``$OPENAI_API_BASE``, litellm's own order.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncGenerator, Mapping
from typing import TYPE_CHECKING, Any

from judge.errors import PermanentJudgeError, TransientJudgeError
from judge.judging.environment import JudgingEnvironment

PREFIX = "openai/"
SWITCH = "JUDGE_OPENAI_CLIENT"
#: Arguments of litellm's call that are litellm's own options, not part of the request body.
LITELLM_OPTIONS = frozenset({"model", "timeout", "caching", "num_retries", "api_base", "api_key"})
#: Backend arguments this client understands; any other sends the calls through litellm.
CLIENT_ARGUMENTS = frozenset({"api_base", "api_key"})
TRANSIENT_STATUS = frozenset({408, 429})
ERROR_TEXT_LIMIT = 300

if TYPE_CHECKING:  # aiohttp is imported when the first client is made, not with the package
    import aiohttp


def openai_base(api_base: str | None, env: JudgingEnvironment) -> str | None:
    """The API base litellm would use for ``openai/``: the argument, then ``$OPENAI_BASE_URL``,
    then ``$OPENAI_API_BASE`` (None: OpenAI itself)."""
    return api_base or env.openai_base_url or env.openai_api_base or None


def custom_openai_base(api_base: str | None, env: JudgingEnvironment) -> bool:
    """``openai/`` points at a server of its own, not OpenAI's API."""
    base = openai_base(api_base, env)
    return base is not None and "api.openai.com" not in base


def direct_client(
    model: str, extra: Mapping[str, Any], *, env: JudgingEnvironment, timeout: float
) -> OpenAICompatibleClient | None:
    """The light client for this judge, or None when its calls go through litellm
    (``JUDGE_OPENAI_CLIENT=litellm``, another provider, OpenAI itself, other arguments)."""
    if env.openai_client.strip().lower() == "litellm":
        return None
    if not model.startswith(PREFIX) or not set(extra) <= CLIENT_ARGUMENTS:
        return None
    base = openai_base(extra.get("api_base"), env)
    if base is None or not custom_openai_base(base, env):
        return None
    key = extra.get("api_key") or env.openai_api_key
    return OpenAICompatibleClient(model, base=base, api_key=key, timeout=timeout)


class Fields:
    """Attribute access to a parsed JSON object, as litellm's response objects give it:
    ``reply.choices[0].message.content``; a missing key raises AttributeError (so
    ``getattr(x, name, None)`` works), JSON null reads as None."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._data = data

    def __getattr__(self, name: str) -> Any:
        try:
            return _wrap(self._data[name])
        except KeyError:
            raise AttributeError(name) from None


class Completion(Fields):
    """A chat completion, with the cost where litellm would put it (``_hidden_params``)."""

    __slots__ = ("_hidden_params",)

    def __init__(self, data: Mapping[str, Any], cost_usd: float | None) -> None:
        super().__init__(data)
        self._hidden_params = {"response_cost": cost_usd}


def _wrap(value: Any) -> Any:
    if isinstance(value, dict):
        return Fields(value)
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


class OpenAICompatibleClient:
    """Posts chat completions to one OpenAI-compatible server."""

    def __init__(self, model: str, *, base: str, api_key: str | None, timeout: float) -> None:
        import aiohttp

        self.model = model
        self.name = model.removeprefix(PREFIX)
        self.url = base.rstrip("/") + "/chat/completions"
        self.headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.timeout = aiohttp.ClientTimeout(total=timeout)

    def body(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The request body for litellm-style call arguments."""
        return {
            "model": self.name,
            **{k: v for k, v in arguments.items() if k not in LITELLM_OPTIONS},
        }

    async def complete(self, arguments: Mapping[str, Any]) -> Completion:
        """One call; the arguments are those litellm's ``acompletion`` would take.

        Raises:
            TransientJudgeError: the server could not be reached, timed out, was busy (408,
                429) or failed (5xx), or answered something that is not a completion.
            PermanentJudgeError: the server refused the request (any other 4xx).
        """
        import aiohttp

        session = await _session()
        try:
            async with session.post(
                self.url, json=self.body(arguments), headers=self.headers, timeout=self.timeout
            ) as response:
                if response.status >= 400:
                    raise _status_error(response.status, await response.text(), response.headers)
                data = await response.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise TransientJudgeError(
                f"{type(exc).__name__}: {str(exc)[:ERROR_TEXT_LIMIT]}"
            ) from None
        except ValueError:
            raise TransientJudgeError(
                "the judge server answered something that is not JSON"
            ) from None
        if (
            not isinstance(data, dict)
            or not isinstance(data.get("choices"), list)
            or not data["choices"]
        ):
            raise TransientJudgeError("the judge server's answer holds no completion choices")
        return Completion(data, cost_usd(self.name, data.get("usage")))


def _status_error(
    status: int, text: str, headers: Mapping[str, str]
) -> TransientJudgeError | PermanentJudgeError:
    message = f"HTTP {status} from the judge server: {text[:ERROR_TEXT_LIMIT]}"
    if status in TRANSIENT_STATUS or status >= 500:
        return TransientJudgeError(message, retry_after=retry_after(headers))
    return PermanentJudgeError(message)


def retry_after(headers: Mapping[str, str]) -> float | None:
    """The Retry-After header in seconds (absent or not a number: None)."""
    value = headers.get("Retry-After")
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


_priced: dict[str, bool] = {}


def cost_usd(name: str, usage: Any) -> float | None:
    """The call's cost from litellm's price map; None for a model it has no price for."""
    if _priced.get(name) is False or not isinstance(usage, dict):
        return None
    from judge.judging.providers.litellm_loader import load_litellm

    try:
        prompt, completion = load_litellm().cost_per_token(
            model=name,
            custom_llm_provider="openai",
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
        )
    except Exception:  # noqa: BLE001 - litellm raises a bare Exception for a model it has no price for
        _priced[name] = False
        return None
    _priced[name] = True
    return float(prompt + completion)


# One session per event loop: aiohttp sessions belong to the loop they were made in. Each is
# closed when its loop shuts down (asyncio.run finalizes async generators first; a loop run by
# hand does it with ``loop.shutdown_asyncgens()``).
_sessions: dict[asyncio.AbstractEventLoop, aiohttp.ClientSession] = {}
_closers: dict[asyncio.AbstractEventLoop, AsyncGenerator[None, None]] = {}
_lock = threading.Lock()


async def _session() -> aiohttp.ClientSession:
    import aiohttp

    loop = asyncio.get_running_loop()
    session = _sessions.get(loop)
    if session is not None and not session.closed:
        return session
    # no connection limit here: the runner bounds the calls in flight
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    closer = _close_with_loop(session)
    await closer.__anext__()
    with _lock:
        for old in [lp for lp in _sessions if lp.is_closed()]:
            _sessions.pop(old, None)
            _closers.pop(old, None)
        _sessions[loop], _closers[loop] = session, closer
    return session


async def _close_with_loop(session: aiohttp.ClientSession) -> AsyncGenerator[None, None]:
    try:
        yield
    finally:
        await session.close()
