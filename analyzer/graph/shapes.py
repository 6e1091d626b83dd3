"""Safe reads of the parts of objects that views keep as plain dicts (their shape is not checked).

A dump can hold anything where the API expects a mapping or a list; builders read through these
so that a malformed object adds no edge instead of stopping the graph.
"""

from __future__ import annotations

from typing import Any


def mapping(value: Any) -> dict[str, Any]:
    """The value if it is a dict, else an empty one.

    >>> mapping({"a": 1}), mapping("oops"), mapping(None)
    ({'a': 1}, {}, {})
    """
    return value if isinstance(value, dict) else {}


def mappings(value: Any) -> list[dict[str, Any]]:
    """The dicts of a list (other items and non-lists dropped).

    >>> mappings([{"a": 1}, "x", None]), mappings({"a": 1})
    ([{'a': 1}], [])
    """
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def text(value: Any) -> str:
    """The value if it is a non-empty string, else "".

    >>> text("web"), text(3), text(None)
    ('web', '', '')
    """
    return value if isinstance(value, str) else ""
