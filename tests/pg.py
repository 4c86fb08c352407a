"""A real PostgreSQL server for tests, shared by every suite that needs one.

Uses the server in ``JUDGE_TEST_POSTGRES_URL`` (a superuser URL; CI sets it) when set;
otherwise starts a throwaway cluster on 127.0.0.1 in a temporary folder and removes it at
the end of the session. Tests are skipped, saying why, only when neither is possible.

Use it from a conftest::

    from tests.pg import postgres_server  # noqa: F401  (re-exported fixture)

and create what a test needs with :func:`create_database` / :func:`create_role`.
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
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

import psycopg
import pytest
from psycopg import sql

ENV_URL = "JUDGE_TEST_POSTGRES_URL"


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
        return urlunsplit((parts.scheme, netloc, "/" + quote(database), parts.query, ""))


def find_pg_bin() -> Path | None:
    """The folder holding initdb and pg_ctl, from PATH or the Debian layout."""
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


class ThrowawayCluster:
    """initdb + pg_ctl in a temporary folder, listening on a free loopback port.

    PostgreSQL refuses to run as root; as root the cluster belongs to the ``postgres`` user
    and its commands run through ``runuser``.
    """

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="judge-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._as_postgres = os.geteuid() == 0

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        if self._as_postgres:
            shutil.chown(self.root, user="postgres", group="postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "--no-sync",
                  "-E", "UTF8", "--locale=C")  # fmt: skip
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.root / "log"),
            "-o",
            options,
            "-w",
            "start",
        )

    def stop(self) -> None:
        if self.data.exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", check=False)
        shutil.rmtree(self.root, ignore_errors=True)

    def _run(self, tool: str, *args: str, check: bool = True) -> None:
        command = [str(self.bin_dir / tool), *args]
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=check, capture_output=True, timeout=120)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the session: ``JUDGE_TEST_POSTGRES_URL`` or a throwaway one."""
    url = os.environ.get(ENV_URL)
    if url:
        yield PostgresServer(url)
        return
    bin_dir = find_pg_bin()
    if bin_dir is None:
        pytest.skip(f"no PostgreSQL: initdb not found and {ENV_URL} is not set")
    cluster = ThrowawayCluster(bin_dir)
    try:
        cluster.start()
        yield PostgresServer(cluster.url)
    finally:
        cluster.stop()


def unique_name(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:10]}"


def create_database(server: PostgresServer, prefix: str = "judge_test") -> str:
    """Create an empty database with a unique name; return its name."""
    name = unique_name(prefix)
    with psycopg.connect(server.admin_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return name


def drop_database(server: PostgresServer, name: str) -> None:
    with psycopg.connect(server.admin_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def create_role(server: PostgresServer, prefix: str = "judge_reader") -> tuple[str, str]:
    """Create a login role that is not a superuser; return (name, password)."""
    name, password = unique_name(prefix), uuid.uuid4().hex
    with psycopg.connect(server.admin_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER PASSWORD {}").format(
                sql.Identifier(name), sql.Literal(password)
            )
        )
    return name, password


def drop_role(server: PostgresServer, name: str) -> None:
    with psycopg.connect(server.admin_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(name)))
