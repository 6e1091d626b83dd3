"""Small readers for the cell and field values kubectl prints: ages, restarts, labels, dates, ports."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

# kubectl prints these where a value is absent; they never mean a real value.
MISSING_MARKERS = frozenset({"", "<none>", "<unknown>", "<nil>", "<unset>"})

_AGE = re.compile(r"^(?:(\d+)y)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?$")
_AGE_UNITS = (365 * 86400, 86400, 3600, 60, 1)
_RESTARTS = re.compile(r"^(\d+)(?:\s*\((\S+) ago\))?$")
_TERMINATING = re.compile(r"^Terminating \(lasts (\S+)\)$")
_PORT = re.compile(r"^(\d+)(?::(\d+))?/([A-Z]+)$")


def cell(text: str | None) -> str | None:
    """A table cell or field value with kubectl's "absent" markers turned into None.

    >>> cell("<none>") is None, cell(" 10.0.0.1 ")
    (True, '10.0.0.1')
    """
    if text is None:
        return None
    text = text.strip()
    return None if text in MISSING_MARKERS else text


@lru_cache(maxsize=4096)  # a table repeats few distinct ages over many rows
def age_seconds(text: str | None) -> float | None:
    """Seconds in a kubectl age (`7d2h`, `3m43s`, `2y45d`); None for `<invalid>` or anything else.

    >>> age_seconds("7d2h"), age_seconds("3m43s"), age_seconds("2y45d"), age_seconds("<invalid>")
    (612000.0, 223.0, 66960000.0, None)
    """
    text = cell(text)
    if not text:
        return None
    match = _AGE.match(text)
    if not match or not any(match.groups()):
        return None
    return float(sum(float(part) * unit for part, unit in zip(match.groups(), _AGE_UNITS, strict=True) if part))


def age_unit_seconds(text: str | None) -> float | None:
    """The unit of the last part of a kubectl age, how far the true age may lie above it
    (`12m`: 12 to 13 minutes); None when it is not an age.

    >>> age_unit_seconds("7d2h"), age_unit_seconds("3m43s"), age_unit_seconds("12m"), age_unit_seconds("x")
    (3600, 1, 60, None)
    """
    text = cell(text)
    match = _AGE.match(text) if text else None
    if not match or not any(match.groups()):
        return None
    return next(unit for part, unit in zip(reversed(match.groups()), reversed(_AGE_UNITS), strict=True) if part)


def terminating(text: str | None) -> tuple[bool, float | None]:
    """Whether a describe's `Status:` says the object is being deleted, and for how long past
    its deletion time (kubectl prints `Terminating (lasts <since metadata.deletionTimestamp>)`
    in place of the phase; `<invalid>` while that time, the end of the grace period, is ahead).

    >>> terminating("Terminating (lasts 18m)"), terminating("Terminating (lasts <invalid>)")
    ((True, 1080.0), (True, None))
    >>> terminating("Running"), terminating("Terminating")
    ((False, None), (False, None))
    """
    match = _TERMINATING.match(cell(text) or "")
    return (True, age_seconds(match.group(1))) if match else (False, None)


# Columns that name a row: the object's identity, not a state of it (`pod/web` and `web` are one name).
NAMING_COLUMNS = frozenset({"NAME", "NAMESPACE"})
_AGO_SUFFIX = re.compile(r"\s*\([^()]* ago\)$")


def changed_cells(old: dict[str, Any], new: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """The cells of two rows of one object that differ, under the columns both rows show:
    {header: (old, new)}. Ages (AGE, LAST SCHEDULE, ...) and kubectl's `(5m ago)` after a count
    are left out: each counts from its own row's moment, so they differ between two rows of an
    unchanged object; a column only one row shows (`-o wide`'s IP) says nothing.

    >>> changed_cells({"NAME": "pod/web", "STATUS": "Pending", "AGE": "3s", "RESTARTS": "1 (2m ago)"},
    ...               {"NAME": "web", "STATUS": "Running", "AGE": "8s", "RESTARTS": "1 (2m5s ago)", "IP": "10.0.0.1"})
    {'STATUS': ('Pending', 'Running')}
    """
    changed = {}
    for header in sorted(old.keys() & new.keys() - NAMING_COLUMNS):
        before, after = old[header], new[header]
        if isinstance(before, str) and isinstance(after, str):
            before, after = _AGO_SUFFIX.sub("", before), _AGO_SUFFIX.sub("", after)
            if age_seconds(before) is not None and age_seconds(after) is not None:
                continue
        if before != after:
            changed[header] = (before, after)
    return changed


def restarts(text: str | None) -> tuple[int | None, float | None]:
    """The restart count and how long ago the last restart was, from `3 (12h ago)`.

    >>> restarts("3 (12h ago)"), restarts("0"), restarts("x")
    ((3, 43200.0), (0, None), (None, None))
    """
    text = cell(text)
    match = _RESTARTS.match(text) if text else None
    if not match:
        return None, None
    return int(match.group(1)), age_seconds(match.group(2))


def integer(text: str | None) -> int | None:
    """An integer cell, or None when it is absent or not a number.

    >>> integer("3"), integer("<none>"), integer("3/3")
    (3, None, None)
    """
    text = cell(text)
    if text is None or not re.fullmatch(r"-?\d+", text):
        return None
    return int(text)


def boolean(text: str | None) -> bool | None:
    """`true`/`false` in any case, else None.

    >>> boolean("True"), boolean("false"), boolean("maybe")
    (True, False, None)
    """
    text = (cell(text) or "").lower()
    return {"true": True, "false": False}.get(text)


def fraction(text: str | None) -> tuple[int, int] | None:
    """The two numbers of a READY-style `2/3` cell.

    >>> fraction("2/3"), fraction("-")
    ((2, 3), None)
    """
    text = cell(text)
    match = re.fullmatch(r"(\d+)/(\d+)", text or "")
    return (int(match.group(1)), int(match.group(2))) if match else None


def labels(text: str | None) -> dict[str, str] | None:
    """Labels (or a selector) written `a=b,c=d`; None when absent or not in that form.

    >>> labels("app=web,tier="), labels("<none>")
    ({'app': 'web', 'tier': ''}, None)
    """
    text = cell(text)
    if not text:
        return None
    pairs = [part.split("=", 1) for part in text.split(",")]
    if any(len(pair) != 2 or not pair[0] or " " in pair[0] for pair in pairs):
        return None
    return {key: value for key, value in pairs}


def csv(text: str | None) -> list[str]:
    """A comma-separated cell as a list, empty when absent.

    >>> csv("nginx,sidecar"), csv("<none>")
    (['nginx', 'sidecar'], [])
    """
    text = cell(text)
    return [part.strip() for part in text.split(",") if part.strip()] if text else []


def describe_time(text: str | None) -> str | None:
    """A describe timestamp (`Mon, 23 Aug 2025 15:02:32 +0300`) as the API's RFC 3339 UTC form.

    >>> describe_time("Thu, 13 Feb 2020 10:23:14 +0100")
    '2020-02-13T09:23:14Z'
    """
    text = cell(text)
    if not text:
        return None
    for layout in ("%a, %d %b %Y %H:%M:%S %z", "%d %b %Y %H:%M:%S %z", "%Y-%m-%dT%H:%M:%S%z"):
        try:
            moment = datetime.strptime(text.replace("Z", "+0000"), layout)
        except ValueError:
            continue
        return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return None


def service_ports(text: str | None) -> list[dict[str, object]] | None:
    """A service PORT(S) cell (`53/UDP,8080:31592/TCP`) as API `spec.ports`; None if unreadable.

    >>> service_ports("53/UDP,8080:31592/TCP")
    [{'port': 53, 'protocol': 'UDP'}, {'port': 8080, 'protocol': 'TCP', 'nodePort': 31592}]
    """
    ports: list[dict[str, object]] = []
    for part in csv(text):
        match = _PORT.match(part)
        if not match:
            return None
        port: dict[str, object] = {"port": int(match.group(1)), "protocol": match.group(3)}
        if match.group(2):
            port["nodePort"] = int(match.group(2))
        ports.append(port)
    return ports or None


def int_or_string(text: str) -> int | str:
    """A port or percentage the API keeps as int-or-string.

    >>> int_or_string("8080"), int_or_string("http"), int_or_string("25%")
    (8080, 'http', '25%')
    """
    return int(text) if re.fullmatch(r"\d+", text) else text


def set_path(body: dict, path: str, value: object) -> None:
    """Set a dotted path in a nested dict, creating the dicts on the way.

    >>> body = {}; set_path(body, "spec.template.spec.nodeName", "n1"); body
    {'spec': {'template': {'spec': {'nodeName': 'n1'}}}}
    """
    *parents, last = path.split(".")
    for part in parents:
        body = body.setdefault(part, {})
    body[last] = value
