"""The kubectl columns of `analyzer.printing`: rows per kind, as the API server's printer makes them."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

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

