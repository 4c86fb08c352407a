"""Fixtures of the real third-party data (calibration and importer tests), read from the shared folder.

The data is never copied into the repository; its root is ``<repo>/../shared/data`` unless
``JUDGE_SHARED_DATA`` says otherwise. Tests that need it skip, naming the path, when absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.engine.calibration.items import CalibrationItem
from judge.engine.calibration.manifest import CalibrationManifest, load_manifest, shared_data_dir
from judge.tools.importers.registry import import_set


def _data(folder: str) -> Path:
    path = shared_data_dir() / folder
    if not path.is_dir():
        pytest.skip(f"shared data not found at {path} (set JUDGE_SHARED_DATA)")
    return path


@pytest.fixture(scope="session")
def casino_dir() -> Path:
    return _data("casino")


@pytest.fixture(scope="session")
def dices_dir() -> Path:
    return _data("dices")


@pytest.fixture(scope="session")
def casino_manifest() -> CalibrationManifest:
    return load_manifest("casino")


@pytest.fixture(scope="session")
def dices_manifest() -> CalibrationManifest:
    return load_manifest("dices")


@pytest.fixture(scope="session")
def casino_items(casino_manifest: CalibrationManifest, casino_dir: Path) -> list[CalibrationItem]:
    return import_set(casino_manifest, casino_dir)


@pytest.fixture(scope="session")
def dices_items(dices_manifest: CalibrationManifest, dices_dir: Path) -> list[CalibrationItem]:
    return import_set(dices_manifest, dices_dir)
