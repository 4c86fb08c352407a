"""Every setting the package reads from the environment, read here and nowhere else
(``tests/engine/test_settings.py`` holds every module to it); the variables are in
docs/service.md, "Settings".

Outside dev mode the service refuses a guessable JWT secret: it would let anyone mint owner
tokens.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import logging
import os
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import (
    AliasChoices,
    Field,
    PrivateAttr,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict

from judge.core.domain.config import MIN_PASSES_FLOOR
from judge.core.domain.judging import ScoreMode
from judge.core.domain.limits import RequestLimits
from judge.core.domain.passes import PassPolicy
from judge.core.errors import ConfigError, describe_validation_error
from judge.engine.judging.environment import JudgingEnvironment
from judge.engine.judging.providers.embedded import EMBEDDED_MODEL
from judge.engine.judging.registry import JudgeSpec, resolve
from judge.engine.judging.runner import RUNNER_DEFAULTS
from judge.engine.judging.self_screen import screen_refusal

log = logging.getLogger("judge.engine.settings")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
HTTP_URL = r"^https?://[^\s/]+(/[^\s]*)?$"

#: The secret dev mode signs with when none is given. Public, so never valid in production.
DEV_SECRET = "judge-dev-mode-secret-NOT-FOR-PRODUCTION-0000"
MIN_SECRET_BYTES = 32
LIMIT_DEFAULTS = RequestLimits()
#: A secret needs this many different characters: "aaaa..." or a repeated word is guessable.
MIN_SECRET_DISTINCT = 12
_KNOWN_WEAK = {s.lower() for s in ("", "secret", "changethis", "changeme", "change-me", DEV_SECRET)}
METRICS_TOKEN_HINT = (
    "set it to a random value of at least 32 bytes (`secrets.token_urlsafe(48)`), or leave it "
    "unset so that only owner tokens read /metrics"
)
SECRET_HINT = (
    "set JUDGE_JWT_SECRET to a random value of at least 32 bytes, e.g. "
    "`export JUDGE_JWT_SECRET=$(python -c 'import secrets; print(secrets.token_urlsafe(48))')`, "
    "or set JUDGE_DEV_MODE=1 for a local, insecure development service"
)
DEV_MODE_BANNER = (
    "JUDGE IS RUNNING IN DEV MODE: owner tokens are signed with a public development secret "
    "and test-only judges are allowed. Never expose this service."
)


class JudgeModelSettings(BaseSettings):
    """The judge and dev mode: what every command that judges reads (:class:`Settings` too)."""

    model_config = SettingsConfigDict(
        env_prefix="JUDGE_", extra="ignore", frozen=True, allow_inf_nan=False
    )

    model: str = Field(default=EMBEDDED_MODEL, min_length=1)
    score_mode: ScoreMode = Field(
        default="sampled",
        validation_alias=AliasChoices("score_mode", "JUDGE_PASS_SCORE", "pass_score"),
    )
    dev_mode: bool = False
    otlp_endpoint: str | None = Field(default=None, pattern=r"^https?://[^\s]+$", max_length=2000)
    # scores out as Phoenix span annotations and Langfuse scores (docs/integrations.md; read by
    # judge.engine.telemetry.annotations.receivers_of); the keys are secrets: SecretStr, so no
    # repr, log line or error message ever shows them
    phoenix_endpoint: str | None = Field(default=None, pattern=HTTP_URL, max_length=2000)
    phoenix_api_key: SecretStr | None = None
    langfuse_endpoint: str | None = Field(default=None, pattern=HTTP_URL, max_length=2000)
    langfuse_public_key: str | None = Field(default=None, min_length=1, max_length=200)
    langfuse_secret_key: SecretStr | None = None
    _judge: JudgeSpec | None = PrivateAttr(default=None)

    @field_validator("otlp_endpoint", "phoenix_endpoint", "langfuse_endpoint")
    @classmethod
    def _no_credentials_in_urls(cls, value: str | None) -> str | None:
        # a URL is logged in warnings; credentials belong in the secret settings
        if value is not None and "@" in value.split("/", 3)[2]:
            raise ValueError("credentials go in their own settings, not in the URL (user@host)")
        return value

    @model_validator(mode="after")
    def _receivers_have_their_keys(self) -> JudgeModelSettings:
        keys = (self.langfuse_public_key, self.langfuse_secret_key)
        if self.langfuse_endpoint is not None and None in keys:
            raise ValueError(
                "JUDGE_LANGFUSE_ENDPOINT needs JUDGE_LANGFUSE_PUBLIC_KEY and "
                "JUDGE_LANGFUSE_SECRET_KEY (the project's API keys)"
            )
        if self.langfuse_endpoint is None and keys != (None, None):
            raise ValueError("Langfuse keys are set but JUDGE_LANGFUSE_ENDPOINT is not")
        if self.phoenix_endpoint is None and self.phoenix_api_key is not None:
            raise ValueError("JUDGE_PHOENIX_API_KEY is set but JUDGE_PHOENIX_ENDPOINT is not")
        return self

    @model_validator(mode="after")
    def _test_judge_needs_dev_mode(self) -> JudgeModelSettings:
        spec = resolve(self.model, judging_environment(dev_mode=self.dev_mode))
        if (reason := spec.refusal(dev_mode=self.dev_mode)) is not None:
            raise ValueError(f"JUDGE_MODEL {reason}")
        self._judge = spec
        return self

    @property
    def judge(self) -> JudgeSpec:
        """The judge model, parsed once when the settings were read."""
        return self._judge or resolve(self.model, judging_environment(dev_mode=self.dev_mode))


class Settings(JudgeModelSettings):
    """Everything the service and its CLI read from the environment (docs/service.md)."""

    database_url: str = "sqlite:///./judge.db"
    jwt_secret: SecretStr = SecretStr("")
    jwt_audience: str = Field(default="judge", min_length=1)
    scenarios_dir: Path | None = None
    workers: int = Field(default=1, ge=0, le=64)
    passes: Annotated[int, Field(ge=1, le=50)] | PassPolicy | None = None
    concurrency: int = Field(default=RUNNER_DEFAULTS.concurrency, ge=1, le=256)
    max_attempts: int = Field(default=RUNNER_DEFAULTS.max_attempts, ge=1, le=20)
    backoff_initial_s: float = Field(default=RUNNER_DEFAULTS.backoff_initial_s, ge=0.0)
    store_retry_s: float = Field(default=120.0, ge=0.0, le=3600.0)
    store_sweep_s: float = Field(default=30.0, ge=0.5, le=3600.0)
    #: how long an owner's budget hold (a `judge align` proposal's estimate) counts in today's
    #: spend unless its request ends first; bounds what a process that died mid-request
    #: leaves held (docs/service.md, "Budgets")
    budget_hold_s: float = Field(default=3600.0, ge=60.0, le=86_400.0)
    #: CPU seconds the integrity scan of one run may use; past them the run is held as
    #: ``unscannable``, never judged (docs/integrity.md)
    scan_cpu_s: float = Field(default=10.0, gt=0.0, le=600.0)
    #: the judge's own screen of every scored seat, one call each (docs/integrity.md); off by
    #: default and refused for the embedded judge, too small to answer it reliably
    judge_screen: bool = Field(
        default=False, validation_alias=AliasChoices("judge_screen", "JUDGE_SCREEN")
    )

    # request limits and rate limits (docs/security.md)
    max_body_bytes: int = Field(default=LIMIT_DEFAULTS.max_body_bytes, ge=1024, le=256 * 1024**2)
    max_json_depth: int = Field(default=LIMIT_DEFAULTS.max_json_depth, ge=4, le=64)
    max_text_chars: int = Field(default=LIMIT_DEFAULTS.max_text_chars, ge=200)
    max_array_items: int = Field(default=LIMIT_DEFAULTS.max_array_items, ge=10)
    max_events: int = Field(default=LIMIT_DEFAULTS.max_events, ge=1)
    max_win_conditions: int = Field(default=LIMIT_DEFAULTS.max_win_conditions, ge=1)
    max_trace_steps: int = Field(default=LIMIT_DEFAULTS.max_trace_steps, ge=1)
    max_seats: int = Field(default=LIMIT_DEFAULTS.max_seats, ge=1)
    rate_window_s: float = Field(default=60.0, gt=0.0, le=86_400.0)
    max_submissions_per_key: int = Field(default=100, ge=0)
    max_failed_auth_per_client: int = Field(default=30, ge=0)
    trusted_proxies: str = Field(default="", max_length=4000)

    # live traces over OTLP/HTTP at /v1/traces (docs/integrations.md, "Live traces")
    #: a trace whose root span has ended becomes runs once no span of it arrived for this long
    ingest_quiet_s: float = Field(default=30.0, ge=0.0, le=86_400.0)
    #: a trace still pending this long after its first span (no root span ended) is closed unscored
    ingest_stale_s: float = Field(default=3600.0, gt=0.0, le=7 * 86_400.0)
    #: how often the service looks for quiet traces
    ingest_sweep_s: float = Field(default=5.0, ge=0.05, le=3600.0)
    #: the most one request may carry, as sent and once inflated (gzip)
    ingest_max_body_bytes: int = Field(default=8 * 1024**2, ge=1024, le=256 * 1024**2)
    ingest_max_spans_per_request: int = Field(default=5000, ge=1, le=1_000_000)
    #: the most spans one source may have in traces not yet decided; past it 429 with Retry-After
    ingest_max_pending_spans: int = Field(default=100_000, ge=1)

    # scale-out (docs/deploy.md)
    executor: Literal["auto", "threads", "queue"] = "auto"
    heartbeat_s: float = Field(default=10.0, gt=0.0, le=600.0)
    stalled_after_s: float = Field(default=30.0, gt=0.0, le=3600.0)
    metrics_token: SecretStr | None = None

    @model_validator(mode="after")
    def _secret_is_safe(self) -> Settings:
        if self.dev_mode:
            return self
        if problem := secret_problem(self.jwt_secret.get_secret_value()):
            raise ValueError(f"JUDGE_JWT_SECRET {problem}; {SECRET_HINT}")
        token = self.metrics_token.get_secret_value() if self.metrics_token else None
        # a weak scrape token reads /metrics as well as a guessed owner token
        if token is not None and (problem := secret_problem(token)):
            raise ValueError(f"JUDGE_METRICS_TOKEN {problem}; {METRICS_TOKEN_HINT}")
        return self

    @field_validator("passes")
    @classmethod
    def _policy_floor_is_the_platforms(
        cls, value: int | PassPolicy | None
    ) -> int | PassPolicy | None:
        if isinstance(value, PassPolicy) and value.floor < MIN_PASSES_FLOOR:
            raise ValueError(f"floor must be at least {MIN_PASSES_FLOOR}, got {value.floor}")
        return value

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies_are_networks(cls, value: str) -> str:
        parse_networks(value)
        return value

    @property
    def trusted_networks(self) -> tuple[Network, ...]:
        """The proxies whose forwarding headers are believed (``judge.server.api.proxies``)."""
        return parse_networks(self.trusted_proxies)

    @property
    def request_limits(self) -> RequestLimits:
        return RequestLimits(**{name: getattr(self, name) for name in RequestLimits._fields})

    @model_validator(mode="after")
    def _screen_needs_a_capable_judge(self) -> Settings:
        if self.judge_screen and (refused := screen_refusal(self.judge.models[0])):
            raise ValueError(f"JUDGE_SCREEN: {refused}")
        return self

    @model_validator(mode="after")
    def _stall_outlasts_heartbeats(self) -> Settings:
        if self.stalled_after_s < 2 * self.heartbeat_s:
            raise ValueError(
                "JUDGE_STALLED_AFTER_S must be at least twice JUDGE_HEARTBEAT_S, or live workers "
                "would be taken for dead and their runs judged twice"
            )
        return self

    @property
    def signing_secret(self) -> str:
        """The secret tokens are signed with (the dev secret when dev mode has none)."""
        secret = self.jwt_secret.get_secret_value()
        return secret if secret or not self.dev_mode else DEV_SECRET


def parse_networks(text: str) -> tuple[Network, ...]:
    """Addresses and CIDR networks, comma-separated; ValueError names an entry that is neither."""
    networks = []
    for entry in (part.strip() for part in text.split(",")):
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(f"{entry!r} is not an IP address or CIDR network") from None
    return tuple(networks)


def secret_problem(secret: str) -> str | None:
    """Why ``secret`` may not sign tokens or guard ``/metrics`` outside dev mode, or None."""
    if secret.strip().lower() in _KNOWN_WEAK:
        return "is empty or a well-known value"
    if len(secret.encode()) < MIN_SECRET_BYTES:
        return f"is shorter than {MIN_SECRET_BYTES} bytes"
    return secret_weakness(secret)


def secret_weakness(secret: str) -> str | None:
    """Why a long enough secret is still guessable (too few different characters, or a
    shorter piece repeated), or None."""
    if len(set(secret)) < MIN_SECRET_DISTINCT:
        return f"has fewer than {MIN_SECRET_DISTINCT} different characters"
    for period in range(1, len(secret) // 2 + 1):
        if all(secret[i] == secret[i % period] for i in range(period, len(secret))):
            return f"is a {period}-character piece repeated"
    return None


def load_settings(**overrides: object) -> Settings:
    """Build settings from the environment (and overrides), as a ConfigError when unsafe."""
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        raise ConfigError(f"service settings: {_problem(exc)}") from None
    if settings.dev_mode:
        announce_dev_mode()
    return settings


def _problem(exc: ValidationError) -> str:
    return describe_validation_error(exc).replace("(top level): ", "")


def hand_down_workers(workers: int) -> None:
    """Set ``JUDGE_WORKERS`` for the processes ``judge serve --processes N`` starts (the one
    place the package writes into the environment)."""
    os.environ["JUDGE_WORKERS"] = str(workers)


def judge_model_settings(**overrides: object) -> JudgeModelSettings:
    """The judge model and dev mode from the environment (and overrides), for commands that
    judge without the service; ConfigError for a test-only judge outside dev mode."""
    given = {k: v for k, v in overrides.items() if v is not None}
    try:
        return JudgeModelSettings(**given)  # type: ignore[arg-type]
    except ValidationError as exc:
        problem = _problem(exc)
        if "model" in given:  # named by the caller (--judge), not JUDGE_MODEL
            problem = problem.replace("JUDGE_MODEL ", "judge model ", 1)
        raise ConfigError(problem) from None


class JudgingSettings(BaseSettings):
    """What the judge providers read (judge/engine/judging/providers/); an empty variable is unset."""

    model_config = SettingsConfigDict(
        env_prefix="JUDGE_", extra="ignore", frozen=True, env_ignore_empty=True
    )

    dev_mode: bool = False
    embedded_gguf: Path | None = None  # the embedded judge's weights
    embedded_threads: int | None = None  # llama.cpp threads; default: half the cores
    test_judge_delay: float = Field(default=0.0, ge=0.0)  # seconds per scripted-judge call
    test_judge_log: Path | None = None  # the scripted judge appends `<pid> <trait>` lines here
    openai_client: str = "direct"  # or litellm (docs/deploy.md)
    openai_base_url: str | None = Field(default=None, validation_alias="OPENAI_BASE_URL")
    openai_api_base: str | None = Field(default=None, validation_alias="OPENAI_API_BASE")
    openai_api_key: SecretStr | None = Field(default=None, validation_alias="OPENAI_API_KEY")

    def environment(self) -> JudgingEnvironment:
        values = {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(JudgingEnvironment)
            if f.name in type(self).model_fields
        }
        values["openai_api_key"] = (
            self.openai_api_key.get_secret_value() if self.openai_api_key else None
        )
        return JudgingEnvironment(
            **values, test_judge_delay_s=self.test_judge_delay, secret=os.environ.get
        )


def judging_environment(**overrides: object) -> JudgingEnvironment:
    """What the judge providers read, from the environment (and overrides); ConfigError names
    a malformed variable."""
    given = {k: v for k, v in overrides.items() if v is not None}
    try:
        return JudgingSettings(**given).environment()  # type: ignore[arg-type]
    except ValidationError as exc:
        raise ConfigError(_problem(exc)) from None


def judge_spec(model: str, *, dev_mode: bool | None = None) -> JudgeSpec:
    """A judge id resolved with the providers' settings from the environment (ConfigError
    when malformed); ``dev_mode`` overrides ``JUDGE_DEV_MODE``."""
    return resolve(model, judging_environment(dev_mode=dev_mode))


class ProcessSettings(BaseSettings):
    """Settings of a command beside the judge's and the service's; an empty variable is unset."""

    model_config = SettingsConfigDict(
        env_prefix="JUDGE_", extra="ignore", frozen=True, env_ignore_empty=True
    )

    data_dir: Path | None = None  # where rubrics/, traits/ and calibration_sets/ live
    shared_data: Path | None = None  # root of the human-labelled calibration data
    database_url: str | None = None  # the store a command reads
    debug: str = ""  # anything but 0: internal errors show a traceback

    @property
    def debug_on(self) -> bool:
        return self.debug not in ("", "0")


def process_settings() -> ProcessSettings:
    return ProcessSettings()


_announced: list[bool] = []


def announce_dev_mode() -> None:
    """Say loudly, once per process, that the service runs in dev mode."""
    if not _announced:
        _announced.append(True)
        log.warning(DEV_MODE_BANNER)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process's settings (a FastAPI dependency; the app factory pins it to its own)."""
    return load_settings()
