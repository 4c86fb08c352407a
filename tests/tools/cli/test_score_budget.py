"""`judge score --max-cost`: a run over its estimate is not judged, one that reaches the limit
stops after its current trait, and the summary carries the cost (docs/service.md)."""

from __future__ import annotations

from typing import Any

import pytest

from judge.engine.judging.backends import ScriptedBackend
from judge.tools.cli import main
from tests.budget_judge import PRICED_MODEL, priced_judge
from tests.helpers import EXAMPLES

HAGGLE = str(EXAMPLES / "haggle.json")
ARGS = ["--judge", PRICED_MODEL, "--traits", "negotiation,integrity,calibration", "--no-progress"]


def use(monkeypatch: pytest.MonkeyPatch, backend: ScriptedBackend) -> ScriptedBackend:
    monkeypatch.setattr("judge.tools.cli.score.backend_for", lambda model: backend)
    return backend


def test_the_summary_shows_the_cost_beside_the_estimate(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    use(monkeypatch, priced_judge(usd=0.01))
    assert main(["score", HAGGLE, *ARGS]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("cost:"))
    assert line.startswith("cost: 15 passes, tokens in 15000 (7500 cached) out 750, $0.1500")
    assert "; estimate at most " in line


def test_a_run_whose_estimate_exceeds_max_cost_is_not_judged(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    judge = use(monkeypatch, priced_judge())
    assert main(["score", HAGGLE, *ARGS, "--max-cost", "0.000001"]) == 1
    out = capsys.readouterr()
    assert judge.history == [] and out.out == ""
    assert "run haggle-0007 not_scored: budget: the estimate would exceed the run limit" in out.err


def test_a_run_that_reaches_max_cost_stops_after_its_current_trait(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    # the estimate (hundreds of tokens at gpt-4o-mini's price) fits; each call says it cost $1
    judge = use(monkeypatch, priced_judge(usd=1.0))
    assert main(["score", HAGGLE, *ARGS, "--max-cost", "0.5"]) == 1
    assert [r.label for r in judge.history] == ["negotiation"] * 5
    assert "judging reached the run limit of $0.5" in capsys.readouterr().err


def test_max_cost_with_an_unpriced_judge_is_bad_input(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    monkeypatch.setenv("JUDGE_DEV_MODE", "1")
    judge = use(monkeypatch, priced_judge(model="scripted/0.6"))
    code = main(["score", HAGGLE, "--judge", "scripted/0.6", "--max-cost", "1", "--no-progress"])
    assert code == 2 and judge.history == []
    err = capsys.readouterr().err
    assert "no price in litellm's price map" in err and "use --max-tokens N instead" in err


def test_max_tokens_holds_an_unpriced_judge_to_a_token_limit(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    monkeypatch.setenv("JUDGE_DEV_MODE", "1")
    # every call reports 2,050 tokens and no price: the estimate (about 17,000) fits, and the
    # second trait takes the run past the limit
    judge = use(monkeypatch, priced_judge(model="scripted/0.6", usd=0.0, prompt=2000))
    args = ["--judge", "scripted/0.6", *ARGS[2:]]
    assert main(["score", HAGGLE, *args, "--max-tokens", "18000"]) == 1
    assert [r.label for r in judge.history] == ["negotiation"] * 5 + ["integrity"] * 5
    assert "judging reached the run limit of 18000 tokens (20500 with this run)" in (
        capsys.readouterr().err
    )


def test_max_tokens_below_the_estimate_judges_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    judge = use(monkeypatch, priced_judge())
    assert main(["score", HAGGLE, *ARGS, "--max-tokens", "10"]) == 1
    assert judge.history == []
    assert "the estimate would exceed the run limit of 10 tokens" in capsys.readouterr().err


def test_max_tokens_must_be_positive(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    use(monkeypatch, priced_judge())
    assert main(["score", HAGGLE, *ARGS, "--max-tokens", "0"]) == 2
    assert "--max-tokens must be a positive number of tokens" in capsys.readouterr().err
