"""The layering of the package (docs/architecture.md): the folders are the layers, enforced.

``judge/`` holds four tiers, lowest first: ``core`` (values in, values out), ``engine`` (what
reaches a model, a world or the settings), ``server`` (store, service, API, console) and
``tools`` (command line, audit, importers). A module may import any part of a lower tier, and
within its own tier only the parts its row of ``RULES`` names; a test below checks that
docs/architecture.md carries the same rows. Every import in every module is read (also the
ones inside functions and under TYPE_CHECKING), and so is every import made from a string
(``importlib.import_module("judge...")``, ``__import__``): a layer cannot be crossed by
importing late or by name. No module but the package face defines a module ``__getattr__``
(no forwarding of moved names). No two modules may import each other, however long the way
round (the imports that run: those under TYPE_CHECKING never do). Third-party libraries that
do I/O are held to the parts that own that I/O, the pure core may import only libraries that
compute, and only the store writes SQL.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "judge"

#: The tiers, lowest first: each may import every tier below it.
TIERS = ("core", "engine", "server", "tools")

#: What each part may import from its own tier (every lower tier is open to it).
RULES: dict[str, set[str]] = {
    "core.versions": set(),
    "core.errors": set(),
    "core.domain": {"core.errors"},
    "core.scoring": {"core.domain", "core.errors", "core.versions"},
    "core.integrity": {"core.domain", "core.errors", "core.versions"},
    "engine.judging": set(),
    "engine.checks": set(),
    "engine.settings": {"engine.judging"},
    "engine.packs": {"engine.settings"},
    "engine.library": {"engine.judging", "engine.settings"},
    "engine.pipeline": {"engine.checks", "engine.judging", "engine.packs", "engine.settings"},
    "engine.calibration": {"engine.judging", "engine.packs", "engine.pipeline", "engine.settings"},
    "engine.telemetry": {"engine.pipeline", "engine.settings"},
    "engine.traces": set(),
    "server.auth": set(),
    "server.store": set(),
    "server.service": {"server.auth", "server.store"},
    "server.request_scope": {"server.service", "server.store"},
    "server.api": {"server.auth", "server.request_scope", "server.service", "server.store"},
    "server.console": {"server.auth", "server.request_scope", "server.service"},
    "server.web": {"server.api", "server.console", "server.service"},
    "tools.importers": set(),
    "tools.audit": set(),
    "tools.tabular": set(),
    "tools.inspect_scorer": {"tools.importers"},
    "tools.cli": {"tools.audit", "tools.importers", "tools.tabular"},
}  # fmt: skip

#: Third-party libraries that do I/O or serve the web, and the only parts that may use them.
OWNERS: dict[str, set[str]] = {
    "litellm": {"engine.judging"},
    "llama_cpp": {"engine.judging"},
    "fastapi": {"server.request_scope", "server.api", "server.console", "server.web"},
    "starlette": {"server.request_scope", "server.api", "server.console", "server.web"},
    "jinja2": {"server.console", "engine.calibration", "tools.audit"},
    "uvicorn": {"tools.cli"},
    "alembic": {"server.store"},
    "psycopg": {"engine.checks", "server.store"},
    "sqlite3": {"engine.checks", "server.store", "tools.tabular", "tools.cli"},
}
#: SQLAlchemy and SQLModel: the store, and the shells that hold its sessions and engines.
for _library in ("sqlmodel", "sqlalchemy"):
    OWNERS[_library] = {
        "server.store", "server.service", "server.request_scope", "server.api",
        "server.console", "engine.telemetry", "tools.tabular", "tools.cli",
    }  # fmt: skip

#: The pure core computes and nothing else: these are all it may import from outside judge.
PURE = {"core.domain", "core.scoring", "core.integrity", "core.errors", "core.versions"}
#: The parts that must load no I/O library at run time and call no file or console function:
#: the pure core, and the audit (perturbations, statistics and report text; its command
#: does the I/O).
NO_IO_AT_RUN_TIME = PURE | {"tools.audit"}
NO_IO_CALLS = {"open", "print", "input"}
NO_IO_METHODS = {"write_text", "read_text", "open", "mkdir", "unlink"}
PURE_IMPORTS = {
    "__future__", "base64", "binascii", "bisect", "codecs", "collections",
    "contextlib", "contextvars",
    "confusable_homoglyphs", "dataclasses", "datetime", "decimal", "enum", "functools",
    "hashlib", "itertools", "json", "math", "numpy", "operator", "pydantic", "random", "re", "re2",
    "scipy", "statistics", "typing", "unicodedata", "warnings",
    # importlib.resources and io: the learned layer reads its model from the package's own
    # data (judge/core/integrity/learned.py), read-only, like a module it imports
    "importlib", "io",
}  # fmt: skip


def _part(module: str) -> str:
    """``judge.server.store.runs`` -> ``server.store``; ``judge.core.errors`` -> ``core.errors``."""
    parts = module.split(".")
    return ".".join(parts[1:3]) if len(parts) > 2 else "judge"


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _module_name(path: Path) -> str:
    """``judge/server/store/runs.py`` -> ``judge.server.store.runs``; ``judge/server/store/__init__.py`` -> ``judge.server.store``."""
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in _modules()}


def _imported(path: Path, *, with_typing: bool = True) -> list[str]:
    """Every name an import in ``path`` reads: ``from a.b import c`` reads ``a.b.c``.
    ``with_typing=False`` leaves out the imports under ``if TYPE_CHECKING:`` (never run)."""
    names: list[str] = []
    tree = ast.parse(path.read_text())
    skipped = set() if with_typing else {id(n) for n in _typing_blocks(tree) for n in ast.walk(n)}
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, (
                f"{path}: relative import (the table is written for absolute ones)"
            )
            names += [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Call) and _string_import(node):
            names.append(_string_import(node))
    return names


#: The calls that import a module named by a string.
STRING_IMPORTERS = {"importlib.import_module", "import_module", "__import__"}


def _string_import(call: ast.Call) -> str:
    """The module a call like ``importlib.import_module("judge.x")`` imports, or ``""``."""
    if ast.unparse(call.func) not in STRING_IMPORTERS or not call.args:
        return ""
    name = call.args[0]
    return name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else ""


def _typing_blocks(tree: ast.AST) -> list[ast.stmt]:
    """The statements under ``if TYPE_CHECKING:``."""
    return [
        statement
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for statement in node.body
    ]


def _module_of(name: str) -> str | None:
    """The module of judge a dotted name lives in (``judge.server.store.db.transaction`` -> ``judge.server.store.db``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(path: Path) -> list[str]:
    """The modules ``path`` imports: of judge, the module read; otherwise the name imported."""
    return [_module_of(name) or name for name in _imported(path)]


def _owner(path: Path) -> str:
    if path.parent == PACKAGE:
        return "judge"
    if path.parent.parent == PACKAGE and path.name == "__init__.py":
        return path.parent.name  # a tier's own docstring
    return _part(".".join(path.relative_to(REPO).with_suffix("").parts))


def _tier(part: str) -> int:
    return TIERS.index(part.split(".")[0])


def allowed(owner: str, target: str) -> bool:
    """May part ``owner`` import part ``target``? Any lower tier; in its own, its row."""
    if _tier(target) != _tier(owner):
        return _tier(target) < _tier(owner)
    return target == owner or target in RULES[owner]


def test_every_part_of_the_package_has_a_row_in_the_table() -> None:
    parts = {_owner(p) for p in _modules()} - {"judge", *TIERS}
    assert parts == set(RULES), (
        f"add a row for {sorted(parts - set(RULES))}; drop {sorted(set(RULES) - parts)}"
    )


def test_the_package_holds_only_its_tiers_and_its_face() -> None:
    top = {p.name for p in PACKAGE.iterdir() if p.name != "__pycache__"}
    assert top == {*TIERS, "__init__.py", "__main__.py"}
    assert all(_imported(PACKAGE / tier / "__init__.py") == [] for tier in TIERS)


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_each_module_imports_only_what_its_layer_allows(path: Path) -> None:
    owner = _owner(path)
    if owner in ("judge", *TIERS):
        return  # the package face re-exports the public API lazily; a tier's face is a docstring
    for name in _imports(path):
        root = name.split(".")[0]
        if root == "judge":
            target = _part(name)
            assert allowed(owner, target), f"{path.relative_to(REPO)} ({owner}) imports {name}"
        elif root in OWNERS:
            assert owner in OWNERS[root], f"{path.relative_to(REPO)} ({owner}) imports {name}"
        if owner in PURE and root != "judge":
            assert root in PURE_IMPORTS, f"{path.relative_to(REPO)} is pure but imports {name}"


def test_a_string_import_is_read_like_any_other(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "import importlib\nfrom importlib import import_module\n"
        "importlib.import_module('judge.tools.cli')\nimport_module('judge.server.web')\n"
        "__import__('judge.core.errors')\nimportlib.import_module(name)\n"
    )

    assert _imported(module)[-3:] == ["judge.tools.cli", "judge.server.web", "judge.core.errors"]
    assert not allowed("engine.judging", _part("judge.tools.cli"))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_forwards_names_through_a_module_getattr(path: Path) -> None:
    """A module ``__getattr__`` is how a moved name keeps answering at an old home; nothing
    here was ever released, so no name has an old home (the package face is lazy, not a shim)."""
    if path == PACKAGE / "__init__.py":
        return
    tree = ast.parse(path.read_text())
    defined = [
        n
        for n in tree.body
        if isinstance(n, (ast.FunctionDef, ast.Assign))
        and "__getattr__"
        in ([n.name] if isinstance(n, ast.FunctionDef) else [ast.unparse(t) for t in n.targets])
    ]
    assert defined == [], f"{path.relative_to(REPO)} defines a module __getattr__"


#: The parts that may write SQL: the store, and the state checks' read-only queries of a world.
SQL_PARTS = {"server.store", "engine.checks"}
#: What writes SQL: a statement builder of SQLAlchemy or SQLModel, or raw text.
SQL_BUILDERS = {"text", "select", "insert", "update", "delete", "exec_driver_sql"}


def _sql_written(path: Path) -> list[str]:
    """Where ``path`` builds SQL: ``from sqlmodel import select``, ``sa.text(...)``, ..."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in (
            "sqlalchemy",
            "sqlmodel",
        ):
            found += [f"imports {a.name}" for a in node.names if a.name in SQL_BUILDERS]
        elif isinstance(node, ast.Attribute) and node.attr in SQL_BUILDERS:
            owner = ast.unparse(node.value)
            if owner in ("sa", "sqlalchemy", "sqlmodel") or node.attr == "exec_driver_sql":
                found.append(f"line {node.lineno}: {owner}.{node.attr}")
    return found


@pytest.mark.parametrize(
    "path",
    [p for p in _modules() if _owner(p) not in SQL_PARTS],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_sql_is_written_only_under_the_store(path: Path) -> None:
    assert _sql_written(path) == [], (
        f"{path.relative_to(REPO)}: move the query to judge/server/store"
    )


def test_the_sql_finder_sees_a_raw_statement_and_a_builder(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import sqlalchemy as sa\nfrom sqlmodel import select\nQ = sa.text('x')\n")

    assert _sql_written(module) == ["imports select", "line 3: sa.text"]


def test_importing_the_pure_core_loads_no_io_library() -> None:
    """The rule holds at run time too: nothing the core imports pulls in I/O behind its back."""
    core = [
        ".".join(p.relative_to(REPO).with_suffix("").parts)
        for p in _modules()
        if _owner(p) in NO_IO_AT_RUN_TIME and p.name != "__init__.py"
    ]
    io = sorted(OWNERS) + [
        "judge.server.store",
        "judge.server.api",
        "judge.engine.judging",
        "judge.engine.checks",
        "yaml",
    ]
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


@pytest.mark.parametrize(
    "path",
    [p for p in _modules() if _owner(p) in NO_IO_AT_RUN_TIME],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_the_pure_parts_call_no_file_or_console_function(path: Path) -> None:
    tree = ast.parse(path.read_text())
    calls = {
        n.func.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    methods = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert not calls & NO_IO_CALLS and not methods & NO_IO_METHODS


def import_graph() -> dict[str, set[str]]:
    """Each module of judge -> the modules of judge it imports, anywhere in its body (at the
    top, in functions), except under ``if TYPE_CHECKING:``: those are never run, and are how
    a type names its way back without a cycle.

    Importing ``judge.a.b`` also runs ``judge/a/__init__.py`` first; that edge is not drawn,
    so a package may re-export its own modules (an import back from one of them is drawn).
    """
    return {
        name: {m for m in map(_module_of, _imported(path, with_typing=False)) if m and m != name}
        for name, path in MODULES.items()
    }


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """One shortest cycle through each knot of ``graph`` (``[a, b, a]``), in name order."""
    return sorted(_loop_through(graph, knot, min(knot)) for knot in _knots(graph))


def _loop_through(graph: Mapping[str, set[str]], knot: set[str], start: str) -> list[str]:
    """The shortest walk from ``start`` back to itself inside ``knot`` (breadth first)."""
    parent = {start: start}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            targets = sorted(graph[node] & knot)
            if start in targets:
                path = [node]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return [*reversed(path), start]
            for target in targets:
                if target not in parent:
                    parent[target] = node
                    following.append(target)
        frontier = following
    raise AssertionError(f"{start} is in no cycle of {sorted(knot)}")


def _knots(graph: Mapping[str, set[str]]) -> list[set[str]]:
    """The strongly connected sets of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    knots: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    knot = set(stack[stack.index(node) :])
                    del stack[stack.index(node) :]
                    if len(knot) > 1:
                        knots.append(knot)
            elif target not in index:
                index[target] = low[target] = len(index)
                stack.append(target)
                work.append((target, iter(sorted(graph[target]))))
            elif target in stack:
                low[node] = min(low[node], index[target])
    return knots


def test_no_module_imports_itself_back_through_others() -> None:
    """Any import cycle between modules of judge fails, naming the cycle (docs/architecture.md)."""
    found = cycles(import_graph())
    assert not found, "import cycles: " + "; ".join(" -> ".join(c) for c in found)


def test_the_graph_draws_imports_inside_functions_but_not_type_only_ones() -> None:
    graph = import_graph()

    assert (
        "judge.core.domain.rows" in graph["judge.core.domain.scorecard"]
    )  # inside Scorecard.to_rows
    assert (
        "judge.core.domain.scorecard" not in graph["judge.core.domain.rows"]
    )  # under TYPE_CHECKING


def test_the_table_allows_no_cycle_between_parts() -> None:
    assert cycles(RULES) == []


def test_the_cycle_finder_names_the_shortest_loop_of_each_knot() -> None:
    graph = {"a": {"b"}, "b": {"c", "a"}, "c": {"a"}, "d": {"e"}, "e": {"d"}, "f": {"a"}}

    assert cycles(graph) == [["a", "b", "a"], ["d", "e", "d"]]


def test_docs_architecture_carries_the_same_table() -> None:
    """docs/architecture.md lists, per part, what it may import: the rows must equal RULES."""
    text = (REPO / "docs" / "architecture.md").read_text()
    rows = dict(re.findall(r"^\| `([\w.]+)` \|[^|]*\| ([^|]*) \|$", text, flags=re.MULTILINE))
    documented = {part: set(re.findall(r"`([\w.]+)`", cell)) for part, cell in rows.items()}
    assert documented == RULES


def test_nine_functions_in_ten_are_at_most_twenty_lines() -> None:
    """Small units (docs/architecture.md): the 90th percentile of function length, def to end."""
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef)
    lengths = sorted(
        node.end_lineno - node.lineno + 1
        for path in _modules()
        if "migrations" not in path.parts
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, kinds) and node.end_lineno is not None
    )
    assert lengths[int(0.9 * (len(lengths) - 1))] <= 20
