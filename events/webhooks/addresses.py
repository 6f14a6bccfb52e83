"""Where a webhook may be sent: the rules against server-side request forgery.

A webhook URL names a host the server will connect to on a player's behalf, so a URL must never
reach the server's own network: loopback, private, link-local, shared or reserved addresses are
refused, IPv4 and IPv6 alike, including an IPv4 address carried inside an IPv6 one (mapped,
compatible, 6to4, NAT64), which a dual-stack socket or a gateway would reach as that IPv4
address. `allow_private` (WEBHOOKS_ALLOW_PRIVATE, for development and tests) lets loopback and
private addresses through, never the others.

The rules are pure (`refusal`, `parse_url`); `checked_address` applies them to what a host
resolves to, and the sender connects to the very address it returns, so a name cannot resolve
to an allowed address for the check and to another for the connection.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Sequence[str]]

MAX_URL_LENGTH = 2000
SCHEMES = {"http": 80, "https": 443}
# RFC 1918 and IPv6 unique local addresses: what WEBHOOKS_ALLOW_PRIVATE lets through, with
# loopback. Shared (100.64.0.0/10), link-local and reserved ranges stay refused.
PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")
)
NAT64_NETWORKS = tuple(ipaddress.ip_network(n) for n in ("64:ff9b::/96", "64:ff9b:1::/48"))
IPV4_COMPATIBLE = ipaddress.ip_network("::/96")
TEREDO = ipaddress.ip_network("2001::/32")
_HOST_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")


class RefusedUrl(ValueError):
    """A URL a webhook may not have; the message says why, for the player to read."""


@dataclass(frozen=True, slots=True)
class Target:
    """A webhook URL taken apart: where to connect, and what to ask for there."""

    scheme: str
    host: str  # a DNS name (lower case) or an IP address literal, without brackets
    port: int
    path: str  # with its query, never empty

    @property
    def host_header(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == SCHEMES[self.scheme] else f"{host}:{self.port}"


def parse_url(url: str) -> Target:
    """The URL's parts, or RefusedUrl: http or https, a host, no credentials, no fragment."""
    if len(url) > MAX_URL_LENGTH or any(ord(c) <= 32 or ord(c) == 127 for c in url):
        raise RefusedUrl(f"a URL of at most {MAX_URL_LENGTH} characters, with no spaces")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise RefusedUrl(f"not a URL: {error}") from None
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise RefusedUrl("the URL must be http or https")
    if parts.username is not None or parts.password is not None:
        raise RefusedUrl("the URL must carry no user name or password")
    if parts.fragment:
        raise RefusedUrl("the URL must have no fragment")
    host = (parts.hostname or "").lower()
    if not _is_ip_literal(host) and not _is_dns_name(host):
        raise RefusedUrl("the URL's host must be a DNS name or an IP address")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(scheme, host, port or SCHEMES[scheme], path)


def _is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _is_dns_name(host: str) -> bool:
    labels = host.removesuffix(".").split(".")
    return 0 < len(host) <= 253 and all(_HOST_LABEL.fullmatch(label) for label in labels)


def embedded_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one stands for (mapped, compatible, 6to4, NAT64), if any."""
    if isinstance(address, ipaddress.IPv4Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    in_nat64 = any(address in network for network in NAT64_NETWORKS)
    if in_nat64 or (address in IPV4_COMPATIBLE and int(address) > 1):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def refusal(address: IPAddress, allow_private: bool = False) -> str | None:
    """Why a webhook may not connect to `address` (e.g. "loopback"), or None if it may."""
    inner = embedded_ipv4(address)
    if inner is not None:
        return refusal(inner, allow_private)
    private = any(address in network for network in PRIVATE_NETWORKS)
    if allow_private and (address.is_loopback or private):
        return None
    if address.is_loopback:
        return "loopback"
    if address.is_link_local:
        return "link-local"
    if private:
        return "private"
    if address.is_multicast:
        return "multicast"
    if address in TEREDO:
        return "reserved"  # its IPv4 end is obfuscated: no way to check it
    if address.is_unspecified or address.is_reserved or address.is_private:
        return "reserved"
    if not address.is_global:
        return "reserved"  # e.g. shared address space, 100.64.0.0/10
    return None


def resolve(host: str, port: int) -> list[str]:
    """Every address `host` resolves to (an IP literal is its own)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def checked_address(
    target: Target, allow_private: bool = False, resolver: Resolver = resolve
) -> IPAddress:
    """The address to connect to for `target`, once every address its host resolves to is
    allowed (one refused refuses the URL: which one a client picks is not ours to say)."""
    try:
        resolved = resolver(target.host, target.port)
        found = [ipaddress.ip_address(a.partition("%")[0]) for a in resolved]  # no zone ids
    except (OSError, UnicodeError, ValueError):
        raise RefusedUrl(f"the host {target.host!r} does not resolve") from None
    if not found:
        raise RefusedUrl(f"the host {target.host!r} does not resolve")
    for address in found:
        why = refusal(address, allow_private)
        if why is not None:
            raise RefusedUrl(f"the host {target.host!r} is a {why} address ({address})")
    return found[0]
