"""Measurement eras (owner): every stack the service has measured with."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from judge.api.deps import OwnerDep, SessionDep
from judge.api.errors import error_responses
from judge.api.models import EraPublic
from judge.api.paging import DEFAULT_LIMIT, LINK_HEADER, CursorQuery, Limit, page_of, paged
from judge.service.config_views import eras

router = APIRouter(tags=["eras"])


@router.get(
    "/api/evals/eras",
    summary="Measurement eras",
    description="Each era: the judge model, prompt version, rubric hashes, denoise settings, reward "
    "weights and scoring version it stands for, when and why it opened, and which is current. "
    "Results compare within an era only. Paged by `limit` and `cursor`.",
    responses={200: {"headers": LINK_HEADER}, **error_responses(401, 422)},
)
def list_eras(
    request: Request,
    response: Response,
    owner: OwnerDep,
    session: SessionDep,
    limit: Limit = DEFAULT_LIMIT,
    cursor: CursorQuery = None,
) -> list[EraPublic]:
    listed = [EraPublic.model_validate(e, from_attributes=True) for e in eras(session)]
    return paged(request, response, page_of(listed, lambda e: e.era_id, limit=limit, cursor=cursor))
