"""Deterministic identifiers, generated names and timestamps for the synthetic cluster."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime, timedelta, timezone

# A fixed "now" keeps dumps identical across runs; every age is counted back from it.
NOW = datetime(2024, 5, 20, 10, 0, 0, tzinfo=UTC)
# Kubernetes' rand.SafeEncodeString alphabet (no vowels, no ambiguous characters).
_SAFE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"


def timestamp(seconds_ago: int) -> str:
    """RFC 3339 time `seconds_ago` before NOW, as the API server writes it."""
    return (NOW - timedelta(seconds=seconds_ago)).strftime("%Y-%m-%dT%H:%M:%SZ")


def local_timestamp(seconds_ago: int, utc_offset_hours: int = 2) -> str:
    """Time with an offset, as `kubectl rollout restart` writes kubectl.kubernetes.io/restartedAt."""
    local = (NOW - timedelta(seconds=seconds_ago)).astimezone(timezone(timedelta(hours=utc_offset_hours)))
    return local.replace(microsecond=0).isoformat()


class Ids:
    """Seeded source of uids, name suffixes, hashes and resourceVersions."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._resource_version = 1_000_000

    def uid(self) -> str:
        """A random-looking (version 4) UUID."""
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def suffix(self, length: int = 5) -> str:
        """A generateName suffix (`-x7k2q`) or pod-template-hash."""
        return "".join(self.rng.choices(_SAFE_ALPHABET, k=length))

    def hex(self, length: int = 64) -> str:
        """Lower-case hex digits, e.g. a container id or a sha256 digest."""
        return f"{self.rng.getrandbits(4 * length):0{length}x}"

    def resource_version(self) -> str:
        """An increasing resourceVersion."""
        self._resource_version += self.rng.randint(1, 40)
        return str(self._resource_version)
