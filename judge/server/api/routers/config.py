"""platform_config (owner): read, update per key (validated, audited, effective for the
next run scored without a restart), and each key's audit trail."""

from __future__ import annotations

from judge.server.api.deps import OwnerDep, SessionDep, SettingsDep, owner_router
from judge.server.api.errors import error_responses
from judge.server.api.models import ConfigAuditPublic, ConfigEntryPublic, public_list
from judge.server.api.paging import PAGED, PagingDep
from judge.server.service import config_views as service
from judge.server.service.config_views import ConfigChanged, ConfigUpdate

router = owner_router("config", prefix="/api/evals/config")

KEYS_DOC = (
    "Keys: `academy_judge_rubrics` (`traits`: the judged traits, null for all; `use_custom`), "
    "`academy_eval_judge_denoise` (`temperature` 0.0, `min_n_runs`, `n_runs`), "
    "`academy_eval_participation` (`min_player_messages`, `min_actions_per_turn`), "
    "`eval_reward_weights` (`w_check_pass`, `w_check_fail`, `w_condition_flip`, `w_progress`), "
    "`state_database_urls` (`urls`: the postgresql:// URLs owner runs may name as worlds; not part of the era)."
)


@router.get(
    "",
    summary="Every platform_config key",
    description=KEYS_DOC + " Paged by `limit` and `cursor`.",
    responses={**PAGED, **error_responses(422)},
)
def list_config(
    session: SessionDep, settings: SettingsDep, paging: PagingDep
) -> list[ConfigEntryPublic]:
    entries = public_list(ConfigEntryPublic, service.entries(session, settings=settings))
    return paging.by_key(entries, lambda e: e.key)


@router.get(
    "/{key}",
    summary="One platform_config key",
    description="The stored value, or the default when none was stored. " + KEYS_DOC,
    responses=error_responses(404),
)
def read_config(key: str, session: SessionDep, settings: SettingsDep) -> ConfigEntryPublic:
    entry = service.entry(session, key=key, settings=settings)
    return ConfigEntryPublic.model_validate(entry, from_attributes=True)


@router.put(
    "/{key}",
    summary="Change one platform_config key",
    description="Validated by the key's model (422 naming the field), stored with an audit record, "
    "applied to every run that starts scoring afterwards. When the change moves the measurement "
    "stack a new era opens (`era_changed`). " + KEYS_DOC,
    responses=error_responses(404, 422),
)
def update_config(
    key: str, body: ConfigUpdate, owner: OwnerDep, session: SessionDep, settings: SettingsDep
) -> ConfigChanged:
    return service.update(session, key=key, body=body, by=owner.actor, settings=settings)


@router.get(
    "/{key}/audit",
    summary="Audit trail of one key",
    responses={**PAGED, **error_responses(404, 422)},
)
def config_audit(key: str, session: SessionDep, paging: PagingDep) -> list[ConfigAuditPublic]:
    """Who changed it (`owner:<name>`; rows older than this format hold the bare name), when, old
    and new value; oldest first, paged by `limit` and `cursor`."""
    trail = public_list(ConfigAuditPublic, service.audit(session, key=key))
    positions = {id(entry): str(n) for n, entry in enumerate(trail)}  # it only grows at its end
    return paging.by_key(trail, lambda e: positions[id(e)])
