"""One registry decides which backend judges a model id (judge.judging.providers)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from judge.errors import ConfigError
from judge.judging import providers
from judge.judging.backends import JudgeBackend, LiteLLMBackend, ScriptedBackend
from judge.judging.embedded import EMBEDDED_MODEL, EmbeddedBackend
from judge.judging.providers import Provider, backend_for, provider_for, register
from judge.judging.router import RouterBackend
from judge.settings import judge_model_settings, load_settings


@pytest.mark.parametrize(
    ("model", "name"),
    [
        ("scripted/0.7", "scripted"),
        (EMBEDDED_MODEL, "embedded"),
        ("router:/etc/judge/router.yaml", "router"),
        ("/etc/judge/router.yml", "router"),
        ("openai/gpt-4o-mini", "litellm"),
        ("anthropic/claude-3-5-haiku-latest", "litellm"),
        ("claude-3-5-haiku-latest", "litellm"),
        ("ollama/llama3.1", "litellm"),
    ],
)
def test_each_model_id_belongs_to_one_provider_by_its_prefix(model: str, name: str) -> None:
    assert provider_for(model).name == name


def test_each_provider_builds_its_own_kind_of_backend(tmp_path: Path) -> None:
    router = tmp_path / "router.yaml"
    deployment = {
        "model_name": "judge",
        "litellm_params": {"model": "openai/x", "api_base": "http://127.0.0.1:9/v1"},
    }
    router.write_text(yaml.safe_dump({"model_list": [deployment]}))
    scripted = backend_for("scripted/0.25", dev_mode=True)
    assert isinstance(scripted, ScriptedBackend) and scripted.model == "scripted/0.25"
    assert type(backend_for(EMBEDDED_MODEL, dev_mode=False)) is EmbeddedBackend
    assert isinstance(backend_for(f"router:{router}", dev_mode=False), RouterBackend)
    assert type(backend_for("openai/gpt-4o-mini", dev_mode=False)) is LiteLLMBackend


def test_the_scripted_judge_is_refused_outside_dev_mode_with_the_fix_named() -> None:
    with pytest.raises(
        ConfigError, match="'scripted/0.7' is a test-only judge .* JUDGE_DEV_MODE=1"
    ):
        backend_for("scripted/0.7", dev_mode=False)


def test_dev_mode_is_read_through_the_settings_when_not_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("JUDGE_DEV_MODE", raising=False)
    with pytest.raises(ConfigError, match="JUDGE_DEV_MODE=1"):
        backend_for("scripted/0.7")
    monkeypatch.setenv("JUDGE_DEV_MODE", "true")
    assert backend_for("scripted/0.7").model == "scripted/0.7"


def test_a_malformed_scripted_id_names_the_expected_shape() -> None:
    with pytest.raises(ConfigError, match="scripted judges are named scripted/<score>"):
        backend_for("scripted/high", dev_mode=True)
    with pytest.raises(ConfigError, match="the score must lie in 0.0-1.0"):
        backend_for("scripted/1.5", dev_mode=True)


def test_the_settings_refuse_a_test_judge_by_the_same_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JUDGE_DEV_MODE", raising=False)
    monkeypatch.setenv("JUDGE_MODEL", "scripted/0.7")
    with pytest.raises(ConfigError, match="JUDGE_MODEL 'scripted/0.7' is a test-only judge"):
        judge_model_settings()
    assert judge_model_settings(dev_mode=True).model == "scripted/0.7"
    assert judge_model_settings(model="openai/gpt-4o-mini").model == "openai/gpt-4o-mini"
    with pytest.raises(ConfigError, match="test-only judge"):
        load_settings(jwt_secret="k" + "x9Qm2LpR7vT4nW8zB3cY6dF1gH5jK0sA", model="scripted/0.7")


@pytest.fixture
def restore_registry() -> Iterator[None]:
    saved = list(providers._providers)
    yield
    providers._providers[:] = saved


@pytest.mark.usefixtures("restore_registry")
def test_a_new_provider_is_one_register_call_and_is_asked_before_litellm() -> None:
    made: list[str] = []

    def build(model: str) -> JudgeBackend:
        made.append(model)
        return ScriptedBackend("{}", model=model)

    register(Provider("house", build, prefixes=("house/",)))
    assert provider_for("house/judge-7").name == "house"
    assert backend_for("house/judge-7", dev_mode=False).model == "house/judge-7"
    assert made == ["house/judge-7"]
    assert [p.name for p in providers.providers()][-1] == "litellm"
    assert provider_for("openai/gpt-4o-mini").name == "litellm"


def test_building_a_litellm_backend_silences_litellms_stdout_banners() -> None:
    import litellm

    litellm.suppress_debug_info = False
    backend_for("openai/gpt-4o-mini", dev_mode=False)
    assert litellm.suppress_debug_info is True


def test_only_judges_decoded_here_have_a_decode_identity_and_it_follows_the_grammar(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from judge.judging import embedded

    monkeypatch.delenv("JUDGE_EMBEDDED_GGUF", raising=False)
    assert providers.decoder_identities("openai/gpt-4o-mini") == {}
    ids = providers.decoder_identities(f"openai/gpt-4o-mini,{EMBEDDED_MODEL}")
    assert list(ids) == [EMBEDDED_MODEL]
    before = ids[EMBEDDED_MODEL]
    assert before.startswith(f"decode v{embedded.DECODE_VERSION}, grammar ")
    monkeypatch.setattr(embedded, "VERDICT_GRAMMAR", embedded.VERDICT_GRAMMAR.replace("0.", "0,"))
    assert providers.decoder_identities(EMBEDDED_MODEL)[EMBEDDED_MODEL] != before
    monkeypatch.undo()
    monkeypatch.setenv("JUDGE_EMBEDDED_GGUF", "/models/other-q8.gguf")
    assert providers.decoder_identities(EMBEDDED_MODEL)[EMBEDDED_MODEL] == (
        before + ", weights other-q8.gguf"
    )


def test_a_scorecard_by_the_embedded_judge_names_its_decode_in_the_era() -> None:
    from judge.catalog import default_rubric_set
    from judge.judging.embedded import decode_identity
    from judge.pipeline import ScoringOptions, assemble_scorecard
    from tests.helpers import example

    run = example("haggle.json")
    options = ScoringOptions(judge_model=EMBEDDED_MODEL)
    card = assemble_scorecard(run, {}, default_rubric_set(), options)
    assert card.measurement_era.decoders == {EMBEDDED_MODEL: decode_identity()}
    remote = assemble_scorecard(
        run, {}, default_rubric_set(), ScoringOptions(judge_model="openai/gpt-4o-mini")
    )
    assert remote.measurement_era.decoders == {}
