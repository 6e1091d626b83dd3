"""Kubernetes API timestamps (RFC 3339) as aware datetimes: the one parser every stage uses."""

from __future__ import annotations

import re
from datetime import UTC, datetime

# An API timestamp exactly: date, "T", time, optional fraction (up to 9 digits), "Z" or an offset.
RFC3339 = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)?$")


def parse_time(value: object) -> datetime | None:
    """An API timestamp (RFC 3339, with or without fractions) as an aware datetime, or None.

    A time without an offset is UTC, as the API server writes them; a fraction is kept to the
    microsecond (the API writes up to 9 digits, MicroTime); anything unreadable is None.

    >>> parse_time("2024-05-01T10:00:00Z").isoformat()
    '2024-05-01T10:00:00+00:00'
    >>> parse_time("2024-05-01T10:00:00.123456789Z").microsecond, parse_time("garbage")
    (123456, None)
    >>> parse_time("2024-05-01T10:00:00"), parse_time(None)
    (datetime.datetime(2024, 5, 1, 10, 0, tzinfo=datetime.timezone.utc), None)
    """
    if not isinstance(value, str) or len(value) < 19:
        return None
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    head, dot, rest = text.partition(".")
    if dot:
        digits = len(rest) - len(rest.lstrip("0123456789"))
        # Python reads at most 6 digits of a fraction; the API writes up to 9 (MicroTime)
        rest = rest[:min(digits, 6)].ljust(6, "0") + rest[digits:]
        text = f"{head}.{rest}"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def parse_strict_time(value: str) -> datetime | None:
    """`parse_time` for exactly the API's form (`RFC3339`): no date alone, no space for "T".

    >>> parse_strict_time("2024-05-20T10:00:00.123456789Z").isoformat(), parse_strict_time("2024-02-30T10:00:00Z")
    ('2024-05-20T10:00:00.123456+00:00', None)
    >>> parse_strict_time("2024-05-20 10:00:00Z") is None, parse_time("2024-05-20 10:00:00Z") is None
    (True, False)
    """
    return parse_time(value) if RFC3339.match(value) else None
