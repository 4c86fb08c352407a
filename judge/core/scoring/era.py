"""Measurement eras: a stable id for the whole measurement stack."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

from judge.core.domain.config import MeasurementSettings
from judge.core.domain.scorecard import MeasurementEra
from judge.core.versions import (
    DETECTOR_VERSION,
    JUDGE_PROMPT_VERSION,
    SCORING_VERSION,
    UNDEFENDED_PROMPT_VERSION,
)

#: How the judge's view of the transcript is marked when the defence is on (docs/integrity.md).
SPOTLIGHT = "datamark"


def prompt_version_for(settings: MeasurementSettings) -> int:
    """The judge prompt a run is scored with: version 4 exactly when the defence is off."""
    return JUDGE_PROMPT_VERSION if settings.defence else UNDEFENDED_PROMPT_VERSION


def integrity_identity(settings: MeasurementSettings) -> dict[str, str]:
    """The defence's part of the era: the detector's version and the spotlighting."""
    return {"detector": DETECTOR_VERSION, "spotlight": SPOTLIGHT} if settings.defence else {}


def measurement_era(
    *,
    judge_model: str,
    rubric_hashes: Mapping[str, str],
    settings: MeasurementSettings,
    prompt_version: int | None = None,
    scoring_version: int = SCORING_VERSION,
    decoders: Mapping[str, str] | None = None,
) -> MeasurementEra:
    """Hash every part of the stack that can move a score; any change gives a new era.

    Args:
        decoders: for judges decoded in this process (the embedded model), the identity of
            the decode (grammar, weights file) by model id: a change there moves scores as
            surely as a new model does (``judge.engine.judging.registry.JudgeSpec.decoders``).
        prompt_version: by default the one ``settings.defence`` implies.
    """
    denoise = settings.denoise
    passes: dict[str, object] = {"temperature": denoise.temperature, "passes": denoise.passes}
    if denoise.adaptive is not None:
        # hashed only for an adaptive policy, so fixed passes keep the eras they had
        passes["adaptive"] = denoise.adaptive.model_dump()
    stack = {
        "judge_model": judge_model,
        "prompt_version": prompt_version or prompt_version_for(settings),
        "rubric_hashes": dict(sorted(rubric_hashes.items())),
        "denoise": passes,
        "reward_weights": settings.reward_weights.model_dump(),
        "scoring_version": scoring_version,
    }
    if settings.score_mode != "sampled":
        # hashed only off the default, so eras measured before the setting existed stay current
        stack["pass_score"] = settings.score_mode
    if decoders:
        # hashed only when present, so remote judges keep the era ids they had
        stack["decoders"] = dict(sorted(decoders.items()))
    integrity = integrity_identity(settings)
    if integrity:
        # hashed only with the defence on: with it off the stack is the one measured before
        stack["integrity"] = integrity
    digest = hashlib.sha256(json.dumps(stack, sort_keys=True).encode()).hexdigest()
    return MeasurementEra(era_id=f"era-{digest[:16]}", **stack)
