"""Services with pods behind them but no ready endpoint address."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.coverage import namespace_coverage, not_listed_reason
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev, labels_unknown_in, pods_by_namespace, selected_pods
from analyzer.findings.rules.service_no_pods import scaled_to_zero
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="service-no-ready-endpoints", title="Service has no ready endpoints", severity="critical",
    category="networking", requires=("Service",),
    requires_any=("Endpoints", "EndpointSlice"),
    message="Service {namespace}/{name} has no ready endpoint ({addresses}); traffic to it fails",
    remediation="The selected pods are not ready: see their readiness probes and the pod findings; a Service without ready endpoints refuses connections.",
)


def ready_addresses(cluster: AnalyzedDump) -> dict[tuple[str, str], tuple[int, int, object, str]]:
    """(namespace, service) -> (ready, not ready, the object, its kind) from Endpoints or slices."""
    out: dict[tuple[str, str], tuple[int, int, object, str]] = {}
    for obj in cluster.objects_of("Endpoints"):
        ready = sum(len(s.addresses or ()) for s in obj.view.subsets or ())
        not_ready = sum(len(s.notReadyAddresses or ()) for s in obj.view.subsets or ())
        out[(obj.namespace, obj.name)] = (ready, not_ready, obj, "Endpoints")
    for obj in cluster.objects_of("EndpointSlice"):
        service = (obj.view.metadata.labels or {}).get("kubernetes.io/service-name")
        if not service:
            continue
        ready = sum(1 for e in obj.view.endpoints or () if not e.conditions or e.conditions.ready is not False)
        not_ready = sum(1 for e in obj.view.endpoints or () if e.conditions and e.conditions.ready is False)
        prev = out.get((obj.namespace, service))
        if prev is None or prev[3] == "EndpointSlice":
            r0, n0 = (prev[0], prev[1]) if prev else (0, 0)
            out[(obj.namespace, service)] = (r0 + ready, n0 + not_ready, obj, "EndpointSlice")
    return out


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    kind = "Endpoints" if cluster.covers("Endpoints") else "EndpointSlice"
    coverage = namespace_coverage(cluster, kind)
    if not coverage.listed:
        yield RULE.not_applicable(not_listed_reason(coverage))
        return
    pod_coverage = namespace_coverage(cluster, "Pod")
    pods = pods_by_namespace(cluster)
    addresses = ready_addresses(cluster)
    for svc in cluster.objects_of("Service"):
        spec = svc.view.spec
        if not spec.selector or spec.type == "ExternalName" or not coverage.covers(svc.namespace):
            continue
        # No pod at all is service-no-pods' finding; here pods exist but none is ready.
        if pod_coverage.covers(svc.namespace) and not selected_pods(svc, pods) \
                and not labels_unknown_in(pods, svc.namespace):
            continue
        ready, not_ready, obj, source = addresses.get((svc.namespace, svc.name), (0, 0, None, kind))
        if ready == 0:
            # Pods read without labels (table rows): the workload that makes the selected pods
            # may ask for none (scaled to 0, a DaemonSet for no node); then nothing is broken.
            # kubectl printed its Endpoints blank, not `<none>`: it has addresses, none ready
            unprinted = obj is not None and obj.view.text is not None and bool(obj.view.text.not_ready_unprinted)
            by_design = "" if not_ready or unprinted else scaled_to_zero(cluster, svc)
            evidence = [ev(svc, "spec.selector", spec.selector, "pods with ready endpoints")]
            if obj is not None:
                evidence.append(ev(obj, "subsets[].addresses" if source == "Endpoints"
                                   else "endpoints[].conditions.ready", 0, ">= 1 ready address"))
            where = f"{source} {svc.namespace}/{obj.name}" if obj is not None else f"no {source} object"
            finding = RULE.fail(svc, *evidence, not_ready=not_ready, source=where, addresses=(
                f"{where} holds only not-ready addresses: kubectl printed its addresses blank, not <none>" if unprinted
                else f"{not_ready} not-ready address(es) in {where}"))
            yield finding.as_info(resolved=by_design) if by_design else finding
