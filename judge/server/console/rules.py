"""Console pages of the online evaluation rules (docs/console.md, "Online rules"): every rule,
a form to create one, a rule's page to change its filters, rate, traits, judge and budget, to
pause or resume it, and the runs it made. A change applies to traces decided from then on;
nothing scored already is scored again (docs/integrations.md, "Online evaluation rules")."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError

from judge.core.errors import InputError, describe_validation_error
from judge.engine.settings import Settings
from judge.server.console import session as console_session
from judge.server.console.render import page, see_other
from judge.server.console.session import SessionDep as ConsoleDep
from judge.server.request_scope import SessionDep, SettingsDep
from judge.server.service import platform
from judge.server.service import rules as rule_service
from judge.server.service.rules import Rule, RuleSpec, Scalar

router = APIRouter(prefix="/console", include_in_schema=False)

#: Prefix of a trait's checkbox in the rule form (``trait.negotiation=on``): the form reader
#: keeps one value per name, so each trait has a field of its own.
TRAIT_FIELD = "trait."
LIST_FIELDS = ("service_names", "scenarios", "agents")
#: What a pause or resume button posts as ``paused``.
PAUSE_VALUES = ("yes", "no")


def _lines(text: str) -> list[str]:
    """One value per line, blank lines and surrounding spaces dropped."""
    return [line.strip() for line in text.split("\n") if line.strip()]


def attribute_value(text: str) -> Scalar:
    """A span attribute's value as typed in the form: ``true``/``false``, a number or a quoted
    string in JSON form are read as such (spans compare values with their type); any other text
    is the string itself."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, str | int | float | bool) else text


def attribute_text(value: Scalar) -> str:
    """How the form shows a stored value, so sending the form back keeps its type."""
    if isinstance(value, str) and attribute_value(value) == value:
        return value
    return json.dumps(value, ensure_ascii=False)


def _attributes(text: str) -> dict[str, Scalar]:
    found: dict[str, Scalar] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.strip()
        if not line:
            continue
        key, equals, value = line.partition("=")
        if not equals or not key.strip():
            raise InputError(f"span_attributes: line {number} is not of the form attribute = value")
        found[key.strip()] = attribute_value(value.strip())
    return found


def rule_spec(form: dict[str, str]) -> RuleSpec:
    """The rule form as a rule; InputError naming the field that is wrong."""
    filters: dict[str, Any] = {name: _lines(form.get(name, "")) for name in LIST_FIELDS}
    filters["span_attributes"] = _attributes(form.get("span_attributes", ""))
    budget = form.get("max_runs_per_day", "").strip()
    values: dict[str, Any] = {
        "name": form.get("name", "").strip(),
        "filters": filters,
        "sample_rate": form.get("sample_rate", "").strip(),
        "seed": form.get("seed", "").strip() or None,
        "traits": [
            name.removeprefix(TRAIT_FIELD)
            for name, value in form.items()
            if name.startswith(TRAIT_FIELD) and value
        ],
        "judge": form.get("judge", "").strip() or None,
        "max_runs_per_day": budget or None,
        "paused": form.get("paused") == "on",
    }
    try:
        return RuleSpec.model_validate(values)
    except ValidationError as exc:
        raise InputError(describe_validation_error(exc)) from None


def _form_context(session: Any, settings: Settings) -> dict[str, Any]:
    return {
        "traits": list(platform.rubric_set(session, settings=settings).rubrics),
        "default_judge": settings.model,
        "attribute_text": attribute_text,
    }


@router.get("/rules")
def rules(
    request: Request, console: ConsoleDep, session: SessionDep, settings: SettingsDep
) -> HTMLResponse:
    return page(
        request,
        "rules.html",
        console=console,
        rules=rule_service.list_rules(session),
        rule=None,
        **_form_context(session, settings),
    )


@router.post("/rules")
async def create(
    request: Request, console: ConsoleDep, session: SessionDep, settings: SettingsDep
) -> Response:
    form = await console_session.read_form(request)
    console_session.check_csrf(console, form)
    made = rule_service.create_rule(session, spec=rule_spec(form), by=console.by, settings=settings)
    return see_other(f"/console/rules/{made.rule_id}")


@router.get("/rules/{rule_id}")
def rule(
    rule_id: str, request: Request, console: ConsoleDep, session: SessionDep, settings: SettingsDep
) -> HTMLResponse:
    found: Rule = rule_service.get_rule(session, rule_id=rule_id)
    return page(
        request,
        "rule.html",
        console=console,
        rule=found,
        runs=rule_service.runs_of(session, rule_id=rule_id),
        **_form_context(session, settings),
    )


@router.post("/rules/{rule_id}")
async def change(
    rule_id: str, request: Request, console: ConsoleDep, session: SessionDep, settings: SettingsDep
) -> Response:
    """The rule form replaces what the rule does; the pause and resume buttons post only
    ``paused`` (``yes`` or ``no``) and change nothing else."""
    form = await console_session.read_form(request)
    console_session.check_csrf(console, form)
    if "name" not in form and form.get("paused") in PAUSE_VALUES:
        rule_service.set_paused(session, rule_id=rule_id, paused=form["paused"] == "yes")
        back = "/console/rules" if form.get("back") == "list" else f"/console/rules/{rule_id}"
        return see_other(back)
    rule_service.update_rule(
        session, rule_id=rule_id, spec=rule_spec(form), by=console.by, settings=settings
    )
    return see_other(f"/console/rules/{rule_id}")
