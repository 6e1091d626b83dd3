"""The capture estimate: the newest time of every signal that carries time, the signal that gave
it, a confidence, and the periods of a stitched dump."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import REALDATA

import analyzer


def _load(files: dict[str, list[dict]]) -> analyzer.Cluster:
    return analyzer.load({name: yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": items})
                          for name, items in files.items()})


def _node(name: str, heartbeat: str) -> dict:
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "creationTimestamp": "2021-01-01T00:00:00Z"},
            "status": {"conditions": [{"type": "Ready", "status": "True", "lastHeartbeatTime": heartbeat,
                                       "lastTransitionTime": "2021-01-01T00:01:00Z"}]}}


def test_a_heartbeat_names_the_capture_with_high_confidence() -> None:
    # Hand-written: a Pod created 30 s before the node's last heartbeat
    cluster = _load({"a.yaml": [_node("n1", "2021-04-11T14:33:30Z"),
                                {"apiVersion": "v1", "kind": "Pod",
                                 "metadata": {"name": "p", "namespace": "d", "creationTimestamp": "2021-04-11T14:33:00Z"},
                                 "spec": {"containers": [{"name": "c", "image": "x:1"}]}}]})
    capture = cluster.capture
    assert capture.time.isoformat() == "2021-04-11T14:33:30+00:00" == cluster.capture_time.isoformat()
    assert (capture.signal, capture.confidence) == ("node heartbeat", "high")
    assert not capture.stitched
    assert cluster.summary()["capture"]["signal"] == "node heartbeat"


def test_container_states_leases_and_taints_count() -> None:
    # Hand-written: no heartbeat; a container finished later than anything else; a lease renewed.
    cluster = _load({"a.yaml": [
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "d", "creationTimestamp": "2021-04-01T00:00:00Z"},
         "spec": {"containers": [{"name": "c", "image": "x:1"}]},
         "status": {"containerStatuses": [{"name": "c", "restartCount": 1, "state": {"running": {"startedAt": "2021-04-02T00:00:10Z"}},
                                           "lastState": {"terminated": {"finishedAt": "2021-04-02T00:00:00Z"}}}]}},
        {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "n1", "namespace": "kube-node-lease"},
         "spec": {"renewTime": "2021-04-02T00:05:00.123456Z"}}]})
    capture = cluster.capture
    assert capture.time.isoformat() == "2021-04-02T00:05:00.123456+00:00"
    assert (capture.signal, capture.confidence) == ("lease renewal", "high")
    assert capture.signals["container state"] == "2021-04-02T00:00:10Z"


def test_a_stitched_dump_is_reported_with_both_periods_and_each_file_keeps_its_own_time() -> None:
    # Two captures of the same cluster three days apart, one per file (as in
    # realdata/kubeadm/cka-3c97-cluster-info-dump).
    cluster = _load({"first.yaml": [_node("a1", "2021-04-08T12:38:36Z"), _node("a2", "2021-04-08T12:38:00Z")],
                     "second.yaml": [_node("b1", "2021-04-11T14:33:30Z"), _node("b2", "2021-04-11T14:33:00Z")]})
    capture = cluster.capture
    assert capture.stitched and len(capture.periods) == 2
    assert [p.end.isoformat() for p in capture.periods] == ["2021-04-08T12:38:36+00:00", "2021-04-11T14:33:30+00:00"]
    assert "stitched" in capture.describe() and "first.yaml" in capture.describe()
    first = next(o for o in cluster.objects if o.name == "a1")
    assert capture.time_for(first.provenance.source).isoformat() == "2021-04-08T12:38:36+00:00"
    # Table ages too: a1 was created 2021-01-01 and captured 2021-04-08T12:38:36Z.
    ages = dict(zip(cluster.tables.nodes["name"], cluster.tables.nodes["age"], strict=True))
    assert str(ages["a1"]) == "97 days 12:38:36" and str(ages["b1"]) == "100 days 14:33:30"


def test_one_file_with_old_events_is_one_capture() -> None:
    # A cluster stopped for days keeps old events in one dump (realdata/minikube/bits-assignment-group11).
    events = [{"apiVersion": "v1", "kind": "Event", "metadata": {"name": f"e{i}", "namespace": "d"},
               "involvedObject": {"kind": "Pod", "name": "p", "namespace": "d"}, "lastTimestamp": ts}
              for i, ts in enumerate(["2022-07-25T22:25:00Z", "2022-07-25T22:53:26Z", "2022-07-31T05:18:00Z"])]
    cluster = _load({"dump.yaml": [_node("minikube", "2022-07-31T05:17:51Z"), *events]})
    assert not cluster.capture.stitched


@pytest.mark.skipif(not REALDATA.exists(), reason="no realdata beside the checkout")
def test_real_stitched_dumps() -> None:
    cka = analyzer.load(str(REALDATA / "kubeadm/cka-3c97-cluster-info-dump")).capture
    assert cka.stitched and cka.confidence == "high"
    # Node heartbeats of 2021 beside pods edited in 2024: the sample was re-used
    insights = analyzer.load(str(REALDATA / "openshift/insights-operator-archive-sample")).capture
    assert insights.stitched and insights.periods[0].end.year == 2021


def test_writes_years_after_every_status_are_a_later_period_not_the_capture() -> None:
    # As realdata/kubeadm/sbctl-kurl-supportbundle: heartbeats and container states of
    # 2022-04-12, and a few ConfigMaps re-created on 2024-02-17 when the fixture was refreshed.
    config = [{"apiVersion": "v1", "kind": "ConfigMap",
               "metadata": {"name": f"c{i}", "namespace": "default", "creationTimestamp": "2024-02-17T06:16:47Z"}}
              for i in range(2)]
    cluster = _load({"nodes.yaml": [_node("n1", "2022-04-12T00:56:06Z")], "configmaps.yaml": config})
    capture = cluster.capture
    assert capture.time.isoformat() == "2022-04-12T00:56:06+00:00"
    assert (capture.signal, capture.confidence) == ("node heartbeat", "high")
    assert capture.stitched and capture.periods[-1].start.year == 2024


def test_a_clock_in_year_3024_sets_no_capture_and_breaks_no_table() -> None:
    # Hand-written: one node's clock read 3024 (a bad RTC); a pod created "in 3024" as well.
    # Neither can be a moment of capture, and nanosecond tables cannot hold them: they read as
    # unknown times, never as an overflow traceback.
    cluster = _load({"a.yaml": [
        _node("n1", "2021-04-11T14:33:30Z"), _node("n2", "3024-05-01T00:00:00Z"),
        {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": "p", "namespace": "d", "creationTimestamp": "3024-01-02T00:00:00Z"},
         "spec": {"nodeName": "n2", "containers": [{"name": "c", "image": "x:1"}]}}]})
    assert cluster.capture_time.isoformat() == "2021-04-11T14:33:30+00:00"
    pods = cluster.tables.pods
    assert pods["created"].isna().all() and pods["age"].isna().all()
    assert len(cluster.timeline) > 0 and cluster.timeline["time"].notna().all()


# The described AKS node: see the top of the file.
_DESCRIBE_NODE = (Path(__file__).parents[1] / "data" / "describe" / "aks-gpu-node.txt").read_text(encoding="utf-8")


def test_a_described_nodes_lease_renewal_names_the_capture() -> None:
    cluster = analyzer.load({"describe-node.txt": _DESCRIBE_NODE})
    capture = cluster.capture
    assert capture.time.isoformat() == "2023-08-10T11:47:37+00:00"
    assert (capture.signal, capture.confidence) == ("lease renewal", "high")
    assert capture.signals["node heartbeat"] == "2023-08-10T11:46:33Z"


def test_a_describe_counts_the_capture_on_from_its_creation_by_its_events_ages() -> None:
    # Its only absolute time is its creation (10:27:53 -0400); its event says "29m", after
    # that creation: the capture is at least 29 minutes later (it said "created 0s before").
    cluster = analyzer.load(Path(__file__).parent / "data" / "describe-deployment-29m.txt")
    capture = cluster.capture
    assert capture.time.isoformat() == "2022-08-15T14:56:53+00:00"
    assert capture.signal == "age since creation" and capture.confidence == "medium"
    finding = cluster.findings.query("rule == 'deployment-unavailable'").iloc[0]
    assert finding.severity == "warning" and not finding.resolved


# Trimmed from k3s-io/k3s#10627 (github.com/k3s-io/k3s/issues/10627, turn 1): the table was
# copied from `watch`, whose header ends with the host's clock.
_WATCHED = """```
kubectl get nodes,pods -A -o wide                                                 ip-172-31-3-3: Wed Aug 14 21:19:10 2024

NAME                                               STATUS   ROLES                       AGE    VERSION        INTERNAL-IP     EXTERNAL-IP      OS-IMAGE             KERNEL-VERSION    CONTAINER-RUNTIME
node/ip-172-31-3-3.us-east-2.compute.internal      Ready    control-plane,etcd,master   4h8m   v1.30.3+k3s1   172.31.3.3      [REDACTED]       Ubuntu 22.04.1 LTS   5.15.0-1019-aws   containerd://1.7.17-k3s1
```
"""


def test_a_watch_header_without_a_zone_gives_no_time() -> None:
    # watch prints the host's local time without its zone: up to a day off, so not taken (as a
    # write-up header without a known zone is not, ingest.headerdate)
    assert analyzer.ingest.ingest_text(_WATCHED, "k3s-10627.md").capture.time is None


def test_date_in_a_session_gives_the_capture_time_in_utc() -> None:
    # hand-written session shaped as the write-ups in tests/data/transcripts: `date`, then a table
    text = ("$ date\nThu Nov 26 10:23:36 CET 2026\n$ kubectl get ns\nNAME      STATUS   AGE\n"
            "default   Active   3d\n")
    capture = analyzer.ingest.ingest_text(text, "session.txt").capture
    assert capture.time.isoformat() == "2026-11-26T09:23:36+00:00"
    assert "`date`" in capture.where


def test_date_chained_before_kubectl_on_one_line_dates_the_table() -> None:
    # kubernetes-sigs/kind#3145 (comment of 2023-03-31), trimmed: `date; kubectl get pods -A` at a
    # root prompt, Ubuntu's 12-hour `date` (AM/PM), no fence; the pods table is still read
    text = ("root@ubuntu3:~# date; kubectl get pods -A\n"
            "Fri Mar 31 04:16:30 PM UTC 2023\n"
            "NAMESPACE     NAME                            READY   STATUS    RESTARTS   AGE\n"
            "kube-system   coredns-787d4945fb-272kd        1/1     Running   0          45m\n"
            "kube-system   etcd-kne-control-plane          1/1     Running   0          46m\n")
    result = analyzer.ingest.ingest_text(text, "kind-3145.md")
    assert result.capture.time.isoformat() == "2023-03-31T16:16:30+00:00"
    assert "`date`" in result.capture.where
    assert sorted(o.name for o in result.objects) == ["coredns-787d4945fb-272kd", "etcd-kne-control-plane"]


def test_a_clock_in_prose_is_no_session_clock() -> None:
    text = ("The cluster broke at Wed Aug 14 21:19:10 2024, said the pager.\n$ kubectl get ns\n"
            "NAME      STATUS   AGE\ndefault   Active   3d\n")
    assert analyzer.ingest.ingest_text(text, "notes.txt").capture.time is None


def _skewed_ha_cluster(late_nodes: tuple[str, str]) -> list[dict]:
    """TonyChengTW/k8s-ha's kubeadm cluster-info dump (@ dafd5eb, cluster-info/, k8s 1.8, 2017-11-03),
    trimmed to its times and in today's field names: a worker's heartbeat 03:53:23, the last event
    03:49:16, master1 NotReady since 03:17; two pods on the node(s) named by `late_nodes` carry
    times of 09:32-10:03 (master1's kubelet and API server clock ran about six hours ahead)."""
    def pod(name: str, node: str, started: str, restarts: int = 0) -> dict:
        last = {"terminated": {"exitCode": 2, "finishedAt": started}} if restarts else {}
        return {"apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": name, "namespace": "kube-system", "creationTimestamp": "2017-11-03T02:23:16Z"},
                "spec": {"nodeName": node, "containers": [{"name": "c", "image": "x:1"}]},
                "status": {"phase": "Running", "startTime": started,
                           "conditions": [{"type": "Ready", "status": "False", "lastTransitionTime": started}],
                           "containerStatuses": [{"name": "c", "restartCount": restarts, "state": {"running": {"startedAt": started}},
                                                  "lastState": last}]}}
    master1 = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "k8s-master1", "creationTimestamp": "2017-11-02T02:54:27Z"},
               "status": {"conditions": [{"type": "Ready", "status": "Unknown", "lastHeartbeatTime": "2017-11-03T03:16:46Z",
                                          "lastTransitionTime": "2017-11-03T03:17:27Z", "reason": "NodeStatusUnknown"}]}}
    event = {"apiVersion": "v1", "kind": "Event", "metadata": {"name": "nginx215.1", "namespace": "default"},
             "involvedObject": {"kind": "Pod", "namespace": "default", "name": "nginx215-74cd47f945-fvxvb"},
             "reason": "FailedScheduling", "type": "Warning", "count": 40,
             "firstTimestamp": "2017-11-03T03:41:15Z", "lastTimestamp": "2017-11-03T03:49:16Z"}
    worker1 = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "k8s-worker1", "creationTimestamp": "2017-11-02T04:39:46Z"},
               "status": {"conditions": [{"type": "Ready", "status": "True", "lastHeartbeatTime": "2017-11-03T03:53:23Z",
                                          "lastTransitionTime": "2017-11-03T03:14:27Z"}]}}
    return [worker1, master1, event,
            pod("kube-dns-545bc4bfd4-7jv88", "k8s-worker1", "2017-11-02T06:03:15Z"),
            pod("kube-proxy-gs9rm", late_nodes[0], "2017-11-03T10:03:14Z"),
            pod("kube-scheduler-k8s-master1", late_nodes[1], "2017-11-03T09:32:39Z", restarts=6)]


def test_pods_of_one_node_whose_clock_runs_ahead_do_not_move_the_capture() -> None:
    cluster = _load({"dump.yaml": _skewed_ha_cluster(("k8s-master1", "k8s-master1"))})
    capture = cluster.capture
    assert capture.time.isoformat() == "2017-11-03T03:53:23+00:00"
    assert (capture.signal, capture.confidence) == ("node heartbeat", "high")
    assert "2 pod(s) of node k8s-master1" in capture.clock_ahead and "clock runs ahead" in capture.describe()
    # ages count from the heartbeats' time; a time the fast clock wrote is not "0s before capture"
    messages = cluster.findings.set_index("rule").message
    assert "for 35m before capture" in messages["node-not-ready"]
    assert "at 2017-11-03 09:32Z, 5h39m after the capture (a clock ahead" in messages["pod-high-restarts"]
    scheduler = [m for m in messages[["critical-component-unhealthy"]] if "kube-scheduler" in m]
    assert scheduler and "5h after the capture (a clock ahead" in scheduler[0] and "(nan)" not in scheduler[0]


def test_late_times_on_several_nodes_are_not_one_clock_ahead() -> None:
    # The same times spread over two nodes: no one clock to blame, the newest time stands.
    capture = _load({"dump.yaml": _skewed_ha_cluster(("k8s-master1", "k8s-worker1"))}).capture
    assert capture.time.isoformat() == "2017-11-03T10:03:14+00:00" and not capture.clock_ahead


def test_an_evicted_pods_start_time_counts() -> None:
    # Trimmed from a real `kubectl get pod -o json` on EKS (Qovery/engine @ 59fa717, src/cmd/structs.rs,
    # the pod_status payload of test_pod_status_deserialize, 2022-07-13): evicted for ephemeral
    # storage, no container status left, created 14:33:21 and started 14:34:59.
    pod = {"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": "app-z064fc389-55c7689767-9bchb", "namespace": "z801e6dcb-zdf4a84bc",
                        "creationTimestamp": "2022-07-13T14:33:21Z",
                        "annotations": {"kubernetes.io/psp": "eks.privileged"}},
           "spec": {"nodeName": "ip-10-0-21-229.eu-west-3.compute.internal",
                    "containers": [{"name": "app-z064fc389", "image": "nginx:1.25"}]},
           "status": {"message": "The node was low on resource: ephemeral-storage. Container app-z064fc389 was "
                                 "using 56Ki, which exceeds its request of 0. ",
                      "phase": "Failed", "reason": "Evicted", "startTime": "2022-07-13T14:34:59Z"}}
    capture = _load({"pod.yaml": [pod]}).capture
    assert capture.time.isoformat() == "2022-07-13T14:34:59+00:00"
    assert capture.signal == "container state" and "status.startTime" in capture.where


def test_a_heartbeat_cut_mid_time_does_not_hide_the_node_s_newest_heartbeat() -> None:
    # Trimmed from oracle/terraform-kubernetes-installer#204 (its turn 0): a `kubectl describe node`
    # cut in its Conditions, the MemoryPressure row ending at `Tue, 05 Jun 2018 16:41:54 +02`.
    from analyzer.ingest import ingest_text

    text = (
        "Name:               k8s-master-ad1-0\n"
        "Roles:              master\n"
        "CreationTimestamp:  Tue, 05 Jun 2018 16:34:13 +0200\n"
        "Conditions:\n"
        "  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message\n"
        "  ----             ------  -----------------                 ------------------                ------                       -------\n"
        "  OutOfDisk        False   Tue, 05 Jun 2018 16:41:54 +0200   Tue, 05 Jun 2018 16:34:13 +0200   KubeletHasSufficientDisk     kubelet has sufficient disk space available\n"
        "  MemoryPressure   False   Tue, 05 Jun 2018 16:41:54 +02\n"
    )
    capture = ingest_text(text, "describe.txt").capture
    assert (capture.time.isoformat(), capture.signal) == ("2018-06-05T14:41:54+00:00", "node heartbeat")


# helm/helm#12189 (an ACR pull refused on a self-managed cluster), trimmed: `get pods -owide`
# then the describe of one of its pods, cut after its Start Time.
_TABLE_THEN_DESCRIBE_POD = """\
k get pods -n sape-qa-5 -owide
NAME                                                                  READY   STATUS             RESTARTS   AGE    IP               NODE
sape-qa-5-author-baseauth-8374934938-66l9x   0/1     ImagePullBackOff   0          43m    <ip>   sape-kube-worker8
sape-qa-5-publish-basepub-7544796468-lkvml   0/1     ImagePullBackOff   0          124m   <ip>   sape-kube-worker8

k describe pod sape-qa-5-author-baseauth-8374934938-66l9x -n sape-qa-5
Name:         sape-qa-5-author-baseauth-8374934938-66l9x
Namespace:    sape-qa-5
Priority:     0
Node:         sape-kube-worker8/<ip>
Start Time:   Thu, 06 Jul 2023 14:17:04 +0530
"""


def test_a_described_pods_start_time_plus_its_table_age_names_the_capture() -> None:
    # describe pod prints no creation time, only when the kubelet took the pod; its AGE in the
    # table counts from about then: the capture is 43 minutes after 08:47:04Z, not at it.
    cluster = analyzer.load({"helm-12189.md": _TABLE_THEN_DESCRIBE_POD})
    capture = cluster.capture
    assert capture.time.isoformat() == "2023-07-06T09:30:04+00:00"
    assert capture.signal == "age since creation"


# holmesgpt tests/llm/fixtures/test_ask_holmes/05_image_version @ c1ee1d4 (an EKS cluster),
# trimmed: a pod's `kubectl get -o yaml` (created 2024-11-04T09:28:53Z, its newest status time
# 09:29:18) and the `get -A -o wide | grep` row of it, AGE 47h. The row merges into the whole pod;
# its age still dates the capture: 2 days after the pod's status times, not at them.
_HOLMES_POD_YAML = """\
{"toolset_name": "kubernetes/core", "tool_name": "kubectl_get_yaml", "match_params": {"kind": "pod", "name": "robusta-runner-6958c5bdd8-69gtn", "namespace": "default"}}
{"schema_version": "robusta:v1.0.0", "status": "success", "error": null, "return_code": 0, "url": null, "invocation": "kubectl_get_yaml command", "params": {"kind": "pod", "name": "robusta-runner-6958c5bdd8-69gtn", "namespace": "default"}}
apiVersion: v1
kind: Pod
metadata:
  creationTimestamp: "2024-11-04T09:28:53Z"
  name: robusta-runner-6958c5bdd8-69gtn
  namespace: default
spec:
  containers:
  - image: robustadev/robusta-runner:0.19.1
    name: runner
  nodeName: ip-172-31-21-139.us-east-2.compute.internal
status:
  conditions:
  - lastTransitionTime: "2024-11-04T09:29:18Z"
    status: "True"
    type: Ready
  phase: Running
  startTime: "2024-11-04T09:28:53Z"
"""
_HOLMES_POD_ROW = """\
{"toolset_name": "kubernetes/core", "tool_name": "kubectl_find_resource", "match_params": {"kind": "pod", "keyword": "robusta-runner"}}
{"schema_version": "robusta:v1.0.0", "status": "success", "error": null, "return_code": 0, "url": null, "invocation": "kubectl_find_resource command", "params": {"kind": "pod", "keyword": "robusta-runner"}}
default       robusta-runner-6958c5bdd8-69gtn                          1/1     Running                      0                 47h   172.31.25.172   ip-172-31-21-139.us-east-2.compute.internal   <none>           <none>            app=robusta-runner,pod-template-hash=6958c5bdd8,robustaComponent=runner
"""


def test_a_merged_table_rows_age_dates_a_whole_objects_capture(tmp_path: Path) -> None:
    (tmp_path / "kubectl_find_resource.txt").write_text(_HOLMES_POD_ROW)
    (tmp_path / "kubectl_get_yaml.txt").write_text(_HOLMES_POD_YAML)
    from analyzer.ingest import ingest
    r = ingest(str(tmp_path))
    assert len(r.objects) == 1 and r.duplicates == 1
    capture = r.capture
    assert capture.time.isoformat() == "2024-11-06T08:28:53+00:00"
    assert capture.signal == "age since creation"
    # the YAML alone says no more than its own status times
    alone = analyzer.ingest.ingest_text(_HOLMES_POD_YAML, "kubectl_get_yaml.txt")
    assert alone.capture.time.isoformat() == "2024-11-04T09:29:18+00:00"


# A session of `kubectl get nodes` and `kubectl describe node` (rev11b: kubectl 1.32 against
# `kda serve` of realdata kubeadm/cka-3c97-cluster-info-dump), trimmed: the NotReady node's
# describe shows its last heartbeat, Thu 08 Apr 12:38; its row's AGE (3d16h) and its
# CreationTimestamp (Wed 07 Apr 22:21:28) say the session ran about three days later.
_GET_THEN_DESCRIBE_NODE = """\
root@cka-controller1:~# kubectl get nodes -o wide
NAME              STATUS     ROLES                  AGE     VERSION   INTERNAL-IP   EXTERNAL-IP   OS-IMAGE             KERNEL-VERSION       CONTAINER-RUNTIME
cka-worker1       NotReady   <none>                 3d16h   v1.20.5   10.10.1.61    <none>        Ubuntu 18.04.5 LTS   4.15.0-140-generic   docker://19.3.12
k8s-worker1       Ready      <none>                 148m    v1.21.0   10.10.1.61    <none>        Ubuntu 18.04.5 LTS   4.15.0-140-generic   docker://19.3.12
root@cka-controller1:~# kubectl describe node cka-worker1
Name:               cka-worker1
Roles:              <none>
Labels:             kubernetes.io/hostname=cka-worker1
Annotations:        kubeadm.alpha.kubernetes.io/cri-socket: /var/run/dockershim.sock
CreationTimestamp:  Wed, 07 Apr 2021 22:21:28 +0000
Taints:             node.kubernetes.io/not-ready:NoSchedule
Unschedulable:      false
Conditions:
  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
  ----             ------  -----------------                 ------------------                ------                       -------
  Ready            False   Thu, 08 Apr 2021 12:38:36 +0000   Wed, 07 Apr 2021 22:21:28 +0000   KubeletNotReady              runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:docker: network plugin is not ready: cni config uninitialized
Events:              <none>
"""


def test_a_described_objects_creation_plus_its_table_age_dates_the_session() -> None:
    cluster = analyzer.load({"session.txt": _GET_THEN_DESCRIBE_NODE})
    capture = cluster.capture
    assert capture.signal == "age since creation"
    assert capture.time.isoformat() == "2021-04-11T14:21:28+00:00"


# The same kind of session against `kda serve` of review3's AKS arena cluster-info dump (kubectl
# 1.32, `describe --show-events=false`), trimmed: the pod's row says its last restart was 4m28s
# before the table; its describe says that container ended at 07:56:41. The dump's own heartbeat
# is 08:01:09.
_ROW_THEN_DESCRIBE_LAST_STATE = """\
PS C:\\Users\\arena> kubectl get pods -A -o wide
NAMESPACE     NAME                                        READY   STATUS             RESTARTS           AGE     IP            NODE                                NOMINATED NODE   READINESS GATES
kube-system   coredns-autoscaler-6d7bd69669-nmpz2         0/1     CrashLoopBackOff   1569 (4m28s ago)   3d10h   10.244.0.62   aks-nodepool1-28869405-vmss000000   <none>           <none>
PS C:\\Users\\arena> kubectl -n kube-system describe pod coredns-autoscaler-6d7bd69669-nmpz2 --show-events=false
Name:                 coredns-autoscaler-6d7bd69669-nmpz2
Namespace:            kube-system
Node:                 aks-nodepool1-28869405-vmss000000/10.240.0.4
Start Time:           Wed, 03 Jun 2020 21:11:59 +0000
Status:               Running
Controlled By:  ReplicaSet/coredns-autoscaler-6d7bd69669
Containers:
  autoscaler:
    Image:         mcr.microsoft.com/oss/kubernetes/autoscaler/cluster-proportional-autoscaler:1.7.1-hotfix.20200403
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       Error
      Exit Code:    2
      Started:      Sun, 07 Jun 2020 07:56:02 +0000
      Finished:     Sun, 07 Jun 2020 07:56:41 +0000
    Ready:          False
    Restart Count:  1569
QoS Class:                   Burstable
"""


def test_a_rows_last_restart_ago_plus_the_described_containers_end_dates_the_session() -> None:
    capture = analyzer.load({"session.txt": _ROW_THEN_DESCRIBE_LAST_STATE}).capture
    assert capture.time.isoformat() == "2020-06-07T08:01:09+00:00"
    assert "RESTARTS" in capture.where


def test_a_rows_restart_ago_dates_nothing_when_the_row_counts_another_restart() -> None:
    # realdata aks/holmesgpt-fixtures: a row of 16 restarts (5m11s ago) beside a describe of 7 is
    # a later moment than the describe; their sum would be no time at all.
    later = _ROW_THEN_DESCRIBE_LAST_STATE.replace("Restart Count:  1569", "Restart Count:  1568")
    capture = analyzer.load({"session.txt": later}).capture
    assert "RESTARTS" not in capture.where


# Trimmed from a kubectl 1.32 session against `kda serve` of realdata minikube/bits-assignment-group11
# (the served-transcript review method): the `get` table's ages are the server's, counted from the
# capture (2022-07-31T05:18:12Z); the describe's event ages are kubectl's, counted from the day it
# ran (4y121d), years later. Before: the capture was put in 2026 and every restart read "1575d
# before capture", history.
_TWO_CLOCKS = """\
student@ubuntu:~$ kubectl get pods -A -o wide
NAMESPACE     NAME                  READY   STATUS    RESTARTS        AGE     IP             NODE       NOMINATED NODE   READINESS GATES
kube-system   storage-provisioner   1/1     Running   9 (4m53s ago)   5d10h   192.168.49.2   minikube   <none>           <none>
student@ubuntu:~$ kubectl describe pod -n kube-system storage-provisioner
Name:             storage-provisioner
Namespace:        kube-system
Priority:         0
Node:             minikube/192.168.49.2
Start Time:       Mon, 25 Jul 2022 18:54:34 +0000
Status:           Running
IP:               192.168.49.2
Containers:
  storage-provisioner:
    Image:         gcr.io/k8s-minikube/storage-provisioner:v5
    State:          Running
      Started:      Sun, 31 Jul 2022 05:14:14 +0000
    Last State:     Terminated
      Reason:       Error
      Exit Code:    1
      Started:      Sun, 31 Jul 2022 05:12:57 +0000
      Finished:     Sun, 31 Jul 2022 05:13:19 +0000
    Ready:          True
    Restart Count:  9
Events:
  Type     Reason          Age                      From     Message
  ----     ------          ----                     ----     -------
  Normal   SandboxChanged  4y121d                   kubelet  Pod sandbox changed, it will be killed and re-created.
  Warning  BackOff         4y119d                   kubelet  Back-off restarting failed container
  Normal   Started         4y119d (x2 over 4y119d)  kubelet  Started container storage-provisioner
"""


def test_a_describes_ages_counted_from_another_clock_years_later_do_not_move_the_capture() -> None:
    cluster = analyzer.load({"session.txt": _TWO_CLOCKS})
    assert cluster.capture.time.isoformat() == "2022-07-31T05:18:12+00:00"
    from analyzer.findings import collect_findings

    restarts = [f for f in collect_findings(cluster) if f.rule == "pod-high-restarts" and f.status == "fail"]
    assert [(f.severity, f.resolved) for f in restarts] == [("warning", "")]
    # one clock (the same session without the describe's events) is read as before
    one = analyzer.load({"session.txt": _TWO_CLOCKS.split("Events:")[0]})
    assert one.capture.time.isoformat() == "2022-07-31T05:18:12+00:00"


# kubernetes/kubernetes#32522 (GKE 1.3, 2016-09-12): `kubectl describe node` of a node whose
# kubelet stopped posting two days before, trimmed to its Conditions (tabs as pasted).
STOPPED_POSTING = (
    "$ kubectl describe node gke-cluster-1-default-pool-777adf16-w20k\n"
    "Name:\t\t\tgke-cluster-1-default-pool-777adf16-w20k\n"
    "Labels:\t\t\tcloud.google.com/gke-nodepool=default-pool\n"
    "CreationTimestamp:\tWed, 07 Sep 2016 18:14:43 -0700\n"
    "Conditions:\n"
    "  Type\t\t\tStatus\t\tLastHeartbeatTime\t\t\tLastTransitionTime\t\tReason\t\t\t\tMessage\n"
    "  ----\t\t\t------\t\t-----------------\t\t\t------------------\t\t------\t\t\t\t-------\n"
    "  OutOfDisk \t\tUnknown \tSat, 10 Sep 2016 10:38:41 -0700 \tSat, 10 Sep 2016 10:39:26 -0700 \t"
    "NodeStatusUnknown \t\tKubelet stopped posting node status.\n"
    "  MemoryPressure \tFalse \t\tSat, 10 Sep 2016 10:38:41 -0700 \tWed, 07 Sep 2016 18:14:43 -0700 \t"
    "KubeletHasSufficientMemory \tkubelet has sufficient memory available\n"
)


def test_the_heartbeat_of_a_kubelet_that_stopped_posting_is_no_live_signal() -> None:
    # the dump was taken some time after it: the newest time it holds bounds the capture,
    # with the confidence of a condition change, not of a heartbeat (it said "high" before)
    estimate = analyzer.load({"describe-node.txt": STOPPED_POSTING}).ingest.capture
    assert (estimate.signal, estimate.confidence) == ("condition transition", "medium")
    assert estimate.time.isoformat() == "2016-09-10T17:39:26+00:00"


_CUSTOM_STATUS_TIMES = Path(__file__).parent / "data" / "custom-status-times"
_BUILTIN_STATUS_TIMES = Path(__file__).parent / "data" / "builtin-status-times"


@pytest.mark.parametrize("path, time, signal, where", [
    # A pasted Argo CD Application alone (from pluhin/sa.it-academy.by): created 09:43:56, its
    # sync failed at 09:49:06, the controller compared it last at 10:01:06. The capture came
    # after all three, not at its creation.
    (_CUSTOM_STATUS_TIMES / "argocd-application-sync-failed.yaml", "2022-06-04T10:01:06+00:00",
     "status time", "Application/argocd/jen status.reconciledAt"),
    # A Deployment's `-o yaml` alone (from a CKA lab write-up): created 08:09:07, its rollout
    # timed out at 08:19:08. Before: dated by its creation, so `kda get deploy` printed AGE 0s
    # for a rollout that had failed 10 minutes in.
    (_BUILTIN_STATUS_TIMES / "deployment-progress-deadline.yaml", "2025-07-10T08:19:08+00:00",
     "condition transition", "Deployment/default/frontend-deployment status.conditions"),
], ids=["custom resource", "Deployment"])
def test_an_objects_status_times_count_towards_the_capture(path: Path, time: str, signal: str, where: str) -> None:
    capture = analyzer.load(str(path)).capture
    assert (capture.time.isoformat(), capture.signal, capture.confidence) == (time, signal, "medium")
    assert where in capture.where
    assert capture.lower_bound  # the capture came then or later: no age from it says "young"


_CAPTURE_SIGNALS = Path(__file__).parent / "data" / "capture-signals"


def test_the_newest_of_as_trusted_signals_names_the_capture_not_the_first_by_name() -> None:
    # realdata minikube/troubleshoot-analyze-files, trimmed: the newest time, 05:36:25, is an
    # event's last repeat (and a kubelet write); the pod's conditions changed at 05:34:44. It was
    # named "condition transition" (the first medium signal by name within 15 minutes), so its
    # lower bound and its signal hung on the names' order: the event at the newest time names it.
    capture = analyzer.load(str(_CAPTURE_SIGNALS / "minikube-image-pull-backoff.yaml")).capture
    assert (capture.time.isoformat(), capture.signal, capture.confidence) == (
        "2023-07-11T05:36:25+00:00", "event", "medium")
    assert "Event/message-image-pull-fail/" in capture.where
    # an event is no heartbeat: the capture came then or later, within the hour events are kept
    assert capture.lower_bound
    assert "then or later, within about an hour" in capture.describe()


def test_a_custom_resources_times_ahead_do_not_move_the_capture() -> None:
    # A cert-manager Certificate (from vesoft-inc/nebula-operator doc/user/webhook.md): its
    # renewalTime and notAfter are when it will be renewed and expire, weeks after the capture.
    capture = analyzer.load(str(_CUSTOM_STATUS_TIMES / "cert-manager-certificate-renewal-ahead.yaml")).capture
    assert capture.time.isoformat() == "2023-09-29T04:15:20+00:00"
    assert capture.signal == "condition transition"


def test_a_custom_resource_named_like_a_built_in_kind_is_read_as_custom() -> None:
    # Hand-written: longhorn.io's Node keeps conditions of its own; its transition counts, and
    # it is no heartbeat of a cluster node.
    node = {"apiVersion": "longhorn.io/v1beta2", "kind": "Node",
            "metadata": {"name": "n1", "namespace": "longhorn-system", "creationTimestamp": "2023-01-01T00:00:00Z"},
            "status": {"conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2023-01-02T00:00:00Z"}]}}
    capture = _load({"a.yaml": [node]}).capture
    assert (capture.time.isoformat(), capture.signal) == ("2023-01-02T00:00:00+00:00", "condition transition")



def test_a_jobs_completion_counts_towards_the_capture() -> None:
    # A completed Job alone (from the kURL support bundle of realdata): its completionTime, not
    # its creation 3s earlier.
    capture = analyzer.load(str(_BUILTIN_STATUS_TIMES / "job-completed.yaml")).capture
    assert capture.time.isoformat() == "2022-04-11T22:52:46+00:00"
    assert capture.signal in ("status time", "condition transition")


def test_a_pasted_cronjobs_last_schedule_counts_towards_the_capture() -> None:
    # charmed-kubernetes/bundle#381's `kubectl get cronjobs` (kubectl 1.7: LAST-SCHEDULE a time,
    # -0400): no other time in the paste, so the capture is no earlier than the newest last
    # schedule (before: no capture time at all).
    table = ("NAME                            SCHEDULE                   SUSPEND   ACTIVE    LAST-SCHEDULE\n"
             "assigntasks                   40 * * * *                 False     0         Thu, 10 Aug 2017 08:40:00 -0400\n"
             "sync-pagerduty-incidents      */5 * * * *                False     0         Wed, 09 Aug 2017 14:00:00 -0400\n")
    capture = analyzer.load({"get-cronjobs.txt": table}).capture
    assert (capture.time.isoformat(), capture.signal) == ("2017-08-10T12:40:00+00:00", "status time")
    assert "CronJob/assigntasks status.lastScheduleTime" in capture.where


def test_a_custom_kind_named_like_a_built_in_kind_with_status_times_is_read_as_custom() -> None:
    # Hand-written: a Deployment served by another group is no apps/v1 Deployment; its conditions
    # are read as a custom resource's (the same signal), never through the built-in view.
    deployment = {"apiVersion": "example.com/v1", "kind": "Deployment",
                  "metadata": {"name": "d", "namespace": "x", "creationTimestamp": "2023-01-01T00:00:00Z"},
                  "status": {"conditions": [{"type": "Ready", "status": "True",
                                             "lastTransitionTime": "2023-01-02T00:00:00Z"}]}}
    capture = _load({"a.yaml": [deployment]}).capture
    assert (capture.time.isoformat(), capture.signal) == ("2023-01-02T00:00:00+00:00", "condition transition")


def test_built_in_status_times_are_read_from_the_typed_views() -> None:
    # status_times.yaml's built-in rows are read on every object of their kinds (a large
    # cluster's ReplicaSets, Services): a kind with a view must have each path's field in its
    # status, else every object of it is decoded whole while the capture is estimated.
    import msgspec

    from analyzer.ingest.result import _builtin_status_times, _has_field
    from analyzer.kube.views import VIEW_BY_KIND

    for kind, paths in _builtin_status_times().items():
        view = VIEW_BY_KIND.get(kind)
        if view is None:
            continue  # (a CertificateSigningRequest: no view, read from the object; a few per cluster)
        field = next(f for f in msgspec.structs.fields(view) if f.name == "status")
        status = field.default if field.default_factory is msgspec.NODEFAULT else field.default_factory()
        assert status is None or all(_has_field(status, path) for path in paths), kind  # (None: a dict)
