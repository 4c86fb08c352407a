"""Names that moved keep answering at their old home for one release, with a warning.

A leaf like ``judge.versions``: it imports nothing from judge, so any part may use it. The
new home is imported by name only when an old name is used, so an old home never imports
its new one (which may sit above it: ``judge.api.app.create_app`` -> ``judge.web``).
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Any


def moved(old: str, targets: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for module ``old``: each name in ``targets`` maps to its new
    home, ``"package.module:name"``, imported on use with a DeprecationWarning naming it."""

    def forward(name: str) -> Any:
        target = targets.get(name)
        if target is None:
            raise AttributeError(f"module {old!r} has no attribute {name!r}")
        module, _, new = target.partition(":")
        warnings.warn(
            f"{old}.{name} is deprecated: use {module}.{new}", DeprecationWarning, stacklevel=2
        )
        return getattr(importlib.import_module(module), new)

    return forward


def moved_module(old: str, new: str) -> Callable[[str], Any]:
    """A module ``__getattr__`` for module ``old``, which moved whole to ``new``: every name
    is read from there, with a DeprecationWarning."""

    def forward(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        value = getattr(importlib.import_module(new), name)
        warnings.warn(f"{old} moved to {new}", DeprecationWarning, stacklevel=2)
        return value

    return forward


def same_names(module: str, names: Iterable[str]) -> dict[str, str]:
    """``targets`` for names that kept their name in ``module``."""
    return {name: f"{module}:{name}" for name in names}
