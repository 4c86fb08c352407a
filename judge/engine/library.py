"""What a Python user needs besides scoring itself: reading a run, choosing the judge."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from judge.core.domain.run import Run, parse_run, parse_run_json
from judge.core.errors import RunFormatError
from judge.engine.judging.panel import Judge
from judge.engine.judging.registry import backend_for
from judge.engine.settings import judge_spec


def load_run(source: str | os.PathLike[str] | Mapping[str, Any]) -> Run:
    """A validated run from a file path, JSON text (a string starting with ``{``), or parsed
    JSON data; RunFormatError names each offending field (docs/run-format.md)."""
    if isinstance(source, Mapping):
        return parse_run(dict(source))
    if isinstance(source, str) and source.lstrip().startswith("{"):
        return parse_run_json(source)
    path = Path(source)
    try:
        text = path.read_bytes()
    except OSError as exc:
        raise RunFormatError(f"{path}: cannot read the run file: {exc.strerror}") from None
    return parse_run_json(text, source=str(path))


def judge_backend(model: str) -> Judge | None:
    """The backend for a test-only model id (``scripted/<score>``, accepted only with
    ``JUDGE_DEV_MODE=1``, else ConfigError), or None for any other."""
    spec = judge_spec(model)
    return backend_for(spec) if spec.test_only else None
