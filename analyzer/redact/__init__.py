"""Redaction: a sanitised copy of a dump, same format and layout, with consistent pseudonyms.

`redact_dump(input, output)` learns the identifying words of the dump, then writes every file
again with Secret values removed, credentials masked, and IPs, host/node/domain names, cloud
ids and cluster names (optionally namespaces and object names) replaced the same way everywhere.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analyzer.sensitive.credentials import is_already_redacted
from analyzer.sensitive.masking import mask_sensitive

__all__ = ["RedactionReport", "is_already_redacted", "mask_sensitive", "redact_dump"]


@dataclass(slots=True)
class RedactionReport:
    """What a redaction replaced, per category, and which files it could not carry over."""

    input: str
    output: str
    files: int = 0
    secrets_scrubbed: int = 0
    replacements: dict[str, int] = field(default_factory=dict)  # category -> occurrences
    distinct: dict[str, int] = field(default_factory=dict)  # category -> distinct values
    dropped: list[str] = field(default_factory=list)  # files that are not text, left out
    links_skipped: list[str] = field(default_factory=list)  # links out of the dump, left out
    paths_refused: list[str] = field(default_factory=list)  # archive members whose path leaves it, left out
    rewritten_by_value: int = 0  # JSON files the text pass would have broken, rewritten parsed
    # the copy read back: kind -> [objects in the original, in the copy] where they differ
    differences: dict[str, list[int]] = field(default_factory=dict)
    map_file: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The report as plain data (sorted), without any original value."""
        return {
            "input": self.input, "output": self.output, "files": self.files,
            "secrets_scrubbed": self.secrets_scrubbed,
            "replacements": dict(sorted(self.replacements.items())),
            "distinct": dict(sorted(self.distinct.items())),
            "dropped": sorted(self.dropped), "links_skipped": sorted(self.links_skipped),
            "paths_refused": sorted(self.paths_refused),
            "rewritten_by_value": self.rewritten_by_value, "differences": self.differences,
            "map_file": self.map_file,
        }


def redact_dump(
    input: str | os.PathLike[str],
    output: str | os.PathLike[str],
    map_file: str | os.PathLike[str] | None = None,
    names: bool = False,
    key: bytes | None = None,
) -> RedactionReport:
    """Write a redacted copy of `input` (folder, file or archive) to `output` in the same form.

    `key` makes pseudonyms repeatable (same key, same pseudonyms); without it a random key is
    used, so nobody can recompute them. `map_file` receives original -> pseudonym as JSON: it
    undoes the redaction, so it is as sensitive as the dump itself.
    """
    import shutil

    from analyzer.redact.rewrite import RedactError
    from analyzer.redact.run import Redaction

    src, dst = Path(input), Path(output)
    if map_file is not None and Path(map_file).resolve().is_relative_to(dst.resolve()):
        raise RedactError(f"{map_file}: inside the redacted copy; the map undoes the redaction, keep it apart")
    redaction = Redaction(src, names=names, key=key if key is not None else os.urandom(32))
    existed = dst.exists()
    try:
        report = redaction.write(dst)
    except Exception:
        # never leave a half-written copy behind: it could be shared before anyone notices
        if not existed and dst.is_dir():
            shutil.rmtree(dst, ignore_errors=True)
        elif not existed and dst.exists():
            dst.unlink()
        raise
    if map_file is not None:
        Path(map_file).parent.mkdir(parents=True, exist_ok=True)
        mapping = {cat: dict(sorted(values.items())) for cat, values in sorted(redaction.pseudonyms.mapping.items())}
        Path(map_file).write_text(json.dumps(mapping, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        report.map_file = str(map_file)
    return report
