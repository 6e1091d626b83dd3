"""Pseudonyms: repeatable with a key, injective, shape-keeping; IPs keep blocks and prefixes."""

from __future__ import annotations

import ipaddress
import re

import pytest

from analyzer.redact.pseudonyms import Pseudonyms


@pytest.fixture
def p() -> Pseudonyms:
    # a fixed key and a small vocabulary; every input below is written for these tests
    return Pseudonyms(b"k", frozenset({"aks", "vmss", "node", "pool"}))


def test_words_keep_their_shape_and_case(p: Pseudonyms) -> None:
    out = p.word("Contoso")
    assert out != "Contoso" and len(out) == 7 and out[0].isupper() and out[1:].islower()
    assert p.word("contoso") == out.lower()  # case-insensitive: one pseudonym
    node = p.text("aks-nodepool1-12345678-vmss000000")
    assert re.fullmatch(r"aks-[a-z]+1-[0-9]{8}-vmss[0-9]{6}", node)
    assert node.split("-")[2] != "12345678"


def test_known_and_short_words_stay(p: Pseudonyms) -> None:
    assert p.text("node-pool-01") == "node-pool-01"
    assert p.word("ab") == "ab"
    assert p.word("1234") == "1234"  # short numbers are ports and counters, not ids


def test_hex_stays_hex_and_ids_are_forced(p: Pseudonyms) -> None:
    out = p.word("0a1b2c3d4e5f60718", force=True)
    assert re.fullmatch(r"[0-9a-f]{17}", out) and out != "0a1b2c3d4e5f60718"


def test_same_key_same_pseudonyms_other_key_other_ones() -> None:
    a, b, c = Pseudonyms(b"k"), Pseudonyms(b"k"), Pseudonyms(b"other")
    words = ["contoso", "fabrikam", "northwind", "12345678901"]
    assert [a.word(w) for w in words] == [b.word(w) for w in words]
    assert [a.word(w) for w in words] != [c.word(w) for w in words]
    assert a.ipv4("10.1.2.3") == b.ipv4("10.1.2.3") != c.ipv4("10.1.2.3")


def test_injective_on_many_words(p: Pseudonyms) -> None:
    words = [f"w{chr(97 + i % 26)}{chr(97 + i // 26 % 26)}{chr(97 + i // 676)}" for i in range(3000)]
    assert len({p.word(w) for w in words}) == len(set(words))


def test_private_addresses_stay_private_and_keep_prefixes(p: Pseudonyms) -> None:
    pod_cidr = ipaddress.ip_network("10.244.1.0/24")
    pods = [str(ip) for ip in list(pod_cidr.hosts())[:50]]
    mapped = [ipaddress.ip_address(p.ipv4(ip)) for ip in pods]
    new_cidr = ipaddress.ip_network(f"{p.ipv4_network('10.244.1.0', 24)}/24")
    assert all(ip in new_cidr for ip in mapped)
    assert new_cidr != pod_cidr and new_cidr.subnet_of(ipaddress.ip_network("10.0.0.0/8"))
    assert len(set(mapped)) == len(pods)
    # a /12 service CIDR keeps its members even across octet boundaries
    svc = ipaddress.ip_network(f"{p.ipv4_network('10.96.0.0', 12)}/12")
    assert ipaddress.ip_address(p.ipv4("10.100.3.4")) in svc
    assert ipaddress.ip_address(p.ipv4("172.20.1.1")) in ipaddress.ip_network("172.16.0.0/12")
    assert ipaddress.ip_address(p.ipv4("192.168.7.7")) in ipaddress.ip_network("192.168.0.0/16")


def test_public_addresses_move_to_the_benchmark_block(p: Pseudonyms) -> None:
    a, b = p.ipv4("52.1.2.3"), p.ipv4("52.1.2.99")
    block = ipaddress.ip_network("198.18.0.0/15")
    assert ipaddress.ip_address(a) in block and ipaddress.ip_address(b) in block
    assert a.rsplit(".", 1)[0] == b.rsplit(".", 1)[0]  # same /24 stays one /24
    assert p.ipv4("52.1.3.3").rsplit(".", 1)[0] != a.rsplit(".", 1)[0]


@pytest.mark.parametrize("ip", ["127.0.0.1", "0.0.0.0", "169.254.169.254", "255.255.255.0", "224.0.0.251", "192.0.2.10"])
def test_addresses_that_name_no_one_stay(p: Pseudonyms, ip: str) -> None:
    assert p.ipv4(ip) == ip


def test_ipv6(p: Pseudonyms) -> None:
    assert p.ipv6("::1") == "::1" and p.ipv6("fe80::1") == "fe80::1"
    a = p.ipv6("fd00:10:244:1::5")
    assert a.startswith("fd00:") and a != "fd00:10:244:1::5"
    net = ipaddress.ip_network(f"{p.ipv6('fd00:10:244:1::', 64)}/64")
    assert ipaddress.ip_address(a) in net
