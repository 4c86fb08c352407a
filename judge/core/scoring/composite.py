"""The composite: the mean of capability trait means. Safety traits stay out."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import NamedTuple

from judge.core.domain.judging import TraitResult


class Composite(NamedTuple):
    value: float | None
    note: str | None


def composite_score(
    traits: Mapping[str, TraitResult], *, counted: Collection[str], left_out: Sequence[str] = ()
) -> Composite:
    """Mean of the ``counted`` traits' means (their pack declares ``in_composite``); withheld
    (None, with a note) when a capability trait is below the pass floor or ``left_out``: a mean
    over part of the pack would read as the composite yet measure less."""
    if left_out:
        names = ", ".join(sorted(left_out))
        return Composite(None, f"withheld: capability traits not judged: {names}")
    members = {name: t for name, t in traits.items() if name in counted}
    if not members:
        return Composite(None, "no capability traits were judged")
    incomplete = sorted(name for name, t in members.items() if not t.complete or t.mean is None)
    if incomplete:
        return Composite(None, f"withheld: traits below the pass floor: {', '.join(incomplete)}")
    means = [t.mean for t in members.values() if t.mean is not None]
    return Composite(sum(means) / len(means), None)
