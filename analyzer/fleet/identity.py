"""Who a dump is: its content hash (the cache key), a display name, and a stable dump_id."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

# Bumped if what goes into the hash changes, so old manifests never match new hashes.
HASH_SCHEME = b"kda-fleet-content-v1\0"
CHUNK = 1 << 20
SHORT_HASH = 12
MAX_SLUG = 48
ARCHIVE_SUFFIXES = (".gz", ".tgz", ".xz", ".bz2", ".zst", ".tar", ".zip", ".json", ".yaml",
                    ".yml", ".txt", ".log")


def dump_files(root: Path) -> list[tuple[str, Path]]:
    """Every regular file of a dump as (relative posix path, path), sorted by relative path.

    A single file is its own dump with the relative path "" (so renaming it keeps its hash).
    Symbolic links to folders are not followed: a link loop must not hang a fleet run.
    """
    if root.is_file():
        return [("", root)]
    if not root.is_dir():
        raise FileNotFoundError(f"{root}: no such file or folder")
    found: list[tuple[str, Path]] = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs.sort()
        for name in files:
            path = Path(folder, name)
            if path.is_file():
                found.append((path.relative_to(root).as_posix(), path))
    found.sort(key=lambda item: item[0])
    return found


def content_hash(path: str | os.PathLike[str]) -> str:
    """sha256 over the dump's sorted relative paths and bytes, read in 1 MiB chunks.

    Examples:
        >>> import tempfile
        >>> with tempfile.TemporaryDirectory() as tmp:
        ...     d = Path(tmp)
        ...     _ = (d / "pods.yaml").write_text("kind: Pod\\n")
        ...     before = content_hash(d)
        ...     _ = (d / "pods.yaml").write_text("kind: Pod \\n")
        ...     (before == content_hash(d), len(before))
        (False, 64)
    """
    digest = hashlib.sha256(HASH_SCHEME)
    for relative, file in dump_files(Path(path)):
        name = relative.encode("utf-8", "surrogateescape")
        # Lengths before each name and body, so ("ab", "c") and ("a", "bc") never collide.
        digest.update(len(name).to_bytes(8, "big") + name)
        digest.update(file.stat().st_size.to_bytes(8, "big"))
        with file.open("rb") as stream:
            while chunk := stream.read(CHUNK):
                digest.update(chunk)
    return digest.hexdigest()


def dump_name(path: str | os.PathLike[str]) -> str:
    """A human name for the dump: its file or folder name without archive suffixes.

    A generic name ("cluster-info-dump", "dump") takes its parent folder's name instead.

    Examples:
        >>> dump_name("/data/acme/ticket-42.tar.gz")
        'ticket-42'
        >>> dump_name("/data/acme/cluster-info-dump")
        'acme'
    """
    p = Path(path)
    if p.name in ("", ".."):  # `.` or `..`: the folder it is
        p = p.resolve()
    name = p.name
    while True:
        stripped = next((name.removesuffix(s) for s in ARCHIVE_SUFFIXES if name.endswith(s)), name)
        if stripped in (name, ""):
            break
        name = stripped
    if name in ("cluster-info-dump", "dump", "support-bundle", "must-gather", "") and p.parent.name:
        name = p.parent.name
    return name or "dump"


def slug(text: str) -> str:
    """Lowercase letters, digits and single dashes, at most 48 characters ("dump" if empty).

    Examples:
        >>> slug("Customer A / prod_EU (2024)")
        'customer-a-prod-eu-2024'
        >>> slug("***")
        'dump'
    """
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:MAX_SLUG].rstrip("-")
    return s or "dump"


def dump_id(name: str, digest: str) -> str:
    """The dump's id in the dataset: slug of its name + 12 hex digits of its content hash.

    The dash keeps it a string when Hive partitioning infers types (never read as a number).

    Examples:
        >>> dump_id("AKS prod", "0123456789abcdef" * 4)
        'aks-prod-0123456789ab'
    """
    return f"{slug(name)}-{digest[:SHORT_HASH]}"
