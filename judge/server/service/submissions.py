"""Submissions: a set of runs by one agent on one scenario, opened, filled, then finalized
(rules: :func:`judge.core.scoring.finalize.finalize_submission`). Owners act on every
submission, an agent key only on its own agent's (others look missing)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from judge.core.domain.outputs import Output
from judge.core.domain.run import Identifier
from judge.core.domain.scorecard import Scorecard
from judge.core.errors import ConflictError, InputError, NotFoundError
from judge.core.scoring.finalize import Finalization, Visibility, finalize_submission
from judge.engine.settings import Settings
from judge.server.auth import AgentIdentity, agent_actor
from judge.server.service import platform
from judge.server.service.intake import visible_run
from judge.server.store import leaderboard_entries as entry_repo
from judge.server.store import queries_results as results_repo
from judge.server.store import runs as run_repo
from judge.server.store import submissions as submission_repo
from judge.server.store.tables import SubmissionRow


class SubmissionCreate(BaseModel):
    """A new, open submission; runs may be listed now or added later."""

    model_config = ConfigDict(extra="forbid")

    submission_id: Identifier
    scenario_id: Identifier
    agent_id: Identifier | None = Field(
        default=None, description="required for owners; an agent key's own agent"
    )
    run_ids: list[Identifier] = Field(default_factory=list, max_length=1000)


class SubmissionRunsAdd(BaseModel):
    model_config = ConfigDict(extra="forbid")

    run_ids: list[Identifier] = Field(min_length=1, max_length=1000)


class SubmissionFinalize(BaseModel):
    model_config = ConfigDict(extra="forbid")

    visibility: Visibility | None = Field(
        default=None,
        description="public or unlisted; omitted: public when ranked-eligible, else unlisted",
    )


class AgentFinalization(BaseModel):
    """The finalization as an agent key reads it: the era by id only (the full stack names
    every rubric, safety ones included, and is owner-only)."""

    model_config = ConfigDict(extra="forbid")

    agent_id: str
    scenario_id: str
    run_ids: list[str]
    status: str
    measurement_era: str
    era_is_current: bool
    current_era_id: str
    ranked_eligible: bool
    leaderboard_class: str
    visibility: str
    gated_run_ids: list[str]
    custom_rubric_run_ids: list[str]
    self_reported_run_ids: list[str]
    left_out_run_ids: list[str] = Field(default_factory=list)
    flags: list[str]


def agent_finalization(decision: Finalization) -> AgentFinalization:
    return AgentFinalization.model_validate(
        {**decision.model_dump(), "measurement_era": decision.measurement_era.era_id}
    )


class Submission(Output):
    """A submission as stored; ``finalization`` holds the decision once it is finalized."""

    submission_id: str
    agent_id: str
    scenario_id: str
    status: str = Field(description="open, complete or incomplete (a participation-gated run)")
    run_ids: list[str]
    measurement_era: str | None
    ranked_eligible: bool
    leaderboard_class: str
    visibility: str
    created_at: datetime
    finalized_at: datetime | None
    finalization: Finalization | AgentFinalization | None = Field(
        description="once finalized: the decision (an agent key reads the era by id only)"
    )


#: What a submission reads from its row as stored (times come back in UTC from the store).
_AS_STORED = Submission.model_fields.keys() - {"run_ids", "finalization"}


def submission_public(session: Session, row: SubmissionRow, *, owner: bool) -> Submission:
    decision = Finalization.model_validate_json(row.summary_json) if row.summary_json else None
    summary = agent_finalization(decision) if decision is not None and not owner else decision
    return Submission.model_validate(
        {
            **row.model_dump(include=_AS_STORED),
            "run_ids": results_repo.submission_run_ids(session, submission_id=row.submission_id),
            "finalization": summary,
        }
    )


def visible_submission(
    session: Session, *, submission_id: str, agent: AgentIdentity | None
) -> SubmissionRow:
    """The submission if the caller may see it (owners: all; agents: their own agent's)."""
    row = submission_repo.get_submission(session, submission_id=submission_id)
    if row is None or (agent is not None and row.agent_id != agent.agent_id):
        raise NotFoundError(f"submission {submission_id!r} not found")
    return row


def _owner_agent(body: SubmissionCreate, agent: AgentIdentity | None) -> str:
    if agent is None:
        if body.agent_id is None:
            raise InputError(
                "agent_id: an owner creating a submission must name the agent it is for"
            )
        return body.agent_id
    if body.agent_id not in (None, agent.agent_id):
        raise InputError(
            f"agent_id: this key is for agent {agent.agent_id!r}; it cannot open a submission for {body.agent_id!r}"
        )
    return agent.agent_id


def check_run_fits(
    session: Session, *, row: SubmissionRow, run_id: str, agent: AgentIdentity | None
) -> None:
    """A run may join when it exists (visible to the caller), is on the scenario and seats the agent."""
    run = visible_run(session, run_id=run_id, agent=agent)
    seats = run_repo.get_seats(session, run_id=run_id)
    if run.scenario_id != row.scenario_id:
        raise InputError(
            f"run_ids: run {run_id!r} is on scenario {run.scenario_id!r}, not {row.scenario_id!r}"
        )
    if not any(s.agent_id == row.agent_id and s.scored for s in seats):
        raise InputError(f"run_ids: agent {row.agent_id!r} holds no scored seat in run {run_id!r}")


def _add(
    session: Session, row: SubmissionRow, run_ids: list[str], agent: AgentIdentity | None
) -> None:
    if row.status != "open":
        raise ConflictError(
            f"submission {row.submission_id!r} is finalized ({row.status}); open a new one to add runs"
        )
    present = set(results_repo.submission_run_ids(session, submission_id=row.submission_id))
    for run_id in dict.fromkeys(run_ids):
        if run_id in present:
            continue
        check_run_fits(session, row=row, run_id=run_id, agent=agent)
        submission_repo.add_submission_run(session, submission_id=row.submission_id, run_id=run_id)


def _flush_or_conflict(session: Session, conflict: str) -> None:
    """Flush; a uniqueness clash with a concurrent request is a ConflictError saying ``conflict``."""
    try:
        session.flush()
    except IntegrityError:
        session.rollback()
        raise ConflictError(conflict) from None


def create_submission(
    session: Session, *, body: SubmissionCreate, by: str, agent: AgentIdentity | None
) -> Submission:
    """Open a submission (and add the listed runs) in one transaction."""
    taken = f"submission_id: {body.submission_id!r} already exists; choose another id"
    if submission_repo.get_submission(session, submission_id=body.submission_id) is not None:
        raise ConflictError(taken)
    row = submission_repo.insert_submission(
        session,
        submission_id=body.submission_id,
        agent_id=_owner_agent(body, agent),
        scenario_id=body.scenario_id,
        created_by=by,
    )
    _flush_or_conflict(session, taken)  # the same id may have been created concurrently
    _add(session, row, body.run_ids, agent)
    session.flush()
    return submission_public(session, row, owner=agent is None)


def add_runs(
    session: Session, *, submission_id: str, body: SubmissionRunsAdd, agent: AgentIdentity | None
) -> Submission:
    """Add runs to an open submission (runs already in it are left as they are)."""
    row = visible_submission(session, submission_id=submission_id, agent=agent)
    _add(session, row, body.run_ids, agent)
    _flush_or_conflict(  # the same run may have been added concurrently
        session,
        f"submission {submission_id!r} changed while these runs were added; send them again",
    )
    return submission_public(session, row, owner=agent is None)


def scored_cards(session: Session, *, row: SubmissionRow) -> list[Scorecard]:
    """The scorecards of every run of the submission; all of them must be scored."""
    run_ids = results_repo.submission_run_ids(session, submission_id=row.submission_id)
    cards = results_repo.scorecards_for(session, run_ids=run_ids)
    missing = [r for r in run_ids if r not in cards]
    if missing:
        raise ConflictError(
            f"runs {missing} have no scorecard yet (queued, scoring or not scored): wait for them "
            "to be scored, or remove them from the submission, before finalizing"
        )
    return [cards[r] for r in run_ids]


def finalize(
    session: Session,
    *,
    submission_id: str,
    body: SubmissionFinalize,
    agent: AgentIdentity | None,
    settings: Settings,
) -> Submission:
    """Stamp the era, status, class and visibility (rules in :mod:`judge.core.scoring.finalize`)."""
    row = visible_submission(session, submission_id=submission_id, agent=agent)
    if row.status != "open":
        raise ConflictError(f"submission {submission_id!r} is already finalized ({row.status})")
    cards = scored_cards(session, row=row)
    decision = finalize_submission(
        cards,
        agent_id=row.agent_id,
        scenario_id=row.scenario_id,
        current_era=platform.scoring_era(session, settings=settings),
        visibility=body.visibility,
        every_run_id=_standing_runs(session, row=row, cards=cards, agent=agent),
    )
    _store_decision(session, submission_id=submission_id, decision=decision)
    session.flush()
    session.refresh(row)
    entry_repo.put_submission_entries(session, submission=row, cards=cards)
    return submission_public(session, row, owner=agent is None)


def agent_filed(row: SubmissionRow, agent: AgentIdentity | None) -> bool:
    """Whether an agent key chose the submission's runs: it opened or finalizes it. Only a set
    an owner opened and finalizes counts as one the platform assembled."""
    return agent is not None or row.created_by == agent_actor(row.agent_id)


def _standing_runs(
    session: Session, *, row: SubmissionRow, cards: list[Scorecard], agent: AgentIdentity | None
) -> list[str] | None:
    """Every scored ranked-eligible run of the agent in the scenario and the submission's era
    (in the key's seat when an agent key finalizes: the runs it may read and add), which an
    agent-filed submission must hold to be ranked; None when the platform assembled it
    (docs/scoring.md, "Standing from every run")."""
    eras = {c.measurement_era.era_id for c in cards}
    if not agent_filed(row, agent) or len(eras) != 1:
        return None  # several eras (or none): finalization refuses the runs, saying why
    return results_repo.standing_run_ids(
        session,
        agent_id=row.agent_id,
        scenario_id=row.scenario_id,
        era_id=eras.pop(),
        seat=None if agent is None else agent.seat,  # a key reads and adds its seat's runs only
    )


def _store_decision(session: Session, *, submission_id: str, decision: Finalization) -> None:
    finalized = submission_repo.finalize_if_open(
        session,
        submission_id=submission_id,
        status=decision.status,
        measurement_era=decision.measurement_era.era_id,
        ranked_eligible=decision.ranked_eligible,
        leaderboard_class=decision.leaderboard_class,
        visibility=decision.visibility,
        reason="; ".join(decision.flags) or None,
        summary_json=decision.model_dump_json(),
    )
    if not finalized:  # another request finalized it between our read and our write
        session.rollback()
        raise ConflictError(f"submission {submission_id!r} is already finalized")


def read_submission(
    session: Session, *, submission_id: str, agent: AgentIdentity | None
) -> Submission:
    row = visible_submission(session, submission_id=submission_id, agent=agent)
    return submission_public(session, row, owner=agent is None)
