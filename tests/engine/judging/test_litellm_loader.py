"""litellm is imported only after the bundled price map is chosen: every import of it in the
package sits in a function that calls ``load_litellm()`` first (docs/deploy.md, "No network at
start-up"). The real processes are checked in tests/tools/cli/test_worker_offline.py."""

from __future__ import annotations

import ast
from pathlib import Path

from judge.engine.judging.providers import litellm_loader

PACKAGE = Path(litellm_loader.__file__).resolve().parents[3]


def _imports_litellm(node: ast.AST) -> bool:
    if isinstance(node, ast.Import):
        return any(a.name == "litellm" or a.name.startswith("litellm.") for a in node.names)
    if isinstance(node, ast.ImportFrom):
        module = node.module or ""
        return node.level == 0 and (module == "litellm" or module.startswith("litellm."))
    if isinstance(node, ast.Call):  # importlib.import_module("litellm...") or __import__
        name = getattr(node.func, "attr", getattr(node.func, "id", ""))
        first = node.args[0] if node.args else None
        return (
            name in {"import_module", "__import__"}
            and isinstance(first, ast.Constant)
            and str(first.value).split(".")[0] == "litellm"
        )
    return False


def _calls_loader_before(function: ast.AST, line: int) -> bool:
    return any(
        isinstance(node, ast.Call)
        and getattr(node.func, "id", getattr(node.func, "attr", "")) == "load_litellm"
        and node.lineno < line
        for node in ast.walk(function)
    )


def unguarded_imports(root: Path) -> list[str]:
    """Every import of litellm under ``root`` not preceded, in its function, by load_litellm()."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "litellm_loader.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = [
            n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        ]
        for node in ast.walk(tree):
            if not _imports_litellm(node):
                continue
            line = node.lineno  # type: ignore[attr-defined]
            owners = [f for f in functions if f.lineno <= line <= (f.end_lineno or f.lineno)]
            if not any(_calls_loader_before(f, line) for f in owners):
                found.append(f"{path.relative_to(root.parent)}:{line}")
    return found


def test_every_import_of_litellm_in_the_package_follows_load_litellm() -> None:
    assert unguarded_imports(PACKAGE) == []


def test_the_scan_finds_each_way_of_importing_litellm(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "m.py").write_text(
        "import importlib\n"
        "import litellm\n"
        "def a():\n    from litellm.router import Router\n"
        "async def b():\n    importlib.import_module('litellm')\n"
        "def c():\n    load_litellm()\n    from litellm.types.utils import Usage\n"
    )
    assert unguarded_imports(package) == ["pkg/m.py:2", "pkg/m.py:4", "pkg/m.py:6"]
