"""judge: a scoring back end for AI-agent evaluation.

Two independent signals per run: mechanical objectives decided from the world's state,
and behavioural traits scored by an LLM judge over several temperature-0 passes.

The Python API::

    from judge import load_run, score_run, ScoringOptions

    card = score_run(load_run("run.json"), options=ScoringOptions(judge_model="openai/gpt-4o-mini"))
    rows = card.to_rows()

The names below are imported on first use, so ``import judge`` stays cheap for code that
only needs the error classes or the run models.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Version of the scoring rules (composite, gates, rewards, statistics). Part of the era.
SCORING_VERSION = 1

#: Version of the judge prompt (docs/scoring.md). Part of the era.
JUDGE_PROMPT_VERSION = 5

#: The prompt without the score-integrity defence (docs/integrity.md): version 4 exactly, kept
#: byte for byte so an audit with the defence off reuses passes judged before the defence.
UNDEFENDED_PROMPT_VERSION = 4

_EXPORTS = {
    "score_run": "judge.pipeline",
    "score_run_async": "judge.pipeline",
    "ScoringOptions": "judge.pipeline",
    "load_run": "judge.library",
    "Run": "judge.domain.run",
    "Scorecard": "judge.domain.scorecard",
}

__all__ = [
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
    from judge.domain.run import Run as Run
    from judge.domain.scorecard import Scorecard as Scorecard
    from judge.library import load_run as load_run
    from judge.pipeline import ScoringOptions as ScoringOptions
    from judge.pipeline import score_run as score_run
    from judge.pipeline import score_run_async as score_run_async


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'judge' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
