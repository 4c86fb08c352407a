"""What each caller may read: run status, the owner scorecard, the agent's own-seat card and
per-turn metrics; cards are served as stored views (docs/service.md, "Stored scorecard views")."""

from __future__ import annotations

import functools
from datetime import datetime
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, Field
from sqlmodel import Session

from judge.core.domain.config import RewardWeights
from judge.core.domain.status import RunStatus
from judge.core.errors import NotFoundError
from judge.core.scoring.metrics import RunMetrics, run_metrics
from judge.core.scoring.run_summary import held_for_review
from judge.engine.settings import Settings
from judge.server.auth import AgentIdentity
from judge.server.service import platform, reviews
from judge.server.service.card_views import owner_view, seat_view, thresholds_tag
from judge.server.service.intake import agent_may_read, agent_run_id, visible_run
from judge.server.service.keys import seen_agent
from judge.server.service.platform import config_model, default_value
from judge.server.service.scoring import ScoringSnapshot
from judge.server.store import run_status as status_repo
from judge.server.store import runs as run_repo
from judge.server.store import scorecards as scorecard_repo
from judge.server.store import views as view_repo
from judge.server.store.tables import RunRow
from judge.server.store.views import OWNER_VIEW, RenderedView, agent_view_name


class RunProgress(BaseModel):
    """A run's scoring status."""

    model_config = ConfigDict(extra="forbid")

    run_id: str
    scenario_id: str
    status: RunStatus
    reason: str | None = Field(description="why the run was not scored (not_scored only)")
    passes_done: int
    passes_total: int | None = Field(description="known once scoring has started")
    judge_model: str | None
    ranked_eligible: bool
    leaderboard_class: str
    created_at: datetime
    updated_at: datetime
    scored_at: datetime | None


class RunAccepted(BaseModel):
    """The answer to a submission: where to poll."""

    run_id: str
    status: RunStatus
    created: bool = Field(description="false when the same body was submitted before")
    status_url: str


def shown_reason(reason: str | None, detail: str | None, *, owner: bool) -> str | None:
    """Why the run was not scored: owners also read the internal detail, agents never do."""
    return f"{reason}: {detail}" if owner and reason and detail else reason


#: The run columns a status read selects: the answer's fields, and the detail of a not-scored
#: reason, which an owner's answer joins to the reason.
_STATUS_COLUMNS = [n for n in RunProgress.model_fields if n != "passes_done"] + ["reason_detail"]


def run_status(session: Session, *, run_id: str, agent: AgentIdentity | None) -> RunProgress:
    """The run's status in one Core statement, after an agent key's access check."""
    missing = NotFoundError(f"run {run_id!r} not found")
    if agent is not None:
        run_id = agent_run_id(session, run_id=run_id, agent=agent)
        if not agent_may_read(session, run_id=run_id, agent=agent):
            raise missing
    row = status_repo.run_status_row(session, run_id=run_id, columns=_STATUS_COLUMNS)
    if row is None:
        raise missing
    reason = shown_reason(row["reason"], row.pop("reason_detail"), owner=agent is None)
    return RunProgress.model_validate({**row, "reason": reason})


def _not_scored_yet(row: RunRow, *, owner: bool) -> NotFoundError:
    reason = shown_reason(row.reason, row.reason_detail, owner=owner)
    why = f": {reason}" if reason else ""
    return NotFoundError(f"run {row.run_id!r} has no scorecard (status {row.status}{why})")


class ServedView(NamedTuple):
    """A stored view as it is sent: its ETag and the body in the encoding asked for."""

    etag: str
    body: bytes
    gzipped: bool


def owner_view_tag(session: Session, *, run_id: str, settings: Settings) -> str | None:
    """The ETag of the owner card as it would be served now, from the index alone (None: none)."""
    found = view_repo.get_tag(session, run_id=run_id, view=OWNER_VIEW)
    current = thresholds_tag(reviews.thresholds(session, settings=settings))
    return found.etag if found is not None and found.config_tag == current else None


def _current_tag(config_json: str | None, settings: Settings) -> str:
    """The thresholds tag of the stored config text, parsed once per distinct text."""
    if config_json is None:
        return thresholds_tag(reviews.as_thresholds(default_value(reviews.CONFIG_KEY, settings)))
    return _stored_tag(config_json)


@functools.lru_cache(maxsize=16)
def _stored_tag(config_json: str) -> str:
    value = config_model(reviews.CONFIG_KEY).model_validate_json(config_json)
    return thresholds_tag(reviews.as_thresholds(value))


def owner_card(session: Session, *, run_id: str, settings: Settings, gzipped: bool) -> ServedView:
    """The owner card with its safety review, served as stored (rendered and stored first for
    a run scored before views were stored, or when the review thresholds changed)."""
    stored, config_json = view_repo.get_body_and_config(
        session, run_id=run_id, view=OWNER_VIEW, gzipped=gzipped, config_key=reviews.CONFIG_KEY
    )
    if stored is not None and stored.config_tag == _current_tag(config_json, settings):
        return ServedView(stored.etag, stored.body, gzipped)
    card = scorecard_repo.get_scorecard(session, run_id=run_id)
    if card is None:
        raise _not_scored_yet(visible_run(session, run_id=run_id, agent=None), owner=True)
    view = owner_view(card, reviews.review_status(session, run_id=run_id, settings=settings))
    _keep(session, run_id=run_id, view=view, replace=stored is not None)
    return _served(view, gzipped)


def agent_view_tag(session: Session, *, run_id: str, agent: AgentIdentity) -> str | None:
    """The ETag of the key's own-seat card, from the index alone, once the key may see the run."""
    run_id = agent_run_id(session, run_id=run_id, agent=agent)
    row = visible_run(session, run_id=run_id, agent=agent)
    found = view_repo.get_tag(session, run_id=row.run_id, view=agent_view_name(agent.seat))
    return None if found is None else found.etag


def seen_key_card(session: Session, *, run_id: str, key: str, gzipped: bool) -> ServedView | None:
    """The own-seat card of a key seen lately (:func:`keys.seen_agent`), in one statement that
    checks the key again; None otherwise (then check the key and read :func:`agent_card`)."""
    seen = seen_agent(key)
    if seen is None:
        return None
    mine = view_repo.get_own_seat_body_of_key(
        session,
        run_id=run_id,
        agent_id=seen.agent.agent_id,
        seat=seen.agent.seat,
        key_prefix=seen.agent.prefix,
        key_sha256=seen.key_sha256,
        gzipped=gzipped,
    )
    return None if mine is None else ServedView(mine.etag, mine.body, gzipped)


def agent_card(session: Session, *, run_id: str, agent: AgentIdentity, gzipped: bool) -> ServedView:
    """The key's own seat of a scored run, served as stored (:func:`card_views.agent_view`);
    ``run_id`` may be the id the agent submitted (:func:`intake.agent_run_id`)."""
    run_id = agent_run_id(session, run_id=run_id, agent=agent)
    mine = view_repo.get_own_seat_body(
        session, run_id=run_id, agent_id=agent.agent_id, seat=agent.seat, gzipped=gzipped
    )
    if mine is not None:
        return ServedView(mine.etag, mine.body, gzipped)
    row = visible_run(session, run_id=run_id, agent=agent)
    name = agent_view_name(agent.seat)
    stored = view_repo.get_body(session, run_id=row.run_id, view=name, gzipped=gzipped)
    if stored is not None:
        return ServedView(stored.etag, stored.body, gzipped)
    card = scorecard_repo.get_scorecard(session, run_id=row.run_id)
    if card is None:
        raise _not_scored_yet(row, owner=False)
    if agent.seat not in card.seats:
        raise NotFoundError(f"run {run_id!r} not found")
    seat = next(s for s in run_repo.get_seats(session, run_id=row.run_id) if s.seat == agent.seat)
    view = seat_view(
        card, agent.seat, held=held_for_review(seat.integrity_flagged, seat.review_state)
    )
    _keep(session, run_id=row.run_id, view=view, replace=False)
    return _served(view, gzipped)


def _keep(session: Session, *, run_id: str, view: RenderedView, replace: bool) -> None:
    if replace:
        view_repo.put_views(session, run_id=run_id, views=[view])
    else:
        view_repo.add_missing_view(session, run_id=run_id, view=view)


def _served(view: RenderedView, gzipped: bool) -> ServedView:
    return ServedView(view.etag, view.body_gzip if gzipped else view.body, gzipped)


def reward_weights(session: Session, row: RunRow, settings: Settings) -> RewardWeights:
    """The weights the run was scored under, else the current ones."""
    if row.scoring_snapshot_json is not None:
        snapshot = ScoringSnapshot.model_validate_json(row.scoring_snapshot_json)
        return snapshot.options.settings.reward_weights
    return platform.measurement_settings(session, settings=settings).reward_weights


def metrics(session: Session, *, run_id: str, settings: Settings) -> RunMetrics:
    row = visible_run(session, run_id=run_id, agent=None)
    return run_metrics(run_repo.stored_run(row), reward_weights(session, row, settings))
