"""A redacted copy in the input's own form: a folder stays a folder, an archive an archive.

Each file keeps its name (with identifying words replaced), its encoding (UTF-16 stays UTF-16,
a byte-order mark stays), its line ends and its layout; only replaced values change. Archives
are written again with the same container and compression, members in the same order.
Files that are not text (binaries, images) cannot be checked, so they are left out and listed.
"""

from __future__ import annotations

import bz2
import codecs
import gzip
import io
import lzma
import os
import posixpath
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from analyzer.errors import AnalyzerError
from analyzer.ingest.tree import MAX_MEMBER_BYTES, safe_member_path

MAX_NESTING = 3


class RedactError(AnalyzerError):
    """The redacted copy cannot be written (output exists, output inside the input, ...)."""


@dataclass(slots=True)
class TextFile:
    """A decoded text file and how to encode it back byte for byte."""

    text: str
    encoding: str
    bom: bytes
    crlf: bool


def decode(data: bytes) -> TextFile | None:
    """Text of a file with what its encoding was, or None if it is not text."""
    bom = b""
    if data.startswith(codecs.BOM_UTF8):
        bom, encoding, body = codecs.BOM_UTF8, "utf-8", data[3:]
    elif data.startswith(codecs.BOM_UTF16_LE):
        bom, encoding, body = codecs.BOM_UTF16_LE, "utf-16-le", data[2:]
    elif data.startswith(codecs.BOM_UTF16_BE):
        bom, encoding, body = codecs.BOM_UTF16_BE, "utf-16-be", data[2:]
    elif _utf16_without_bom(data):
        encoding = "utf-16-le" if data[1:2] == b"\x00" else "utf-16-be"
        body = data
    else:
        if b"\x00" in data[:65536]:
            return None
        encoding, body = "utf-8", data
    try:
        text = body.decode(encoding, errors="surrogateescape") if encoding == "utf-8" else body.decode(encoding)
    except UnicodeDecodeError:
        return None
    sample = text[:8192]
    if sample and sum(1 for ch in sample if ord(ch) < 32 and ch not in "\n\r\t\f\v\x1b") > 0.1 * len(sample):
        return None
    crlf = "\r\n" in text
    if crlf:
        text = text.replace("\r\n", "\n")
    return TextFile(text, encoding, bom, crlf)


def encode(file: TextFile, text: str) -> bytes:
    """Text back into the file's original encoding, byte-order mark and line ends."""
    if file.crlf:
        text = text.replace("\n", "\r\n")
    errors = "surrogateescape" if file.encoding == "utf-8" else "strict"
    return file.bom + text.encode(file.encoding, errors=errors)


def _utf16_without_bom(data: bytes) -> bool:
    head = data[:200]
    if len(head) < 8:
        return False
    half = len(head) // 2
    return head[1::2].count(0) > 0.8 * half or head[0::2].count(0) > 0.8 * half


# -- containers --------------------------------------------------------------------------------

FileRewrite = Callable[[str, bytes, int], bytes | None]
PathRewrite = Callable[[str], str]


@dataclass(slots=True)
class Tally:
    """What the rewrite did to files."""

    files: int = 0
    dropped: list[str] = field(default_factory=list)
    links_skipped: list[str] = field(default_factory=list)
    # archive members whose path leaves the archive (`../x`, `/etc/x`): ingest never reads them,
    # and a copy made to be shared must not carry them to whoever unpacks it
    paths_refused: list[str] = field(default_factory=list)


def _link_leaves(member: str, target: str, hard: bool) -> bool:
    """Whether an archive link points out of the archive: a hard link names an archive path, a
    symbolic one a path from its own folder.

    >>> _link_leaves("a/b", "../c", False), _link_leaves("a/b", "../../etc/passwd", False)
    (False, True)
    >>> _link_leaves("a/b", "/etc/passwd", False), _link_leaves("a/b", "etc/passwd", True)
    (True, False)
    """
    if target.startswith(("/", "\\")):
        return True
    path = target if hard else posixpath.normpath(posixpath.join(posixpath.dirname(member), target))
    return safe_member_path(path) is None


def compression_of(data: bytes) -> str | None:
    """gzip, xz, bzip2, zip or tar by magic number; None for a plain file."""
    if data.startswith(b"\x1f\x8b"):
        return "gzip"
    if data.startswith(b"\xfd7zXZ\x00"):
        return "xz"
    if data.startswith(b"BZh"):
        return "bzip2"
    if data.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return "zip"
    if len(data) >= 262 and data[257:262] == b"ustar":
        return "tar"
    return None


def _decompress(kind: str, data: bytes) -> bytes:
    src = io.BytesIO(data)
    stream = gzip.GzipFile(fileobj=src) if kind == "gzip" else lzma.LZMAFile(src) if kind == "xz" else bz2.BZ2File(src)  # noqa: SIM115
    with stream as f:
        out = f.read(MAX_MEMBER_BYTES + 1)
    if len(out) > MAX_MEMBER_BYTES:
        raise RedactError(f"compressed data inflates past {MAX_MEMBER_BYTES // 1024**2} MiB; not redacted")
    return out


def _compress(kind: str, data: bytes) -> bytes:
    if kind == "gzip":
        return gzip.compress(data, mtime=0)
    if kind == "xz":
        return lzma.compress(data)
    return bz2.compress(data)


def iter_archive(data: bytes, name: str) -> Iterator[tuple[str, bytes]]:
    """Every (member path, bytes) of an archive or compressed file, in order (for reading only)."""
    kind = compression_of(data)
    if kind in ("gzip", "xz", "bzip2"):
        inner = _decompress(kind, data)
        if compression_of(inner) == "tar":
            yield from iter_archive(inner, name)
        else:
            yield "", inner
    elif kind == "tar":
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
            for member in tar:
                path = safe_member_path(member.name)
                if member.isfile() and path is not None:
                    f = tar.extractfile(member)
                    if f is not None:
                        yield path, f.read()
    elif kind == "zip":
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            for info in zf.infolist():
                path = safe_member_path(info.filename)
                if not info.is_dir() and path is not None and (info.external_attr >> 16) & 0o170000 != 0o120000:
                    yield path, zf.read(info)


def rewrite_archive(data: bytes, rewrite_file: FileRewrite, rewrite_path: PathRewrite, tally: Tally, depth: int) -> bytes:
    """An archive or compressed file written again with every member rewritten, same container."""
    kind = compression_of(data)
    if kind in ("gzip", "xz", "bzip2"):
        inner = _decompress(kind, data)
        if compression_of(inner) == "tar":
            return _compress(kind, _rewrite_tar(inner, rewrite_file, rewrite_path, tally, depth))
        new = rewrite_file("", inner, depth)
        if new is None:
            tally.dropped.append("(compressed content: not text)")
            return _compress(kind, b"")
        tally.files += 1
        return _compress(kind, new)
    if kind == "tar":
        return _rewrite_tar(data, rewrite_file, rewrite_path, tally, depth)
    if kind == "zip":
        return _rewrite_zip(data, rewrite_file, rewrite_path, tally, depth)
    raise RedactError("not an archive")  # pragma: no cover - callers sniff first


def _rewrite_tar(data: bytes, rewrite_file: FileRewrite, rewrite_path: PathRewrite, tally: Tally, depth: int) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as src, tarfile.open(
            fileobj=out, mode="w:", format=src.format if src.format is not None else tarfile.PAX_FORMAT) as dst:
        for member in src:
            if safe_member_path(member.name) is None:
                tally.paths_refused.append(member.name)
                continue
            if (member.issym() or member.islnk()) and _link_leaves(member.name, member.linkname, member.islnk()):
                tally.links_skipped.append(member.name)
                continue
            info = tarfile.TarInfo(rewrite_path(member.name))
            info.mode, info.mtime, info.type = member.mode, member.mtime, member.type
            info.uid, info.gid, info.uname, info.gname = member.uid, member.gid, member.uname, member.gname
            if member.issym() or member.islnk():
                info.linkname = rewrite_path(member.linkname)
                dst.addfile(info)
                continue
            if not member.isfile():
                dst.addfile(info)
                continue
            f = src.extractfile(member)
            content = f.read() if f is not None else b""
            new = rewrite_file(member.name, content, depth)
            if new is None:
                tally.dropped.append(member.name)
                continue
            info.size = len(new)
            dst.addfile(info, io.BytesIO(new))
            tally.files += 1
    return out.getvalue()


def _rewrite_zip(data: bytes, rewrite_file: FileRewrite, rewrite_path: PathRewrite, tally: Tally, depth: int) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            if safe_member_path(info.filename) is None:
                tally.paths_refused.append(info.filename)
                continue
            new_info = zipfile.ZipInfo(rewrite_path(info.filename), date_time=info.date_time)
            new_info.compress_type = info.compress_type
            new_info.external_attr = info.external_attr
            new_info.create_system = info.create_system
            if info.is_dir():
                dst.writestr(new_info, b"")
                continue
            content = src.read(info)
            if (info.external_attr >> 16) & 0o170000 == 0o120000:  # a symlink: its target is a path
                if _link_leaves(info.filename, content.decode("utf-8", "replace"), False):
                    tally.links_skipped.append(info.filename)
                    continue
                dst.writestr(new_info, rewrite_path(content.decode("utf-8", "replace")).encode())
                continue
            new = rewrite_file(info.filename, content, depth)
            if new is None:
                tally.dropped.append(info.filename)
                continue
            dst.writestr(new_info, new)
            tally.files += 1
    return out.getvalue()


def rewrite_folder(src: Path, dst: Path, rewrite_file: FileRewrite, rewrite_path: PathRewrite, tally: Tally) -> None:
    """A folder copied file by file into `dst` with names and contents rewritten."""
    root_real = src.resolve()
    for dirpath, dirnames, filenames in os.walk(src, followlinks=False):
        dirnames.sort()
        here = Path(dirpath)
        rel_dir = here.relative_to(src).as_posix()
        out_dir = dst / rewrite_path(rel_dir) if rel_dir != "." else dst
        out_dir.mkdir(parents=True, exist_ok=True)
        for name in sorted(filenames):
            path = here / name
            rel = path.relative_to(src).as_posix()
            target = dst / rewrite_path(rel)
            if path.is_symlink():
                real = path.resolve()
                if not real.is_relative_to(root_real):
                    tally.links_skipped.append(rel)
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                os.symlink(rewrite_path(os.readlink(path)), target)
                continue
            new = rewrite_file(rel, path.read_bytes(), 0)
            if new is None:
                tally.dropped.append(rel)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(new)
            tally.files += 1


def iter_input_files(src: Path) -> Iterator[tuple[str, bytes]]:
    """Every (relative path, bytes) of a folder or file input, archives opened (reading only)."""
    if src.is_dir():
        for dirpath, dirnames, filenames in os.walk(src, followlinks=False):
            dirnames.sort()
            for name in sorted(filenames):
                path = Path(dirpath) / name
                if path.is_symlink():
                    continue
                rel = path.relative_to(src).as_posix()
                yield from _expand(rel, path.read_bytes(), 0)
    else:
        yield from _expand("", src.read_bytes(), 0)


def _expand(path: str, data: bytes, depth: int) -> Iterator[tuple[str, bytes]]:
    yield path, b""  # the path alone, so its words are learned even for an archive
    if compression_of(data) is not None and depth < MAX_NESTING:
        try:
            for inner, content in iter_archive(data, path):
                yield from _expand(f"{path}!/{inner}" if path else inner, content, depth + 1)
        except (tarfile.TarError, zipfile.BadZipFile, OSError, EOFError, lzma.LZMAError, RedactError):
            return
    else:
        yield path, data
