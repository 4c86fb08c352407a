"""What a Python user needs besides scoring itself: reading a run, choosing the judge.

``from judge import load_run, score_run`` reaches these through the package's lazy exports.
"""

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
    """A validated run from a file path, JSON text, or already-parsed JSON data.

    A string that starts with ``{`` is read as JSON text; any other string is a path.

    Raises:
        RunFormatError: the file cannot be read, or the data does not match the run format
            (docs/run-format.md); the message names each offending field.
    """
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
    """The backend for a model id when it needs special handling, else None (litellm).

    Which provider a model id belongs to is decided by :mod:`judge.engine.judging.registry`;
    ``scripted/<score>`` is the test judge of :mod:`judge.engine.judging.providers.scripted`, which answers
    every call with one score and is accepted only with ``JUDGE_DEV_MODE=1``, so a typo in
    a real run can never silently score with it.

    Raises:
        ConfigError: a scripted judge outside dev mode, or a malformed scripted model id.
    """
    spec = judge_spec(model)
    return backend_for(spec) if spec.test_only else None
