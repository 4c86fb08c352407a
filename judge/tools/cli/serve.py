"""`judge serve`: run the HTTP service (uvicorn) on the environment's settings."""

from __future__ import annotations

import argparse
import ipaddress
import sys
from typing import TYPE_CHECKING, Any

from judge.core.errors import ConfigError
from judge.tools.cli.options import add_log_level_option, start_logging

if TYPE_CHECKING:
    from judge.engine.settings import Settings

#: Keep-alive: clients that poll (agents reading their cards) reuse their connection.
KEEP_ALIVE_S = 5.0


def register(sub: Any) -> None:
    p = sub.add_parser("serve", help="run the HTTP service (settings from JUDGE_* variables)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument(
        "--workers",
        type=int,
        help="runs scored at once in this process (default JUDGE_WORKERS; 0: API only, PostgreSQL)",
    )
    p.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes behind the one port (default 1; more than 1 needs the PostgreSQL "
        "job queue: docs/deploy.md#how-many-requests-a-core-serves)",
    )
    p.add_argument(
        "--keep-alive",
        type=float,
        default=KEEP_ALIVE_S,
        help=f"seconds an idle HTTP/1.1 connection stays open (default {KEEP_ALIVE_S:g})",
    )
    add_log_level_option(p)
    p.set_defaults(func=run)


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, *, dev_mode: bool) -> None:
    """Refuse (ConfigError) a dev-mode service, whose tokens are signed with a public secret,
    on a host that is not loopback."""
    if dev_mode and not is_loopback(host):
        raise ConfigError(
            f"--host {host}: dev mode (JUDGE_DEV_MODE=1) signs tokens with a public secret and only "
            "listens on a loopback address such as 127.0.0.1; unset JUDGE_DEV_MODE and set a "
            "JUDGE_JWT_SECRET to serve on other addresses"
        )


def check_processes(processes: int, *, executor: str) -> None:
    """Refuse (ConfigError) fewer than one process, or several on the thread executor: each
    would resume and score the same runs, and only the job queue hands a run to one."""
    if processes < 1:
        raise ConfigError(f"--processes {processes}: give at least 1")
    if processes > 1 and executor != "queue":
        raise ConfigError(
            f"--processes {processes}: several server processes need the job queue (a PostgreSQL "
            "JUDGE_DATABASE_URL); with scoring on threads inside judge serve, use one process"
        )


def check_judge_model(model: str) -> None:
    """Refuse (ConfigError) a judge model that cannot work (unknown provider, missing key)
    before the server starts; one warning line for a model litellm does not list."""
    from judge.engine.judging.registry import startup_check
    from judge.engine.settings import judge_spec

    check = startup_check(judge_spec(model))
    if check.refusal:
        raise ConfigError(f"JUDGE_MODEL {check.refusal}")
    if check.warning:
        print(f"judge: warning: JUDGE_MODEL {check.warning}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from judge.engine.settings import get_settings, load_settings
    from judge.server.service.jobqueue.executors import executor_kind

    settings = get_settings()
    check_bind(args.host, dev_mode=settings.dev_mode)
    start_logging(args.log_level)
    if args.workers is not None:
        settings = load_settings(**{**settings.model_dump(), "workers": args.workers})
    # refuse an impossible executor or process count before the server starts
    check_processes(args.processes, executor=executor_kind(settings))
    check_judge_model(settings.model)
    _serve(args, settings)
    return 0


def _serve(args: argparse.Namespace, settings: Settings) -> None:
    import uvicorn

    from judge.engine.settings import hand_down_workers
    from judge.server.web import create_app

    # forwarding headers are read by the app, from JUDGE_TRUSTED_PROXIES only (judge.server.api.proxies)
    options: dict[str, Any] = {
        "host": args.host,
        "port": args.port,
        "log_level": args.log_level,
        "proxy_headers": False,
        "timeout_keep_alive": args.keep_alive,
    }
    if args.processes > 1:
        # each process builds the app from the environment it inherits
        if args.workers is not None:
            hand_down_workers(args.workers)
        uvicorn.run("judge.server.web:create_app", factory=True, workers=args.processes, **options)
    else:
        uvicorn.run(create_app(settings), **options)
