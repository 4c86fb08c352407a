"""Measurement eras (owner): every stack the service has measured with."""

from __future__ import annotations

from judge.server.api.deps import SessionDep, owner_router
from judge.server.api.errors import error_responses
from judge.server.api.models import EraPublic, public_list
from judge.server.api.paging import PAGED, PagingDep
from judge.server.service.config_views import eras

router = owner_router("eras")


@router.get(
    "/api/evals/eras", summary="Measurement eras", responses={**PAGED, **error_responses(422)}
)
def list_eras(session: SessionDep, paging: PagingDep) -> list[EraPublic]:
    """Each era: the judge model, prompt version, rubric hashes, denoise settings, reward weights
    and scoring version it stands for, when and why it opened, and which is current. Results compare
    within an era only. Paged by `limit` and `cursor`."""
    return paging.by_key(public_list(EraPublic, eras(session)), lambda e: e.era_id)
