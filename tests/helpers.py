"""Small builders shared by the tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from judge.domain.run import Run, parse_run

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"


def example(name: str) -> Run:
    return parse_run(json.loads((EXAMPLES / name).read_text()), source=name)


def example_data(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text())
    return data


def verdict(score: float, turns: list[int] | None = None, rationale: str = "ok") -> str:
    return json.dumps({"score": score, "turns": turns or [], "rationale": rationale})
