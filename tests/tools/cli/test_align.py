"""`judge align` from the command line (docs/alignment.md): it refuses unclear requests naming
the problem, proposes from the owners' labels in the store and keeps the proposal, and adopts
a proven candidate only when told to, into a new era."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlmodel import select

from judge.engine.judging.backends import ScriptedBackend
from judge.server.store.alignments import list_alignments
from judge.server.store.db import make_engine, transaction
from judge.server.store.tables import JudgeCallRow
from judge.server.web import create_app
from judge.tools.cli import align as align_cli
from judge.tools.cli import main
from tests.align_judges import TRAIT, exemplar_learner, label_runs
from tests.conftest import SECRET, owner_headers, service_settings


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["align"], "name the trait to align"),
        (["align", TRAIT], "say where the labels are: --set NAME or --from-store"),
        (["align", TRAIT, "--set", "dices", "--from-store"], "say where the labels are"),
        (["align", "--adopt", "exemplars"], "--adopt KIND and --proposal ID go together"),
    ],
)
def test_an_unclear_request_is_refused_naming_the_problem(
    args: list[str], problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    assert problem in capsys.readouterr().err


@pytest.fixture
def store(tmp_path: Path, sqlite_template: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A store with twelve labelled runs; the command's judge is the scripted learner."""
    shutil.copy(sqlite_template, tmp_path / "judge.db")
    url = f"sqlite:///{tmp_path / 'judge.db'}"
    judge = ScriptedBackend(exemplar_learner, model="scripted-test-judge")
    with TestClient(create_app(service_settings(url), backends=lambda model: judge)) as client:
        label_runs(client, owner_headers())
    monkeypatch.setenv("JUDGE_JWT_SECRET", SECRET)
    monkeypatch.setenv("JUDGE_MODEL", "scripted-test-judge")
    monkeypatch.setattr(align_cli, "backend_for", lambda spec: judge)
    yield url


def test_a_proposal_from_the_store_is_kept_and_adopted_only_on_command(
    store: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "align"
    assert main(["align", TRAIT, "--from-store", "--database-url", store, "--out", str(out)]) == 0
    shown = capsys.readouterr().out
    written = json.loads((out / "proposal.json").read_text())

    assert "proposal 1 kept; adopt with: judge align --adopt KIND --proposal 1" in shown
    assert (
        "| exemplars | - | 1.000 | 0.000 | 1.000 | 0.333 | 0.000 | - | 0.333 [0.167, 0.500] | yes |"
        in shown
    )
    assert written["split"]["seed"] == 39
    assert (out / "proposal.md").read_text() in shown

    assert main(["align", "--adopt", "exemplars", "--proposal", "1", "--database-url", store]) == 0
    adopted = capsys.readouterr().out
    assert adopted.startswith(f"adopted exemplars for {TRAIT}: custom rubric v1, era era-")
    assert main(["align", "--adopt", "anchors", "--proposal", "1", "--database-url", store]) == 2
    assert "adopted already" in capsys.readouterr().err


def test_a_proposal_past_the_platforms_daily_budget_exits_1_naming_the_limit(
    store: str, capsys: pytest.CaptureFixture[str]
) -> None:
    judge = ScriptedBackend(exemplar_learner, model="scripted-test-judge")
    limit = {"value": {"platform_day_tokens": 2000}}
    with TestClient(create_app(service_settings(store), backends=lambda model: judge)) as client:
        put = client.put("/api/evals/config/eval_budgets", json=limit, headers=owner_headers())
        assert put.status_code == 200, put.text

    assert main(["align", TRAIT, "--from-store", "--database-url", store]) == 1
    err = capsys.readouterr().err
    assert f"judge align for {TRAIT} refused before any judge call" in err
    assert "the platform per day limit of 2000 tokens" in err
    with transaction(make_engine(store)) as session:  # nothing judged, nothing kept
        assert list_alignments(session) == []
        assert session.exec(select(JudgeCallRow)).all() == []
