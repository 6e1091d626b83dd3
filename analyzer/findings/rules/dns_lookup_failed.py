"""DNS lookups run in a pod that no server answered, as a pasted `kubectl exec POD -- nslookup
NAME` shows (`;; connection timed out; no servers could be reached`): pods there cannot resolve
names through the cluster's DNS, whatever the dump holds of CoreDNS."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import holds_a_paste, quoted_pod
from analyzer.findings.types import Evidence, Finding, RuleMeta

RULE = RuleMeta(
    id="dns-lookup-failed", title="DNS lookup in a pod got no answer", severity="warning",
    category="networking",
    message="A DNS lookup run in Pod {pod} (`{lookup}`, line {line}) got no answer: {said}; pods there cannot "
            "resolve names{dns}",
    remediation="Check the DNS Service's ClusterIP from the pod's node (kube-proxy's rules for it, the network "
    "plugin between nodes), then CoreDNS's pods and their logs (forward i/o timeouts, a loop).",
)

_DNS_APPS = frozenset({"coredns", "kube-dns"})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    failures = list(getattr(cluster.ingest, "dns_failures", None) or ())
    if not failures:
        if not holds_a_paste(cluster):
            yield RULE.not_applicable("the dump holds no pasted session to show a lookup run in a pod")
        return
    dns = _dns_pods(cluster)
    seen: set[tuple[str, str]] = set()
    for failure in failures:
        namespace = failure.namespace or _namespace_of(cluster, failure.pod)
        if (namespace, failure.pod) in seen:
            continue
        seen.add((namespace, failure.pod))
        evidence = Evidence(f"kubectl exec {failure.pod} -- {failure.lookup}", failure.said, "an answer",
                            source=failure.source, line=failure.line)
        yield RULE.fail(None, evidence, kind="Pod", namespace=namespace, name=failure.pod,
                        pod=quoted_pod(namespace, failure.pod),
                        lookup=failure.lookup, line=failure.line, said=failure.said, dns=dns)


def _namespace_of(cluster: AnalyzedDump, name: str) -> str:
    """The namespace of the one pod the dump holds by this name (the exec ran without -n in the
    session that listed it), else ""."""
    found = {p.namespace for p in cluster.objects_of("Pod") if p.name == name}
    return found.pop() if len(found) == 1 else ""


def _dns_pods(cluster: AnalyzedDump) -> str:
    """What the dump shows of the cluster DNS's own pods, when it shows them all Running and ready:
    then the path to them fails, not they."""
    pods = [p for p in cluster.objects_of("Pod") if p.namespace == "kube-system"
            and p.name.rsplit("-", 2)[0] in _DNS_APPS]
    if not pods:
        return ""
    ready = [p for p in pods if _ready(p)]
    if len(ready) == len(pods):
        return (f"; the dump shows the cluster DNS's {len(pods)} pod(s) Running and ready: the way to them "
                "(the DNS Service's ClusterIP through kube-proxy, the network plugin) fails, not they")
    return ""


def _ready(pod) -> bool:
    text = pod.view.text
    if text is not None and text.ready:
        have, _, want = text.ready.partition("/")
        return text.status == "Running" and have == want
    return any(c.type == "Ready" and c.status == "True" for c in pod.view.status.conditions or ())
