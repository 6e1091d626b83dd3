"""Times as kubectl prints them: ages measured from the dump's capture time, never the clock."""

from __future__ import annotations

from datetime import UTC, datetime


def parse_time(value: object) -> datetime | None:
    """An API timestamp (RFC 3339, with or without fractions) as an aware datetime, or None.

    >>> parse_time("2024-05-01T10:00:00Z").isoformat()
    '2024-05-01T10:00:00+00:00'
    >>> parse_time("2024-05-01T10:00:00.123456789Z").microsecond, parse_time("garbage")
    (123456, None)
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


def human_duration(seconds: float) -> str:
    """kubectl's short age (apimachinery's HumanDuration).

    >>> [human_duration(s) for s in (-5, 0, 119, 125, 600, 3600 * 5 + 60, 3600 * 30, 86400 * 3, 86400 * 400, 86400 * 800)]
    ['<invalid>', '0s', '119s', '2m5s', '10m', '5h1m', '30h', '3d', '400d', '2y70d']
    """
    secs = int(seconds)
    if secs < -1:
        return "<invalid>"
    if secs < 0:
        return "0s"
    if secs < 60 * 2:
        return f"{secs}s"
    minutes = secs // 60
    if minutes < 10:
        s = secs % 60
        return f"{minutes}m" if s == 0 else f"{minutes}m{s}s"
    if minutes < 60 * 3:
        return f"{minutes}m"
    hours = secs // 3600
    if hours < 8:
        m = minutes % 60
        return f"{hours}h" if m == 0 else f"{hours}h{m}m"
    if hours < 48:
        return f"{hours}h"
    if hours < 24 * 8:
        h = hours % 24
        return f"{hours // 24}d" if h == 0 else f"{hours // 24}d{h}h"
    if hours < 24 * 365 * 2:
        return f"{hours // 24}d"
    if hours < 24 * 365 * 8:
        dy = (hours // 24) % 365
        return f"{hours // 24 // 365}y" if dy == 0 else f"{hours // 24 // 365}y{dy}d"
    return f"{hours // 24 // 365}y"


class Clock:
    """`now` for ages: the dump's capture time (a dump is a moment, not the present)."""

    def __init__(self, now: datetime | None) -> None:
        self.now = now

    def since(self, value: object, unknown: str = "<unknown>") -> str:
        """Age of a timestamp at capture time, as kubectl prints it."""
        then = parse_time(value)
        if then is None or self.now is None:
            return unknown
        return human_duration((self.now - then).total_seconds())

    def between(self, start: object, end: object) -> str:
        a, b = parse_time(start), parse_time(end)
        if a is None or b is None:
            return ""
        return human_duration((b - a).total_seconds())


def describe_time(value: object) -> str:
    """A timestamp as kubectl describe prints it (RFC 1123 with numeric zone).

    >>> describe_time("2024-05-01T10:00:00Z")
    'Wed, 01 May 2024 10:00:00 +0000'
    """
    t = parse_time(value)
    if t is None:
        return "<unset>" if not value else str(value)
    return t.strftime("%a, %d %b %Y %H:%M:%S %z")
