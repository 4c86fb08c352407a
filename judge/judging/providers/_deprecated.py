"""The old model-id functions of ``judge.judging.providers``, over :func:`judge.judging.registry.resolve`;
kept for one release (new code resolves a :class:`~judge.judging.registry.JudgeSpec` once)."""

from __future__ import annotations

from judge.judging.model_check import ModelCheck
from judge.judging.registry import resolve
from judge.judging.registry import startup_check as _startup_check


def refusal(model: str, *, dev_mode: bool) -> str | None:
    """Why ``model`` may not judge here, or None (``resolve(model).refusal(...)``)."""
    return resolve(model).refusal(dev_mode=dev_mode)


def startup_check(model: str) -> ModelCheck:
    """``registry.startup_check(resolve(model))``."""
    return _startup_check(resolve(model))


def decoder_identities(model: str) -> dict[str, str]:
    """``resolve(model).decoders``."""
    return resolve(model).decoders
