"""Prices and prompt token counts before a judge call, from litellm (docs/service.md,
"Cost and budgets").

A model's price is litellm's price map entry (bundled with litellm, read offline); a model
the map lacks, or lists at 0 both ways, has no price: ``None``, never 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from judge.domain.cost import CostEstimate
from judge.judging.backends import JudgeRequest

#: The embedded judge runs in this process: it is paid for in CPU seconds, not dollars.
IN_PROCESS_PREFIXES = ("embedded/", "scripted/")


class Price(NamedTuple):
    """Dollars per prompt token and per completion token."""

    prompt: float
    completion: float


@lru_cache(maxsize=64)
def price_of(model: str) -> Price | None:
    """The model's price in litellm's map, tried with and without its provider prefix."""
    if model.startswith(IN_PROCESS_PREFIXES):
        return None
    import litellm

    table: Mapping[str, Mapping[str, Any]] = litellm.model_cost
    for name in (model, model.split("/", 1)[-1]):
        entry = table.get(name)
        if entry is None:
            continue
        price = Price(
            float(entry.get("input_cost_per_token") or 0.0),
            float(entry.get("output_cost_per_token") or 0.0),
        )
        return price if price.prompt > 0 or price.completion > 0 else None
    return None


def no_price_note(models: Sequence[str]) -> str:
    return (
        f"no price for {', '.join(models)} in litellm's price map (an in-process or unlisted "
        "model): the estimate counts tokens only"
    )


def prompt_tokens(model: str, request: JudgeRequest) -> int:
    """Tokens of the request's prompt, by the model's tokenizer where litellm knows it (a
    general one otherwise)."""
    import litellm

    return int(litellm.token_counter(model=model, messages=request.messages))


class SeatRequests(NamedTuple):
    """The requests one judge model sends for one seat: each distinct prompt and how often."""

    seat: str
    model: str
    requests: Sequence[tuple[JudgeRequest, int]]


def estimate(work: Sequence[SeatRequests]) -> CostEstimate:
    """Tokens and dollars of the calls in ``work``; every reply at its ``max_tokens``."""
    counted: dict[tuple[str, int], int] = {}
    seat_tokens: dict[str, int] = {}
    seat_usd: dict[str, float] = {}
    unpriced: list[str] = []
    total_prompt = total_completion = n = 0
    for item in work:
        price = price_of(item.model)
        if price is None and item.model not in unpriced:
            unpriced.append(item.model)
        for request, times in item.requests:
            key = (item.model, id(request))
            counted.setdefault(key, prompt_tokens(item.model, request))
            prompt, completion = counted[key] * times, request.max_tokens * times
            total_prompt, total_completion, n = (
                total_prompt + prompt,
                total_completion + completion,
                n + times,
            )
            seat_tokens[item.seat] = seat_tokens.get(item.seat, 0) + prompt + completion
            if price is not None:
                usd = prompt * price.prompt + completion * price.completion
                seat_usd[item.seat] = seat_usd.get(item.seat, 0.0) + usd
    return CostEstimate(
        n_passes=n,
        prompt_tokens=total_prompt,
        completion_tokens=total_completion,
        cost_usd=None if unpriced else sum(seat_usd.values()),
        cost_note=no_price_note(unpriced) if unpriced else None,
        per_seat_tokens=seat_tokens,
        per_seat_usd={} if unpriced else seat_usd,
    )
