"""The Prometheus counter of flagged seats, by kind of finding."""

from prometheus_client import generate_latest

from judge.engine.telemetry.prometheus import REGISTRY, observe_card
from tests.factories import scorecard, seat
from tests.tamper_cards import finding, seat_tamper, span, with_tamper


def value(kind: str) -> float:
    return REGISTRY.get_sample_value("judge_tamper_flagged_seats_total", {"kind": kind}) or 0.0


def test_each_flagged_seat_counts_once_per_kind_it_shows() -> None:
    card = scorecard("r1", seat("buyer"), seat("seller", "agent-beta"), seat("third", "agent-c"))
    twice = seat_tamper(finding("bribe"), finding("bribe", where=span(3, 2, 0, 4)))
    card = with_tamper(card, "buyer", twice)
    card = with_tamper(card, "seller", seat_tamper(finding("bribe"), finding("threat")))
    before = {k: value(k) for k in ("bribe", "threat", "appeal")}

    observe_card(card)

    assert value("bribe") == before["bribe"] + 2
    assert value("threat") == before["threat"] + 1
    assert value("appeal") == before["appeal"]
    assert b'judge_tamper_flagged_seats_total{kind="bribe"}' in generate_latest(REGISTRY)
