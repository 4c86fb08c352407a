"""Old module paths of judging that moved (docs: RENAMES.md), importable for one release.

A module that moved leaves a stub that forwards every name to its new home with a
``DeprecationWarning``; :func:`forward` is :func:`judge.deprecations.moved_module`.
"""

from __future__ import annotations

from judge.deprecations import moved_module as forward

__all__ = ["forward"]
