"""Label and field selectors as the API server reads them (`-l`, `--field-selector`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from analyzer.errors import AnalyzerError


class SelectorError(AnalyzerError):
    """A selector the API would refuse (a 400 Bad Request), with the reason."""


Match = Callable[[dict[str, Any]], bool]

_SET_RX = re.compile(r"^\s*(!?)\s*([A-Za-z0-9._/-]+)\s*(?:(notin|in)\s*\(([^)]*)\)|(==|!=|=)\s*([A-Za-z0-9._-]*))?\s*$")


def _split_requirements(text: str) -> list[str]:
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p for p in (s.strip() for s in parts) if p]


def label_selector(text: str | None) -> Match:
    """A predicate over an object's labels for `a=b,c!=d,e in (x,y),f notin (z),g,!h`.

    >>> m = label_selector("app in (web,api),tier!=db,!legacy")
    >>> m({"app": "web", "tier": "fe"}), m({"app": "web", "legacy": "1"}), m({"app": "x"})
    (True, False, False)
    """
    if not text or not text.strip():
        return lambda labels: True
    tests: list[Match] = []
    for req in _split_requirements(text):
        m = _SET_RX.match(req)
        if not m:
            raise SelectorError(f"unable to parse requirement: {req!r}")
        neg, key, set_op, set_values, op, value = m.groups()
        if neg and (set_op or op):
            raise SelectorError(f"unable to parse requirement: {req!r}")
        if set_op:
            values = frozenset(v.strip() for v in set_values.split(",") if v.strip())
            if set_op == "in":
                tests.append(lambda lab, k=key, vs=values: k in lab and str(lab[k]) in vs)
            else:
                tests.append(lambda lab, k=key, vs=values: k not in lab or str(lab[k]) not in vs)
        elif op in ("=", "=="):
            tests.append(lambda lab, k=key, v=value: k in lab and str(lab[k]) == v)
        elif op == "!=":
            tests.append(lambda lab, k=key, v=value: k not in lab or str(lab[k]) != v)
        elif neg:
            tests.append(lambda lab, k=key: k not in lab)
        else:
            tests.append(lambda lab, k=key: k in lab)
    return lambda labels: all(t(labels) for t in tests)


# Fields each kind can be selected by, beyond metadata.name and metadata.namespace (as the API
# server allows them; any other field is refused with 400, as a real server does).
FIELDS: dict[str, tuple[str, ...]] = {
    "Pod": ("spec.nodeName", "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName",
            "spec.hostNetwork", "status.phase", "status.podIP", "status.nominatedNodeName"),
    "Event": ("involvedObject.kind", "involvedObject.namespace", "involvedObject.name", "involvedObject.uid",
              "involvedObject.apiVersion", "involvedObject.resourceVersion", "involvedObject.fieldPath",
              "reason", "reportingComponent", "source", "type"),
    "Node": ("spec.unschedulable",),
    "Namespace": ("status.phase",),
    "Secret": ("type",),
    "ReplicaSet": ("status.replicas",),
    "ReplicationController": ("status.replicas",),
    "Job": ("status.successful",),
    "CertificateSigningRequest": ("spec.signerName",),
}


def _field_value(obj: dict[str, Any], path: str) -> str:
    if path == "source" and "source" in obj:
        return str((obj.get("source") or {}).get("component", ""))
    if path == "status.successful":
        path = "status.succeeded"
    value: Any = obj
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    if value is None:
        return "false" if path in ("spec.unschedulable", "spec.hostNetwork") else ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def field_selector(text: str | None, kind: str) -> Match:
    """A predicate over a whole object for `metadata.name=x,spec.nodeName!=y`.

    >>> m = field_selector("status.phase!=Succeeded,spec.nodeName=n1", "Pod")
    >>> m({"spec": {"nodeName": "n1"}, "status": {"phase": "Running"}})
    True
    >>> field_selector("spec.foo=1", "Pod")
    Traceback (most recent call last):
    ...
    analyzer.printing.selectors.SelectorError: field label not supported: spec.foo
    """
    if not text or not text.strip():
        return lambda obj: True
    allowed = {"metadata.name", "metadata.namespace", *FIELDS.get(kind, ())}
    tests: list[Match] = []
    for req in _split_requirements(text):
        m = re.match(r"^\s*([\w.]+)\s*(==|!=|=)\s*(.*?)\s*$", req)
        if not m:
            raise SelectorError(f"invalid selector: {req!r}; can't understand {req!r}")
        path, op, value = m.groups()
        if path not in allowed:
            raise SelectorError(f"field label not supported: {path}")
        if op == "!=":
            tests.append(lambda o, p=path, v=value: _field_value(o, p) != v)
        else:
            tests.append(lambda o, p=path, v=value: _field_value(o, p) == v)
    return lambda obj: all(t(obj) for t in tests)
