"""When a write-up says its outputs were taken: a dated "Generated:", "Captured:" or "Date:"
line at its top (a test script's report, a support ticket, a post-mortem's header).

Such a line dates the outputs that follow (a script writes it as it starts); it is weaker
evidence than the times the API server wrote into the objects, and only a time whose zone is
known (an offset, Z, or an unambiguous abbreviation of timezones.yaml) is taken.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from importlib import resources

from analyzer.safeyaml import load_yaml

# How far into a write-up its header may be: a title, a summary list, then the outputs.
HEADER_LINES = 40
_LABEL = re.compile(
    r"^[\s>#*_|-]*(?P<label>generated|captured|collected|created|taken|run|date|timestamp)"
    r"(?:\s+(?:at|on))?[\s*_]*:[\s*_`]*(?P<value>.+?)[\s*_`|]*$", re.I)
# A describe's first line: the outputs have begun, and its dated fields (a NetworkPolicy's
# `Created on:`) are its object's, not the write-up's
_DESCRIBE_START = re.compile(r"^\s*Name:\s+\S")
_MONTHS = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                       "nov", "dec"), 1)}
_ZONE = r"(?P<zone>Z|[+-]\d\d:?\d\d|[A-Z]{1,5})"
# 2025-09-20 17:05:47 CEST, 2025-09-20T15:05:47Z, 2025-09-20 17:05:47 +0200
_ISO = re.compile(r"(?P<y>\d{4})-(?P<mo>\d\d)-(?P<d>\d\d)[ T](?P<h>\d\d):(?P<mi>\d\d)(?::(?P<s>\d\d)(?:\.\d+)?)?\s*"
                  + _ZONE + r"(?![\w:])")
# `date`: Sat Sep 20 17:05:47 CEST 2025; in a 12-hour locale (Ubuntu's en_US since 22.04)
# Fri Mar 31 04:16:30 PM UTC 2023
_UNIX = re.compile(r"(?:[A-Z][a-z]{2},?\s+)?(?P<mon>[A-Z][a-z]{2})\s+(?P<d>\d{1,2})\s+(?P<h>\d\d?):(?P<mi>\d\d)"
                   r":(?P<s>\d\d)\s+(?:(?P<half>[AP]M)\s+)?" + _ZONE + r"\s+(?P<y>\d{4})\b")
# RFC 2822: Sat, 20 Sep 2025 17:05:47 +0200
_RFC = re.compile(r"(?:[A-Z][a-z]{2},?\s+)?(?P<d>\d{1,2})\s+(?P<mon>[A-Z][a-z]{2})\s+(?P<y>\d{4})\s+(?P<h>\d\d)"
                  r":(?P<mi>\d\d)(?::(?P<s>\d\d))?\s+" + _ZONE + r"(?![\w:])")


@dataclass(frozen=True, slots=True)
class HeaderDate:
    """A write-up's stated time: when (UTC), the line it was read from, and that line."""

    time: datetime
    line: int
    text: str

    @property
    def iso(self) -> str:
        return self.time.strftime("%Y-%m-%dT%H:%M:%SZ")


@cache
def _zones() -> dict[str, int]:
    text = resources.files("analyzer.ingest").joinpath("timezones.yaml").read_text("utf-8")
    return {str(k).upper(): int(v) for k, v in load_yaml(text).items()}


def _offset(zone: str) -> timedelta | None:
    if zone[0] in "+-":
        digits = zone[1:].replace(":", "")
        minutes = int(digits[:2]) * 60 + int(digits[2:])
        return timedelta(minutes=minutes if zone[0] == "+" else -minutes)
    minutes = _zones().get(zone.upper())
    return None if minutes is None else timedelta(minutes=minutes)


def parse_stated_time(value: str) -> datetime | None:
    """A dated value with its zone, in UTC; None without a date, a time or a known zone.

    >>> parse_stated_time("2025-09-20 17:05:47 CEST").isoformat()
    '2025-09-20T15:05:47+00:00'
    >>> parse_stated_time("Sat Sep 20 17:05:47 PDT 2025").isoformat()
    '2025-09-21T00:05:47+00:00'
    >>> parse_stated_time("Fri Mar 31 04:16:30 PM UTC 2023").isoformat()
    '2023-03-31T16:16:30+00:00'
    >>> parse_stated_time("Sat, 20 Sep 2025 17:05:47 +0200").isoformat()
    '2025-09-20T15:05:47+00:00'
    >>> parse_stated_time("2025-09-20 17:05:47 IST"), parse_stated_time("2025-09-20")
    (None, None)
    """
    for rx in (_ISO, _UNIX, _RFC):
        m = rx.search(value)
        if m is None:
            continue
        g = m.groupdict()
        month = int(g["mo"]) if g.get("mo") else _MONTHS.get((g.get("mon") or "").lower())
        offset = _offset(g["zone"])
        if month is None or offset is None:
            return None
        hour = int(g["h"])
        if g.get("half"):
            if not 1 <= hour <= 12:
                return None
            hour = hour % 12 + (12 if g["half"] == "PM" else 0)
        try:
            local = datetime(int(g["y"]), month, int(g["d"]), hour, int(g["mi"]), int(g["s"] or 0))
        except ValueError:
            return None
        return (local - offset).replace(tzinfo=UTC)
    return None


def header_date(text: str) -> HeaderDate | None:
    """The first dated "Generated/Captured/Date:" line among a write-up's first lines.

    >>> header_date("# Results\\n- **Generated:** 2025-09-20 17:05:47 CEST\\n").iso
    '2025-09-20T15:05:47Z'
    >>> header_date("Date: next Tuesday\\n") is None
    True
    >>> header_date("Name:         backend\\nCreated on:   2021-11-02 00:18:27 +0100 CET\\n") is None
    True
    """
    for no, line in enumerate(text.splitlines()[:HEADER_LINES], start=1):
        if _DESCRIBE_START.match(line):
            return None
        m = _LABEL.match(line)
        if m is None:
            continue
        when = parse_stated_time(m.group("value"))
        if when is not None:
            return HeaderDate(when, no, line.strip())
    return None
