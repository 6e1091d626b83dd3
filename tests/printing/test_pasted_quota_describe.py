"""Pasted `kubectl describe quota` printed again by `kda describe quota` as the paste printed it:
each resource's used and hard amounts, and a scoped quota's Scopes with kubectl's help line."""

from __future__ import annotations

import analyzer
from analyzer.printing.describe import describe
from analyzer.printing.store import DumpStore

# The layout of kubectl's describeQuota as a public study note printed it (find_string "Resource
# Used   Hard": the docs' quota-mem-cpu-example on a kubeadm master), the second quota scoped.
PASTED = """\
Name:            mem-cpu-demo
Namespace:       quota-mem-cpu-example
Resource         Used   Hard
--------         ----   ----
limits.cpu       800m   2
limits.memory    800Mi  2Gi
requests.cpu     400m   1
requests.memory  600Mi  1Gi


Name:       best-effort
Namespace:  quota-mem-cpu-example
Scopes:     BestEffort
 * Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.
Resource  Used  Hard
--------  ----  ----
pods      0     5
"""


def test_pasted_quota_describes_are_printed_as_pasted() -> None:
    store = DumpStore.from_cluster(analyzer.load({"quota.txt": "$ kubectl describe quota -n quota-mem-cpu-example\n" + PASTED}))
    res = store.catalog.resolve("quota")
    printed = [describe(store, res, store.body(res, store.find(res, "quota-mem-cpu-example", name)))
               for name in ("mem-cpu-demo", "best-effort")]
    assert "\n\n".join(printed) == PASTED
