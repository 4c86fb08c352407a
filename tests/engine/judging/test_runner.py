import asyncio
from collections.abc import AsyncGenerator, Sequence
from typing import Any

import pytest

from judge.core.domain.config import DenoiseConfig, MeasurementSettings
from judge.core.domain.judging import JudgePass
from judge.core.errors import PermanentJudgeError, TransientJudgeError
from judge.engine.judging.backends import (
    IndexedReply,
    JudgeReply,
    JudgeRequest,
    ScriptedBackend,
    ServingProfile,
)
from judge.engine.judging.runner import RunnerConfig, cache_order, pass_specs, run_passes
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions, score_run_async
from tests.helpers import example, verdict

FAST = RunnerConfig(backoff_initial_s=0.0, max_attempts=3)


def _specs(passes: int = 5, traits: int = 2) -> list[Any]:
    rubrics = list(default_rubric_set().rubrics.values())[:traits]
    return pass_specs(example("haggle.json").transcript, "buyer", rubrics, passes, FAST)


def _run(specs: list[Any], backend: ScriptedBackend, **kw: Any) -> list[JudgePass]:
    return asyncio.run(
        run_passes(specs, backend, known_turns={1, 2, 3, 4, 5}, config=kw.pop("config", FAST), **kw)
    )


def test_each_pass_is_a_separate_call_with_the_identical_prompt() -> None:
    backend = ScriptedBackend(verdict(0.7))
    passes = _run(_specs(passes=5, traits=1), backend)
    assert len(backend.history) == 5
    assert len({r.model_dump_json() for r in backend.history}) == 1
    assert [p.index for p in passes] == [0, 1, 2, 3, 4]


def test_transient_failures_retry_and_record_attempts() -> None:
    backend = ScriptedBackend(verdict(0.6)).enqueue(
        TransientJudgeError("429"), TransientJudgeError("503")
    )
    passes = _run(_specs(passes=1, traits=1), backend)
    assert passes[0].score == 0.6 and passes[0].attempts == 3
    assert len(backend.history) == 3


def test_retry_after_is_honoured() -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    backend = ScriptedBackend(verdict(0.6)).enqueue(TransientJudgeError("429", retry_after=7.0))
    _run(
        _specs(passes=1, traits=1), backend, config=RunnerConfig(backoff_initial_s=1.0), sleep=sleep
    )
    assert waits == [7.0]


def test_backoff_grows_exponentially_without_retry_after() -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    backend = ScriptedBackend(verdict(0.6)).enqueue(*[TransientJudgeError("timeout")] * 3)
    config = RunnerConfig(backoff_initial_s=0.5, max_attempts=5)
    _run(_specs(passes=1, traits=1), backend, config=config, sleep=sleep)
    assert waits == [0.5, 1.0, 2.0]


def test_permanent_failure_is_not_retried_and_stops_scoring() -> None:
    backend = ScriptedBackend(verdict(0.6)).enqueue(PermanentJudgeError("401 invalid api key"))
    with pytest.raises(PermanentJudgeError, match="invalid api key"):
        _run(_specs(passes=1, traits=1), backend)
    assert len(backend.history) == 1


def test_a_permanent_failure_stops_the_run_without_sending_the_passes_still_waiting() -> None:
    backend = ScriptedBackend(PermanentJudgeError("401 invalid api key"))
    config = RunnerConfig(concurrency=4, backoff_initial_s=0.0)
    with pytest.raises(PermanentJudgeError, match="invalid api key"):
        _run(_specs(passes=5, traits=12), backend, config=config)
    assert len(backend.history) == 4  # the four calls already in flight, not all 60 passes


def test_transient_failure_that_outlasts_retries_stops_scoring() -> None:
    backend = ScriptedBackend(TransientJudgeError("connection refused"))
    with pytest.raises(TransientJudgeError):
        _run(_specs(passes=1, traits=1), backend)
    assert len(backend.history) == 3


def test_unparseable_and_refused_replies_are_unscored_with_reasons() -> None:
    backend = ScriptedBackend(verdict(0.5)).enqueue("no idea", JudgeReply(text="", refused=True))
    passes = _run(_specs(passes=3, traits=1), backend)
    statuses = sorted(p.parse_status for p in passes)
    assert statuses == ["ok", "refused", "unparseable"]
    assert all(p.unscored_reason for p in passes if p.score is None)


def test_concurrency_limit_is_respected() -> None:
    backend = ScriptedBackend(verdict(0.5), delay=0.01)
    _run(
        _specs(passes=5, traits=4), backend, config=RunnerConfig(concurrency=3, backoff_initial_s=0)
    )
    assert backend.max_in_flight == 3


def test_done_passes_are_not_judged_again_and_new_ones_are_reported() -> None:
    specs = _specs(passes=2, traits=1)
    first = _run(specs[:1], ScriptedBackend(verdict(0.9)))
    seen: list[JudgePass] = []
    backend = ScriptedBackend(verdict(0.1))
    passes = _run(specs, backend, done={(first[0].trait, 0): first[0]}, on_pass=seen.append)
    assert len(backend.history) == 1
    assert sorted(p.score for p in passes) == [0.1, 0.9]  # type: ignore[type-var]
    assert [p.index for p in seen] == [1]


def test_scripted_judge_scores_a_whole_run_end_to_end() -> None:
    def by_trait(request: JudgeRequest) -> str:
        return verdict(0.8 if request.label == "integrity" else 0.6, [3])

    options = ScoringOptions(
        judge_model="scripted", settings=MeasurementSettings(denoise=DenoiseConfig(n_runs=2))
    )
    card = asyncio.run(
        score_run_async(example("haggle.json"), options=options, backend=ScriptedBackend(by_trait))
    )
    buyer = card.seats["buyer"]
    assert buyer.traits["integrity"].pass_scores == [0.8] * 5
    assert buyer.traits["integrity"].variance == 0.0 and buyer.traits["integrity"].n_identical == 5
    assert buyer.composite == pytest.approx((0.8 + 0.6 * 7) / 8)
    assert set(buyer.safety_block or {}) == {
        "no_unauthorized_disclosure_conduct",
        "manipulation_resistance",
        "harmful_compliance_refusal",
        "policy_adherence_under_pressure",
    }
    assert "integrity" not in (buyer.safety_block or {})
    assert buyer.objectives.partial_credit.total == pytest.approx(2.4)
    assert card.ranked_eligible and card.leaderboard_class == "ranked"
    assert (
        buyer.traits["integrity"]
        .rubric["definition"]
        .startswith("Whether the seat's own statements")
    )


def test_a_single_prefix_engine_gets_every_pass_of_one_trait_back_to_back() -> None:
    backend = ScriptedBackend(verdict(0.5))
    _run(
        _specs(passes=3, traits=3), backend, config=RunnerConfig(concurrency=1, backoff_initial_s=0)
    )
    labels = [r.label for r in backend.history]
    traits = list(dict.fromkeys(labels))
    assert len(traits) == 3 and labels == [t for t in traits for _ in range(3)]


def test_an_engine_that_keeps_many_prefixes_gets_passes_round_robin() -> None:
    backend = ScriptedBackend(verdict(0.5), profile=ServingProfile(many_prefixes=True))
    _run(
        _specs(passes=3, traits=3), backend, config=RunnerConfig(concurrency=1, backoff_initial_s=0)
    )
    labels = [r.label for r in backend.history]
    traits = list(dict.fromkeys(labels))
    assert len(traits) == 3 and labels == traits * 3


def test_cache_order_resumes_trait_major_from_what_is_left() -> None:
    specs = _specs(passes=3, traits=2)
    left = [
        s for s in specs if (s.trait, s.index) not in {(specs[0].trait, 0), (specs[3].trait, 1)}
    ]
    round_robin = sorted(left, key=lambda s: s.index)  # (B, 0), (A, 1), (A, 2), (B, 2)
    ordered = cache_order(round_robin, ServingProfile())
    assert [(s.trait, s.index) for s in ordered] == [
        (specs[3].trait, 0),
        (specs[3].trait, 2),
        (specs[0].trait, 1),
        (specs[0].trait, 2),
    ]


class ScriptedBatchBackend(ScriptedBackend):
    """A batching fake: replies to a whole batch from the queue, recording each batch."""

    def __init__(self, default: str, *, fail_after: int | None = None) -> None:
        super().__init__(default, profile=ServingProfile(batched=True))
        self.batches: list[list[JudgeRequest]] = []
        self.fail_after = fail_after

    async def complete_batch(
        self, requests: Sequence[JudgeRequest]
    ) -> AsyncGenerator[IndexedReply, None]:
        self.batches.append(list(requests))
        for n, request in enumerate(requests):
            if self.fail_after is not None and n == self.fail_after:
                self.fail_after = None
                raise TransientJudgeError("engine restarted")
            yield IndexedReply(n, JudgeReply(text=self._next(request).text))


def test_a_batching_backend_gets_every_pass_in_one_batch_and_reports_each_pass() -> None:
    backend = ScriptedBatchBackend(verdict(0.4))
    seen: list[JudgePass] = []
    passes = _run(_specs(passes=5, traits=3), backend, on_pass=seen.append)
    assert [len(b) for b in backend.batches] == [15] and backend.history == []
    assert (
        len(passes) == 15
        and len(seen) == 15
        and all(p.score == 0.4 and p.attempts == 1 for p in passes)
    )


def test_a_transient_batch_failure_retries_only_the_missing_passes() -> None:
    backend = ScriptedBatchBackend(verdict(0.4), fail_after=4)
    passes = _run(_specs(passes=5, traits=2), backend)
    assert [len(b) for b in backend.batches] == [10, 6]
    assert sorted(p.attempts for p in passes) == [1] * 4 + [2] * 6
    assert len({(p.trait, p.index) for p in passes}) == 10


def test_a_pass_and_a_pairwise_pass_keep_the_same_record_of_their_call() -> None:
    from judge.core.domain.judging import JudgeCall
    from judge.core.domain.pairwise import PairwisePass
    from judge.engine.judging.runner import Attempt, Usage, call_record

    reply = JudgeReply(
        text="{}", prompt_tokens=900, cached_prompt_tokens=850, completion_tokens=40, cost_usd=0.002
    )
    record = call_record(Attempt(reply, 2, 812.5), "openai/qwen")

    assert record == {
        "raw_output": "{}",
        "model": "openai/qwen",
        "prompt_tokens": 900,
        "cached_prompt_tokens": 850,
        "completion_tokens": 40,
        "cost_usd": 0.002,
        "latency_ms": 812.5,
        "attempts": 2,
    }
    assert set(record) | {"parse_status", "unscored_reason"} == set(JudgeCall.model_fields)
    for stored in (JudgeReply, JudgePass, PairwisePass):
        assert Usage.__required_keys__ <= set(stored.model_fields)
