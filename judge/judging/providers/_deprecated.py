"""The old functions of ``judge.judging.providers``, which took a bare model id and read the
environment; kept for one release over :func:`judge.judging.registry.resolve` (new code
resolves a :class:`~judge.judging.registry.JudgeSpec` once, with the settings it is given).

The settings are read through :func:`judge.settings.judging_environment`, imported by name at
call time: this layer may not import the settings module, and these shims go with the release.
"""

from __future__ import annotations

import importlib

from judge.judging.environment import JudgingEnvironment
from judge.judging.model_check import ModelCheck
from judge.judging.panel import Judge
from judge.judging.registry import backend_for as _backend_for
from judge.judging.registry import resolve
from judge.judging.registry import startup_check as _startup_check


def _environment() -> JudgingEnvironment:
    settings = importlib.import_module("judge.settings")
    environment: JudgingEnvironment = settings.judging_environment()
    return environment


def backend_for(model: str, *, dev_mode: bool | None = None) -> Judge:
    """``registry.backend_for(resolve(model, judging_environment()), dev_mode=dev_mode)``."""
    return _backend_for(resolve(model, _environment()), dev_mode=dev_mode)


def refusal(model: str, *, dev_mode: bool) -> str | None:
    """Why ``model`` may not judge here, or None (``resolve(...).refusal(...)``)."""
    return resolve(model, _environment()).refusal(dev_mode=dev_mode)


def startup_check(model: str) -> ModelCheck:
    """``registry.startup_check(resolve(model, ...))``."""
    return _startup_check(resolve(model, _environment()))


def decoder_identities(model: str) -> dict[str, str]:
    """``resolve(model, ...).decoders``."""
    return resolve(model, _environment()).decoders


def dev_mode_from_environment() -> bool:
    """``judging_environment().dev_mode``."""
    return _environment().dev_mode
