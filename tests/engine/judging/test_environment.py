"""Where ``openai/`` ids point is decided by one rule: the argument, then $OPENAI_BASE_URL,
then $OPENAI_API_BASE; OpenAI's own API is not a server of one's own."""

from __future__ import annotations

import pytest

from judge.engine.judging.environment import JudgingEnvironment, custom_openai_base, openai_base

BOTH = JudgingEnvironment(
    openai_base_url="http://127.0.0.1:8080/v1", openai_api_base="http://10.0.0.9/v1"
)


@pytest.mark.parametrize(
    ("argument", "env", "expected"),
    [
        ("http://given/v1", BOTH, "http://given/v1"),
        (None, BOTH, "http://127.0.0.1:8080/v1"),
        (None, JudgingEnvironment(openai_api_base="http://10.0.0.9/v1"), "http://10.0.0.9/v1"),
        (None, JudgingEnvironment(), None),
        ("", JudgingEnvironment(openai_base_url=""), None),
    ],
)
def test_the_base_is_the_first_one_set(
    argument: str | None, env: JudgingEnvironment, expected: str | None
) -> None:
    assert openai_base(argument, env) == expected


def test_only_a_server_other_than_openai_is_ones_own() -> None:
    assert custom_openai_base(None, BOTH) is True
    assert custom_openai_base(None, JudgingEnvironment()) is False
    assert custom_openai_base("https://api.openai.com/v1", JudgingEnvironment()) is False


def test_the_key_and_the_secret_reader_stay_out_of_its_text() -> None:
    env = JudgingEnvironment(openai_api_key="sk-very-secret", secret=lambda name: "hidden")

    assert "sk-very-secret" not in repr(env) and "hidden" not in repr(env)
    assert env.secret("ANY") == "hidden" and JudgingEnvironment().secret("ANY") is None
