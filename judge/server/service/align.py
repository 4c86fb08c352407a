"""`judge align` against the owners' labels in the store (owner only; docs/alignment.md): make
a proposal for one trait, keep it with its held-out proof, and adopt one of its candidates on
an owner's explicit command, which stores a new rubric version and so opens a new era."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.core.domain.rubric import Rubric
from judge.core.errors import ConflictError, NotFoundError
from judge.engine.calibration.align import DEFAULT_SEED, HELD_OUT_SHARE, CandidateKind
from judge.engine.calibration.align_proof import LabelScope
from judge.engine.calibration.align_run import AlignInput, AlignJudge, Proposal, propose
from judge.engine.calibration.owners import owners_manifest
from judge.engine.judging.panel import Judge
from judge.engine.pipeline import ScoringOptions
from judge.engine.settings import Settings
from judge.server.service import platform
from judge.server.service.label_agreement import owners_set
from judge.server.service.rubrics import known_trait
from judge.server.store import alignments as alignment_repo
from judge.server.store import eras as era_repo
from judge.server.store import rubrics as rubric_repo
from judge.server.store.alignments import AlignmentRow
from judge.server.store.db import lock_for_write, transaction
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


class AlignmentPublic(BaseModel):
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


def public(row: AlignmentRow) -> AlignmentPublic:
    body = row.model_dump(exclude={"proposal_json"})
    return AlignmentPublic(**body, proposal=Proposal.model_validate_json(row.proposal_json))


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


async def make_proposal(
    engine: Engine, *, body: AlignmentCreate, settings: Settings, backend: Judge, by: str
) -> AlignmentPublic:
    """Judge, propose and keep the proposal; no store connection is held while the judge answers."""
    with transaction(engine) as session:
        source = align_input(session, trait=body.trait)
        judge = align_judge(session, settings=settings, backend=backend)
    found = await propose(source, judge, seed=body.seed, held_out_share=body.held_out_share)
    with transaction(engine) as session:
        row = AlignmentRow(trait=body.trait, proposal_json=found.model_dump_json(), created_by=by)
        return public(alignment_repo.add_alignment(session, row=row))


def alignment(session: Session, *, alignment_id: int) -> AlignmentRow:
    row = alignment_repo.get_alignment(session, alignment_id=alignment_id)
    if row is None:
        raise NotFoundError(f"no alignment proposal {alignment_id}")
    return row


def adoptable_rubric(row: AlignmentRow, kind: CandidateKind) -> Rubric:
    """The rubric the candidate of ``kind`` adopts; ConflictError saying why it may not be."""
    if row.adopted_kind is not None:
        raise ConflictError(
            f"proposal {row.id} was adopted already ({row.adopted_kind}); make a new one"
        )
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
    if found.rubric is None:
        raise ConflictError(
            "a calibration map is proven here but not yet applied when runs are scored; "
            "adopt a rubric candidate (exemplars or anchors) instead (docs/alignment.md)"
        )
    return found.rubric


def adopt(
    session: Session, *, alignment_id: int, body: AlignmentAdopt, by: str, settings: Settings
) -> AlignmentPublic:
    """Store the candidate's rubric as the trait's next custom version, which opens a new
    era, and keep the adoption with the proposal's evidence."""
    lock_for_write(session, name=platform.PLATFORM_LOCK)
    row = alignment(session, alignment_id=alignment_id)
    rubric = adoptable_rubric(row, body.kind)
    active = platform.rubric_set(session, settings=settings).rubrics.get(row.trait)
    proposal = Proposal.model_validate_json(row.proposal_json)
    if active is None or active.content_hash != proposal.rubric_hash:
        raise ConflictError(
            f"the rubric of {row.trait!r} changed since proposal {row.id} was made; make a new proposal"
        )
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


def alignments(session: Session) -> list[AlignmentPublic]:
    return [public(r) for r in alignment_repo.list_alignments(session)]
