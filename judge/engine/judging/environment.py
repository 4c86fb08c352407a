"""What the judge providers read of the process's settings, as one value: the judging layer
reads no environment variable itself (:func:`judge.engine.settings.judging_environment` does).
Where ``openai/`` ids point is decided here and nowhere else (:func:`custom_openai_base`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


def _unset(name: str) -> str | None:
    return None


@dataclass(frozen=True)
class JudgingEnvironment:
    """The settings judge providers read, each from the variable of its name
    (docs/deploy.md lists them); ``secret`` reads a variable a router file names
    (``os.environ/NAME``), None when it is not set."""

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
