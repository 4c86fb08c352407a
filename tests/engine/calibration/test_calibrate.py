"""`judge calibrate`, `judge import` and `judge agreement` end to end with a scripted judge."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from judge.engine.calibration.disagreements import compare
from judge.engine.calibration.items import ScoreRow, read_jsonl
from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.engine.judging.providers.embedded import EMBEDDED_MODEL
from judge.tools.cli import EXIT_INPUT, main


def safe_unless_told(request: JudgeRequest) -> str:
    """Scores 1.0 unless the transcript mentions a belt; the rationale names the reason."""
    text = json.dumps(request.messages)
    score = 0.0 if "belt" in text else 1.0
    return json.dumps(
        {"score": score, "turns": [1], "rationale": "mentions a belt" if score == 0 else "harmless"}
    )


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> ScriptedBackend:
    backend = ScriptedBackend(safe_unless_told, model="scripted-judge")
    monkeypatch.setattr("judge.tools.cli.calibration.backend_for", lambda model: backend)
    return backend


def calibrate(out: Path, *extra: str) -> int:
    args = [
        "calibrate",
        "dices",
        "--judge",
        "scripted-judge",
        "--limit",
        "4",
        "--passes",
        "2",
        "--traits",
        "harmful_compliance_refusal",
        "--out",
        str(out),
        "--no-progress",
        *extra,
    ]
    return main(args)


def test_calibrate_writes_json_markdown_html_and_score_files(
    scripted: ScriptedBackend, tmp_path: Path, dices_dir: Path
) -> None:
    assert calibrate(tmp_path / "out") == 0
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert names == [
        "human_scores.jsonl",
        "judge_scores.jsonl",
        "passes.jsonl",
        "report.html",
        "report.json",
        "report.md",
    ]
    assert len(scripted.history) == 4 * 2  # 4 items x 1 trait x 2 passes
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    trait = report["traits"][0]
    assert (trait["trait"], trait["n_items"], trait["passes"]["items_identical"]) == (
        "harmful_compliance_refusal",
        4,
        4,
    )
    assert trait["ceiling"]["n_raters"] == 123 and trait["ceiling"]["measurable"] is True
    assert "<svg" in (tmp_path / "out" / "report.html").read_text()


def test_calibrate_resumes_without_judging_stored_passes(
    scripted: ScriptedBackend, tmp_path: Path, dices_dir: Path
) -> None:
    calibrate(tmp_path / "out")
    first = len(scripted.history)
    assert calibrate(tmp_path / "out") == 0
    assert len(scripted.history) == first  # nothing judged twice
    assert calibrate(tmp_path / "out", "--passes", "3") == 0
    assert len(scripted.history) == first + 4  # only each item's third pass


def test_calibrate_refuses_to_mix_judges_in_one_store(
    scripted: ScriptedBackend, tmp_path: Path, dices_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    calibrate(tmp_path / "out")
    code = main(
        [
            "calibrate",
            "dices",
            "--judge",
            "other/model",
            "--limit",
            "4",
            "--traits",
            "harmful_compliance_refusal",
            "--out",
            str(tmp_path / "out"),
            "--no-progress",
        ]
    )
    assert code == EXIT_INPUT
    assert "holds passes by 'scripted-judge', not 'other/model'" in capsys.readouterr().err


def test_the_report_says_plainly_when_the_judge_is_the_tiny_embedded_model(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, dices_dir: Path
) -> None:
    backend = ScriptedBackend(safe_unless_told, model=EMBEDDED_MODEL)
    monkeypatch.setattr("judge.tools.cli.calibration.backend_for", lambda model: backend)
    main(
        [
            "calibrate",
            "dices",
            "--limit",
            "2",
            "--passes",
            "1",
            "--traits",
            "harmful_compliance_refusal",
            "--out",
            str(tmp_path),
            "--no-progress",
        ]
    )
    markdown = (tmp_path / "report.md").read_text()
    assert "tiny embedded SmolLM2-135M model" in markdown
    assert json.loads((tmp_path / "report.json").read_text())["judge_note"].startswith(
        "Judged by the embedded"
    )


def test_disagreement_queue_holds_both_verdicts(
    scripted: ScriptedBackend, tmp_path: Path, dices_dir: Path
) -> None:
    calibrate(tmp_path / "out", "--threshold", "0.5")
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    first = next(d for d in report["disagreements"] if d["item_id"] == "dices-173")
    # the judge saw the belt and said unsafe (0.0); 84 of 123 crowd raters (and the expert) said safe
    assert first["judge_score"] == 0.0 and first["judge_verdict"] == "mentions a belt (turns [1])"
    assert first["human_score"] == pytest.approx((84 + 0.5 * 5) / 123)
    assert first["human_verdict"] == "crowd: No 84, Yes 34, Unsure 5; expert: No"


def test_unknown_trait_for_a_set_is_refused(
    scripted: ScriptedBackend, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(
            [
                "calibrate",
                "casino",
                "--traits",
                "leadership",
                "--out",
                str(tmp_path),
                "--no-progress",
            ]
        )
        == EXIT_INPUT
    )
    assert "casino has no human label for ['leadership']" in capsys.readouterr().err


def test_import_writes_runs_and_a_labels_file(tmp_path: Path, casino_dir: Path) -> None:
    assert (
        main(["import", "casino", str(casino_dir / "casino_valid.json"), "--out", str(tmp_path)])
        == 0
    )
    runs = sorted((tmp_path / "runs").glob("*.json"))
    assert len(runs) == 30
    lines = (tmp_path / "labels.jsonl").read_text().splitlines()
    assert len(lines) == 30 and json.loads(lines[0])["run_id"] == "casino-157"


def test_imported_run_files_are_valid_runs(tmp_path: Path, dices_dir: Path) -> None:
    from judge.core.domain.run import parse_run_json

    main(["import", "dices", str(dices_dir), "--out", str(tmp_path)])
    run = parse_run_json((tmp_path / "runs" / "dices-173.json").read_text())
    assert run.scored_seats == ["bot"]


def test_import_of_a_missing_path_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["import", "casino", str(tmp_path / "nowhere.json")]) == EXIT_INPUT
    assert "nowhere.json: no such file or folder" in capsys.readouterr().err


def row(item: str, score: float | None, rater: str, verdict: str = "") -> dict[str, Any]:
    return {
        "item_id": item,
        "seat": "bot",
        "trait": "t",
        "rater": rater,
        "score": score,
        "verdict": verdict,
    }


def write_rows(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_agreement_lists_each_pair_beyond_the_threshold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = write_rows(
        tmp_path / "a.jsonl",
        [row("1", 0.0, "A", "refused"), row("2", 0.5, "A"), row("3", 1.0, "A"), row("4", 0.2, "A")],
    )
    b = write_rows(
        tmp_path / "b.jsonl", [row("1", 1.0, "B", "safe"), row("2", 0.6, "B"), row("3", 0.7, "B")]
    )
    assert main(["agreement", str(a), str(b), "--threshold", "0.3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [(d["item_id"], d["difference"]) for d in result["disagreements"]] == [
        ("1", -1.0),
        ("3", pytest.approx(0.3)),
    ]
    assert (
        result["disagreements"][0]["judge_verdict"] == "refused"
        and result["disagreements"][0]["human_verdict"] == "safe"
    )
    assert (result["only_in_a"], result["only_in_b"]) == (1, 0)
    assert result["traits"][0]["n_paired"] == 3


def test_agreement_text_output_shows_both_verdicts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = write_rows(tmp_path / "a.jsonl", [row("1", 0.0, "A", "refused"), row("2", 1.0, "A")])
    b = write_rows(tmp_path / "b.jsonl", [row("1", 1.0, "B", "safe"), row("2", 1.0, "B")])
    main(["agreement", str(a), str(b)])
    out = capsys.readouterr().out
    assert "- 1 bot t: A 0.000 vs B 1.000\n    A: refused\n    B: safe" in out


def test_agreement_refuses_a_file_that_is_not_a_score_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"item_id": "1"}\n')
    assert main(["agreement", str(bad), str(bad)]) == EXIT_INPUT
    assert "bad.jsonl:1: not a ScoreRow" in capsys.readouterr().err


def test_duplicate_rows_in_a_score_file_are_refused() -> None:
    rows = [ScoreRow(item_id="1", seat="s", trait="t", rater="A", score=0.5)] * 2
    with pytest.raises(Exception, match="more than one score for item 1"):
        compare(rows, rows)


def test_score_files_round_trip(tmp_path: Path) -> None:
    path = write_rows(tmp_path / "a.jsonl", [row("1", None, "A", "unscored: unparseable")])
    assert read_jsonl(path, ScoreRow)[0].score is None
