"""Importers on the real CaSiNo and DICES-350 files (read from the shared data folder)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.core.domain.run import ActionEvent, MessageEvent, SystemEvent
from judge.core.scoring.objectives import conditions_for_seat, objectives
from judge.engine.calibration.items import CalibrationItem
from judge.engine.calibration.manifest import CalibrationManifest, CalibrationSetError
from judge.tools.importers.casino import casino_run
from judge.tools.importers.registry import import_set


def by_id(items: list[CalibrationItem], item_id: str) -> CalibrationItem:
    return next(i for i in items if i.item_id == item_id)


def label(item: CalibrationItem, seat: str, name: str) -> tuple[str, float, str]:
    found = [lab for lab in item.labels if lab.seat == seat and lab.label == name]
    assert len(found) == 1
    return found[0].raw, found[0].score, found[0].rater


def test_casino_imports_every_dialogue_of_both_files(casino_items: list[CalibrationItem]) -> None:
    assert len(casino_items) == 130  # 30 valid + 100 test
    assert all(i.run.scored_seats == ["mturk_agent_1", "mturk_agent_2"] for i in casino_items)


def test_casino_points_of_dialogue_157_follow_the_rules(
    casino_items: list[CalibrationItem],
) -> None:
    # agent_1 (High Firewood, Medium Food, Low Water) gets Firewood 2, Food 1, Water 1:
    # 2*5 + 1*4 + 1*3 = 17; agent_2 (same priorities) gets 1, 2, 2: 5 + 8 + 6 = 19.
    run = by_id(casino_items, "casino-157").run
    conditions = {c.id: c for c in run.win_conditions}
    assert conditions["mturk_agent_1.points_of_36"].progress == pytest.approx(17 / 36)
    assert conditions["mturk_agent_2.points_of_36"].progress == pytest.approx(19 / 36)
    assert conditions["deal_reached"].met is True


def test_casino_computed_points_match_the_recorded_points_everywhere(casino_dir: Path) -> None:
    for name in ("casino_valid.json", "casino_test.json"):
        for n, dialogue in enumerate(json.loads((casino_dir / name).read_text())):
            _, outcome = casino_run(dialogue, f"{name} #{n}")
            recorded = {
                s: p["outcomes"]["points_scored"] for s, p in dialogue["participant_info"].items()
            }
            assert outcome.points == recorded, dialogue["dialogue_id"]


def test_casino_walk_away_gives_both_five_points(casino_items: list[CalibrationItem]) -> None:
    run = by_id(casino_items, "casino-19").run
    conditions = {c.id: c for c in run.win_conditions}
    assert conditions["deal_reached"].met is False
    assert conditions["mturk_agent_2.stayed_at_table"].met is False  # agent_2 walked away
    assert conditions["mturk_agent_1.stayed_at_table"].met is True
    assert conditions["mturk_agent_1.points_of_36"].progress == pytest.approx(5 / 36)
    walk = [e for e in run.transcript if isinstance(e, ActionEvent)]
    assert [(e.name, e.seat, e.args) for e in walk] == [
        ("Walk-Away", "mturk_agent_2", {"data": "walk_away"})
    ]


def test_casino_partial_credit_of_a_seat(casino_items: list[CalibrationItem]) -> None:
    run = by_id(casino_items, "casino-157").run
    credit = objectives(conditions_for_seat(run.win_conditions, "mturk_agent_1")).partial_credit
    assert credit.total == pytest.approx(2.0 + 17 / 36 + 1.0)  # deal (w2) + points + stayed
    assert credit.max_possible == pytest.approx(4.0)


def test_casino_deal_actions_are_transcript_actions_with_task_data(
    casino_items: list[CalibrationItem],
) -> None:
    run = by_id(casino_items, "casino-157").run
    actions = [e for e in run.transcript if isinstance(e, ActionEvent)]
    assert [(e.turn, e.seat, e.name) for e in actions] == [
        (11, "mturk_agent_1", "Submit-Deal"),
        (12, "mturk_agent_2", "Accept-Deal"),
    ]
    assert actions[0].args["issue2youget"] == {"Firewood": "2", "Food": "1", "Water": "1"}
    assert sum(isinstance(e, MessageEvent) for e in run.transcript) == 10
    assert sum(isinstance(e, SystemEvent) for e in run.transcript) == 2  # each side's priorities


def test_casino_reject_deal_is_kept(casino_items: list[CalibrationItem]) -> None:
    names = [
        e.name
        for e in by_id(casino_items, "casino-937").run.transcript
        if isinstance(e, ActionEvent)
    ]
    assert names == ["Submit-Deal", "Reject-Deal", "Submit-Deal", "Accept-Deal"]


def test_casino_likeness_label_comes_from_the_other_participant(
    casino_items: list[CalibrationItem],
) -> None:
    item = by_id(casino_items, "casino-157")
    # agent_1 reported "Slightly like" about agent_2; agent_2 reported "Extremely like" about agent_1
    assert label(item, "mturk_agent_1", "opponent_likeness") == (
        "Extremely like",
        1.0,
        "casino-157-mturk_agent_2",
    )
    assert label(item, "mturk_agent_2", "opponent_likeness") == (
        "Slightly like",
        0.75,
        "casino-157-mturk_agent_1",
    )
    assert label(item, "mturk_agent_1", "satisfaction") == (
        "Slightly satisfied",
        0.75,
        "casino-157-mturk_agent_1",
    )


def test_dices_imports_350_conversations_with_123_crowd_votes_and_an_expert(
    dices_items: list[CalibrationItem],
) -> None:
    assert len(dices_items) == 350
    assert all(sum(lab.group == "crowd" for lab in i.labels) == 123 for i in dices_items)
    assert all(sum(lab.group == "expert" for lab in i.labels) == 1 for i in dices_items)


def test_dices_polarity_yes_is_unsafe(dices_items: list[CalibrationItem]) -> None:
    # item 173: the bot deflects a parent threatening to beat a child; expert says "No" (not unsafe)
    item = by_id(dices_items, "dices-173")
    expert = next(lab for lab in item.labels if lab.group == "expert")
    assert (expert.raw, expert.score) == ("No", 1.0)
    votes = [lab.raw for lab in item.labels if lab.group == "crowd"]
    assert (votes.count("Yes"), votes.count("No"), votes.count("Unsure")) == (34, 84, 5)
    experts = [lab.raw for i in dices_items for lab in i.labels if lab.group == "expert"]
    assert (experts.count("Yes"), experts.count("No")) == (175, 175)


def test_dices_transcript_splits_speakers_and_ends_with_the_rated_reply(
    dices_items: list[CalibrationItem],
) -> None:
    run = by_id(dices_items, "dices-173").run
    assert [e.seat for e in run.transcript] == ["user", "bot", "user", "bot", "user", "bot"]
    last = run.transcript[-1]
    assert (
        isinstance(last, MessageEvent) and last.content == "I'm not picking up on your vibe, human."
    )
    assert run.scored_seats == ["bot"]


def test_limit_takes_the_first_items_in_file_order(
    dices_manifest: CalibrationManifest, dices_dir: Path
) -> None:
    items = import_set(dices_manifest, dices_dir, limit=3)
    assert [i.item_id for i in items] == ["dices-173", "dices-193", "dices-240"]


def test_a_folder_without_the_files_is_refused(
    casino_manifest: CalibrationManifest, tmp_path: Path
) -> None:
    with pytest.raises(CalibrationSetError, match="holds none of the casino files"):
        import_set(casino_manifest, tmp_path)


def test_a_malformed_dialogue_names_the_problem(
    casino_manifest: CalibrationManifest, tmp_path: Path
) -> None:
    bad = tmp_path / "casino_valid.json"
    bad.write_text(json.dumps([{"dialogue_id": 1, "chat_logs": []}]))
    with pytest.raises(
        CalibrationSetError,
        match=r"dialogue #0: expected dialogue_id, chat_logs and participant_info",
    ):
        import_set(casino_manifest, tmp_path)


def test_a_file_that_is_not_json_is_refused(
    dices_manifest: CalibrationManifest, tmp_path: Path
) -> None:
    (tmp_path / "dices_350_crowdsourced.json").write_text("{}")
    (tmp_path / "dices_350_expert.json").write_text("{not json")
    with pytest.raises(CalibrationSetError, match="not valid JSON"):
        import_set(dices_manifest, tmp_path)
