"""Adaptive passes: more passes only where a trait's passes disagree, carried out in rounds
(docs/scoring.md, "Adaptive passes"). Decisions depend only on the passes' scores, so a
resumed run takes the same rounds, and the card replays them from its passes (:func:`decide`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from judge.core.domain.judging import JudgePass
from judge.core.domain.passes import PassDecision, PassPolicy
from judge.engine.judging.backends import JudgeBackend
from judge.engine.judging.runner import OnPass, PassKey, PassSpec, RunnerConfig, run_passes


class Round(NamedTuple):
    """One round of passes: by which judge (its position in the panel), and which indices."""

    judge: int
    first: int
    size: int

    def holds(self, index: int) -> bool:
        return self.first <= index < self.first + self.size


def rounds(policy: PassPolicy, judges: int) -> list[Round]:
    """The rounds a policy can take: the floor, then the rest up to ``max`` for one judge;
    each judge's ``floor`` passes in panel order (pass ``j * floor + i``), within ``max``."""
    if judges <= 1:
        later = [Round(0, policy.floor, policy.max - policy.floor)] if policy.adaptive else []
        return [Round(0, 0, policy.floor), *later]
    starts = range(0, min(judges * policy.floor, policy.max), policy.floor)
    return [Round(j, s, min(policy.floor, policy.max - s)) for j, s in enumerate(starts)]


def pass_spread(passes: Sequence[JudgePass]) -> float | None:
    """Highest minus lowest score of the scored passes; over the expected scores when every
    scored pass has a distribution (a finer measure of disagreement). None under two."""
    scored = [p for p in passes if p.score is not None]
    if len(scored) < 2:
        return None
    expected = [p.expected_score for p in scored]
    values = (
        [v for v in expected if v is not None]
        if all(v is not None for v in expected)
        else [p.score for p in scored if p.score is not None]
    )
    return round(max(values) - min(values), 9)


def goes_on(passes: Sequence[JudgePass], policy: PassPolicy) -> bool:
    """Whether a trait with these passes so far gets the next round."""
    spread = pass_spread(passes)
    return spread is None or spread > policy.spread


def _first_round_reading(spread: float | None, policy: PassPolicy) -> tuple[str, str]:
    where = f"its first {policy.floor} passes"
    if spread is not None and spread <= policy.spread:
        return "agreed", f"{where} agree (spread {spread:.2f} <= {policy.spread:g})"
    if spread is None:
        return "too_few_scored", f"fewer than two of {where} were scored"
    return "disagreed", f"{where} spread {spread:.2f} > {policy.spread:g}"


def decide(passes: Sequence[JudgePass], policy: PassPolicy, judges: Sequence[str]) -> PassDecision:
    """Replay the policy on one trait's passes: how many it took, in how many rounds, and why."""
    plan = rounds(policy, len(judges))
    taken = [r for r in plan if any(r.holds(p.index) for p in passes)]
    first = [p for p in passes if plan[0].holds(p.index)]
    spread = pass_spread(first)
    reason, why = _first_round_reading(spread, policy)
    more = len(passes) - len(first)
    if more and len(judges) > 1:
        escalated = ", ".join(judges[r.judge] for r in taken[1:])
        why += f": escalated to {escalated} ({more} more passes, max {policy.max})"
    elif more:
        why += f": {more} more passes (max {policy.max})"
    return PassDecision(
        passes=len(passes), rounds=len(taken), spread=spread, reason=reason, note=why
    )


async def run_rounds(
    specs: Sequence[PassSpec],
    judges: Sequence[JudgeBackend],
    policy: PassPolicy,
    *,
    known_turns: set[int],
    config: RunnerConfig,
    done: Mapping[PassKey, JudgePass],
    on_pass: OnPass | None = None,
) -> list[JudgePass]:
    """Every pass the policy asks for, round after round, from ``specs`` (every pass a trait
    could take); ``judges`` is one backend or a panel's members in order, and ``done`` the
    passes of a resumed run, which count and are not judged again."""
    made: list[JudgePass] = []
    open_traits = list(dict.fromkeys(s.trait for s in specs))
    for n, rnd in enumerate(rounds(policy, len(judges))):
        if n:
            open_traits = [
                t for t in open_traits if goes_on([p for p in made if p.trait == t], policy)
            ]
        todo = [s for s in specs if s.trait in open_traits and rnd.holds(s.index)]
        if not todo:
            break
        made += await run_passes(
            todo,
            judges[rnd.judge],
            known_turns=known_turns,
            config=config,
            done=done,
            on_pass=on_pass,
        )
    return made
