"""`judge calibrate --from-store` and `judge export labels` refuse unclear requests, naming
the problem, before they read or write anything."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from judge.tools.cli import main


def test_calibrate_needs_a_set_or_the_store(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate"]) == 2
    assert "name a calibration set" in capsys.readouterr().err


def test_calibrate_from_the_store_takes_no_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "dices", "--from-store"]) == 2
    assert "--from-store reads the store: name no set with it" in capsys.readouterr().err


def test_exporting_labels_needs_an_output_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "labels", "--database-url", f"sqlite:///{tmp_path / 'x.db'}"]) == 2
    assert "give --out DIR" in capsys.readouterr().err
    assert not (tmp_path / "x.db").exists()


def test_calibrating_an_untouched_trait_from_the_store_names_the_labelled_ones(
    tmp_path: Path, sqlite_template: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(sqlite_template, tmp_path / "judge.db")
    url = f"sqlite:///{tmp_path / 'judge.db'}"

    code = main(["calibrate", "--from-store", "--database-url", url, "--traits", "charm"])

    assert (
        code == 2
        and "no owner has labelled ['charm']; labelled traits: []" in capsys.readouterr().err
    )
