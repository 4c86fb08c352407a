"""One registry decides which backend judges a model id, and parses the id once into a
JudgeSpec (judge.engine.judging.registry)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from judge.core.errors import ConfigError
from judge.engine.judging import registry
from judge.engine.judging.backends import JudgeReply, JudgeRequest, ScriptedBackend, ServingProfile
from judge.engine.judging.environment import JudgingEnvironment
from judge.engine.judging.providers.embedded import EMBEDDED_MODEL, EmbeddedBackend
from judge.engine.judging.providers.litellm import LiteLLMBackend, serving_profile
from judge.engine.judging.providers.litellm import capabilities as litellm_capabilities
from judge.engine.judging.providers.openai_compatible import OpenAICompatibleBackend
from judge.engine.judging.providers.router import RouterBackend
from judge.engine.judging.registry import (
    Capabilities,
    MemberSpec,
    ProviderEntry,
    backend_for,
    entries,
    entry_for,
    register,
    spec_of,
)
from judge.engine.settings import (
    judge_model_settings,
    judge_spec,
    judging_environment,
    load_settings,
)
from judge.tools.cli import main
from tests.helpers import EXAMPLES, verdict


@pytest.fixture(autouse=True)
def _no_server_of_ones_own(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE", "JUDGE_OPENAI_CLIENT"):
        monkeypatch.delenv(name, raising=False)


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
    assert entry_for(model).name == name
    assert judge_spec(model).members[0].provider.name == name


LOCAL_SERVER = JudgingEnvironment(openai_base_url="http://127.0.0.1:8000/v1")


@pytest.mark.parametrize(
    ("env", "name"),
    [
        (LOCAL_SERVER, "openai-compatible"),
        (JudgingEnvironment(openai_api_base="http://10.0.0.5:9000/v1"), "openai-compatible"),
        (JudgingEnvironment(), "litellm"),
        (JudgingEnvironment(openai_base_url="https://api.openai.com/v1"), "litellm"),
        (replace(LOCAL_SERVER, openai_client="litellm"), "litellm"),
    ],
)
def test_an_openai_id_takes_the_direct_client_only_with_a_base_of_its_own(
    env: JudgingEnvironment, name: str
) -> None:
    assert entry_for("openai/qwen", env).name == name
    assert registry.resolve("openai/qwen", env).members[0].provider.name == name


def test_a_base_of_ones_own_claims_no_id_but_openais() -> None:
    for model in ("hosted_vllm/qwen", "ollama/llama3.1", "claude-3-5-haiku-latest", "qwen"):
        assert entry_for(model, LOCAL_SERVER).name == "litellm"
    assert entry_for(EMBEDDED_MODEL, LOCAL_SERVER).name == "embedded"


def test_the_direct_client_resolves_to_what_the_litellm_entry_resolved_it_to() -> None:
    member = registry.resolve("openai/qwen", LOCAL_SERVER).members[0]
    assert member.profile == serving_profile("openai/qwen", LOCAL_SERVER)
    assert (member.profile.many_prefixes, member.profile.timeout_s) == (False, 600.0)
    assert member.decoder is None
    assert member.capabilities == litellm_capabilities("openai/qwen")


def test_each_provider_builds_its_own_kind_of_backend(tmp_path: Path) -> None:
    router = tmp_path / "router.yaml"
    deployment = {
        "model_name": "judge",
        "litellm_params": {"model": "openai/x", "api_base": "http://127.0.0.1:9/v1"},
    }
    router.write_text(yaml.safe_dump({"model_list": [deployment]}))
    scripted = backend_for(judge_spec("scripted/0.25"), dev_mode=True)
    assert isinstance(scripted, ScriptedBackend) and scripted.model == "scripted/0.25"
    assert type(backend_for(judge_spec(EMBEDDED_MODEL), dev_mode=False)) is EmbeddedBackend
    assert isinstance(backend_for(judge_spec(f"router:{router}"), dev_mode=False), RouterBackend)
    assert type(backend_for(judge_spec("openai/gpt-4o-mini"), dev_mode=False)) is LiteLLMBackend
    direct = backend_for(registry.resolve("openai/qwen", LOCAL_SERVER), dev_mode=False)
    assert type(direct) is OpenAICompatibleBackend


def test_the_scripted_judge_is_refused_outside_dev_mode_with_the_fix_named() -> None:
    with pytest.raises(
        ConfigError, match="'scripted/0.7' is a test-only judge .* JUDGE_DEV_MODE=1"
    ):
        backend_for(judge_spec("scripted/0.7"), dev_mode=False)


def test_dev_mode_is_read_through_the_settings_when_not_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("JUDGE_DEV_MODE", raising=False)
    with pytest.raises(ConfigError, match="JUDGE_DEV_MODE=1"):
        backend_for(judge_spec("scripted/0.7"))
    monkeypatch.setenv("JUDGE_DEV_MODE", "true")
    assert backend_for(judge_spec("scripted/0.7")).model == "scripted/0.7"


def test_a_malformed_scripted_id_names_the_expected_shape() -> None:
    with pytest.raises(ConfigError, match="scripted judges are named scripted/<score>"):
        backend_for(judge_spec("scripted/high"), dev_mode=True)
    with pytest.raises(ConfigError, match="the score must lie in 0.0-1.0"):
        backend_for(judge_spec("scripted/1.5"), dev_mode=True)


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
    saved = list(registry._entries)
    yield
    registry._entries[:] = saved


@pytest.mark.usefixtures("restore_registry")
def test_a_new_provider_is_one_register_call_and_is_asked_before_litellm() -> None:
    made: list[str] = []

    def build(member: MemberSpec) -> ScriptedBackend:
        made.append(member.model)
        return ScriptedBackend("{}", model=member.model)

    register(ProviderEntry("house", build, prefixes=("house/",)))
    assert entry_for("house/judge-7").name == "house"
    assert backend_for(judge_spec("house/judge-7"), dev_mode=False).model == "house/judge-7"
    assert made == ["house/judge-7"]
    assert [e.name for e in entries()][-2:] == ["house", "litellm"]
    assert entry_for("openai/gpt-4o-mini").name == "litellm"


def test_building_a_litellm_backend_silences_litellms_stdout_banners() -> None:
    import litellm

    litellm.suppress_debug_info = False
    backend_for(judge_spec("openai/gpt-4o-mini"), dev_mode=False)
    assert litellm.suppress_debug_info is True


def test_only_judges_decoded_here_have_a_decode_identity_and_it_follows_the_grammar(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from judge.engine.judging.providers import embedded

    monkeypatch.delenv("JUDGE_EMBEDDED_GGUF", raising=False)
    assert judge_spec("openai/gpt-4o-mini").decoders == {}
    ids = judge_spec(f"openai/gpt-4o-mini,{EMBEDDED_MODEL}").decoders
    assert list(ids) == [EMBEDDED_MODEL]
    before = ids[EMBEDDED_MODEL]
    assert before.startswith(f"decode v{embedded.DECODE_VERSION}, grammar ")
    monkeypatch.setattr(embedded, "VERDICT_GRAMMAR", embedded.VERDICT_GRAMMAR.replace("0.", "0,"))
    assert judge_spec(EMBEDDED_MODEL).decoders[EMBEDDED_MODEL] != before
    monkeypatch.undo()
    monkeypatch.setenv("JUDGE_EMBEDDED_GGUF", "/models/other-q8.gguf")
    assert judge_spec(EMBEDDED_MODEL).decoders[EMBEDDED_MODEL] == (
        before + ", weights other-q8.gguf"
    )


def test_a_scorecard_by_the_embedded_judge_names_its_decode_in_the_era() -> None:
    from judge.engine.judging.providers.embedded import decode_identity
    from judge.engine.packs import default_rubric_set
    from judge.engine.pipeline import ScoringOptions, assemble_scorecard
    from tests.helpers import example

    run = example("haggle.json")
    options = ScoringOptions(judge_model=EMBEDDED_MODEL)
    card = assemble_scorecard(run, {}, default_rubric_set(), options)
    assert card.measurement_era.decoders == {EMBEDDED_MODEL: decode_identity()}
    remote = assemble_scorecard(
        run, {}, default_rubric_set(), ScoringOptions(judge_model="openai/gpt-4o-mini")
    )
    assert remote.measurement_era.decoders == {}


def test_a_panel_resolves_to_one_spec_whose_members_keep_their_own_provider_and_profile() -> None:
    spec = judge_spec(f"anthropic/claude-3-5-haiku-latest, {EMBEDDED_MODEL}")
    assert spec.models == ["anthropic/claude-3-5-haiku-latest", EMBEDDED_MODEL]
    assert [m.provider.name for m in spec.members] == ["litellm", "embedded"]
    assert [m.profile.content for m in spec.members] == ["marked_parts", "parts"]
    assert [m.profile.batched for m in spec.members] == [False, True]


def test_capabilities_come_from_the_provider_of_each_member() -> None:
    spec = judge_spec(f"openai/gpt-4o-mini,{EMBEDDED_MODEL},scripted/0.5")
    assert [m.capabilities for m in spec.members] == [
        Capabilities(logprobs=True, structured_output=True),
        Capabilities(logprobs=True, structured_output=True),
        Capabilities(logprobs=False, structured_output=False),
    ]


def test_each_member_declares_the_reply_format_its_provider_sends() -> None:
    spec = judge_spec(f"openai/gpt-4o-mini,{EMBEDDED_MODEL},scripted/0.5,ollama/llama3")
    declared = [m.declared_format for m in spec.members]
    assert declared == ["json_schema", "grammar", "none", "none"]
    # the embedded judge's single calls go through litellm and say the grammar held them
    backend = EmbeddedBackend(EMBEDDED_MODEL, env=JudgingEnvironment())
    assert backend.reply_format({"response_format": {"type": "json_object"}}) == "grammar"
    assert backend.reply_format({}) == "none"


def test_only_the_embedded_judge_puts_its_weak_evidence_note_on_a_card() -> None:
    from judge.engine.judging.providers.embedded import EMBEDDED_NOTE

    assert judge_spec(EMBEDDED_MODEL).note == EMBEDDED_NOTE
    assert judge_spec(f"openai/gpt-4o-mini,{EMBEDDED_MODEL}").note == EMBEDDED_NOTE
    assert judge_spec("openai/gpt-4o-mini").note is None


def test_a_built_backend_carries_the_spec_it_was_built_from() -> None:
    spec = judge_spec("scripted/0.4,scripted/0.6")
    backend = backend_for(spec, dev_mode=True)
    assert spec_of(backend, "scripted/0.4,scripted/0.6", judging_environment()) is spec
    assert spec_of(backend, "scripted/0.4", judging_environment()).models == ["scripted/0.4"]
    assert spec_of(ScriptedBackend("{}"), "scripted/0.4", judging_environment()).models == [
        "scripted/0.4"
    ]


def test_a_panel_with_an_empty_or_repeated_member_is_refused_when_resolved() -> None:
    with pytest.raises(ConfigError, match="with none empty"):
        judge_spec("a,,b")
    with pytest.raises(ConfigError, match="names each model once"):
        judge_spec("a,b,a")


def test_a_registered_provider_replaces_a_shipped_one_of_the_same_name(
    restore_registry: None,
) -> None:
    def build(member: MemberSpec) -> ScriptedBackend:
        return ScriptedBackend("{}", model=member.model)

    profile = ServingProfile(many_prefixes=True)
    register(
        ProviderEntry("scripted", build, prefixes=("scripted/",), profile=lambda m, env: profile)
    )
    assert [e.name for e in entries()].count("scripted") == 1
    assert judge_spec("scripted/0.5").members[0].profile is profile
    assert judge_spec("scripted/0.5").refusal(dev_mode=False) is None


class HouseJudge:
    """A provider's backend as docs/architecture.md describes it: a model id and complete."""

    def __init__(self, model: str, score: float) -> None:
        self.model = model
        self.score = score

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        return JudgeReply(text=verdict(self.score, [1]), structured_output=True)


def test_a_provider_added_as_the_architecture_page_says_scores_a_run(
    restore_registry: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def build(member: MemberSpec) -> HouseJudge:
        return HouseJudge(member.model, 0.8 if member.env.dev_mode else 0.3)

    entry = ProviderEntry(
        "house",
        build,
        prefixes=("house/",),
        profile=lambda model, env: ServingProfile(many_prefixes=True),
        capabilities=lambda model: Capabilities(structured_output=True),
        decoder=lambda env: "house decode v1",
        note="judged by the house model",
    )
    register(entry)
    monkeypatch.setenv("JUDGE_DEV_MODE", "1")
    code = main(
        ["score", str(EXAMPLES / "haggle.json"), "--json", "--no-progress", "--judge", "house/j1"]
    )
    assert code == 0
    card = json.loads(capsys.readouterr().out)
    assert card["judge_model"] == "house/j1"
    assert card["judge_note"] == "judged by the house model"
    assert card["measurement_era"]["decoders"] == {"house/j1": "house decode v1"}
    assert card["seats"]["buyer"]["traits"]["negotiation"]["pass_scores"] == [0.8] * 5
    assert card["judge_parse"]["house/j1"]["structured_passes"] == 60
