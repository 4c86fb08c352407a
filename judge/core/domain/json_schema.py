"""JSON Schemas of the public formats, generated from the pydantic models; a test fails when
the committed ``docs/run.schema.json`` (``judge schema run``) drifts from them."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode

from judge.core.domain.run import Run
from judge.core.domain.scorecard import Scorecard
from judge.core.errors import InputError

DIALECT = "https://json-schema.org/draft/2020-12/schema"

MODELS: dict[str, type[BaseModel]] = {"run": Run, "scorecard": Scorecard}


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one public format (``InputError`` for an unknown one)."""
    model = MODELS.get(name)
    if model is None:
        raise InputError(f"no schema named {name!r}; known: {', '.join(MODELS)}")
    mode: JsonSchemaMode = "validation" if name == "run" else "serialization"
    return {"$schema": DIALECT, **model.model_json_schema(mode=mode)}


def schema_text(name: str) -> str:
    """The schema as stable JSON text (sorted keys, two-space indent, final newline)."""
    return json.dumps(schema(name), indent=2, sort_keys=True) + "\n"
