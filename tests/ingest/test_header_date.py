"""A write-up's dated "Generated:" header as evidence of when its outputs were taken.

Fixture: the top of lauj0rge/vyking-devops-task tests-results-dev-20250920-170547.md @ ff611df8
(a test script's markdown report of a k3d cluster), its header and first listing verbatim.
"""

from __future__ import annotations

from datetime import UTC, datetime

from analyzer.ingest import ingest_text
from analyzer.ingest.headerdate import header_date, parse_stated_time

K3D_REPORT = """# Cluster Test Results for `dev`

## Summary
- **Generated:** 2025-09-20 17:05:47 CEST
- **Environment:** `dev`
- **Cluster Name:** `vyking-dev`

### Nodes
```bash
+ kubectl get nodes -o wide
NAME                      STATUS   ROLES                  AGE   VERSION        INTERNAL-IP   EXTERNAL-IP   OS-IMAGE           KERNEL-VERSION     CONTAINER-RUNTIME
k3d-vyking-dev-agent-0    Ready    <none>                 17m   v1.31.5+k3s1   172.18.0.3    <none>        K3s v1.31.5+k3s1   6.8.0-79-generic   containerd://1.7.23-k3s2
k3d-vyking-dev-server-0   Ready    control-plane,master   17m   v1.31.5+k3s1   172.18.0.2    <none>        K3s v1.31.5+k3s1   6.8.0-79-generic   containerd://1.7.23-k3s2
```
"""


def test_the_generated_header_dates_the_outputs_in_utc() -> None:
    r = ingest_text(K3D_REPORT, "tests-results-dev.md")
    capture = r.capture
    assert capture.time == datetime(2025, 9, 20, 15, 5, 47, tzinfo=UTC)  # CEST is UTC+2
    assert capture.signal == "write-up header" and capture.confidence == "medium"
    assert 'line 4 "- **Generated:** 2025-09-20 17:05:47 CEST"' in capture.describe()


def test_the_api_servers_times_outweigh_a_header_dated_long_after() -> None:
    # The same report with an event the API server dated: a header three weeks newer dates the
    # write-up's editing, not the outputs.
    text = K3D_REPORT.replace("2025-09-20 17:05:47 CEST", "2025-10-11 09:00:00 UTC") + (
        "```bash\n+ kubectl get events -A -o yaml\napiVersion: v1\nkind: List\nitems:\n"
        "- apiVersion: v1\n  kind: Event\n  metadata: {name: agent-0.1, namespace: default}\n"
        "  involvedObject: {kind: Node, name: k3d-vyking-dev-agent-0}\n  reason: NodeReady\n  type: Normal\n"
        "  lastTimestamp: \"2025-09-20T14:50:01Z\"\n```\n")
    capture = ingest_text(text, "tests-results-dev.md").capture
    assert capture.signal == "event"
    assert capture.time == datetime(2025, 9, 20, 14, 50, 1, tzinfo=UTC)


def test_only_a_known_zone_gives_a_time() -> None:
    assert header_date("Generated: 2025-09-20 17:05:47\n") is None  # local time of no zone
    assert header_date("Date: 2025-09-20 17:05:47 IST\n") is None  # India, Israel or Ireland
    assert parse_stated_time("2025-09-20T17:05:47+05:30") == datetime(2025, 9, 20, 11, 35, 47, tzinfo=UTC)
    assert header_date("Captured at: Sat Sep 20 17:05:47 CEST 2025\n").iso == "2025-09-20T15:05:47Z"


def test_a_date_deep_in_the_text_is_not_a_header() -> None:
    assert header_date("\n" * 60 + "Date: 2025-09-20 17:05:47 UTC\n") is None


def test_a_describes_dated_field_is_its_objects_not_the_write_ups() -> None:
    # Trimmed from a public course write-up in Spanish (k8s4arch hotels app, unit 7): a NetworkPolicy
    # describe in a markdown fence. Before: its `Created on:` dated the capture as a write-up header,
    # medium confidence; it is the policy's creation, the newest time the paste holds.
    text = ("Creamos una `NetworkPolicies` que impida el acceso a los pods de backend.\n\n```bash\n"
            "]$ uk describe netpol backend -n unit7\nName:         backend\nNamespace:    unit7\n"
            "Created on:   2021-11-02 00:18:27 +0100 CET\nLabels:       <none>\nAnnotations:  <none>\n"
            "Spec:\n  PodSelector:     app=k8s4arch-hotels-backend\n  Allowing ingress traffic:\n"
            "    <none> (Selected pods are isolated for ingress connectivity)\n"
            "  Not affecting egress traffic\n  Policy Types: Ingress\n```\n")
    capture = ingest_text(text, "unit7.md").capture
    assert capture.signal == "creationTimestamp" and capture.confidence == "low"
    assert capture.time == datetime(2021, 11, 1, 23, 18, 27, tzinfo=UTC)
