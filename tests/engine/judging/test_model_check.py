"""Offline checks of a litellm judge model id (README: "Pointing it at a real judge")."""

from __future__ import annotations

import pytest

from judge.engine.judging.model_check import check_model
from judge.engine.judging.registry import startup_check
from judge.engine.settings import judge_spec, judging_environment


@pytest.fixture(autouse=True)
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_API_BASE", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def test_a_model_with_its_key_and_in_the_list_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")

    assert check_model("openai/gpt-4o-mini", judging_environment()) == (None, None)


def test_a_misspelt_model_of_a_known_provider_warns_naming_the_nearest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")

    check = check_model("openai/gpt-4o-mni", judging_environment())

    assert check.refusal is None
    assert check.warning == (
        "'openai/gpt-4o-mni' is not in litellm's model list (nearest: 'gpt-4o-mini'); "
        "scoring fails if openai does not know it"
    )


def test_a_local_server_or_ollama_needs_no_key_and_no_listed_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_BASE", "http://127.0.0.1:8080/v1")

    assert check_model("ollama/llama3.1", judging_environment()) == (None, None)
    assert check_model("openai/my-served-name", judging_environment()).warning is None


def test_the_embedded_and_scripted_judges_are_not_litellm_models() -> None:
    assert startup_check(judge_spec("embedded/smollm2-135m-instruct")) == (None, None)
    assert startup_check(judge_spec("scripted/0.7")) == (None, None)


def test_every_member_of_a_panel_is_checked() -> None:
    check = startup_check(
        judge_spec("embedded/smollm2-135m-instruct,anthropic/claude-3-5-haiku-latest")
    )

    assert check.refusal == (
        "'anthropic/claude-3-5-haiku-latest' needs ANTHROPIC_API_KEY, which is not set"
    )


def test_a_missing_key_is_refused_at_the_first_call_without_sending_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import asyncio

    import litellm

    from judge.core.errors import PermanentJudgeError
    from judge.engine.judging.backends import JudgeRequest
    from judge.engine.judging.providers.litellm import LiteLLMBackend

    sent: list[object] = []

    async def acompletion(**kwargs: object) -> object:
        sent.append(kwargs)
        raise AssertionError("no call may be sent without the key")

    monkeypatch.setattr(litellm, "acompletion", acompletion)
    backend = LiteLLMBackend("openai/gpt-4o-mini", env=judging_environment())
    request = JudgeRequest(messages=[{"role": "user", "content": "hi"}])

    with pytest.raises(PermanentJudgeError, match="needs OPENAI_API_KEY, which is not set"):
        asyncio.run(backend.complete(request))
    assert sent == []


def test_the_openai_clients_missing_key_error_is_permanent_not_a_retried_500() -> None:
    import litellm

    from judge.core.errors import PermanentJudgeError
    from judge.engine.judging.providers.litellm import classify_litellm_error

    exc = litellm.InternalServerError(
        message="OpenAIException - The api_key client option must be set either by passing "
        "api_key to the client or by setting the OPENAI_API_KEY environment variable",
        llm_provider="openai",
        model="gpt-4o-mini",
    )

    assert isinstance(classify_litellm_error(exc), PermanentJudgeError)
