"""Runtime platform_config: the keys, their models, the effective values (read from the store
each time, so no restart is needed) and the measurement era they add up to."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlmodel import Session

from judge.core.domain.config import (
    DenoiseConfig,
    MeasurementSettings,
    ParticipationConfig,
    PlatformDenoiseConfig,
    RewardWeights,
)
from judge.core.domain.cost import Budget
from judge.core.domain.review import SafetyReviewThresholds
from judge.core.domain.rubric import TraitName
from judge.core.domain.scorecard import MeasurementEra
from judge.core.errors import ConfigError, NotFoundError, RubricError, describe_validation_error
from judge.core.scoring.era import configured_part, measurement_era, with_served
from judge.engine.judging.pricing import price_of
from judge.engine.judging.spec import member_ids
from judge.engine.packs import RubricSet, default_rubric_set
from judge.engine.settings import Settings, judge_spec
from judge.server.service.worlds import WORLD_URLS_KEY, StateDatabaseUrls, WorldPolicy
from judge.server.store import config as config_repo
from judge.server.store import eras as era_repo
from judge.server.store import rubrics as rubric_repo
from judge.server.store import scorecards as scorecard_repo
from judge.server.store.db import lock_for_write
from judge.server.store.tables import EraRow

#: One lock name for every write that may open an era (config, rubrics, scorecards).
PLATFORM_LOCK = "judge:platform"


class RubricSelection(BaseModel):
    """`academy_judge_rubrics`: which traits are judged, and whether custom rubrics apply."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    traits: list[TraitName] | None = Field(default=None, min_length=1)
    use_custom: bool = True


CONFIG_MODELS: dict[str, type[BaseModel]] = {
    "academy_judge_rubrics": RubricSelection,
    "academy_eval_judge_denoise": PlatformDenoiseConfig,
    "academy_eval_participation": ParticipationConfig,
    "eval_reward_weights": RewardWeights,
    "console_safety_review": SafetyReviewThresholds,
    WORLD_URLS_KEY: StateDatabaseUrls,
    "eval_budgets": Budget,
}


class ConfigValue(NamedTuple):
    key: str
    value: BaseModel
    stored: bool
    era_id: str | None = None
    version: int | None = None


def config_model(key: str) -> type[BaseModel]:
    if key not in CONFIG_MODELS:
        raise NotFoundError(f"no platform_config key {key!r}; known keys: {sorted(CONFIG_MODELS)}")
    return CONFIG_MODELS[key]


def default_value(key: str, settings: Settings) -> BaseModel:
    if key == "academy_eval_judge_denoise" and settings.passes is not None:
        return DenoiseConfig.model_validate({"passes": settings.passes})
    return config_model(key)()


def validate_value(key: str, value: Any) -> BaseModel:
    """Validate a value for ``key``; ConfigError naming the offending field."""
    try:
        parsed = config_model(key).model_validate(value)
    except ValidationError as exc:
        raise ConfigError(f"{key}: {describe_validation_error(exc)}") from None
    if isinstance(parsed, RubricSelection) and parsed.traits is not None:
        try:
            default_rubric_set().select(parsed.traits)
        except RubricError as exc:
            raise ConfigError(f"{key}: traits: {exc}") from None
    return parsed


def read_value(session: Session, *, key: str, settings: Settings) -> ConfigValue:
    row = config_repo.get_config(session, key=key)
    if row is None:
        return ConfigValue(key, default_value(key, settings), stored=False)
    return ConfigValue(key, config_model(key).model_validate_json(row.value_json), stored=True)


def measurement_settings(session: Session, *, settings: Settings) -> MeasurementSettings:
    """The effective denoise, participation and reward settings."""
    keys = ("academy_eval_judge_denoise", "academy_eval_participation", "eval_reward_weights")
    values = {k: read_value(session, key=k, settings=settings).value for k in keys}
    return MeasurementSettings(
        denoise=values["academy_eval_judge_denoise"],
        participation=values["academy_eval_participation"],
        reward_weights=values["eval_reward_weights"],
        score_mode=settings.score_mode,
    )


def rubric_set(session: Session, *, settings: Settings) -> RubricSet:
    """The active rubrics: the selected traits, custom versions replacing built-in ones."""
    stored = read_value(session, key="academy_judge_rubrics", settings=settings).value
    selection = RubricSelection.model_validate(stored.model_dump())
    rubrics = default_rubric_set()
    if selection.traits is not None:
        rubrics = rubrics.select(selection.traits)
    if not selection.use_custom:
        return rubrics
    custom = {t: rubric_repo.rubric_of(r) for t, r in rubric_repo.current_rubrics(session).items()}
    return rubrics.with_overrides({t: r for t, r in custom.items() if t in rubrics.rubrics})


def current_stack(session: Session, *, settings: Settings) -> MeasurementEra:
    """The era the next run would be scored in."""
    rubrics = rubric_set(session, settings=settings)
    return measurement_era(
        judge_model=settings.model,
        rubric_hashes=rubrics.hashes,
        settings=measurement_settings(session, settings=settings),
        decoders=judge_spec(settings.model).decoders,
    )


def scoring_era(session: Session, *, settings: Settings) -> MeasurementEra:
    """The era runs are scored in now, as scoring makes it (what finalization compares a
    submission's era with; docs/scoring.md, "Eras"): the configured stack
    (:func:`current_stack`) with the parts only scoring learns (shared passes, reply format)
    of the run scored most recently in that stack; the configured stack alone before any."""
    configured = current_stack(session, settings=settings)
    wanted = configured_part(configured)
    for era in scorecard_repo.recent_eras(session):
        if configured_part(era) == wanted:
            return with_served(configured, era)
    return configured


def sync_era(session: Session, *, settings: Settings, by: str, reason: str) -> EraRow:
    """Open a new era row when the measurement stack moved (a no-op otherwise), with the
    change that may have moved it flushed first."""
    session.flush()
    era = current_stack(session, settings=settings)
    row = era_repo.open_era(session, era=era, opened_by=by, reason=reason)
    session.flush()
    return row


def world_policy(session: Session, *, settings: Settings) -> WorldPolicy:
    """Where run worlds may be: the scenarios folder and the owner's database allow-list."""
    stored = read_value(session, key=WORLD_URLS_KEY, settings=settings).value
    urls = StateDatabaseUrls.model_validate(stored.model_dump()).urls
    return WorldPolicy(settings.scenarios_dir, frozenset(urls))


def require_countable(budget: Budget, *, judge_model: str) -> None:
    """ConfigError when a dollar limit is set but the configured judge has no price: its
    passes would count $0 and the limit would never stop anything (docs/service.md, "Budgets")."""
    dollars = [name for name, v in budget.model_dump().items() if name.endswith("_usd") and v]
    unpriced = [m for m in member_ids(judge_model) if price_of(m) is None]
    if dollars and unpriced:
        tokens = ", ".join(name.removesuffix("_usd") + "_tokens" for name in dollars)
        raise ConfigError(
            f"eval_budgets: {', '.join(dollars)}: the configured judge {', '.join(unpriced)} has no "
            "price in litellm's price map, so a dollar limit could not be counted and would "
            f"never stop a run; set a token limit instead ({tokens})"
        )


def update_value(
    session: Session, *, key: str, value: Any, by: str, settings: Settings
) -> ConfigValue:
    """Validate, store and audit a new value, then open a new era if the stack moved
    (serialised, so each update gets its own version and audit record)."""
    parsed = validate_value(key, value)
    if isinstance(parsed, Budget):
        require_countable(parsed, judge_model=settings.model)
    lock_for_write(session, name=PLATFORM_LOCK)
    row = config_repo.put_config(
        session, key=key, value_json=json.dumps(parsed.model_dump(mode="json")), changed_by=by
    )
    era = sync_era(session, settings=settings, by=by, reason=f"platform_config {key} changed")
    return ConfigValue(key, parsed, stored=True, era_id=era.era_id, version=row.version)
