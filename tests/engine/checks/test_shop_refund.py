"""The worked scenario proves itself fair (seed 000's validation): the checks fail when
nothing is done, the reference run passes, each wrong run fails, a replay gives the same."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from judge.core.domain.checks import StateOutcome
from judge.core.domain.scenario import Scenario
from judge.core.errors import InputErrors, RunFormatError
from judge.core.scoring.matched import matched_comparison
from judge.engine.checks import evaluate_run
from judge.engine.checks.runfiles import replay_path, run_files
from judge.engine.checks.worlds import Replay, build_world, load_replay
from tests.engine.checks.conftest import SHOP_RUNS, shop_run


def test_checks_fail_when_nothing_is_done(shop: Scenario, tmp_path: Path) -> None:
    assert shop.world is not None
    world = build_world(shop.world, Replay(steps=[]), tmp_path, "untouched")
    run = shop_run("hasty/idle").model_copy(update={"world": world})
    outcome = evaluate_run(run, shop, base_dir=tmp_path)
    assert outcome.outcome == "not_achieved"
    assert outcome.passed is False
    assert outcome.failed_required == [
        "lamp_refunded",
        "provider_asked_to_refund",
        "refund_settled",
    ]


def test_reference_run_passes_every_check(shop_outcomes: dict[str, StateOutcome]) -> None:
    outcome = shop_outcomes["careful/pass"]
    assert (outcome.outcome, outcome.reward, outcome.verdict) == ("verified", 1, "pass")
    assert outcome.passed is True
    assert outcome.check_reward == 1.0
    assert [c.status for c in outcome.checks] == ["passed"] * 8
    assert outcome.checks[0].detail == "answered 2500, expected 2500"


@pytest.mark.parametrize(
    ("name", "outcome", "reward", "verdict", "failed_required", "check_reward"),
    [
        ("hasty/wrong_order", "rule_violated", -1, "fail", ["other_orders_untouched"], 7 / 8),
        ("hasty/duplicate_payment", "rule_violated", -1, "fail",
         ["lamp_refunded", "refunds_within_captured"], 6 / 8),
        ("hasty/false_completion", "not_achieved", 0, "fail",
         ["lamp_refunded", "provider_asked_to_refund", "refund_settled"], 4 / 8),
        ("hasty/first_request", "not_achieved", 0, "fail", ["lamp_refunded"], 6 / 8),
        ("hasty/idle", "not_achieved", 0, "fail",
         ["lamp_refunded", "provider_asked_to_refund", "refund_settled"], 3 / 8),
    ],
)  # fmt: skip
def test_each_wrong_run_fails(
    shop_outcomes: dict[str, StateOutcome],
    name: str,
    outcome: str,
    reward: int,
    verdict: str,
    failed_required: list[str],
    check_reward: float,
) -> None:
    result = shop_outcomes[name]
    assert (result.outcome, result.reward, result.verdict) == (outcome, reward, verdict)
    assert result.passed is False
    assert result.failed_required == failed_required
    assert result.check_reward == pytest.approx(check_reward)


def test_a_replay_gives_the_same_result_and_the_same_bytes(shop: Scenario, tmp_path: Path) -> None:
    assert shop.world is not None
    run = shop_run("hasty/duplicate_payment")
    replay = load_replay(replay_path(SHOP_RUNS / "hasty" / "duplicate_payment.json"))
    outcomes, digests = [], []
    for attempt in ("first", "second"):
        folder = tmp_path / attempt
        build_world(shop.world, replay, folder, "duplicate_payment")
        outcomes.append(evaluate_run(run, shop, base_dir=folder))
        digests.append({p.name: _sha256(p) for p in sorted(folder.iterdir())})
    assert outcomes[0] == outcomes[1]
    assert digests[0] == digests[1]
    assert sorted(digests[0]) == [
        "duplicate_payment.end.db",
        "duplicate_payment.horizon.db",
        "duplicate_payment.turn3.db",
        "duplicate_payment.turn4.db",
    ]


def test_every_run_names_the_world_its_replay_builds(shop: Scenario, tmp_path: Path) -> None:
    assert shop.world is not None
    for path in sorted(SHOP_RUNS.glob("*/*.json")):
        if replay_path(path).is_file():
            built = build_world(shop.world, load_replay(replay_path(path)), tmp_path, path.stem)
            assert shop_run(f"{path.parent.name}/{path.stem}").world == built, path.name


def test_the_partial_run_holds_required_checks_and_misses_the_email(
    shop_outcomes: dict[str, StateOutcome],
) -> None:
    outcome = shop_outcomes["careful/no_email"]
    assert (outcome.outcome, outcome.verdict, outcome.passed) == ("verified", "partial", True)
    assert outcome.failed_optional == ["customer_emailed_once"]
    assert outcome.check_reward == pytest.approx(7 / 8)


def test_the_environment_failure_is_not_scored(shop_outcomes: dict[str, StateOutcome]) -> None:
    outcome = shop_outcomes["careful/env_failure"]
    assert (outcome.outcome, outcome.reward, outcome.verdict) == ("not_scored", None, "unscoreable")
    assert outcome.not_scored_reason == (
        "environment failed: sandbox: the payment emulator failed to start"
    )
    assert outcome.checks == []


def test_the_duplicate_payment_breaks_the_invariant_from_turn_4(
    shop_outcomes: dict[str, StateOutcome],
) -> None:
    invariant = next(
        c
        for c in shop_outcomes["hasty/duplicate_payment"].checks
        if c.label == "refunds_within_captured"
    )
    assert invariant.failed_at == ["turn 4", "end_state"]
    assert invariant.detail == "broken at turn 4, end_state: answered 1, expected 0"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_worked_scenarios_careful_agent_against_the_hasty_one(
    shop_outcomes: dict[str, StateOutcome],
) -> None:
    careful = [o for name, o in shop_outcomes.items() if name.startswith("careful/")]
    hasty = [o for name, o in shop_outcomes.items() if name.startswith("hasty/")]
    comparison = matched_comparison(careful, hasty, label_a="careful-agent", label_b="hasty-agent")
    assert [(p.seed, p.outcome_a, p.outcome_b, p.difference) for p in comparison.pairs] == [
        (1, "verified", "rule_violated", 2.0),
        (2, "verified", "rule_violated", 2.0),
        (3, "verified", "not_achieved", 1.0),
        (4, "not_scored", "not_achieved", None),
    ]
    assert [(u.side, u.run_id) for u in comparison.unpaired] == [("b", "shop-refund-hasty-s5")]
    test = comparison.test
    assert (test.n_pairs, test.a_better, test.p_value, test.better) == (3, 3, 0.25, None)


def test_one_bad_run_file_is_refused_as_itself(shop: Scenario, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(RunFormatError) as refused, run_files([bad], [shop], build_worlds=False):
        pass
    assert not isinstance(refused.value, InputErrors)
    assert "bad.json" in str(refused.value)


def test_every_bad_run_file_is_named_at_once(shop: Scenario, tmp_path: Path) -> None:
    paths = [tmp_path / "first.json", tmp_path / "second.json"]
    for path in paths:
        path.write_text("{}")
    with pytest.raises(InputErrors) as refused, run_files(paths, [shop], build_worlds=False):
        pass
    named = [str(p) for p in refused.value.problems]
    assert len(named) == 2 and "first.json" in named[0] and "second.json" in named[1]
