"""Writing a dump's files: UTF-8, Unix newlines, parents created."""

from __future__ import annotations

from pathlib import Path


def write_text(path: Path, text: str) -> None:
    """Write `text` to `path` as UTF-8 with Unix newlines, creating its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
