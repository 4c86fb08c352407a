"""The package's shape against the goals of docs/architecture.md, in one table.

Prints the lines of ``judge/`` (migrations aside), the number of modules, the function lengths
(median and 90th percentile), the modules that define a module ``__getattr__`` besides the
package face, and for each feature word the folders that hold a module named for it. The import
order and cycles are held by tests/test_layers.py, so they are not repeated here.

    python bench/tree_shape.py [--smoke]
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import numpy as np

PACKAGE = Path(__file__).resolve().parents[1] / "judge"
GOALS = {"lines": 33_000, "p90_function_lines": 20, "forwarding_modules": 0, "feature_folders": 3}
FEATURES = ("pairwise", "align", "escalation", "coaching", "budget", "label", "ingest", "review")
FEATURES += ("leaderboard", "stability", "calibration", "audit", "keys", "rules", "export")


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts)


def _function_lengths(trees: list[ast.Module]) -> np.ndarray:
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef)
    lengths = [
        node.end_lineno - node.lineno + 1
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, kinds) and node.end_lineno is not None
    ]
    return np.array(lengths)


def _forwards(tree: ast.Module) -> bool:
    return any(isinstance(n, ast.FunctionDef) and n.name == "__getattr__" for n in tree.body)


def _feature_folders(modules: list[Path]) -> dict[str, list[str]]:
    folders: dict[str, set[str]] = {word: set() for word in FEATURES}
    for path in modules:
        for word in FEATURES:
            if word in path.stem:
                folders[word].add(str(path.parent.relative_to(PACKAGE.parent)))
    return {word: sorted(found) for word, found in folders.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="the same table (it takes seconds)")
    parser.parse_args()
    modules = _modules()
    texts = [p.read_text(encoding="utf-8") for p in modules]
    trees = [ast.parse(t) for t in texts]
    lines = sum(len(t.splitlines()) for t in texts)
    lengths = _function_lengths(trees)
    p50, p90 = np.percentile(lengths, [50, 90])
    forwarding = [p for p, t in zip(modules, trees, strict=True) if _forwards(t)]
    forwarding = [p for p in forwarding if p != PACKAGE / "__init__.py"]
    features = _feature_folders(modules)
    widest = max(len(found) for found in features.values())
    tiers = max(len({f.split("/")[1] for f in found}) for found in features.values())
    print("| measure | now | goal |\n|---|---|---|")
    print(f"| lines of judge/ (migrations aside) | {lines:,} | at most {GOALS['lines']:,} |")
    print(f"| modules | {len(modules)} | |")
    print(f"| function length, median / p90 | {p50:.0f} / {p90:.0f} | p90 at most 20 |")
    print(f"| modules forwarding names | {len(forwarding)} | 0 |")
    print(f"| most folders one feature spans | {widest} | at most 3 |")
    print(f"| most tiers one feature spans | {tiers} | |")
    print("\n| feature | folders |\n|---|---|")
    for word, found in features.items():
        print(f"| {word} | {len(found)}: {', '.join(f.removeprefix('judge/') for f in found)} |")


if __name__ == "__main__":
    main()
