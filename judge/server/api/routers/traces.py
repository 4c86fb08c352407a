"""Live traces in: OTLP/HTTP at ``/v1/traces``, an ingest key only (docs/integrations.md,
"Live traces")."""

from __future__ import annotations

import math
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from judge.core.errors import AuthError
from judge.server.api.caller import ingest_identity, ingest_scheme
from judge.server.api.deps import EngineDep, SettingsDep
from judge.server.api.errors import ErrorPublic, error_response, error_responses
from judge.server.auth import INVALID_CREDENTIALS
from judge.server.service import ingest as ingest_service
from judge.server.service.ingest import IngestRefused

TRACES_ROUTE = "/v1/traces"
PROTOBUF = "application/x-protobuf"

router = APIRouter(tags=["ingest"])


class ExportPartialSuccess(BaseModel):
    rejectedSpans: int = 0
    errorMessage: str = ""


class ExportTraceServiceResponse(BaseModel):
    """OTLP's answer; ``partialSuccess`` only when some spans could not be read."""

    partialSuccess: ExportPartialSuccess | None = None


def _refused(exc: IngestRefused) -> JSONResponse:
    wait = exc.retry_after
    headers = None if wait is None else {"Retry-After": str(math.ceil(wait))}
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
    "pending answers 429 with Retry-After; a body that is not OTLP trace data 422. Spans that cannot be read are counted in "
    "`partialSuccess`."
)


@router.post(
    TRACES_ROUTE,
    summary="Receive OTLP traces (ingest key)",
    description=_TRACES_DOC,
    response_model=ExportTraceServiceResponse,
    responses={
        **error_responses(401, 422, 503),
        413: {"model": ErrorPublic, "description": "The body or its spans are over the bounds."},
        415: {
            "model": ErrorPublic,
            "description": "Neither JSON nor protobuf, or an encoding other than gzip.",
        },
        429: {
            "model": ErrorPublic,
            "description": "The source's spans not yet decided are at their bound (Retry-After).",
        },
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
