"""Old module paths of judging that moved (docs: RENAMES.md), importable for one release.

A module that moved leaves a stub that forwards every name to its new home with a
``DeprecationWarning`` (:func:`forward`).
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from typing import Any


def forward(old: str, new: str) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``old`` that reads each name from ``new``, warning once
    per use."""

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        target = importlib.import_module(new)
        value = getattr(target, name)
        warnings.warn(f"{old} moved to {new}", DeprecationWarning, stacklevel=2)
        return value

    return __getattr__
