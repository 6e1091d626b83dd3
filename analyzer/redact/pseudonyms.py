"""Consistent pseudonyms: one keyed, injective replacement per word and per IP address.

A word keeps its shape (length, letters stay letters, digits stay digits, hex stays hex, case
kept), so names still match the patterns the analysis reads (`aks-<pool>-<digits>-vmss<6>`).
IPv4 addresses stay in their private block and keep every prefix relation (pods stay inside
their node's pod CIDR, services inside the service CIDR); public addresses move to the reserved
benchmarking block 198.18.0.0/15 keeping /24 relations. The same key gives the same pseudonyms,
so two dumps of one cluster redacted with one key still compare.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
import string
from collections import Counter, defaultdict

_RUN = re.compile(r"[A-Za-z]+|[0-9]+")
_HEX = frozenset("0123456789abcdef")
# Words a YAML 1.1 reader would not read as a string: a pseudonym must never become one.
_YAML_SPECIAL = frozenset({"yes", "no", "on", "off", "true", "false", "null", "nan", "inf", "y", "n"})

# Private blocks keep their prefix; addresses in them are permuted inside the block.
_PRIVATE_V4 = tuple(ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10"))
# Never replaced: they name no one (loopback, unspecified, link-local, multicast, netmasks,
# documentation and benchmarking blocks, where pseudonyms of public addresses go).
_KEEP_V4 = tuple(ipaddress.ip_network(n) for n in (
    "0.0.0.0/8", "127.0.0.0/8", "169.254.0.0/16", "224.0.0.0/3", "192.0.2.0/24", "198.51.100.0/24",
    "203.0.113.0/24", "198.18.0.0/15"))
_PUBLIC_V4_TARGET = ipaddress.ip_network("198.18.0.0/15")


class Pseudonyms:
    """Keyed pseudonyms for words and addresses, with what was replaced counted per category."""

    def __init__(self, key: bytes, vocabulary: frozenset[str] | set[str] = frozenset()) -> None:
        self.key = key
        self.vocabulary = vocabulary
        self.mapping: dict[str, dict[str, str]] = defaultdict(dict)
        self.counts: Counter[str] = Counter()
        self._runs: dict[tuple[str, bool], str] = {}
        self._taken: set[tuple[str, bool]] = set()
        self._bits: dict[tuple[int, int, int], int] = {}
        self._public24: dict[int, int] = {}
        self._public_taken: set[int] = set()

    # -- words ---------------------------------------------------------------------------------

    def _stream(self, label: str, length: int) -> bytes:
        out = b""
        block = 0
        while len(out) < length:
            out += hmac.new(self.key, f"{block}:{label}".encode(), hashlib.sha256).digest()
            block += 1
        return out

    def _run(self, run: str, hexish: bool) -> str:
        low = run.lower()
        slot = (low, hexish)
        found = self._runs.get(slot)
        if found is None:
            found = self._new_run(low, hexish)
            self._runs[slot] = found
            self._taken.add((found, hexish))
        return "".join(p.upper() if o.isupper() else p for o, p in zip(run, found, strict=True))

    def _new_run(self, low: str, hexish: bool) -> str:
        letters = "abcdef" if hexish else string.ascii_lowercase
        for attempt in range(1000):
            stream = self._stream(f"{attempt}:{int(hexish)}:{low}", len(low))
            chars = []
            for i, ch in enumerate(low):
                b = stream[i]
                if ch.isdigit():
                    # a leading zero stays a leading zero (YAML reads 0123 and 123 differently)
                    digit = str(b % 10) if i or ch == "0" else str(1 + b % 9)
                    chars.append("0" if i == 0 and ch == "0" else digit)
                else:
                    chars.append(letters[b % len(letters)])
            candidate = "".join(chars)
            if (candidate != low and (candidate, hexish) not in self._taken
                    and candidate not in self.vocabulary and candidate not in _YAML_SPECIAL):
                return candidate
        return candidate  # every shape of this length taken (tiny words only): a shared pseudonym

    def needs_pseudonym(self, run: str) -> bool:
        """Whether a letter or digit run identifies something (not a known word, not short)."""
        if run.isdigit():
            return len(run) >= 5
        return len(run) >= 3 and run.lower() not in self.vocabulary

    def word(self, word: str, force: bool = False) -> str:
        """The pseudonym of one alphanumeric word: each identifying run replaced, shape kept.

        `force` replaces every run (ids whose every character is unique to someone).
        """
        hexish = len(word) > 1 and set(word.lower()) <= _HEX and not word.isdigit() and not word.isalpha()
        if force:
            return self._run(word, hexish) if word else word
        return _RUN.sub(lambda m: self._run(m.group(0), hexish) if force or self.needs_pseudonym(m.group(0)) else m.group(0), word)

    def text(self, value: str, force: bool = False) -> str:
        """Every alphanumeric word of a value through `word` (names, hostnames, ids)."""
        return re.sub(r"[A-Za-z0-9]+", lambda m: self.word(m.group(0), force), value)

    def record(self, category: str, original: str, pseudonym: str) -> str:
        """Count one replacement and remember it for the mapping file; returns the pseudonym."""
        if pseudonym != original:
            self.counts[category] += 1
            self.mapping[category].setdefault(original, pseudonym)
        return pseudonym

    # -- IPv4 ----------------------------------------------------------------------------------

    def _bit(self, width: int, prefix_len: int, prefix: int) -> int:
        slot = (width, prefix_len, prefix)
        bit = self._bits.get(slot)
        if bit is None:
            digest = hmac.new(self.key, f"ip{width}:{prefix_len}:{prefix}".encode(), hashlib.sha256).digest()
            bit = self._bits[slot] = digest[0] & 1
        return bit

    def _permute(self, value: int, width: int, keep: int) -> int:
        """Prefix-preserving permutation of the bits after the first `keep` (Crypto-PAn style)."""
        out = value >> (width - keep) << (width - keep) if keep else 0
        for i in range(keep, width):
            prefix = value >> (width - i)
            bit = (value >> (width - 1 - i)) & 1
            out |= (bit ^ self._bit(width, i, prefix)) << (width - 1 - i)
        return out

    def ipv4(self, address: str) -> str:
        """The pseudonym of an IPv4 address (kept as is where it names no one)."""
        ip = ipaddress.IPv4Address(address)
        if any(ip in net for net in _KEEP_V4) or address.startswith("255."):
            return address
        value = int(ip)
        for net in _PRIVATE_V4:
            if ip in net:
                return str(ipaddress.IPv4Address(self._permute(value, 32, net.prefixlen)))
        prefix24 = value >> 8
        target = self._public24.get(prefix24)
        if target is None:
            target = self._public_slot(prefix24)
        return str(ipaddress.IPv4Address((target << 8) | (value & 0xFF)))

    def _public_slot(self, prefix24: int) -> int:
        base = int(_PUBLIC_V4_TARGET.network_address) >> 8
        size = 1 << (24 - _PUBLIC_V4_TARGET.prefixlen)
        for attempt in range(4 * size):
            digest = hmac.new(self.key, f"pub:{attempt}:{prefix24}".encode(), hashlib.sha256).digest()
            slot = base + int.from_bytes(digest[:4], "big") % size
            if slot not in self._public_taken:
                self._public_taken.add(slot)
                self._public24[prefix24] = slot
                return slot
        # more public /24s than the block holds: the reserved class E block takes the rest
        slot = (0xF0 << 16) | (len(self._public24) & 0xFFFFF)
        self._public24[prefix24] = slot
        return slot

    def ipv4_network(self, address: str, bits: int) -> str:
        """The pseudonym of a CIDR: its address mapped, host bits cleared, so members stay inside."""
        mapped = int(ipaddress.IPv4Address(self.ipv4(address)))
        if bits < 32 and mapped != int(ipaddress.IPv4Address(address)):
            mapped &= (0xFFFFFFFF << (32 - bits)) & 0xFFFFFFFF
        return str(ipaddress.IPv4Address(mapped))

    # -- IPv6 ----------------------------------------------------------------------------------

    def ipv6(self, address: str, bits: int | None = None) -> str:
        """The pseudonym of an IPv6 address: first 16 bits kept, the rest permuted prefix-preservingly."""
        ip = ipaddress.IPv6Address(address)
        if ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast or ip.ipv4_mapped:
            return address
        if ip in ipaddress.ip_network("2001:db8::/32"):
            return address
        mapped = self._permute(int(ip), 128, 16)
        if bits is not None and bits < 128:
            mapped &= ((1 << 128) - 1) << (128 - bits) & ((1 << 128) - 1)
        return str(ipaddress.IPv6Address(mapped))
