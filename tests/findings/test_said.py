"""Warning events another finding already says are listed once, under it (analyzer.findings.said):
kept and counted, in JSON naming the finding that says them, never a second problem."""

from __future__ import annotations

import json

from typer.testing import CliRunner

import analyzer
from analyzer.cli import app
from analyzer.findings import collect_findings

runner = CliRunner()

# Trimmed from ../shared/realdata/kubeadm/cka-3c97-cluster-info-dump/cluster-info-dump.json: a
# coredns pod Pending on the not-ready taint and its scheduler's FailedScheduling (708 times,
# events.k8s.io series); its containers cut to one. pod-pending quotes the event; the event
# summary listed it again, as a second problem.
PENDING_POD = {
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "coredns-74ff55c5b-9rptk", "generateName": "coredns-74ff55c5b-", "namespace": "kube-system",
                 "uid": "ffc8f32c-fede-4a18-9650-d85e41e8a584", "creationTimestamp": "2021-04-07T22:18:52Z",
                 "labels": {"k8s-app": "kube-dns", "pod-template-hash": "74ff55c5b"},
                 "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "coredns-74ff55c5b",
                                      "uid": "d06932bc-2f86-4efe-ba8e-0f546a845199", "controller": True}]},
    "spec": {"containers": [{"name": "coredns", "image": "k8s.gcr.io/coredns:1.7.0"}],
             "nodeSelector": {"kubernetes.io/os": "linux"}, "priorityClassName": "system-cluster-critical"},
    "status": {"phase": "Pending", "qosClass": "Burstable", "conditions": [
        {"type": "PodScheduled", "status": "False", "lastTransitionTime": "2021-04-07T22:18:52Z", "reason": "Unschedulable",
         "message": "0/3 nodes are available: 3 node(s) had taint {node.kubernetes.io/not-ready: }, that the pod didn't tolerate."}]},
}
FAILED_SCHEDULING = {
    "apiVersion": "v1", "kind": "Event",
    "metadata": {"name": "coredns-74ff55c5b-9rptk.1673b5965ee88548", "namespace": "kube-system",
                 "creationTimestamp": "2021-04-07T22:59:08Z"},
    "involvedObject": {"kind": "Pod", "namespace": "kube-system", "name": "coredns-74ff55c5b-9rptk",
                       "uid": "ffc8f32c-fede-4a18-9650-d85e41e8a584", "apiVersion": "v1"},
    "reason": "FailedScheduling", "type": "Warning",
    "message": "0/3 nodes are available: 3 node(s) had taint {node.kubernetes.io/not-ready: }, that the pod didn't tolerate.",
    "eventTime": "2021-04-07T22:59:08.598148Z", "series": {"count": 708, "lastObservedTime": "2021-04-08T12:28:39.372583Z"},
    "reportingComponent": "default-scheduler", "reportingInstance": "default-scheduler-cka-controller2",
}

# Trimmed from ../shared/realdata/aks/holmesgpt-fixtures (test_ask_holmes/158_slack_chat_correct_date/
# kubectl_describepod_frontend-service_default.txt): a container in CrashLoopBackOff and the
# kubelet's BackOff "restarting failed container" 49 times; the Pulling line changed to a
# BackOff pulling the image (hand-written) to show a BackOff that is not the crash stays listed.
DESCRIBE = """Name:             frontend-service
Namespace:        default
Node:             aks-agentpool-29949785-vmss000001/10.224.0.5
Start Time:       Mon, 23 Aug 2025 15:02:32 +0300
Status:           Running
IP:               10.244.1.0
Containers:
  stress:
    Image:         jfusterm/stress
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       Error
      Exit Code:    255
      Started:      Mon, 23 Aug 2025 15:02:32 +0300
      Finished:     Mon, 23 Aug 2025 15:02:32 +0300
    Ready:          False
    Restart Count:  7
Conditions:
  Type                        Status
  Ready                       False
  ContainersReady             False
  PodScheduled                True
Events:
  Type     Reason     Age                   From               Message
  ----     ------     ----                  ----               -------
  Normal   Scheduled  13m                   default-scheduler  Successfully assigned default/frontend-service to aks-agentpool-29949785-vmss000001
  Warning  BackOff    3m30s (x49 over 13m)  kubelet            {backoff}
"""
RESTARTING = "Back-off restarting failed container stress in pod frontend-service_default(d5d64096-dfff-4596-a955-e3e4a1bc6a1d)"
PULLING = 'Back-off pulling image "jfusterm/stress"'

# Trimmed from the `kubectl get events` of a write-up of an AKS upgrade (Markdown "AKS Cluster
# Upgrade", code index id 22267563931; tests/findings/cases/eviction-refused.yaml): AKS records
# the refused eviction of a pod as a Drain warning on its node; eviction-refused says it of the pod.
AKS_EVENTS = """```
ajay [ ~ ]$ kubectl get events
LAST SEEN   TYPE      REASON                    OBJECT                                   MESSAGE
14m         Normal    Drain                     node/aks-nodepool1-35652913-vmss000002   Draining node: aks-nodepool1-35652913-vmss000002
13m         Warning   Drain                     node/aks-nodepool1-35652913-vmss000002   Eviction blocked by Too many Requests (usually a pdb): metrics-server-5467676b76-6ndcp
14m         Normal    NodeNotSchedulable        node/aks-nodepool1-35652913-vmss000002   Node aks-nodepool1-35652913-vmss000002 status is now: NodeNotSchedulable
```
"""


def _summaries(path) -> list:
    return [f for f in collect_findings(analyzer.load(str(path))) if f.rule == "events-warning-summary"]


def test_a_pending_pods_failedscheduling_is_said_by_pod_pending(tmp_path) -> None:
    path = tmp_path / "dump.json"
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": [PENDING_POD, FAILED_SCHEDULING]}))
    [summary] = _summaries(path)
    assert summary.said_by == ("pod-pending", "Pod", "kube-system", "coredns-74ff55c5b-9rptk")
    out = runner.invoke(app, ["findings", str(path), "--no-not-applicable"]).output
    # listed once, under pod-pending, and counted
    assert out.count("FailedScheduling on Pod kube-system/coredns-74ff55c5b-9rptk") == 1
    pending = out.index("[pod-pending] Pod kube-system/coredns-74ff55c5b-9rptk")
    assert out.index("also in [events-warning-summary] (info): FailedScheduling on Pod") > pending
    assert "INFO (1; 1 of them listed under the finding that says the same)" in out
    assert "1 info" in out.splitlines()[-1]
    records = json.loads(runner.invoke(app, ["findings", str(path), "-f", "json"]).output)
    [said] = [r for r in records if r["rule"] == "events-warning-summary"]
    assert said["said_by"] == {"rule": "pod-pending", "object": {
        "kind": "Pod", "namespace": "kube-system", "name": "coredns-74ff55c5b-9rptk"}}
    markdown = runner.invoke(app, ["findings", str(path), "-f", "markdown"]).output
    assert "1 of them said in the evidence of the finding that says the same." in markdown
    assert "| info | events-warning-summary |" not in markdown
    assert "also in `events-warning-summary` (info): FailedScheduling" in markdown


def test_a_summary_whose_sayer_a_filter_leaves_out_is_listed_in_its_own_place(tmp_path) -> None:
    path = tmp_path / "dump.json"
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": [PENDING_POD, FAILED_SCHEDULING]}))
    out = runner.invoke(app, ["findings", str(path), "-s", "info", "--no-not-applicable"]).output
    assert "INFO (1)\n  [events-warning-summary] FailedScheduling on Pod kube-system/coredns-74ff55c5b-9rptk" in out


def test_the_kubelets_backoff_restarting_is_said_by_pod_crashloop_not_its_backoff_pulling(tmp_path) -> None:
    crashing = tmp_path / "crashing" / "describe.txt"
    crashing.parent.mkdir()
    crashing.write_text(DESCRIBE.replace("{backoff}", RESTARTING))
    [summary] = _summaries(crashing)
    assert summary.said_by == ("pod-crashloop", "Pod", "default", "frontend-service")
    pulling = tmp_path / "pulling" / "describe.txt"
    pulling.parent.mkdir()
    pulling.write_text(DESCRIBE.replace("{backoff}", PULLING))
    [summary] = _summaries(pulling)
    assert summary.said_by == ()


def test_aks_drain_warning_on_a_node_is_said_by_the_pods_eviction_refused(tmp_path) -> None:
    path = tmp_path / "events.md"
    path.write_text(AKS_EVENTS)
    [summary] = _summaries(path)
    assert (summary.kind, summary.name) == ("Node", "aks-nodepool1-35652913-vmss000002")
    assert summary.said_by == ("eviction-refused", "Pod", "", "metrics-server-5467676b76-6ndcp")


# Trimmed from ../shared/realdata/minikube/troubleshoot-analyze-files (pods/ and events/
# message-pod-init-crashloop-backoff.json): init-demo2's init container `install` runs `wge`, not
# found: RunContainerError, and the kubelet's Failed "Error: failed to start container" and
# BackOff restarting events, each the start error pod-init-failed says.
INIT_POD = {
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "init-demo2", "namespace": "message-pod-init-crashloop-backoff",
                 "uid": "5a560e83-c634-4c91-b308-510ee692ed6a", "creationTimestamp": "2023-07-11T04:01:16Z"},
    "spec": {"nodeName": "minikube", "restartPolicy": "Always",
             "initContainers": [{"name": "install", "image": "busybox:1.28", "command": ["wge", "-O", "/work-dir/index.html"]}],
             "containers": [{"name": "nginx", "image": "nginx"}]},
    "status": {"phase": "Pending", "startTime": "2023-07-11T04:01:16Z", "conditions": [
        {"type": "Initialized", "status": "False", "lastTransitionTime": "2023-07-11T04:01:16Z",
         "reason": "ContainersNotInitialized", "message": "containers with incomplete status: [install]"}],
        "initContainerStatuses": [{
            "name": "install", "ready": False, "restartCount": 1, "image": "busybox:1.28",
            "state": {"waiting": {"reason": "RunContainerError", "message": "failed to start container \"b201927f1015\": "
                                  "Error response from daemon: failed to create shim task: OCI runtime create failed: runc create "
                                  "failed: unable to start container process: exec: \"wge\": executable file not found in $PATH: unknown"}},
            "lastState": {"terminated": {"exitCode": 127, "reason": "ContainerCannotRun", "startedAt": "2023-07-11T04:01:16Z",
                                         "finishedAt": "2023-07-11T04:01:16Z"}}}],
        "containerStatuses": [{"name": "nginx", "ready": False, "restartCount": 0, "image": "nginx",
                               "state": {"waiting": {"reason": "PodInitializing"}}}]},
}


def _kubelet_event(name: str, reason: str, message: str, count: int, first: str, last: str) -> dict:
    return {"apiVersion": "v1", "kind": "Event",
            "metadata": {"name": name, "namespace": "message-pod-init-crashloop-backoff", "creationTimestamp": first},
            "involvedObject": {"kind": "Pod", "namespace": "message-pod-init-crashloop-backoff", "name": "init-demo2",
                               "uid": "5a560e83-c634-4c91-b308-510ee692ed6a", "fieldPath": "spec.initContainers{install}"},
            "reason": reason, "message": message, "type": "Warning", "count": count,
            "source": {"component": "kubelet", "host": "minikube"}, "firstTimestamp": first, "lastTimestamp": last}


def test_the_kubelets_start_error_and_backoff_are_said_by_pod_init_failed(tmp_path) -> None:
    path = tmp_path / "dump.json"
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": [
        INIT_POD,
        _kubelet_event("init-demo2.1770b446d9b392f2", "Failed",
                       "Error: failed to start container \"install\": Error response from daemon: failed to create shim task: "
                       "OCI runtime create failed: runc create failed: unable to start container process: exec: \"wge\": "
                       "executable file not found in $PATH: unknown", 2, "2023-07-11T04:01:16Z", "2023-07-11T04:01:17Z"),
        _kubelet_event("init-demo2.1770b448549c898a", "BackOff", "Back-off restarting failed container", 1,
                       "2023-07-11T04:01:23Z", "2023-07-11T04:01:23Z"),
    ]}))
    said = {str(f.facts["reason"]): f.said_by for f in _summaries(path)}
    assert said == {"Failed": ("pod-init-failed", "Pod", "message-pod-init-crashloop-backoff", "init-demo2"),
                    "BackOff": ("pod-init-failed", "Pod", "message-pod-init-crashloop-backoff", "init-demo2")}


def test_the_job_controllers_backofflimitexceeded_is_said_by_job_failed(tmp_path) -> None:
    """The Job trimmed from ../shared/realdata/unknown/troubleshoot-analyze-files/jobs/test.json
    (post-install-job, Failed: BackoffLimitExceeded); its event as the job controller records it,
    copied from ../shared/realdata/minikube/troubleshoot-analyze-files/events/message-image-pull-fail.json
    (oom-kill-job3's) and renamed to this Job."""
    job = {"apiVersion": "batch/v1", "kind": "Job",
           "metadata": {"name": "post-install-job", "namespace": "test", "uid": "13844969-d21a-4514-8bed-66157f216af7",
                        "creationTimestamp": "2021-10-05T19:11:43Z"},
           "spec": {"backoffLimit": 3, "template": {"spec": {"restartPolicy": "Never", "containers": [
               {"name": "hook-test", "image": "alpine", "command": ["sh", "-c", "sleep 10"]}]}}},
           "status": {"conditions": [{"type": "Failed", "status": "True", "lastTransitionTime": "2021-10-05T19:11:55Z",
                                      "reason": "BackoffLimitExceeded", "message": "Job has reached the specified backoff limit"}],
                      "startTime": "2021-10-05T19:11:43Z", "failed": 1}}
    event = {"apiVersion": "v1", "kind": "Event",
             "metadata": {"name": "post-install-job.1770b6944e3d254b", "namespace": "test", "creationTimestamp": "2021-10-05T19:11:55Z"},
             "involvedObject": {"kind": "Job", "namespace": "test", "name": "post-install-job", "apiVersion": "batch/v1",
                                "uid": "13844969-d21a-4514-8bed-66157f216af7"},
             "reason": "BackoffLimitExceeded", "message": "Job has reached the specified backoff limit",
             "source": {"component": "job-controller"}, "firstTimestamp": "2021-10-05T19:11:55Z",
             "lastTimestamp": "2021-10-05T19:11:55Z", "count": 1, "type": "Warning"}
    path = tmp_path / "dump.json"
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": [job, event]}))
    [summary] = _summaries(path)
    assert summary.said_by == ("job-failed", "Job", "test", "post-install-job")


# Trimmed from a pasted transcript of a node shutdown ("Trident Force Detach Test for iSCSI
# Backend", README.md, code index id 47218892615): `k get node` shows rhel2 NotReady and
# `kubectl describe pod` of its pod the node controller's Warning NodeNotReady "Node is not ready"
# (kubernetes/kubernetes#87743: recorded on every pod of a node turned not ready).
TRIDENT = """```
# k get node
NAME    STATUS     ROLES           AGE    VERSION
rhel1   Ready      <none>          327d   v1.29.4
rhel2   NotReady   <none>          327d   v1.29.4

# kubectl describe pod test-deployment-57fb685899-d5r6n
Name:                      test-deployment-57fb685899-d5r6n
Namespace:                 default
Node:                      rhel2/192.168.0.62
Start Time:                Fri, 21 Mar 2025 01:34:43 +0000
Status:                    Terminating (lasts 24s)
Controlled By:  ReplicaSet/test-deployment-57fb685899
Containers:
  alpine:
    Image:         alpine:3.19.1
    State:          Running
      Started:      Fri, 21 Mar 2025 01:34:52 +0000
    Ready:          True
    Restart Count:  0
Conditions:
  Type                        Status
  Ready                       False
Events:
  Type     Reason                  Age    From                     Message
  ----     ------                  ----   ----                     -------
  Normal   Scheduled               6m21s  default-scheduler        Successfully assigned default/test-deployment-57fb685899-d5r6n to rhel2
  Warning  NodeNotReady            89s    node-controller          Node is not ready
```
"""


def test_the_node_controllers_nodenotready_on_a_pod_is_said_by_its_nodes_node_not_ready(tmp_path) -> None:
    path = tmp_path / "notready.md"
    path.write_text(TRIDENT)
    [summary] = _summaries(path)
    assert summary.said_by == ("node-not-ready", "Node", "", "rhel2")
    out = runner.invoke(app, ["findings", str(path), "--no-not-applicable"]).output
    assert out.count("NodeNotReady on Pod default/test-deployment-57fb685899-d5r6n") == 1
    assert out.index("also in [events-warning-summary] (info): NodeNotReady on Pod") > out.index("[node-not-ready] Node rhel2")
    # the node Ready again: the pod's event is history, no finding says it, it keeps its place
    back = tmp_path / "back.md"
    back.write_text(TRIDENT.replace("rhel2   NotReady", "rhel2   Ready   "))
    [summary] = _summaries(back)
    assert summary.said_by == ()


def _node(name: str, ready: str) -> dict:
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "creationTimestamp": "2021-08-31T23:00:00Z"},
            "status": {"conditions": [{"type": "Ready", "status": ready, "reason": "NodeStatusUnknown" if ready == "Unknown"
                                       else "KubeletReady", "lastTransitionTime": "2021-09-01T00:25:09Z"}]}}


def _pod_on(name: str, node: str) -> dict:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "kube-system",
                                                            "creationTimestamp": "2021-08-31T23:10:00Z"},
            "spec": {"nodeName": node, "containers": [{"name": "c", "image": "k8s.gcr.io/pause:3.2"}]},
            "status": {"phase": "Running"}}


def _node_not_ready_event(pod: str, at: str) -> dict:
    return {"apiVersion": "v1", "kind": "Event", "metadata": {"name": f"{pod}.16a0", "namespace": "kube-system"},
            "involvedObject": {"kind": "Pod", "namespace": "kube-system", "name": pod},
            "reason": "NodeNotReady", "message": "Node is not ready", "type": "Warning", "count": 1,
            "source": {"component": "node-controller"}, "firstTimestamp": at, "lastTimestamp": at}


def test_every_pod_of_a_not_ready_node_is_said_by_it_and_no_other_nodes(tmp_path) -> None:
    """The pods and events after the kube-controller-manager log of bsycorp/kind#46 (minikube
    not ready: NodeNotReady "Node is not ready" on coredns-f9fd979d6-w9lb9, etcd-minikube, ...);
    m02 and its pod hand-written: a node Ready again, its pod's NodeNotReady stays listed."""
    path = tmp_path / "dump.json"
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": [
        _node("minikube", "Unknown"), _node("m02", "True"),
        _pod_on("coredns-f9fd979d6-w9lb9", "minikube"), _pod_on("etcd-minikube", "minikube"), _pod_on("proxy-m02", "m02"),
        *(_node_not_ready_event(p, "2021-09-01T00:25:09Z")
          for p in ("coredns-f9fd979d6-w9lb9", "etcd-minikube", "proxy-m02")),
    ]}))
    said = {f.name: f.said_by for f in _summaries(path)}
    assert said == {"coredns-f9fd979d6-w9lb9": ("node-not-ready", "Node", "", "minikube"),
                    "etcd-minikube": ("node-not-ready", "Node", "", "minikube"), "proxy-m02": ()}
    out = runner.invoke(app, ["findings", str(path), "--no-not-applicable"]).output
    assert "INFO (3; 2 of them listed under the finding that says the same" in out


# Trimmed from ../shared/realdata/minikube/bits-assignment-group11/cluster-dump.txt (UTF-16): the
# minikube storage-provisioner, 9 restarts, running again since 05:14:14, and the kubelet's three
# BackOff "restarting failed container" (the last at 05:03:18, before its last two starts).
RESTARTED_POD = {
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "storage-provisioner", "namespace": "kube-system", "uid": "79eac87b-5bc4-42d5-b8c1-eeb93a1a7616",
                 "creationTimestamp": "2022-07-25T18:54:31Z"},
    "spec": {"nodeName": "minikube", "containers": [{"name": "storage-provisioner",
                                                     "image": "gcr.io/k8s-minikube/storage-provisioner:v5"}]},
    "status": {"phase": "Running", "startTime": "2022-07-25T18:54:34Z",
               "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2022-07-31T05:14:45Z"}],
               "containerStatuses": [{
                   "name": "storage-provisioner", "ready": True, "started": True, "restartCount": 9,
                   "image": "gcr.io/k8s-minikube/storage-provisioner:v5",
                   "state": {"running": {"startedAt": "2022-07-31T05:14:14Z"}},
                   "lastState": {"terminated": {"exitCode": 1, "reason": "Error", "startedAt": "2022-07-31T05:12:57Z",
                                                "finishedAt": "2022-07-31T05:13:19Z"}}}]},
}


def _backoff(name: str, at: str) -> dict:
    return {"apiVersion": "v1", "kind": "Event", "metadata": {"name": name, "namespace": "kube-system"},
            "involvedObject": {"kind": "Pod", "namespace": "kube-system", "name": "storage-provisioner",
                               "uid": "79eac87b-5bc4-42d5-b8c1-eeb93a1a7616",
                               "fieldPath": "spec.containers{storage-provisioner}"},
            "reason": "BackOff", "message": "Back-off restarting failed container", "type": "Warning", "count": 1,
            "source": {"component": "kubelet", "host": "minikube"}, "firstTimestamp": at, "lastTimestamp": at}


def test_the_kubelets_backoffs_between_restarts_are_said_by_pod_high_restarts(tmp_path) -> None:
    path = tmp_path / "dump.json"
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": [
        RESTARTED_POD, _backoff("storage-provisioner.170653acfb6b4874", "2022-07-29T14:38:35Z"),
        _backoff("storage-provisioner.1706cf5cda1b960c", "2022-07-31T04:25:10Z"),
        _backoff("storage-provisioner.1706d1717a04fdf0", "2022-07-31T05:03:18Z")]}))
    [summary] = _summaries(path)
    assert summary.facts["count"] == 3
    assert summary.said_by == ("pod-high-restarts", "Pod", "kube-system", "storage-provisioner")
    # under the threshold no finding counts the restarts: the back-offs keep their own place
    few = tmp_path / "few.json"
    pod = json.loads(json.dumps(RESTARTED_POD))
    pod["status"]["containerStatuses"][0]["restartCount"] = 2
    few.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": [
        pod, _backoff("storage-provisioner.1706d1717a04fdf0", "2022-07-31T05:03:18Z")]}))
    [summary] = _summaries(few)
    assert summary.said_by == ()
