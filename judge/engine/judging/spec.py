"""The value a judge id resolves to (:class:`JudgeSpec`) and a provider's registry entry
(:class:`ProviderEntry`); :mod:`judge.engine.judging.registry` holds the table and the parse."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from judge.core.domain.judging import ReplyFormat
from judge.core.errors import ConfigError
from judge.engine.judging.backends import JudgeBackend, ServingProfile
from judge.engine.judging.environment import JudgingEnvironment
from judge.engine.judging.model_check import ModelCheck


@dataclass(frozen=True)
class Capabilities:
    """What a judge's replies can carry: token log-probabilities with alternatives
    (docs/judge-signal.md), and a JSON schema (or grammar) the provider enforces."""

    logprobs: bool = False
    structured_output: bool = False


@dataclass(frozen=True)
class MemberSpec:
    """One judge model, resolved: the unit a provider builds a backend for. ``decoder`` is,
    for a judge decoded in this process, the identity of its decode (hashed into the
    measurement era); else None."""

    model: str
    provider: ProviderEntry
    profile: ServingProfile
    decoder: str | None
    env: JudgingEnvironment

    @functools.cached_property
    def capabilities(self) -> Capabilities:
        """Asked of the provider on first use (litellm's answer loads litellm)."""
        return self.provider.capabilities(self.model)

    @property
    def declared_format(self) -> ReplyFormat:
        """The reply format this judge's id declares (docs/scoring.md, "Reply format"): the
        grammar of a judge decoded in this process, else ``json_schema`` where its provider
        enforces a schema and ``none`` where it does not. A server of one's own may take
        another (the era then says which)."""
        if self.decoder is not None:
            return "grammar"
        return "json_schema" if self.capabilities.structured_output else "none"


@dataclass(frozen=True)
class JudgeSpec:
    """A judge id parsed once: one member for a single judge, several for a panel."""

    model: str
    members: tuple[MemberSpec, ...]

    @property
    def models(self) -> list[str]:
        """The member ids, in the order given."""
        return [m.model for m in self.members]

    @property
    def note(self) -> str | None:
        """The first member's provider note, for the scorecard (None for most judges)."""
        return next((m.provider.note for m in self.members if m.provider.note), None)

    @property
    def test_only(self) -> bool:
        """A member is a test judge (allowed in dev mode only)."""
        return any(m.provider.dev_only for m in self.members)

    @property
    def decoders(self) -> dict[str, str]:
        """The decode identity of every member decoded in this process, by model id."""
        return {m.model: m.decoder for m in self.members if m.decoder is not None}

    def refusal(self, *, dev_mode: bool) -> str | None:
        """Why this judge may not judge here (a test judge outside dev mode), or None; the text
        starts with the model id."""
        member = next((m for m in self.members if m.provider.dev_only and not dev_mode), None)
        if member is None:
            return None
        return (
            f"{member.model!r} is a test-only judge ({member.provider.name}) that never really "
            "scores a run; it only works with JUDGE_DEV_MODE=1 (local development): set a real "
            "judge model"
        )


@dataclass(frozen=True)
class ProviderEntry:
    """One provider: the model ids it claims (by prefix, ``""`` claiming all, or suffix; only
    under settings for which ``applies`` holds, where set) and everything the rest of the
    package asks of it. ``check`` is an offline start-up check (``judge serve``); ``note`` a
    word every scorecard it judges carries (e.g. that its scores are weak)."""

    name: str
    build: Callable[[MemberSpec], JudgeBackend]
    prefixes: tuple[str, ...] = ()
    suffixes: tuple[str, ...] = ()
    applies: Callable[[JudgingEnvironment], bool] | None = None
    dev_only: bool = False
    profile: Callable[[str, JudgingEnvironment], ServingProfile] = lambda *_: ServingProfile()
    capabilities: Callable[[str], Capabilities] = lambda _: Capabilities()
    decoder: Callable[[JudgingEnvironment], str] | None = None
    check: Callable[[str, JudgingEnvironment], ModelCheck] | None = None
    note: str | None = None

    def claims(self, model: str, env: JudgingEnvironment) -> bool:
        """Whether ``model`` names a backend of this provider under the settings ``env``."""
        named = model.startswith(self.prefixes) or model.endswith(self.suffixes)
        return named and (self.applies is None or self.applies(env))


def member_ids(model: str) -> list[str]:
    """The models of a judge id: one, or several for a panel (ids joined by commas).

    Raises:
        ConfigError: an empty member or a model named twice.
    """
    models = [m.strip() for m in model.split(",")]
    if any(not m for m in models):
        raise ConfigError(
            f"judge {model!r}: a panel lists model ids separated by commas, with none empty"
        )
    if len(set(models)) != len(models):
        raise ConfigError(f"judge {model!r}: a panel names each model once")
    return models
