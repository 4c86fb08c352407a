"""The layering of the package (docs/architecture.md): who may import whom, enforced.

``RULES`` is the import table of docs/architecture.md, one row per package or top-level
module of ``judge``; a test below checks that the document carries the same table. Every
import in every module is read (also the ones inside functions and under TYPE_CHECKING),
so a layer cannot be crossed by importing late. Third-party libraries that do I/O are held
to the layers that own that I/O, and the pure core (domain, scoring) may import only
libraries that compute.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "judge"

#: What each part of judge may import from judge, lowest layer first. The package root
#: (``judge``: version constants and the lazy public API) may be imported by any part.
RULES: dict[str, set[str]] = {
    "errors": set(),
    "domain": {"errors"},
    "scoring": {"domain", "errors"},
    "judging": {"domain", "errors"},
    "checks": {"domain", "errors", "scoring"},
    "catalog": {"domain", "errors"},
    "auth": {"domain", "errors"},
    "schemas": {"domain", "errors"},
    "settings": {"domain", "errors", "judging"},
    "pipeline": {"domain", "errors", "scoring", "judging", "checks", "catalog"},
    "library": {"domain", "errors", "judging", "pipeline", "catalog"},
    "calibration": {"domain", "errors", "scoring", "judging", "checks", "catalog", "pipeline"},
    "integrations": {
        "domain", "errors", "scoring", "judging", "catalog", "pipeline", "library", "settings",
    },
    "audit": {"domain", "errors", "scoring", "calibration"},
    "store": {"domain", "errors", "scoring"},
    "tabular": {"domain", "errors", "scoring", "store"},
    "service": {
        "domain", "errors", "scoring", "judging", "checks", "catalog", "auth", "settings", "pipeline", "calibration", "store", "telemetry",
    },
    "telemetry": {"domain", "errors", "pipeline", "service"},
    "api": {
        "domain", "errors", "scoring", "judging", "checks", "catalog", "auth", "settings",
        "pipeline", "calibration", "store", "service", "telemetry", "console",
    },
    "console": {
        "domain", "errors", "scoring", "judging", "checks", "catalog", "auth", "settings",
        "pipeline", "store", "service", "telemetry", "calibration", "api",
    },
    "cli": {
        "domain", "errors", "scoring", "judging", "checks", "catalog", "auth", "schemas",
        "settings", "pipeline", "library", "calibration", "integrations", "audit", "store",
        "tabular", "service", "telemetry", "api",
    },
    "__main__": {"cli"},
}  # fmt: skip

#: Third-party libraries that do I/O or serve the web, and the only parts that may use them.
OWNERS: dict[str, set[str]] = {
    "litellm": {"judging"},
    "llama_cpp": {"judging"},
    "fastapi": {"api", "console"},
    "starlette": {"api", "console"},
    "jinja2": {"console"},
    "uvicorn": {"cli"},
    "sqlmodel": {"store", "service", "api", "console", "tabular", "telemetry", "cli"},
    "sqlalchemy": {"store", "service", "api", "console", "tabular", "telemetry", "cli"},
    "alembic": {"store"},
    "psycopg": {"checks", "store"},
    "sqlite3": {"checks", "store", "tabular", "cli"},
}

#: The pure core computes and nothing else: these are all it may import from outside judge.
PURE = {"domain", "scoring", "errors"}
PURE_IMPORTS = {
    "__future__", "base64", "binascii", "bisect", "codecs", "collections",
    "confusable_homoglyphs", "dataclasses", "datetime", "decimal", "enum", "functools",
    "hashlib", "itertools", "json", "math", "numpy", "operator", "pydantic", "random", "re",
    "scipy", "statistics", "typing", "unicodedata",
}  # fmt: skip


def _part(module: str) -> str:
    """``judge.store.runs`` -> ``store``; ``judge.settings`` -> ``settings``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "judge"


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _imports(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, (
                f"{path}: relative import (the table is written for absolute ones)"
            )
            names.append(node.module or "")
    return names


def _owner(path: Path) -> str:
    if path == PACKAGE / "__init__.py":
        return "judge"
    return _part(".".join(path.relative_to(REPO).with_suffix("").parts))


def test_every_part_of_the_package_has_a_row_in_the_table() -> None:
    parts = {_owner(p) for p in _modules()} - {"judge"}
    assert parts == set(RULES), (
        f"add a row for {sorted(parts - set(RULES))}; drop {sorted(set(RULES) - parts)}"
    )


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_each_module_imports_only_what_its_layer_allows(path: Path) -> None:
    owner = _owner(path)
    if owner == "judge":
        return  # the package root re-exports the public API lazily
    for name in _imports(path):
        root = name.split(".")[0]
        if root == "judge":
            target = _part(name)
            allowed = target in (RULES[owner] | {owner, "judge"})
            assert allowed, f"{path.relative_to(REPO)} ({owner}) imports {name} ({target})"
        elif root in OWNERS:
            assert owner in OWNERS[root], f"{path.relative_to(REPO)} ({owner}) imports {name}"
        if owner in PURE and root != "judge":
            assert root in PURE_IMPORTS, f"{path.relative_to(REPO)} is pure but imports {name}"


def test_importing_the_pure_core_loads_no_io_library() -> None:
    """The rule holds at run time too: nothing the core imports pulls in I/O behind its back."""
    core = [
        ".".join(p.relative_to(REPO).with_suffix("").parts)
        for p in _modules()
        if _owner(p) in PURE and p.name != "__init__.py"
    ]
    io = sorted(OWNERS) + ["judge.store", "judge.api", "judge.judging", "judge.checks", "yaml"]
    probe = (
        f"import sys\nfor m in {core!r}: __import__(m)\n"
        f"print(sorted(m for m in sys.modules if any(m == f or m.startswith(f + '.') for f in {io!r})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        check=False,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_docs_architecture_carries_the_same_table() -> None:
    """docs/architecture.md lists, per part, what it may import: the rows must equal RULES."""
    text = (REPO / "docs" / "architecture.md").read_text()
    rows = dict(re.findall(r"^\| `([\w_]+)` \|[^|]*\| ([^|]*) \|$", text, flags=re.MULTILINE))
    documented = {part: set(re.findall(r"`(\w+)`", cell)) for part, cell in rows.items()}
    assert documented == RULES
