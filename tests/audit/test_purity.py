"""The audit's perturbations, plan, statistics and rendering stay pure: no I/O layer creeps in."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PURE = ["judge.audit.perturb", "judge.audit.plan", "judge.audit.report", "judge.audit.render"]
FORBIDDEN = [
    "litellm",
    "llama_cpp",
    "sqlmodel",
    "sqlalchemy",
    "fastapi",
    "httpx",
    "sqlite3",
    "psycopg",
    "yaml",
    "judge.judging",
    "judge.store",
    "judge.checks",
    "judge.service",
    "judge.api",
]
NO_IO_NAMES = {"open", "print", "input"}


def test_pure_audit_modules_import_no_io_layer() -> None:
    code = (
        f"import sys\nfor m in {PURE!r}: __import__(m)\n"
        f"print(sorted(m for m in sys.modules if any(m == f or m.startswith(f + '.') for f in {FORBIDDEN!r})))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("module", PURE)
def test_pure_audit_modules_call_no_file_or_console_function(module: str) -> None:
    path = REPO / (module.replace(".", "/") + ".py")
    calls = {
        n.func.id
        for n in ast.walk(ast.parse(path.read_text()))
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    attrs = {n.attr for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Attribute)}
    assert not calls & NO_IO_NAMES
    assert not attrs & {"write_text", "read_text", "open", "mkdir", "unlink"}
