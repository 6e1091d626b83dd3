"""`kubectl describe ingress`: its address, class, default backend, TLS and rules.

kubectl prints the rules as a table under `Rules:` (Host, Path, Backends): a host on its own row,
then one row per path, the backend as `SERVICE:PORT (ENDPOINTS)`; a rule without a host shows
`*`. An Ingress with no default backend shows `<default>` (kubectl 1.24 on) or, before,
`default-http-backend:80 (<error: ...>)`: kubectl's stand-in from kube-system, none of the object's.
"""

from __future__ import annotations

import re
from typing import Any

from analyzer.ingest.text.describe.context import DescribeContext
from analyzer.ingest.text.describe.tree import Entry
from analyzer.ingest.text.lines import is_rule_line
from analyzer.ingest.text.rows.services import ingress_points
from analyzer.ingest.text.types import TextObject
from analyzer.ingest.text.values import cell, csv, int_or_string, set_path

# `web:80 (10.1.2.3:80)`, `web:http (<error: endpoints "web" not found>)`, after an optional path
_BACKEND = re.compile(r"^(?:(?P<path>/\S*|\*)\s+)?(?P<service>[a-z0-9][a-z0-9.-]*):(?P<port>[A-Za-z0-9-]+)"
                      r"(?:\s+\((?P<endpoints>.*)\))?$")
# `tls-secret terminates a.example.com,b.example.com`; `SNI routes a.example.com`
_TLS = re.compile(r"^(?:(?P<secret>\S+) terminates|SNI routes)(?:\s+(?P<hosts>\S+))?$")
# kubectl's stand-in default backend, printed for an Ingress that names none (before 1.24)
_STAND_IN = "default-http-backend"


def _backend(match: re.Match[str]) -> dict[str, Any]:
    """An Ingress backend (networking.k8s.io/v1) from a backend cell."""
    port = int_or_string(match.group("port"))
    return {"service": {"name": match.group("service"),
                        "port": {"number": port} if isinstance(port, int) else {"name": port}}}


def read_ingress(root: Entry, body: dict[str, Any], facts: dict[str, Any],
                 ctx: DescribeContext) -> list[TextObject]:
    """Fill an Ingress from its describe; what each backend's endpoints showed is kept as a
    fact (`backend_endpoints`), as kubectl read them at the time."""
    if klass := cell(root.child_value("Ingress Class")):
        set_path(body, "spec.ingressClassName", klass)
    if address := csv(root.child_value("Address")):
        set_path(body, "status.loadBalancer.ingress", ingress_points(address))
    endpoints: dict[str, str] = {}
    default = _BACKEND.match(cell(root.child_value("Default backend")) or "")
    if default is not None and default.group("service") != _STAND_IN:
        set_path(body, "spec.defaultBackend", _backend(default))
        endpoints[default.group("service")] = default.group("endpoints") or ""
    if tls := root.child("TLS"):
        entries = []
        for text in tls.values:
            if m := _TLS.match(text.strip()):
                entries.append({**({"secretName": m.group("secret")} if m.group("secret") else {}),
                                **({"hosts": csv(m.group("hosts"))} if m.group("hosts") else {})})
        if entries:
            set_path(body, "spec.tls", entries)
    rules = _rules(root.child("Rules"), endpoints)
    if rules:
        set_path(body, "spec.rules", rules)
    if endpoints:
        facts["backend_endpoints"] = endpoints
    return []


def _rules(entry: Entry | None, endpoints: dict[str, str]) -> list[dict[str, Any]]:
    """The rules of a describe's `Rules:` table: each host with the paths under it. The row
    `*  *  BACKEND` kubectl prints for an Ingress without rules (its default backend) matches
    neither a host nor a path: no rule."""
    if entry is None:
        return []
    lines = [line.text.strip() for line in entry.raw]
    start = next((i + 1 for i, text in enumerate(lines) if is_rule_line(text)), 0)
    rules: list[dict[str, Any]] = []
    for text in lines[start:]:
        if not text:
            continue
        backend = _BACKEND.match(text)
        if backend is None:
            if " " not in text:  # a host (or `*`) on its own row
                rules.append({} if text == "*" else {"host": text})
            continue
        if not rules:
            rules.append({})
        path: dict[str, Any] = {"backend": _backend(backend)}
        if (route := backend.group("path")) and route != "*":
            path["path"] = route
        rules[-1].setdefault("http", {}).setdefault("paths", []).append(path)
        endpoints[backend.group("service")] = backend.group("endpoints") or ""
    return rules


READERS = {"Ingress": read_ingress}
