"""Which backend judges a model id: one registry of providers, chosen by model-id prefix.

=====================  ===========================================================  ==========
model id               provider                                                     where
=====================  ===========================================================  ==========
``scripted/<score>``   the scripted test judge (:mod:`judge.judging.scripted`)       dev mode
``embedded/<name>``    the in-process SmolLM2 judge (:mod:`judge.judging.embedded`)  anywhere
``router:<file>``      a litellm Router over several deployments                    anywhere
                       (:mod:`judge.judging.router`); also any id ending in
                       ``.yaml`` / ``.yml``
anything else          litellm: hosted APIs, vLLM, Ollama, llama.cpp servers        anywhere
=====================  ===========================================================  ==========

The CLI, the service and the Python API all ask :func:`backend_for`; a new provider is one
:func:`register` call. A provider marked ``dev_only`` is refused outside dev mode
(``JUDGE_DEV_MODE=1``), so a typo in a real run can never score with a fake judge.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from pydantic import TypeAdapter, ValidationError

from judge.errors import ConfigError
from judge.judging.backends import JudgeBackend, LiteLLMBackend
from judge.judging.model_check import ModelCheck, check_model

BackendBuilder = Callable[[str], JudgeBackend]


@dataclass(frozen=True)
class Provider:
    """One kind of judge backend and the model ids it answers for.

    Attributes:
        name: shown in messages and docs.
        build: makes the backend for one model id.
        prefixes: model ids starting with one of these belong to it (``""`` claims all).
        suffixes: model ids ending with one of these belong to it too.
        dev_only: a test judge, refused outside dev mode.
        decoder: for a judge decoded in this process, the identity of its decode (what moves
            its scores beyond the model id); hashed into the measurement era.
    """

    name: str
    build: BackendBuilder
    prefixes: tuple[str, ...] = ()
    suffixes: tuple[str, ...] = ()
    dev_only: bool = False
    decoder: Callable[[], str] | None = None

    def claims(self, model: str) -> bool:
        """Whether ``model`` names a backend of this provider."""
        return model.startswith(self.prefixes) or model.endswith(self.suffixes)


def quiet_litellm() -> None:
    """Stop litellm printing its help banners ("Provider List: ...", "Give Feedback ...") on
    stdout: they would corrupt a command's output (``judge score --json``). The error itself
    still reaches the caller as an exception."""
    import litellm

    litellm.suppress_debug_info = True


def _scripted(model: str) -> JudgeBackend:
    from judge.judging.scripted import scripted_backend

    return scripted_backend(model)


def _embedded(model: str) -> JudgeBackend:
    from judge.judging.embedded import EmbeddedBackend, register_embedded_provider

    quiet_litellm()
    register_embedded_provider()
    return EmbeddedBackend(model)


def _embedded_decoder() -> str:
    from judge.judging.embedded import decode_identity

    return decode_identity()


def _router(model: str) -> JudgeBackend:
    from judge.judging.router import router_backend

    quiet_litellm()
    return router_backend(model)


def _litellm(model: str) -> JudgeBackend:
    quiet_litellm()
    return LiteLLMBackend(model)


LITELLM = Provider("litellm", _litellm, prefixes=("",))
_providers: list[Provider] = [
    Provider("scripted", _scripted, prefixes=("scripted/",), dev_only=True),
    Provider("embedded", _embedded, prefixes=("embedded/",), decoder=_embedded_decoder),
    Provider("router", _router, prefixes=("router:",), suffixes=(".yaml", ".yml")),
]


def register(provider: Provider) -> None:
    """Add a provider, or replace the one of the same name; it is asked before litellm,
    which takes every model id no other provider claims."""
    _providers[:] = [p for p in _providers if p.name != provider.name] + [provider]


def providers() -> list[Provider]:
    """Every provider in the order they are asked, litellm last."""
    return [*_providers, LITELLM]


def provider_for(model: str) -> Provider:
    """The provider a model id belongs to (litellm when no other claims it)."""
    return next(p for p in providers() if p.claims(model))


def refusal(model: str, *, dev_mode: bool) -> str | None:
    """Why ``model`` may not judge here (a test judge outside dev mode), or None; the text
    starts with the model id, for the caller to say where it came from. A judge panel
    (ids joined by commas) is refused when any member is."""
    from judge.judging.panel import panel_models

    members = panel_models(model)
    if len(members) > 1:
        return next((r for m in members if (r := refusal(m, dev_mode=dev_mode))), None)
    provider = provider_for(model)
    if provider.dev_only and not dev_mode:
        return (
            f"{model!r} is a test-only judge ({provider.name}) that never really scores "
            "a run; it only works with JUDGE_DEV_MODE=1 (local development): set a real judge model"
        )
    return None


def startup_check(model: str) -> ModelCheck:
    """Offline check of each litellm model in ``model`` (every member of a panel): the first
    refusal found, else the first warning (judge/judging/model_check.py)."""
    from judge.judging.panel import panel_models

    checks = [check_model(m) for m in panel_models(model) if provider_for(m) is LITELLM]
    refusal_text = next((c.refusal for c in checks if c.refusal), None)
    warning = next((c.warning for c in checks if c.warning), None)
    return ModelCheck(refusal_text, None if refusal_text else warning)


def decoder_identities(model: str) -> dict[str, str]:
    """The decode identity of every judge of ``model`` (a panel's members too) decoded in this
    process, by model id; empty for remote judges, whose decode is the server's business."""
    from judge.judging.panel import panel_models

    return {
        m: provider.decoder()
        for m in panel_models(model)
        if (provider := provider_for(m)).decoder is not None
    }


def dev_mode_from_environment() -> bool:
    """Whether ``JUDGE_DEV_MODE`` is on, parsed as a pydantic bool like the settings field.

    The judging layer sits below :mod:`judge.settings`, so it reads the one variable itself;
    a value pydantic cannot read as a bool counts as off.
    """
    raw = os.environ.get("JUDGE_DEV_MODE", "").strip()
    if not raw:
        return False
    try:
        return TypeAdapter(bool).validate_python(raw)
    except ValidationError:
        return False


def backend_for(model: str, *, dev_mode: bool | None = None) -> JudgeBackend:
    """The backend for a model id, from the provider that claims it.

    Args:
        model: a model id (see the table in this module's docstring).
        dev_mode: whether test judges are allowed; None reads ``JUDGE_DEV_MODE``
            (:func:`dev_mode_from_environment`, parsed as the settings parse it).

    Raises:
        ConfigError: a test judge outside dev mode, or a malformed id for its provider.
    """
    if dev_mode is None:
        dev_mode = dev_mode_from_environment()
    if (reason := refusal(model, dev_mode=dev_mode)) is not None:
        raise ConfigError(f"judge model {reason}")
    from judge.judging.panel import PanelBackend, panel_models

    members = panel_models(model)
    if len(members) > 1:
        return PanelBackend([backend_for(m, dev_mode=dev_mode) for m in members])
    return provider_for(model).build(model)
