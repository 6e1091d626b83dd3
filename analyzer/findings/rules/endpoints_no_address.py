"""Endpoints with no ready address when the dump holds no Service to judge: a pasted
`kubectl get endpoints` is then the only word on what a Service (a webhook's, often) reaches."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from analyzer.findings.coverage import namespace_coverage
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta
from analyzer.findings.versions import DATA
from analyzer.safeyaml import load_yaml

RULE = RuleMeta(
    id="endpoints-no-address", title="Endpoints with no ready address, their Service not in the dump",
    severity="warning", category="networking", requires=("Endpoints",),
    message="Endpoints {namespace}/{name} has no ready address{not_ready_text}: the Service of that "
    "name (not in the dump) sends its traffic nowhere{webhook}",
    remediation="See why the Service's pods are not ready or not selected (`kubectl get pods -l <selector>`, "
    "`kubectl describe svc`); collect the Service and its pods to judge it.",
)


@cache
def _locks() -> tuple[str, frozenset[str], tuple[re.Pattern[str], ...]]:
    raw = load_yaml((DATA / "leader_election_endpoints.yaml").read_text(encoding="utf-8"))
    return (str(raw["annotation"]), frozenset(raw["names"]),
            tuple(re.compile(p) for p in raw["name_patterns"]))


def is_lock(name: str, annotations: dict[str, str] | None) -> bool:
    """Whether an Endpoints object is a leader-election lock (empty by design): its annotation
    (when it was read whole), else its name (a table row shows no annotations).

    >>> is_lock("ingress-controller-leader-nginx", None), is_lock("web", {})
    (True, False)
    """
    annotation, names, patterns = _locks()
    if annotation in (annotations or {}):
        return True
    return name in names or any(p.search(name) for p in patterns)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    services = namespace_coverage(cluster, "Service")
    leases = {(lease.namespace, lease.name) for lease in cluster.objects_of("Lease")}
    for obj in cluster.objects_of("Endpoints"):
        if services.covers(obj.namespace):
            continue  # the Service rules judge it (one without a Service is a lock or a leftover)
        meta = obj.view.metadata
        if is_lock(obj.name, meta.annotations) or (obj.namespace, obj.name) == ("default", "kubernetes") \
                or (obj.namespace, obj.name) in leases:
            continue  # (a Lease of its name: the lock moved there, endpointsleases, and the Endpoints stayed)
        subsets = obj.view.subsets or ()
        ready = sum(len(s.addresses or ()) for s in subsets)
        not_ready = sum(len(s.notReadyAddresses or ()) for s in subsets)
        if ready:
            continue
        webhook = ("; an admission webhook behind it fails the API requests it is called for"
                   if "webhook" in obj.name else "")
        yield RULE.fail(obj, ev(obj, "subsets[].addresses", 0, ">= 1 ready address"),
                        not_ready=not_ready, webhook=webhook,
                        not_ready_text=f" ({not_ready} not ready)" if not_ready else (
                            " (its addresses all not ready: kubectl printed it blank, not <none>)"
                            if obj.view.text is not None and obj.view.text.not_ready_unprinted else ""))
