"""`judge worker`: score runs from the PostgreSQL job queue (docs/deploy.md). SIGTERM or Ctrl-C
stops one gracefully: running jobs get a few seconds, then go back to the queue."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import socket
from typing import Any

from judge.tools.cli.options import add_log_level_option, start_logging

MAX_CONCURRENCY = 256


def register(sub: Any) -> None:
    p = sub.add_parser(
        "worker", help="score runs from the PostgreSQL job queue (needs JUDGE_DATABASE_URL)"
    )
    p.add_argument(
        "--concurrency",
        type=int,
        default=4,
        help=f"runs scored at the same time by this process (1-{MAX_CONCURRENCY}, default 4)",
    )
    p.add_argument(
        "--metrics-port",
        type=int,
        help="serve this worker's Prometheus metrics on this port (default: none)",
    )
    p.add_argument(
        "--metrics-host",
        default="127.0.0.1",
        help="address of the metrics port (default 127.0.0.1)",
    )
    add_log_level_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = _settings(args.concurrency)
    start_logging(args.log_level)
    if args.metrics_port is not None:
        from prometheus_client import start_http_server

        from judge.engine.telemetry.prometheus import REGISTRY

        start_http_server(args.metrics_port, addr=args.metrics_host, registry=REGISTRY)
    asyncio.run(_main(settings, args.concurrency))
    return 0


def _settings(concurrency: int) -> Any:
    """The environment's settings, once the concurrency and the store can serve a worker."""
    from judge.core.errors import ConfigError
    from judge.engine.settings import get_settings
    from judge.server.store.db import is_postgres_url

    if not 1 <= concurrency <= MAX_CONCURRENCY:
        raise ConfigError(f"--concurrency must lie in 1-{MAX_CONCURRENCY}, not {concurrency}")
    settings = get_settings()
    if not is_postgres_url(settings.database_url):
        raise ConfigError(
            "judge worker takes jobs from the PostgreSQL queue: set JUDGE_DATABASE_URL to a PostgreSQL "
            "database (with SQLite, runs are scored inside `judge serve`)"
        )
    return settings


def _stop_on_signals() -> asyncio.Event:
    """An event SIGTERM and Ctrl-C set: the worker's cue to stop taking jobs."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    return stop


async def _main(settings: Any, concurrency: int) -> None:
    from judge.engine.judging.providers.litellm_loader import load_litellm
    from judge.server.service.jobqueue import tasks
    from judge.server.service.jobqueue.worker import serve_jobs
    from judge.server.service.scoring import resolve_backend
    from judge.server.store.db import make_engine
    from judge.server.store.schema import upgrade_all

    engine = make_engine(settings.database_url)
    await asyncio.to_thread(upgrade_all, engine)
    # seconds of imports, before taking jobs
    await asyncio.to_thread(load_litellm)
    stop = _stop_on_signals()
    runtime = tasks.Runtime(engine, settings, resolve_backend(settings))
    logging.getLogger("judge.worker").info("worker started: %d run(s) at a time", concurrency)
    try:
        await serve_jobs(runtime, concurrency=concurrency, name=socket.gethostname(), stop=stop)
    finally:
        engine.dispose()
