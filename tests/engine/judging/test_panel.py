"""Judge panels: every judge makes its full set of passes; the card keeps each judge apart."""

import asyncio
import json
from pathlib import Path

import pytest

from judge.core.domain.config import DenoiseConfig, MeasurementSettings
from judge.core.errors import ConfigError
from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.engine.judging.panel import PanelBackend, panel_slot
from judge.engine.judging.registry import backend_for, member_ids
from judge.engine.judging.runner import RunnerConfig, pass_specs
from judge.engine.packs import default_rubric_set
from judge.engine.pipeline import ScoringOptions, score_run_async
from judge.engine.settings import judge_spec
from judge.tools.cli import main
from tests.helpers import example, verdict

TRAITS = ["integrity", "negotiation", "cooperation"]


def test_panel_ids_are_comma_separated_and_checked() -> None:
    assert member_ids("a") == ["a"]
    assert member_ids(" a , b,c ") == ["a", "b", "c"]
    with pytest.raises(ConfigError, match="none empty"):
        member_ids("a,,b")
    with pytest.raises(ConfigError, match="each model once"):
        member_ids("a,b,a")
    with pytest.raises(ConfigError, match="at least two"):
        PanelBackend([ScriptedBackend(verdict(0.5))])


def test_backend_for_a_panel_builds_one_backend_per_member() -> None:
    panel = backend_for(judge_spec("openai/gpt-4o-mini,hosted_vllm/qwen"))
    assert isinstance(panel, PanelBackend)
    assert [m.model for m in panel.members] == ["openai/gpt-4o-mini", "hosted_vllm/qwen"]
    assert panel.model == "openai/gpt-4o-mini,hosted_vllm/qwen"


def test_panel_slots_shift_pass_indices_so_stored_keys_stay_unique() -> None:
    rubrics = list(default_rubric_set().rubrics.values())[:1]
    specs = pass_specs(example("haggle.json").transcript, "buyer", rubrics, 3, RunnerConfig())
    assert [s.index for s in panel_slot(specs, 0, 3)] == [0, 1, 2]
    assert [s.index for s in panel_slot(specs, 2, 3)] == [6, 7, 8]


def by_trait(scores: dict[str, float]):  # type: ignore[no-untyped-def]
    def answer(request: JudgeRequest) -> str:
        return verdict(scores[request.label])

    return answer


def test_a_panel_card_keeps_each_judges_passes_the_panel_mean_and_the_agreement() -> None:
    a = ScriptedBackend(
        by_trait({"integrity": 0.2, "negotiation": 0.6, "cooperation": 1.0}), model="judge-a"
    )
    b = ScriptedBackend(
        by_trait({"integrity": 0.4, "negotiation": 0.6, "cooperation": 0.2}), model="judge-b"
    )
    options = ScoringOptions(
        judge_model="judge-a,judge-b",
        settings=MeasurementSettings(denoise=DenoiseConfig(n_runs=2, min_n_runs=2)),
    )
    card = asyncio.run(
        score_run_async(
            example("haggle.json"),
            options=options,
            rubrics=default_rubric_set().select(TRAITS),
            backend=PanelBackend([a, b]),
        )
    )
    assert (
        len(a.history) == len(b.history) == 2 * len(TRAITS)
    )  # each judge: every trait, full pass count
    seat = card.seats["buyer"]
    integrity = seat.traits["integrity"]
    assert [(j.model, j.pass_scores, j.mean, j.variance) for j in integrity.judges] == [
        ("judge-a", [0.2, 0.2], pytest.approx(0.2), 0.0),
        ("judge-b", [0.4, 0.4], pytest.approx(0.4), 0.0),
    ]
    assert integrity.mean == pytest.approx(0.3) and integrity.n_passes == 4
    assert sorted(p.index for p in integrity.passes) == [0, 1, 2, 3]
    assert {p.model for p in integrity.passes if p.index >= 2} == {"judge-b"}
    assert seat.panel is not None and seat.panel.judges == ["judge-a", "judge-b"]
    assert seat.panel.largest_disagreement_trait == "cooperation"
    assert seat.panel.largest_disagreement == pytest.approx(0.8)
    # units (0.2, 0.4), (0.6, 0.6), (1.0, 0.2): alpha computed by hand below
    values = [0.2, 0.4, 0.6, 0.6, 1.0, 0.2]
    observed = 2 * ((0.2 - 0.4) ** 2 + (1.0 - 0.2) ** 2) / 6
    expected = sum((x - y) ** 2 for x in values for y in values) / (6 * 5)
    assert seat.panel.alpha_interval == pytest.approx(1 - observed / expected)
    assert set(card.judge_parse) == {"judge-a", "judge-b"}


def test_judge_score_accepts_a_panel_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JUDGE_DEV_MODE", "1")
    run = Path(__file__).resolve().parents[3] / "examples" / "haggle.json"
    code = main(
        ["score", str(run), "--judge", "scripted/0.2,scripted/0.8", "--json", "--no-progress"]
    )
    assert code == 0
    card = json.loads(capsys.readouterr().out)
    trait = card["seats"]["buyer"]["traits"]["integrity"]
    assert [j["model"] for j in trait["judges"]] == ["scripted/0.2", "scripted/0.8"]
    assert trait["mean"] == pytest.approx(0.5) and trait["n_passes"] == 10
    assert card["seats"]["buyer"]["panel"]["largest_disagreement"] == pytest.approx(0.6)


def test_a_panel_answers_no_single_request_so_a_one_judge_use_is_refused_plainly() -> None:
    from judge.core.errors import PermanentJudgeError
    from judge.engine.judging.panel import single_judge

    panel = backend_for(judge_spec("scripted/0.2,scripted/0.8"), dev_mode=True)
    assert not hasattr(panel, "complete")
    with pytest.raises(PermanentJudgeError, match="a judge panel answers through its members"):
        single_judge(panel)
    one = backend_for(judge_spec("scripted/0.2"), dev_mode=True)
    assert single_judge(one) is one


def test_a_pairwise_comparison_names_one_judge_not_a_panel() -> None:
    from judge.engine.judging.registry import single_backend_for

    with pytest.raises(ConfigError, match="a panel judges runs, not pairs; name one judge model"):
        single_backend_for(judge_spec("scripted/0.2,scripted/0.8"), dev_mode=True)
    assert single_backend_for(judge_spec("scripted/0.2"), dev_mode=True).model == "scripted/0.2"
