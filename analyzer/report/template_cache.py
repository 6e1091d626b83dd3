"""Compiled report templates kept in the user's cache directory, so that a report does not
compile its templates again on every run (0.1 s of CPU, a tenth of a large dump's render).

The cache is the user's own, like Python's `__pycache__`: never in a dump's folder or the
report's. A template's code is used only when its source is unchanged (the source's checksum
is stored with it) and was compiled by the same Python, Jinja and environment options (the
cache's folder is named by them). When the folder cannot be made, is not the user's own, or
cannot be written, templates are compiled as before, and nothing fails.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import stat
import sys
import tempfile
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket, BytecodeCache

APP_NAME = "kube-dump-analyzer"


CACHE_DIR_VARIABLE = "KDA_CACHE_DIR"  # where to keep it instead (a test run, a read-only home)


def user_cache_dir() -> Path:
    """This project's folder in the user's cache directory (XDG_CACHE_HOME on Linux), or the
    folder $KDA_CACHE_DIR names."""
    if chosen := os.environ.get(CACHE_DIR_VARIABLE):
        return Path(chosen)
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def cache_for(options: str, root: Path | None = None) -> TemplateCache:
    """The cache of templates compiled by an environment with these `options` (their repr):
    its folder is named by them, this Python and this Jinja, so no other compiler's code is read."""
    tag = f"{sys.implementation.cache_tag}|jinja-{jinja2.__version__}|{options}"
    folder = hashlib.sha256(tag.encode("utf-8")).hexdigest()[:16]
    return TemplateCache((root if root is not None else user_cache_dir()) / "templates" / folder)


class TemplateCache(BytecodeCache):
    """Jinja's compiled code per template, one file each: the source's checksum, then the
    marshalled code (no pickle: Jinja's own file cache pickles the checksum)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _file(self, bucket: Bucket) -> Path:
        return self.directory / f"{bucket.key}.code"

    def load_bytecode(self, bucket: Bucket) -> None:
        if not _own_folder(self.directory):
            return
        try:
            data = self._file(bucket).read_bytes()
        except OSError:
            return
        header = f"{bucket.checksum}\n".encode("ascii")
        if not data.startswith(header):  # the template changed since: compiled again
            return
        try:
            bucket.code = marshal.loads(data[len(header):])
        except (EOFError, ValueError, TypeError):  # a truncated or damaged file: compiled again
            bucket.code = None

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not _own_folder(self.directory):
                return
            # Written aside and renamed: a report running at the same time reads all or nothing.
            handle, temporary = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(f"{bucket.checksum}\n".encode("ascii"))
                    marshal.dump(bucket.code, out)
                os.replace(temporary, self._file(bucket))
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except OSError:  # a read-only home, a full disk: the next run compiles again
            pass


def _own_folder(directory: Path) -> bool:
    """Whether `directory` exists and only this user can write it (code is read from it)."""
    try:
        info = directory.stat()
    except OSError:
        return False
    if not hasattr(os, "getuid"):  # (Windows: a user's folders are their own)
        return stat.S_ISDIR(info.st_mode)
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o022
