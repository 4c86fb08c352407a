"""`judge keys|ingest-keys create|list|revoke` and `judge token create`: credentials for the
service (keys are printed once and stored only as hashes; tokens are signed with
JUDGE_JWT_SECRET). The key commands never create a store: a key in a store no service reads
would only get 401 (docs/service.md, "Credentials on the command line")."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine, make_url

from judge.core.errors import InputError
from judge.engine.settings import get_settings
from judge.server.auth import create_owner_token, owner_actor, parse_ttl
from judge.server.service.ingest import issue_ingest_key
from judge.server.service.keys import issue_key
from judge.server.store import ingest as ingest_repo
from judge.server.store import keys as key_repo
from judge.server.store.db import make_engine, transaction
from judge.server.store.migrate import current_revision, upgrade
from judge.tools.cli.options import database_url


def register(sub: Any) -> None:
    keys = sub.add_parser("keys", help="agent keys (stored hashed)").add_subparsers(
        dest="keys_command", required=True
    )
    create = keys.add_parser("create", help="make a key for one agent in one seat; prints it once")
    create.add_argument("--agent", required=True, help="agent_id the key speaks for")
    create.add_argument("--seat", required=True, help="the seat the agent sits in")
    create.add_argument("--label", help="a note to recognise the key by")
    create.set_defaults(func=create_key)
    listing = keys.add_parser("list", help="list keys (prefixes only; keys are not stored)")
    listing.add_argument("--agent")
    listing.set_defaults(func=list_keys)
    revoke = keys.add_parser("revoke", help="revoke a key by its prefix")
    revoke.add_argument("prefix")
    revoke.set_defaults(func=revoke_key)
    ingest = sub.add_parser(
        "ingest-keys", help="ingest keys: one source's spans in at /v1/traces (stored hashed)"
    ).add_subparsers(dest="ingest_command", required=True)
    make_ingest = ingest.add_parser("create", help="make a key for one source; prints it once")
    make_ingest.add_argument("--source", required=True, help="the source of traces it sends for")
    make_ingest.add_argument("--label", help="a note to recognise the key by")
    make_ingest.add_argument("--owner", default="cli", help="recorded as who issued it")
    make_ingest.set_defaults(func=create_ingest_key)
    list_ingest = ingest.add_parser("list", help="list ingest keys (prefixes only)")
    list_ingest.add_argument("--source")
    list_ingest.set_defaults(func=list_ingest_keys)
    revoke_ingest = ingest.add_parser("revoke", help="revoke an ingest key by its prefix")
    revoke_ingest.add_argument("prefix")
    revoke_ingest.set_defaults(func=revoke_ingest_key)
    for command in (create, listing, revoke, make_ingest, list_ingest, revoke_ingest):
        command.add_argument(
            "--database-url",
            help="the service's store (default $JUDGE_DATABASE_URL, else sqlite:///./judge.db); "
            "it must exist already",
        )
    token = sub.add_parser("token", help="owner tokens (JWT)").add_subparsers(
        dest="token_command", required=True
    )
    make = token.add_parser("create", help="print an owner token signed with JUDGE_JWT_SECRET")
    make.add_argument("--owner", required=True, help="the owner's name (the token's subject)")
    make.add_argument("--ttl", default="1h", help="lifetime: 30m, 1h, 7d (default 1h)")
    make.set_defaults(func=create_token)


def shown_url(url: str) -> str:
    """The store's URL as it may be printed: without its password."""
    return make_url(url).render_as_string(hide_password=True)


def _missing_sqlite_file(url: str) -> Path | None:
    parsed = make_url(url)
    name = parsed.database
    if parsed.get_backend_name() != "sqlite" or not name or name == ":memory:":
        return None
    path = Path(name)
    return None if path.exists() else path


def existing_store(given: str | None) -> tuple[Engine, str]:
    """The engine of the configured store and its printable URL; InputError (nothing created)
    when the store does not exist or has no schema yet."""
    url = database_url(given)
    fix = (
        "point --database-url or JUDGE_DATABASE_URL at the store `judge serve` uses, "
        "or create it first with `judge db upgrade`"
    )
    if (path := _missing_sqlite_file(url)) is not None:
        raise InputError(f"no store at {shown_url(url)} ({path} does not exist): {fix}")
    engine = make_engine(url)
    if current_revision(engine) is None:
        engine.dispose()
        raise InputError(f"the store at {shown_url(url)} has no schema (an empty database): {fix}")
    upgrade(engine)  # an older schema is brought up to date, as the service would
    return engine, shown_url(url)


def create_key(args: argparse.Namespace) -> int:
    engine, where = existing_store(args.database_url)
    with transaction(engine) as session:
        key = issue_key(session, agent_id=args.agent, seat=args.seat, label=args.label)
    print(key)
    print(f"key stored in {where}", file=sys.stderr)
    return 0


def _engine(args: argparse.Namespace) -> Engine:
    engine, where = existing_store(args.database_url)
    print(f"store: {where}", file=sys.stderr)
    return engine


def list_keys(args: argparse.Namespace) -> int:
    with transaction(_engine(args)) as session:
        rows = key_repo.list_agent_keys(session, agent_id=args.agent)
    for row in rows:
        state = f"revoked {row.revoked_at:%Y-%m-%d}" if row.revoked_at else "live"
        print(
            f"sk_live_{row.prefix}_…  agent={row.agent_id}  seat={row.seat}  {state}  {row.label or ''}".rstrip()
        )
    return 0


def revoke_key(args: argparse.Namespace) -> int:
    prefix = args.prefix.removeprefix("sk_live_").split("_")[0]
    with transaction(_engine(args)) as session:
        done = key_repo.revoke_agent_key(session, prefix=prefix)
    print(f"revoked sk_live_{prefix}_…" if done else f"no live key with prefix {prefix}")
    return 0 if done else 1


def create_ingest_key(args: argparse.Namespace) -> int:
    engine, where = existing_store(args.database_url)
    with transaction(engine) as session:
        key = issue_ingest_key(
            session, source=args.source, label=args.label, by=owner_actor(args.owner)
        )
    print(key)
    print(f"ingest key stored in {where}", file=sys.stderr)
    return 0


def list_ingest_keys(args: argparse.Namespace) -> int:
    with transaction(_engine(args)) as session:
        rows = ingest_repo.list_ingest_keys(session, source=args.source)
    for row in rows:
        state = f"revoked {row.revoked_at:%Y-%m-%d}" if row.revoked_at else "live"
        print(f"ik_live_{row.prefix}_…  source={row.source}  {state}  {row.label or ''}".rstrip())
    return 0


def revoke_ingest_key(args: argparse.Namespace) -> int:
    prefix = args.prefix.removeprefix("ik_live_").split("_")[0]
    with transaction(_engine(args)) as session:
        done = ingest_repo.revoke_ingest_key(session, prefix=prefix)
    print(f"revoked ik_live_{prefix}_…" if done else f"no live ingest key with prefix {prefix}")
    return 0 if done else 1


def create_token(args: argparse.Namespace) -> int:
    settings = get_settings()
    ttl = parse_ttl(args.ttl)
    print(
        create_owner_token(
            owner=args.owner,
            secret=settings.signing_secret,
            audience=settings.jwt_audience,
            ttl=ttl,
        )
    )
    return 0
