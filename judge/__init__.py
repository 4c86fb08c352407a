"""judge: a scoring back end for AI-agent evaluation.

Two independent signals per run: mechanical objectives decided from the world's state,
and behavioural traits scored by an LLM judge over several temperature-0 passes.

The Python API::

    from judge import load_run, score_run, ScoringOptions

    card = score_run(load_run("run.json"), options=ScoringOptions(judge_model="openai/gpt-4o-mini"))
    rows = card.to_rows()

The version constants live in ``judge/core/versions.py`` (a leaf) and are re-exported here. The
other names below are imported on first use, so ``import judge`` stays cheap for code that
only needs the error classes or the run models.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from judge.core.versions import (
    DETECTOR_VERSION,
    JUDGE_PROMPT_VERSION,
    SCORING_VERSION,
    UNDEFENDED_PROMPT_VERSION,
    __version__,
)

_EXPORTS = {
    "score_run": "judge.engine.pipeline",
    "score_run_async": "judge.engine.pipeline",
    "ScoringOptions": "judge.engine.pipeline",
    "load_run": "judge.engine.library",
    "Run": "judge.core.domain.run",
    "Scorecard": "judge.core.domain.scorecard",
}

__all__ = [
    "DETECTOR_VERSION",
    "JUDGE_PROMPT_VERSION",
    "SCORING_VERSION",
    "UNDEFENDED_PROMPT_VERSION",
    "Run",
    "Scorecard",
    "ScoringOptions",
    "__version__",
    "load_run",
    "score_run",
    "score_run_async",
]

if TYPE_CHECKING:
    from judge.core.domain.run import Run as Run
    from judge.core.domain.scorecard import Scorecard as Scorecard
    from judge.engine.library import load_run as load_run
    from judge.engine.pipeline import ScoringOptions as ScoringOptions
    from judge.engine.pipeline import score_run as score_run
    from judge.engine.pipeline import score_run_async as score_run_async


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'judge' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
