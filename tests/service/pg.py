"""A throwaway PostgreSQL 15 server on loopback for the service tests.

``JUDGE_TEST_POSTGRES_URL`` (an admin URL, e.g. set by CI) wins; otherwise a cluster is
initialised in a temp dir and started on a free 127.0.0.1 port. As root, initdb and
postgres run as the ``postgres`` user through ``runuser``. Each test gets a fresh database
copied from a migrated template, dropped afterwards.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa

PG_BIN = Path(os.environ.get("JUDGE_TEST_PG_BIN", "/usr/lib/postgresql/15/bin"))


def available() -> bool:
    return bool(os.environ.get("JUDGE_TEST_POSTGRES_URL")) or (PG_BIN / "initdb").exists()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _as_postgres(argv: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


def _run(argv: list[str]) -> None:
    done = subprocess.run(_as_postgres(argv), check=False, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"{argv[0]} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")


@contextmanager
def throwaway_cluster() -> Iterator[str]:
    """Start a private cluster; yield its admin URL; stop and delete it afterwards."""
    root = Path(tempfile.mkdtemp(prefix="judge-pg-"))
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    data, port = root / "data", free_port()
    _run([str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"])
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    _run([str(PG_BIN / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(root / "log"), "-w", "start"])
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(_as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
                       check=False, capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


@contextmanager
def admin_url() -> Iterator[str]:
    if url := os.environ.get("JUDGE_TEST_POSTGRES_URL"):
        yield url.replace("postgresql://", "postgresql+psycopg://", 1) if url.startswith("postgresql://") else url
        return
    with throwaway_cluster() as url:
        yield url


def database_url(admin: str, name: str) -> str:
    return str(sa.engine.make_url(admin).set(database=name).render_as_string(hide_password=False))


def _admin(admin: str, statement: str) -> None:
    engine = sa.create_engine(admin, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            conn.execute(sa.text(statement))
    finally:
        engine.dispose()


def create_database(admin: str, *, template: str | None = None) -> str:
    """A new empty database (or a copy of ``template``); returns its name."""
    name = f"judge_test_{uuid.uuid4().hex[:12]}"
    _admin(admin, f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    return name


def drop_database(admin: str, name: str) -> None:
    _admin(admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
