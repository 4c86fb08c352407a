"""Console pages of the owners' labels: the label form, the labelling queue, and the judge's
agreement with the owners (docs/console.md, "Labels")."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from judge.core.domain.labels import ANCHORS, NOTE_MAX, LabelCreate
from judge.core.errors import InputError, NotFoundError
from judge.engine.calibration import plots
from judge.engine.calibration.owner_plots import agreement_svg
from judge.server.console import session as console_session
from judge.server.console.render import page, see_other, svg
from judge.server.console.session import SessionDep as ConsoleDep
from judge.server.request_scope import SessionDep, SettingsDep
from judge.server.service import align as align_service
from judge.server.service import escalation, label_agreement, label_queue
from judge.server.service import labels as label_service

router = APIRouter(prefix="/console", include_in_schema=False)


def label_body(form: dict[str, str]) -> LabelCreate:
    """The label form as a label; InputError naming a missing anchor or a long note."""
    try:
        score = float(form.get("score", ""))
    except ValueError:
        score = -1.0
    if score not in ANCHORS:
        raise InputError("score: choose one of the anchors 0, 0.5 or 1")
    note = form.get("note", "")
    if len(note) > NOTE_MAX:
        raise InputError(f"note: at most {NOTE_MAX} characters (this one has {len(note)})")
    return LabelCreate(
        seat=form.get("seat", ""), trait=form.get("trait", ""), score=score, note=note
    )


@router.post("/runs/{run_id}/labels")
async def label(
    run_id: str, request: Request, console: ConsoleDep, session: SessionDep
) -> Response:
    form = await console_session.read_form(request)
    console_session.check_csrf(console, form)
    body = label_body(form)
    label_service.add_label(session, run_id=run_id, body=body, by=console.by, source="console")
    return see_other(f"/console/runs/{run_id}#trait-{body.seat}-{body.trait}")


@router.get("/labels")
def queue(
    request: Request, console: ConsoleDep, session: SessionDep, settings: SettingsDep
) -> HTMLResponse:
    rules = label_queue.queue_rules(session, settings=settings)
    items = label_queue.labelling_queue(session, settings=settings)
    return page(request, "labels.html", console=console, items=items, rules=rules)


@router.get("/agreement")
def agreement(
    request: Request, console: ConsoleDep, session: SessionDep, settings: SettingsDep
) -> HTMLResponse:
    return page(
        request,
        "agreement.html",
        console=console,
        rows=label_agreement.live_agreement(session, settings=settings),
        drift=label_agreement.drift(session),
        escalation=escalation.trait_curves(session),
        alignments=align_service.alignments(session),
        plots=plots.plots_available(),
        missing=plots.MISSING,
    )


@router.get("/agreement/{era_id}/{trait}.svg")
def agreement_plot(
    era_id: str, trait: str, console: ConsoleDep, session: SessionDep, settings: SettingsDep
) -> Response:
    found = label_agreement.era_trait_agreement(
        session, settings=settings, era_id=era_id, trait=trait
    )
    if found is None:
        raise NotFoundError(f"no owner's label of {trait!r} was judged in era {era_id!r}")
    return svg(agreement_svg(found), max_age=60)
