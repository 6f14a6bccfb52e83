"""The rules against server-side request forgery, as pure functions: no address here is ever
connected to, and no name is looked up (a resolver is a plain function in these tests)."""

from __future__ import annotations

import ipaddress

import pytest

from events.webhooks.addresses import RefusedUrl, Target, checked_address, parse_url, refusal


def ip(text: str):
    return ipaddress.ip_address(text)


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("127.0.0.1", "loopback"),
        ("127.255.0.9", "loopback"),
        ("::1", "loopback"),
        ("10.1.2.3", "private"),
        ("172.16.0.1", "private"),
        ("172.31.255.254", "private"),
        ("192.168.1.1", "private"),
        ("fd12:3456::1", "private"),
        ("169.254.169.254", "link-local"),  # the cloud metadata service
        ("fe80::1", "link-local"),
        ("0.0.0.0", "reserved"),
        ("::", "reserved"),
        ("100.64.0.1", "reserved"),  # shared address space (carrier-grade NAT)
        ("192.0.2.10", "reserved"),  # documentation
        ("198.18.0.1", "reserved"),  # benchmarking
        ("240.0.0.1", "reserved"),
        ("255.255.255.255", "reserved"),
        ("2001:db8::1", "reserved"),
        ("224.0.0.1", "multicast"),
        ("ff02::1", "multicast"),
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved"),  # Teredo
    ],
)
def test_an_address_of_the_servers_own_networks_is_refused(address, why):
    assert refusal(ip(address)) == why


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("::ffff:127.0.0.1", "loopback"),  # IPv4-mapped
        ("::ffff:10.0.0.1", "private"),
        ("::ffff:169.254.169.254", "link-local"),
        ("::127.0.0.1", "loopback"),  # IPv4-compatible
        ("2002:7f00:1::", "loopback"),  # 6to4 of 127.0.0.1
        ("2002:a9fe:a9fe::1", "link-local"),  # 6to4 of 169.254.169.254
        ("64:ff9b::7f00:1", "loopback"),  # NAT64 of 127.0.0.1
        ("64:ff9b::a00:1", "private"),  # NAT64 of 10.0.0.1
    ],
)
def test_an_ipv4_address_inside_an_ipv6_one_is_judged_as_that_ipv4_address(address, why):
    assert refusal(ip(address)) == why


@pytest.mark.parametrize(
    "address", ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"]
)
def test_a_public_address_is_allowed(address):
    assert refusal(ip(address)) is None


@pytest.mark.parametrize("address", ["127.0.0.1", "::1", "10.0.0.7", "192.168.0.2", "fd00::2",
                                     "::ffff:127.0.0.1"])  # fmt: skip
def test_allowing_private_addresses_lets_loopback_and_private_ones_through(address):
    assert refusal(ip(address), allow_private=True) is None


@pytest.mark.parametrize("address", ["169.254.169.254", "fe80::1", "0.0.0.0", "100.64.0.1",
                                     "224.0.0.1", "::ffff:169.254.169.254"])  # fmt: skip
def test_allowing_private_addresses_still_refuses_link_local_and_reserved_ones(address):
    assert refusal(ip(address), allow_private=True) is not None


def test_a_url_is_taken_apart_into_where_to_connect_and_what_to_ask_for():
    assert parse_url("https://Hooks.Example.com/in?x=1") == Target(
        "https", "hooks.example.com", 443, "/in?x=1"
    )
    assert parse_url("http://[::1]:8080") == Target("http", "::1", 8080, "/")
    assert parse_url("http://127.0.0.1:9000/h").host_header == "127.0.0.1:9000"
    assert parse_url("https://[2606:4700::1111]/").host_header == "[2606:4700::1111]"


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.com/",
        "file:///etc/passwd",
        "gopher://example.com/",
        "example.com/hook",
        "http://user:pass@example.com/",
        "http://example.com/#part",
        "http:///nohost",
        "http://exa mple.com/",
        "http://example.com:99999/",
        "http://-bad-.example.com/",
        "http://" + "a" * 64 + ".com/",
        "https://example.com/" + "x" * 2000,
    ],
)
def test_a_url_that_is_not_a_plain_http_or_https_one_is_refused(url):
    with pytest.raises(RefusedUrl):
        parse_url(url)


def resolving_to(*addresses: str):
    def resolver(host: str, port: int) -> list[str]:
        return list(addresses)

    return resolver


def test_a_host_is_refused_when_any_of_its_addresses_is():
    target = parse_url("https://hooks.example.com/in")
    with pytest.raises(RefusedUrl, match="loopback"):
        checked_address(target, resolver=resolving_to("93.184.216.34", "127.0.0.1"))
    with pytest.raises(RefusedUrl, match="link-local"):
        checked_address(target, resolver=resolving_to("fe80::1%eth0"))


def test_the_address_checked_is_the_one_to_connect_to():
    target = parse_url("https://hooks.example.com/in")
    found = checked_address(target, resolver=resolving_to("93.184.216.34", "2606:4700::1111"))
    assert found == ip("93.184.216.34")


def test_a_host_that_does_not_resolve_is_refused():
    def fails(host: str, port: int) -> list[str]:
        raise OSError("Name or service not known")

    target = parse_url("https://nowhere.example/")
    with pytest.raises(RefusedUrl, match="does not resolve"):
        checked_address(target, resolver=fails)
    with pytest.raises(RefusedUrl, match="does not resolve"):
        checked_address(target, resolver=resolving_to())


def test_an_ip_literal_is_judged_without_any_lookup():
    target = parse_url("http://169.254.169.254/latest/meta-data/")
    with pytest.raises(RefusedUrl, match="link-local"):
        checked_address(target, allow_private=True)
    assert checked_address(parse_url("http://127.0.0.1:9/"), allow_private=True) == ip("127.0.0.1")
