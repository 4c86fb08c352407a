"""The one table of importers, walked as docs/architecture.md "Add an importer" says: an
importer registered in the test is reachable as ``judge import NAME`` with nothing else
changed, for runs and for a calibration set alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from judge.core.domain.run import parse_run
from judge.engine.calibration.items import CalibrationItem, HumanLabel
from judge.engine.calibration.manifest import (
    CalibrationManifest,
    CalibrationSetError,
    manifests_dir,
)
from judge.tools.cli import main
from judge.tools.importers.common import ImportedRun, ImportNotes
from judge.tools.importers.entries import FoundRuns, RunImporter, SetImporter
from judge.tools.importers.registry import IMPORTERS, import_set, run_importer, set_importer
from tests.helpers import EXAMPLES

HAGGLE = json.loads((EXAMPLES / "haggle.json").read_text(encoding="utf-8"))


def read_lines(path: Path, scenario_id: str | None) -> FoundRuns:
    """A run importer as a user would write one: one run-format JSON object per line."""
    runs, left_out = [], []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            left_out.append(f"{path} line {n}: not JSON")
            continue
        if scenario_id:
            data["scenario_id"] = scenario_id
        runs.append(ImportedRun(parse_run(data), ImportNotes(source=str(path))))
    return FoundRuns(runs, left_out)


def read_pairs(manifest: CalibrationManifest, path: Path) -> list[CalibrationItem]:
    """A set importer: each line a run and one 0..1 rating of its buyer."""
    items = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        run = parse_run(record["run"])
        label = HumanLabel(
            seat="buyer", label="fair", group="raters", rater="r1", raw=record["rating"],
            score=float(record["rating"]),
        )  # fmt: skip
        items.append(CalibrationItem(item_id=run.run_id, run=run, labels=[label]))
    return items


@pytest.fixture
def lines_importer(monkeypatch: pytest.MonkeyPatch) -> RunImporter:
    entry = RunImporter(name="lines", summary="one run per line", read=read_lines)
    monkeypatch.setitem(IMPORTERS, entry.name, entry)
    return entry


def test_the_table_holds_the_shipped_importers_by_kind() -> None:
    kinds = {name: type(entry).__name__ for name, entry in IMPORTERS.items()}
    assert kinds == {
        "inspect": "RunImporter",
        "otel": "RunImporter",
        "casino": "SetImporter",
        "dices": "SetImporter",
        "labels": "SetImporter",
    }


def test_a_registered_run_importer_is_reached_by_judge_import(
    lines_importer: RunImporter, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "runs.jsonl"
    source.write_text(json.dumps(HAGGLE) + "\nnot json\n", encoding="utf-8")
    out = tmp_path / "out"

    code = main(["import", "lines", str(source), "--out", str(out), "--scenario-id", "s-1"])

    assert code == 0
    written = json.loads((out / f"{HAGGLE['run_id']}.json").read_text(encoding="utf-8"))
    assert written["scenario_id"] == "s-1"
    assert f"{source} line 2: not JSON (left out)" in capsys.readouterr().err


def test_judge_import_help_lists_the_run_importers_of_the_table(
    lines_importer: RunImporter, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["import", "--help"])
    assert "lines (one run per line)" in " ".join(capsys.readouterr().out.split())


def test_a_registered_set_importer_reads_the_set_whose_manifest_names_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(IMPORTERS, "pairs", SetImporter("pairs", "rated runs", read_pairs))
    manifest = yaml.safe_load((manifests_dir() / "casino.yaml").read_text(encoding="utf-8"))
    manifest_path = tmp_path / "pairs.yaml"
    manifest_path.write_text(yaml.safe_dump({**manifest, "name": "pairs", "importer": "pairs"}))
    data = tmp_path / "pairs.jsonl"
    data.write_text(json.dumps({"run": HAGGLE, "rating": "0.75"}) + "\n", encoding="utf-8")
    out = tmp_path / "items"

    assert main(["import", str(manifest_path), str(data), "--out", str(out)]) == 0

    labels = [json.loads(line) for line in (out / "labels.jsonl").read_text().splitlines()]
    assert [(r["run_id"], r["labels"][0]["score"]) for r in labels] == [(HAGGLE["run_id"], 0.75)]
    assert "imported 1 pairs items" in capsys.readouterr().out


def test_a_set_names_only_a_set_importer() -> None:
    assert run_importer("casino") is None
    with pytest.raises(CalibrationSetError, match=r"'otel' is not a set importer .*'casino'"):
        set_importer("otel")


def test_a_manifest_naming_an_unknown_importer_is_refused_with_the_known_ones(
    tmp_path: Path,
) -> None:
    manifest = CalibrationManifest.model_validate(
        {**yaml.safe_load((manifests_dir() / "dices.yaml").read_text()), "importer": "nope"}
    )
    with pytest.raises(CalibrationSetError, match=r"'nope' is not a set importer"):
        import_set(manifest, tmp_path)


def test_the_architecture_page_names_the_files_this_walk_touches() -> None:
    repo = Path(__file__).resolve().parents[3]
    page = (repo / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = page.split("## Add an importer", 1)[1].split("\n## ", 1)[0]
    for path in (
        "tools/importers/registry.py",
        "tools/importers/common.py",
        "tools/importers/<name>.py",
    ):
        assert f"`{path}`" in section
    assert (repo / "judge" / "tools" / "importers" / "registry.py").is_file()
    assert (repo / "judge" / "tools" / "importers" / "common.py").is_file()
    assert "`tests/tools/importers/test_registry.py`" in section
