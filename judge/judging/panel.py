"""Judge panels: several judge models, each making its full set of passes on every trait.

A panel is named by its models joined with commas (``--judge a,b,c`` or ``JUDGE_MODEL=a,b,c``).
Pass indices stay unique per (seat, trait) in the store: judge ``j`` (0-based, in the order
given) of a panel with ``n`` passes per judge makes passes ``j * n`` to ``j * n + n - 1``;
every pass also names its model.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from judge.errors import ConfigError, PermanentJudgeError
from judge.judging.backends import JudgeBackend, JudgeReply, JudgeRequest
from judge.judging.runner import PassSpec


def panel_models(model: str) -> list[str]:
    """The models of a judge id: one for a single judge, several for a panel.

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


class PanelBackend:
    """The members of a panel; the pipeline runs each member's passes in turn."""

    def __init__(self, members: Sequence[JudgeBackend]) -> None:
        if len(members) < 2:
            raise ConfigError("a judge panel needs at least two models")
        self.members = list(members)
        self.model = ",".join(m.model for m in members)

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        raise PermanentJudgeError("a judge panel answers through its members, one pass set each")


def panel_members(backend: JudgeBackend) -> list[JudgeBackend]:
    """The backends that judge: a panel's members, or the backend itself."""
    return backend.members if isinstance(backend, PanelBackend) else [backend]


def panel_slot(specs: Sequence[PassSpec], slot: int, passes: int) -> list[PassSpec]:
    """The specs of panel member ``slot``: pass indices shifted by ``slot * passes``."""
    if slot == 0:
        return list(specs)
    return [dataclasses.replace(s, index=s.index + slot * passes) for s in specs]
