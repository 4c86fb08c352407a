"""Which provider judges a model id (:mod:`judge.engine.judging.providers` lists them; adding
one: docs/architecture.md, "Add a judge provider"), and the one parse of an id into a
:class:`JudgeSpec`: nothing else branches on a provider's name. A ``dev_only`` entry is refused
outside dev mode, so a typo in a real run never scores with a fake judge.
"""

from __future__ import annotations

from typing import Any

from judge.core.errors import ConfigError
from judge.engine.judging.backends import JudgeBackend
from judge.engine.judging.environment import JudgingEnvironment
from judge.engine.judging.model_check import ModelCheck
from judge.engine.judging.panel import Judge, PanelBackend
from judge.engine.judging.spec import Capabilities, JudgeSpec, MemberSpec, ProviderEntry, member_ids

__all__ = [
    "Capabilities",
    "JudgeSpec",
    "JudgingEnvironment",
    "MemberSpec",
    "ProviderEntry",
    "backend_for",
    "entries",
    "entry_for",
    "member_ids",
    "register",
    "resolve",
    "single_backend_for",
    "spec_of",
    "startup_check",
]


_entries: list[ProviderEntry] = []


def register(entry: ProviderEntry) -> None:
    """Add a provider, or replace the one of the same name; it is asked before litellm."""
    _entries[:] = [e for e in _entries if e.name != entry.name] + [entry]


def builtin_entries() -> list[ProviderEntry]:
    """The shipped providers that claim ids by prefix or suffix, in the order they are asked."""
    from judge.engine.judging.providers import embedded, openai_compatible, router, scripted

    return [scripted.ENTRY, embedded.ENTRY, router.ENTRY, openai_compatible.ENTRY]


def entries() -> list[ProviderEntry]:
    """Every provider in the order they are asked: the shipped ones (unless one registered
    later replaces it by name), the registered ones, litellm (which claims every id) last."""
    from judge.engine.judging.providers import litellm

    replaced = {e.name for e in _entries}
    return [*(e for e in builtin_entries() if e.name not in replaced), *_entries, litellm.ENTRY]


def entry_for(model: str, env: JudgingEnvironment | None = None) -> ProviderEntry:
    """The provider a model id belongs to under ``env`` (None: the defaults)."""
    settings = JudgingEnvironment() if env is None else env
    return next(e for e in entries() if e.claims(model, settings))


def resolve(model: str, env: JudgingEnvironment) -> JudgeSpec:
    """Parse a judge id (a model id, or a panel: ids joined by commas) into its spec.

    Raises:
        ConfigError: an empty panel member or a model named twice.
    """
    members = []
    for member in member_ids(model):
        entry = entry_for(member, env)
        decoder = entry.decoder(env) if entry.decoder is not None else None
        members.append(MemberSpec(member, entry, entry.profile(member, env), decoder, env))
    return JudgeSpec(model, tuple(members))


def spec_of(backend: object, model: str, env: JudgingEnvironment) -> JudgeSpec:
    """The spec ``backend`` was built from when it is the one of ``model``, else ``model``
    resolved (a backend made by hand carries none)."""
    spec = getattr(backend, "spec", None)
    return spec if isinstance(spec, JudgeSpec) and spec.model == model else resolve(model, env)


def startup_check(spec: JudgeSpec) -> ModelCheck:
    """Offline check of each member whose provider has one: the first refusal, else the
    first warning."""
    checks = [
        m.provider.check(m.model, m.env) for m in spec.members if m.provider.check is not None
    ]
    refusal_text = next((c.refusal for c in checks if c.refusal), None)
    warning = next((c.warning for c in checks if c.warning), None)
    return ModelCheck(refusal_text, None if refusal_text else warning)


def backend_for(spec: JudgeSpec, *, dev_mode: bool | None = None) -> Judge:
    """The backend of a judge (a panel for several members); it carries its spec.
    ``dev_mode`` None takes the spec's settings.

    Raises:
        ConfigError: a test judge outside dev mode, or a malformed id for its provider.
    """
    allowed = spec.members[0].env.dev_mode if dev_mode is None else dev_mode
    if (reason := spec.refusal(dev_mode=allowed)) is not None:
        raise ConfigError(f"judge model {reason}")
    built = [m.provider.build(m) for m in spec.members]
    backend: Any = built[0] if len(built) == 1 else PanelBackend(built)
    backend.spec = spec
    return backend  # type: ignore[no-any-return]


def single_backend_for(spec: JudgeSpec, *, dev_mode: bool | None = None) -> JudgeBackend:
    """The backend of a judge that must be one model (a pairwise comparison).

    Raises:
        ConfigError: a panel, a test judge outside dev mode, or a malformed id.
    """
    backend = backend_for(spec, dev_mode=dev_mode)
    if isinstance(backend, PanelBackend):
        raise ConfigError(
            f"judge {backend.model!r}: a panel judges runs, not pairs; name one judge model"
        )
    return backend
