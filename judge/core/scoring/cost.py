"""Cost of judging and the budget rules (docs/service.md, "Cost and budgets"); pure. A sum with
an unpriced pass in it (:func:`judge.core.domain.cost.priced_usd`) is ``None`` with a note."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple, Protocol

from judge.core.domain.cost import Budget, Cost, CostEstimate, Limit, Spent, priced_usd


class Costed(Protocol):
    """What any judge call says about its cost: a pass, the judge's screen, a coaching answer."""

    @property
    def model(self) -> str: ...
    @property
    def prompt_tokens(self) -> int | None: ...
    @property
    def completion_tokens(self) -> int | None: ...
    @property
    def cost_usd(self) -> float | None: ...


class Billed(Costed, Protocol):
    """What a pass (single-seat or pairwise) says about its own cost."""

    @property
    def cached_prompt_tokens(self) -> int | None: ...
    @property
    def attempts(self) -> int: ...
    @property
    def latency_ms(self) -> float: ...


def tokens_of(p: Costed) -> int:
    return (p.prompt_tokens or 0) + (p.completion_tokens or 0)


def priced(p: Billed) -> bool:
    """A pass has a price when its cost is positive, or zero for a call that used no token."""
    return priced_usd(p.cost_usd, tokens_of(p)) is not None


def usd_of(p: Billed) -> float:
    """The pass's dollars as they count against a limit (0 where it has no price)."""
    return priced_usd(p.cost_usd, tokens_of(p)) or 0.0


def cost_note(passes: Sequence[Billed]) -> str | None:
    """Why the dollar sum is missing: the passes without a price and their models."""
    unpriced = [p for p in passes if not priced(p)]
    if not unpriced:
        return None
    models = ", ".join(sorted({p.model for p in unpriced}))
    return (
        f"no price for {len(unpriced)} of {len(passes)} passes ({models}): the provider reports "
        "none in litellm's price map, so the cost is unknown rather than 0"
    )


def cost_of(
    passes: Sequence[Billed],
    *,
    wall_s: float | None = None,
    cpu_s: float | None = None,
    estimate: CostEstimate | None = None,
) -> Cost:
    """Passes, tokens, dollars (None with a note where any pass had no price) and seconds:
    ``wall_s`` as measured, else the calls' summed latency (overcounting calls run at once)."""
    note = cost_note(passes)
    return Cost(
        n_passes=len(passes),
        n_attempts=sum(p.attempts for p in passes),
        prompt_tokens=sum(p.prompt_tokens or 0 for p in passes),
        cached_prompt_tokens=sum(p.cached_prompt_tokens or 0 for p in passes),
        completion_tokens=sum(p.completion_tokens or 0 for p in passes),
        cost_usd=None if note else sum(usd_of(p) for p in passes),
        cost_note=note,
        wall_s=wall_s if wall_s is not None else sum(p.latency_ms for p in passes) / 1000,
        cpu_s=cpu_s,
        estimate=estimate,
    )


def limits_for(
    budget: Budget,
    *,
    seats_of_agent: Mapping[str, Iterable[str]],
    agent_spent: Mapping[str, Spent],
    platform_spent: Spent,
) -> list[Limit]:
    """The bounds one run is held to: the run's own, each agent's today, the platform's today."""
    limits = [
        Limit(scope="run", usd=budget.run_usd, tokens=budget.run_tokens),
        *_agent_limits(budget, seats_of_agent, agent_spent),
        Limit(
            scope="platform per day",
            usd=budget.platform_day_usd,
            tokens=budget.platform_day_tokens,
            spent=platform_spent,
        ),
    ]
    return [limit for limit in limits if limit.usd is not None or limit.tokens is not None]


def _agent_limits(
    budget: Budget, seats_of_agent: Mapping[str, Iterable[str]], agent_spent: Mapping[str, Spent]
) -> list[Limit]:
    return [
        Limit(
            scope=f"agent {agent} per day",
            usd=budget.agent_day_usd,
            tokens=budget.agent_day_tokens,
            seats=frozenset(seats),
            spent=agent_spent.get(agent, Spent()),
        )
        for agent, seats in sorted(seats_of_agent.items())
    ]


def _over(limit: Limit, usd: float, tokens: int, *, reached: bool) -> str | None:
    """Which bound ``usd``/``tokens`` (spent plus more) passes; ``reached``: meeting it counts."""
    # dollars are summed in floats: ten passes of $0.01 must reach $0.10
    total_usd, total_tokens = round(limit.spent.usd + usd, 9), limit.spent.tokens + tokens

    def beyond(value: float, bound: float) -> bool:
        return value >= bound if reached else value > bound

    if limit.usd is not None and beyond(total_usd, limit.usd):
        return f"the {limit.scope} limit of ${limit.usd:g} (${total_usd:.4f} with this run)"
    if limit.tokens is not None and beyond(total_tokens, limit.tokens):
        return f"the {limit.scope} limit of {limit.tokens} tokens ({total_tokens} with this run)"
    return None


class Crossing(NamedTuple):
    """A limit passed (or about to be), in words; ``daily`` when it is one of a UTC day."""

    text: str
    daily: bool


def _crossing(limit: Limit, text: str) -> Crossing:
    return Crossing(text, daily=limit.scope != "run")


def estimate_crossing(limits: Sequence[Limit], estimate: CostEstimate) -> Crossing | None:
    """The first limit the estimate would take past its bound (None: the run may start); an
    estimate without a price counts only its tokens."""
    for limit in limits:
        seats = limit.seats
        tokens = sum(
            n for seat, n in estimate.per_seat_tokens.items() if seats is None or seat in seats
        )
        usd = sum(u for seat, u in estimate.per_seat_usd.items() if seats is None or seat in seats)
        if (over := _over(limit, usd, tokens, reached=False)) is not None:
            return _crossing(limit, f"the estimate would exceed {over}")
    return None


class BudgetGuard:
    """Counts a run's passes against its limits as they finish; :meth:`crossing` says when one
    is reached, so the run stops after the trait it is judging."""

    def __init__(self, limits: Sequence[Limit]) -> None:
        self.limits = list(limits)
        self._usd: dict[str, float] = {}
        self._tokens: dict[str, int] = {}

    def record(self, seat: str, judge_pass: Billed) -> None:
        self._usd[seat] = self._usd.get(seat, 0.0) + usd_of(judge_pass)
        self._tokens[seat] = self._tokens.get(seat, 0) + tokens_of(judge_pass)

    def crossing(self) -> Crossing | None:
        """The first limit this run's passes have reached (None: all still hold)."""
        for limit in self.limits:
            seats = [s for s in self._usd if limit.seats is None or s in limit.seats]
            usd = sum(self._usd[s] for s in seats)
            tokens = sum(self._tokens[s] for s in seats)
            if (over := _over(limit, usd, tokens, reached=True)) is not None:
                return _crossing(limit, f"judging reached {over}")
        return None
