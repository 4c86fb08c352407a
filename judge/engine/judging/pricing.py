"""Prices and prompt token counts before a judge call, from what litellm ships, without
importing litellm (whose import costs seconds); docs/service.md, "Cost and budgets". A model
the price map lacks, or lists at 0 both ways, has no price: ``None``, never 0.
"""

from __future__ import annotations

import importlib.util
import json
import os
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from judge.core.domain.cost import CostEstimate
from judge.engine.judging.backends import JudgeRequest
from judge.engine.judging.providers.litellm_loader import load_litellm

#: The embedded judge runs in this process: it is paid for in CPU seconds, not dollars.
IN_PROCESS_PREFIXES = ("embedded/", "scripted/")


class Price(NamedTuple):
    """Dollars per prompt token and per completion token."""

    prompt: float
    completion: float


def _litellm_dir() -> Path | None:
    spec = importlib.util.find_spec("litellm")
    return None if spec is None or spec.origin is None else Path(spec.origin).parent


@lru_cache(maxsize=1)
def price_map() -> Mapping[str, Mapping[str, Any]]:
    """litellm's bundled price map (empty when litellm is not installed)."""
    folder = _litellm_dir()
    path = None if folder is None else folder / "model_prices_and_context_window_backup.json"
    if path is None or not path.is_file():
        return {}
    table: dict[str, Mapping[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return table


@lru_cache(maxsize=64)
def price_of(model: str) -> Price | None:
    """The model's price in litellm's map, tried with and without its provider prefix."""
    if model.startswith(IN_PROCESS_PREFIXES):
        return None
    table = price_map()
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


@lru_cache(maxsize=1)
def _encoding() -> Any:
    """tiktoken's cl100k_base from litellm's bundled files (None: it cannot be loaded)."""
    folder = _litellm_dir()
    if folder is not None:
        os.environ.setdefault(
            "TIKTOKEN_CACHE_DIR", str(folder / "litellm_core_utils" / "tokenizers")
        )
    try:
        import tiktoken

        return tiktoken.get_encoding("cl100k_base")
    except Exception:  # noqa: BLE001 - no local tokenizer file: litellm counts instead
        return None


def _text(messages: Sequence[Mapping[str, Any]]) -> str:
    parts = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            content = " ".join(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
        parts.append(f"{message.get('role', '')}\n{content or ''}")
    return "\n".join(parts)


def prompt_tokens(model: str, request: JudgeRequest) -> int:
    """Tokens of the request's prompt (cl100k_base: an approximation for other tokenizers)."""
    encoding = _encoding()
    if encoding is not None:
        return len(encoding.encode(_text(request.messages), disallowed_special=()))
    litellm = load_litellm()
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
            if key not in counted:  # a request priced for several seats is counted once
                counted[key] = prompt_tokens(item.model, request)
            prompt, completion = counted[key] * times, request.max_tokens * times
            total_prompt += prompt
            total_completion += completion
            n += times
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
