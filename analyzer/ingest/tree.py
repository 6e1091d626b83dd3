"""One narrow way to read a dump: list its files and read one, whatever holds them.

Folders, archives (tar, tar.gz/xz/bz2, zip, lone .gz), single files, stdin and in-memory maps all
look the same to the format readers. Archive members are read in memory and never extracted, so
no member (`../x`, absolute paths, symlinks) can touch anything outside the archive.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import mmap
import os
import re
import tarfile
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from analyzer.errors import InputError

if TYPE_CHECKING:
    import msgspec

# Bounds against decompression bombs: no single member, and no archive in total, may inflate
# past these. A dump of 20,000 pods is ~600 MB of JSON; real bundles are far smaller.
MAX_MEMBER_BYTES = 2 * 1024**3
MAX_ARCHIVE_BYTES = 8 * 1024**3
MAX_MEMBERS = 200_000
# Files at least this big are mapped rather than read: a 700 MB dump then costs no copy of
# itself in the process's own memory, only pages of the page cache, which the ingester
# gives back as it goes (see MappedFile).
MAP_AT_BYTES = 32 * 1024**2
# A file that starts as a kubectl YAML dump is mapped from this size on: its reader
# (yamlchunks) then holds neither its bytes nor its text whole (read, they cost twice the file
# while it was parsed). Anything else mapped is copied and read as before.
YAML_MAP_AT_BYTES = 8 * 1024**2
_YAML_KEY_LINE = re.compile(rb"^(?:-[ \t]+)?(?:apiVersion|kind|items):[ \t\r\n]", re.M)


class MappedFile:
    """A large file mapped read-only, for zero-copy parsing (`map` is the buffer).

    The objects read from it keep their raw bytes as slices of the map and decode them only
    when asked; `check_unchanged` is called first, because reading a mapped file that was
    truncated since kills the process (SIGBUS) instead of raising an error.
    """

    def __init__(self, path: Path, display: str) -> None:
        self.path = path
        self.display = display
        with open(path, "rb") as f:
            stat = os.fstat(f.fileno())
            self.map = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        self._identity = _identity(stat)
        self._base: int | None = None  # the map's address, for offset_of

    def check_unchanged(self) -> None:
        """Raise InputError if the file is no longer the one that was mapped."""
        try:
            same = _identity(os.stat(self.path)) == self._identity
        except OSError:
            same = False
        if not same:
            raise InputError(self.display, "the file changed or went away after it was loaded; load the dump again")

    def offset_of(self, part: msgspec.Raw | memoryview) -> int | None:
        """Where in the file a zero-copy slice of the map starts (a `msgspec.Raw` decoded from
        it), or None for anything else."""
        import numpy as np  # (only large files get here; numpy comes with pandas)

        if not len(part):
            return None
        if self._base is None:
            self._base = np.frombuffer(self.map, np.uint8).ctypes.data
        start = np.frombuffer(part, np.uint8).ctypes.data - self._base
        return start if 0 <= start < len(self.map) else None

    def release(self, upto: int | None = None) -> None:
        """Let the pages of the first `upto` bytes (all by default) go from this process's
        memory: they stay in the file (and the page cache) and come back on the next read."""
        # A prefix goes in whole pages only: the kernel rounds a length up to the next page.
        upto = len(self.map) if upto is None else min(upto - upto % mmap.PAGESIZE, len(self.map))
        if upto > 0 and hasattr(self.map, "madvise") and hasattr(mmap, "MADV_DONTNEED"):
            self.map.madvise(mmap.MADV_DONTNEED, 0, upto)


def _starts_as_yaml(path: Path) -> bool:
    """Whether a file's first 64 KB read as a Kubernetes YAML dump (a top-level key of an
    object or a List), not JSON."""
    try:
        with open(path, "rb") as f:
            head = f.read(65536)
    except OSError:
        return False
    return head.lstrip()[:1] not in (b"{", b"[") and _YAML_KEY_LINE.search(head) is not None


def _identity(stat: os.stat_result) -> tuple[int, int, int, int]:
    return (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns)


def read_file(path: Path, display: str) -> bytes | MappedFile:
    """A file's bytes, or its mapping when it is large (see MAP_AT_BYTES)."""
    size = path.stat().st_size
    if size >= max(MAP_AT_BYTES, 1) or size >= max(YAML_MAP_AT_BYTES, 1) and _starts_as_yaml(path):
        try:
            return MappedFile(path, display)
        except (OSError, ValueError):  # a file system that cannot map: read it
            pass
    return path.read_bytes()


@dataclass(frozen=True, slots=True)
class Entry:
    """One file of a dump: its path inside the dump and the name to show the user."""

    path: str  # POSIX path relative to the dump root ("" for a single file)
    display: str  # what rejections and provenance call it


class DumpTree:
    """A dump as a set of files: `entries()` lists them, `read()` returns one's bytes (or, for
    a large file on disk, its MappedFile)."""

    name: str

    def entries(self) -> list[Entry]:
        raise NotImplementedError

    def read(self, entry: Entry) -> bytes | MappedFile:
        raise NotImplementedError

    def _in_vcs_folder(self, path: str) -> bool:
        """Whether an archive member sits in a version-control folder, which is named (once) in
        the tree's `skipped` list."""
        folder = vcs_folder(path)
        if folder is None:
            return False
        named = self.__dict__.setdefault("_vcs_named", set())
        if folder not in named:
            named.add(folder)
            self.skipped.append((f"{self.name}!/{folder}", VCS_REASON))
        return True


class MemoryTree(DumpTree):
    """A dump held in memory as path -> bytes (tests, notebooks, already-read text)."""

    def __init__(self, files: Mapping[str, bytes | str], name: str = "<memory>") -> None:
        self.name = name
        self._files = {
            p: (v.encode("utf-8") if isinstance(v, str) else v) for p, v in files.items()
        }

    def entries(self) -> list[Entry]:
        return [Entry(p, f"{self.name}!/{p}" if p else self.name) for p in sorted(self._files)]

    def read(self, entry: Entry) -> bytes:
        return self._files[entry.path]


class FileTree(DumpTree):
    """A single file on disk."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = str(path)

    def entries(self) -> list[Entry]:
        return [Entry("", self.name)]

    def read(self, entry: Entry) -> bytes | MappedFile:
        return read_file(self.path, entry.display)


class DirectoryTree(DumpTree):
    """A folder; symlinks that lead outside it are skipped."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.name = str(root)
        self.skipped: list[tuple[str, str]] = []

    def entries(self) -> list[Entry]:
        root_real = self.root.resolve()
        out: list[Entry] = []
        for dirpath, dirnames, filenames in os.walk(self.root, followlinks=False):
            for dn in sorted(d for d in dirnames if d in VCS_FOLDERS):
                self.skipped.append((str(Path(dirpath) / dn), VCS_REASON))
            dirnames[:] = sorted(d for d in dirnames if d not in VCS_FOLDERS)
            for dn in dirnames:
                if (Path(dirpath) / dn).is_symlink():
                    self.skipped.append((str(Path(dirpath) / dn), "symlinked folder, not followed"))
            for fn in sorted(filenames):
                p = Path(dirpath) / fn
                rel = p.relative_to(self.root).as_posix()
                if p.is_symlink():
                    target = p.resolve()
                    if not target.is_relative_to(root_real) or not target.is_file():
                        self.skipped.append((str(p), "symlink pointing outside the dump, not read"))
                        continue
                elif not p.is_file():
                    # a FIFO, socket or device inside the folder: reading it could block forever
                    self.skipped.append((str(p), "not a regular file, not read"))
                    continue
                out.append(Entry(rel, str(p)))
        return out

    def read(self, entry: Entry) -> bytes | MappedFile:
        return read_file(self.root / entry.path, entry.display)


def _bounded_read(stream: io.BufferedIOBase, limit: int, display: str) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = stream.read(1 << 20)
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if total > limit:
            raise InputError(display, f"inflates past {limit // 1024**2} MiB; not read (decompression bomb?)")
        chunks.append(chunk)


# A version-control system's own folder (a dump committed to a repository, then cloned or zipped
# whole): its files are the repository's history and settings, never the dump; named once.
VCS_FOLDERS = frozenset({".git", ".hg", ".svn"})
VCS_REASON = "a version-control folder (the repository's own metadata), not part of the dump; not read"


def vcs_folder(path: str) -> str | None:
    """The path up to the version-control folder a file sits in, or None.

    >>> vcs_folder("k8slogs-bak/.git/objects/22/78026996"), vcs_folder("dump/nodes.json")
    ('k8slogs-bak/.git', None)
    """
    parts = path.split("/")
    at = next((i for i, part in enumerate(parts[:-1]) if part in VCS_FOLDERS), None)
    return None if at is None else "/".join(parts[:at + 1])


def safe_member_path(name: str) -> str | None:
    """Normalise an archive member name; None if it would leave the archive root.

    >>> safe_member_path("./cluster-resources/pods/default.json")
    'cluster-resources/pods/default.json'
    >>> safe_member_path("../../etc/passwd") is None, safe_member_path("/etc/passwd") is None
    (True, True)
    """
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        return None
    parts = [p for p in PurePosixPath(name.replace("\\", "/")).parts if p not in ("", ".")]
    if any(p == ".." for p in parts) or not parts:
        return None
    return "/".join(parts)


class TarTree(DumpTree):
    """A tar archive (plain, gzip, xz or bzip2); members read in memory, never extracted."""

    def __init__(self, data_or_path: Path | bytes, name: str) -> None:
        self.name = name
        self.skipped: list[tuple[str, str]] = []
        self.refused: list[InputError] = []  # members that inflate past the bound
        self._members: dict[str, bytes] = {}
        try:
            fileobj = (
                io.BytesIO(data_or_path) if isinstance(data_or_path, bytes) else open(data_or_path, "rb")  # noqa: SIM115
            )
            with fileobj, tarfile.open(fileobj=fileobj, mode="r:*") as tar:
                total = 0
                for i, member in enumerate(tar):
                    if i >= MAX_MEMBERS:
                        self.skipped.append((name, f"more than {MAX_MEMBERS} members; the rest not read"))
                        break
                    if not member.isfile():
                        if member.issym() or member.islnk():
                            self.skipped.append((f"{name}!/{member.name}", "link in archive, not followed"))
                        continue
                    path = safe_member_path(member.name)
                    if path is None:
                        self.skipped.append((f"{name}!/{member.name}", "member path leaves the archive; not read"))
                        continue
                    if self._in_vcs_folder(path):
                        continue
                    f = tar.extractfile(member)
                    if f is None:
                        continue
                    try:
                        data = _bounded_read(f, MAX_MEMBER_BYTES, f"{name}!/{path}")
                    except InputError as exc:  # one bomb costs only itself
                        self.refused.append(exc)
                        continue
                    total += len(data)
                    if total > MAX_ARCHIVE_BYTES:
                        raise InputError(name, "archive inflates past its size bound; not read further")
                    self._members[path] = data
        except (tarfile.TarError, EOFError, OSError, zlib_error(), lzma.LZMAError) as exc:
            if not self._members:
                raise InputError(name, f"not a readable tar archive ({exc})") from exc
            self.skipped.append((name, f"archive is truncated or corrupt after {len(self._members)} members ({exc})"))

    def entries(self) -> list[Entry]:
        return [Entry(p, f"{self.name}!/{p}") for p in sorted(self._members)]

    def read(self, entry: Entry) -> bytes:
        return self._members[entry.path]


def zlib_error() -> type[Exception]:
    import zlib

    return zlib.error


class ZipTree(DumpTree):
    """A zip archive; members read in memory with a bound on their inflated size."""

    def __init__(self, data_or_path: Path | bytes, name: str) -> None:
        self.name = name
        self.skipped: list[tuple[str, str]] = []
        src = io.BytesIO(data_or_path) if isinstance(data_or_path, bytes) else data_or_path
        try:
            self._zip = zipfile.ZipFile(src)
            infos = self._zip.infolist()
        except (zipfile.BadZipFile, OSError, EOFError) as exc:
            raise InputError(name, f"not a readable zip archive ({exc})") from exc
        self._paths: dict[str, zipfile.ZipInfo] = {}
        for info in infos[:MAX_MEMBERS]:
            if info.is_dir():
                continue
            # A zip stores symlinks as files whose mode says S_IFLNK; never follow them.
            if (info.external_attr >> 16) & 0o170000 == 0o120000:
                self.skipped.append((f"{name}!/{info.filename}", "link in archive, not followed"))
                continue
            path = safe_member_path(info.filename)
            if path is None:
                self.skipped.append((f"{name}!/{info.filename}", "member path leaves the archive; not read"))
                continue
            if self._in_vcs_folder(path):
                continue
            self._paths[path] = info

    def entries(self) -> list[Entry]:
        return [Entry(p, f"{self.name}!/{p}") for p in sorted(self._paths)]

    def read(self, entry: Entry) -> bytes:
        try:
            with self._zip.open(self._paths[entry.path]) as f:
                return _bounded_read(f, MAX_MEMBER_BYTES, entry.display)
        except (zipfile.BadZipFile, OSError, EOFError, zlib_error()) as exc:
            raise InputError(entry.display, f"corrupt zip member ({exc})") from exc


def _sniff_compression(head: bytes) -> str | None:
    if head.startswith(b"\x1f\x8b"):
        return "gzip"
    if head.startswith(b"\xfd7zXZ\x00"):
        return "xz"
    if head.startswith(b"BZh"):
        return "bzip2"
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return "zip"
    return None


def _is_tar(data: bytes) -> bool:
    return len(data) >= 262 and data[257:262] == b"ustar"


def _decompress(data: bytes, kind: str, display: str, limit: int | None = None) -> bytes:
    src = io.BytesIO(data)
    try:
        f = gzip.GzipFile(fileobj=src) if kind == "gzip" else lzma.LZMAFile(src) if kind == "xz" else bz2.BZ2File(src)  # noqa: SIM115
        with f:
            return _bounded_read(f, MAX_MEMBER_BYTES if limit is None else limit, display)
    except (OSError, EOFError, lzma.LZMAError, zlib_error()) as exc:
        raise InputError(display, f"corrupt {kind} data ({exc})") from exc


def gunzipped(data: bytes, display: str, limit: int) -> bytes:
    """A gzipped file's bytes, in memory, up to `limit` (InputError past it, or if corrupt)."""
    return _decompress(data, "gzip", display, limit)


def is_archive(data: bytes) -> bool:
    """Whether bytes are an archive or a compressed file (by magic number, not by name)."""
    return _sniff_compression(data[:8]) is not None or _is_tar(data)


def tree_for_bytes(data: bytes, name: str) -> DumpTree:
    """A tree for bytes of unknown form: archive, compressed file or plain file (by content)."""
    kind = _sniff_compression(data[:8])
    if kind == "zip":
        return ZipTree(data, name)
    if kind in ("gzip", "xz", "bzip2"):
        inner = _decompress(data, kind, name)
        if _is_tar(inner):
            return TarTree(inner, name)
        return MemoryTree({"": inner}, name=name)
    if _is_tar(data):
        return TarTree(data, name)
    return MemoryTree({"": data}, name=name)


def open_input(spec: str | os.PathLike[str]) -> DumpTree:
    """The tree for a command-line input: a folder, an archive, a plain file, or "-" for stdin."""
    import sys

    if str(spec) == "-":
        return tree_for_bytes(sys.stdin.buffer.read(), "<stdin>")
    path = Path(spec)
    if not path.exists():
        raise InputError(str(path), "no such file or folder")
    if path.is_dir():
        return DirectoryTree(path)
    if not path.is_file():
        # A pipe (`kda inspect <(kubectl get pods -o yaml)`) or a device: read once, bounded.
        try:
            with open(path, "rb") as f:
                return tree_for_bytes(_bounded_read(f, MAX_MEMBER_BYTES, str(path)), str(path))
        except OSError as exc:
            raise InputError(str(path), f"cannot be read ({exc.strerror})") from exc
    try:
        with open(path, "rb") as f:
            head = f.read(512)
    except OSError as exc:
        raise InputError(str(path), f"cannot be read ({exc.strerror})") from exc
    if _sniff_compression(head[:8]) or _is_tar(head):
        return tree_for_bytes(path.read_bytes(), str(path))
    return FileTree(path)


def iter_entries(tree: DumpTree) -> Iterator[tuple[Entry, bytes | MappedFile | InputError]]:
    """Each entry with its bytes, or the error that kept it from being read."""
    for entry in tree.entries():
        try:
            yield entry, tree.read(entry)
        except InputError as exc:
            yield entry, exc
        except OSError as exc:
            yield entry, InputError(entry.display, f"cannot be read ({exc.strerror or exc})")
