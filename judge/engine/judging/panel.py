"""Judge panels (``--judge a,b,c``): several judge models, each making its full set of passes
on every trait. Judge ``j`` (0-based) of a panel with ``n`` passes per judge makes passes
``j * n`` to ``j * n + n - 1``, so pass indices stay unique per (seat, trait) in the store.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from judge.core.errors import ConfigError, PermanentJudgeError
from judge.engine.judging.backends import JudgeBackend
from judge.engine.judging.runner import PassSpec


class PanelBackend:
    """The members of a panel; the pipeline runs each member's passes in turn. It has no
    ``complete``, so what takes a :class:`JudgeBackend` cannot be handed a panel by mistake."""

    def __init__(self, members: Sequence[JudgeBackend]) -> None:
        if len(members) < 2:
            raise ConfigError("a judge panel needs at least two models")
        self.members = list(members)
        self.model = ",".join(m.model for m in members)


#: What judges a run: one backend, or a panel of them.
Judge = JudgeBackend | PanelBackend


def panel_members(backend: Judge) -> list[JudgeBackend]:
    """The backends that judge: a panel's members, or the backend itself."""
    return backend.members if isinstance(backend, PanelBackend) else [backend]


def single_judge(backend: Judge) -> JudgeBackend:
    """The backend itself, for a use that asks one judge one question (PermanentJudgeError:
    a panel, which answers no single request)."""
    if isinstance(backend, PanelBackend):
        raise PermanentJudgeError("a judge panel answers through its members, one pass set each")
    return backend


def panel_slot(specs: Sequence[PassSpec], slot: int, passes: int) -> list[PassSpec]:
    """The specs of panel member ``slot``: pass indices shifted by ``slot * passes``."""
    if slot == 0:
        return list(specs)
    return [dataclasses.replace(s, index=s.index + slot * passes) for s in specs]
