"""Online evaluation rules (owner): which live traces are scored, on which traits, by which
judge (docs/integrations.md, "Online evaluation rules")."""

from __future__ import annotations

from fastapi import status

from judge.server.api.deps import OwnerDep, SessionDep, SettingsDep, owner_router
from judge.server.api.errors import error_responses
from judge.server.api.models import RuleRunPublic
from judge.server.api.paging import PAGED, PagingDep
from judge.server.service import rules as rule_service
from judge.server.service.rules import Rule, RuleSpec
from judge.server.store import ingest as ingest_repo

router = owner_router("rules", prefix="/api/evals/rules")


@router.get("", summary="Online evaluation rules", responses={**PAGED, **error_responses(422)})
def list_rules(session: SessionDep, paging: PagingDep) -> list[Rule]:
    """Every rule, oldest first, paused ones included. Paged by `limit` and `cursor`."""
    return paging.by_position(rule_service.list_rules(session))


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    summary="Create an online evaluation rule",
    responses=error_responses(422),
)
def create_rule(
    body: RuleSpec, owner: OwnerDep, session: SessionDep, settings: SettingsDep
) -> Rule:
    """Filters (service names, scenarios, agents, span attributes), a sampling rate decided by
    a hash of the trace id and the rule's `seed`, the traits and judge its runs are scored with,
    and at most `max_runs_per_day` runs a UTC day. Its runs are of class `online`."""
    return rule_service.create_rule(session, spec=body, by=owner.actor, settings=settings)


@router.get("/{rule_id}", summary="An online evaluation rule", responses=error_responses(404))
def read_rule(rule_id: str, session: SessionDep) -> Rule:
    """The rule as it stands (its `version` counts the changes)."""
    return rule_service.get_rule(session, rule_id=rule_id)


@router.put("/{rule_id}", summary="Change or pause a rule", responses=error_responses(404, 422))
def update_rule(
    rule_id: str, body: RuleSpec, owner: OwnerDep, session: SessionDep, settings: SettingsDep
) -> Rule:
    """Replaces what the rule does from now on (`paused: true` stops it); runs it made already
    keep their traits and judge, and nothing is scored again."""
    return rule_service.update_rule(
        session, rule_id=rule_id, spec=body, by=owner.actor, settings=settings
    )


@router.get(
    "/{rule_id}/runs",
    summary="The runs a rule made",
    responses={**PAGED, **error_responses(404, 422)},
)
def rule_runs(rule_id: str, session: SessionDep, paging: PagingDep) -> list[RuleRunPublic]:
    """Each run the rule made of a trace, oldest first, with the rule version, traits and judge
    it was made with (read its status and scorecard at `/api/evals/runs/{run_id}`). Paged by
    `limit` and `cursor`."""
    rule_service.get_rule(session, rule_id=rule_id)
    made = [
        RuleRunPublic(
            run_id=r.run_id,
            rule_version=r.rule_version,
            source=r.source,
            trace_id=r.trace_id,
            traits=rule_service.traits_of(r.traits_json),
            judge=r.judge_model,
            created_at=r.created_at,
        )
        for r in ingest_repo.runs_of_rule(session, rule_id=rule_id)
    ]
    return paging.by_position(made)
