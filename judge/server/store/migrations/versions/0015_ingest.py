"""Live traces and online evaluation rules: ingest keys (kept as hashes, one source each), the
spans received over OTLP (one row per source, trace id and span id: an exporter's retry stores
nothing twice), each trace's state until it becomes runs, the owners' rules, and the runs each
rule made (docs/integrations.md, "Live traces"). Nothing existing changes.

Revision ID: 0015_ingest
Revises: 0014_seat_holds
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_ingest"
down_revision = "0014_seat_holds"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "ingest_keys",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("prefix", sa.String(32), nullable=False, unique=True),
        sa.Column("key_sha256", sa.String(64), nullable=False),
        sa.Column("source", sa.String(200), nullable=False),
        sa.Column("label", sa.String(200), nullable=True),
        sa.Column("created_by", sa.String(200), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("revoked_at", WHEN, nullable=True),
    )
    op.create_index("ix_ingest_keys_source", "ingest_keys", ["source"])
    op.create_table(
        "ingest_spans",
        sa.Column("source", sa.String(200), primary_key=True),
        sa.Column("trace_id", sa.String(32), primary_key=True),
        sa.Column("span_id", sa.String(16), primary_key=True),
        sa.Column("root", sa.Boolean(), nullable=False),
        sa.Column("span_json", sa.Text(), nullable=False),
        sa.Column("received_at", WHEN, nullable=False),
    )
    op.create_table(
        "ingest_traces",
        sa.Column("source", sa.String(200), primary_key=True),
        sa.Column("trace_id", sa.String(32), primary_key=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("root_ended", sa.Boolean(), nullable=False),
        sa.Column("spans", sa.Integer(), nullable=False),
        sa.Column("first_span_at", WHEN, nullable=False),
        sa.Column("last_span_at", WHEN, nullable=False),
        sa.Column("outcome", sa.Text(), nullable=True),
        sa.Column("decided_at", WHEN, nullable=True),
    )
    op.create_index("ix_ingest_traces_state", "ingest_traces", ["state"])
    op.create_index("ix_ingest_traces_last_span_at", "ingest_traces", ["last_span_at"])
    op.create_table(
        "eval_rules",
        sa.Column("rule_id", sa.String(80), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("filters_json", sa.Text(), nullable=False),
        sa.Column("sample_rate", sa.Float(), nullable=False),
        sa.Column("seed", sa.String(200), nullable=False),
        sa.Column("traits_json", sa.Text(), nullable=False),
        sa.Column("judge_model", sa.String(200), nullable=True),
        sa.Column("max_runs_per_day", sa.Integer(), nullable=True),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_by", sa.String(200), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
    )
    op.create_table(
        "rule_runs",
        sa.Column("run_id", sa.String(200), primary_key=True),
        sa.Column("rule_id", sa.String(80), nullable=False),
        sa.Column("rule_version", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(200), nullable=False),
        sa.Column("trace_id", sa.String(32), nullable=False),
        sa.Column("traits_json", sa.Text(), nullable=False),
        sa.Column("judge_model", sa.String(200), nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_index("ix_rule_runs_rule_id", "rule_runs", ["rule_id"])
    op.create_index("ix_rule_runs_created_at", "rule_runs", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_rule_runs_created_at", "rule_runs")
    op.drop_index("ix_rule_runs_rule_id", "rule_runs")
    op.drop_table("rule_runs")
    op.drop_table("eval_rules")
    op.drop_index("ix_ingest_traces_last_span_at", "ingest_traces")
    op.drop_index("ix_ingest_traces_state", "ingest_traces")
    op.drop_table("ingest_traces")
    op.drop_table("ingest_spans")
    op.drop_index("ix_ingest_keys_source", "ingest_keys")
    op.drop_table("ingest_keys")
