"""Provider-managed marks for objects read from pasted text, which shows no labels: the component
catalog's platform components of the distribution the dump was detected as."""

from __future__ import annotations

import analyzer
from analyzer.findings import collect_findings

# Trimmed from Neutrollized/free-tier-gke#6 (GKE Dataplane V2, 2023-09-17): `kubectl -n kube-system
# get pods`. Before: event-exporter-gke's Pending pod was critical with no managed mark (its row
# has no labels, so no label could say GKE runs it).
GKE_ROWS = """\
`kubectl -n kube-system get pods` gives:

```
NAME                                                       READY   STATUS    RESTARTS   AGE
anetd-cf8jz                                                1/1     Running   0          13m
anetd-q5vzr                                                1/1     Running   0          13m
event-exporter-gke-7bf6c99dcb-grmz7                        0/2     Pending   0          13m
fluentbit-gke-f9hh9                                        2/2     Running   0          13m
gke-metadata-server-2q8q5                                  1/1     Running   0          13m
web-7bf6c99dcb-abcde                                       0/1     Pending   0          13m
```
"""


def _pending(text: str) -> dict[str, str]:
    cluster = analyzer.load({"issue.md": text})
    return {f.name: f.managed for f in collect_findings(cluster) if f.rule == "pod-pending" and f.status == "fail"}


def test_a_pasted_gke_add_on_pod_is_marked_provider_managed() -> None:
    found = _pending(GKE_ROWS)
    assert "event-exporter-gke, part of gke" in found["event-exporter-gke-7bf6c99dcb-grmz7"]
    assert found["web-7bf6c99dcb-abcde"] == ""  # not a catalog component


def test_a_component_of_another_distribution_is_not_marked() -> None:
    # hand-made from the rows above: a kind cluster (kindnet, kind-control-plane) running a job
    # named as k3s's helm-install jobs are; the catalog says helm-install is k3s's and RKE2's,
    # not kind's, so nothing says who runs it
    rows = ("$ kubectl get pods -A -o wide\n"
            "NAMESPACE     NAME                         READY   STATUS    RESTARTS   AGE   IP           NODE                 NOMINATED NODE   READINESS GATES\n"
            "kube-system   kindnet-7xk2p                1/1     Running   0          13m   172.18.0.2   kind-control-plane   <none>           <none>\n"
            "kube-system   helm-install-traefik-x9p4c   0/1     Pending   0          13m   <none>       <none>               <none>           <none>\n")
    cluster = analyzer.load({"session.txt": rows})
    assert cluster.distribution.name == "kind"
    found = {f.name: f.managed for f in collect_findings(cluster) if f.rule == "pod-pending" and f.status == "fail"}
    assert found == {"helm-install-traefik-x9p4c": ""}


def test_a_pasted_add_on_deployments_pods_carry_its_mark() -> None:
    # trimmed from a kubectl session against `kda serve` of review3's AKS cluster-info dump (rev11b):
    # the structured dump marks coredns-autoscaler's Deployment and its pod (label
    # addonmanager.kubernetes.io/mode=Reconcile); the paste shows no labels.
    session = (
        "PS C:\\Users\\arena> kubectl get pods -A -o wide\n"
        "NAMESPACE     NAME                                        READY   STATUS             RESTARTS           AGE     IP            NODE                                NOMINATED NODE   READINESS GATES\n"
        "kube-system   coredns-autoscaler-6d7bd69669-nmpz2         0/1     CrashLoopBackOff   1569 (4m28s ago)   3d10h   10.244.0.62   aks-nodepool1-28869405-vmss000000   <none>           <none>\n"
        "default       web-6d7bd69669-abcde                        0/1     CrashLoopBackOff   9 (4m28s ago)      3d10h   10.244.0.63   aks-nodepool1-28869405-vmss000000   <none>           <none>\n"
        "PS C:\\Users\\arena> kubectl get deploy -n kube-system\n"
        "NAME                        READY   UP-TO-DATE   AVAILABLE   AGE\n"
        "coredns-autoscaler          0/1     1            0           12d\n")
    cluster = analyzer.load({"session.txt": session})
    assert cluster.distribution.name == "aks"
    marks = {(f.rule, f.name): f.managed for f in collect_findings(cluster) if f.status == "fail"}
    assert "coredns-autoscaler, part of aks" in marks[("deployment-unavailable", "coredns-autoscaler")]
    assert "coredns-autoscaler, part of aks" in marks[("pod-crashloop", "coredns-autoscaler-6d7bd69669-nmpz2")]
    assert marks[("pod-crashloop", "web-6d7bd69669-abcde")] == ""


def test_a_component_the_clusters_owner_installs_is_not_marked() -> None:
    # trimmed from kubernetes-sigs/aws-load-balancer-controller#2956 (EKS, 2023-01-04): installed by
    # its owner from the EKS user guide; only EKS runs it, but EKS does not manage it
    # (catalog: user_installed). A kube-proxy row of the same cluster is EKS's.
    paste = ("```\n ~/Downloads/ kubectl get deployment -n kube-system aws-load-balancer-controller\n"
             "NAME                           READY   UP-TO-DATE   AVAILABLE   AGE\n"
             "aws-load-balancer-controller   0/2     0            0           15d\n```\n\n"
             "```\n ~/Downloads/ kubectl get pods -n kube-system -o wide\n"
             "NAME                READY   STATUS             RESTARTS   AGE   IP           NODE                                         NOMINATED NODE   READINESS GATES\n"
             "aws-node-8kz2x      0/1     CrashLoopBackOff   12         15d   10.0.1.12    ip-10-0-1-12.us-west-2.compute.internal      <none>           <none>\n```\n")
    cluster = analyzer.load({"issue.md": paste})
    assert cluster.distribution.name == "eks"
    marks = {(f.rule, f.name): f.managed for f in collect_findings(cluster) if f.status == "fail"}
    assert marks[("deployment-unavailable", "aws-load-balancer-controller")] == ""
    assert "aws-node, part of eks" in marks[("pod-crashloop", "aws-node-8kz2x")]
