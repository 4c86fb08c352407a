"""`judge align` against the owners' labels in the store (owner only; docs/alignment.md): make
a proposal for one trait, keep it with its held-out proof, and adopt one of its candidates on
an owner's explicit command, which stores a new rubric version and so opens a new era."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.core.domain.judging import JudgePass
from judge.core.domain.rubric import Rubric
from judge.core.errors import ConflictError, NotFoundError
from judge.core.scoring.cost import Costed
from judge.engine.calibration.align import DEFAULT_SEED, HELD_OUT_SHARE, CandidateKind, with_map
from judge.engine.calibration.align_proof import LabelScope
from judge.engine.calibration.align_run import (
    AlignInput,
    AlignJudge,
    Proposal,
    estimate_proposal,
    propose,
)
from judge.engine.calibration.owners import owners_manifest
from judge.engine.judging.backends import JudgeReply
from judge.engine.judging.panel import Judge
from judge.engine.pipeline import ScoringOptions
from judge.engine.settings import Settings
from judge.engine.telemetry.prometheus import observe_pass, observe_reply
from judge.server.service import budgets, platform
from judge.server.service.label_agreement import owners_set
from judge.server.service.rubrics import known_trait
from judge.server.store import alignments as alignment_repo
from judge.server.store import eras as era_repo
from judge.server.store import rubrics as rubric_repo
from judge.server.store import spend
from judge.server.store.alignments import AlignmentRow
from judge.server.store.db import lock_for_write, retry_transient, transaction
from judge.server.store.tables import utcnow


class AlignmentCreate(BaseModel):
    """Ask for a proposal for one trait from the owners' labels."""

    model_config = ConfigDict(extra="forbid")

    trait: str = Field(min_length=1, max_length=80, description="a labelled trait")
    seed: int = Field(
        default=DEFAULT_SEED, ge=0, description="the split's seed, kept with the proof"
    )
    held_out_share: float = Field(default=HELD_OUT_SHARE, gt=0.0, lt=1.0)


class AlignmentAdopt(BaseModel):
    """Adopt one candidate of a proposal (only one whose held-out gain is proven)."""

    model_config = ConfigDict(extra="forbid")

    kind: CandidateKind


class Alignment(BaseModel):
    """A proposal and, once adopted, what was adopted, by whom, and the eras around it."""

    id: int
    trait: str
    created_by: str
    created_at: datetime
    proposal: Proposal
    adopted_kind: str | None = None
    adopted_by: str | None = None
    adopted_at: datetime | None = None
    era_before: str | None = None
    era_after: str | None = None
    rubric_version: int | None = None


def public(row: AlignmentRow) -> Alignment:
    body = row.model_dump(exclude={"proposal_json"})
    return Alignment(**body, proposal=Proposal.model_validate_json(row.proposal_json))


def align_input(session: Session, *, trait: str) -> AlignInput:
    """The owners' labels of ``trait`` as items, with each owner's latest note per seat."""
    known_trait(trait)
    found = owners_set(session)
    items = [i for i in found.items if any(lab.label == trait for lab in i.labels)]
    if not items:
        raise NotFoundError(f"no owner has labelled {trait!r} yet: label it in the console first")
    manifest = owners_manifest([trait])
    notes = {
        (lab.run_id, lab.seat): lab.note for lab in found.labels if lab.trait == trait and lab.note
    }
    return AlignInput(
        items, LabelScope(manifest=manifest, label=manifest.labels[0], trait=trait), notes
    )


def align_judge(session: Session, *, settings: Settings, backend: Judge) -> AlignJudge:
    """The judge as the service scores with it now: its rubrics, passes and defence."""
    options = ScoringOptions(
        judge_model=settings.model,
        settings=platform.measurement_settings(session, settings=settings),
    )
    return AlignJudge(platform.rubric_set(session, settings=settings), options, backend)


#: The purpose an alignment's judge calls are kept under in today's spend.
ALIGN_PURPOSE = "align"
#: The agent an alignment's calls are kept under: none (no agent pays for them).
NO_AGENT = ""


class Spending:
    """The judge calls a proposal makes, counted in the metrics as each is made and kept in
    today's spend (:meth:`keep`), so the platform's daily limits count them; each call made
    also keeps the proposal's hold alive (``renew``, docs/service.md, "Budget holds")."""

    def __init__(self, renew: Callable[[], None] | None = None) -> None:
        self.calls: list[tuple[str, str, Costed]] = []
        self.renew = renew or (lambda: None)

    def judged(self, run_id: str, seat: str, judge_pass: JudgePass) -> None:
        observe_pass(judge_pass)
        self.calls.append((run_id, seat, judge_pass))
        self.renew()

    def clarified(self, run_id: str, seat: str, model: str, reply: JudgeReply) -> None:
        prompt, completion = reply.prompt_tokens or 0, reply.completion_tokens or 0
        cached = reply.cached_prompt_tokens or 0
        observe_reply(
            model, prompt=prompt, completion=completion, cached=cached, cost_usd=reply.cost_usd
        )
        call = spend.CallCost(model, reply.prompt_tokens, reply.completion_tokens, reply.cost_usd)
        self.calls.append((run_id, seat, call))
        self.renew()

    def keep(self, engine: Engine, hold: budgets.Hold, *, retry_s: float) -> None:
        """Keep the calls made in today's spend and end ``hold``, in one transaction (retried
        while the store is transiently busy for ``retry_s``)."""

        def once() -> None:
            with transaction(engine) as session:
                for run_id, seat, call in self.calls:
                    spend.record_call(
                        session,
                        call=call,
                        purpose=ALIGN_PURPOSE,
                        run_id=run_id,
                        seat=seat,
                        agent_id=NO_AGENT,
                    )
                budgets.settle(session, hold)

        retry_transient(once, budget_s=retry_s)


async def make_proposal(
    engine: Engine, *, body: AlignmentCreate, settings: Settings, backend: Judge, by: str
) -> Alignment:
    """Estimate and hold against the platform's daily limits, judge, propose and keep the
    proposal; the calls made replace the hold in today's spend when it ends, also on failure.
    No store connection is held while the judge answers."""
    with transaction(engine) as session:
        source = align_input(session, trait=body.trait)
        judge = align_judge(session, settings=settings, backend=backend)
    seed, share = body.seed, body.held_out_share
    expected = estimate_proposal(source, judge, seed=seed, held_out_share=share)
    hold = budgets.hold_for_owners(
        engine,
        settings=settings,
        estimate=expected,
        what=f"judge align for {body.trait}",
        purpose=ALIGN_PURPOSE,
        by=by,
    )
    spent = Spending(budgets.Renewal(engine, settings, hold=hold))
    judge = judge._replace(on_pass=spent.judged, on_reply=spent.clarified)
    try:
        found = await propose(source, judge, seed=seed, held_out_share=share)
    finally:
        spent.keep(engine, hold, retry_s=settings.store_retry_s)
    with transaction(engine) as session:
        row = AlignmentRow(trait=body.trait, proposal_json=found.model_dump_json(), created_by=by)
        return public(alignment_repo.add_alignment(session, row=row))


def alignment(session: Session, *, alignment_id: int) -> AlignmentRow:
    row = alignment_repo.get_alignment(session, alignment_id=alignment_id)
    if row is None:
        raise NotFoundError(f"no alignment proposal {alignment_id}")
    return row


def not_adopted(row: AlignmentRow) -> None:
    if row.adopted_kind is not None:
        raise ConflictError(
            f"proposal {row.id} was adopted already ({row.adopted_kind}); make a new one"
        )


def adoptable_rubric(row: AlignmentRow, kind: CandidateKind, active: Rubric) -> Rubric:
    """The rubric the candidate of ``kind`` adopts (a map: ``active``, the rubric the proposal
    started from, with the map); ConflictError saying why it may not be."""
    not_adopted(row)
    found = next(
        c for c in Proposal.model_validate_json(row.proposal_json).candidates if c.kind == kind
    )
    if found.proof is None:
        raise ConflictError(f"proposal {row.id} has no {kind} candidate: {found.note}")
    if not found.proof.adoptable:
        gain = found.proof.mae_gain
        raise ConflictError(
            f"the {kind} candidate is not adoptable: the interval of its held-out MAE gain "
            f"[{gain.low}, {gain.high}] does not lie above 0"
        )
    if found.calibration_map is not None:
        return with_map(active, found.calibration_map)
    if found.rubric is None:  # a proven candidate always has one or the other
        raise ConflictError(f"the {kind} candidate of proposal {row.id} changes nothing")
    return found.rubric


def adopt(
    session: Session, *, alignment_id: int, body: AlignmentAdopt, by: str, settings: Settings
) -> Alignment:
    """Store the candidate's rubric as the trait's next custom version, which opens a new
    era, and keep the adoption with the proposal's evidence."""
    lock_for_write(session, name=platform.PLATFORM_LOCK)
    row = alignment(session, alignment_id=alignment_id)
    active = platform.rubric_set(session, settings=settings).rubrics.get(row.trait)
    proposal = Proposal.model_validate_json(row.proposal_json)
    not_adopted(row)
    if active is None or active.content_hash != proposal.rubric_hash:
        raise ConflictError(
            f"the rubric of {row.trait!r} changed since proposal {row.id} was made; make a new proposal"
        )
    rubric = adoptable_rubric(row, body.kind, active)
    before = era_repo.current_era(session)
    stored = rubric_repo.add_rubric_version(session, rubric=rubric, created_by=by)
    session.flush()
    reason = (
        f"alignment {row.id}: {body.kind} adopted for {row.trait} (custom rubric v{stored.version})"
    )
    now = platform.rubric_set(session, settings=settings).rubrics[row.trait]
    if now.content_hash != rubric.content_hash:  # raised in the transaction: nothing is kept
        raise ConflictError(
            "custom rubrics are switched off (academy_judge_rubrics: use_custom false), so the "
            "candidate would not be judged with; switch them on to adopt it"
        )
    era = platform.sync_era(session, settings=settings, by=by, reason=reason)
    row.adopted_kind, row.adopted_by, row.adopted_at = body.kind, by, utcnow()
    row.era_before, row.era_after = (before.era_id if before else None), era.era_id
    row.rubric_version = stored.version
    session.add(row)
    session.flush()
    return public(row)


def alignments(session: Session) -> list[Alignment]:
    return [public(r) for r in alignment_repo.list_alignments(session)]
