"""Judge traffic through a litellm Router (JUDGE_MODEL=router:<file.yaml>), against two fake
OpenAI-compatible deployments on loopback."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from pathlib import Path

import pytest
import yaml

from judge.core.errors import ConfigError
from judge.engine.judging.providers.router import build_router_backend, load_router_file
from judge.engine.judging.registry import backend_for
from judge.engine.judging.runner import RunnerConfig, pass_specs, run_passes
from judge.engine.packs import default_rubric_set
from judge.engine.settings import judge_spec, judging_environment
from tests.fake_judge import FakeJudge
from tests.helpers import example

RPM, PARALLEL, RETRY_AFTER = 12, 3, 2.0


def router_file(tmp_path: Path, *bases: str, **params: object) -> Path:
    deployments = [
        {
            "model_name": "judge",
            "litellm_params": {
                "model": "openai/fake",
                "api_base": base,
                "api_key": "os.environ/FAKE_JUDGE_KEY",
                **params,
            },
        }
        for base in bases
    ]
    path = tmp_path / "router.yaml"
    path.write_text(yaml.safe_dump({"model_list": deployments}))
    return path


def per_minute(counts: Counter[int]) -> Counter[int]:
    minutes: Counter[int] = Counter()
    for second, n in counts.items():
        minutes[second // 60] += n
    return minutes


def test_calls_leave_a_deployment_answering_429_and_the_other_keeps_its_limits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_JUDGE_KEY", "sk-fake")
    config = RunnerConfig(concurrency=8, max_attempts=3, backoff_initial_s=0.1)
    specs = pass_specs(
        example("haggle.json").transcript,
        "buyer",
        list(default_rubric_set().rubrics.values())[:2],
        8,
        config,
    )  # 16 calls: more than one minute's RPM of the healthy deployment
    with (
        FakeJudge(rate_limited=True, retry_after=RETRY_AFTER) as limited,
        FakeJudge(latency=0.05) as healthy,
    ):
        path = router_file(
            tmp_path, limited.api_base, healthy.api_base, rpm=RPM, max_parallel_requests=PARALLEL
        )
        backend = backend_for(judge_spec(f"router:{path}"))
        started = time.monotonic()
        passes = asyncio.run(
            run_passes(specs, backend, known_turns=set(range(1, 17)), config=config)
        )
        elapsed = time.monotonic() - started
    assert len(passes) == 16 and all(
        p.parse_status == "ok" and p.score == 0.7 for p in passes
    )  # none lost
    assert healthy.stats.answered == 16 and limited.stats.answered == 0
    assert max(per_minute(healthy.stats.per_second).values()) <= RPM  # the per-minute limit held
    assert (
        len(per_minute(healthy.stats.per_second)) >= 2
    )  # so the last calls waited for a new minute
    assert healthy.stats.max_in_flight <= PARALLEL
    # Retry-After honoured: the 429 deployment is cooled down, not hit by every call
    assert 1 <= limited.stats.rejected <= config.concurrency * (1 + elapsed / RETRY_AFTER)


def test_a_router_file_names_one_model_and_reads_secrets_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = router_file(tmp_path, "http://127.0.0.1:9/v1")
    monkeypatch.delenv("FAKE_JUDGE_KEY", raising=False)
    with pytest.raises(ConfigError, match="environment variable FAKE_JUDGE_KEY is not set"):
        build_router_backend(f"router:{path}", judging_environment())
    monkeypatch.setenv("FAKE_JUDGE_KEY", "sk-fake")
    assert build_router_backend(str(path), judging_environment()).group == "judge"
    path.write_text(
        yaml.safe_dump(
            {
                "model_list": [
                    {"model_name": "a", "litellm_params": {"model": "openai/x"}},
                    {"model_name": "b", "litellm_params": {"model": "openai/y"}},
                ]
            }
        )
    )
    with pytest.raises(ConfigError, match=r"one model_name, not \['a', 'b'\]"):
        load_router_file(path)
    path.write_text("model_list: []\nroutr_settings: {}\n")
    with pytest.raises(ConfigError, match="routr_settings"):
        load_router_file(path)
    with pytest.raises(ConfigError, match="cannot read router file"):
        load_router_file(tmp_path / "missing.yaml")
