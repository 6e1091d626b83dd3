"""Reading the untyped parts of an object's body (a custom resource, `obj.body()`, the views'
`dict[str, Any]` fields), where a hand-edited dump can hold any type where the API has one.

The API server validates what it stores, so a dump taken from it has the API's types; a dump
that is a folder of manifests, a paste or an edited file need not. A rule reads such a part
through these, and a value of another type reads as absent, as the API would have refused it.
"""

from __future__ import annotations

from typing import Any


def mapping(value: Any) -> dict[str, Any]:
    """The value if it is a mapping, else an empty one.

    >>> mapping({"a": 1}), mapping(None), mapping(["a"]), mapping("spec")
    ({'a': 1}, {}, {}, {})
    """
    return value if isinstance(value, dict) else {}


def listed(value: Any) -> list[Any]:
    """The value if it is a list, else an empty one (a mapping or text is not its items).

    >>> listed([1]), listed(None), listed({"type": "Ready"}), listed(3)
    ([1], [], [], [])
    """
    return value if isinstance(value, list) else []


def text(value: Any) -> str | None:
    """The value if it is text, else None.

    >>> text("/var/log"), text({"path": "/var/log"}), text(3)
    ('/var/log', None, None)
    """
    return value if isinstance(value, str) else None
