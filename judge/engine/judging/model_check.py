"""Offline checks of a litellm judge model id, from what litellm ships (no network): does
litellm know a provider for it, is it in litellm's model list, are the provider's keys set.
``judge serve`` runs them at start-up."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any, NamedTuple

from judge.engine.judging.environment import JudgingEnvironment, custom_openai_base
from judge.engine.judging.providers.litellm_loader import load_litellm

#: Providers served on the user's own machine or network: no key, and any model name.
LOCAL_PROVIDERS = frozenset({"ollama", "ollama_chat", "hosted_vllm", "llamafile", "lm_studio"})


class ModelCheck(NamedTuple):
    """What is wrong with a model id: ``refusal`` stops it; ``warning`` is worth a line."""

    refusal: str | None
    warning: str | None


def provider_of(model: str) -> str | None:
    """The litellm provider of ``model``, or None when litellm knows none for it."""
    litellm = load_litellm()
    try:
        return str(litellm.get_llm_provider(model=model)[1])
    except litellm.exceptions.BadRequestError:  # what it raises for every model it cannot place
        return None


def missing_keys(model: str, extra: Mapping[str, Any] | None = None) -> list[str]:
    """The credentials ``model`` needs that are not in the environment (nor in ``extra``)."""
    litellm = load_litellm()

    given = extra or {}
    if given.get("api_key") or provider_of(model) in LOCAL_PROVIDERS:
        return []
    found = litellm.validate_environment(model=model, api_base=given.get("api_base"))
    return [k for k in found.get("missing_keys", []) if "KEY" in k or "TOKEN" in k]


def unlisted(model: str, provider: str, env: JudgingEnvironment) -> str | None:
    """A warning when ``model`` is not in litellm's model list, naming the nearest entry."""
    litellm = load_litellm()
    # a server of the user's own serves whatever names it likes
    if provider in LOCAL_PROVIDERS or (provider == "openai" and custom_openai_base(None, env)):
        return None
    bare = model.split("/", 1)[1] if model.startswith(f"{provider}/") else model
    if model in litellm.model_cost or bare in litellm.model_cost:
        return None
    listed = [m for m in litellm.model_cost if "/" not in m or m.startswith(f"{provider}/")]
    nearest = difflib.get_close_matches(bare, listed, n=1, cutoff=0.75)
    hint = f" (nearest: {nearest[0]!r})" if nearest else ""
    return f"{model!r} is not in litellm's model list{hint}; scoring fails if {provider} does not know it"


def check_model(model: str, env: JudgingEnvironment) -> ModelCheck:
    """Check a litellm model id offline: a refusal for an unknown provider or a missing key."""
    provider = provider_of(model)
    if provider is None:
        return ModelCheck(
            f"{model!r}: litellm knows no provider for it; name one as provider/model, "
            "e.g. openai/gpt-4o-mini",
            None,
        )
    if keys := missing_keys(model):
        return ModelCheck(f"{model!r} needs {', '.join(keys)}, which is not set", None)
    return ModelCheck(None, unlisted(model, provider, env))
