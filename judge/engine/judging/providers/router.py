"""Judge traffic through a litellm Router: several deployments of one judge, under limits.

``JUDGE_MODEL=router:<file>.yaml`` names a YAML file in litellm's own shape, with secrets
written ``os.environ/NAME``; every call of the process goes through one Router per file, and
waits for capacity when every deployment is at its limit (docs/deploy.md, "The judge behind
a litellm Router").
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from judge.core.errors import ConfigError, describe_validation_error
from judge.engine.judging.backends import JudgeReply, JudgeRequest
from judge.engine.judging.environment import JudgingEnvironment
from judge.engine.judging.providers.litellm import (
    call_arguments,
    capabilities,
    classify_litellm_error,
    reply_from_response,
    supports_response_schema,
    verdict_response_format,
)
from judge.engine.judging.providers.litellm_loader import load_litellm
from judge.engine.judging.spec import Capabilities, ProviderEntry

ROUTER_PREFIX = "router:"
ENV_PREFIX = "os.environ/"
#: How long a call waits for a free deployment before it fails as a transient error.
CAPACITY_WAIT_S = 600.0
CAPACITY_POLL_S = 0.25
_LOCAL_LIMIT_MARKS = ("No deployments available", "max_parallel_requests slots in use")
_SETTINGS_DEFAULTS: dict[str, Any] = {"num_retries": 2, "enable_pre_call_checks": True}


class Deployment(BaseModel):
    model_config = ConfigDict(extra="allow")

    model_name: str = Field(min_length=1)
    litellm_params: dict[str, Any]


class RouterFile(BaseModel):
    """The YAML file: deployments of one model_name, and Router keyword arguments."""

    model_config = ConfigDict(extra="forbid")

    model_list: list[Deployment] = Field(min_length=1)
    router_settings: dict[str, Any] = Field(default_factory=dict)


def _resolve_env(value: Any, where: str, env: JudgingEnvironment) -> Any:
    if isinstance(value, str) and value.startswith(ENV_PREFIX):
        name = value.removeprefix(ENV_PREFIX)
        secret = env.secret(name)
        if secret is None:
            raise ConfigError(f"{where}: environment variable {name} is not set")
        return secret
    return value


def load_router_file(path: Path) -> RouterFile:
    """Read and check the file (ConfigError: unreadable, bad YAML, an unknown top-level key,
    several model names, a deployment without a model)."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        parsed = RouterFile.model_validate(data)
    except OSError as exc:
        raise ConfigError(f"JUDGE_MODEL: cannot read router file {path}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"JUDGE_MODEL: router file {path} is not valid YAML: {exc}") from None
    except ValidationError as exc:
        raise ConfigError(
            f"JUDGE_MODEL: router file {path}: {describe_validation_error(exc)}"
        ) from None
    _check_deployments(parsed, path)
    return parsed


def _check_deployments(parsed: RouterFile, path: Path) -> None:
    names = {d.model_name for d in parsed.model_list}
    if len(names) != 1:
        raise ConfigError(
            f"JUDGE_MODEL: router file {path}: list deployments of one model_name, not {sorted(names)}"
        )
    for n, deployment in enumerate(parsed.model_list):
        if not deployment.litellm_params.get("model"):
            raise ConfigError(
                f"JUDGE_MODEL: router file {path}: model_list.{n}.litellm_params.model is missing"
            )


def router_arguments(parsed: RouterFile, *, where: str, env: JudgingEnvironment) -> dict[str, Any]:
    """Keyword arguments of litellm.Router: secrets read from the environment, our defaults."""
    deployments = []
    for n, d in enumerate(parsed.model_list):
        params = {
            k: _resolve_env(v, f"{where}: model_list.{n}.litellm_params.{k}", env)
            for k, v in d.litellm_params.items()
        }
        deployments.append({**d.model_dump(), "litellm_params": params})
    limited = any({"rpm", "tpm"} & set(d.litellm_params) for d in parsed.model_list)
    defaults = {
        **_SETTINGS_DEFAULTS,
        **({"routing_strategy": "usage-based-routing-v2"} if limited else {}),
    }
    return {**defaults, **parsed.router_settings, "model_list": deployments}


def is_local_limit(exc: Exception) -> bool:
    """The Router refused the call itself: every deployment is at its limit (not a provider 429)."""
    return type(exc).__name__ == "RateLimitError" and any(
        mark in str(exc) for mark in _LOCAL_LIMIT_MARKS
    )


class RouterBackend:
    """A judge backend that sends every call through one litellm Router."""

    def __init__(
        self,
        model: str,
        router: Any,
        group: str,
        *,
        timeout: float = 120.0,
        capacity_wait_s: float = CAPACITY_WAIT_S,
        deployment_model: str | None = None,
    ) -> None:
        self.model = model
        self.router = router
        self.group = group
        self.timeout = timeout
        self.capacity_wait_s = capacity_wait_s
        #: the first deployment's model: what decides structured output (deployments serve one model)
        self.deployment_model = deployment_model

    def _signal_kwargs(self, request: JudgeRequest) -> dict[str, Any]:
        """The verdict schema where litellm says the deployments' model enforces one."""
        if (
            self.deployment_model
            and request.response_schema
            and supports_response_schema(self.deployment_model)
        ):
            return {"response_format": verdict_response_format(request.response_schema)}
        return {}

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        deadline = time.monotonic() + self.capacity_wait_s
        signal = self._signal_kwargs(request)
        while True:
            try:
                response = await self.router.acompletion(
                    **call_arguments(self.group, request.messages, request, timeout=self.timeout),
                    **signal,
                )
            except Exception as exc:  # mapped to our tree; local limits wait for capacity
                if is_local_limit(exc) and time.monotonic() < deadline:
                    await asyncio.sleep(CAPACITY_POLL_S)
                    continue
                raise classify_litellm_error(exc) from exc
            reply = reply_from_response(response)
            return reply.model_copy(
                update={
                    "structured_output": bool(signal),
                    "reply_format": "json_schema" if signal else "none",
                }
            )


_routers: dict[str, RouterBackend] = {}
_lock = threading.Lock()


def router_backend(model: str, env: JudgingEnvironment) -> RouterBackend:
    """The process's backend for a router file (one Router per file, so limits hold)."""
    with _lock:
        if model not in _routers:
            _routers[model] = build_router_backend(model, env)
        return _routers[model]


def build_router_backend(model: str, env: JudgingEnvironment) -> RouterBackend:
    load_litellm()
    from litellm.router import Router

    path = Path(model.removeprefix(ROUTER_PREFIX)).expanduser()
    parsed = load_router_file(path)
    arguments = router_arguments(parsed, where=f"router file {path}", env=env)
    try:
        router = Router(**arguments)
    except (TypeError, ValueError) as exc:
        raise ConfigError(
            f"JUDGE_MODEL: router file {path}: litellm.Router refused it: {exc}"
        ) from None
    first = str(parsed.model_list[0].litellm_params["model"])
    return RouterBackend(model, router, parsed.model_list[0].model_name, deployment_model=first)


def router_capabilities(model: str) -> Capabilities:
    """What the router file's first deployment's model returns (its deployments serve one)."""
    parsed = load_router_file(Path(model.removeprefix(ROUTER_PREFIX)).expanduser())
    return capabilities(str(parsed.model_list[0].litellm_params["model"]))


ENTRY = ProviderEntry(
    "router",
    lambda member: router_backend(member.model, member.env),
    prefixes=(ROUTER_PREFIX,),
    suffixes=(".yaml", ".yml"),
    capabilities=router_capabilities,
)
