"""The report's headline counts read the state the findings read: pods and nodes the dump gives
no status of are unknown (never 'not running'), a workload a finding says is short of ready pods
is not healthy, and a pod seconds old being created is not an unhealthy system component."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from browser import launched, needs_chromium, open_guarded

import analyzer
from analyzer.report import cluster_facts, render_cluster_report

# The described AKS node (its Non-terminated Pods rows carry no status): see the top of the file.
DESCRIBE_NODE = (Path(__file__).parents[1] / "data" / "describe" / "aks-gpu-node.txt").read_text(encoding="utf-8")

# From lauj0rge/vyking-devops-task tests-results-dev-20250920-170547.md @ ff611df8, trimmed: the
# local-path provisioner's helper pod was 5 s old and still being created when the table printed.
K3D_PODS = """\
$ kubectl get pods -A -o wide
NAMESPACE       NAME                                                         READY   STATUS              RESTARTS   AGE     IP           NODE                      NOMINATED NODE   READINESS GATES
kube-system     coredns-ccb96694c-b8lg5                                      1/1     Running             0          17m     10.42.1.4    k3d-vyking-dev-agent-1    <none>           <none>
kube-system     helper-pod-create-pvc-58d0d178-8d64-4a13-81eb-677459af8be5   0/1     ContainerCreating   0          5s      <none>       k3d-vyking-dev-agent-1    <none>           <none>
kube-system     local-path-provisioner-5cf85fd84d-wjvjg                      1/1     Running             0          17m     10.42.2.3    k3d-vyking-dev-server-0   <none>           <none>
kube-system     metrics-server-5985cbc9d7-44tdt                              0/1     CrashLoopBackOff    7          17m     10.42.2.2    k3d-vyking-dev-server-0   <none>           <none>
"""


def test_pods_from_describe_node_rows_are_unknown_not_unhealthy() -> None:
    facts = cluster_facts(analyzer.load({"describe-node.txt": DESCRIBE_NODE}))
    assert (facts["pods"]["total"], facts["pods"]["not_healthy"], facts["pods"]["unknown"]) == (2, 0, 2)
    assert (facts["nodes"]["not_ready"], facts["nodes"]["ready_unknown"]) == (0, 0)


def test_pods_of_a_node_that_may_have_stopped_reporting_are_unknown_not_running() -> None:
    # Azure/AKS#491 (trimmed): the only node NotReady, its pods "Running" as last reported.
    paste = ("$ kubectl get nodes\n"
             "NAME                       STATUS     ROLES     AGE       VERSION\n"
             "aks-nodepool1-79365606-0   NotReady   agent     4d        v1.9.6\n"
             "$ kubectl get pods\n"
             "NAME                                                     READY     STATUS      RESTARTS   AGE\n"
             "alertmanager-kube-prometheus-0                           2/2       Running     0          4d\n"
             "goodly-tarsier-prometheus-operator-create-sm-job-mbd94   0/1       Completed   0          4d\n"
             "kube-prometheus-grafana-7bcb88ff5f-fsghm                 2/2       Running     0          4d\n")
    facts = cluster_facts(analyzer.load({"issue.md": paste}))
    assert (facts["pods"]["total"], facts["pods"]["not_healthy"], facts["pods"]["unknown"]) == (3, 0, 2)


def test_a_node_without_a_ready_condition_is_unknown_not_not_ready() -> None:
    text = DESCRIBE_NODE.split("Conditions:")[0] + "Events:              <none>\n"
    facts = cluster_facts(analyzer.load({"describe-node.txt": text}))
    assert (facts["nodes"]["total"], facts["nodes"]["not_ready"], facts["nodes"]["ready_unknown"]) == (1, 0, 1)


def test_a_workload_the_findings_call_short_is_not_healthy_in_the_headline() -> None:
    # Hand-written (the shape of a trimmed -o yaml paste): a Deployment whose spec.replicas was
    # cut (the API's default is 1) and whose status says its one replica is unavailable.
    deployment = {"apiVersion": "apps/v1", "kind": "Deployment",
                  "metadata": {"name": "coredns", "namespace": "kube-system"},
                  "spec": {"selector": {"matchLabels": {"k8s-app": "kube-dns"}}},
                  "status": {"observedGeneration": 1, "replicas": 1, "unavailableReplicas": 1}}
    cluster = analyzer.load({"deploy.yaml": yaml.safe_dump(deployment)})
    failed = cluster.findings[(cluster.findings["status"] == "fail")
                              & (cluster.findings["rule"] == "deployment-unavailable")]
    assert set(failed["severity"]) == {"warning"}
    facts = cluster_facts(cluster)
    assert (facts["workloads"]["unhealthy"], facts["workloads"]["total"]) == (1, 1)
    assert facts["workloads"]["rows"][0]["health"] == "not healthy"


def test_a_manifest_without_status_is_a_workload_of_unknown_health() -> None:
    # Hand-written: an applied DaemonSet manifest (no status): neither healthy nor not.
    daemonset = {"apiVersion": "apps/v1", "kind": "DaemonSet",
                 "metadata": {"name": "agent", "namespace": "monitoring"},
                 "spec": {"selector": {"matchLabels": {"app": "agent"}},
                          "template": {"metadata": {"labels": {"app": "agent"}},
                                       "spec": {"containers": [{"name": "a", "image": "agent:1"}]}}}}
    facts = cluster_facts(analyzer.load({"ds.yaml": yaml.safe_dump(daemonset)}))
    assert (facts["workloads"]["unhealthy"], facts["workloads"]["unknown"]) == (0, 1)
    assert facts["workloads"]["rows"][0]["health"] == "unknown"


def test_a_described_deployment_is_healthy_by_its_available_replicas() -> None:
    # kubectl's `describe deployment` (realdata unknown/troubleshoot-analyze-files served by
    # `kda serve`, trimmed) counts available replicas, never ready ones
    described = (
        "$ kubectl describe deployments -n kube-system coredns\n"
        "Name:                   coredns\n"
        "Namespace:              kube-system\n"
        "Selector:               k8s-app=kube-dns\n"
        "Replicas:               2 desired | 2 updated | 2 total | 2 available | 0 unavailable\n"
        "StrategyType:           RollingUpdate\n"
        "Events:                 <none>\n")
    facts = cluster_facts(analyzer.load({"session.txt": described}))
    assert (facts["workloads"]["unhealthy"], facts["workloads"]["unknown"]) == (0, 0)
    assert facts["workloads"]["rows"][0]["health"] == "ok"
    short = described.replace("2 available | 0 unavailable", "1 available | 1 unavailable")
    assert cluster_facts(analyzer.load({"session.txt": short}))["workloads"]["unhealthy"] == 1


def test_a_pod_seconds_old_being_created_is_no_unhealthy_component() -> None:
    facts = cluster_facts(analyzer.load({"pods.txt": K3D_PODS}))
    health = {r["name"]: r["health"] for r in facts["components"]["rows"]}
    assert health["helper-pod-create-pvc-58d0d178-8d64-4a13-81eb-677459af8be5"] == "unknown"
    assert health["metrics-server"] == "not healthy"  # crashlooping: not merely starting
    assert facts["components"]["unhealthy"] == 1


@needs_chromium
@pytest.mark.parametrize(("text", "cards"), [
    (DESCRIBE_NODE, ["0 of 1 nodes not Ready", "0 of 2 pods not running or not ready, 2 unknown"]),
    (DESCRIBE_NODE.split("Conditions:")[0] + "Events:              <none>\n",
     ["0 of 1 nodes not Ready, 1 unknown"]),
])
def test_headline_cards_in_chromium(tmp_path, text: str, cards: list[str]) -> None:
    source = tmp_path / "describe-node.txt"
    source.write_text(text, "utf-8")
    written = render_cluster_report(analyzer.load(str(source)), tmp_path / "out")
    page_path = next(p for p in written.files if p.name == "report.html")
    with launched() as browser:
        page, errors, attempted = open_guarded(browser, page_path.as_uri())
        try:
            assert errors == [] and attempted == []
            shown = [" ".join(t.split()) for t in page.eval_on_selector_all(
                "#wrong .card", "els => els.map(e => e.innerText)")]
            for card in cards:
                assert card in shown, shown
        finally:
            page.close()


# From kubernetes/kubernetes#72439 (github.com/kubernetes/kubernetes/issues/72439, the description),
# trimmed: `kubectl get pods --all-namespaces` only, so the dump holds pods and no controller.
PODS_ONLY = """\
NAMESPACE     NAME                                                       READY   STATUS              RESTARTS   AGE
default       nginx-deployment-5c689d88bb-5r966                          0/1     ContainerCreating   0          51m
kube-system   coredns-576cbf47c7-gqzq7                                   0/1     ContainerCreating   0          4h18m
kube-system   kube-flannel-ds-amd64-c8w9v                                0/1     CrashLoopBackOff    53         4h10m
"""


def test_a_dump_without_workloads_says_so_instead_of_0_of_0_healthy(tmp_path) -> None:
    cluster = analyzer.load({"pods.txt": PODS_ONLY})
    assert cluster_facts(cluster)["workloads"]["total"] == 0
    render_cluster_report(cluster, tmp_path, formats=("html",))
    markdown = (tmp_path / "report.md").read_text(encoding="utf-8")
    # the pods' names say controllers made them (a Deployment's two, a DaemonSet's one): the
    # dump lacks those controllers, it does not say the cluster runs none
    said = "- No workloads in the dump (the controllers of its 3 pods were not collected)"
    assert said in markdown and "Workloads not healthy: 0 of 0" not in markdown
    assert "- Pods not running or not ready: 3 of 3" in markdown
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert ('<b class="muted">0</b><span>workloads in the dump (the controllers of its 3 pods were '
            'not collected)</span>') in html
    # a bare pod is no controller's
    bare = analyzer.load({"pods.txt": "NAME   READY   STATUS    RESTARTS   AGE\ndebug  1/1     Running   0          5m\n"})
    render_cluster_report(bare, tmp_path / "bare", formats=("html",))
    assert "- No workloads in the dump\n" in (tmp_path / "bare" / "report.md").read_text(encoding="utf-8")
    assert "of 0 workloads not healthy" not in html
