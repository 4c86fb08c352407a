"""What judging cost, what it was expected to cost, and the limits on it (docs/service.md,
"Cost and budgets"); an unpriced cost is ``None`` with a note, never 0."""

from __future__ import annotations

from pydantic import Field

from judge.core.domain.outputs import Strict


def priced_usd(cost_usd: float | None, tokens: int) -> float | None:
    """A call's dollars, or None where it had no price: litellm reports 0 for a model its price
    map does not know, so 0 beside a non-zero token count is no price (the one rule)."""
    if cost_usd is None or (cost_usd <= 0 and tokens > 0):
        return None
    return cost_usd


class CostEstimate(Strict):
    """What a run (or a pairwise comparison) is expected to cost before any judge call.

    Prompt tokens are counted on the prompts themselves; every reply is taken at its
    ``max_tokens`` ceiling and no prompt token as cached, so the estimate is an upper bound.
    """

    n_passes: int = Field(ge=0)
    prompt_tokens: int = Field(ge=0)
    completion_tokens: int = Field(ge=0, description="the replies at their max_tokens ceiling")
    cost_usd: float | None = Field(default=None, ge=0.0)
    cost_note: str | None = Field(default=None, description="why cost_usd is missing")
    per_seat_tokens: dict[str, int] = Field(default_factory=dict)
    per_seat_usd: dict[str, float] = Field(default_factory=dict)

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class Cost(Strict):
    """What the judge calls of a seat, a run or a comparison cost, summed over their passes."""

    n_passes: int = Field(ge=0)
    n_attempts: int = Field(ge=0)
    prompt_tokens: int = Field(ge=0, description="prompt tokens, the cached ones included")
    cached_prompt_tokens: int = Field(ge=0)
    completion_tokens: int = Field(ge=0)
    cost_usd: float | None = Field(
        default=None, ge=0.0, description="None where a pass had no price (see cost_note)"
    )
    cost_note: str | None = None
    wall_s: float = Field(default=0.0, ge=0.0, description="summed latency of the judge calls")
    cpu_s: float | None = Field(
        default=None,
        ge=0.0,
        description="process CPU seconds spent judging, for the embedded (in-process) judge only",
    )
    estimate: CostEstimate | None = Field(
        default=None, description="what the run was expected to cost before it started"
    )
    screen_calls: int = Field(
        default=0,
        ge=0,
        description="of n_passes, the calls of the judge's own screen (docs/integrity.md), "
        "counted in every figure here",
    )

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class Budget(Strict):
    """`eval_budgets`: limits on judging in dollars and tokens (prompt plus completion);
    ``None`` is no limit, a day is the UTC calendar day."""

    run_usd: float | None = Field(default=None, gt=0.0, le=1e6)
    run_tokens: int | None = Field(default=None, gt=0)
    agent_day_usd: float | None = Field(default=None, gt=0.0, le=1e6)
    agent_day_tokens: int | None = Field(default=None, gt=0)
    platform_day_usd: float | None = Field(default=None, gt=0.0, le=1e6)
    platform_day_tokens: int | None = Field(default=None, gt=0)

    @property
    def unlimited(self) -> bool:
        return all(v is None for v in self.model_dump().values())


class Spent(Strict):
    """Dollars and tokens already spent against one limit (today's spend, before a run)."""

    usd: float = Field(default=0.0, ge=0.0)
    tokens: int = Field(default=0, ge=0)


class Limit(Strict):
    """One bound a run is held to: which spend counts (every seat, or the seats of one agent),
    how much is already spent, and how far it may go."""

    scope: str = Field(description="run, agent <id> per day, or platform per day")
    usd: float | None = None
    tokens: int | None = None
    seats: frozenset[str] | None = Field(
        default=None, description="the seats whose passes count; None: every seat"
    )
    spent: Spent = Spent()
