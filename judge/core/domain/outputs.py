"""The bases of the models the product writes out: an undeclared field is an error, so a
document never carries one by mistake and reading back an unknown key fails loudly."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


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
