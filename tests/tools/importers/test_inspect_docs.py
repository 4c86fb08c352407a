"""The offline Inspect recipe in docs/integrations.md runs as written, without a network."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from judge.tools.cli import main
from tests.helpers import REPO

SECTION = "### Trying it offline with Inspect's `mockllm`"


def recipe() -> str:
    text = (REPO / "docs" / "integrations.md").read_text(encoding="utf-8")
    start = text.index(SECTION)
    found = re.search(r"```python\n(.*?)```", text[start:], re.DOTALL)
    assert found is not None, "the section has no python block"
    return found.group(1)


def test_the_documented_mockllm_recipe_runs_offline_and_imports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {}

    exec(compile(recipe(), "docs/integrations.md", "exec"), namespace)  # noqa: S102
    log = namespace["log"]
    capsys.readouterr()

    assert log.status == "success", log.error
    assert main(["import", "inspect", log.location, "--out", str(tmp_path / "runs")]) == 0
    [written] = capsys.readouterr().out.split()
    assert Path(written).name.startswith("lamp-")
