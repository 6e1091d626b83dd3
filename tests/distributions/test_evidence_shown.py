"""The distribution's evidence as `kda inspect` prints it: what decided, each fact once."""

from __future__ import annotations

import analyzer
from analyzer.cluster.summary import summary_text
from analyzer.ingest import ingest_text

# From Azure/AKS-Construction#727 (kube-system pods of an AKS cluster with Azure Policy, -o wide),
# trimmed to three rows: each node name matches both of AKS's node-name fingerprints, and the
# weaker one (not counted) was printed beside the stronger as a second, identical line.
_AKS_ROWS = """\
$ kubectl get pods -n kube-system -o wide
NAME                                    READY   STATUS             RESTARTS        AGE   IP               NODE                                 NOMINATED NODE   READINESS GATES
azure-cns-9ztdr                         1/1     Running            0               54m   10.240.0.6       aks-userpool01-68104822-vmss000003   <none>           <none>
azure-policy-86887785db-k885d           1/1     Running            0               60m   10.240.100.24    aks-agentpool-30311657-vmss000000    <none>           <none>
azure-policy-webhook-6fbc657745-9jddk   0/1     CrashLoopBackOff   9 (4m21s ago)   27m   10.240.100.104   aks-userpool01-68104822-vmss000004   <none>           <none>
"""


def test_a_fact_two_fingerprints_of_one_signal_match_is_printed_once() -> None:
    cluster = analyzer.Cluster(ingest_text(_AKS_ROWS, "issue.md"))
    assert cluster.distribution.name == "aks"
    shown = [line for line in summary_text(cluster).splitlines() if line.startswith("  - ")]
    assert len(shown) == len(set(shown)), shown
    assert [line.split(":")[0] for line in shown] == ["  - node_name_regex", "  - workload_name"]
