import json
from pathlib import Path
from typing import Any

import pytest

from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.tools.cli import main
from tests.helpers import EXAMPLES, verdict


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> ScriptedBackend:
    def by_trait(request: JudgeRequest) -> str:
        return verdict(0.9 if request.label == "negotiation" else 0.5, [2])

    backend = ScriptedBackend(by_trait, model="scripted")
    monkeypatch.setattr("judge.tools.cli.score.backend_for", lambda model: backend)
    return backend


def test_json_output_is_the_full_owner_scorecard(scripted: ScriptedBackend, capsys: Any) -> None:
    code = main(
        ["score", str(EXAMPLES / "haggle.json"), "--json", "--no-progress", "--judge", "scripted"]
    )
    assert code == 0
    card = json.loads(capsys.readouterr().out)
    buyer = card["seats"]["buyer"]
    assert buyer["traits"]["negotiation"]["pass_scores"] == [0.9] * 5
    assert buyer["traits"]["negotiation"]["rubric"]["anchor_1"]
    assert set(buyer["safety_block"]) == {
        "no_unauthorized_disclosure_conduct",
        "manipulation_resistance",
        "harmful_compliance_refusal",
        "policy_adherence_under_pressure",
    }
    assert buyer["composite"] == pytest.approx((0.9 + 0.5 * 7) / 8)
    assert buyer["objectives"]["partial_credit"] == {
        "per_condition": {"deal_closed": 2.0, "price_under_60": 0.4},
        "total": 2.4,
        "max_possible": 3.0,
    }
    assert card["measurement_era"]["era_id"].startswith("era-")
    assert card["prompt_version"] == 7 and card["judge_model"] == "scripted"
    assert len(scripted.history) == 60


def test_passes_below_the_floor_are_raised(scripted: ScriptedBackend, capsys: Any) -> None:
    main(["score", str(EXAMPLES / "haggle.json"), "--json", "--no-progress", "--passes", "2"])
    card = json.loads(capsys.readouterr().out)
    assert card["seats"]["buyer"]["traits"]["integrity"]["n_passes"] == 5


def test_readable_output_marks_the_gated_seat(scripted: ScriptedBackend, capsys: Any) -> None:
    assert main(["score", str(EXAMPLES / "gated_seat.json"), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "participation_gated True" in out
    assert "GATED: 2 messages < min_player_messages 5" in out


def test_several_files_give_one_json_line_each(scripted: ScriptedBackend, capsys: Any) -> None:
    files = [str(EXAMPLES / n) for n in ("haggle.json", "two_seats_partial_credit.json")]
    main(["score", *files, "--json", "--no-progress"])
    lines = capsys.readouterr().out.splitlines()
    cards = [json.loads(line) for line in lines]
    assert [c["run_id"] for c in cards] == ["haggle-0007", "camp-split-0011"]
    assert set(cards[1]["seats"]) == {"north", "south"}


def test_bad_file_exits_2_naming_the_field_before_any_judging(
    scripted: ScriptedBackend, tmp_path: Path, capsys: Any
) -> None:
    bad = tmp_path / "bad.json"
    data = json.loads((EXAMPLES / "haggle.json").read_text())
    data["transcript"][3]["kind"] = "yell"
    bad.write_text(json.dumps(data))
    code = main(["score", str(EXAMPLES / "haggle.json"), str(bad), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "transcript.3" in err and err.startswith("judge: error:")
    assert scripted.history == []


def test_missing_file_exits_2(capsys: Any) -> None:
    assert main(["score", "/nonexistent/run.json"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_unreachable_judge_exits_3_with_a_clear_message(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-key")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_BASE", "http://127.0.0.1:9/v1")
    code = main(
        [
            "score",
            str(EXAMPLES / "haggle.json"),
            "--judge",
            "openai/gpt-4o-mini",
            "--attempts",
            "1",
            "--no-progress",
        ]
    )
    assert code == 3
    assert "the judge model could not be used" in capsys.readouterr().err


def test_score_with_a_scenario_carries_the_state_outcome(
    scripted: ScriptedBackend, capsys: Any
) -> None:
    shop = EXAMPLES.parent / "scenarios" / "shop_refund"
    run_file = shop / "runs" / "hasty" / "duplicate_payment.json"
    code = main(
        [
            "score",
            str(run_file),
            "--scenario",
            str(shop / "scenario.yaml"),
            "--build-worlds",
            "--json",
            "--no-progress",
        ]
    )
    assert code == 0
    card = json.loads(capsys.readouterr().out)
    state = card["state_outcome"]
    assert state["outcome"] == "rule_violated" and state["reward"] == -1
    assert state["summary"]["duplicate_effects"] == 1
    assert card["seats"]  # the judged traits are still there beside it


def test_one_file_is_one_json_line_too(scripted: ScriptedBackend, capsys: Any) -> None:
    main(["score", str(EXAMPLES / "haggle.json"), "--json", "--no-progress"])
    [line] = capsys.readouterr().out.splitlines()
    assert json.loads(line)["run_id"] == "haggle-0007"


def test_every_bad_file_is_reported_not_only_the_first(
    scripted: ScriptedBackend, tmp_path: Path, capsys: Any
) -> None:
    data = json.loads((EXAMPLES / "haggle.json").read_text())
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    first.write_text(
        json.dumps({**data, "transcript": [{**data["transcript"][0], "kind": "yell"}]})
    )
    second.write_text(json.dumps({**data, "seed": "forty-two"}))
    code = main(["score", str(first), str(EXAMPLES / "haggle.json"), str(second), "--no-progress"])
    err = capsys.readouterr().err.splitlines()
    assert code == 2 and len(err) == 2
    assert err[0].startswith(f"judge: error: {first}: ") and "transcript.0" in err[0]
    assert err[1].startswith(f"judge: error: {second}: ") and "seed" in err[1]
    assert scripted.history == []


def test_traits_judges_only_those_and_withholds_the_composite_with_its_reason(
    scripted: ScriptedBackend, capsys: Any
) -> None:
    code = main(
        [
            "score",
            str(EXAMPLES / "haggle.json"),
            "--json",
            "--no-progress",
            "--traits",
            "negotiation,integrity,manipulation_resistance",
        ]
    )
    assert code == 0
    buyer = json.loads(capsys.readouterr().out)["seats"]["buyer"]
    assert set(buyer["traits"]) == {"negotiation", "integrity"}
    assert set(buyer["safety_block"]) == {"manipulation_resistance"}
    assert buyer["composite"] is None
    assert buyer["composite_note"] == (
        "withheld: capability traits not judged: calibration, cooperation, emotional_regulation, "
        "goal_persistence, leadership, tactical_reasoning"
    )
    assert len(scripted.history) == 3 * 5


def test_traits_with_every_capability_trait_keeps_the_composite(
    scripted: ScriptedBackend, capsys: Any
) -> None:
    capability = (
        "negotiation,integrity,calibration,cooperation,leadership,emotional_regulation,"
        "goal_persistence,tactical_reasoning"
    )
    assert (
        main(
            [
                "score",
                str(EXAMPLES / "haggle.json"),
                "--json",
                "--no-progress",
                "--traits",
                capability,
            ]
        )
        == 0
    )
    buyer = json.loads(capsys.readouterr().out)["seats"]["buyer"]
    assert buyer["composite"] == pytest.approx((0.9 + 0.5 * 7) / 8) and buyer["safety_block"] == {}


def test_a_gate_on_a_withheld_composite_fails_with_the_reason(
    scripted: ScriptedBackend, capsys: Any
) -> None:
    code = main(
        [
            "score",
            str(EXAMPLES / "haggle.json"),
            "--no-progress",
            "--traits",
            "integrity",
            "--fail-under",
            "composite=0.1",
        ]
    )
    err = capsys.readouterr().err
    assert code == 1 and "run haggle-0007 seat buyer: composite" in err and "not measured" in err


@pytest.mark.parametrize(
    ("traits", "message"),
    [
        ("integrity,honesty", "--traits: unknown traits: ['honesty']; known: ["),
        (",", "--traits: name at least one trait"),
    ],
)
def test_unknown_or_empty_traits_are_bad_input_before_judging(
    scripted: ScriptedBackend, capsys: Any, traits: str, message: str
) -> None:
    assert main(["score", str(EXAMPLES / "haggle.json"), "--no-progress", "--traits", traits]) == 2
    assert capsys.readouterr().err.startswith(f"judge: error: {message}")
    assert scripted.history == []


def test_a_gate_on_a_trait_left_out_is_bad_input(scripted: ScriptedBackend, capsys: Any) -> None:
    code = main(
        [
            "score",
            str(EXAMPLES / "haggle.json"),
            "--no-progress",
            "--traits",
            "negotiation",
            "--fail-under",
            "integrity=0.5",
        ]
    )
    assert code == 2 and "unknown figure 'integrity'" in capsys.readouterr().err
    assert scripted.history == []


def test_one_judge_score_parses_the_judge_id_once(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    from judge.engine.judging import registry

    parses: list[str] = []
    original = registry.member_ids

    def counted(model: str) -> list[str]:
        parses.append(model)
        return original(model)

    monkeypatch.setenv("JUDGE_DEV_MODE", "1")
    monkeypatch.setattr(registry, "member_ids", counted)
    judge = "scripted/0.6,scripted/0.4"
    code = main(
        ["score", str(EXAMPLES / "haggle.json"), "--json", "--no-progress", "--judge", judge]
    )
    assert code == 0
    card = json.loads(capsys.readouterr().out)
    assert card["judge_model"] == judge
    assert parses == [judge]
