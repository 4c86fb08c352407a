"""The direct OpenAI-compatible provider: ``openai/<name>`` on a judge server of one's own,
posted straight to ``<base>/chat/completions`` over one aiohttp session per event loop,
without litellm's CPU per call (docs/deploy.md, "What a judge call costs a worker"). The body
is litellm's; the reply is read through :class:`Fields` by litellm's ``reply_from_response``.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncGenerator, Callable, Mapping
from typing import TYPE_CHECKING, Any

from judge.core.errors import ConfigError, PermanentJudgeError, TransientJudgeError
from judge.engine.judging import environment
from judge.engine.judging.backends import JudgeReply, JudgeRequest, ServingProfile
from judge.engine.judging.environment import JudgingEnvironment
from judge.engine.judging.model_check import check_model
from judge.engine.judging.providers.litellm import (
    LiteLLMBackend,
    capabilities,
    reply_from_response,
    retry_after,
    verdict_response_format,
)
from judge.engine.judging.providers.litellm_loader import load_litellm
from judge.engine.judging.spec import MemberSpec, ProviderEntry

PREFIX = "openai/"
#: Arguments of litellm's call that are litellm's own options, not part of the request body.
LITELLM_OPTIONS = frozenset({"model", "timeout", "caching", "num_retries", "api_base", "api_key"})
#: Backend arguments this client understands.
CLIENT_ARGUMENTS = frozenset({"api_base", "api_key"})
TRANSIENT_STATUS = frozenset({408, 429})
ERROR_TEXT_LIMIT = 300
#: A server of one's own keeps one cached prefix (llama.cpp's, and any server not known to
#: keep more: passes of a prompt run back to back) and answers calls in turn, so a call may wait.
SERVING_PROFILE = ServingProfile(content="string", many_prefixes=False, timeout_s=600.0)


def _json_object_shape(schema: dict[str, Any]) -> dict[str, Any]:
    """llama-cpp-python's shape: ``json_object`` with the schema beside it, compiled to a
    grammar with its length bounds as they are."""
    return {"type": "json_object", "schema": schema}


#: The shapes the verdict schema is sent in to a server of one's own, in the order tried:
#: OpenAI's strict ``json_schema`` (vLLM, SGLang, llama.cpp's own server), then
#: llama-cpp-python's ``json_object`` with a schema (its server refuses the first with an
#: error that names ``response_format``, a 500). A schema bounds the verdict's length as the prompt asks
#: (docs/scoring.md): without one a small model's reply ran to the reply cap.
SCHEMA_SHAPES: tuple[Callable[[dict[str, Any]], dict[str, Any]], ...] = (
    verdict_response_format,
    _json_object_shape,
)


def choices_bound(refusal: str, asked: int) -> int:
    """The most choices to ask next of a server that refused ``asked``: the bound its refusal
    names after a ``<=`` where that is below ``asked`` (llama.cpp's: "Field 'n': Value must be
    between 1 <= value <= 4, but got 5"), else half as many."""
    named: list[int] = []
    for after in refusal.split("<=")[1:]:
        text = after.lstrip()
        digits = text[: len(text) - len(text.lstrip("0123456789"))]
        if digits and 1 <= int(digits) < asked:
            named.append(int(digits))
    return max(named) if named else max(1, asked // 2)


if TYPE_CHECKING:  # aiohttp is imported when the first client is made, not with the package
    import aiohttp


def own_server(env: JudgingEnvironment) -> bool:
    """``openai/`` ids take this client: an API base of one's own is set and
    ``JUDGE_OPENAI_CLIENT`` is not ``litellm``."""
    litellm_chosen = env.openai_client.strip().lower() == "litellm"
    return not litellm_chosen and environment.custom_openai_base(None, env)


class OpenAICompatibleBackend(LiteLLMBackend):
    """An ``openai/`` model on a server of one's own, posted by an
    :class:`OpenAICompatibleClient` instead of litellm.

    Raises:
        ConfigError: no API base of one's own is given or set, or an argument other than
            ``api_base`` and ``api_key``.
    """

    def __init__(
        self, model: str, *, env: JudgingEnvironment, timeout: float | None = None, **extra: Any
    ) -> None:
        super().__init__(model, env=env, timeout=timeout, **extra)
        if unknown := sorted(set(extra) - CLIENT_ARGUMENTS):
            raise ConfigError(
                f"{model!r}: the direct OpenAI-compatible client takes api_base and api_key "
                f"only, not {', '.join(unknown)}; send other arguments through LiteLLMBackend"
            )
        base = environment.openai_base(extra.get("api_base"), env)
        if base is None or not environment.custom_openai_base(base, env):
            raise ConfigError(
                f"{model!r}: the direct OpenAI-compatible client needs the API base of a server "
                "of your own: set OPENAI_BASE_URL or pass api_base"
            )
        key = extra.get("api_key") or env.openai_api_key
        self.client = OpenAICompatibleClient(model, base=base, api_key=key, timeout=self.timeout)
        #: how many of :data:`SCHEMA_SHAPES` the server refused (it is asked in the next)
        self.shapes_refused = 0
        #: the most choices one request may ask, once the server refused more (else None)
        self.most_choices: int | None = None

    def serving_profile(self, api_base: str | None) -> ServingProfile:
        return SERVING_PROFILE

    def response_format(self, schema: dict[str, Any]) -> dict[str, Any] | None:
        """The verdict schema in the first of :data:`SCHEMA_SHAPES` this server has not
        refused, or None once it refused them all (litellm cannot say what a server of one's
        own enforces; the ones this client serves do, each in its own shape)."""
        if self.shapes_refused >= len(SCHEMA_SHAPES):
            return None
        return SCHEMA_SHAPES[self.shapes_refused](schema)

    async def respond(
        self, request: JudgeRequest, extra: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """The answer as :meth:`LiteLLMBackend.respond` gets it; a server that turns the
        request down for its ``response_format`` is asked again with the next shape (and
        without any), and is never asked in a refused shape again."""
        while True:
            asked = self.shapes_refused
            try:
                return await super().respond(request, extra)
            except (PermanentJudgeError, TransientJudgeError) as exc:
                # llama-cpp-python answers a shape it cannot read with a 500 naming the field
                if "response_format" not in str(exc) or asked >= len(SCHEMA_SHAPES):
                    raise
                self.shapes_refused = max(self.shapes_refused, asked + 1)

    def check_keys(self) -> None:
        """A server of one's own needs no provider key (it may want some key: ``api_key``)."""

    async def send(self, kwargs: dict[str, Any]) -> Completion:
        return await self.client.complete(kwargs)

    async def complete_choices(self, request: JudgeRequest, n: int) -> list[JudgeReply]:
        """One request asking ``n`` choices; the replies the server gave, in its order (one
        from a server that ignores ``n``: the runner sends the rest alone). A 400 while asking
        several (more than llama.cpp's server has slots) asks again for fewer
        (:func:`choices_bound`), and never again for more than it took."""
        while True:
            asked = min(n, self.most_choices or n)
            try:
                response, kwargs = await self.respond(request, {"n": asked} if asked > 1 else None)
            except PermanentJudgeError as exc:
                # only a 400 refuses the request as written; a refused key or an unknown
                # model is no word on n: raised at once
                if asked <= 1 or exc.status != 400:
                    raise
                self.most_choices = choices_bound(str(exc), asked)
                continue
            return [
                self.with_format(reply_from_response(response, k), kwargs)
                for k in range(min(asked, len(response.choices)))
            ]


class Fields:
    """Attribute access to a parsed JSON object, as litellm's response objects give it; a
    missing key raises AttributeError (so ``getattr(x, name, None)`` works)."""

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
        """One call with the arguments litellm's ``acompletion`` would take.

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
        choices = data.get("choices") if isinstance(data, dict) else None
        if not isinstance(choices, list) or not choices:
            raise TransientJudgeError("the judge server's answer holds no completion choices")
        return Completion(data, cost_usd(self.name, data.get("usage")))


def _status_error(
    status: int, text: str, headers: Mapping[str, str]
) -> TransientJudgeError | PermanentJudgeError:
    message = f"HTTP {status} from the judge server: {text[:ERROR_TEXT_LIMIT]}"
    if status in TRANSIENT_STATUS or status >= 500:
        return TransientJudgeError(message, retry_after=retry_after(headers))
    return PermanentJudgeError(message, status=status)


_priced: dict[str, bool] = {}


def cost_usd(name: str, usage: Any) -> float | None:
    """The call's cost from litellm's price map; None for a model it has no price for."""
    if _priced.get(name) is False or not isinstance(usage, dict):
        return None
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


# One session per event loop (aiohttp sessions belong to theirs), closed when its loop shuts
# down its async generators (asyncio.run does; a loop run by hand: ``shutdown_asyncgens()``).
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


def _build(member: MemberSpec) -> OpenAICompatibleBackend:
    load_litellm()  # banners off before anything of litellm's can print
    return OpenAICompatibleBackend(member.model, env=member.env)


ENTRY = ProviderEntry(
    name="openai-compatible",
    build=_build,
    prefixes=(PREFIX,),
    applies=own_server,
    profile=lambda *_: SERVING_PROFILE,
    capabilities=capabilities,
    check=check_model,
)
