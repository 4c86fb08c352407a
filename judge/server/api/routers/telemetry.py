"""Prometheus text exposition at ``/metrics`` (owner token, or ``JUDGE_METRICS_TOKEN``)."""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import Depends, Response
from prometheus_client import CONTENT_TYPE_LATEST

from judge.core.errors import AuthError
from judge.server.api.caller import Credentials, owner_scheme
from judge.server.api.deps import EngineDep, SettingsDep, credentialed_router
from judge.server.auth import INVALID_CREDENTIALS, verify_owner_token
from judge.server.service.jobqueue.metrics import exposition

router = credentialed_router("telemetry")


def metrics_reader(
    credentials: Annotated[Credentials, Depends(owner_scheme)], settings: SettingsDep
) -> None:
    """An owner token, or the scrape token when one is set (401 otherwise, one fixed body)."""
    if credentials is None:
        raise AuthError(INVALID_CREDENTIALS)
    given = credentials.credentials
    token = settings.metrics_token.get_secret_value() if settings.metrics_token else ""
    if token and hmac.compare_digest(given.encode(), token.encode()):
        return
    verify_owner_token(given, secret=settings.signing_secret, audience=settings.jwt_audience)


@router.get(
    "/metrics",
    summary="Prometheus metrics",
    response_class=Response,
    responses={200: {"content": {CONTENT_TYPE_LATEST: {}}}},
)
def prometheus_metrics(_: Annotated[None, Depends(metrics_reader)], engine: EngineDep) -> Response:
    """Judge calls, retries, pass latency, tokens and unscored passes counted by this process, and
    run counts by status plus the oldest queued run's age read from the store. Bearer: an owner
    token, or `JUDGE_METRICS_TOKEN` for a Prometheus scraper."""
    return Response(content=exposition(engine), media_type=CONTENT_TYPE_LATEST)
