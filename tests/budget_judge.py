"""A counting, priced scripted judge for the budget tests: every call answers a verdict and
says what it cost, and ``history`` counts the calls."""

from __future__ import annotations

from judge.engine.judging.backends import JudgeReply, ScriptedBackend
from tests.helpers import verdict

#: A model litellm's price map knows, so that estimates have a price.
PRICED_MODEL = "gpt-4o-mini"


def priced_judge(
    *, usd: float = 0.01, prompt: int = 1000, completion: int = 50, model: str = PRICED_MODEL
) -> ScriptedBackend:
    """Every call costs ``usd`` and ``prompt`` + ``completion`` tokens."""
    reply = JudgeReply(
        text=verdict(0.6),
        prompt_tokens=prompt,
        cached_prompt_tokens=prompt // 2,
        completion_tokens=completion,
        cost_usd=usd,
    )
    return ScriptedBackend(reply, model=model)
