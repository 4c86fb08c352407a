"""An owner's escalation target: a share of agreement in (0, 1], a risk below one half, a
seed; a typo or a value out of range fails loudly."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from judge.core.domain.escalation import EscalationTargetCreate


def test_a_target_defaults_to_a_ten_percent_risk_and_seed_zero() -> None:
    body = EscalationTargetCreate(target=0.8)

    assert (body.target, body.risk, body.seed) == (0.8, 0.1, 0)


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"target": 0.0}, "target"),
        ({"target": 1.2}, "target"),
        ({"target": 0.8, "risk": 0.5}, "risk"),
        ({"target": 0.8, "seed": -1}, "seed"),
        ({"target": 0.8, "trget": 0.9}, "trget"),
        ({"target": float("nan")}, "target"),
    ],
)
def test_a_target_out_of_range_or_with_a_typo_is_refused(
    fields: dict[str, float], named: str
) -> None:
    with pytest.raises(ValidationError, match=named):
        EscalationTargetCreate.model_validate(fields)
