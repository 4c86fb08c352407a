"""The judge providers, one self-contained module each, asked by :mod:`judge.judging.registry`:

- ``scripted.py``: the scripted test judge (dev mode only);
- ``embedded.py``: the in-process SmolLM2 judge;
- ``router.py``: a litellm Router over several deployments;
- ``openai_compatible.py``: an ``openai/`` model on a server of one's own, posted straight to
  it by a light client;
- ``litellm.py``: every other model id, through litellm.

This package's own names are those of the old ``judge.judging.providers`` module, importable
for one release with a warning; the registry took their place.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

_MOVED = {
    "Provider": ("judge.judging.registry", "ProviderEntry"),
    "register": ("judge.judging.registry", "register"),
    "providers": ("judge.judging.registry", "entries"),
    "provider_for": ("judge.judging.registry", "entry_for"),
    "backend_for": ("judge.judging.providers._deprecated", "backend_for"),
    "dev_mode_from_environment": (
        "judge.judging.providers._deprecated",
        "dev_mode_from_environment",
    ),
    "LITELLM": ("judge.judging.providers.litellm", "ENTRY"),
    "quiet_litellm": ("judge.judging.providers.litellm_loader", "load_litellm"),
    "refusal": ("judge.judging.providers._deprecated", "refusal"),
    "startup_check": ("judge.judging.providers._deprecated", "startup_check"),
    "decoder_identities": ("judge.judging.providers._deprecated", "decoder_identities"),
}


def __getattr__(name: str) -> Any:
    if name not in _MOVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, new = _MOVED[name]
    warnings.warn(
        f"judge.judging.providers.{name} is now {module}.{new}", DeprecationWarning, stacklevel=2
    )
    return getattr(importlib.import_module(module), new)
