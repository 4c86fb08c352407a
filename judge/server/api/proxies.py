"""Client addresses behind reverse proxies: forwarding headers are believed only from a
configured proxy (``JUDGE_TRUSTED_PROXIES``; docs/security.md, "Client addresses behind a proxy").
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from typing import NamedTuple

from starlette.types import ASGIApp, Receive, Scope, Send

from judge.engine.settings import Network


class Forwarding(NamedTuple):
    """What the proxies said: the forwarded-for addresses, nearest last, and the scheme."""

    chain: list[str]
    scheme: str | None


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def is_trusted(address: str, networks: Sequence[Network]) -> bool:
    """Whether ``address`` is in a trusted network (an IPv4-mapped IPv6 peer as its IPv4)."""
    ip = _ip(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip is not None and any(ip in network for network in networks)


def _forwarded_pairs(value: str) -> list[dict[str, str]]:
    """The elements of a ``Forwarded`` header, each as lower-cased name -> value (unquoted)."""
    elements = []
    for element in value.split(","):
        pairs = {}
        for pair in element.split(";"):
            name, _, val = pair.strip().partition("=")
            pairs[name.strip().lower()] = val.strip().strip('"')
        elements.append(pairs)
    return elements


def _node_address(node: str) -> str:
    """The address of a ``Forwarded`` node: ``[2001:db8::1]:4711`` -> ``2001:db8::1``."""
    if node.startswith("["):
        return node[1:].partition("]")[0]
    host, _, port = node.rpartition(":")
    return host if host and port.isdigit() and host.count(":") == 0 else node


def forwarding_chain(headers: dict[bytes, bytes]) -> Forwarding:
    """The forwarded-for addresses, nearest last, and the forwarded scheme, if any."""
    forwarded = headers.get(b"forwarded")
    if forwarded is not None:
        elements = _forwarded_pairs(forwarded.decode("latin-1"))
        chain = [_node_address(e["for"]) for e in elements if e.get("for")]
        protos = [e["proto"] for e in elements if e.get("proto")]
        return Forwarding(chain, protos[-1].lower() if protos else None)
    chain = [
        part.strip()
        for part in headers.get(b"x-forwarded-for", b"").decode("latin-1").split(",")
        if part.strip()
    ]
    proto = headers.get(b"x-forwarded-proto", b"").decode("latin-1").split(",")[-1].strip()
    return Forwarding(chain, proto.lower() or None)


def client_address(peer: str, headers: dict[bytes, bytes], networks: Sequence[Network]) -> str:
    """The client's address: the peer, unless it is a trusted proxy. An entry that is no IP
    address is never the client: the trusted hop that reported it is counted instead."""
    if not is_trusted(peer, networks):
        return peer
    reporter = peer
    for address in reversed(forwarding_chain(headers).chain):
        if not is_trusted(address, networks):
            return address if _ip(address) is not None else reporter
        reporter = address
    return reporter


class ProxyHeaders:
    """ASGI middleware: the client address (and scheme) from a trusted proxy's headers."""

    def __init__(self, app: ASGIApp, *, networks: Sequence[Network]) -> None:
        self.app, self.networks = app, tuple(networks)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        peer = scope.get("client")
        if scope["type"] in ("http", "websocket") and peer and is_trusted(peer[0], self.networks):
            headers = dict(scope["headers"])
            scope = dict(scope)
            scope["client"] = (client_address(peer[0], headers, self.networks), 0)
            proto = forwarding_chain(headers).scheme
            if proto in ("http", "https"):
                scheme = proto if scope["type"] == "http" else {"http": "ws", "https": "wss"}[proto]
                scope["scheme"] = scheme
        await self.app(scope, receive, send)
