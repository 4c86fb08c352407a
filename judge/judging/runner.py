"""The multi-pass runner: independent temperature-0 judge calls under a concurrency limit.

Independence means separate calls with the identical prompt: nothing is cached or shared
between passes, so a deterministic backend shows up as identical replies (and a variance
of 0) rather than being hidden. Transient backend failures retry with backoff; a reply
that cannot be read becomes an unscored pass with its reason. Backend failures that
survive the retries stop the scoring: the passes already finished were handed to
``on_pass`` and can be resumed from.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, Field
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, stop_after_attempt

from judge.domain.judging import JudgePass
from judge.domain.rubric import Rubric
from judge.domain.run import TranscriptEvent
from judge.errors import TransientJudgeError
from judge.judging.backends import JudgeBackend, JudgeReply, JudgeRequest
from judge.judging.prompt import (
    VERDICT_SCHEMA,
    Layout,
    judge_messages,
    rubric_block,
    transcript_block,
)
from judge.judging.verdict import parse_verdict

PassKey = tuple[str, int]
OnPass = Callable[[JudgePass], None]


class RunnerConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    concurrency: int = Field(default=4, ge=1, le=256)
    max_attempts: int = Field(default=5, ge=1, le=20)
    backoff_initial_s: float = Field(default=1.0, ge=0.0)
    backoff_max_s: float = Field(default=60.0, ge=0.0)
    max_tokens: int = Field(default=160, ge=16)
    layout: Layout = "transcript_first"


@dataclass(frozen=True)
class PassSpec:
    trait: str
    index: int
    request: JudgeRequest


def pass_specs(
    transcript: Sequence[TranscriptEvent],
    seat: str,
    rubrics: Sequence[Rubric],
    passes: int,
    config: RunnerConfig,
) -> list[PassSpec]:
    """Every pass to make, round-robin over traits (pass 0 of each trait, then pass 1, ...).

    Passes of one trait get the identical request; the transcript part is shared by all.
    """
    shared = transcript_block(transcript, seat)
    requests = {
        r.trait: JudgeRequest(
            messages=judge_messages(shared, rubric_block(r, seat), layout=config.layout),
            max_tokens=config.max_tokens,
            response_schema=VERDICT_SCHEMA,
            label=r.trait,
        )
        for r in rubrics
    }
    return [PassSpec(r.trait, i, requests[r.trait]) for i in range(passes) for r in rubrics]


def _wait(config: RunnerConfig) -> Callable[[RetryCallState], float]:
    def wait(state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        if isinstance(exc, TransientJudgeError) and exc.retry_after is not None:
            return min(exc.retry_after, config.backoff_max_s)
        return float(min(config.backoff_initial_s * 2 ** (state.attempt_number - 1), config.backoff_max_s))

    return wait


class Attempt(NamedTuple):
    reply: JudgeReply
    attempts: int


async def call_with_retries(
    backend: JudgeBackend,
    request: JudgeRequest,
    config: RunnerConfig,
    sleep: Callable[[float], Awaitable[None]],
) -> Attempt:
    """One judge call under the retry policy: transient errors retry with backoff (honouring
    Retry-After); the reply comes back with the number of attempts it took."""
    retrying = AsyncRetrying(
        retry=retry_if_exception_type(TransientJudgeError),
        stop=stop_after_attempt(config.max_attempts),
        wait=_wait(config),
        sleep=sleep,
        reraise=True,
    )
    async for attempt in retrying:
        with attempt:
            reply = await backend.complete(request)
    return Attempt(reply, retrying.statistics.get("attempt_number", 1))


def _to_pass(spec: PassSpec, attempt: Attempt, model: str, latency_ms: float, turns: set[int]) -> JudgePass:
    reply = attempt.reply
    verdict = parse_verdict(reply.text, turns, refused=reply.refused)
    return JudgePass(
        trait=spec.trait,
        index=spec.index,
        score=verdict.score,
        rationale=verdict.rationale,
        cited_turns=verdict.cited_turns,
        raw_output=reply.text,
        model=model,
        prompt_tokens=reply.prompt_tokens,
        cached_prompt_tokens=reply.cached_prompt_tokens,
        completion_tokens=reply.completion_tokens,
        cost_usd=reply.cost_usd,
        latency_ms=latency_ms,
        attempts=attempt.attempts,
        parse_status=verdict.status,
        unscored_reason=verdict.reason,
    )


async def run_passes(
    specs: Sequence[PassSpec],
    backend: JudgeBackend,
    *,
    known_turns: set[int],
    config: RunnerConfig | None = None,
    done: Mapping[PassKey, JudgePass] | None = None,
    on_pass: OnPass | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> list[JudgePass]:
    """Make every pass not already in ``done``; return all passes (done ones included).

    Raises:
        JudgeBackendError: a permanent failure, or a transient one that outlasted the retries.
    """
    config = config or RunnerConfig()
    done = done or {}
    limit = asyncio.Semaphore(config.concurrency)

    async def one(spec: PassSpec) -> JudgePass:
        async with limit:
            started = time.perf_counter()
            attempt = await call_with_retries(backend, spec.request, config, sleep)
            latency = (time.perf_counter() - started) * 1000
        result = _to_pass(spec, attempt, backend.model, latency, known_turns)
        if on_pass is not None:
            on_pass(result)
        return result

    todo = [s for s in specs if (s.trait, s.index) not in done]
    tasks = [asyncio.ensure_future(one(s)) for s in todo]
    try:
        fresh = await asyncio.gather(*tasks)
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
    return [*done.values(), *fresh]
