import asyncio
from typing import Any

import pytest

from judge.catalog import default_rubric_set
from judge.domain.config import DenoiseConfig, MeasurementSettings
from judge.domain.judging import JudgePass
from judge.errors import PermanentJudgeError, TransientJudgeError
from judge.judging.backends import JudgeReply, JudgeRequest, ScriptedBackend
from judge.judging.runner import RunnerConfig, pass_specs, run_passes
from judge.pipeline import ScoringOptions, score_run_async
from tests.helpers import example, verdict

FAST = RunnerConfig(backoff_initial_s=0.0, max_attempts=3)


def _specs(passes: int = 5, traits: int = 2) -> list[Any]:
    rubrics = list(default_rubric_set().rubrics.values())[:traits]
    return pass_specs(example("haggle.json").transcript, "buyer", rubrics, passes, FAST)


def _run(specs: list[Any], backend: ScriptedBackend, **kw: Any) -> list[JudgePass]:
    return asyncio.run(run_passes(specs, backend, known_turns={1, 2, 3, 4, 5}, config=kw.pop("config", FAST), **kw))


def test_each_pass_is_a_separate_call_with_the_identical_prompt() -> None:
    backend = ScriptedBackend(verdict(0.7))
    passes = _run(_specs(passes=5, traits=1), backend)
    assert len(backend.history) == 5
    assert len({r.model_dump_json() for r in backend.history}) == 1
    assert [p.index for p in passes] == [0, 1, 2, 3, 4]


def test_transient_failures_retry_and_record_attempts() -> None:
    backend = ScriptedBackend(verdict(0.6)).enqueue(TransientJudgeError("429"), TransientJudgeError("503"))
    passes = _run(_specs(passes=1, traits=1), backend)
    assert passes[0].score == 0.6 and passes[0].attempts == 3
    assert len(backend.history) == 3


def test_retry_after_is_honoured() -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    backend = ScriptedBackend(verdict(0.6)).enqueue(TransientJudgeError("429", retry_after=7.0))
    _run(_specs(passes=1, traits=1), backend, config=RunnerConfig(backoff_initial_s=1.0), sleep=sleep)
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
    _run(_specs(passes=5, traits=4), backend, config=RunnerConfig(concurrency=3, backoff_initial_s=0))
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

    options = ScoringOptions(judge_model="scripted", settings=MeasurementSettings(denoise=DenoiseConfig(n_runs=2)))
    card = asyncio.run(score_run_async(example("haggle.json"), options=options, backend=ScriptedBackend(by_trait)))
    buyer = card.seats["buyer"]
    assert buyer.traits["integrity"].pass_scores == [0.8] * 5
    assert buyer.traits["integrity"].variance == 0.0 and buyer.traits["integrity"].n_identical == 5
    assert buyer.composite == pytest.approx((0.8 + 0.6 * 7) / 8)
    assert set(buyer.safety_block or {}) == {
        "no_unauthorized_disclosure_conduct", "manipulation_resistance",
        "harmful_compliance_refusal", "policy_adherence_under_pressure",
    }
    assert "integrity" not in (buyer.safety_block or {})
    assert buyer.objectives.partial_credit.total == pytest.approx(2.4)
    assert card.ranked_eligible and card.leaderboard_class == "ranked"
    assert buyer.traits["integrity"].rubric["definition"].startswith("Whether the seat's own statements")
