"""`judge serve`: run the HTTP service (uvicorn) on the environment's settings."""

from __future__ import annotations

import argparse
import logging
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("serve", help="run the HTTP service (settings from JUDGE_* variables)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--workers", type=int, default=None,
                   help="runs scored at once in this process (default JUDGE_WORKERS; 0: API only, PostgreSQL)")
    p.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from judge.api import create_app
    from judge.service.executors import executor_kind
    from judge.settings import get_settings, load_settings

    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    settings = get_settings()
    if args.workers is not None:
        settings = load_settings(**{**settings.model_dump(), "workers": args.workers})
    executor_kind(settings)  # refuse an impossible executor before the server starts
    app = create_app(settings)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    return 0
