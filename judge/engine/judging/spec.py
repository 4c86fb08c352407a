"""The value a judge id resolves to (:class:`JudgeSpec`) and the shape of a provider's registry
entry (:class:`ProviderEntry`); :mod:`judge.engine.judging.registry` holds the table and the parse,
and re-exports these names."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

from judge.core.errors import ConfigError
from judge.engine.judging.backends import JudgeBackend, ServingProfile
from judge.engine.judging.environment import JudgingEnvironment
from judge.engine.judging.model_check import ModelCheck


@dataclass(frozen=True)
class Capabilities:
    """What a judge's replies can carry.

    Attributes:
        logprobs: token log-probabilities with alternatives, from which the expected score
            is read (docs/judge-signal.md).
        structured_output: the provider enforces the verdict's JSON schema (or a grammar).
    """

    logprobs: bool = False
    structured_output: bool = False


@dataclass(frozen=True)
class MemberSpec:
    """One judge model, resolved: the unit a provider builds a backend for.

    Attributes:
        model: the model id, as given.
        provider: the registry entry that claims it.
        profile: how to talk to its serving engine.
        decoder: for a judge decoded in this process, the identity of its decode (what moves
            its scores beyond the model id, hashed into the measurement era); else None.
        env: the settings its provider reads when it builds the backend.
    """

    model: str
    provider: ProviderEntry
    profile: ServingProfile
    decoder: str | None
    env: JudgingEnvironment

    @functools.cached_property
    def capabilities(self) -> Capabilities:
        """Asked of the provider on first use (litellm's answer loads litellm)."""
        return self.provider.capabilities(self.model)


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
    def is_panel(self) -> bool:
        return len(self.members) > 1

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
        """The decode identity of every member decoded in this process, by model id; empty
        for remote judges, whose decode is the server's business."""
        return {m.model: m.decoder for m in self.members if m.decoder is not None}

    def refusal(self, *, dev_mode: bool) -> str | None:
        """Why this judge may not judge here (a test judge outside dev mode), or None; the text
        starts with the model id, for the caller to say where it came from."""
        member = next((m for m in self.members if m.provider.dev_only and not dev_mode), None)
        if member is None:
            return None
        return (
            f"{member.model!r} is a test-only judge ({member.provider.name}) that never really "
            "scores a run; it only works with JUDGE_DEV_MODE=1 (local development): set a real "
            "judge model"
        )


def _plain_profile(model: str, env: JudgingEnvironment) -> ServingProfile:
    return ServingProfile()


def _no_capabilities(model: str) -> Capabilities:
    return Capabilities()


@dataclass(frozen=True)
class ProviderEntry:
    """One provider: the model ids it claims and everything the rest of the package asks of it.

    Attributes:
        name: shown in messages and docs.
        build: makes the backend for one resolved model.
        prefixes: model ids starting with one of these belong to it (``""`` claims all).
        suffixes: model ids ending with one of these belong to it too.
        applies: where set, it claims those ids only under settings for which this holds (the
            OpenAI-compatible client takes ``openai/`` ids only when a base of one's own is set).
        dev_only: a test judge, refused outside dev mode.
        profile: the serving profile of one of its model ids.
        capabilities: what one of its models' replies can carry.
        decoder: for a judge decoded in this process, the identity of its decode.
        check: an offline start-up check of one of its model ids (``judge serve``).
        note: a word every scorecard it judges carries (e.g. that its scores are weak).
    """

    name: str
    build: Callable[[MemberSpec], JudgeBackend]
    prefixes: tuple[str, ...] = ()
    suffixes: tuple[str, ...] = ()
    applies: Callable[[JudgingEnvironment], bool] | None = None
    dev_only: bool = False
    profile: Callable[[str, JudgingEnvironment], ServingProfile] = field(default=_plain_profile)
    capabilities: Callable[[str], Capabilities] = field(default=_no_capabilities)
    decoder: Callable[[JudgingEnvironment], str] | None = None
    check: Callable[[str, JudgingEnvironment], ModelCheck] | None = None
    note: str | None = None

    def claims(self, model: str, env: JudgingEnvironment) -> bool:
        """Whether ``model`` names a backend of this provider under the settings ``env``."""
        named = model.startswith(self.prefixes) or model.endswith(self.suffixes)
        return named and (self.applies is None or self.applies(env))


def member_ids(model: str) -> list[str]:
    """The models of a judge id: one for a single judge, several for a panel (ids joined by
    commas).

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
