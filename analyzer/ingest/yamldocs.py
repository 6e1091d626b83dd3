"""YAML dump files: multi-document streams, with kubectl's and shells' junk around them.

Each `---` document is parsed on its own, so one broken document costs only itself. Lines
that are not YAML but often precede it (a shell prompt, kubectl's `Warning:` lines) are
skipped and reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml

from analyzer.ingest.jsondocs import Skipped

_DOC_SEP = re.compile(r"^---[ \t]*(?:#.*)?$|^\.\.\.[ \t]*$", re.M)
_PROMPT = re.compile(r"^(?:\S*[$#>%] )?(?:kubectl|oc|k|kubecolor)\s.*$|^Warning: .*$|^\$ .*$|^PS [^>]*> .*$")
_YAML_START = re.compile(r"^(?:[A-Za-z_\"'][^:]*:(?:\s|$)|- |#|---|%)")
# More aliases than any kubectl output has: beyond this a document is refused, not expanded.
MAX_ALIASES = 1000


class YamlDocumentError(Exception):
    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.line = line


@dataclass(slots=True)
class YamlDocument:
    index: int
    line: int
    value: Any


@dataclass(slots=True)
class YamlFile:
    documents: list[YamlDocument]
    skipped: list[Skipped]
    broken: list[tuple[int, int, str]]  # (document index, line, error)


# A Kubernetes top-level key, at the start of a line, of a top-level sequence item (`- kind:`,
# as support bundles write custom resources), or indented (YAML pasted into an issue or a doc).
_K8S_KEY = re.compile(r"^[ \t]*(?:-[ \t]+)?(?:apiVersion|kind|items|metadata):(?:[ \t]|$)", re.M)


def looks_like_yaml(text: str) -> bool:
    """Whether a file reads as a Kubernetes YAML document (an apiVersion/kind/items key).

    >>> looks_like_yaml("- apiVersion: v1\\n  kind: Pod\\n"), looks_like_yaml("    kind: Pod\\n")
    (True, True)
    >>> looks_like_yaml("NAME   READY   STATUS\\n"), looks_like_yaml("kind of a note: x\\n")
    (False, False)
    """
    return _K8S_KEY.search(text, 0, 200000) is not None


def parse_yaml_document(text: str) -> Any:
    """Parse one YAML document with a compiled safe loader (never the pure-Python one)."""
    if text.count("*") and len(re.findall(r"(?:^|[\s\[{,])\*[^\s,\]}]+", text)) > MAX_ALIASES:
        raise YamlDocumentError(f"more than {MAX_ALIASES} aliases (alias bomb?); not expanded", None)
    try:
        from analyzer.ingest.yamlfast import load_yaml_documents
    except ImportError:  # pragma: no cover - only while yamlfast is absent
        load_yaml_documents = None
    try:
        if load_yaml_documents is not None:
            docs = load_yaml_documents(text)
        else:
            docs = list(yaml.load_all(text, Loader=yaml.CSafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise YamlDocumentError(_yaml_message(exc), mark.line + 1 if mark else None) from None
    except RecursionError:
        raise YamlDocumentError("nesting too deep", None) from None
    except Exception as exc:  # a fast parser's own error type
        line = getattr(exc, "line", None)
        raise YamlDocumentError(str(exc).splitlines()[0][:200], line) from None
    docs = [d for d in docs if d is not None]
    if len(docs) > 1:
        return docs
    return docs[0] if docs else None


def _yaml_message(exc: yaml.YAMLError) -> str:
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    return f"invalid YAML: {problem}"


def read_yaml_file(text: str) -> YamlFile:
    """Split a YAML stream into documents and parse each; broken ones are listed, not raised."""
    out = YamlFile([], [], [])
    text = _skip_leading_junk(text, out)
    pieces: list[tuple[int, str]] = []
    pos = 0
    line = 1
    for m in _DOC_SEP.finditer(text):
        pieces.append((line, text[pos:m.start()]))
        line += text.count("\n", pos, m.end()) + 1
        pos = m.end() + 1
    pieces.append((line, text[pos:]))
    index = 0
    for start_line, piece in pieces:
        if not piece.strip() or all(
            not ln.strip() or ln.lstrip().startswith("#") for ln in piece.splitlines()
        ):
            continue
        # The document starts at its first non-blank line (blank lines stand for removed junk).
        lead = len(piece) - len(piece.lstrip("\n"))
        start_line += lead
        piece = piece[lead:]
        piece, cut = _strip_trailing_junk(piece)
        if cut:
            out.skipped.append(Skipped(start_line + piece.count("\n"), f"not YAML, skipped: {cut[:60]!r}"))
        try:
            value = parse_yaml_document(piece)
        except YamlDocumentError as exc:
            value = _parse_repaired(piece, start_line, out)
            if value is _BROKEN:
                where = start_line + (exc.line - 1 if exc.line else 0)
                out.broken.append((index, where, str(exc)))
                index += 1
                continue
        if value is not None:
            out.documents.append(YamlDocument(index, start_line, value))
        index += 1
    return out


# troubleshoot's redactor writes `***HIDDEN***` unquoted, which YAML reads as a broken alias.
_REDACTED = re.compile(r"(?<=: )(\*\*\*HIDDEN\*\*\*[^\n#]*?)[ \t]*$|(?<=- )(\*\*\*HIDDEN\*\*\*[^\n#]*?)[ \t]*$", re.M)
_BROKEN = object()


def _parse_repaired(piece: str, start_line: int, out: YamlFile) -> Any:
    """Parse a document after quoting the redaction markers bundles leave in it; _BROKEN if
    there are none or it still does not parse.

    >>> _parse_repaired("a: ***HIDDEN***:10000\\n", 1, YamlFile([], [], []))
    {'a': '***HIDDEN***:10000'}
    """
    if "***HIDDEN***" not in piece:
        return _BROKEN
    repaired = _REDACTED.sub(lambda m: "'" + (m.group(1) or m.group(2)).replace("'", "''") + "'", piece)
    try:
        value = parse_yaml_document(repaired)
    except YamlDocumentError:
        return _BROKEN
    out.skipped.append(Skipped(start_line, "redaction markers (***HIDDEN***) quoted so the document parses"))
    return value


def _skip_leading_junk(text: str, out: YamlFile) -> str:
    lines = text.split("\n", 50)
    drop = 0
    for i, ln in enumerate(lines[:50]):
        if not ln.strip():
            continue
        if _PROMPT.match(ln) or not _YAML_START.match(ln):
            out.skipped.append(Skipped(i + 1, f"not YAML, skipped: {ln[:60]!r}"))
            drop = i + 1
            continue
        break
    if not drop:
        return text
    # Keep line numbers: blank out the dropped lines instead of removing them.
    return "\n" * drop + text.split("\n", drop)[drop] if len(lines) > drop else ""


def _strip_trailing_junk(piece: str) -> tuple[str, str]:
    lines = piece.rstrip("\n").split("\n")
    cut: list[str] = []
    while lines and _PROMPT.match(lines[-1]):
        cut.insert(0, lines.pop())
    return ("\n".join(lines) + "\n", "\n".join(cut)) if cut else (piece, "")
