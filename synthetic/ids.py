"""Deterministic identifiers and generated names: derived from names (the sample clusters, where
every value must stay put when another object is added) or drawn from a seeded RNG (the scalable
cluster, where speed matters and the seed names the dump)."""

from __future__ import annotations

import hashlib
import random
import uuid

# Kubernetes' rand.SafeEncodeString alphabet (no vowels, no ambiguous characters).
SAFE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"


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
        return "".join(self.rng.choices(SAFE_ALPHABET, k=length))

    def hex(self, length: int = 64) -> str:
        """Lower-case hex digits, e.g. a container id or a sha256 digest."""
        return f"{self.rng.getrandbits(4 * length):0{length}x}"

    def resource_version(self) -> str:
        """An increasing resourceVersion."""
        self._resource_version += self.rng.randint(1, 40)
        return str(self._resource_version)


def digest(*parts: object) -> bytes:
    """SHA-256 of the joined parts: the single source of every pseudo-random value."""
    return hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).digest()


def hexid(length: int, *parts: object) -> str:
    """A hex string of `length` characters derived from the parts."""
    out = ""
    counter = 0
    while len(out) < length:
        out += digest(counter, *parts).hex()
        counter += 1
    return out[:length]


def make_uid(*parts: object) -> str:
    """An object uid (UUID version 5) derived from the parts."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "kda-sample:" + "/".join(str(p) for p in parts)))


def safe_suffix(length: int, *parts: object) -> str:
    """A name suffix in the alphabet Kubernetes uses for generated names."""
    return "".join(SAFE_ALPHABET[b % len(SAFE_ALPHABET)] for b in digest(*parts)[:length])


def pick(number: int, *parts: object) -> int:
    """A stable integer in range(number)."""
    return int.from_bytes(digest(*parts)[:4], "big") % number


def image_digest(image: str) -> str:
    """A sha256 digest for an image reference (stable per reference)."""
    return "sha256:" + hexid(64, "image", image)
