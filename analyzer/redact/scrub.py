"""Secret values out of dump text: every Secret's data, stringData and last-applied copy.

Only the JSON or YAML documents that hold a Secret are parsed and written again (JSON with the
document's own indentation, YAML with safe_dump); every other byte of the file is left as it
was. A YAML document that does not parse loses its Secret data blocks line by line instead.
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml

from analyzer.ingest.objects import LAST_APPLIED, scrub_secret
from analyzer.ingest.yamldocs import YamlDocumentError, parse_yaml_document

_JSON_START = re.compile(r"^[\[{]", re.M)
_YAML_SEP = re.compile(r"^(?:---|\.\.\.)[ \t]*(?:#[^\n]*)?$", re.M)
_DATA_BLOCK = re.compile(r"^(?P<indent>[ \t]*)(?:- )?(?P<key>data|stringData):[ \t]*(?P<rest>[^\n]*)$", re.M)
_SECRET_LAST_APPLIED = re.compile(
    r"^(?P<pre>[ \t]*" + re.escape(LAST_APPLIED) + r":[ \t]*)(?P<value>[|>][^\n]*(?:\n(?:[ \t]+[^\n]*|[ \t]*))*|[^\n]*)$", re.M)
_REDACTED = re.compile(r"^<redacted")


def scrub_text(text: str, path: str = "") -> tuple[str, int]:
    """Text with the values of every Secret it holds removed, and how many Secrets that was."""
    secret_path = "secret" in path.lower()
    if "Secret" not in text and not secret_path:
        return text, 0
    if _JSON_START.search(text) and text.lstrip()[:1] in "{[":
        text, count = _scrub_json(text, secret_path)
    else:
        text, count = _scrub_yaml(text, secret_path)
    # what no document parse reaches: a Secret as one line of JSON in any text (the
    # last-applied annotation under `kubectl describe secret`, a log line, pasted output)
    text, inline = _scrub_inline_json(text)
    return text, count + inline


_INLINE_SECRET = re.compile(r'^.*\\*"kind\\*"\s*:\s*\\*"Secret\\*".*$', re.M)
_INLINE_DATA = re.compile(r'(\\*"(?:data|stringData)\\*"\s*:\s*\{)([^{}]*)(\})')
_INLINE_VALUE = re.compile(r'(\\*"[^"\\]*\\*"\s*:\s*)(\\*")((?:[^"\\]|\\[^"])*)(\\*")')


def _scrub_inline_json(text: str) -> tuple[str, int]:
    """Every one-line JSON Secret's data and stringData values replaced by `<redacted>`."""
    if '"Secret' not in text and '\\"Secret' not in text:
        return text, 0
    count = 0

    def values(m: re.Match[str]) -> str:
        return m.group(1) + _INLINE_VALUE.sub(
            lambda v: v.group(0) if v.group(3).startswith("<redacted") else v.group(1) + v.group(2) + "<redacted>" + v.group(4),
            m.group(2)) + m.group(3)

    def line(m: re.Match[str]) -> str:
        nonlocal count
        new = _INLINE_DATA.sub(values, m.group(0))
        if new != m.group(0):
            count += 1
        return new

    return _INLINE_SECRET.sub(line, text), count


# -- the structure ---------------------------------------------------------------------------

def _scrub_value(value: Any, secret_items: bool) -> tuple[Any, int]:
    """A parsed document with its Secrets scrubbed, and how many Secrets were changed."""
    if isinstance(value, list):
        count = 0
        out = []
        for item in value:
            new, n = _scrub_value(item, secret_items)
            out.append(new)
            count += n
        return out, count
    if not isinstance(value, dict):
        return value, 0
    kind = value.get("kind")
    if kind == "Secret" or (secret_items and kind is None and ("data" in value or "stringData" in value)):
        return _scrub_one(value)
    items = value.get("items")
    if isinstance(items, list):
        list_of_secrets = secret_items or kind == "SecretList"
        new_items, count = _scrub_value(items, list_of_secrets)
        if count:
            value = dict(value)
            value["items"] = new_items
        return value, count
    count = 0
    out = {}
    for k, v in value.items():
        new, n = _scrub_value(v, False) if isinstance(v, (dict, list)) else (v, 0)
        out[k] = new
        count += n
    return (out, count) if count else (value, 0)


def _scrub_one(secret: dict[str, Any]) -> tuple[dict[str, Any], int]:
    if _already_scrubbed(secret):
        return secret, 0
    return scrub_secret(secret), 1


def _already_scrubbed(secret: dict[str, Any]) -> bool:
    for field in ("data", "stringData"):
        values = secret.get(field)
        if isinstance(values, dict) and any(not _REDACTED.match(str(v)) for v in values.values()):
            return False
        if values is not None and not isinstance(values, dict) and not _REDACTED.match(str(values)):
            return False
    meta = secret.get("metadata")
    ann = meta.get("annotations") if isinstance(meta, dict) else None
    return not (isinstance(ann, dict) and LAST_APPLIED in ann and not _REDACTED.match(str(ann[LAST_APPLIED])))


# -- JSON ------------------------------------------------------------------------------------

def _scrub_json(text: str, secret_path: bool) -> tuple[str, int]:
    decoder = json.JSONDecoder()
    pieces: list[str] = []
    done = 0
    total = 0
    pos = 0
    while True:
        m = _JSON_START.search(text, pos)
        if m is None:
            break
        start = m.start()
        try:
            value, end = decoder.raw_decode(text, start)
        except (json.JSONDecodeError, RecursionError):
            pos = start + 1
            continue
        pos = end
        if "Secret" not in text[start:end] and not secret_path:
            continue
        new, count = _scrub_value(value, secret_path)
        if not count:
            continue
        total += count
        pieces.append(text[done:start])
        pieces.append(_dump_json_like(new, text[start:end]))
        done = end
    if not total:
        return text, 0
    pieces.append(text[done:])
    return "".join(pieces), total


def _dump_json_like(value: Any, original: str) -> str:
    """JSON in the original's layout: its indentation (kubectl: 4 spaces), or compact."""
    nl = original.find("\n")
    if nl < 0:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    line = original[nl + 1:]
    indent = len(line) - len(line.lstrip(" "))
    return json.dumps(value, ensure_ascii=False, indent=indent or 2)


# -- YAML ------------------------------------------------------------------------------------

def _scrub_yaml(text: str, secret_path: bool) -> tuple[str, int]:
    pieces: list[str] = []
    total = 0
    pos = 0
    bounds = [m.end() for m in _YAML_SEP.finditer(text)]
    starts = [0, *bounds]
    for i, start in enumerate(starts):
        end = _YAML_SEP.search(text, start).start() if i + 1 < len(starts) else len(text)
        piece = text[start:end]
        if "Secret" in piece or (secret_path and "data" in piece):
            new_piece, count = _scrub_yaml_piece(piece, secret_path)
            if count:
                pieces.append(text[pos:start])
                pieces.append(new_piece)
                pos = end
                total += count
    if not total:
        return text, 0
    pieces.append(text[pos:])
    return "".join(pieces), total


def _scrub_yaml_piece(piece: str, secret_path: bool) -> tuple[str, int]:
    try:
        value = parse_yaml_document(piece)
    except (YamlDocumentError, ValueError, TypeError):
        value = _UNPARSED
    if value is _UNPARSED or value is None:
        return _scrub_yaml_lines(piece)
    new, count = _scrub_value(value, secret_path)
    if not count:
        return piece, 0
    lead = "\n" if piece.startswith("\n") else ""
    dumped = yaml.safe_dump(new, default_flow_style=False, sort_keys=False, allow_unicode=True, width=1 << 16)
    return lead + (dumped if piece.endswith("\n") else dumped.rstrip("\n")), count


_UNPARSED = object()


def _scrub_yaml_lines(piece: str) -> tuple[str, int]:
    """Without a parse: every data/stringData block of a text that names a Secret loses its values."""
    if not re.search(r"\bkind:[ \t]*['\"]?Secret\b", piece) and "Secret" not in piece:
        return piece, 0
    lines = piece.split("\n")
    out: list[str] = []
    count = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _DATA_BLOCK.match(line)
        if m and m.group("rest").strip() not in ("", "{}"):
            # inline flow mapping or scalar: replaced whole
            out.append(f"{m.group('indent')}{'- ' if line.lstrip().startswith('- ') else ''}{m.group('key')}: {{}}")
            count += 1
            i += 1
            continue
        if m:
            out.append(line)
            base = len(m.group("indent")) + (2 if line.lstrip().startswith("- ") else 0)
            i += 1
            child = None
            while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > base):
                sub = lines[i]
                depth = len(sub) - len(sub.lstrip())
                if sub.strip() and child is None:
                    child = depth
                if sub.strip() and depth == child and ":" in sub:
                    key = sub.strip().split(":", 1)[0]
                    out.append(f"{' ' * depth}{key}: <redacted>")
                i += 1
            count += 1
            continue
        la = _SECRET_LAST_APPLIED.match(line)
        if la and "Secret" in line:
            out.append(f"{la.group('pre')}<redacted>")
            count += 1
            i += 1
            continue
        out.append(line)
        i += 1
    return "\n".join(out), count
