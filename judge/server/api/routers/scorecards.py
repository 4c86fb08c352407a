"""Scorecards: the owner's card and an agent's own-seat card, served as stored views with a weak
``ETag`` and 304 (docs/service.md, "Stored scorecard views"). Both routes admit their credential
themselves (docs/deploy.md, "Read performance"), publishing what a dependency would."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, NamedTuple

from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, StringConstraints, TypeAdapter, ValidationError
from sqlmodel import Session

from judge.server.api.caller import Audience, Endpoint, agent_key_of, owner_of, published_credential
from judge.server.api.deps import credentialed_router
from judge.server.api.errors import error_responses
from judge.server.api.models import AgentScorecardPublic, OwnerScorecardPublic
from judge.server.request_scope import app_settings, get_engine, in_read
from judge.server.service.views import (
    ServedView,
    agent_card,
    agent_view_tag,
    owner_card,
    owner_view_tag,
    seen_key_card,
)

HEADER_MAX = 1000
_HEADER = TypeAdapter(Annotated[str | None, StringConstraints(max_length=HEADER_MAX)])
IF_NONE_MATCH = "an ETag of this card held by the client: 304 if unchanged"
#: Published as FastAPI publishes an optional ``Header(max_length=...)``.
IF_NONE_MATCH_PARAMETER = {
    "name": "if-none-match",
    "in": "header",
    "required": False,
    "schema": {
        "anyOf": [{"type": "string", "maxLength": HEADER_MAX}, {"type": "null"}],
        "description": IF_NONE_MATCH,
        "title": "If-None-Match",
    },
    "description": IF_NONE_MATCH,
}
_CACHING: dict[int | str, dict[str, Any]] = {
    200: {
        "headers": {
            "ETag": {"description": "weak validator of this body", "schema": {"type": "string"}}
        }
    },
    304: {
        "description": "Not modified: the card still matches the `If-None-Match` ETag (no body)."
    },
}
router = credentialed_router("scorecards", responses=_CACHING | error_responses(404))


def matches(if_none_match: str | None, tag: str | None) -> bool:
    """Whether ``If-None-Match`` names ``tag`` (weak comparison, RFC 9110 13.1.2) or is ``*``."""
    if if_none_match is None or tag is None:
        return False
    offered = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
    return "*" in offered or tag.removeprefix("W/") in offered


def _headers(tag: str) -> dict[str, str]:
    return {"ETag": tag, "Cache-Control": "private, no-cache", "Vary": "Accept-Encoding"}


def not_modified(tag: str) -> Response:
    return Response(status_code=304, headers=_headers(tag))


def stored_json(view: ServedView) -> Response:
    """A stored view as it is: the compression middleware leaves an encoded body alone."""
    headers = _headers(view.etag)
    if view.gzipped:
        headers["Content-Encoding"] = "gzip"
    return Response(view.body, media_type="application/json", headers=headers)


class Validators(NamedTuple):
    """The request headers that decide how a stored card is answered."""

    if_none_match: str | None
    accept_encoding: str | None

    @classmethod
    def of(cls, request: Request) -> Validators:
        """The two headers of ``request`` (422 naming one over :data:`HEADER_MAX` characters)."""
        found, problems = [], []
        for name in ("if-none-match", "accept-encoding"):
            try:
                found.append(_HEADER.validate_python(request.headers.get(name)))
            except ValidationError as exc:
                problems += [{**e, "loc": ("header", name)} for e in exc.errors()]
        if problems:
            raise RequestValidationError(problems)
        return cls(*found)

    @classmethod
    def unless_bad(cls, request: Request) -> Validators | None:
        """:meth:`of`, or None when a header is out of bounds (422 after the credential)."""
        try:
            return cls.of(request)
        except RequestValidationError:
            return None

    def answer(
        self, tag_of: Callable[[], str | None], view_of: Callable[[bool], ServedView]
    ) -> Response:
        """304 when ``If-None-Match`` names the card's tag (read without the body), else the view."""
        if self.if_none_match is not None:
            tag = tag_of()
            if tag is not None and matches(self.if_none_match, tag):
                return not_modified(tag)
        return self.serve(view_of(self.gzipped))

    @property
    def gzipped(self) -> bool:
        """Whether the client takes gzip (the rule the compression middleware applies)."""
        return self.accept_encoding is not None and "gzip" in self.accept_encoding

    def serve(self, view: ServedView) -> Response:
        """304 when ``If-None-Match`` names the view's tag, else the view."""
        return (
            not_modified(view.etag) if matches(self.if_none_match, view.etag) else stored_json(view)
        )


def card_route(
    path: str, summary: str, model: type[BaseModel], audience: Audience
) -> Callable[[Endpoint], Endpoint]:
    """Declare a card route: it takes the request alone and admits ``audience`` itself,
    publishing its credential and the ``If-None-Match`` header."""
    published = published_credential(audience) | {"parameters": [IF_NONE_MATCH_PARAMETER]}
    return router.get(path, summary=summary, response_model=model, openapi_extra=published)


@card_route(
    "/api/agent/runs/{run_id}/scorecard",
    "Scorecard of the key's own seat (agent key)",
    AgentScorecardPublic,
    "agent",
)
async def agent_run_scorecard(run_id: str, request: Request) -> Response:
    """Objectives, capability traits (per-pass scores, mean, sample variance, rubric text),
    composite and participation of the key's seat only. Never a safety block, never another seat.
    404 for runs the key cannot see and for runs not scored yet. ETag and If-None-Match (304)."""
    key = await agent_key_of(request)

    def read(session: Session) -> Response:
        seen = Validators.unless_bad(request)
        if seen is not None:  # a key checked lately: checked again in the card's own statement
            mine = seen_key_card(session, run_id=run_id, key=key.token, gzipped=seen.gzipped)
            if mine is not None:
                return seen.serve(mine)
        me = key.identity(session)  # the credential first, as a dependency would check it
        return (seen or Validators.of(request)).answer(
            lambda: agent_view_tag(session, run_id=run_id, agent=me),
            lambda gzipped: agent_card(session, run_id=run_id, agent=me, gzipped=gzipped),
        )

    return await in_read(get_engine(request), read)


@card_route(
    "/api/evals/{run_id}/scorecard", "Full scorecard (owner)", OwnerScorecardPublic, "owner"
)
async def owner_run_scorecard(run_id: str, request: Request) -> Response:
    """Every scored seat with its `safety_block`, ranked eligibility, leaderboard class and
    measurement era. Served as stored when the run was scored (figures to 12 significant digits,
    docs/scoring.md#precision), with the run's `safety_review` (its review state and decisions)
    added. ETag and If-None-Match (304)."""
    await owner_of(request)
    validators = Validators.of(request)
    settings = await app_settings(request)

    def read(session: Session) -> Response:
        return validators.answer(
            lambda: owner_view_tag(session, run_id=run_id, settings=settings),
            lambda gzipped: owner_card(session, run_id=run_id, settings=settings, gzipped=gzipped),
        )

    return await in_read(get_engine(request), read)
