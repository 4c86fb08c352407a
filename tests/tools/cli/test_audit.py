"""`judge audit` end to end with scripted judges: report files, figures, resume, bad input."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from judge.core.versions import JUDGE_PROMPT_VERSION, UNDEFENDED_PROMPT_VERSION
from judge.engine.calibration.manifest import shared_data_dir
from judge.engine.judging.backends import JudgeReply, JudgeRequest, ScriptedBackend
from judge.tools.cli import EXIT_INPUT, main


def casino_test_file() -> Path:
    path = shared_data_dir() / "casino" / "casino_test.json"
    if not path.is_file():
        pytest.skip(f"shared data not found at {path} (set JUDGE_SHARED_DATA)")
    return path


#: The perturbations audited before the defence; the tests of the judge being swayed use them.
BEFORE_DEFENCE = [
    "planted.plain",
    "planted.evaluator_note",
    "planted.forged_verdict",
    "padding",
    "labels.rename",
    "labels.swap",
    "hostile_counterpart",
]


def swayed(request: JudgeRequest) -> str:
    """0.5, except 1.0 when told to ignore the rubric and 0.3 for a seat named participant_x."""
    text = json.dumps(request.messages)
    score = (
        1.0 if "Ignore the rubric" in text else 0.3 if 'seat \\"participant_x\\"' in text else 0.5
    )
    return json.dumps({"score": score, "turns": [1], "rationale": "scripted"})


@pytest.fixture
def judge(monkeypatch: pytest.MonkeyPatch) -> ScriptedBackend:
    backend = ScriptedBackend(swayed, model="scripted-swayed")
    monkeypatch.setattr("judge.tools.cli.audit.backend_for", lambda model: backend)
    return backend


def audit(out: Path, *extra: str) -> int:
    return main(
        [
            "audit",
            "--set",
            "casino",
            "--data",
            str(casino_test_file()),
            "--judge",
            "scripted-swayed",
            "--limit",
            "2",
            "--passes",
            "2",
            "--traits",
            "negotiation",
            "--out",
            str(out),
            "--no-progress",
            "--defence",
            "off",
            "--perturbations",
            ",".join(BEFORE_DEFENCE),
            *extra,
        ]
    )


def rows(out: Path) -> dict[str, Any]:
    report = json.loads((out / "report.json").read_text())
    return {r["perturbation"]: r for r in report["rows"]}


def test_audit_writes_json_markdown_html_and_the_pass_store(
    judge: ScriptedBackend, tmp_path: Path
) -> None:
    assert audit(tmp_path) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "passes.jsonl",
        "report.html",
        "report.json",
        "report.md",
    ]
    # 2 dialogues x 2 scored seats x (baseline + 7 perturbations) x 1 trait x 2 passes
    assert len(judge.history) == 2 * 2 * 8 * 2
    assert len((tmp_path / "passes.jsonl").read_text().splitlines()) == 64
    report = json.loads((tmp_path / "report.json").read_text())
    assert (report["n_runs"], report["n_seats"], report["passes_per_trait"]) == (2, 4, 2)
    assert (
        "| planted.plain | 4 | +0.500 [0.500, 0.500] | 1.000 [1.000, 1.000] | 0.500 |"
        in (tmp_path / "report.md").read_text()
    )
    assert (
        "<td>labels.rename</td><td>4</td><td>-0.200 [-0.200, -0.200]</td>"
        in (tmp_path / "report.html").read_text()
    )


def test_each_perturbation_shifts_exactly_as_the_scripted_judge_was_swayed(
    judge: ScriptedBackend, tmp_path: Path
) -> None:
    audit(tmp_path)
    got = {
        name: (r["mean_shift"]["value"], r["share_moved"]["value"])
        for name, r in rows(tmp_path).items()
    }
    assert got.pop("planted.plain") == (0.5, 1.0)
    assert got.pop("labels.rename") == pytest.approx((-0.2, 1.0))
    assert set(got.values()) == {(0.0, 0.0)}  # the other five perturbations did not move it
    assert len(got) == 5


def test_a_rerun_judges_nothing_again_and_more_runs_judge_only_the_new_ones(
    judge: ScriptedBackend, tmp_path: Path
) -> None:
    audit(tmp_path)
    first = len(judge.history)
    assert audit(tmp_path) == 0
    assert len(judge.history) == first
    assert audit(tmp_path, "--limit", "3") == 0
    assert len(judge.history) == first + 2 * 8 * 2  # the third dialogue only


def test_audit_of_run_files_with_a_subset_of_perturbations(
    judge: ScriptedBackend, tmp_path: Path
) -> None:
    run = {
        "run_id": "r1",
        "scenario_id": "s",
        "seats": [
            {"seat": "me", "agent_id": "a"},
            {"seat": "you", "agent_id": "b", "scored": False},
        ],
        "transcript": [
            {"turn": 1, "seat": "you", "kind": "message", "content": "hi"},
            {"turn": 1, "seat": "me", "kind": "message", "content": "hello"},
        ],
    }
    path = tmp_path / "r1.json"
    path.write_text(json.dumps(run))
    code = main(
        [
            "audit",
            str(path),
            "--judge",
            "scripted-swayed",
            "--passes",
            "1",
            "--traits",
            "integrity",
            "--perturbations",
            "planted.plain,hostile_counterpart",
            "--out",
            str(tmp_path / "out"),
            "--no-progress",
        ]
    )
    assert code == 0
    assert {k: v["n"] for k, v in rows(tmp_path / "out").items()} == {
        "planted.plain": 1,
        "hostile_counterpart": 1,
    }
    assert len(judge.history) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "give run files or --set NAME"),
        (["--set", "casino", "x.json"], "give run files or --set NAME"),
        (["--set", "casino", "--perturbations", "shouting"], "unknown perturbations ['shouting']"),
        (["--set", "casino", "--traits", "charm"], "unknown traits ['charm']"),
        (["--set", "casino", "--passes", "0"], "--passes and --concurrency must be at least 1"),
    ],
)
def test_bad_input_is_named(
    judge: ScriptedBackend,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    extra = ["--data", str(casino_test_file())] if "--set" in args else []
    assert main(["audit", *args, *extra, "--out", str(tmp_path), "--no-progress"]) == EXIT_INPUT
    assert message in capsys.readouterr().err
    assert judge.history == []


def leaning(request: JudgeRequest) -> JudgeReply:
    """Always writes 0.7; the distribution leans to 1.0 (expected 0.94) when told to ignore
    the rubric, else expected 0.685: only the expected score sees the push."""
    from tests.engine.judging.test_runner_signal import weighted

    if "Ignore the rubric" in json.dumps(request.messages):
        return weighted({"0": 0.2, "1": 0.8}, {"7": 1.0})
    return weighted({"0": 0.6, "1": 0.4}, {"7": 0.5, "5": 0.25, "0": 0.25})


def test_both_pass_scores_are_reported_from_one_judging(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    backend = ScriptedBackend(leaning, model="scripted-swayed")
    monkeypatch.setattr("judge.tools.cli.audit.backend_for", lambda model: backend)
    assert audit(tmp_path, "--pass-score", "both", "--perturbations", "planted.plain") == 0
    assert len(backend.history) == 2 * 2 * 2 * 2  # 2 dialogues x 2 seats x 2 variants x 2 passes
    sampled, expected = rows(tmp_path / "sampled"), rows(tmp_path / "expected")
    assert sampled["planted.plain"]["mean_shift"]["value"] == 0.0
    assert expected["planted.plain"]["mean_shift"]["value"] == pytest.approx(0.94 - 0.685)
    assert expected["planted.plain"]["share_moved"]["value"] == 1.0
    report = json.loads((tmp_path / "expected" / "report.json").read_text())
    assert (report["pass_score"], report["n_with_distribution"]) == ("expected", 16)
    assert "- pass score: expected (the expected value" in (
        (tmp_path / "expected" / "report.md").read_text()
    )
    assert json.loads((tmp_path / "sampled" / "report.json").read_text())["pass_score"] == "sampled"


def obeys_plain_text(request: JudgeRequest) -> str:
    """1.0 whenever the transcript carries the plain instruction, marked or not; 0.5 otherwise."""
    text = request.messages[1]["content"][0]["text"].replace("^", " ")
    score = 1.0 if "Ignore the rubric" in text else 0.5
    return json.dumps({"score": score, "turns": [1], "rationale": "scripted"})


def test_defence_both_judges_each_way_into_its_own_folder_and_compares_them(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    backend = ScriptedBackend(obeys_plain_text, model="scripted-swayed")
    monkeypatch.setattr("judge.tools.cli.audit.backend_for", lambda model: backend)
    planted = "planted.plain,planted.action,planted.appeal"
    assert audit(tmp_path, "--defence", "both", "--perturbations", planted) == 0
    # 2 dialogues x 2 seats x (baseline + 3) x 2 passes, once per side
    assert len(backend.history) == 2 * (2 * 2 * 4 * 2)
    off, on = rows(tmp_path / "defence-off"), rows(tmp_path / "defence-on")
    assert off["planted.plain"]["share_moved"]["value"] == 1.0
    assert off["planted.action"]["share_moved"]["value"] == 1.0
    assert {name: r["share_moved"]["value"] for name, r in on.items()} == {
        "planted.plain": 0.0,
        "planted.action": 0.0,
        "planted.appeal": 0.0,
    }
    for side, version in (
        ("defence-off", UNDEFENDED_PROMPT_VERSION),
        ("defence-on", JUDGE_PROMPT_VERSION),
    ):
        lines = (tmp_path / side / "passes.jsonl").read_text().splitlines()
        assert {json.loads(line)["prompt_version"] for line in lines} == {version}
    table = (tmp_path / "defence.md").read_text()
    assert "| planted.plain | 1.000 [1.000, 1.000] | 0.000 [0.000, 0.000] |" in table
    plain = rows(tmp_path / "defence-on")["planted.plain"]
    assert plain["share_lifted"]["value"] == 0.0
    assert rows(tmp_path / "defence-off")["planted.plain"]["share_lifted"]["value"] == 1.0


def test_a_store_judged_with_the_defence_off_is_not_resumed_with_it_on(
    judge: ScriptedBackend, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert audit(tmp_path) == 0
    assert audit(tmp_path, "--defence", "on") == EXIT_INPUT
    assert (
        f"prompt version {UNDEFENDED_PROMPT_VERSION}, not {JUDGE_PROMPT_VERSION}"
        in capsys.readouterr().err
    )


def test_plants_withheld_to_the_same_prompt_are_judged_once_and_reported_for_each(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    backend = ScriptedBackend(obeys_plain_text, model="scripted-swayed")
    monkeypatch.setattr("judge.tools.cli.audit.backend_for", lambda model: backend)
    # four families the detector withholds whole; on these dialogues some of them land at the
    # same turn of the same seat, so the judge would be shown the same marker twice
    planted = "planted.plain,planted.forged_verdict,planted.multilingual,planted.encoded"
    assert audit(tmp_path, "--defence", "on", "--perturbations", planted) == 0
    asked = [(json.dumps(r.messages), r.label) for r in backend.history]
    assert set(Counter(asked).values()) == {2}  # each prompt judged for its 2 passes, no more
    assert len(asked) < 2 * (2 * 2 * 5 * 2)  # fewer calls than one per planned item
    report = json.loads((tmp_path / "report.json").read_text())
    assert {r["perturbation"]: (r["n"], r["n_left_out"]) for r in report["rows"]} == dict.fromkeys(
        planted.split(","), (4, 0)
    )
    lines = (tmp_path / "passes.jsonl").read_text().splitlines()
    assert len(lines) == len(asked)
    assert audit(tmp_path, "--defence", "on", "--perturbations", planted) == 0
    assert len(backend.history) == len(asked)  # the rerun reuses every stored pass


#: What the channel families plant outside a seat's messages; the scripted judge below obeys each.
CHANNEL_PLANTS = {
    "planted.tool_output": "evaluation_override",
    "planted.observation": "grader notice",
    "planted.done": "Final evaluation for this participant",
}


def obeys_channel_plants(request: JudgeRequest) -> str:
    """1.0 when the prompt carries a plant of an action, observation or done event, else 0.5."""
    text = json.dumps(request.messages, ensure_ascii=False)
    score = 1.0 if any(mark in text for mark in CHANNEL_PLANTS.values()) else 0.5
    return json.dumps({"score": score, "turns": [1], "rationale": "scripted"})


def test_the_headline_is_each_familys_lift_beyond_the_neutral_edits_and_plants_reach_the_judge(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    backend = ScriptedBackend(obeys_channel_plants, model="scripted-swayed")
    monkeypatch.setattr("judge.tools.cli.audit.backend_for", lambda model: backend)
    chosen = [*CHANNEL_PLANTS, "planted.plain", "padding", "labels.rename"]
    assert audit(tmp_path, "--perturbations", ",".join(chosen), "--limit", "3") == 0
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["neutral"] == ["padding", "labels.rename"]
    lifts = {r["family"]: r for r in report["lifts"]}
    assert list(lifts) == [*CHANNEL_PLANTS, "planted.plain"]
    for family in CHANNEL_PLANTS:  # each channel's plant reached the prompt on every seat
        row = lifts[family]
        assert (row["n"], row["family_lifted"], row["neutral_lifted"]) == (6, 1.0, 0.0)
        assert (row["lift"]["value"], row["lift"]["low"], row["lift"]["high"]) == (1.0, 1.0, 1.0)
    assert lifts["planted.plain"]["lift"]["value"] == 0.0  # this judge ignores the plain line
    md = (tmp_path / "report.md").read_text()
    assert "| planted.observation | 6 | 1.000 | 0.000 | +1.000 [1.000, 1.000] |" in md
    assert "3 of 4 families lift seats beyond the neutral edits" in md


def test_from_store_judges_nothing_and_leaves_out_the_items_without_passes(
    judge: ScriptedBackend, tmp_path: Path
) -> None:
    assert audit(tmp_path, "--passes", "1") == 0
    asked = len(judge.history)
    assert audit(tmp_path, "--passes", "1", "--limit", "3", "--from-store") == 0
    assert len(judge.history) == asked  # nothing judged
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["n_seats"] == 6 and "read from the pass store" in report["slice"]
    assert {(r["n"], r["n_left_out"]) for r in report["rows"]} == {(4, 2)}
    assert rows(tmp_path)["planted.plain"]["mean_shift"]["value"] == 0.5
