"""Events read from a pasted describe's Events (ages, no times) printed again by `kda describe`
and `kda get events` with the ages the paste gave, where the dump holds no capture time to
measure them from (they were `<unknown>`)."""

from __future__ import annotations

import analyzer
from analyzer.printing.describe import describe
from analyzer.printing.store import DumpStore

# Trimmed from olga-mir/k8s demo/2023-gke-eks-pod-ip-exhaustion/README.md (GKE, pod IP space
# exhausted): the Pending pod's describe Events, grepped out of its describe.
EVENTS = """\
Events:
  Type     Reason             Age                 From                Message
  ----     ------             ----                ----                -------
  Normal   TriggeredScaleUp   97s                 cluster-autoscaler  pod triggered scale-up: [{gke-demo-ip-original-nodepool-22330990-grp 2->3 (max: 7)}]
  Warning  FailedScaleUp      53s                 cluster-autoscaler  Node scale up in zones australia-southeast1-b associated with this pod failed: IP space exhausted. Pod is at risk of not being scheduled.
  Warning  FailedScheduling   42s (x2 over 102s)  default-scheduler   0/2 nodes are available: 2 Too many pods. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod..
  Normal   NotTriggerScaleUp  42s                 cluster-autoscaler  pod didn't trigger scale-up: 1 in backoff after failed scale-up
"""
PASTE = """\
% k get po
NAME                           READY   STATUS    RESTARTS   AGE
alpine-curl-648f8f669c-wltzt   0/1     Pending   0          85s

% k describe po alpine-curl-648f8f669c-wltzt | grep -A 15 "Events:"
""" + EVENTS


def _store() -> DumpStore:
    cluster = analyzer.load({"issue.txt": PASTE})
    assert cluster.capture_time is None  # nothing to measure ages from but the paste's own
    return DumpStore.from_cluster(cluster)


def test_a_pasted_describe_events_are_printed_with_their_pasted_ages() -> None:
    store = _store()
    res = store.catalog.resolve("pods")
    printed = describe(store, res, store.body(res, store.find(res, "default", "alpine-curl-648f8f669c-wltzt")))
    assert printed.endswith(EVENTS)


def test_get_events_prints_the_pasted_ages_as_last_seen() -> None:
    store = _store()
    res = store.catalog.resolve("events")
    rows = {r[2]: r for r in store.table_cells(res, res.objects)}
    # LAST SEEN and (wide) FIRST SEEN
    assert {reason: (r[0], r[7]) for reason, r in rows.items()} == {
        "TriggeredScaleUp": ("97s", "97s"), "FailedScaleUp": ("53s", "53s"),
        "FailedScheduling": ("42s", "102s"), "NotTriggerScaleUp": ("42s", "42s")}
