"""The scripted test judge, dev mode only: ``scripted/<score>`` (e.g. ``scripted/0.7``)
answers every call with that score, and every pairwise call with "the seat shown first", so
the CLI, the service and the Python API run end to end without a model. For tests that run
a real process, ``JUDGE_TEST_JUDGE_DELAY`` sets the seconds a call takes and
``JUDGE_TEST_JUDGE_LOG`` a file each call appends ``<pid> <trait>`` to.
"""

from __future__ import annotations

import json
import os

from judge.core.errors import ConfigError
from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.engine.judging.environment import JudgingEnvironment
from judge.engine.judging.pairwise import PAIRWISE_SCHEMA
from judge.engine.judging.spec import ProviderEntry

SCRIPTED_PREFIX = "scripted/"
#: Every pairwise call's answer: the seat shown first is better, the purest position bias,
#: whose flip rate must read 100% (docs/scoring.md).
PAIRWISE_REPLY = json.dumps(
    {"rationale": "scripted test judge", "turns_first": [1], "turns_second": [1], "better": "first"}
)


def scripted_score(model: str) -> float:
    """The score a scripted model id names (ConfigError: not a number in 0.0-1.0)."""
    text = model.removeprefix(SCRIPTED_PREFIX) or "0.7"
    try:
        score = float(text)
    except ValueError:
        raise ConfigError(
            f"JUDGE_MODEL: {model!r}: scripted judges are named scripted/<score>"
        ) from None
    if not 0.0 <= score <= 1.0:
        raise ConfigError(f"JUDGE_MODEL: {model!r}: the score must lie in 0.0-1.0")
    return score


def scripted_backend(model: str, env: JudgingEnvironment | None = None) -> ScriptedBackend:
    """The fake judge named by ``model``, with the delay and call log of the settings."""
    env = env or JudgingEnvironment()
    score = scripted_score(model)
    log = env.test_judge_log
    reply = json.dumps({"score": score, "turns": [1], "rationale": "scripted test judge"})

    def answer(request: JudgeRequest) -> str:
        if log:
            with open(log, "a", encoding="utf-8") as handle:
                handle.write(f"{os.getpid()} {request.label}\n")
        return PAIRWISE_REPLY if request.response_schema == PAIRWISE_SCHEMA else reply

    return ScriptedBackend(answer, model=model, delay=env.test_judge_delay_s)


ENTRY = ProviderEntry(
    "scripted",
    lambda member: scripted_backend(member.model, member.env),
    prefixes=(SCRIPTED_PREFIX,),
    dev_only=True,
)
