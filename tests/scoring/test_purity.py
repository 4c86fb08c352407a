"""The scoring rules stay pure: no model, database, web or lower layer may creep in."""

import ast
from pathlib import Path

import pytest

SCORING = Path(__file__).resolve().parents[2] / "judge" / "scoring"
ALLOWED_ROOTS = {"__future__", "collections", "dataclasses", "enum", "functools", "hashlib", "itertools",
                 "json", "math", "statistics", "typing", "numpy", "scipy", "pydantic", "random",
                 "operator", "re", "datetime", "decimal", "bisect"}
ALLOWED_JUDGE = ("judge.domain", "judge.scoring", "judge.errors")


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


@pytest.mark.parametrize("path", sorted(SCORING.glob("*.py")), ids=lambda p: p.name)
def test_scoring_module_imports_only_pure_dependencies(path: Path) -> None:
    for name in _imports(path):
        if name == "judge" or name.startswith(ALLOWED_JUDGE):
            continue
        assert name.split(".")[0] in ALLOWED_ROOTS, f"{path.name} imports {name}"
