"""The one PostgreSQL harness of the test suite.

Uses the server in ``JUDGE_TEST_POSTGRES_URL`` (a superuser URL; CI sets it) when set;
otherwise starts a throwaway cluster on 127.0.0.1 in a temporary folder and removes it at
the end of the session. Tests are skipped, saying why, only when neither is possible.

The fixtures live in ``tests/conftest.py``: ``postgres_server`` (the session's server, or a
skip), ``postgres_or_none`` (the same, or None, for tests that run on SQLite as well) and the
migrated databases built on them. A test that must stop and start its own server (an outage)
uses :class:`ThrowawayCluster` directly.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

import psycopg
from psycopg import sql

ENV_URL = "JUDGE_TEST_POSTGRES_URL"
ENV_BIN = "JUDGE_TEST_PG_BIN"
NO_POSTGRES = f"no PostgreSQL: initdb not found (set {ENV_BIN}) and {ENV_URL} is not set"


@dataclass(frozen=True)
class PostgresServer:
    """A reachable server and a superuser URL to its maintenance database."""

    admin_url: str

    def url(self, *, database: str, user: str | None = None, password: str | None = None) -> str:
        """The admin URL pointed at another database, optionally as another user."""
        parts = urlsplit(self.admin_url)
        host = parts.hostname or ""
        netloc = f"[{host}]" if ":" in host else host
        if parts.port:
            netloc += f":{parts.port}"
        login = quote(user if user is not None else (parts.username or ""), safe="")
        secret = password if user is not None else parts.password
        if login:
            netloc = f"{login}:{quote(secret, safe='')}@{netloc}" if secret else f"{login}@{netloc}"
        scheme = parts.scheme.split("+")[0]
        return urlunsplit((scheme, netloc, "/" + quote(database), parts.query, ""))

    def sqlalchemy_url(self, database: str) -> str:
        """The URL of ``database`` for :func:`judge.server.store.db.make_engine` (psycopg 3 driver)."""
        return self.url(database=database).replace("postgresql://", "postgresql+psycopg://", 1)


def find_pg_bin() -> Path | None:
    """The folder holding initdb and pg_ctl: ``JUDGE_TEST_PG_BIN``, PATH, or the Debian layout."""
    configured = os.environ.get(ENV_BIN)
    if configured and (Path(configured) / "initdb").exists():
        return Path(configured)
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ThrowawayCluster:
    """initdb + pg_ctl in a temporary folder, listening on a free loopback port.

    PostgreSQL refuses to run as root; as root the cluster belongs to the ``postgres`` user
    and its commands run through ``runuser``. ``options`` adds server settings
    (e.g. ``-c max_connections=200``); durability is off, as a test server needs none.
    """

    def __init__(self, bin_dir: Path, *, options: str = "") -> None:
        self.bin_dir = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="judge-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            f"-c synchronous_commit=off -c full_page_writes=off {options}"
        ).strip()
        self._as_postgres = os.geteuid() == 0

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        """Create the cluster on the first start, then start the server and wait for it."""
        if not self.data.exists():
            if self._as_postgres:
                shutil.chown(self.root, user="postgres", group="postgres")
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "--no-sync",
                      "-E", "UTF8", "--locale=C")  # fmt: skip
        log = str(self.root / "log")
        self._run("pg_ctl", "-D", str(self.data), "-l", log, "-o", self.options, "-w", "start")

    def stop(self) -> None:
        """Stop the server cleanly, keeping its data for the next :meth:`start`."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        """Stop the server at once and delete the cluster."""
        if self.data.exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", check=False)
        shutil.rmtree(self.root, ignore_errors=True)

    def _run(self, tool: str, *args: str, check: bool = True) -> None:
        command = [str(self.bin_dir / tool), *args]
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, check=False, capture_output=True, text=True, timeout=120)
        if check and done.returncode != 0:
            problem = done.stderr.strip() or done.stdout.strip()
            raise RuntimeError(f"{tool} failed ({done.returncode}): {problem}")


@contextmanager
def throwaway_cluster(*, options: str = "") -> Iterator[ThrowawayCluster | None]:
    """A started private cluster, removed afterwards; None when no PostgreSQL is installed."""
    bin_dir = find_pg_bin()
    if bin_dir is None:
        yield None
        return
    cluster = ThrowawayCluster(bin_dir, options=options)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.remove()


@contextmanager
def session_server() -> Iterator[PostgresServer | None]:
    """``JUDGE_TEST_POSTGRES_URL``, else a throwaway cluster, else None."""
    url = os.environ.get(ENV_URL)
    if url:
        yield PostgresServer(url)
        return
    with throwaway_cluster() as cluster:
        yield None if cluster is None else PostgresServer(cluster.url)


def unique_name(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:10]}"


def _admin(server: PostgresServer, statement: sql.Composed) -> None:
    with psycopg.connect(server.url(database=_maintenance_db(server)), autocommit=True) as conn:
        conn.execute(statement)


def _maintenance_db(server: PostgresServer) -> str:
    return urlsplit(server.admin_url).path.lstrip("/") or "postgres"


def create_database(
    server: PostgresServer, prefix: str = "judge_test", *, template: str | None = None
) -> str:
    """Create an empty database (or a copy of ``template``) with a unique name; return its name."""
    name = unique_name(prefix)
    statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
    if template is not None:
        statement = sql.SQL("{} TEMPLATE {}").format(statement, sql.Identifier(template))
    _admin(server, statement)
    return name


def drop_database(server: PostgresServer, name: str) -> None:
    _admin(server, sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def create_role(server: PostgresServer, prefix: str = "judge_reader") -> tuple[str, str]:
    """Create a login role that is not a superuser; return (name, password)."""
    name, password = unique_name(prefix), uuid.uuid4().hex
    _admin(
        server,
        sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER PASSWORD {}").format(
            sql.Identifier(name), sql.Literal(password)
        ),
    )
    return name, password


def drop_role(server: PostgresServer, name: str) -> None:
    _admin(server, sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(name)))
