"""A system pod known only from its pasted log (`kubectl logs POD -n kube-system`) tells the
distribution as its table row would."""

from __future__ import annotations

import analyzer

# Trimmed from GoogleCloudPlatform/gke-terraform-generator#25 (2020-07-07, GKE 1.16.9-gke.6):
# event-exporter-gke crash-looping on a new cluster, its log all the issue pasted. Before, the
# distribution was unknown (0 objects), though the pod is GKE's own add-on.
_ISSUE = """\
i don't know why he can boot on cluster . I faced this issue:
``` kubectl logs event-exporter-gke-6c9d8bd8d8-z7fl6 prometheus-to-sd-exporter  -n kube-system
F0707 13:26:00.772823       1 main.go:123] Failed to get GCE config: error while getting instance (node) name: metadata: GCE metadata "instance/name" not defined
```
"""


def test_a_logged_system_pod_is_evidence_and_says_it_was_a_log() -> None:
    cluster = analyzer.load({"issue.md": _ISSUE})
    assert list(cluster.objects) == []
    dist = cluster.distribution
    assert dist.name == "gke"
    (pod,) = [e for e in dist.evidence if e.value.startswith("event-exporter-gke")]
    assert pod.object == "core/Pod/kube-system/event-exporter-gke-6c9d8bd8d8-z7fl6, its log at line 3"


def test_an_application_pods_log_tells_nothing() -> None:
    # the same log under an application's namespace: not a system workload
    cluster = analyzer.load({"issue.md": _ISSUE.replace("-n kube-system", "-n shop")})
    assert cluster.distribution.name == "unknown"
