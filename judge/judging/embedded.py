"""Moved to :mod:`judge.judging.providers.embedded`; importable from here for one release."""

from judge.judging.moved import forward

__getattr__ = forward(__name__, "judge.judging.providers.embedded")
