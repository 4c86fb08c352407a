"""An Inspect AI scorer backed by the multi-pass judge (extra ``judge[inspect]``;
docs/integrations.md, "The traits() scorer"). A trait with no scored pass is NaN, never 0,
so Inspect's metrics and reducers show it as missing instead of averaging a false zero in."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from judge.core.domain.config import DenoiseConfig, MeasurementSettings
from judge.core.domain.judging import TraitResult
from judge.core.domain.run import parse_run
from judge.core.domain.scorecard import Scorecard
from judge.core.errors import ConfigError
from judge.engine.judging.runner import RUNNER_DEFAULTS, RunnerConfig
from judge.engine.library import judge_backend
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions, score_run_async
from judge.engine.settings import judge_model_settings
from judge.tools.importers.common import safe_id
from judge.tools.importers.inspect_log import AGENT, seats_for, transcript_from_messages

#: What a score's metadata keeps of a trait's result besides its pack and pass scores (in
#: the result's field order, whatever the order here).
_METADATA_FIELDS = set(
    "complete mean n_identical n_passes n_scored n_unscored rubric_version unscored_reasons "
    "variance variance_kind".split()
)

try:
    from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
    from inspect_ai.solver import TaskState
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ConfigError("the Inspect scorer needs inspect_ai: pip install 'judge[inspect]'") from exc


@metric
def trait_mean() -> Metric:
    """Mean of a trait over the samples where it was scored (NaN values are left out)."""

    def compute(scores: list[SampleScore]) -> float:
        values = [
            float(v)
            for s in scores
            if isinstance(v := s.score.value, int | float) and math.isfinite(v)
        ]
        return statistics.fmean(values) if values else math.nan

    return compute


def trait_metadata(result: TraitResult) -> dict[str, Any]:
    """Everything behind one trait's value: passes, mean, variance, counts, reasons."""
    return {
        "pack": result.pack,
        "passes": result.pass_scores,
        **result.model_dump(include=_METADATA_FIELDS),
    }


def score_from_card(card: Scorecard) -> Score:
    """The Inspect score of the agent seat's card: trait means as the value, the rest as metadata."""
    seat = card.seats[AGENT]
    results = seat.every_trait
    value: dict[str, float] = {
        t: math.nan if r.mean is None else r.mean for t, r in results.items()
    }
    scored = ", ".join(
        f"{t} {r.mean:.2f} ({r.n_scored}/{r.n_passes})"
        for t, r in results.items()
        if r.mean is not None
    )
    return Score(
        value=value,
        explanation=f"judged by {card.judge_model}: {scored or 'no trait scored'}",
        metadata={
            "judge_model": card.judge_model,
            "judge_note": card.judge_note,
            "prompt_version": card.prompt_version,
            "era": card.measurement_era.era_id,
            "composite": seat.composite,
            "composite_note": seat.composite_note,
            "participation_gated": seat.participation_gated,
            "traits": {t: trait_metadata(r) for t, r in results.items()},
        },
    )


def _options(judge_model: str | None, passes: int | None, concurrency: int) -> ScoringOptions:
    denoise = DenoiseConfig(n_runs=passes) if passes else DenoiseConfig()
    return ScoringOptions(
        judge_model=judge_model_settings(model=judge_model).model,
        runner=RunnerConfig(concurrency=concurrency),
        settings=MeasurementSettings(denoise=denoise),
    )


@scorer(metrics={"*": [trait_mean()]})
def traits(
    judge_model: str | None = None,
    traits: Sequence[str] | None = None,
    passes: int | None = None,
    concurrency: int = RUNNER_DEFAULTS.concurrency,
) -> Scorer:
    """Judge each sample's conversation on behavioural traits, several passes per trait (the
    arguments are in docs/integrations.md; ``passes`` is raised to the floor of 5)."""
    options = _options(judge_model, passes, concurrency)
    rubrics = default_rubric_set()
    if traits is not None:
        rubrics = rubrics.select(list(traits))
    backend = judge_backend(options.judge_model)

    async def score(state: TaskState, target: Target) -> Score:
        events = transcript_from_messages(state.messages)
        run = {
            "run_id": safe_id("inspect", state.sample_id, f"e{state.epoch}"),
            "scenario_id": safe_id("inspect", state.sample_id),
            "seats": [s.model_dump() for s in seats_for(events, safe_id(str(state.model)))],
            "transcript": [e.model_dump() for e in events],
        }
        card = await score_run_async(
            parse_run(run), options=options, rubrics=rubrics, backend=backend
        )
        return score_from_card(card)

    return score
