"""Each table kind kubectl prints becomes objects of that kind (cases/tables.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from analyzer.ingest.text import parse_kubectl_text
from ingest.text.expect import check_case

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "tables.yaml").read_text("utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_table(case: dict) -> None:
    check_case(parse_kubectl_text(case["text"], "case.txt"), case)


# Trimmed from k3s-io/k3s#2350 (github.com/k3s-io/k3s/issues/2350, its description): the reporter
# turned `kubectl get pods -n kube-system` into a markdown pipe table, cells padded unevenly.
_K3S_2350 = """kubectl get pods -n kube-system
| NAME |    READY |  STATUS  |           RESTARTS |  AGE|
|--|--|--|--|--|
|helm-install-traefik-qr2bd        |       0/1  |   Completed   |       0   |       4d23h|
|coredns-7944c66d8d-qwxjf      |           0/1  |   Running    |        0    |      17m|
|local-path-provisioner-6d59f47c7-4hvf2 |  0/1  |   CrashLoopBackOff |  7     |     18m|
"""


def test_a_markdown_pipe_table_is_read_as_the_kubectl_table_it_was() -> None:
    from analyzer.ingest import ingest_text

    r = ingest_text(_K3S_2350, "k3s-2350.md")
    assert r.accounting_holds() and not r.rejections
    pods = {o.name: o.body() for o in r.objects}
    assert sorted(pods) == ["coredns-7944c66d8d-qwxjf", "helm-install-traefik-qr2bd",
                            "local-path-provisioner-6d59f47c7-4hvf2"]
    crashing = pods["local-path-provisioner-6d59f47c7-4hvf2"]
    assert crashing["x-kda-text"]["status"] == "CrashLoopBackOff" and crashing["x-kda-text"]["restarts"] == 7
    assert [o.provenance.line for o in r.objects] == [4, 5, 6]  # each row at its own line


def test_a_pipe_table_of_no_kubectl_kind_stays_prose() -> None:
    text = "| step | result |\n|---|---|\n| install | ok |\n"
    assert not parse_kubectl_text(text, "notes.md").objects


# Trimmed from a public "Container Engine for Kubernetes (OKE) on OCI Workshop" lab page (its
# Kubernetes-dashboard step, `kubectl get all --namespace kube-system` on a 2-node OKE v1.16.8
# cluster; a markdown file of the public code index, the lab of CloudTestDrive's Helidon/OKE
# workshop): the page it was copied from rendered `<none>` as an HTML tag, so the kube-dns row
# lost its EXTERNAL-IP and two DaemonSet rows their NODE SELECTOR, and what followed moved left.
_OKE_WORKSHOP_GET_ALL = """kubectl get all --namespace kube-system
NAME                           TYPE           CLUSTER-IP     EXTERNAL-IP       PORT(S)                  AGE
service/kube-dns               ClusterIP      10.96.5.5                  53/UDP,53/TCP,9153/TCP   3d23h
service/kubernetes-dashboard   LoadBalancer   10.96.104.87   158.101.177.127   443:32169/TCP            66s

NAME                                          DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR                       AGE
daemonset.apps/kube-flannel-ds                2         2         2       2            2           beta.kubernetes.io/arch=amd64       3d23h
daemonset.apps/nvidia-gpu-device-plugin       0         0         0       0            0                                         3d23h
daemonset.apps/nvidia-gpu-device-plugin-1-8   0         0         0       0            0                                         3d23h
daemonset.apps/proxymux-client                2         2         2       2            2           node.info.ds_proxymux_client=true   3d23h
"""


def test_rows_that_lost_their_none_cells_to_a_web_page_are_read_whole() -> None:
    from analyzer.ingest import ingest_text

    r = ingest_text(_OKE_WORKSHOP_GET_ALL, "oke-workshop.md")
    assert r.accounting_holds() and not r.rejections
    by_name = {(o.kind, o.name): o.body() for o in r.objects}
    assert sorted(by_name) == [
        ("DaemonSet", "kube-flannel-ds"), ("DaemonSet", "nvidia-gpu-device-plugin"),
        ("DaemonSet", "nvidia-gpu-device-plugin-1-8"), ("DaemonSet", "proxymux-client"),
        ("Service", "kube-dns"), ("Service", "kubernetes-dashboard")]
    dns = by_name[("Service", "kube-dns")]
    assert [p["port"] for p in dns["spec"]["ports"]] == [53, 53, 9153]  # PORT(S), not EXTERNAL-IP
    assert "status" not in dns and "externalIPs" not in dns["spec"]
    gpu = by_name[("DaemonSet", "nvidia-gpu-device-plugin")]
    assert gpu["status"]["desiredNumberScheduled"] == 0
    assert gpu["x-kda-text"]["columns"]["AGE"] == "3d23h"
    assert by_name[("DaemonSet", "proxymux-client")]["spec"]["template"]["spec"]["nodeSelector"] == {
        "node.info.ds_proxymux_client": "true"}


def test_a_row_no_layout_reads_is_rejected_and_the_rows_after_it_are_read() -> None:
    from analyzer.ingest import ingest_text

    # The OKE workshop's DaemonSet rows above, the nvidia one cut short by hand to stand for a
    # row no column layout reads (a paste edited by hand): before, it ended the table and the
    # rows after it were lost without a word.
    text = "\n".join(line if "nvidia-gpu-device-plugin-1-8" not in line else
                     "daemonset.apps/nvidia-gpu-device-plugin-1-8     0   0   0   3d23h"
                     for line in _OKE_WORKSHOP_GET_ALL.splitlines()[5:]) + "\n"
    r = ingest_text("kubectl get ds -n kube-system\n" + text, "oke-workshop.md")
    assert r.accounting_holds()
    assert sorted(o.name for o in r.objects) == ["kube-flannel-ds", "nvidia-gpu-device-plugin",
                                                 "proxymux-client"]
    [rejection] = r.rejections
    assert rejection.location == "line 5" and "fits none of its columns" in rejection.reason
    assert "nvidia-gpu-device-plugin-1-8" in rejection.reason


# From oracle-terraform-modules/terraform-oci-oke docs/src/guide/workers_drain.md (an OKE worker
# pool drained by the module): the pods left on the drained node, listed by a field selector,
# so the table has no NODE column.
_OKE_DRAINED_NODE = """kubectl get nodes -l oke.oraclecloud.com/pool.name=oke-vm-draining
NAME             STATUS                     ROLES   AGE   VERSION
10.200.220.157   Ready,SchedulingDisabled   node    24m   v1.26.2

kubectl get pods --all-namespaces --field-selector spec.nodeName=10.200.220.157
NAMESPACE     NAME                    READY   STATUS    RESTARTS   AGE
kube-system   csi-oci-node-99x74      1/1     Running   0          50m
kube-system   kube-flannel-ds-spvsp   1/1     Running   0          50m
kube-system   kube-proxy-6m2kk        1/1     Running   0          50m
kube-system   proxymux-client-2r6lk   1/1     Running   0          50m
"""


def test_pods_listed_by_a_node_field_selector_run_on_that_node() -> None:
    from analyzer.ingest import ingest_text

    r = ingest_text(_OKE_DRAINED_NODE, "workers_drain.md")
    pods = [o.body() for o in r.objects if o.kind == "Pod"]
    assert len(pods) == 4 and {p["spec"]["nodeName"] for p in pods} == {"10.200.220.157"}
    # an inequality selector says nothing a row can hold
    other = ingest_text(_OKE_DRAINED_NODE.replace("spec.nodeName=", "spec.nodeName!="), "x.md")
    assert all("nodeName" not in o.body().get("spec", {}) for o in other.objects if o.kind == "Pod")


# Trimmed from operate-first/apps#1352 (github.com/operate-first/apps/issues/1352, comment of
# 2021-11-23; OpenShift): `grep Evicted` took the header of a custom-columns listing away.
_OPERATE_FIRST_1352 = """$ oc get pods -A -o=custom-columns=NAME:.metadata.name,Namespace:.metadata.namespace,STATUS:.status.reason,NODE:.spec.nodeName,REASON:.status.message | grep Evicted

meteor-srgls-jupyterbook-5c96b588c6-hcxh4         aicoe-meteor                 Evicted   oct-03-09-compute   The node was low on resource: ephemeral-storage. Container meteor-srgls-jupyterbook was using 56Ki, which exceeds its request of 0.
apicurio-registry-mt-66b8f7b96b-5qhc5             apicurio-apicurio-registry   Evicted   oct-03-03-compute   The node was low on resource: ephemeral-storage. Container envoy was using 448Ki, which exceeds its request of 0.
"""


def test_custom_columns_rows_a_grep_left_without_their_header_are_read_by_the_commands_columns() -> None:
    parsed = parse_kubectl_text(_OPERATE_FIRST_1352, "operate-first-1352.md")
    assert parsed.rejections == []
    pod = parsed.find("Pod", "apicurio-registry-mt-66b8f7b96b-5qhc5")
    assert pod.body["metadata"]["namespace"] == "apicurio-apicurio-registry"
    assert pod.body["spec"]["nodeName"] == "oct-03-03-compute"
    assert pod.body["status"]["reason"] == "Evicted"
    assert pod.body["status"]["message"].startswith("The node was low on resource: ephemeral-storage.")
    assert len(parsed.objects) == 2


# Trimmed from FedericoGGM/mundoes 04_monitoreo/04_notes.md (EKS): a describe of a kube-system
# ServiceAccount, then event rows of `kubectl get events -n prometheus` pasted without their command
# and header. The describe's -n is not the rows' namespace: it prints no listing.
_MUNDOES_EVENTS = """ubuntu@ip-172-31-34-116:~$ kubectl describe serviceaccount ebs-csi-controller-sa -n kube-system
Name:                ebs-csi-controller-sa
Namespace:           kube-system
Labels:              app.kubernetes.io/managed-by=EKS
Events:              <none>



29m         Warning   ProvisioningFailed     persistentvolumeclaim/prometheus-server                   failed to provision volume with StorageClass "gp2": rpc error: code = Internal
14m         Warning   FailedScheduling       pod/prometheus-alertmanager-0                             0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims.
"""


def test_rows_pasted_after_a_describe_do_not_take_its_namespace() -> None:
    from analyzer.ingest import ingest_text

    r = ingest_text(_MUNDOES_EVENTS, "mundoes-notes.md")
    assert r.accounting_holds() and not r.rejections
    events = [o for o in r.objects if o.kind == "Event"]
    assert sorted(o.body()["involvedObject"]["name"] for o in events) == ["prometheus-alertmanager-0", "prometheus-server"]
    assert all(not o.namespace for o in events), [o.namespace for o in events]
    sa = next(o for o in r.objects if o.kind == "ServiceAccount")
    assert sa.namespace == "kube-system"


# From aws/karpenter-provider-aws#7493 (EKS, Karpenter 1.x, its description, trimmed): a listing of
# Karpenter's NodeClaims, a kind with no typed objects. Its rows were kept as a generic table
# that nothing shows: `kda inspect` said "0 objects" and not a word of the table.
_NODECLAIMS_7493 = """kubectl get nodeclaims.karpenter.sh
NAME                        TYPE              CAPACITY    ZONE          NODE   READY     AGE
atg-worker-ondemand-284k9   m7i-flex.large    on-demand   eu-north-1b          Unknown   7s
atg-worker-ondemand-5nv97   m7i-flex.xlarge   on-demand   eu-north-1a          Unknown   47s
"""


def test_a_table_of_a_kind_without_objects_is_named_where_it_was_kept() -> None:
    from analyzer.ingest import ingest_text

    r = ingest_text(_NODECLAIMS_7493, "issue.txt")
    assert not r.objects and len(r.generic_tables) == 1
    [(where, why)] = [(s.location, s.reason) for s in r.skipped]
    assert where == "line 2"
    assert why == ("a table of a kind with no objects ('kubectl get nodeclaims.karpenter.sh'): its 2 row(s) "
                   "kept as a generic table")


# A NetworkPolicy listing across namespaces (kubectl's columns; the rows made up): before, the
# table was kept with nothing said of it and coverage named NetworkPolicy "absent" (rev19 leftover).
_NETPOL_LISTING = """$ kubectl get networkpolicy -A
NAMESPACE     NAME                 POD-SELECTOR   AGE
default       deny-all             <none>         5d
shop          allow-frontend       app=web        5d
"""


def test_a_listing_of_a_kind_kept_as_a_table_says_so_and_counts_the_kind_collected() -> None:
    from analyzer.ingest import ingest_text

    r = ingest_text(_NETPOL_LISTING, "netpol.txt")
    assert r.accounting_holds() and not r.objects
    [table] = r.generic_tables
    assert table.kind == "NetworkPolicy" and len(table.rows) == 2
    [said] = r.skipped
    assert said.location == "line 2" and said.reason.startswith(
        "'kubectl get networkpolicy -A' lists NetworkPolicy by name (2 rows): kept as a table, not as objects")
    assert "NetworkPolicy" not in r.coverage_absent and r.coverage_unreadable == ["NetworkPolicy"]
    # collected, but none of its objects read: rules that need the objects stay not applicable
    assert not r.covers("NetworkPolicy")


def test_a_priorityclass_listing_is_no_proof_a_pods_class_is_missing() -> None:
    import analyzer
    from analyzer.findings import collect_findings

    text = ("$ kubectl get priorityclass\nNAME                      VALUE        GLOBAL-DEFAULT   AGE\n"
            "system-cluster-critical   2000000000   false            5d\n"
            "$ kubectl get pod web-1 -n shop -o yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: web-1\n"
            "  namespace: shop\nspec:\n  priorityClassName: high-priority\n  containers:\n  - name: web\n"
            "    image: nginx\n")
    cluster = analyzer.load({"issue.md": text})
    assert cluster.ingest.coverage_unreadable == ["PriorityClass"]
    assert [f.status for f in collect_findings(cluster) if f.rule == "ref-missing-priorityclass"] == ["not_applicable"]


# Trimmed from istio/istio#13840 ("Rolling upgrade breaks sidecar-injector webhook on EKS", its
# sixth comment, 2019, EKS 1.12 with kubectl 1.10-1.13): `kubectl get events`, whose NAME is the
# event's own name (`<object>.<hex>`), not the object's; the service's name was shortened by hand,
# so every cell after NAME stands a character left of its column, and the ReplicaSet's rows have
# no SUBOBJECT. Before: the FailedCreate rows were read one column off (SUBOBJECT "Warning",
# TYPE "FailedCreate", no message), the webhook's refusals lost, and each event was taken for
# an object of its own (ReplicaSet my-service-8c567f849.159c87245ec30f53).
_ISTIO_13840_EVENTS = """\
LAST SEEN   FIRST SEEN   COUNT     NAME                                           KIND         SUBOBJECT                         TYPE      REASON             SOURCE                                                 MESSAGE
13m         13m          1         my-service-8c567f849.159c87245ec30f53         ReplicaSet                                     Warning   FailedCreate       replicaset-controller                                  Error creating: Internal error occurred: failed calling admission webhook "sidecar-injector.istio.io": Post https://istio-sidecar-injector.istio-system.svc:443/inject?timeout=30s: context deadline exceeded
12m         17m          3         my-service-8c567f849.159c86ec7b4322e5         ReplicaSet                                     Warning   FailedCreate       replicaset-controller                                  Error creating: Internal error occurred: failed calling admission webhook "sidecar-injector.istio.io": Post https://istio-sidecar-injector.istio-system.svc:443/inject?timeout=30s: net/http: request canceled (Client.Timeout exceeded while awaiting headers)
2m          2m           1         my-service-8c567f849-qhhnp.159c87c1d730a176   Pod          spec.containers{my-service}      Normal    Started            kubelet, ip-10-215-123-63.us-west-2.compute.internal   Started container
2m          2m           1         my-service-8c567f849-qhhnp.159c87c1d8077777   Pod          spec.containers{istio-proxy}      Normal    Pulled             kubelet, ip-10-215-123-63.us-west-2.compute.internal   Container image "docker.io/istio/proxyv2:1.0.7" already present on machine
"""


def test_old_kubectl_events_are_read_by_their_own_names_with_blank_subobjects_off_by_a_character() -> None:
    from analyzer.ingest import ingest_text

    r = ingest_text(_ISTIO_13840_EVENTS, "istio-13840.md")
    assert r.accounting_holds() and not r.rejections
    events = {o.name: o.body() for o in r.objects}
    assert sorted(events) == [
        "my-service-8c567f849-qhhnp.159c87c1d730a176", "my-service-8c567f849-qhhnp.159c87c1d8077777",
        "my-service-8c567f849.159c86ec7b4322e5", "my-service-8c567f849.159c87245ec30f53"]
    refused = events["my-service-8c567f849.159c86ec7b4322e5"]
    assert refused["involvedObject"] == {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "my-service-8c567f849"}
    assert (refused["type"], refused["reason"], refused["count"]) == ("Warning", "FailedCreate", 3)
    assert refused["source"] == {"component": "replicaset-controller"}
    assert refused["message"].startswith('Error creating: Internal error occurred: failed calling admission webhook '
                                         '"sidecar-injector.istio.io"')
    started = events["my-service-8c567f849-qhhnp.159c87c1d730a176"]
    assert started["involvedObject"] == {"apiVersion": "v1", "kind": "Pod", "name": "my-service-8c567f849-qhhnp",
                                         "fieldPath": "spec.containers{my-service}"}
    assert (started["type"], started["reason"]) == ("Normal", "Started")


# Trimmed from cilium/cilium#24679 (its description: `kubectl get pods -n kube-system` on GKE),
# then its line breaks taken out in part, as a copy from a web page or a ticket's editor loses
# them: a break lost with nothing in its place, or one space.
_CILIUM_24679 = """\
NAME                                         READY   STATUS    RESTARTS     AGE
cilium-mt88m                                 1/1     Running   0            2d19h
cilium-node-init-ppjp5                       1/1     Running   0            2d19h
cilium-operator-7cd45877b-st5m5              1/1     Running   0            2d19h
cilium-rfl92                                 1/1     Running   0            2d19h
cilium-tlqvf                                 1/1     Running   0            2d19h
event-exporter-gke-5dc976447f-dp5q6          2/2     Running   0            8d
fluentbit-gke-4c9rj                          2/2     Running   0            8d
fluentbit-gke-56bq6                          2/2     Running   2 (8d ago)   8d
gke-metrics-agent-4xfcz                      1/1     Running   0            7d17h
"""


@pytest.mark.parametrize("lost_break", ["", " "])
def test_rows_whose_line_breaks_were_lost_are_each_read(lost_break: str) -> None:
    from analyzer.ingest import ingest_text

    lines = _CILIUM_24679.splitlines()
    glued = "\n".join([*lines[:3], lost_break.join(lines[3:6]), *lines[6:8], lost_break.join(lines[8:])]) + "\n"
    r = ingest_text("$ kubectl get pods -n kube-system\n" + glued, "pods.txt")
    assert r.accounting_holds() and not r.rejections
    pods = {o.name: o.body() for o in r.objects}
    assert sorted(pods) == sorted(line.split()[0] for line in lines[1:])  # each row, none lost
    assert pods["cilium-rfl92"]["status"]["phase"] == "Running"
    assert [o.provenance.line for o in r.objects if o.name.startswith("cilium-")] == [3, 4, 5, 5, 5]


def test_a_passage_of_glued_rows_that_does_not_split_is_rejected_by_its_line_and_the_rest_read() -> None:
    from analyzer.ingest import ingest_text

    lines = _CILIUM_24679.splitlines()
    # the second row lost its cells after the name: the passage reads as no rows
    broken = lines[4] + " " + lines[5].split()[0] + "   " + lines[6]
    r = ingest_text("\n".join(["$ kubectl get pods -n kube-system", *lines[:4], broken, *lines[7:]]) + "\n", "pods.txt")
    assert r.accounting_holds()
    assert len(r.objects) == len(lines) - 4  # the header and the three glued rows
    [rejection] = r.rejections
    assert rejection.location == "line 6" and "fits none of its columns" in rejection.reason
