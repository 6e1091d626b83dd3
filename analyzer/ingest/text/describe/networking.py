"""`kubectl describe ingress` and `kubectl describe networkpolicy`.

An Ingress: its address, class, default backend, TLS and rules.
kubectl prints the rules as a table under `Rules:` (Host, Path, Backends): a host on its own row,
then one row per path, the backend as `SERVICE:PORT (ENDPOINTS)`; a rule without a host shows
`*`. An Ingress with no default backend shows `<default>` (kubectl 1.24 on) or, before,
`default-http-backend:80 (<error: ...>)`: kubectl's stand-in from kube-system, none of the object's.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from analyzer.ingest.text.describe.context import DescribeContext
from analyzer.ingest.text.describe.sections import label_selector
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


# `Created on:   2020-09-14 15:27:33 +0000 UTC` (the NetworkPolicy describer's own time form, Go's
# time.String: the zone's abbreviation after the offset is the local one, `+0100 CET`, `+1000 +10`)
_CREATED_ON = re.compile(r"^(?P<time>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4})(?: \S+)?$")
# `To Port: 80/TCP`, `To Port: http/TCP`; `<any> (traffic allowed to all ports)`
_RULE_PORT = re.compile(r"^(?P<port>[A-Za-z0-9-]+)/(?P<protocol>[A-Z]+)$")
_DIRECTIONS = (("ingress", "Allowing ingress traffic", "From"), ("egress", "Allowing egress traffic", "To"))


def created_on(text: str | None) -> str | None:
    """A NetworkPolicy describe's `Created on` as the API's RFC 3339 UTC form; None if unreadable.

    >>> created_on("2021-11-02 00:18:27 +0100 CET"), created_on("2024-02-18 16:41:40 +1000 +10")
    ('2021-11-01T23:18:27Z', '2024-02-18T06:41:40Z')
    >>> created_on("2020-09-14 15:27:33 +0000 UTC"), created_on("yesterday")
    ('2020-09-14T15:27:33Z', None)
    """
    match = _CREATED_ON.match(cell(text) or "")
    if match is None:
        return None
    try:
        moment = datetime.strptime(match.group("time"), "%Y-%m-%d %H:%M:%S %z")
    except ValueError:
        return None
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def read_network_policy(root: Entry, body: dict[str, Any], facts: dict[str, Any],
                        ctx: DescribeContext) -> list[TextObject]:
    """Fill a NetworkPolicy from its describe: the pods it selects, its policy types and each
    direction's rules (ports and peers, in the order kubectl printed them, `----------` between
    rules). A selector kubectl printed with set expressions is said unread, not guessed."""
    if created := created_on(root.child_value("Created on")):
        body["metadata"]["creationTimestamp"] = created
    spec = root.child("Spec")
    if spec is None:
        return []
    selector = label_selector(spec.child_value("PodSelector"))
    if selector is not None:
        set_path(body, "spec.podSelector", selector)
    elif cell(spec.child_value("PodSelector")):
        ctx.unread.append((spec.line, "Spec", f"its PodSelector '{spec.child_value('PodSelector')}' "
                                              "was not read (only key=value selectors are)"))
    if types := csv(spec.child_value("Policy Types")):
        set_path(body, "spec.policyTypes", types)
    for field, heading, peer_key in _DIRECTIONS:
        if (entry := spec.child(heading)) is not None:
            rules = _policy_rules(entry, peer_key, ctx)
            if rules is not None:
                set_path(body, f"spec.{field}", rules)
    return []


def _policy_rules(entry: Entry, peer_key: str, ctx: DescribeContext) -> list[dict[str, Any]] | None:
    """The rules under `Allowing ingress traffic:` read from its lines as written."""
    lines = [line for line in ctx.lines if line.no > entry.line]
    section: list[str] = []
    base = None
    for line in lines:
        text = line.text.expandtabs(8)
        if not text.strip():
            continue
        depth = len(text) - len(text.lstrip(" "))
        if base is None:
            base = depth
        if depth < base:
            break
        section.append(text.strip())
    if not section or section[0].startswith("<none>"):
        return []  # the selected pods are isolated: no traffic allowed this way
    rules: list[dict[str, Any]] = [{}]
    peer: dict[str, Any] | None = None
    for text in section:
        key, _, value = text.partition(":")
        value = value.strip()
        if set(text) == {"-"}:
            rules.append({})
            peer = None
        elif key == "To Port":
            if port := _RULE_PORT.match(value):
                number = port.group("port")
                rules[-1].setdefault("ports", []).append(
                    {"port": int(number) if number.isdigit() else number, "protocol": port.group("protocol")})
        elif key == peer_key:
            if value.startswith("<any>"):
                continue
            peer = {}
            rules[-1].setdefault("from" if peer_key == "From" else "to", []).append(peer)
        elif peer is not None and key in ("PodSelector", "NamespaceSelector"):
            if (selector := label_selector(value)) is None:
                # a peer read without its selector would widen the rule: the direction is unread
                ctx.unread.append((entry.line, "Spec", f"its {key} '{value}' in '{entry.key}' was "
                                                       "not read (only key=value selectors are)"))
                return None
            peer["podSelector" if key == "PodSelector" else "namespaceSelector"] = selector
        elif peer is not None and key == "CIDR":
            peer.setdefault("ipBlock", {})["cidr"] = value
        elif peer is not None and key == "Except" and (excepted := csv(value)):
            peer.setdefault("ipBlock", {})["except"] = excepted
    return rules


READERS = {"Ingress": read_ingress, "NetworkPolicy": read_network_policy}
