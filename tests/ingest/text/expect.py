"""Check parsed text against YAML case files: paths into bodies, counts, rejections, notes."""

from __future__ import annotations

import re
from typing import Any

from analyzer.ingest.text import TextParse

_SEGMENT = re.compile(r'\["([^"]+)"\]|([^.\[\]]+)')
MISSING = object()


def dig(body: Any, path: str) -> Any:
    """The value at `a.b["key.with.dots"].0.c` in a body, or MISSING."""
    value = body
    for quoted, plain in _SEGMENT.findall(path):
        key = quoted or plain
        if isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        elif isinstance(value, dict) and key in value:
            value = value[key]
        else:
            return MISSING
    return value


def check_case(parsed: TextParse, case: dict[str, Any]) -> None:
    """Assert what a case file says about one parsed text."""
    if "kinds" in case:
        counts: dict[str, int] = {}
        for obj in parsed.objects:
            counts[obj.kind] = counts.get(obj.kind, 0) + 1
        assert counts == case["kinds"]
    if "tables" in case:
        assert [table.header for table in parsed.tables] == case["tables"]
    if "elided" in case:
        assert parsed.elided == case["elided"]
    reasons = [(r.location, r.reason) for r in parsed.rejections]
    assert len(reasons) == len(case.get("rejections", [])), reasons
    for expected in case.get("rejections", []):
        assert any(loc == expected["at"] and expected["says"] in why for loc, why in reasons), (
            expected, reasons)
    for expected in case.get("objects", []):
        found = [o for o in parsed.objects if o.kind == expected["kind"] and o.name == expected["name"]
                 and o.origin == expected.get("origin", o.origin)
                 and o.line == expected.get("line", o.line)]
        assert found, f"no {expected['kind']} {expected['name']!r} at line {expected.get('line')}"
        obj = found[0]
        notes = expected.get("notes") or []
        assert len(obj.notes) == len(notes) and all(
            any(says in note for note in obj.notes) for says in notes), (expected["name"], obj.notes)
        for path, value in (expected.get("has") or {}).items():
            assert dig(obj.body, path) == value, (expected["name"], path, dig(obj.body, path))
        for path, prefix in (expected.get("starts") or {}).items():
            value = dig(obj.body, path)
            assert isinstance(value, str) and value.startswith(prefix), (expected["name"], path, value)
        for path in expected.get("lacks") or []:
            assert dig(obj.body, path) is MISSING, (expected["name"], path, dig(obj.body, path))
