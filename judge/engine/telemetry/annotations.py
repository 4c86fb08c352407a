"""Phoenix span annotations and Langfuse scores, one per trait of every scored seat (safety
included: both tools are the operator's), each receiver fed by one courier thread that scoring
only queues for; the keys stay :class:`~pydantic.SecretStr` up to the ``Authorization`` header
(docs/integrations.md, "Annotations and scores: Phoenix and Langfuse")."""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import queue
import threading
import time
import urllib.error
import urllib.request
import uuid
from typing import Any, NamedTuple

from pydantic import SecretStr

from judge.core.domain.scorecard import Scorecard
from judge.core.versions import __version__
from judge.engine.settings import JudgeModelSettings
from judge.engine.telemetry.opentelemetry import (
    SpanRef,
    Trait,
    explanation,
    export_card,
    flush_all,
    score_label,
    traits_of,
)

log = logging.getLogger("judge.annotations")

#: Seconds one post may take; a receiver that does not answer holds its courier this long
#: (twice, with the one retry), never the scoring.
TIMEOUT_S = 2.0
#: Pause before the one retry of a post that met a transient failure.
RETRY_PAUSE_S = 0.5
#: Posts a courier holds; past them a post is dropped (counted, and warned of once).
QUEUE_POSTS = 1000
#: Phoenix reserves this annotation name for notes; a trait so named is sent as ``judge.note``.
PHOENIX_RESERVED = "note"
ANNOTATOR_KIND = "LLM"
#: The id namespace of Langfuse scores: the same trait of the same run and era is one score,
#: so a retried or repeated post updates it instead of adding another.
SCORE_IDS = uuid.UUID("6d1b7a52-3b7e-4c47-9d0e-2f8f1c6a9e11")


class Phoenix(NamedTuple):
    """An Arize Phoenix server (its base URL) and its API key, when it asks for one."""

    endpoint: str
    api_key: SecretStr | None = None


class Langfuse(NamedTuple):
    """A Langfuse project: the server's base URL and the project's API keys."""

    endpoint: str
    public_key: str
    secret_key: SecretStr


class Receivers(NamedTuple):
    """Where a stored card's scores go beside ``/metrics``; None where that one is off."""

    otlp_endpoint: str | None = None
    phoenix: Phoenix | None = None
    langfuse: Langfuse | None = None


def receivers_of(settings: JudgeModelSettings) -> Receivers:
    """Where stored cards' scores go beside ``/metrics``, as the settings say."""
    phoenix = langfuse = None
    if settings.phoenix_endpoint is not None:
        key = settings.phoenix_api_key  # an empty variable is no key
        phoenix = Phoenix(
            settings.phoenix_endpoint, key if key and key.get_secret_value() else None
        )
    public, secret = settings.langfuse_public_key, settings.langfuse_secret_key
    if settings.langfuse_endpoint is not None and public and secret is not None:
        langfuse = Langfuse(settings.langfuse_endpoint, public, secret)
    return Receivers(settings.otlp_endpoint, phoenix, langfuse)


class Target(NamedTuple):
    """What the scores are placed on: a span of a trace, a whole trace, or nothing."""

    trace_id: str | None
    span_id: str | None


def target_of(trace_id: str | None, span_id: str | None, score_span: SpanRef | None) -> Target:
    """The run's own span when it names one; else the ``judge.score`` span sent for it (in
    the run's trace, or in a trace of its own); else the run's trace alone, or nothing."""
    if trace_id is not None and span_id is not None:
        return Target(trace_id, span_id)
    if score_span is not None:
        return Target(score_span.trace_id, score_span.span_id)
    return Target(trace_id, None)


def metadata(card: Scorecard, trait: Trait) -> dict[str, Any]:
    """What a score was measured with and whose it is: the era, the rubric, the judge."""
    result = trait.result
    return {
        "era_id": card.measurement_era.era_id,
        "rubric_version": result.rubric_version,
        "rubric_hash": result.rubric_hash,
        "prompt_version": card.prompt_version,
        "evaluator": "judge",
        "evaluator_version": __version__,
        "judge_model": card.judge_model,
        "run_id": card.run_id,
        "scenario_id": card.scenario_id,
        "seat": trait.seat.seat,
        "agent_id": trait.seat.agent_id,
        "pack": result.pack,
        "block": trait.block,
        "passes": result.n_passes,
        "passes_scored": result.n_scored,
        "complete": result.complete,
    }


def phoenix_name(trait: str) -> str:
    return f"judge.{trait}" if trait == PHOENIX_RESERVED else trait


def phoenix_annotations(card: Scorecard, where: Target) -> tuple[str, dict[str, Any]] | None:
    """The Phoenix REST path and body annotating ``where`` with every trait: span annotations
    when a span is known, trace annotations when only the trace is, None without either."""
    if where.trace_id is None:
        return None
    if where.span_id is not None:
        path, subject = "/v1/span_annotations", {"span_id": where.span_id}
    else:
        path, subject = "/v1/trace_annotations", {"trace_id": where.trace_id}
    data = []
    for trait in traits_of(card):
        result: dict[str, Any] = {"label": score_label(trait.result.mean)}
        if trait.result.mean is not None:
            result["score"] = trait.result.mean
        if (text := explanation(trait.result)) is not None:
            result["explanation"] = text
        data.append(
            {
                **subject,
                "name": phoenix_name(trait.result.trait),
                "annotator_kind": ANNOTATOR_KIND,
                "result": result,
                "metadata": metadata(card, trait),
                # one annotation per run, seat and era: a repeated post updates it
                "identifier": f"judge:{card.run_id}:{trait.seat.seat}:{card.measurement_era.era_id}",
            }
        )
    return path, {"data": data}


def score_id(card: Scorecard, trait: Trait) -> str:
    key = f"{card.run_id}\x1f{card.measurement_era.era_id}\x1f{trait.seat.seat}\x1f{trait.result.trait}"
    return str(uuid.uuid5(SCORE_IDS, key))


def langfuse_scores(card: Scorecard, where: Target) -> list[dict[str, Any]]:
    """The body of Langfuse's ``POST /api/public/scores``: one numeric score per scored trait
    on the run's trace (and span, as the observation), none without a trace. A trait with no
    scored pass has no number, so it has no score."""
    if where.trace_id is None:
        return []
    scores = []
    for trait in traits_of(card):
        if trait.result.mean is None:
            continue
        score: dict[str, Any] = {
            "id": score_id(card, trait),
            "traceId": where.trace_id,
            "name": trait.result.trait,
            "value": trait.result.mean,
            "dataType": "NUMERIC",
            "metadata": {**metadata(card, trait), "label": score_label(trait.result.mean)},
        }
        if where.span_id is not None:
            score["observationId"] = where.span_id
        if (text := explanation(trait.result)) is not None:
            score["comment"] = text
        scores.append(score)
    return scores


class Post(NamedTuple):
    path: str
    body: bytes
    what: str  # "annotations of run X", for the warning


class Courier:
    """Posts to one receiver, in order, on a thread of its own."""

    def __init__(
        self,
        name: str,
        endpoint: str,
        *,
        authorization: SecretStr | None = None,
        timeout_s: float = TIMEOUT_S,
        retry_pause_s: float = RETRY_PAUSE_S,
    ) -> None:
        self.name, self.base = name, endpoint.rstrip("/")
        self._authorization = authorization
        self._timeout_s, self._retry_pause_s = timeout_s, retry_pause_s
        self._queue: queue.Queue[Post] = queue.Queue(QUEUE_POSTS)
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.down = False
        self.dropped = 0
        self.delivered = 0

    def post(self, path: str, body: Any, what: str) -> None:
        """Queue one post (never blocks: a full queue drops it)."""
        self._start()
        try:
            self._queue.put_nowait(Post(path, json.dumps(body).encode(), what))
        except queue.Full:
            self._failed(what, f"its queue of {self._queue.maxsize} posts is full")

    def flush(self, timeout_s: float = 10.0) -> bool:
        """Wait until every queued post is sent or given up; False when not done in time."""
        deadline = time.monotonic() + timeout_s
        with self._queue.all_tasks_done:
            while self._queue.unfinished_tasks:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._queue.all_tasks_done.wait(left)
        return True

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name=f"judge-{self.name.lower()}", daemon=True
                )
                self._thread.start()

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            try:
                self._deliver(item)
            except Exception as exc:  # noqa: BLE001 - the courier must outlive any one post
                self._failed(item.what, f"{type(exc).__name__}")
            finally:
                self._queue.task_done()

    def _deliver(self, item: Post) -> None:
        reason = ""
        for attempt in range(2):  # the post and one retry at most
            if attempt:
                time.sleep(self._retry_pause_s)
            reason, retry = self._send(item)
            if not reason:
                self._took()
                return
            if not retry:
                break
        self._failed(item.what, reason)

    def _send(self, item: Post) -> tuple[str, bool]:
        """Why the post failed ("" when it did not), and whether one retry may help."""
        headers = {"Content-Type": "application/json", "User-Agent": f"judge/{__version__}"}
        if self._authorization is not None:
            headers["Authorization"] = self._authorization.get_secret_value()
        request = urllib.request.Request(
            self.base + item.path, data=item.body, headers=headers, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=self._timeout_s) as response:
                response.read()
        except urllib.error.HTTPError as exc:
            exc.close()
            return f"HTTP {exc.code}", exc.code in (408, 429) or exc.code >= 500
        except (urllib.error.URLError, OSError) as exc:
            cause = exc.reason if isinstance(exc, urllib.error.URLError) else exc
            return f"not reached: {type(cause).__name__}", True
        return "", False

    def _took(self) -> None:
        with self._lock:
            self.delivered += 1
            was_down, dropped, self.down = self.down, self.dropped, False
        if was_down:
            log.info(
                "%s at %s takes posts again (%d dropped meanwhile)", self.name, self.base, dropped
            )

    def _failed(self, what: str, reason: str) -> None:
        with self._lock:
            self.dropped += 1
            first, self.down = not self.down, True
        if first:
            log.warning(
                "%s at %s did not take the %s (%s); it is dropped, and so is every post until "
                "%s takes one again",
                self.name,
                self.base,
                what,
                reason,
                self.name,
            )
        else:
            log.debug("%s at %s did not take the %s (%s)", self.name, self.base, what, reason)


def bearer(key: SecretStr) -> SecretStr:
    return SecretStr(f"Bearer {key.get_secret_value()}")


def basic(user: str, password: SecretStr) -> SecretStr:
    pair = f"{user}:{password.get_secret_value()}".encode()
    return SecretStr(f"Basic {base64.b64encode(pair).decode()}")


_COURIERS: dict[tuple[str, str, str], Courier] = {}
_COURIERS_LOCK = threading.Lock()


def courier_for(name: str, endpoint: str, authorization: SecretStr | None) -> Courier:
    """The process's courier to one receiver with one credential."""
    secret = authorization.get_secret_value() if authorization else ""
    key = (name, endpoint, hashlib.sha256(secret.encode()).hexdigest())  # no key kept as text
    with _COURIERS_LOCK:
        if key not in _COURIERS:
            _COURIERS[key] = Courier(name, endpoint, authorization=authorization)
        return _COURIERS[key]


def annotate(card: Scorecard, receivers: Receivers, where: Target) -> None:
    """Queue the card's Phoenix annotations and Langfuse scores on ``where``."""
    if (phoenix := receivers.phoenix) is not None:
        if (annotations := phoenix_annotations(card, where)) is not None:
            auth = bearer(phoenix.api_key) if phoenix.api_key is not None else None
            courier = courier_for("Phoenix", phoenix.endpoint, auth)
            courier.post(*annotations, f"annotations of run {card.run_id}")
        else:
            log.debug("run %s has no trace or span for Phoenix to annotate", card.run_id)
    if (langfuse := receivers.langfuse) is not None and (scores := langfuse_scores(card, where)):
        auth = basic(langfuse.public_key, langfuse.secret_key)
        courier = courier_for("Langfuse", langfuse.endpoint, auth)
        courier.post("/api/public/scores", scores, f"scores of run {card.run_id}")


def send_scores(
    card: Scorecard,
    receivers: Receivers,
    *,
    trace_id: str | None = None,
    span_id: str | None = None,
    started_ns: int | None = None,
) -> Target:
    """Queue a stored card's scores for every receiver that is on: the OTLP evaluation events,
    then the annotations and scores on the span they concern (what that is, returned). Never
    raises, never waits on a receiver: a failure is a warning, never a failed run."""
    score_span = export_card(
        card, endpoint=receivers.otlp_endpoint, trace_id=trace_id, started_ns=started_ns
    )
    where = target_of(trace_id, span_id, score_span)
    try:
        annotate(card, receivers, where)
    except Exception as exc:  # noqa: BLE001 - see the docstring
        log.warning("annotations of run %s not sent: %s", card.run_id, type(exc).__name__)
    return where


def flush_scores(timeout_s: float = 10.0) -> None:
    """Send what every sender holds (a command line that exits next calls this)."""
    flush_all(timeout_s)
    with _COURIERS_LOCK:
        couriers = list(_COURIERS.values())
    for courier in couriers:
        courier.flush(timeout_s)
