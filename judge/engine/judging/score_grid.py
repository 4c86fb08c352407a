"""Probability-weighted verdicts: the judge's own distribution over the score grid, read from
the token log-probabilities of the lead and tenths tokens of the score (no I/O; the reading
is docs/judge-signal.md, "From score tokens to the grid")."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from judge.core.domain.judging import ScoreMode
from judge.core.integrity import linear

#: The score grid every distribution is stated on.
GRID: tuple[float, ...] = tuple(round(i / 10, 1) for i in range(11))

_SCORE_KEY = linear.compile(r'"score"\s*:\s*')
_WHOLE = linear.compile(r"0?\.\d+|1(?:\.0*)?")
_DIGITS = linear.compile(r"\d+")


class TokenStep(NamedTuple):
    """One generated token, its log-probability and the alternatives a backend reported at
    its position (``top``: log-probabilities by token text; may hold the chosen token)."""

    token: str
    logprob: float
    top: dict[str, float]


class ScoreDistribution(BaseModel):
    """A pass's distribution over :data:`GRID`, its expected value and its entropy."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    probabilities: list[float] = Field(min_length=len(GRID), max_length=len(GRID))
    expected: float = Field(ge=0.0, le=1.0)
    entropy_bits: float = Field(ge=0.0, description="Shannon entropy over the grid, in bits")
    partial: bool = Field(
        default=False, description="the zero branch's tenths were not seen; its mass was put on 0.0"
    )


def grid_index(value: float) -> int:
    """The grid point nearest ``value`` (halves round up), clamped to the grid."""
    return max(0, min(len(GRID) - 1, math.floor(value * 10 + 0.5 + 1e-9)))


def distribution(probabilities: Sequence[float], *, partial: bool = False) -> ScoreDistribution:
    """Normalise masses on the grid and compute the expected value and entropy (ValueError:
    not eleven non-negative finite masses with a positive sum)."""
    if len(probabilities) != len(GRID) or any(p < 0 or not math.isfinite(p) for p in probabilities):
        raise ValueError(f"a grid distribution takes {len(GRID)} non-negative finite masses")
    total = math.fsum(probabilities)
    if total <= 0:
        raise ValueError("a grid distribution needs a positive total mass")
    probs = [p / total for p in probabilities]
    expected = math.fsum(p * g for p, g in zip(probs, GRID, strict=True))
    entropy = -math.fsum(p * math.log2(p) for p in probs if p > 0)
    return ScoreDistribution(
        probabilities=probs,
        expected=min(1.0, max(0.0, expected)),
        entropy_bits=max(0.0, entropy),
        partial=partial,
    )


def _probabilities(step: TokenStep) -> dict[str, float]:
    """Alternatives of a step as probabilities by stripped text (the chosen one always in)."""
    top = dict(step.top)
    top.setdefault(step.token, step.logprob)
    out: dict[str, float] = {}
    for text, logprob in top.items():
        key = text.strip()
        out[key] = out.get(key, 0.0) + math.exp(logprob)
    return out


def tenths_masses(alternatives: Mapping[str, float]) -> list[float] | None:
    """Masses on the grid from the digit alternatives after ``0.`` (log-probabilities by text)."""
    masses = [0.0] * len(GRID)
    for text, logprob in alternatives.items():
        digits = text.strip()
        if _DIGITS.fullmatch(digits):
            masses[grid_index(float("0." + digits))] += math.exp(logprob)
    return masses if any(masses) else None


def score_token(text: str, steps: Sequence[TokenStep]) -> int | None:
    """Index of the step holding the first character of the last ``"score":`` value."""
    if "".join(s.token for s in steps) != text:
        return None
    found = list(_SCORE_KEY.finditer(text))
    if not found:
        return None
    start, end = found[-1].end(), 0
    for n, step in enumerate(steps):
        end += len(step.token)
        if end > start:
            return n
    return None


def grid_distribution(
    text: str, steps: Sequence[TokenStep], *, zero_branch: Mapping[str, float] | None = None
) -> ScoreDistribution | None:
    """The distribution of the verdict's score over the grid, or None when it cannot be read
    (the tokens of ``steps`` must spell ``text`` exactly). ``zero_branch``: the tenths digit's
    alternatives after ``0.`` when the sampled path did not go through it (a probe)."""
    k = score_token(text, steps)
    if k is None:
        return None
    lead = _probabilities(steps[k])
    masses = [0.0] * len(GRID)
    zero = 0.0
    for alt, p in lead.items():
        if alt in ("0", "0."):
            zero += p
        elif _WHOLE.fullmatch(alt):
            masses[grid_index(float(alt))] += p
    if not any(masses) and zero == 0.0:
        return None
    chosen = steps[k].token.strip()
    tenths, partial = _zero_branch(chosen, steps, k, zero_branch)
    if tenths is None:
        masses[0] += zero
    else:
        share = math.fsum(tenths)
        masses = [m + zero * t / share for m, t in zip(masses, tenths, strict=True)]
    return distribution(masses, partial=partial and zero > 0)


def _zero_branch(
    chosen: str, steps: Sequence[TokenStep], k: int, probe: Mapping[str, float] | None
) -> tuple[list[float] | None, bool]:
    """The zero branch's tenths masses, and whether they were unseen (then None, True)."""
    if chosen == "0." and k + 1 < len(steps):
        return tenths_masses(steps[k + 1].top or {steps[k + 1].token: steps[k + 1].logprob}), False
    if chosen == "0":
        if k + 2 < len(steps) and steps[k + 1].token == ".":
            step = steps[k + 2]
            return tenths_masses({**step.top, step.token: step.logprob}), False
        return None, False  # a bare "0": the zero branch is 0.0
    if probe is not None:
        return tenths_masses(probe), False
    return None, True


def _get(obj: Any, name: str) -> Any:
    return obj.get(name) if isinstance(obj, Mapping) else getattr(obj, name, None)


def steps_from_logprobs(logprobs: Any) -> list[TokenStep] | None:
    """Token steps from a chat completion's ``choice.logprobs``, or None when it has none:
    OpenAI's chat shape (``content``) or the legacy completions shape (``tokens``,
    ``token_logprobs``, ``top_logprobs``), which llama-cpp-python's server returns."""
    if logprobs is None:
        return None
    content = _get(logprobs, "content")
    try:
        if content:
            return [
                TokenStep(
                    str(_get(c, "token")),
                    float(_get(c, "logprob")),
                    {
                        str(_get(t, "token")): float(_get(t, "logprob"))
                        for t in (_get(c, "top_logprobs") or [])
                    },
                )
                for c in content
            ]
        tokens, chosen, top = (
            _get(logprobs, k) for k in ("tokens", "token_logprobs", "top_logprobs")
        )
        if tokens and chosen and len(tokens) == len(chosen):
            tops = top if top and len(top) == len(tokens) else [{}] * len(tokens)
            return [
                TokenStep(str(t), float(lp), {str(k): float(v) for k, v in (alt or {}).items()})
                for t, lp, alt in zip(tokens, chosen, tops, strict=True)
            ]
    except (TypeError, ValueError):
        return None
    return None


def score_of_pass(sampled: float | None, expected: float | None, mode: ScoreMode) -> float | None:
    """The score a pass counts with: the expected value in ``expected`` mode when there is
    one, else the sampled score."""
    if mode == "expected" and sampled is not None and expected is not None:
        return expected
    return sampled
