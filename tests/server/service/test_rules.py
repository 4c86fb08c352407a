"""Online evaluation rules: the sampling decision is a pure function of the trace id, the
rule's rate and its seed, and the filters compare plain values."""

from __future__ import annotations

import secrets

from judge.core.domain.run import parse_run
from judge.engine.traces.otlp import Span
from judge.server.service.rules import RuleFilters, matches, sampled
from tests.conftest import example

TRACES = [secrets.token_hex(16) for _ in range(4000)]


def picked(rate: float, seed: str) -> set[str]:
    return {t for t in TRACES if sampled(t, rate=rate, seed=seed)}


def test_the_same_trace_always_gets_the_same_answer() -> None:
    first = picked(0.3, "s1")
    assert all(picked(0.3, "s1") == first for _ in range(3))
    assert all(sampled(t.upper(), rate=0.3, seed="s1") for t in first)  # hex case does not count


def test_two_rules_with_the_same_rate_and_seed_pick_the_same_traces() -> None:
    assert picked(0.25, "shared") == picked(0.25, "shared")
    assert picked(0.25, "shared") != picked(0.25, "other")


def test_the_rate_is_the_share_picked_and_a_higher_rate_keeps_every_trace_picked() -> None:
    low, high = picked(0.1, "s"), picked(0.5, "s")

    assert 0.08 < len(low) / len(TRACES) < 0.12
    assert 0.46 < len(high) / len(TRACES) < 0.54
    assert low <= high
    assert picked(0.0, "s") == set() and picked(1.0, "s") == set(TRACES)


def _span(**attributes: object) -> Span:
    return Span(
        "a" * 32, "b" * 16, None, "x", 1, 2, dict(attributes), [], 0, "", {"service.name": "shop"}
    )


def test_filters_hold_only_when_every_one_given_holds() -> None:
    run = parse_run(example("haggle"))
    agents = {s.agent_id for s in run.seats if s.scored}
    spans = [_span(tier="gold", retries=2)]

    assert matches(RuleFilters(), spans, run)
    assert matches(RuleFilters(service_names=["shop"], agents=sorted(agents)), spans, run)
    assert matches(RuleFilters(span_attributes={"tier": "gold", "retries": 2}), spans, run)
    assert not matches(RuleFilters(service_names=["billing"]), spans, run)
    assert not matches(RuleFilters(scenarios=["elsewhere"]), spans, run)
    assert not matches(RuleFilters(agents=["nobody"]), spans, run)
    assert not matches(RuleFilters(span_attributes={"retries": "2"}), spans, run)  # types differ
    assert not matches(RuleFilters(span_attributes={"tier": "gold", "missing": 1}), spans, run)
