"""Times as kubectl prints them: ages measured from the dump's capture time, never the clock."""

from __future__ import annotations

from datetime import datetime

from analyzer.kube.time import parse_time


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
