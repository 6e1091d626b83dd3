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


# projectcalico/calico#8463 (calico 3.26.1 on kubeadm 1.28, 2024-01-30): its `kubectl get po
# -owide` rows (trimmed), and the log of the init container the title names, install-cni, as
# `kubectl logs -c install-cni` prints it (its lines written for this test from the title's
# error). The row names no init container; the session's log does.
CALICO_INIT = """$ kubectl get po -nkube-system -owide
NAME                                          READY   STATUS                  RESTARTS       AGE     IP             NODE                  NOMINATED NODE   READINESS GATES
calico-node-784sk                             0/1     Init:CrashLoopBackOff   4 (32s ago)    6m13s   10.10.101.44   10.10.101.44-worker   <none>           <none>
calico-node-tfk7t                             1/1     Running                 0              54m     10.10.101.43   10.10.101.43-master   <none>           <none>
$ kubectl logs -n kube-system calico-node-784sk -c install-cni
2024-01-30 08:12:59.571 [INFO][1] cni-installer/<nil> <nil>: Running as a Kubernetes pod
2024-01-30 08:13:29.575 [FATAL][1] cni-installer/<nil> <nil>: Unable to create token for CNI kubeconfig error=Post "https://10.96.0.1:443/api/v1/namespaces/kube-system/serviceaccounts/calico-node/token": dial tcp 10.96.0.1:443: i/o timeout
"""


def test_a_pasted_pods_failing_init_container_is_the_one_its_later_log_names(tmp_path: Path) -> None:
    # Before: "init container not named in the table failed", and its log's i/o timeout an info
    # finding about start-up history
    paste = tmp_path / "calico-8463.txt"
    paste.write_text(CALICO_INIT, encoding="utf-8")
    cluster = analyzer.load(str(paste))
    [failed] = collect_findings(cluster, ["pod-init-failed"])
    assert failed.facts["container"].startswith("install-cni (named by the session's `kubectl logs -c install-cni`")
    [log] = [e for e in failed.evidence if e.field.startswith("log[")]
    assert log.field == "log[install-cni] io-timeout" and "10.96.0.1:443: i/o timeout" in log.seen
    [errors] = collect_findings(cluster, ["pod-log-errors"])
    assert errors.severity != "info"
    # a log of the pod that is running fine is no init container's
    other = CALICO_INIT.replace("calico-node-784sk -c", "calico-node-tfk7t -c")
    paste.write_text(other, encoding="utf-8")
    [failed] = collect_findings(analyzer.load(str(paste)), ["pod-init-failed"])
    assert failed.facts["container"] == "not named in the table"


# grafana/tutorial-environment#8 (OpenShift, 2021-03-24): the `oc get pods` and `oc logs` of the
# report as pasted (trimmed to the two commands). The image writes under /var/log as root;
# OpenShift runs it as a random UID.
GRAFANA_TNS = """```
hesteban-redhat.com@bastion ~]$ oc get pods
NAME                                    READY   STATUS             RESTARTS   AGE
tutorial-environment-1-build            0/1     Completed          0          41m
tutorial-environment-54ff5f7f48-jzwj8   0/1     CrashLoopBackOff   12         41m
[hesteban-redhat.com@bastion ~]$ oc logs tutorial-environment-54ff5f7f48-jzwj8
/bin/sh: can't create /var/log/tns-app.log: Permission denied
```
"""


def test_the_log_of_a_pasted_crashlooping_row_ends_on_its_last_words(tmp_path: Path) -> None:
    # Before: the line matched no signature, and once it did, it was 'history: start-up or a
    # previous container' (info) and not quoted by the crash loop it explains
    paste = tmp_path / "grafana-tutorial-environment-8.md"
    paste.write_text(GRAFANA_TNS, encoding="utf-8")
    cluster = analyzer.load(str(paste))
    [crash] = collect_findings(cluster, ["pod-crashloop"])
    [log] = [e for e in crash.evidence if e.field.startswith("log[")]
    assert log.field == "log[?] permission-denied" and log.seen.endswith("tns-app.log: Permission denied")
    [errors] = collect_findings(cluster, ["pod-log-errors"])
    assert errors.severity == "warning" and errors.facts["current"]
    # a row that runs (or of two containers, the crashing one not told) keeps it history
    for row in ("0/1     Running            0 ", "0/2     CrashLoopBackOff   12"):
        paste.write_text(GRAFANA_TNS.replace("0/1     CrashLoopBackOff   12", row), encoding="utf-8")
        [errors] = collect_findings(analyzer.load(str(paste)), ["pod-log-errors"])
        assert errors.severity == "info", row
