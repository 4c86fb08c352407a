"""Measurement eras: a stable id for the whole measurement stack."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Mapping

from judge.core.domain.config import DenoiseConfig, MeasurementSettings
from judge.core.domain.scorecard import MeasurementEra
from judge.core.versions import (
    DETECTOR_VERSION,
    JUDGE_PROMPT_VERSION,
    SCORING_VERSION,
    UNDEFENDED_PROMPT_VERSION,
)

#: How the judge's view of the transcript is marked when the defence is on (docs/integrity.md):
#: the judge prompt marks every line of the participants' text (prompt version 7).
SPOTLIGHT = "line-mark"
#: The per-word mark, which the pairwise prompt keeps.
WORD_SPOTLIGHT = "datamark"
#: The era's parts hashed only off their defaults (:func:`era_stack`).
OPTIONAL_FIELDS = {
    n: MeasurementEra.model_fields[n]
    for n in ("pass_score", "decoders", "integrity", "shared_passes", "reply_format")
}


def prompt_version_for(settings: MeasurementSettings) -> int:
    """The judge prompt a run is scored with: version 4 exactly when the defence is off."""
    return JUDGE_PROMPT_VERSION if settings.defence else UNDEFENDED_PROMPT_VERSION


def integrity_identity(
    settings: MeasurementSettings, spotlight: str = WORD_SPOTLIGHT
) -> dict[str, str]:
    """The defence's part of the era: the detector's version and the ``spotlight`` mark (the
    per-word datamark unless the caller's prompt says otherwise)."""
    return {"detector": DETECTOR_VERSION, "spotlight": spotlight} if settings.defence else {}


def measurement_era(
    *,
    judge_model: str,
    rubric_hashes: Mapping[str, str],
    settings: MeasurementSettings,
    prompt_version: int | None = None,
    scoring_version: int = SCORING_VERSION,
    decoders: Mapping[str, str] | None = None,
    shared_passes: bool = False,
    reply_formats: Mapping[str, Collection[str]] | None = None,
    declared_formats: Mapping[str, str] | None = None,
) -> MeasurementEra:
    """Hash every part of the stack that can move a score; any change gives a new era.
    ``decoders``: the decode identity (grammar, weights) of in-process judges, by model id;
    ``shared_passes``: passes of a trait went as one request with n choices;
    ``reply_formats``: the formats each judge model's passes were sent in, beside
    ``declared_formats``, the one each model's id declares (:func:`reply_format_part`)."""
    stack = {
        "judge_model": judge_model,
        "prompt_version": prompt_version or prompt_version_for(settings),
        "rubric_hashes": dict(sorted(rubric_hashes.items())),
        "denoise": _denoise_part(settings.denoise),
        "reward_weights": settings.reward_weights.model_dump(),
        "scoring_version": scoring_version,
        **_optional_parts(settings, decoders, shared_passes),
    }
    if formats := reply_format_part(reply_formats or {}, declared_formats or {}):
        stack["reply_format"] = formats
    return MeasurementEra(era_id=f"era-{stack_digest(stack)[:16]}", **stack)


def reply_format_part(
    seen: Mapping[str, Collection[str]], declared: Mapping[str, str]
) -> dict[str, list[str]]:
    """The era's reply formats (docs/scoring.md, "Reply format"): every judge model's, sorted,
    when some model's passes went in a format other than the one its id declares (a server of
    one's own that took ``json_object``, or refused every schema); empty otherwise, so a judge
    sent what its id declares keeps the era it had before formats were recorded."""
    formats = {m: sorted(set(f)) for m, f in sorted(seen.items()) if f}
    if all(f == [declared.get(m)] for m, f in formats.items()):
        return {}
    return formats


#: The parts of an era only scoring learns (how the judge's server answered), beside the parts
#: the platform configures: finalization reads them off the runs scored (docs/scoring.md).
SERVED_PARTS = ("shared_passes", "reply_format")


def era_stack(era: MeasurementEra) -> dict[str, object]:
    """The stack an era was hashed from: its parts, the optional ones only off their
    defaults (as :func:`measurement_era` builds it)."""
    stack = era.model_dump(exclude={"era_id"})
    defaults = {n: f.get_default(call_default_factory=True) for n, f in OPTIONAL_FIELDS.items()}
    return {k: v for k, v in stack.items() if k not in defaults or v != defaults[k]}


def with_served(era: MeasurementEra, served: MeasurementEra) -> MeasurementEra:
    """``era`` with the served parts (:data:`SERVED_PARTS`) of ``served``, hashed again."""
    stack = {k: v for k, v in era_stack(era).items() if k not in SERVED_PARTS}
    stack |= {k: v for k, v in era_stack(served).items() if k in SERVED_PARTS}
    return MeasurementEra(era_id=f"era-{stack_digest(stack)[:16]}", **stack)


def configured_part(era: MeasurementEra) -> str:
    """The digest of an era without its served parts: what the platform configured."""
    return stack_digest({k: v for k, v in era_stack(era).items() if k not in SERVED_PARTS})


def stack_digest(stack: Mapping[str, object]) -> str:
    """The SHA-256 of a measurement stack, independent of its key order."""
    return hashlib.sha256(json.dumps(stack, sort_keys=True).encode()).hexdigest()


def _denoise_part(denoise: DenoiseConfig) -> dict[str, object]:
    """The adaptive policy is hashed only when set, so fixed passes keep the eras they had."""
    passes: dict[str, object] = {"temperature": denoise.temperature, "passes": denoise.passes}
    if denoise.adaptive is not None:
        passes["adaptive"] = denoise.adaptive.model_dump()
    return passes


def _optional_parts(
    settings: MeasurementSettings, decoders: Mapping[str, str] | None, shared_passes: bool
) -> dict[str, object]:
    """Parts hashed only off their defaults (sampled scores, remote judges, the defence off,
    a request per pass), so eras measured before each part existed stay current."""
    parts: dict[str, object] = {}
    if settings.score_mode != "sampled":
        parts["pass_score"] = settings.score_mode
    if decoders:
        parts["decoders"] = dict(sorted(decoders.items()))
    if integrity := integrity_identity(settings, SPOTLIGHT):
        parts["integrity"] = integrity
    if shared_passes:
        parts["shared_passes"] = True
    return parts
