"""Timestamps as the API server, kubelet and klog write them, counted back from a fixed moment."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from synthetic.ids import pick

# The moment every sample dump was "captured"; all other times are offsets back from it.
CAPTURE = datetime(2024, 9, 15, 12, 0, 0, tzinfo=UTC)
# The scalable cluster's "now": a fixed moment keeps dumps identical across runs.
NOW = datetime(2024, 5, 20, 10, 0, 0, tzinfo=UTC)


def ago(days: float = 0, hours: float = 0, minutes: float = 0, seconds: float = 0) -> datetime:
    """A time before the capture."""
    return CAPTURE - timedelta(days=days, hours=hours, minutes=minutes, seconds=seconds)


def ts(moment: datetime) -> str:
    """RFC 3339 seconds, as the API serialises metav1.Time."""
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def micro_ts(moment: datetime, *parts: object) -> str:
    """RFC 3339 with microseconds (metav1.MicroTime); the fraction is derived from the parts."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{pick(1_000_000, *parts):06d}Z"


def nano_ts(moment: datetime, *parts: object) -> str:
    """RFC 3339 with nanoseconds, as kubelet writes kubernetes.io/config.seen."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{pick(1_000_000_000, *parts):09d}Z"


def klog_time(moment: datetime, *parts: object) -> str:
    """The `MMDD HH:MM:SS.uuuuuu` stamp klog puts after the severity letter."""
    return moment.strftime("%m%d %H:%M:%S") + f".{pick(1_000_000, *parts):06d}"


def timestamp(seconds_ago: int) -> str:
    """RFC 3339 time `seconds_ago` before NOW, as the API server writes it."""
    return ts(NOW - timedelta(seconds=seconds_ago))


def local_timestamp(seconds_ago: int, utc_offset_hours: int = 2) -> str:
    """Time with an offset, as `kubectl rollout restart` writes kubectl.kubernetes.io/restartedAt."""
    local = (NOW - timedelta(seconds=seconds_ago)).astimezone(timezone(timedelta(hours=utc_offset_hours)))
    return local.replace(microsecond=0).isoformat()
