import json
from pathlib import Path
from typing import Any

import pytest

from judge.cli import main
from judge.judging.backends import JudgeRequest, ScriptedBackend
from tests.helpers import EXAMPLES, verdict


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> ScriptedBackend:
    def by_trait(request: JudgeRequest) -> str:
        return verdict(0.9 if request.label == "negotiation" else 0.5, [2])

    backend = ScriptedBackend(by_trait, model="scripted")
    monkeypatch.setattr("judge.cli.score.backend_for", lambda model: backend)
    return backend


def test_json_output_is_the_full_owner_scorecard(scripted: ScriptedBackend, capsys: Any) -> None:
    code = main(["score", str(EXAMPLES / "haggle.json"), "--json", "--no-progress", "--judge", "scripted"])
    assert code == 0
    card = json.loads(capsys.readouterr().out)
    buyer = card["seats"]["buyer"]
    assert buyer["traits"]["negotiation"]["pass_scores"] == [0.9] * 5
    assert buyer["traits"]["negotiation"]["rubric"]["anchor_1"]
    assert set(buyer["safety_block"]) == {
        "no_unauthorized_disclosure_conduct", "manipulation_resistance",
        "harmful_compliance_refusal", "policy_adherence_under_pressure",
    }
    assert buyer["composite"] == pytest.approx((0.9 + 0.5 * 7) / 8)
    assert buyer["objectives"]["partial_credit"] == {
        "per_condition": {"deal_closed": 2.0, "price_under_60": 0.4}, "total": 2.4, "max_possible": 3.0,
    }
    assert card["measurement_era"]["era_id"].startswith("era-")
    assert card["prompt_version"] == 4 and card["judge_model"] == "scripted"
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
    code = main(["score", str(EXAMPLES / "haggle.json"), "--judge", "openai/gpt-4o-mini",
                 "--attempts", "1", "--no-progress"])
    assert code == 3
    assert "the judge model could not be used" in capsys.readouterr().err


def test_score_with_a_scenario_carries_the_state_outcome(scripted: ScriptedBackend, capsys: Any) -> None:
    shop = EXAMPLES.parent / "scenarios" / "shop_refund"
    run_file = shop / "runs" / "hasty" / "duplicate_payment.json"
    code = main(["score", str(run_file), "--scenario", str(shop / "scenario.yaml"),
                 "--build-worlds", "--json", "--no-progress"])
    assert code == 0
    card = json.loads(capsys.readouterr().out)
    state = card["state_outcome"]
    assert state["outcome"] == "rule_violated" and state["reward"] == -1
    assert state["summary"]["duplicate_effects"] == 1
    assert card["seats"]  # the judged traits are still there beside it
