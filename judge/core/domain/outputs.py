"""The bases of the models the product writes out: an undeclared field is an error, so a
document never carries one by mistake and reading back an unknown key fails loudly."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict


class Output(BaseModel):
    """A model the product writes out; unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")


class Value(BaseModel):
    """A value model: unknown fields are refused and it never changes once made."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Strict(BaseModel):
    """Base for input models and settings: unknown fields are an error, so a typo fails loudly;
    numbers must be finite (JSON has no NaN or Infinity, and a stored one could not be read back)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


def _whole(value: object) -> object:
    """JSON's integer is a number without a fraction, so ``2.0`` is one (as the published schema
    says); strict mode would refuse the float, so a whole float becomes its int first."""
    if type(value) is float and value.is_integer():
        return int(value)
    return value


#: An integer field of the run format: a whole number, written ``2`` or ``2.0``.
WholeNumber = Annotated[int, BeforeValidator(_whole)]
WholeOrNone = Annotated[int | None, BeforeValidator(_whole)]
