"""The one I/O seam of judging: the request and reply values, the :class:`JudgeBackend`
protocol (and :class:`BatchJudgeBackend`), the :class:`ServingProfile` of a serving engine,
and :class:`ScriptedBackend`, the fake judge tests swap in. The backends themselves are the
providers' (:mod:`judge.engine.judging.providers`).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncGenerator, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from judge.core.domain.judging import ReplyFormat
from judge.core.errors import PermanentJudgeError
from judge.engine.judging.prompt import flatten_content
from judge.engine.judging.score_grid import TokenStep


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
    reply_format: ReplyFormat | None = Field(
        default=None, description="how the verdict's shape was enforced; None: not said"
    )


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


@runtime_checkable
class ChoicesJudgeBackend(Protocol):
    """A backend that can ask one request for several choices (OpenAI's ``n``), so the passes
    of one prompt share it; a server that ignores ``n`` answers fewer (docs/scoring.md)."""

    model: str

    async def complete(self, request: JudgeRequest) -> JudgeReply: ...

    async def complete_choices(self, request: JudgeRequest, n: int) -> list[JudgeReply]: ...


Content = Literal["string", "parts", "marked_parts"]


@dataclass(frozen=True)
class ServingProfile:
    """How to talk to one serving engine.

    Attributes:
        content: ``"string"`` (one string per message), ``"marked_parts"`` (content parts,
            the transcript marked with Anthropic's ``cache_control``) or ``"parts"``.
        many_prefixes: the engine keeps the KV cache of many prompts at once; otherwise
            passes of one prompt run back to back to find their prefix still cached.
        batched: the backend decodes the passes of a seat together (``complete_batch``).
        timeout_s: how long one call may take; a self-hosted server answers calls in turn,
            and giving up early only makes it finish a reply nobody reads.
    """

    content: Content = "string"
    many_prefixes: bool = False
    batched: bool = False
    timeout_s: float = 120.0


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
    """A fake judge: replies from a queue (or a default), recording every request; an
    enqueued exception is raised for its call, a callable is called with the request."""

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


def mark_prefix_cacheable(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Mark the first user content block (the transcript) with Anthropic's cache_control."""
    marked = list(messages)
    for n, message in enumerate(marked):
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, list) and content:
            first = {**content[0], "cache_control": {"type": "ephemeral"}}
            marked[n] = {**message, "content": [first, *content[1:]]}
            break
    return marked
