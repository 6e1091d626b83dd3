"""One redaction run: learn the dump's identifying words, then write the rewritten copy."""

from __future__ import annotations

import json
import lzma
import tarfile
import zipfile
from pathlib import Path

import orjson

from analyzer.ingest import ingest
from analyzer.redact.learn import Learner, base_vocabulary, dump_vocabulary
from analyzer.redact.pseudonyms import Pseudonyms
from analyzer.redact.replace import Replacer
from analyzer.redact.rewrite import (
    MAX_NESTING,
    RedactError,
    Tally,
    compression_of,
    decode,
    encode,
    iter_input_files,
    rewrite_archive,
    rewrite_folder,
)
from analyzer.redact.scrub import scrub_text

_ARCHIVE_ERRORS = (tarfile.TarError, zipfile.BadZipFile, OSError, EOFError, lzma.LZMAError)


class Redaction:
    """Pseudonyms learned from one input, ready to write its redacted copy."""

    def __init__(self, src: Path, names: bool, key: bytes) -> None:
        if not src.exists():
            raise RedactError(f"{src}: no such file or folder")
        self.src = src
        result = ingest(str(src))
        self.objects_by_kind = result.objects_by_kind
        self.log_count = len(result.logs)
        structural = dump_vocabulary(result)
        self.pseudonyms = Pseudonyms(key, base_vocabulary() | structural)
        learner = Learner(self.pseudonyms, names, structural)
        learner.learn_objects(result)
        for path, data in iter_input_files(src):
            learner.learn_text(path)
            text = decode(data) if data else None
            if text is not None:
                learner.learn_text(text.text)
        self.replacer = Replacer(self.pseudonyms, learner)
        self.tally = Tally()
        self.secrets = 0
        self.fallbacks = 0  # JSON files rewritten value by value

    def rewrite_path(self, path: str) -> str:
        """A file's path inside the dump with the same replacements as its content."""
        return self.replacer.names(path)

    def rewrite_file(self, path: str, data: bytes, depth: int) -> bytes | None:
        """A file's bytes rewritten, or None when it cannot be checked (not text, bad archive)."""
        if not data:
            return data
        if compression_of(data) is not None:
            if depth >= MAX_NESTING:
                return None
            try:
                return rewrite_archive(data, self.rewrite_file, self.rewrite_path, self.tally, depth + 1)
            except (*_ARCHIVE_ERRORS, RedactError):
                return None
        text = decode(data)
        if text is None:
            return None
        scrubbed, secrets = scrub_text(text.text, path)
        self.secrets += secrets
        return encode(text, self._checked(scrubbed, self.replacer.text(scrubbed)))

    def _checked(self, before: str, after: str) -> str:
        """The rewritten text, or, if it broke a JSON document the original was, the document
        rewritten value by value (same indentation)."""
        if before.lstrip()[:1] not in ("{", "[") or after is before:
            return after
        try:
            original = orjson.loads(before)
        except orjson.JSONDecodeError:
            return after  # not one JSON document (a cluster-info dump, or broken already)
        try:
            orjson.loads(after)
            return after
        except orjson.JSONDecodeError:
            self.fallbacks += 1
            rewritten = self.replacer.value(original)
            nl = before.find("\n")
            indent = len(before[nl + 1:]) - len(before[nl + 1:].lstrip(" ")) if nl >= 0 else 0
            dumped = json.dumps(rewritten, ensure_ascii=False, indent=indent or None,
                                separators=None if indent else (",", ":"))
            return dumped + ("\n" if before.endswith("\n") else "")

    def write(self, dst: Path):  # -> RedactionReport (imported lazily: the package imports us)
        """Write the redacted copy to `dst` (which must not exist or be an empty folder)."""
        from analyzer.redact import RedactionReport

        if dst.exists() and (not dst.is_dir() or any(dst.iterdir())):
            raise RedactError(f"{dst}: already exists; the redacted copy needs a new path")
        if dst.resolve().is_relative_to(self.src.resolve()) and self.src.is_dir():
            raise RedactError(f"{dst}: inside the input {self.src}; choose a path outside it")
        if self.src.is_dir():
            rewrite_folder(self.src, dst, self.rewrite_file, self.rewrite_path, self.tally)
        else:
            data = self.src.read_bytes()
            if compression_of(data) is not None:
                try:
                    new = rewrite_archive(data, self.rewrite_file, self.rewrite_path, self.tally, 1)
                except _ARCHIVE_ERRORS as exc:
                    raise RedactError(f"{self.src}: not a readable archive ({exc})") from exc
            else:
                new = self.rewrite_file(self.src.name, data, 0)
                if new is None:
                    raise RedactError(f"{self.src}: not a text file; nothing to redact")
                self.tally.files += 1
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_bytes(new)
        p = self.pseudonyms
        copy = ingest(str(dst))
        differences = {
            kind: [self.objects_by_kind.get(kind, 0), copy.objects_by_kind.get(kind, 0)]
            for kind in sorted(set(self.objects_by_kind) | set(copy.objects_by_kind))
            if self.objects_by_kind.get(kind, 0) != copy.objects_by_kind.get(kind, 0)
        }
        if len(copy.logs) != self.log_count:
            differences["(logs)"] = [self.log_count, len(copy.logs)]
        return RedactionReport(
            input=str(self.src), output=str(dst), files=self.tally.files, secrets_scrubbed=self.secrets,
            replacements=dict(p.counts), distinct={c: len(v) for c, v in p.mapping.items()},
            dropped=list(self.tally.dropped), links_skipped=list(self.tally.links_skipped),
            paths_refused=list(self.tally.paths_refused),
            rewritten_by_value=self.fallbacks, differences=differences,
        )
