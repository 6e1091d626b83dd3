"""Log lines as evidence: appended to the findings about a pod, quoted with file and line."""

from __future__ import annotations

from pathlib import Path

from conftest import REALDATA

import analyzer
from analyzer.findings import collect_findings


def test_a_restarting_pod_carries_its_previous_containers_last_words() -> None:
    # k3s bundle: local-path-provisioner restarted 189 times; its previous container exited with
    # level=fatal "failed to get Kubernetes server version ... dial tcp 10.43.0.1:443: i/o timeout"
    # (cluster-resources/pods/logs/kube-system/local-path-provisioner-.../local-path-provisioner-previous.log).
    cluster = analyzer.load(str(REALDATA / "k3s" / "troubleshoot-testdata-supportbundle"))
    restarts = next(f for f in collect_findings(cluster, ["pod-high-restarts"])
                    if f.name.startswith("local-path-provisioner-"))
    logs = [e for e in restarts.evidence if e.field.startswith("log[")]
    assert len(logs) == 1 and logs[0].field == "log[local-path-provisioner previous] fatal-log"
    assert "level=fatal" in logs[0].seen and "i/o timeout" in logs[0].seen
    assert logs[0].source.endswith("local-path-provisioner-previous.log") and logs[0].line == 1
    assert Path(logs[0].source).read_text(encoding="utf-8").splitlines()[0] == logs[0].seen
    # the finding's own evidence stays first
    assert restarts.evidence[0].field.endswith(".restartCount")


def test_history_is_not_appended_to_a_finding() -> None:
    # cka: the control plane's "etcdserver: no leader" lines are days old (history): the
    # pending coredns pods get no log evidence from them, and their own logs are empty.
    cluster = analyzer.load(str(REALDATA / "kubeadm" / "cka-3c97-cluster-info-dump"))
    for f in collect_findings(cluster, ["pod-pending"]):
        assert not any(e.field.startswith("log[") for e in f.evidence)
