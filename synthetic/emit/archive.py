"""Byte-reproducible archives of a written dump."""

from __future__ import annotations

import gzip
import io
import tarfile
from datetime import datetime
from pathlib import Path


def write_tar_gz(source: Path, archive: Path, top: str, mtime: datetime) -> None:
    """A .tar.gz of `source` under `top/`, identical on every run (fixed order, times, owners)."""
    buffer = io.BytesIO()
    stamp = int(mtime.timestamp())
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as tar:
        paths = sorted(source.rglob("*"), key=lambda p: p.relative_to(source).as_posix())
        for path in [source, *paths]:
            relative = path.relative_to(source).as_posix()
            info = tarfile.TarInfo(top if relative == "." else f"{top}/{relative}")
            info.mtime = stamp
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            if path.is_dir():
                info.type = tarfile.DIRTYPE
                info.mode = 0o755
                tar.addfile(info)
            else:
                data = path.read_bytes()
                info.mode = 0o644
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    archive.parent.mkdir(parents=True, exist_ok=True)
    with open(archive, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0,
                                                   compresslevel=9) as gz:
        gz.write(buffer.getvalue())
