"""The CPU bound of one run's integrity scan (docs/integrity.md, "Where the scan runs"): past
its budget the scan stops between pieces with ScanBudgetExceeded, and the run is held as
unscannable with no judge call, never judged unscreened."""

from __future__ import annotations

import random
import string
import time
from itertools import count

import pytest

from judge.core.domain.config import DenoiseConfig, MeasurementSettings
from judge.core.domain.run import MessageEvent, Run
from judge.core.errors import ScanBudgetExceeded
from judge.core.integrity import bounded, judged_transcript, tamper_findings, unscannable
from judge.core.scoring.run_summary import tamper_flagged
from judge.engine.judging.backends import ScriptedBackend
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions, pairwise_side, score_run, screened
from tests.conftest import VERDICT
from tests.helpers import example

SETTINGS = MeasurementSettings(denoise=DenoiseConfig(n_runs=5))
RUBRICS = default_rubric_set().select(["negotiation", "integrity"])
CUES = ("judge", "score", "rubric", "ignore", "evaluator", "grader", "rate", "instructions")


def big_run(messages: int = 40, chars: int = 25_000) -> Run:
    """The example run with the buyer's messages replaced by random words around cue words
    (every rule reads all of it): about 1 MiB."""
    rng = random.Random(7)
    words = [
        rng.choice(CUES)
        if rng.random() < 0.3
        else "".join(rng.choices(string.ascii_lowercase, k=6))
        for _ in range(chars // 7)
    ]
    run = example("haggle.json")
    buyer = [
        MessageEvent(
            kind="message",
            turn=n + 1,
            seat="buyer",
            content=" ".join(rng.sample(words, len(words))),
        )
        for n in range(messages)
    ]
    return run.model_copy(update={"transcript": [*run.transcript, *buyer]})


def test_a_tiny_budget_stops_the_scan_of_a_big_run() -> None:
    run = big_run()
    started = time.thread_time()
    with (
        pytest.raises(ScanBudgetExceeded, match="JUDGE_SCAN_CPU_S"),
        bounded(0.01, time.thread_time),
    ):
        tamper_findings(run, SETTINGS)
    assert time.thread_time() - started < 1.0  # it stopped early, not after the whole scan


def test_the_bound_is_checked_between_pieces_on_the_given_clock() -> None:
    ticks = count()
    with pytest.raises(ScanBudgetExceeded), bounded(5, clock=lambda: float(next(ticks))):
        tamper_findings(big_run(messages=2, chars=2_000), SETTINGS)
    assert 5 < next(ticks) < 20  # stopped at the first checkpoint past the budget


def test_past_the_budget_every_seat_is_unscannable_and_nothing_is_withheld_or_read() -> None:
    run = big_run()
    tamper = screened(run, SETTINGS, cpu_s=0.01)
    assert unscannable(tamper)
    assert set(run.scored_seats) <= set(tamper)
    assert all(t.flagged and t.unscannable and not t.findings for t in tamper.values())
    with pytest.raises(ScanBudgetExceeded):  # the judge's transcript is never made
        judged_transcript(run, tamper)


def test_within_the_budget_the_scan_is_the_unbounded_one() -> None:
    run = example("haggle.json")
    assert screened(run, SETTINGS, cpu_s=10.0) == tamper_findings(run, SETTINGS)
    assert not unscannable(screened(run, SETTINGS, cpu_s=None))


def test_an_unscannable_run_is_held_and_the_judge_is_never_called() -> None:
    judge = ScriptedBackend(VERDICT, model="scripted-test-judge")
    options = ScoringOptions(judge_model="scripted-test-judge", settings=SETTINGS)
    card = score_run(big_run(), options=options, rubrics=RUBRICS, backend=judge, scan_cpu_s=0.01)
    assert judge.history == []  # no judge call
    assert tamper_flagged(card)  # held for an owner's review
    for seat in card.seats.values():
        assert seat.tamper is not None and seat.tamper.unscannable
        assert all(t.n_passes == 0 and t.mean is None for t in seat.traits.values())
    assert card.seats["buyer"].objectives is not None  # the mechanical part stays


def test_the_same_run_within_its_budget_is_judged() -> None:
    judge = ScriptedBackend(VERDICT, model="scripted-test-judge")
    options = ScoringOptions(judge_model="scripted-test-judge", settings=SETTINGS)
    run = example("haggle.json")
    card = score_run(run, options=options, rubrics=RUBRICS, backend=judge, scan_cpu_s=10.0)
    assert judge.history and not tamper_flagged(card)


def test_a_pairwise_side_of_an_unscannable_run_is_refused() -> None:
    with pytest.raises(ScanBudgetExceeded):
        pairwise_side(big_run(), "buyer", SETTINGS, scan_cpu_s=0.01)
