"""The kubectl columns of `analyzer.printing`: rows per kind, as the API server's printer makes them."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from analyzer.printing.columns import PRINTERS
from analyzer.printing.resources import Resource
from analyzer.printing.tables import build_table, render_table
from analyzer.printing.timefmt import Clock
from analyzer.safeyaml import load_yaml

CLOCK = Clock(datetime(2024, 9, 15, 12, 0, tzinfo=UTC))
CASES = load_yaml((Path(__file__).parent / "data" / "pod_rows.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_pod_rows(case: dict) -> None:
    pod = {"metadata": {"name": "p", "creationTimestamp": "2024-09-15T11:00:00Z", **case["pod"].get("metadata", {})},
           **{k: v for k, v in case["pod"].items() if k != "metadata"}}
    row = PRINTERS[("", "Pod")].row(pod, CLOCK)
    assert row[1:4] == case["row"]
    assert row[4] == "60m"


def test_node_rows() -> None:
    node = {"metadata": {"name": "n1", "creationTimestamp": "2024-09-01T12:00:00Z",
                         "labels": {"node-role.kubernetes.io/control-plane": "", "kubernetes.io/role": "master"}},
            "spec": {"unschedulable": True},
            "status": {"conditions": [{"type": "Ready", "status": "Unknown"}],
                       "addresses": [{"type": "InternalIP", "address": "10.0.0.4"}],
                       "nodeInfo": {"kubeletVersion": "v1.29.7"}}}
    row = PRINTERS[("", "Node")].row(node, CLOCK)
    assert row[:5] == ["n1", "NotReady,SchedulingDisabled", "control-plane,master", "14d", "v1.29.7"]
    assert row[5:7] == ["10.0.0.4", "<none>"] and row[7] == "<unknown>"


@pytest.mark.parametrize(("spec", "status", "external", "ports"), [
    ({"type": "ClusterIP", "clusterIP": "10.0.0.1", "ports": [{"port": 443, "protocol": "TCP"}]}, {}, "<none>", "443/TCP"),
    ({"type": "LoadBalancer", "clusterIPs": ["10.0.0.2"], "ports": [{"port": 80, "nodePort": 31000}]}, {}, "<pending>",
     "80:31000/TCP"),
    ({"type": "LoadBalancer", "ports": []}, {"loadBalancer": {"ingress": [{"hostname": "a.elb.amazonaws.com"}]}},
     "a.elb.amazonaws.com", "<none>"),
    ({"type": "ExternalName", "externalName": "db.example.com"}, {}, "db.example.com", "<none>"),
])
def test_service_rows(spec: dict, status: dict, external: str, ports: str) -> None:
    row = PRINTERS[("", "Service")].row({"metadata": {"name": "s"}, "spec": spec, "status": status}, CLOCK)
    assert row[3] == external and row[4] == ports


def test_job_and_event_rows() -> None:
    job = {"metadata": {"name": "j"}, "spec": {"completions": 3},
           "status": {"succeeded": 3, "startTime": "2024-09-15T11:00:00Z", "completionTime": "2024-09-15T11:02:05Z",
                      "conditions": [{"type": "Complete", "status": "True"}]}}
    assert PRINTERS[("batch", "Job")].row(job, CLOCK)[1:4] == ["Complete", "3/3", "2m5s"]
    event = {"metadata": {"name": "e1"}, "type": "Warning", "reason": "BackOff", "count": 58,
             "firstTimestamp": "2024-09-15T10:57:00Z", "lastTimestamp": "2024-09-15T11:59:29Z",
             "involvedObject": {"kind": "Pod", "name": "cart-1", "fieldPath": "spec.containers{cart}"},
             "source": {"component": "kubelet", "host": "n1"}, "message": "Back-off restarting\n"}
    assert PRINTERS[("", "Event")].row(event, CLOCK) == [
        "31s", "Warning", "BackOff", "pod/cart-1", "spec.containers{cart}", "kubelet, n1", "Back-off restarting",
        "63m", 58, "e1"]


def test_rendered_like_kubectl() -> None:
    res = Resource(kind="Deployment", plural="deployments", group="apps", version="v1", namespaced=True)
    bodies = [{"metadata": {"name": "web", "namespace": "shop", "creationTimestamp": "2024-09-06T06:03:00Z"},
               "spec": {"replicas": 2}, "status": {"readyReplicas": 1, "updatedReplicas": 2, "availableReplicas": 1}}]
    text = render_table(build_table(res, bodies, CLOCK), namespace_column=True)
    assert text == ("NAMESPACE   NAME   READY   UP-TO-DATE   AVAILABLE   AGE\n"
                    "shop        web    1/2     2            1           9d\n")
    named = render_table(build_table(res, bodies, CLOCK), wide=True, kind_prefix="deployment.apps", headers=False)
    assert named.startswith("deployment.apps/web   1/2")


def test_custom_resource_printer_columns() -> None:
    # Shaped like cert-manager's Certificate CRD (its printer columns), written for this test.
    crd = {"spec": {"group": "cert-manager.io", "names": {"kind": "Certificate", "plural": "certificates"},
                    "scope": "Namespaced", "versions": [{"name": "v1", "served": True, "storage": True,
                    "additionalPrinterColumns": [
                        {"name": "Ready", "type": "string", "jsonPath": '.status.conditions[?(@.type=="Ready")].status'},
                        {"name": "Secret", "type": "string", "jsonPath": ".spec.secretName"},
                        {"name": "Issuer", "type": "string", "jsonPath": ".spec.issuerRef.name", "priority": 1},
                        {"name": "Renewals", "type": "integer", "jsonPath": ".status.renewals"},
                        {"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"}]}]}}
    res = Resource(kind="Certificate", plural="certificates", group="cert-manager.io", version="v1",
                   namespaced=True, builtin=False, crd=crd)
    body = {"metadata": {"name": "tls", "creationTimestamp": "2024-09-14T12:00:00Z"},
            "spec": {"secretName": "tls-secret", "issuerRef": {"name": "letsencrypt"}},
            "status": {"conditions": [{"type": "Ready", "status": "True"}], "renewals": 2.0}}
    table = build_table(res, [body], CLOCK)
    assert [c.name for c in table.columns] == ["Name", "Ready", "Secret", "Issuer", "Renewals", "Age"]
    assert table.rows[0] == ["tls", "True", "tls-secret", "letsencrypt", 2, "24h"]
    assert render_table(table).splitlines()[0].split() == ["NAME", "READY", "SECRET", "RENEWALS", "AGE"]
    missing = build_table(res, [{"metadata": {"name": "new"}}], CLOCK)
    assert missing.rows[0][1:5] == [None, None, None, None]


def test_a_get_all_row_prints_its_own_name_not_the_pasted_prefix() -> None:
    # The cells of a DaemonSet row read from `kubectl get all --namespace kube-system` on OKE (an
    # "OKE on OCI Workshop" lab page, see tests/ingest/text/test_tables_text.py): `get all`
    # printed its NAME as `daemonset.apps/proxymux-client`; `kda get ds` prints `proxymux-client`
    # and `kda get ds,svc` adds the prefix once.
    res = Resource(kind="DaemonSet", plural="daemonsets", group="apps", version="v1", namespaced=True)
    body = {"metadata": {"name": "proxymux-client", "namespace": "kube-system"},
            "status": {"desiredNumberScheduled": 2},
            "x-kda-text": {"columns": {"NAME": "daemonset.apps/proxymux-client", "DESIRED": "2",
                                       "AGE": "3d23h"}}}
    table = build_table(res, [body], CLOCK)
    assert table.rows[0][0] == "proxymux-client" and "3d23h" in table.rows[0]
    prefixed = render_table(table, kind_prefix="daemonset.apps", headers=False)
    assert prefixed.startswith("daemonset.apps/proxymux-client ")


# A ClusterOperator as an insights archive holds it, without its CRD (trimmed from realdata
# openshift/insights-operator-archive-sample config/clusteroperator/etcd.json): the operator's own
# version is the last of its versions, the Available message is set on a healthy operator.
ETCD_OPERATOR = {
    "apiVersion": "config.openshift.io/v1", "kind": "ClusterOperator",
    "metadata": {"name": "etcd", "creationTimestamp": "2021-07-07T11:02:54Z"},
    "status": {"conditions": [
        {"type": "Degraded", "status": "False", "lastTransitionTime": "2021-07-07T11:26:28Z",
         "message": "NodeControllerDegraded: All master nodes are ready\nEtcdMembersDegraded: No unhealthy members found"},
        {"type": "Progressing", "status": "False", "lastTransitionTime": "2021-07-07T11:28:21Z",
         "message": "NodeInstallerProgressing: 1 nodes are at revision 2"},
        {"type": "Available", "status": "True", "lastTransitionTime": "2021-07-07T11:28:21Z",
         "message": "StaticPodsAvailable: 1 nodes are active; 1 nodes are at revision 2"}],
        "versions": [{"name": "raw-internal", "version": "4.7.16"}, {"name": "operator", "version": "4.7.16"}]},
}


def test_cluster_operators_without_their_crd_print_openshifts_columns() -> None:
    """`oc get co` / `kubectl get co` of a must-gather or insights archive (no CRD in it) print
    VERSION AVAILABLE PROGRESSING DEGRADED SINCE MESSAGE, not NAME and AGE."""
    import copy

    from analyzer.printing.resources import known_resources

    res = Resource("ClusterOperator", "clusteroperators", "config.openshift.io", "v1", False, builtin=False,
                   crd=known_resources()[("config.openshift.io", "ClusterOperator")])
    clock = Clock(datetime(2021, 7, 12, 11, 28, 21, tzinfo=UTC))
    # the authentication operator of okd#1470 (its Available message as `oc get co` printed it)
    auth = copy.deepcopy(ETCD_OPERATOR)
    auth["metadata"]["name"] = "authentication"
    auth["status"]["conditions"] = [
        {"type": "Degraded", "status": "True", "lastTransitionTime": "2021-07-12T10:57:21Z",
         "message": "OAuthServerRouteEndpointAccessibleControllerDegraded: Get \"https://oauth-openshift.apps.tanhung.okd.local/healthz\": EOF"},
        {"type": "Available", "status": "False", "lastTransitionTime": "2021-07-12T10:57:21Z",
         "message": "OAuthServerRouteEndpointAccessibleControllerAvailable: Get \"https://oauth-openshift.apps.tanhung.okd.local/healthz\": EOF"}]
    text = render_table(build_table(res, [auth, ETCD_OPERATOR], clock)).splitlines()
    assert text[0].split() == ["NAME", "VERSION", "AVAILABLE", "PROGRESSING", "DEGRADED", "SINCE", "MESSAGE"]
    auth_cells = build_table(res, [auth], clock).rows[0]
    assert auth_cells == ["authentication", "4.7.16", "False", None, "True", "31m",
                          "OAuthServerRouteEndpointAccessibleControllerAvailable: Get \"https://oauth-openshift.apps.tanhung.okd.local/healthz\": EOF"]
    # a healthy operator: its messages are not printed
    assert build_table(res, [ETCD_OPERATOR], clock).rows[0] == ["etcd", "4.7.16", "True", "False", "False", "5d", None]
    # Available but Degraded: the Degraded message (a storage operator `oc get clusteroperator
    # storage` printed so on an OKD 4.21 UPI install)
    storage = copy.deepcopy(ETCD_OPERATOR)
    storage["status"]["conditions"][0].update(status="True", message=(
        "VSphereCSIDriverOperatorCRDegraded: VMwareVSphereOperatorCheckDegraded: node master1.ilba.cat is not a "
        "vSphere node: providerID \"\" does not have the expected vSphere prefix \"vsphere://\""))
    assert build_table(res, [storage], clock).rows[0][4:] == ["True", "5d", storage["status"]["conditions"][0]["message"]]


def _pasted_cells(text: str, kind: str, plural: str, group: str, namespaced: bool) -> list[dict[str, str]]:
    from analyzer.ingest.text.parse import parse_kubectl_text

    res = Resource(kind=kind, plural=plural, group=group, version="v1", namespaced=namespaced)
    table = build_table(res, [o.body for o in parse_kubectl_text(text, "paste.txt").objects], CLOCK)
    return [dict(zip((c.name.upper() for c in table.columns), row, strict=True)) for row in table.rows]


def test_a_column_the_pasted_row_did_not_show_is_unknown_not_made_up() -> None:
    # Job rows in kubectl 1.12-1.27's layout (kubernetes/kubernetes#65463): no STATUS column, so
    # `pi` at 1/1 is not `Running`; its wide columns were never shown either.
    jobs = _pasted_cells("$ kubectl get jobs\n"
                         "NAME      COMPLETIONS   DURATION   AGE\n"
                         "pi        1/1           12s        2m\n", "Job", "jobs", "batch", True)
    assert jobs[0]["STATUS"] == "<unknown>" and jobs[0]["COMPLETIONS"] == "1/1"
    assert jobs[0]["SELECTOR"] == "<unknown>" and jobs[0]["DURATION"] == "12s"
    # kubectl 1.11's layout shows the completions under other headers: 0 of 1 stays 0/1
    older = _pasted_cells("$ kubectl get jobs\n"
                          "NAME   DESIRED   SUCCESSFUL   AGE\n"
                          "pi     1         0            2m\n", "Job", "jobs", "batch", True)
    assert older[0]["COMPLETIONS"] == "0/1"
    # a Deployment row in kubectl 1.9's layout (harness/developer-hub docs/first-gen/continuous-
    # delivery/helm-deployment/2-connectors-providers-and-helm-setup.md, GKE's Cloud Shell): its
    # DESIRED CURRENT UP-TO-DATE AVAILABLE give no ready count, so READY is not `0/1` beside
    # AVAILABLE 1; what it gave stays
    deploy = _pasted_cells("$ kubectl get deploy tiller-deploy -n kube-system\n"
                           "NAME                                  DESIRED   CURRENT   UP-TO-DATE   AVAILABLE   AGE\n"
                           "deployment.extensions/tiller-deploy   1         1         1            1           20s\n",
                           "Deployment", "deployments", "apps", True)
    assert (deploy[0]["READY"], deploy[0]["UP-TO-DATE"], deploy[0]["AVAILABLE"]) == ("<unknown>", "1", "1")
    # a pod row cut to its first columns under `| grep ebs` (nebari-dev/nebari#3213): its
    # restarts were not shown, so not `0`
    pods = _pasted_cells("$ kubectl get pods -n kube-system | grep ebs\n"
                         "ebs-csi-controller-xxxxx   1/6   CrashLoopBackOff\n", "Pod", "pods", "", True)
    assert pods[0]["STATUS"] == "CrashLoopBackOff" and pods[0]["RESTARTS"] == "<unknown>"
    # `kubectl get nodes` pasted without ROLES: not `<none>`; a ROLES `<none>` the row showed stays
    nodes = _pasted_cells("$ kubectl get nodes\n"
                          "NAME     STATUS     AGE\n"
                          "node-1   NotReady   10d\n", "Node", "nodes", "", False)
    assert nodes[0]["ROLES"] == "<unknown>" and nodes[0]["STATUS"] == "NotReady"
    shown = _pasted_cells("$ kubectl get nodes\n"
                          "NAME     STATUS   ROLES    AGE   VERSION\n"
                          "node-1   Ready    <none>   10d   v1.29.0\n", "Node", "nodes", "", False)
    assert shown[0]["ROLES"] == "<none>" and shown[0]["VERSION"] == "v1.29.0"



def _loaded_cells(text: str, kind: str, plural: str, group: str) -> list[dict[str, Any]]:
    """The cells `kda get` prints of one kind's objects read (and merged) from a paste."""
    import analyzer

    res = Resource(kind=kind, plural=plural, group=group, version="v1", namespaced=True)
    bodies = [o.body() for o in analyzer.load({"paste.txt": text}).objects_of(kind)]
    table = build_table(res, bodies, CLOCK)
    return [dict(zip((c.name.upper() for c in table.columns), row, strict=True)) for row in table.rows]


def _described_case(name: str) -> str:
    cases = load_yaml((Path(__file__).parents[1] / "ingest" / "text" / "cases" / "describes.yaml").read_text())
    return next(case["text"] for case in cases if case["name"] == name)


def test_a_column_a_describe_did_not_state_is_unknown_not_made_up() -> None:
    # kubernetes/kubernetes#64500 (2018-05-30), rebuilt from the values its case in
    # tests/findings/cases/statefulset-unavailable.yaml quotes: a StatefulSet's describe prints
    # `3 desired | 3 total` and no ready count, so READY is not `0/3`
    neo4j = ("$ kubectl describe statefulset staging-neo4j -n staging-neo4j\n"
             "Name:               staging-neo4j\n"
             "Namespace:          staging-neo4j\n"
             "CreationTimestamp:  Wed, 30 May 2018 08:13:35 +0000\n"
             "Selector:           app=staging-neo4j,component=core\n"
             "Replicas:           3 desired | 3 total\n"
             "Pods Status:        3 Running / 0 Waiting / 0 Succeeded / 0 Failed\n")
    assert _loaded_cells(neo4j, "StatefulSet", "statefulsets", "apps")[0]["READY"] == "<unknown>"
    # a `kubectl get sts` row of it pasted after the describe shows READY: the row's cell is kept
    shown = _loaded_cells(neo4j + "$ kubectl get sts -n staging-neo4j\n"
                          "NAME            READY   AGE\n"
                          "staging-neo4j   2/3     5m\n", "StatefulSet", "statefulsets", "apps")
    assert shown[0]["READY"] == "2/3"
    # a `kubectl get ds` row, then the describe (a GPU DaemonSet lab's notes, find_string
    # "Number of Nodes Scheduled with Available Pods", trimmed): the describe states no ready
    # count, the row before it did
    gpu = ("k get ds gpu-monitor\n"
           "NAME          DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR   AGE\n"
           "gpu-monitor   2         2         1       2            2           gpu=true        89s\n\n"
           "k describe ds gpu-monitor\n"
           "Name:           gpu-monitor\n"
           "Selector:       app=gpu-monitor\n"
           "Node-Selector:  gpu=true\n"
           "Desired Number of Nodes Scheduled: 2\n"
           "Current Number of Nodes Scheduled: 2\n"
           "Number of Nodes Scheduled with Up-to-date Pods: 2\n"
           "Number of Nodes Scheduled with Available Pods: 1\n"
           "Number of Nodes Misscheduled: 0\n"
           "Pods Status:  2 Running / 0 Waiting / 0 Succeeded / 0 Failed\n"
           "Events:        <none>\n")
    ds = _loaded_cells(gpu, "DaemonSet", "daemonsets", "apps")[0]
    assert (ds["READY"], ds["AVAILABLE"]) == ("1", 1)  # the row's ready count, the describe's available
    ds = _loaded_cells(gpu[gpu.index("k describe"):], "DaemonSet", "daemonsets", "apps")[0]
    assert (ds["DESIRED"], ds["READY"], ds["AVAILABLE"]) == (2, "<unknown>", 1)
    # a Deployment's `1 desired | 1 updated | 1 total | 0 available | 1 unavailable`
    # (tests/ingest/data/describe-deployment-29m.txt): its stated counts printed, its ready not
    deployment = (Path(__file__).parents[1] / "ingest" / "data" / "describe-deployment-29m.txt").read_text()
    cells = _loaded_cells(deployment, "Deployment", "deployments", "apps")[0]
    assert (cells["READY"], cells["UP-TO-DATE"], cells["AVAILABLE"]) == ("<unknown>", 1, 0)
    # a Job's describe prints no conditions (robusta-dev/holmesgpt's kind cluster): its STATUS is
    # not `Running`; its `0 Active / 0 Succeeded / 5 Failed` pods make COMPLETIONS 0/5
    job = _loaded_cells(_described_case("job with its backoff limit and failed pods"), "Job", "jobs", "batch")
    assert (job[0]["STATUS"], job[0]["COMPLETIONS"]) == ("<unknown>", "0/5")
    # a CronJob's describe prints no time zone (badtuxx/DescomplicandoKubernetes): not `<none>`
    cron = _loaded_cells("$ kubectl describe cronjobs.batch giropops-cron\n"
                         + _described_case("cronjob told from a job by its schedule"),
                         "CronJob", "cronjobs", "batch")
    assert (cron[0]["SCHEDULE"], cron[0]["TIMEZONE"]) == ("*/1 * * * *", "<unknown>")
    # a pod in a node describe's Non-terminated Pods names no container: neither its ready
    # count nor its restarts are known; an unscheduled pod's describe shows its one container
    # with no State, which kubectl's row prints as 0/1 and 0 restarts
    pods = _loaded_cells(_described_case("cordoned node with taints, pod CIDRs and its pods"), "Pod", "pods", "")
    assert (pods[0]["READY"], pods[0]["RESTARTS"]) == ("<unknown>", "<unknown>")
    two = _loaded_cells(_described_case("two pods in one describe, init containers, env references, terminating"),
                        "Pod", "pods", "")
    assert [(p["NAME"], p["READY"], p["RESTARTS"]) for p in two] == [("web-0", "1/1", "0"), ("web-1", "0/1", "0")]


def test_a_described_object_being_deleted_prints_terminating() -> None:
    # kubectl prints `Status: Terminating (lasts 2m)` in place of a pod's or claim's phase: its
    # STATUS is Terminating, as `kubectl get` printed it, not empty
    two = _loaded_cells(_described_case("two pods in one describe, init containers, env references, terminating"),
                        "Pod", "pods", "")
    assert [(p["NAME"], p["STATUS"]) for p in two] == [("web-0", "Terminating"), ("web-1", "Pending")]
    claim = _loaded_cells(_described_case("persistentvolumeclaim terminating, its deletion time ahead"),
                          "PersistentVolumeClaim", "persistentvolumeclaims", "")
    assert claim[0]["STATUS"] == "Terminating"


def test_a_described_pod_being_deleted_is_served_with_its_deletion_time() -> None:
    # the capture time less the describe's `lasts`, so that kubectl and `kda describe` print
    # `Terminating (lasts 24s)` again; where no capture time is known, none is made up
    import analyzer
    from analyzer.printing.describe import describe
    from analyzer.printing.store import DumpStore

    text = _described_case("pod terminating, how long past its deletion time")
    cluster = analyzer.load({"describe.txt": text})
    res = Resource(kind="Pod", plural="pods", group="", version="v1", namespaced=True)
    [pod] = cluster.objects_of("Pod")
    known = DumpStore(cluster.ingest, capture_time=datetime(2025, 3, 21, 1, 41, 4, tzinfo=UTC))
    meta = known.body(res, pod)["metadata"]
    assert (meta["deletionTimestamp"], meta["deletionGracePeriodSeconds"]) == ("2025-03-21T01:40:40Z", 30)
    assert "Terminating (lasts 24s)" in describe(known, res, known.body(res, pod))
    # (the describe cut to two lines in tests/findings/cases/pod-stuck-terminating.yaml: no time)
    cut = analyzer.load({"case.md": "$ kubectl describe pod mariadb-0 -n database\n"
                                    "Node:         k8s-worker2.lab.local/10.0.54.11\n"
                                    "Status:       Terminating (lasts 18m)\n"})
    assert cut.capture_time is None
    untimed = DumpStore.from_cluster(cut)
    [pod] = cut.objects_of("Pod")
    assert "deletionTimestamp" not in untimed.body(res, pod)["metadata"]


def test_a_described_volume_prints_its_columns() -> None:
    # a PersistentVolume's describe read into its fields (before: CAPACITY 0, no STATUS, no CLAIM)
    pv = _loaded_cells(_described_case("persistentvolume bound, its CSI source"), "PersistentVolume",
                       "persistentvolumes", "")
    assert [pv[0][c] for c in ("CAPACITY", "ACCESS MODES", "RECLAIM POLICY", "STATUS", "CLAIM", "STORAGECLASS")] == [
        "5Gi", "RWO", "Delete", "Bound", "default/example-vanilla-block-zone-pvc", "example-vanilla-block-zone-sc"]


def test_endpoints_pasted_blank_print_blank_not_none() -> None:
    # luksa/kubernetes-in-action-2nd-edition#15 (kubeadm 1.22.6, 2022-02-08), trimmed: quiz's
    # ENDPOINTS is blank (addresses, none ready), not `<none>` (no subsets): printed again as shown
    rows = _loaded_cells("root@k8s-m:~# kubectl get ep\n"
                         "NAME         ENDPOINTS             AGE\n"
                         "kubernetes   192.168.100.10:6443   74d\n"
                         "quiz                               42m\n", "Endpoints", "endpoints", "")
    assert [(r["NAME"], r["ENDPOINTS"]) for r in rows] == [("kubernetes", "192.168.100.10:6443"), ("quiz", "")]
    # a `<none>` row stays `<none>`
    none = _loaded_cells("$ kubectl get ep\nNAME   ENDPOINTS   AGE\nweb    <none>      4m\n",
                         "Endpoints", "endpoints", "")
    assert none[0]["ENDPOINTS"] == "<none>"


def test_a_manifest_prints_unknown_where_only_a_status_could_say() -> None:
    # lerndevops/helm-charts 05-create-helm-charts/07-flow-control/if-else.md (trimmed): the
    # Deployment of `helm install iec1-rel . --dry-run`, what was asked for (2 replicas), no status
    rendered = ("apiVersion: apps/v1\n"
                "kind: Deployment\n"
                "metadata:\n"
                "  name: iec1-rel-app\n"
                "spec:\n"
                "  replicas: 2\n"
                "  selector:\n"
                "    matchLabels:\n"
                "      app: iec\n"
                "  template:\n"
                "    metadata:\n"
                "      labels:\n"
                "        app: iec\n"
                "    spec:\n"
                "      containers:\n"
                "      - name: sampleapp\n"
                "        image: docker.io/lerndevops/samples:pyapp-v2\n")
    [cells] = _loaded_cells(rendered, "Deployment", "deployments", "apps")
    assert (cells["READY"], cells["UP-TO-DATE"], cells["AVAILABLE"]) == ("<unknown>",) * 3
    assert cells["IMAGES"] == "docker.io/lerndevops/samples:pyapp-v2"  # the spec is what it says
    # the same Deployment as the API server returned it, none of its pods ready yet: its status
    # omits the zero counts, which are 0, not unknown
    served = rendered.replace("  name: iec1-rel-app\n", "  name: iec1-rel-app\n  namespace: default\n"
                              "  creationTimestamp: \"2023-10-10T20:14:17Z\"\n  uid: 5b1f0c9e\n") \
        + "status:\n  replicas: 2\n  unavailableReplicas: 2\n"
    [cells] = _loaded_cells(served, "Deployment", "deployments", "apps")
    assert (cells["READY"], cells["UP-TO-DATE"], cells["AVAILABLE"]) == ("0/2", 0, 0)


def test_add_on_resources_without_their_crds_print_their_columns() -> None:
    """An Argo CD Application, a cert-manager Certificate and a GKE ManagedCertificate in a dump
    without their CRDs print as their CRDs' columns do (as pastes of them show), not NAME and AGE."""
    from analyzer.printing.resources import known_resources

    clock = Clock(datetime(2022, 6, 4, 10, 1, 6, tzinfo=UTC))
    # pluhin/sa.it-academy.by Aleksei_Alekseichik/14.K8s.App.Deployment/README.md, trimmed
    app = {"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
           "metadata": {"name": "jen", "namespace": "argocd", "creationTimestamp": "2022-06-04T09:43:56Z"},
           "spec": {"project": "default"},
           "status": {"health": {"status": "Healthy"}, "sync": {"revision": "0.1.0", "status": "OutOfSync"}}}
    res = Resource("Application", "applications", "argoproj.io", "v1alpha1", True, builtin=False,
                   crd=known_resources()[("argoproj.io", "Application")])
    table = build_table(res, [app], clock)
    assert render_table(table).splitlines()[0].split() == ["NAME", "SYNC", "STATUS", "HEALTH", "STATUS"]
    assert table.rows[0] == ["jen", "OutOfSync", "Healthy", "0.1.0", "default"]
    assert render_table(table, wide=True).splitlines()[0].split()[-2:] == ["REVISION", "PROJECT"]
    # cert-manager/cert-manager#3230's certificate as the API holds it
    cert = {"apiVersion": "cert-manager.io/v1", "kind": "Certificate",
            "metadata": {"name": "re-checkout-tls", "namespace": "shop", "creationTimestamp": "2022-06-03T16:01:06Z"},
            "spec": {"secretName": "re-checkout-tls", "issuerRef": {"name": "letsencrypt-prod"}},
            "status": {"conditions": [{"type": "Ready", "status": "False",
                                       "message": "Issuing certificate as Secret does not exist"}]}}
    res = Resource("Certificate", "certificates", "cert-manager.io", "v1", True, builtin=False,
                   crd=known_resources()[("cert-manager.io", "Certificate")])
    assert build_table(res, [cert], clock).rows[0] == [
        "re-checkout-tls", "False", "re-checkout-tls", "letsencrypt-prod",
        "Issuing certificate as Secret does not exist", "18h"]
    # kubernetes/k8s.io#2505: `kubectl get managedcertificates -n prow` printed NAME AGE STATUS
    mcrt = {"apiVersion": "networking.gke.io/v1", "kind": "ManagedCertificate",
            "metadata": {"name": "k8s-infra-prow-k8s-io", "namespace": "prow", "creationTimestamp": "2022-06-04T09:17:06Z"},
            "status": {"certificateStatus": "Active"}}
    res = Resource("ManagedCertificate", "managedcertificates", "networking.gke.io", "v1", True, builtin=False,
                   crd=known_resources()[("networking.gke.io", "ManagedCertificate")])
    assert build_table(res, [mcrt], clock).rows[0] == ["k8s-infra-prow-k8s-io", "44m", "Active"]


def test_a_pod_with_only_its_pod_ip_shows_it_wide() -> None:
    """A 1.0 describe states `IP:` alone (no IPs list): the API server serves it as podIPs too,
    so `get -o wide` shows it, where it had printed <none>."""
    old = _described_case("describe events of kubectl 1.0, dated, without a Type column")
    cells = _loaded_cells(old, "Pod", "pods", "")[0]
    assert cells["IP"] == "10.244.1.4"
    row = PRINTERS[("", "Pod")].row({"metadata": {"name": "p"}, "status": {"podIP": "10.1.0.4"}}, CLOCK)
    assert "10.1.0.4" in row


def test_machine_config_pools_without_their_crd_print_the_crds_columns() -> None:
    """`kda get mcp` of a must-gather (its pools, never their CRD) resolves the short name and
    prints the columns of openshift/api machineconfiguration/v1/0000_80_machineconfigpool.crd.yaml,
    not NAME and AGE (before: 'the dump has no resource type "mcp"'). The pool is the worker pool
    of openshift/must-gather-clean test/files/must-gather-aws.tar.xz (tests/ingest/data)."""
    from typer.testing import CliRunner

    from analyzer.cli import app

    dump = Path(__file__).parents[1] / "ingest" / "data" / "must-gather-aws"
    result = CliRunner().invoke(app, ["get", "mcp", str(dump)])
    assert result.exit_code == 0, result.output
    header, row = result.output.splitlines()
    assert header.split() == ["NAME", "CONFIG", "UPDATED", "UPDATING", "DEGRADED", "MACHINECOUNT",
                              "READYMACHINECOUNT", "UPDATEDMACHINECOUNT", "DEGRADEDMACHINECOUNT", "AGE"]
    assert row.split()[:9] == ["worker", "rendered-worker-99c838efd10a74f5dad4aed51982467c",
                               "True", "False", "False", "3", "3", "3", "0"]
