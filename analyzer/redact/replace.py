"""The replacement pass over one text: credentials masked, ids, addresses and learned words swapped.

It works on raw text whatever its format, so YAML, kubectl JSON, JSON escaped inside
annotations, logs and pasted kubectl output are all rewritten alike, and every occurrence of a
value gets the same pseudonym wherever it is.
"""

from __future__ import annotations

import ipaddress
import re

from analyzer.redact.columns import realign
from analyzer.redact.learn import Learner
from analyzer.redact.patterns import AWS_INSTANCE_ID, DASHED_IPV4, IPV4, IPV6, OCID, START
from analyzer.redact.pseudonyms import Pseudonyms
from analyzer.sensitive.credentials import (
    MASK,
    is_already_redacted,
    looks_sensitive_name,
    mask_credentials,
)

_COLUMN_GAP = re.compile(r"( {2,})")
# Cheap scans that find where a slower, exact pattern may match (a digit class is found fast;
# a pattern that starts with a look-behind is tried at every position).
_IPV4_CANDIDATE = re.compile(r"\d{1,3}\.\d{1,3}\.\d{1,3}\.\d")
_IPV6_FULL = re.compile(r"[0-9a-fA-F]{1,4}:[0-9a-fA-F]{1,4}:[0-9a-fA-F]{1,4}:[0-9a-fA-F]{1,4}:")


def _scan_sub(candidate: re.Pattern[str], exact: re.Pattern[str], repl, text: str) -> str:
    """`exact.sub(repl, text)`, trying `exact` only where `candidate` matches."""
    pieces: list[str] = []
    done = 0
    pos = 0
    while True:
        c = candidate.search(text, pos)
        if c is None:
            break
        m = exact.match(text, c.start())
        if m is None or m.start() < done:
            pos = c.start() + 1
            continue
        pieces.append(text[done:m.start()])
        pieces.append(repl(m))
        done = pos = m.end()
    if not pieces:
        return text
    pieces.append(text[done:])
    return "".join(pieces)


def _blocks(lines: list[str]) -> list[tuple[int, int]]:
    """(first, end) of each run of non-blank lines: one pasted table at most each."""
    out, first = [], None
    for i, line in enumerate([*lines, ""]):
        if line.strip() and first is None:
            first = i
        elif not line.strip() and first is not None:
            out.append((first, i))
            first = None
    return out


def _alternation(words: list[str]) -> re.Pattern[str] | None:
    if not words:
        return None
    ordered = sorted(words, key=lambda w: (-len(w), w))
    return re.compile(START + r"(?:" + "|".join(re.escape(w) for w in ordered) + r")(?![A-Za-z0-9])", re.I)


class Replacer:
    """Rewrites texts and path names with one set of pseudonyms."""

    def __init__(self, pseudonyms: Pseudonyms, learner: Learner) -> None:
        self.p = pseudonyms
        self.word_category = dict(learner.words)
        self.term_category = dict(learner.terms)
        self._words = _alternation(list(self.word_category))
        self._terms = _alternation(list(self.term_category))

    def text(self, text: str) -> str:
        """A file's text with every credential masked and every identifying value replaced."""
        text, masked = mask_credentials(text)
        if masked:
            self.p.counts["credential"] += masked
        return self.aligned(text)

    def value(self, value: object) -> object:
        """A parsed document rewritten string by string (the fallback when text rewriting would
        not keep a JSON file valid): keys get names replaced, values are masked and replaced too."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, dict):
            out = {self.names(k) if isinstance(k, str) else k: self.value(v) for k, v in value.items()}
            name, literal = value.get("name"), value.get("value")
            if isinstance(name, str) and isinstance(literal, str) and looks_sensitive_name(name) and literal:
                out["value"] = MASK  # an env entry {"name": "DB_PASSWORD", "value": ...}
                self.p.counts["credential"] += 1
            return out
        return value

    def aligned(self, text: str) -> str:
        """`names` over a text, keeping every column of kubectl's tables where it was.

        A pseudonym can be longer or shorter than its original (an IP address, above all);
        pasted `kubectl get` output is read by column position, so the spaces after a changed
        value shrink or grow to keep the next column at its place.
        """
        new = self.names(text)
        if new == text or "  " not in text:
            return new
        counted = self.p.counts.copy()  # the whole-text pass counted every replacement once
        old_lines, new_lines = text.split("\n"), new.split("\n")
        if len(old_lines) != len(new_lines):  # pragma: no cover - pseudonyms hold no newline
            return new
        done: set[int] = set()
        for first, last in _blocks(old_lines):
            block = old_lines[first:last]
            if any(len(o) != len(n) for o, n in zip(block, new_lines[first:last], strict=True)):
                table = realign(block, self.names)
                if table is not None:
                    new_lines[first:last] = table
                    done.update(range(first, last))
        for i, (old, changed) in enumerate(zip(old_lines, new_lines, strict=True)):
            if i not in done and len(old) != len(changed) and "  " in old.strip():
                new_lines[i] = self._aligned_line(old)
        self.p.counts = counted
        return "\n".join(new_lines)

    def _aligned_line(self, line: str) -> str:
        parts = _COLUMN_GAP.split(line)
        out: list[str] = []
        shift = 0  # how far the output runs ahead of the original so far
        for i, part in enumerate(parts):
            if i % 2 == 0:
                replaced = self.names(part) if part else part
                shift += len(replaced) - len(part)
                out.append(replaced)
            elif i == 1 and not parts[0]:
                out.append(part)  # indentation
            else:
                width = max(2, len(part) - shift)
                shift += width - len(part)
                out.append(" " * width)
        return "".join(out)

    def names(self, text: str) -> str:
        """Ids, addresses and learned words replaced (no credential masking: for paths too)."""
        # Each pass runs only where a cheap test says it can match: dumps are large.
        p = self.p
        if "ocid1." in text:
            text = OCID.sub(lambda m: m.group("pre") + p.record("oci-ocid", m.group("unique"), p.word(m.group("unique"), force=True)), text)
        if "i-" in text:
            text = AWS_INSTANCE_ID.sub(
                lambda m: m.group("pre") + p.record("aws-instance-id", m.group("unique"), p.word(m.group("unique"), force=True)), text)
        if self._terms is not None:
            text = self._terms.sub(self._term, text)
        if "ip-" in text or "ec2-" in text:
            text = DASHED_IPV4.sub(self._dashed_ip, text)
        text = _scan_sub(_IPV4_CANDIDATE, IPV4, self._ipv4, text)
        if "::" in text or _IPV6_FULL.search(text):
            text = IPV6.sub(self._ipv6, text)
        if self._words is not None:
            text = self._words.sub(self._word, text)
        return text

    def _term(self, m: re.Match[str]) -> str:
        value = m.group(0)
        return self.p.record(self.term_category.get(value.lower(), "id"), value, self.p.text(value, force=True))

    def _word(self, m: re.Match[str]) -> str:
        value = m.group(0)
        return self.p.record(self.word_category.get(value.lower(), "name"), value, self.p.word(value))

    def _dashed_ip(self, m: re.Match[str]) -> str:
        dotted = m.group("ip").replace("-", ".")
        mapped = self.p.ipv4(dotted)
        self.p.record("ip", dotted, mapped)
        return f"{m.group('prefix')}-{mapped.replace('.', '-')}"

    def _ipv4(self, m: re.Match[str]) -> str:
        address, bits = m.group("ip"), m.group("bits")
        if bits is None:
            return self.p.record("ip", address, self.p.ipv4(address))
        network = ipaddress.IPv4Address(address)
        host_bits = int(network) & ((1 << (32 - int(bits))) - 1)
        mapped = self.p.ipv4(address) if host_bits else self.p.ipv4_network(address, int(bits))
        self.p.record("ip", address, mapped)
        return f"{mapped}/{bits}"

    def _ipv6(self, m: re.Match[str]) -> str:
        address, bits = m.group("ip"), m.group("bits")
        if is_already_redacted(address):
            return m.group(0)
        try:
            ip = ipaddress.IPv6Address(address)
        except ValueError:
            return m.group(0)
        if address.count(":") < 2 or (address.replace(":", "").isdigit() and "::" not in address):
            return m.group(0)  # times (12:30:00) and port lists are not addresses
        network = bits is not None and int(ip) & ((1 << (128 - int(bits))) - 1) == 0
        mapped = self.p.ipv6(address, int(bits) if network else None)
        self.p.record("ip", address, mapped)
        return mapped + (f"/{bits}" if bits is not None else "")
