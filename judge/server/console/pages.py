"""Console pages: sign-in and sign-out, the runs table, a run, the safety review queue."""

from __future__ import annotations

from functools import partial

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlmodel import Session

from judge.core.domain.review import DECISIONS, NOTE_MAX, REVIEW_STATES, SafetyReviewCreate
from judge.core.domain.status import RUN_STATUSES
from judge.core.errors import InputError
from judge.engine.calibration.trust import SAFETY_ITEMS_FLOOR, SAFETY_SPEARMAN_FLOOR
from judge.server.auth import KEY_SCHEME
from judge.server.console import listing, views
from judge.server.console import session as console_session
from judge.server.console.render import page, see_other
from judge.server.console.session import (
    COOKIE,
    COOKIE_PATH,
    PRE_COOKIE,
    ConsoleForbidden,
    ConsoleSignInRequired,
)
from judge.server.console.session import SessionDep as ConsoleDep
from judge.server.request_scope import (
    EngineDep,
    SessionDep,
    SettingsDep,
    WorkersDep,
    after_commit,
    in_read,
)
from judge.server.service import budgets
from judge.server.service import reviews as review_service

router = APIRouter(prefix="/console", include_in_schema=False)


@router.get("")
@router.get("/")
def home() -> RedirectResponse:
    return see_other("/console/runs")


@router.get("/sign-in")
def sign_in_form(request: Request, settings: SettingsDep) -> HTMLResponse:
    nonce = console_session.new_nonce()
    response = page(
        request, "sign_in.html", csrf=console_session.sign_in_token(settings.signing_secret, nonce)
    )
    console_session.set_nonce_cookie(response, request, nonce)
    return response


@router.post("/sign-in")
async def sign_in(request: Request, settings: SettingsDep) -> Response:
    form = await console_session.read_form(request)
    nonce = request.cookies.get(PRE_COOKIE) or ""
    if not nonce or not console_session.tokens_match(
        console_session.sign_in_token(settings.signing_secret, nonce), form.get("csrf")
    ):
        raise ConsoleForbidden(
            "the sign-in form expired or did not come from this service; load it again"
        )
    token = form.get("token", "").strip()
    if token.startswith(KEY_SCHEME):
        raise ConsoleSignInRequired("agent keys cannot open the console")
    claims = console_session.session_owner(token, settings)
    response = see_other("/console/runs")
    console_session.set_session_cookie(response, request, token, claims)
    response.delete_cookie(PRE_COOKIE, path=COOKIE_PATH)
    return response


@router.post("/sign-out")
async def sign_out(request: Request, console: ConsoleDep) -> Response:
    console_session.check_csrf(console, await console_session.read_form(request))
    response = see_other("/console/sign-in")
    response.delete_cookie(COOKIE, path=COOKIE_PATH)
    return response


@router.get("/runs")
def runs(
    request: Request, console: ConsoleDep, session: SessionDep, settings: SettingsDep
) -> HTMLResponse:
    limits = review_service.thresholds(session, settings=settings)
    found = listing.runs_page(session, params=dict(request.query_params), thresholds=limits)
    return page(
        request,
        "runs.html",
        console=console,
        page=found,
        cost_sort_url=listing.sort_url(found.query, "cost"),
        thresholds=limits,
        statuses=RUN_STATUSES,
        boards=listing.BOARDS,
        review_states=REVIEW_STATES,
    )


@router.get("/runs/{run_id}")
async def run(
    run_id: str, request: Request, console: ConsoleDep, engine: EngineDep, settings: SettingsDep
) -> HTMLResponse:
    """The run page: read and rendered in one unit of work on one worker thread."""

    def rendered(session: Session) -> HTMLResponse:
        shown = views.run_page(session, run_id=run_id, settings=settings)
        return page(request, "run.html", console=console, run=shown)

    return await in_read(engine, rendered)


@router.post("/runs/{run_id}/review")
async def review(
    run_id: str,
    request: Request,
    console: ConsoleDep,
    session: SessionDep,
    settings: SettingsDep,
    workers: WorkersDep,
) -> Response:
    form = await console_session.read_form(request)
    console_session.check_csrf(console, form)
    record = partial(
        review_service.record_review,
        session,
        run_id=run_id,
        body=review_body(form),
        by=console.by,
        settings=settings,
    )
    # off the event loop: recording waits for any concurrent decision on the same run
    recorded = await anyio.to_thread.run_sync(record)
    if recorded.requeue:
        after_commit(session, lambda: workers.enqueue(run_id))
    return see_other(f"/console/runs/{run_id}#review")


@router.post("/runs/{run_id}/score-again")
async def score_again(
    run_id: str, request: Request, console: ConsoleDep, session: SessionDep, workers: WorkersDep
) -> Response:
    """Queue a budget-refused run again (docs/service.md, "Budgets")."""
    console_session.check_csrf(console, await console_session.read_form(request))
    await anyio.to_thread.run_sync(partial(budgets.score_again, session, run_id=run_id))
    after_commit(session, lambda: workers.enqueue(run_id))
    return see_other(f"/console/runs/{run_id}")


def review_body(form: dict[str, str]) -> SafetyReviewCreate:
    """The review form as a decision; InputError naming a missing choice or a long note."""
    decision, note = form.get("decision", ""), form.get("note", "")
    if decision not in DECISIONS:
        raise InputError("decision: choose cleared, escalated or rescore requested")
    if len(note) > NOTE_MAX:
        raise InputError(f"note: at most {NOTE_MAX} characters (this one has {len(note)})")
    label = form.get("label", "")
    if label not in ("", "0", "0.5", "1"):
        raise InputError("label: choose no label, 0, 0.5 or 1")
    seat = form.get("seat") or None
    if seat is not None and len(seat) > 200:
        raise InputError("seat: choose the whole run or one of the held seats listed")
    return SafetyReviewCreate(
        decision=decision, seat=seat, note=note, label=float(label) if label else None
    )


@router.get("/queue")
def queue(
    request: Request, console: ConsoleDep, session: SessionDep, settings: SettingsDep
) -> HTMLResponse:
    limits = review_service.thresholds(session, settings=settings)
    found = listing.review_queue_page(session, params=request.query_params, thresholds=limits)
    return page(
        request,
        "queue.html",
        console=console,
        rows=found.rows,
        next_url=found.next_url,
        thresholds=limits,
        state=request.query_params.get("state") or "open",
        states=listing.QUEUE_STATES,
        counts=listing.review_queue_counts(session, thresholds=limits),
        floor={"spearman": SAFETY_SPEARMAN_FLOOR, "n_items": SAFETY_ITEMS_FLOOR},
    )
