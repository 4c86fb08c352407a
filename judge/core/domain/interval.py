"""One interval type, carried by the calibration report, the comparisons, the audit and the
pairwise position bias (docs/calibration.md, docs/audit.md). ``estimate`` is ``value`` on the
wire; ``value``, ``n`` and ``method`` are written only where stated, so older reports
round-trip byte for byte."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

#: Fields a report writes only when it states them (a pairwise interval has no point estimate).
_STATED_ONLY = ("estimate", "n", "method")


class Interval(BaseModel):
    """A statistic (``estimate``, ``None`` where undefined) and its confidence interval
    (``low``/``high``, ``None`` with too few resamples); ``level`` is not written (every stored
    interval is at 95%); ``n`` (items or seats) and ``method`` (``"wilson 95%"``) where stated."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, serialize_by_alias=True)

    estimate: float | None = Field(default=None, alias="value")
    low: float | None = Field(default=None, description="lower bound (2.5th percentile at 95%)")
    high: float | None = Field(default=None, description="upper bound (97.5th percentile at 95%)")
    level: float = Field(default=0.95, exclude=True, gt=0.0, lt=1.0)
    n: int | None = None
    method: str | None = None

    @model_serializer(mode="wrap")
    def _stated_fields_only(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for name in _STATED_ONLY:
            if name not in self.model_fields_set:
                data.pop(name, None)
                data.pop(Interval.model_fields[name].alias or name, None)
        return data

    def bare(self) -> Interval:
        """The estimate and its bounds alone, for reports that state no count or method."""
        return Interval(estimate=self.estimate, low=self.low, high=self.high, level=self.level)

    def difference_reading(self, *, above: str, below: str) -> str:
        """Plain words on an interval of a difference: ``above`` when it lies wholly above 0,
        ``below`` when wholly below, else no measurable difference."""
        if self.low is None or self.high is None:
            return "not measurable"
        if self.low > 0:
            return f"{above} (interval above 0)"
        if self.high < 0:
            return f"{below} (interval below 0)"
        return "no measurable difference (interval includes 0)"
