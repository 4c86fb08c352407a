"""The multi-pass runner: independent temperature-0 judge calls (docs/scoring.md, "Passes")
under a concurrency limit, ordered for the backend's prefix cache. Transient failures retry
with backoff; failures that survive the retries stop the scoring, and the passes already
handed to ``on_pass`` can be resumed from.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import aclosing
from dataclasses import dataclass
from typing import NamedTuple, Protocol, TypedDict, TypeVar, cast

from pydantic import BaseModel, ConfigDict, Field
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, stop_after_attempt

from judge.core.domain.judging import JudgePass, ScoreMode
from judge.core.domain.rubric import Rubric
from judge.core.domain.run import TranscriptEvent
from judge.core.errors import JudgeBackendError, PermanentJudgeError, TransientJudgeError
from judge.engine.judging.backends import (
    BatchJudgeBackend,
    ChoicesJudgeBackend,
    JudgeBackend,
    JudgeReply,
    JudgeRequest,
    ServingProfile,
    profile_of,
)
from judge.engine.judging.prompt import (
    Layout,
    judge_messages,
    prompt_labels,
    rubric_block,
    transcript_block,
    verdict_schema,
)
from judge.engine.judging.score_grid import grid_distribution, score_of_pass
from judge.engine.judging.verdict import parse_verdict

PassKey = tuple[str, int]
OnPass = Callable[[JudgePass], None]


class RunnerSettings(Protocol):
    """The settings a runner is built from (:class:`judge.engine.settings.Settings` has them)."""

    @property
    def concurrency(self) -> int: ...
    @property
    def max_attempts(self) -> int: ...
    @property
    def backoff_initial_s(self) -> float: ...


class RunnerConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    concurrency: int = Field(default=4, ge=1, le=256)
    max_attempts: int = Field(default=5, ge=1, le=20)
    backoff_initial_s: float = Field(default=1.0, ge=0.0)
    backoff_max_s: float = Field(default=60.0, ge=0.0)
    max_tokens: int = Field(default=160, ge=16)
    layout: Layout = "transcript_first"
    score_mode: ScoreMode = "sampled"
    spotlight: bool = Field(
        default=True, description="mark the transcript (prompt version 7; docs/integrity.md)"
    )
    shared_passes: bool = Field(
        default=True,
        description="ask a server of one's own for the passes of one trait as one request "
        "with n choices, where it answers them (docs/scoring.md)",
    )

    @classmethod
    def from_settings(cls, settings: RunnerSettings) -> RunnerConfig:
        """The runner the service's settings ask for (JUDGE_CONCURRENCY, JUDGE_MAX_ATTEMPTS, ...)."""
        return cls(
            concurrency=settings.concurrency,
            max_attempts=settings.max_attempts,
            backoff_initial_s=settings.backoff_initial_s,
        )


#: The one declaration of the runner's defaults: the settings and the command line offer these.
RUNNER_DEFAULTS = RunnerConfig()


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
    *,
    labels: Mapping[str, str] | None = None,
) -> list[PassSpec]:
    """Every pass to make, trait by trait; passes of one trait get the identical request.
    Defended (``config.spotlight``) the prompt names seats by ``labels``, the run's platform
    labels (Seat A, Seat B, ... in order of first appearance when not given)."""
    shared = transcript_block(transcript, seat, spotlight=config.spotlight, labels=labels)
    named = prompt_labels(transcript, [seat], labels)[seat] if config.spotlight else seat
    requests = {r.trait: _trait_request(shared, r, named, config) for r in rubrics}
    return [PassSpec(r.trait, i, requests[r.trait]) for r in rubrics for i in range(passes)]


def _trait_request(shared: str, rubric: Rubric, seat: str, config: RunnerConfig) -> JudgeRequest:
    return JudgeRequest(
        messages=judge_messages(
            shared, rubric_block(rubric, seat), layout=config.layout, spotlight=config.spotlight
        ),
        max_tokens=config.max_tokens,
        response_schema=verdict_schema(spotlight=config.spotlight),
        label=rubric.trait,
    )


def cache_order(specs: Sequence[PassSpec], profile: ServingProfile) -> list[PassSpec]:
    """Order passes for the engine's prefix cache: trait-major (passes of one prompt
    consecutive) for engines that keep one prefix; round-robin over traits for engines that
    keep many, where order costs nothing and an interrupted run holds early passes of every
    trait."""
    rank = {trait: n for n, trait in enumerate(dict.fromkeys(s.trait for s in specs))}
    if profile.many_prefixes:
        return sorted(specs, key=lambda s: (s.index, rank[s.trait]))
    return sorted(specs, key=lambda s: (rank[s.trait], s.index))


def _retrying(config: RunnerConfig, sleep: Callable[[float], Awaitable[None]]) -> AsyncRetrying:
    """The retry policy: transient errors retry with exponential backoff, honouring
    Retry-After, up to ``max_attempts``."""

    def wait(state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        if isinstance(exc, TransientJudgeError) and exc.retry_after is not None:
            return min(exc.retry_after, config.backoff_max_s)
        return float(
            min(config.backoff_initial_s * 2 ** (state.attempt_number - 1), config.backoff_max_s)
        )

    return AsyncRetrying(
        retry=retry_if_exception_type(TransientJudgeError),
        stop=stop_after_attempt(config.max_attempts),
        wait=wait,
        sleep=sleep,
        reraise=True,
    )


class Attempt(NamedTuple):
    reply: JudgeReply
    attempts: int
    latency_ms: float


class Usage(TypedDict):
    """A reply's tokens and dollars, as the provider counted them."""

    prompt_tokens: int | None
    cached_prompt_tokens: int | None
    completion_tokens: int | None
    cost_usd: float | None


class CallRecord(Usage):
    """What every stored pass, single-seat or pairwise, and a coaching response keep of a call:
    the fields of :class:`judge.core.domain.judging.JudgeCall` but how the reply parsed."""

    raw_output: str
    model: str
    latency_ms: float
    attempts: int


def usage_of(reply: JudgeReply) -> Usage:
    """What the reply's call used, under the names a pass stores them by
    (tests/engine/judging/test_runner.py holds the three together)."""
    return cast(Usage, reply.model_dump(include=set(Usage.__required_keys__)))


def call_record(attempt: Attempt, model: str) -> CallRecord:
    """The record of one answered call, as a pass stores it."""
    return CallRecord(
        raw_output=attempt.reply.text,
        model=model,
        latency_ms=attempt.latency_ms,
        attempts=attempt.attempts,
        **usage_of(attempt.reply),
    )


async def call_with_retries(
    backend: JudgeBackend,
    request: JudgeRequest,
    config: RunnerConfig,
    sleep: Callable[[float], Awaitable[None]],
) -> Attempt:
    """One judge call under the retry policy, with the attempts and the time it took."""
    started = time.perf_counter()
    retrying = _retrying(config, sleep)
    async for attempt in retrying:
        with attempt:
            reply = await backend.complete(request)
    latency = (time.perf_counter() - started) * 1000
    return Attempt(reply, retrying.statistics.get("attempt_number", 1), latency)


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
    """Make every pass of ``specs`` not already in ``done``; return them all (done ones of
    ``specs`` included, any other done pass left out).

    Raises:
        JudgeBackendError: a permanent failure, or a transient one that outlasted the retries.
    """
    keys = {(s.trait, s.index) for s in specs}
    done = {k: p for k, p in (done or {}).items() if k in keys}
    todo = cache_order([s for s in specs if (s.trait, s.index) not in done], profile_of(backend))
    job = _Job(backend.model, known_turns, config or RunnerConfig(), sleep, on_pass)
    if profile_of(backend).batched and isinstance(backend, BatchJudgeBackend):
        return [*done.values(), *await _run_batched(todo, backend, job)]
    if job.config.shared_passes and isinstance(backend, ChoicesJudgeBackend):
        return [*done.values(), *await _run_shared(todo, backend, job)]
    return [*done.values(), *await _run_one_by_one(todo, backend, job)]


@dataclass(frozen=True)
class _Job:
    model: str
    known_turns: set[int]
    config: RunnerConfig
    sleep: Callable[[float], Awaitable[None]]
    on_pass: OnPass | None

    def finish(self, spec: PassSpec, attempt: Attempt, choices: int = 1) -> JudgePass:
        """The pass of ``spec``; ``choices``: how many the request it came from answered."""
        reply = attempt.reply
        verdict = parse_verdict(reply.text, self.known_turns, refused=reply.refused)
        dist = None
        if verdict.score is not None and reply.token_logprobs:
            dist = grid_distribution(
                reply.text, reply.token_logprobs, zero_branch=reply.zero_branch
            )
        expected = dist.expected if dist is not None else None
        result = JudgePass(
            trait=spec.trait,
            index=spec.index,
            score=score_of_pass(verdict.score, expected, self.config.score_mode),
            sampled_score=verdict.score,
            expected_score=expected,
            score_distribution=dist.probabilities if dist is not None else None,
            score_entropy_bits=dist.entropy_bits if dist is not None else None,
            distribution_partial=dist.partial if dist is not None else False,
            structured_output=reply.structured_output,
            reply_format=reply.reply_format,
            request_choices=choices,
            rationale=verdict.rationale,
            cited_turns=verdict.cited_turns,
            parse_status=verdict.status,
            unscored_reason=verdict.reason,
            **call_record(attempt, self.model),
        )
        if self.on_pass is not None:
            self.on_pass(result)
        return result


async def _run_one_by_one(
    todo: Sequence[PassSpec], backend: JudgeBackend, job: _Job
) -> list[JudgePass]:
    """One call per pass, at most ``concurrency`` in flight, started in ``todo`` order. The
    first failure that outlasts the retries stops the run: no waiting pass is sent (a bad key
    would only fail again, and be paid for where the provider bills refused calls)."""
    limit = asyncio.Semaphore(job.config.concurrency)
    failed: list[JudgeBackendError] = []

    async def one(spec: PassSpec) -> JudgePass:
        async with limit:
            if failed:
                raise failed[0]
            try:
                attempt = await call_with_retries(backend, spec.request, job.config, job.sleep)
            except JudgeBackendError as exc:
                failed.append(exc)
                raise
        return job.finish(spec, attempt)

    return await all_or_none([asyncio.ensure_future(one(s)) for s in todo])


async def _run_shared(
    todo: Sequence[PassSpec], backend: ChoicesJudgeBackend, job: _Job
) -> list[JudgePass]:
    """The passes of one trait (one identical request) as one request with ``n`` choices.
    While the server answers several a request (fewer slots than passes: as many as it has),
    the rest is asked again the same way; once it answers one for several asked (it ignores
    ``n``), every later pass goes alone. Each pass keeps how many choices its request answered
    (``request_choices``), so the card and the era say which were shared. Traits go one after
    another for an engine that keeps one prefix, side by side for one that keeps many."""
    groups: dict[str, list[PassSpec]] = {}
    for spec in todo:
        groups.setdefault(spec.trait, []).append(spec)
    shares: list[bool] = [True]
    limit = asyncio.Semaphore(job.config.concurrency)

    async def group(specs: list[PassSpec]) -> list[JudgePass]:
        answered: list[JudgePass] = []
        async with limit:
            while len(specs) - len(answered) > 1 and shares[0]:
                rest = specs[len(answered) :]
                started = time.perf_counter()
                retrying = _retrying(job.config, job.sleep)
                async for attempt in retrying:
                    with attempt:
                        replies = await backend.complete_choices(rest[0].request, len(rest))
                latency = (time.perf_counter() - started) * 1000
                number = retrying.statistics.get("attempt_number", 1)
                shares[0] = len(replies) > 1
                answered += [
                    job.finish(spec, Attempt(reply, number, latency), len(replies))
                    for spec, reply in zip(rest, replies, strict=False)
                ]
        rest = specs[len(answered) :]
        return answered + (await _run_one_by_one(rest, backend, job) if rest else [])

    if not profile_of(backend).many_prefixes:
        return [p for specs in groups.values() for p in await group(specs)]
    tasks = [asyncio.ensure_future(group(g)) for g in groups.values()]
    return [p for answered in await all_or_none(tasks) for p in answered]


async def all_or_none(tasks: Sequence[asyncio.Future[Made]]) -> list[Made]:
    """The tasks' results in order; the first failure cancels the others and is raised."""
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


async def _run_batched(
    todo: Sequence[PassSpec], backend: BatchJudgeBackend, job: _Job
) -> list[JudgePass]:
    """Every pass in one batch; replies are kept as they arrive, and a transient failure
    retries only the passes still missing, under the same retry policy as single calls."""
    finished: dict[int, JudgePass] = {}
    retrying = _retrying(job.config, job.sleep)
    async for attempt in retrying:
        with attempt:
            number = retrying.statistics.get("attempt_number", 1)
            made = await batch_attempt(todo, backend, job.finish, finished, number, "passes")
    return made


class _Call(Protocol):
    @property
    def request(self) -> JudgeRequest: ...


CallT = TypeVar("CallT", bound=_Call)
Made = TypeVar("Made")


async def batch_attempt(
    todo: Sequence[CallT],
    backend: BatchJudgeBackend,
    finish: Callable[[CallT, Attempt], Made],
    finished: dict[int, Made],
    number: int,
    what: str,
) -> list[Made]:
    """One batch of the calls not yet in ``finished``, each reply ``finish``-ed as it arrives
    (PermanentJudgeError: the backend answered fewer than it was asked)."""
    missing = [n for n in range(len(todo)) if n not in finished]
    started = time.perf_counter()
    async with aclosing(backend.complete_batch([todo[n].request for n in missing])) as replies:
        async for item in replies:
            n = missing[item.position]
            latency = (time.perf_counter() - started) * 1000
            finished[n] = finish(todo[n], Attempt(item.reply, number, latency))
    if len(finished) < len(todo):
        raise PermanentJudgeError(
            f"the batch backend answered {len(finished)} of {len(todo)} {what}"
        )
    return [finished[n] for n in range(len(todo))]
