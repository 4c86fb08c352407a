"""Ingest keys (owner): one per source of live traces, shown once, stored hashed; a key may only
send spans to ``/v1/traces`` (docs/integrations.md, "Live traces")."""

from __future__ import annotations

from fastapi import status
from pydantic import BaseModel, ConfigDict, Field

from judge.core.errors import NotFoundError
from judge.server.api.deps import OwnerDep, SessionDep, owner_router
from judge.server.api.errors import error_responses
from judge.server.api.models import IngestKeyPublic, public_list
from judge.server.api.paging import PAGED, PagingDep
from judge.server.service import ingest as ingest_service
from judge.server.store import ingest as ingest_repo

router = owner_router("ingest", prefix="/api/ingest/keys")


class IngestKeyCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    source: str = Field(min_length=1, max_length=200, description="the source the key sends for")
    label: str | None = Field(default=None, max_length=200)


class IngestKeyIssued(BaseModel):
    key: str = Field(description="shown once; only its hash is stored")
    prefix: str
    source: str


class IngestKeyRevoked(BaseModel):
    prefix: str
    revoked: bool


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    summary="Issue an ingest key",
    responses=error_responses(422),
)
def create_ingest_key(
    body: IngestKeyCreate, owner: OwnerDep, session: SessionDep
) -> IngestKeyIssued:
    """A key one source of traces sends spans to `/v1/traces` with, and nothing else: it is
    refused on every other route. Shown once in `key`; only its sha256 is stored."""
    key = ingest_service.issue_ingest_key(
        session, source=body.source, label=body.label, by=owner.actor
    )
    return IngestKeyIssued(key=key, prefix=key.split("_")[2], source=body.source)


@router.get("", summary="Ingest keys", responses={**PAGED, **error_responses(422)})
def list_ingest_keys(
    session: SessionDep, paging: PagingDep, source: str | None = None
) -> list[IngestKeyPublic]:
    """Every ingest key (its public prefix, never the key), oldest first, optionally of one
    `source`; revoked keys say when. Paged by `limit` and `cursor`."""
    rows = ingest_repo.list_ingest_keys(session, source=source)
    return paging.by_position(public_list(IngestKeyPublic, rows))


@router.delete("/{prefix}", summary="Revoke an ingest key", responses=error_responses(404))
def revoke_ingest_key(prefix: str, session: SessionDep) -> IngestKeyRevoked:
    """The key of this prefix is refused from now on; 404 when no live key has it."""
    if not ingest_repo.revoke_ingest_key(session, prefix=prefix):
        raise NotFoundError(f"no live ingest key with prefix {prefix!r}")
    return IngestKeyRevoked(prefix=prefix, revoked=True)
