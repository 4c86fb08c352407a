"""The version constants: one leaf, re-exported by the package face, the package's own
version the one the distribution is built with."""

from __future__ import annotations

import tomllib
from pathlib import Path

import judge
from judge.core import versions

REPO = Path(__file__).resolve().parents[2]


def test_the_package_face_re_exports_every_constant_of_the_leaf() -> None:
    names = [n for n in vars(versions) if n.isupper() or n == "__version__"]

    assert {n: getattr(judge, n) for n in names} == {n: getattr(versions, n) for n in names}
    assert set(names) == {
        "__version__",
        "SCORING_VERSION",
        "JUDGE_PROMPT_VERSION",
        "UNDEFENDED_PROMPT_VERSION",
        "DETECTOR_VERSION",
    }


def test_the_package_version_is_the_distributions() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]

    assert versions.__version__ == project["version"]
