"""Figures at the boundaries (API answers, exports, leaderboards) are given to 12 significant
digits (docs/scoring.md, "Precision"); stored values are never rounded."""

from __future__ import annotations

import json
import math
from typing import Any

SIGNIFICANT_DIGITS = 12


def round_figure(value: float) -> float:
    """``value`` to 12 significant digits; infinities and NaN unchanged."""
    if not math.isfinite(value) or value == 0:
        return value
    return float(f"{value:.{SIGNIFICANT_DIGITS}g}")


def rounded(data: Any) -> Any:
    """JSON-shaped ``data`` with every float rounded (booleans and integers untouched)."""
    if isinstance(data, float):
        return round_figure(data)
    if isinstance(data, dict):
        return {k: rounded(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [rounded(v) for v in data]
    return data


def rounded_json(text: str | bytes) -> bytes:
    """A JSON document with its numbers rounded, re-encoded compactly as UTF-8."""
    data = json.loads(text, parse_float=lambda s: round_figure(float(s)))
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
