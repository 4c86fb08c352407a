"""Forwarding headers are believed only from a configured proxy (JUDGE_TRUSTED_PROXIES, none
by default; docs/security.md): a client cannot choose the address its refused credentials
are counted under, to dodge the limit or to lock a victim out."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.types import Receive, Scope, Send

from judge.core.errors import ConfigError
from judge.engine.judging.backends import ScriptedBackend
from judge.engine.settings import load_settings, parse_networks
from judge.server.api.proxies import ProxyHeaders, client_address
from judge.server.web import create_app
from tests.conftest import key_headers, service_settings

BAD = {"Authorization": "Bearer sk_live_aaaaaaaaaaaa_" + "x" * 43}
LIMIT = 3
ATTACKER, VICTIM, PROXY = "198.51.100.9", "203.0.113.7", "10.0.0.2"
Peer = Callable[[str], TestClient]


@pytest.fixture
def service(database_url: str, judge: ScriptedBackend) -> Iterator[Callable[..., Peer]]:
    """Start the service with settings overrides; returns a client factory by peer address."""
    with ExitStack() as stack:

        def start(**overrides: Any) -> Peer:
            settings = service_settings(database_url).model_copy(
                update={"max_failed_auth_per_client": LIMIT, **overrides}
            )
            app = create_app(settings, backends=lambda model: judge)
            stack.enter_context(TestClient(app))  # runs the lifespan: the store is open
            return lambda address: TestClient(app, client=(address, 50000))

        yield start


def _refused(client: TestClient, forwarded: dict[str, str], times: int = LIMIT) -> list[int]:
    return [
        client.get("/api/agent/runs", headers={**BAD, **forwarded}).status_code
        for _ in range(times)
    ]


def test_a_rotating_forwarded_for_from_an_untrusted_peer_is_limited_by_the_peer(
    service: Callable[..., Peer],
) -> None:
    attacker = service()(ATTACKER)
    statuses = [
        attacker.get(
            "/api/agent/runs", headers={**BAD, "X-Forwarded-For": f"192.0.2.{n}"}
        ).status_code
        for n in range(LIMIT + 1)
    ]

    assert statuses == [401] * LIMIT + [429]


def test_a_forger_naming_a_victims_address_does_not_lock_the_victim_out(
    service: Callable[..., Peer],
) -> None:
    peer = service()
    forger, victim = peer(ATTACKER), peer(VICTIM)
    _refused(forger, {"X-Forwarded-For": VICTIM, "Forwarded": f"for={VICTIM}"}, LIMIT + 2)
    engine = victim.app.state.engine  # type: ignore[attr-defined]

    answer = victim.get("/api/agent/runs", headers=key_headers(engine, "agent-alpha", "buyer"))

    assert answer.status_code == 200, answer.text


def test_behind_a_trusted_proxy_the_address_the_proxy_saw_is_counted(
    service: Callable[..., Peer],
) -> None:
    proxy = service(trusted_proxies=f"{PROXY}, 10.0.1.0/24")(PROXY)
    # the client wrote a spoofed entry first; the proxies appended what they saw
    via = {"X-Forwarded-For": f"192.0.2.1, {VICTIM}, 10.0.1.5"}
    refused = _refused(proxy, via)
    again = proxy.get(
        "/api/agent/runs", headers={**BAD, "X-Forwarded-For": f"192.0.2.99, {VICTIM}"}
    )
    someone_else = proxy.get("/api/agent/runs", headers={**BAD, "X-Forwarded-For": ATTACKER})

    assert refused == [401] * LIMIT
    assert again.status_code == 429
    assert someone_else.status_code == 401


def test_the_forwarded_header_from_a_trusted_proxy_names_the_client(
    service: Callable[..., Peer],
) -> None:
    proxy = service(trusted_proxies=PROXY)(PROXY)
    _refused(proxy, {"Forwarded": 'for="[2001:db8::7]:4711";proto=https'})
    blocked = proxy.get("/api/agent/runs", headers={**BAD, "Forwarded": "for=2001:db8::7"})
    other = proxy.get("/api/agent/runs", headers={**BAD, "Forwarded": "for=2001:db8::8"})

    assert (blocked.status_code, other.status_code) == (429, 401)


def test_an_untrusted_peer_is_the_client_whatever_it_forwards() -> None:
    trusted = parse_networks("10.0.0.0/8")
    headers = {b"x-forwarded-for": b"203.0.113.7"}

    assert client_address(ATTACKER, headers, trusted) == ATTACKER
    assert client_address(ATTACKER, headers, ()) == ATTACKER


def test_a_chain_of_trusted_proxies_is_walked_to_the_first_untrusted_address() -> None:
    trusted = parse_networks("10.0.0.0/8")
    headers = {b"x-forwarded-for": b"1.1.1.1, 203.0.113.7, 10.0.0.3, 10.0.0.4"}

    assert client_address("10.0.0.5", headers, trusted) == VICTIM


def test_an_ipv4_proxy_reached_over_ipv6_is_still_trusted() -> None:
    headers = {b"x-forwarded-for": b"203.0.113.7"}

    assert client_address("::ffff:10.0.0.2", headers, parse_networks("10.0.0.0/8")) == VICTIM


def test_an_entry_that_is_no_address_counts_as_the_proxy_that_reported_it() -> None:
    trusted = parse_networks("10.0.0.0/8")
    headers = {b"x-forwarded-for": b"203.0.113.7, not-an-address, 10.0.0.3"}

    assert client_address("10.0.0.5", headers, trusted) == "10.0.0.3"
    assert client_address("10.0.0.5", {b"forwarded": b"for=unknown"}, trusted) == "10.0.0.5"


async def _scheme_seen(peer: str, headers: dict[str, str], trusted: str) -> str:
    seen: list[str] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append(scope["scheme"])

    scope = {
        "type": "http",
        "scheme": "http",
        "client": (peer, 1),
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
    }
    await ProxyHeaders(app, networks=parse_networks(trusted))(scope, _nothing, _ignore)
    return seen[0]


async def _nothing() -> dict[str, Any]:
    return {"type": "http.disconnect"}


async def _ignore(message: Any) -> None:
    return None


def test_the_forwarded_scheme_is_believed_only_from_a_trusted_proxy() -> None:
    https = {"X-Forwarded-Proto": "https"}

    assert asyncio.run(_scheme_seen(PROXY, https, PROXY)) == "https"
    assert asyncio.run(_scheme_seen(ATTACKER, https, PROXY)) == "http"


def test_a_malformed_trusted_proxy_setting_is_refused_naming_the_entry() -> None:
    with pytest.raises(ConfigError, match="'10.0.0.300' is not an IP address or CIDR network"):
        load_settings(dev_mode=True, trusted_proxies="10.0.0.1, 10.0.0.300")


def test_no_proxy_is_trusted_by_default() -> None:
    assert load_settings(dev_mode=True).trusted_networks == ()
