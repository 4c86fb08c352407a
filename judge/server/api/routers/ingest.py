"""Live traces in (OTLP/HTTP at ``/v1/traces``, an ingest key only), the owners' ingest keys,
and the owners' online evaluation rules (docs/integrations.md, "Live traces" and "Online
evaluation rules")."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Depends, Request, Response, status
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from judge.core.errors import AuthError, NotFoundError
from judge.server.api.caller import ingest_identity, ingest_scheme
from judge.server.api.deps import EngineDep, OwnerDep, SessionDep, SettingsDep, owner_router
from judge.server.api.errors import error_response, error_responses
from judge.server.auth import INVALID_CREDENTIALS
from judge.server.service import ingest as ingest_service
from judge.server.service import rules as rule_service
from judge.server.service.ingest import IngestRefused
from judge.server.service.rules import Rule, RuleSpec
from judge.server.store import ingest as ingest_repo

TRACES_ROUTE = "/v1/traces"
PROTOBUF = "application/x-protobuf"

traces_router = APIRouter(tags=["ingest"])


class ExportPartialSuccess(BaseModel):
    rejectedSpans: int = 0
    errorMessage: str = ""


class ExportTraceServiceResponse(BaseModel):
    """OTLP's answer; ``partialSuccess`` only when some spans could not be read."""

    partialSuccess: ExportPartialSuccess | None = None


def _refused(exc: IngestRefused) -> JSONResponse:
    headers = None
    if exc.retry_after is not None:
        headers = {"Retry-After": str(math.ceil(exc.retry_after))}
    return error_response(exc.status, exc.detail, headers)


def _answer(accepted: ingest_service.Accepted, protobuf: bool) -> Response:
    partial = None
    if accepted.rejected:
        partial = ExportPartialSuccess(
            rejectedSpans=accepted.rejected, errorMessage="; ".join(accepted.problems)
        )
    if not protobuf:
        body = ExportTraceServiceResponse(partialSuccess=partial)
        return Response(body.model_dump_json(exclude_none=True), media_type="application/json")
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceResponse as ProtoResponse,
    )

    message = ProtoResponse()
    if partial is not None:
        message.partial_success.rejected_spans = partial.rejectedSpans
        message.partial_success.error_message = partial.errorMessage
    return Response(message.SerializeToString(), media_type=PROTOBUF)


_TRACES_DOC = (
    "OTLP/HTTP trace export, as OpenTelemetry exporters send it (`OTEL_EXPORTER_OTLP_ENDPOINT` "
    "pointed at the service): an `ExportTraceServiceRequest` as JSON or protobuf, plain or "
    "`Content-Encoding: gzip`. Only an ingest key is taken (`Authorization: Bearer ik_live_…` or "
    "`x-judge-ingest-key`); agent keys and owner tokens answer 401. Every span is in the store "
    "before the 200; a span sent again (an exporter's retry) is stored once. A body over "
    "JUDGE_INGEST_MAX_BODY_BYTES or a request over JUDGE_INGEST_MAX_SPANS_PER_REQUEST answers "
    "413 (the same batch cannot pass); a source with JUDGE_INGEST_MAX_PENDING_SPANS spans still "
    "pending answers 503 with Retry-After. Spans that cannot be read are counted in "
    "`partialSuccess`."
)


@traces_router.post(
    TRACES_ROUTE,
    summary="Receive OTLP traces (ingest key)",
    description=_TRACES_DOC,
    response_model=ExportTraceServiceResponse,
    responses={
        **error_responses(401, 503),
        400: {"description": "The body is not OTLP trace data."},
        413: {"description": "The body or its spans are over the bounds."},
        415: {"description": "Neither JSON nor protobuf, or an encoding other than gzip."},
    },
)
async def receive_traces(
    request: Request,
    engine: EngineDep,
    settings: SettingsDep,
    _credential: Annotated[Any, Depends(ingest_scheme)],
) -> Response:
    identity = await ingest_identity(request, engine)
    if identity is None:
        raise AuthError(INVALID_CREDENTIALS)
    body = await request.body()
    kind = request.headers.get("content-type", "")
    try:
        decoded = await anyio.to_thread.run_sync(
            lambda: ingest_service.decode_body(
                body,
                content_type=kind,
                content_encoding=request.headers.get("content-encoding", ""),
                settings=settings,
            )
        )
        accepted = await anyio.to_thread.run_sync(
            lambda: ingest_service.accept(
                engine, source=identity.source, decoded=decoded, settings=settings
            )
        )
    except IngestRefused as exc:
        return _refused(exc)
    return _answer(accepted, kind.split(";")[0].strip().lower() in ingest_service.PROTOBUF_TYPES)


# -- ingest keys (owner) --------------------------------------------------------------------

keys_router = owner_router("ingest", prefix="/api/ingest/keys")


class IngestKeyCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    source: str = Field(min_length=1, max_length=200, description="the source the key sends for")
    label: str | None = Field(default=None, max_length=200)


class IngestKeyIssued(BaseModel):
    key: str = Field(description="shown once; only its hash is stored")
    prefix: str
    source: str


class IngestKeyPublic(BaseModel):
    prefix: str
    source: str
    label: str | None
    created_by: str
    created_at: datetime
    revoked_at: datetime | None


class IngestKeyRevoked(BaseModel):
    prefix: str
    revoked: bool


@keys_router.post(
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


@keys_router.get("", summary="Ingest keys")
def list_ingest_keys(session: SessionDep, source: str | None = None) -> list[IngestKeyPublic]:
    """Every ingest key (its public prefix, never the key), oldest first, optionally of one
    `source`; revoked keys say when."""
    rows = ingest_repo.list_ingest_keys(session, source=source)
    return [IngestKeyPublic.model_validate(r, from_attributes=True) for r in rows]


@keys_router.delete("/{prefix}", summary="Revoke an ingest key", responses=error_responses(404))
def revoke_ingest_key(prefix: str, session: SessionDep) -> IngestKeyRevoked:
    """The key of this prefix is refused from now on; 404 when no live key has it."""
    if not ingest_repo.revoke_ingest_key(session, prefix=prefix):
        raise NotFoundError(f"no live ingest key with prefix {prefix!r}")
    return IngestKeyRevoked(prefix=prefix, revoked=True)


# -- rules (owner) ---------------------------------------------------------------------------

rules_router = owner_router("rules", prefix="/api/evals/rules")


class RuleRunPublic(BaseModel):
    run_id: str
    rule_version: int
    source: str
    trace_id: str
    traits: list[str]
    judge: str | None
    created_at: datetime


@rules_router.get("", summary="Online evaluation rules")
def list_rules(session: SessionDep) -> list[Rule]:
    """Every rule, oldest first, paused ones included."""
    return rule_service.list_rules(session)


@rules_router.post(
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


@rules_router.get("/{rule_id}", summary="An online evaluation rule", responses=error_responses(404))
def read_rule(rule_id: str, session: SessionDep) -> Rule:
    """The rule as it stands (its `version` counts the changes)."""
    return rule_service.get_rule(session, rule_id=rule_id)


@rules_router.put(
    "/{rule_id}", summary="Change or pause a rule", responses=error_responses(404, 422)
)
def update_rule(
    rule_id: str, body: RuleSpec, owner: OwnerDep, session: SessionDep, settings: SettingsDep
) -> Rule:
    """Replaces what the rule does from now on (`paused: true` stops it); runs it made already
    keep their traits and judge, and nothing is scored again."""
    return rule_service.update_rule(
        session, rule_id=rule_id, spec=body, by=owner.actor, settings=settings
    )


@rules_router.get("/{rule_id}/runs", summary="The runs a rule made", responses=error_responses(404))
def rule_runs(rule_id: str, session: SessionDep) -> list[RuleRunPublic]:
    """Each run the rule made of a trace, oldest first, with the rule version, traits and judge
    it was made with (read its status and scorecard at `/api/evals/runs/{run_id}`)."""
    rule_service.get_rule(session, rule_id=rule_id)
    return [
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
