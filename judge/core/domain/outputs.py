"""The one base of the models the product writes out (scorecards, reports, replies): a field
it does not declare is an error, so a stored or sent document never carries one by mistake,
and reading back a document with an unknown key fails loudly instead of dropping it."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Output(BaseModel):
    """A model the product writes out; unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")


class Value(BaseModel):
    """A value model: unknown fields are refused and it never changes once made."""

    model_config = ConfigDict(extra="forbid", frozen=True)
