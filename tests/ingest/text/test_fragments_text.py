"""Conditions or taints of one object pasted alone under the command that names it (analyzer.ingest.text.fragments)."""

from __future__ import annotations

from analyzer.ingest import ingest_text

# Trimmed from Azure/karpenter-provider-azure#1639 (2026-04-13, AKS 1.32 with Azure CNI, nodes of a
# self-hosted Karpenter NotReady): the ticket quotes only the Ready condition, once as the
# `conditions:` item of `-o yaml`, once as the describe's row. Before: "object has no kind" and
# "neither a kubectl table nor a describe": nothing read, the NotReady node missed.
KARPENTER_1639 = """```shell
# k get no -o yaml aks-node1-xxxxxx
  - lastHeartbeatTime: "2026-04-13T15:49:14Z"
    lastTransitionTime: "2026-04-13T15:23:14Z"
    message: 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady
      message:Network plugin returns error: cni plugin not initialized'
    reason: KubeletNotReady
    status: "False"
    type: Ready
```

```shell
# k describe no aks-node1-xxxxxx
 Ready                         False   Mon, 13 Apr 2026 21:19:14 +0530   Mon, 13 Apr 2026 20:53:14 +0530   KubeletNotReady                 container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized

Events:
  Type    Reason                   Age                From                                                          Message
  ----    ------
```
"""


def _ready(result) -> dict:
    (node,) = [o for o in result.objects if o is not None]
    assert (node.kind, node.name) == ("Node", "aks-node1-xxxxxx")
    return next(c for c in node.body()["status"]["conditions"] if c["type"] == "Ready")


def test_conditions_quoted_under_a_command_naming_the_node_are_that_nodes() -> None:
    r = ingest_text(KARPENTER_1639, "issue.md")
    assert not r.rejections
    ready = _ready(r)
    assert ready["status"] == "False" and ready["reason"] == "KubeletNotReady"
    assert ready["lastTransitionTime"] == "2026-04-13T15:23:14Z"
    assert "cni plugin not initialized" in ready["message"]


def test_the_yaml_fragment_alone_is_read_too() -> None:
    r = ingest_text(KARPENTER_1639.split("```\n\n")[0] + "```\n", "issue.md")
    assert not r.rejections
    assert _ready(r)["message"].endswith("Network plugin returns error: cni plugin not initialized")


def test_a_fragment_without_a_named_object_or_with_other_lines_stays_unread() -> None:
    # the same rows under a command naming no single node, or with a line that is no condition row
    unnamed = KARPENTER_1639.replace("k describe no aks-node1-xxxxxx", "k describe no")
    prose = KARPENTER_1639.replace(" Ready                         False", "It says Ready False")
    for text in (unnamed, prose):
        r = ingest_text(text.split("```\n\n")[1], "issue.md")
        assert not [o for o in r.objects if o is not None]


def test_a_whole_object_under_the_command_is_read_whole() -> None:
    # trimmed from rev8's EKS EFA write-up (`kubectl get node NAME -o json`, a whole Node): the
    # object has its conditions under status, and much more; it is never cut down to them.
    text = ('$ kubectl get node ip-192-168-25-169.ec2.internal -o json\n{\n    "apiVersion": "v1",\n    "kind": "Node",\n'
            '    "metadata": {"name": "ip-192-168-25-169.ec2.internal",\n'
            '                 "labels": {"node.kubernetes.io/instance-type": "hpc7g.16xlarge"}},\n'
            '    "status": {"conditions": [{"type": "Ready", "status": "True"}],\n'
            '               "nodeInfo": {"kubeletVersion": "v1.27.3-eks-a5565ad"}}\n}\n'
            '$ kubectl get pods -A\nNAMESPACE     NAME             READY   STATUS    RESTARTS   AGE\n'
            'kube-system   aws-node-5jhct   2/2     Running   0          27m\n')
    r = ingest_text(text, "notes.md")
    (node,) = [o for o in r.objects if o is not None and o.kind == "Node"]
    assert node.view.status.nodeInfo.kubeletVersion == "v1.27.3-eks-a5565ad"
    assert not any("only its conditions" in n for n in node.notes)


# From aws/karpenter-provider-aws#644 (EKS 1.19, Karpenter at its head then): a node's row, then
# only its taints, grepped from its YAML. Before: "object has no kind" for the taints; and a
# fragment read after a row replaced it, so the node (as with conditions) lost its AGE and version.
KARPENTER_644 = """Node was ready 40 minutes ago-

```
 k get node ip-192-168-171-186.us-west-2.compute.internal
NAME                                            STATUS   ROLES    AGE   VERSION
ip-192-168-171-186.us-west-2.compute.internal   Ready    <none>   41m   v1.19.13
```

Taint still exists-
```
k get nodes ip-192-168-171-186.us-west-2.compute.internal -o yaml | grep -i -A 2 taints:
  taints:
  - effect: NoSchedule
    key: karpenter.sh/not-ready
```
"""


# Trimmed from anchore/kubernetes-admission-controller#17 (2020-08-07): the aggregated API's
# `-o yaml` quoted from `status:` down, the lines above it elided with `...`. Before: "object has
# no kind", and the condition's message (404 from the API's Service) lost.
ANCHORE_17 = """```
# kubectl get apiservices/v1.admission.anchore.io -n kube-system -o yaml
...
...
status:
  conditions:
  - lastTransitionTime: "2020-08-07T13:44:39Z"
    message: 'failing or missing response from https://10.0.0.1:443/apis/admission.anchore.io/v1:
      bad status from https://10.0.0.1:443/apis/admission.anchore.io/v1: 404'
    reason: FailedDiscoveryCheck
    status: "False"
    type: Available
```
"""


def test_taints_grepped_from_a_named_nodes_yaml_are_laid_over_its_earlier_row() -> None:
    r = ingest_text(KARPENTER_644, "issue.md")
    assert not r.rejections
    (node,) = r.objects
    body = node.body()
    assert body["spec"]["taints"] == [{"effect": "NoSchedule", "key": "karpenter.sh/not-ready"}]
    assert node.view.text.age_seconds == 41 * 60 and body["status"]["nodeInfo"]["kubeletVersion"] == "v1.19.13"
    assert [c["status"] for c in body["status"]["conditions"] if c["type"] == "Ready"] == ["True"]
    assert any("its taints from this paste" in n for n in node.notes)


def test_conditions_laid_over_a_row_replace_its_status_column() -> None:
    text = KARPENTER_644.split("Taint still")[0] + (
        "```\nk get no ip-192-168-171-186.us-west-2.compute.internal -o yaml | grep -A 3 conditions:\n"
        "  conditions:\n  - type: Ready\n    status: \"False\"\n    reason: KubeletNotReady\n```\n")
    (node,) = ingest_text(text, "issue.md").objects
    assert [c["status"] for c in node.body()["status"]["conditions"]] == ["False"]
    assert "STATUS" not in node.view.text.columns and node.view.text.age_seconds == 41 * 60


def test_a_taint_cut_by_the_grep_is_left_out_and_the_whole_ones_kept() -> None:
    text = KARPENTER_644.replace("    key: karpenter.sh/not-ready\n",
                                 "    key: karpenter.sh/not-ready\n  - effect: NoExecute\n")
    (node,) = ingest_text(text, "issue.md").objects
    assert [t["key"] for t in node.body()["spec"]["taints"]] == ["karpenter.sh/not-ready"]


def test_a_describes_event_row_quoted_alone_is_read_as_an_event_of_an_object_not_named() -> None:
    # karpenter-provider-aws#644 goes on with the pending pod's one FailedScheduling row, no pod
    # named: it was "code block, not kubectl output", then skipped as "without the object they
    # are about", the pod's reason lost; its From, the scheduler's name, says it is kubectl's.
    text = KARPENTER_644 + ("Second pod is not scheduled and has this warning -\n```\n"
                            "Warning  FailedScheduling  4m35s (x39 over 50m)  default-scheduler  0/5 nodes are "
                            "available: 1 node(s) had taint {karpenter.sh/not-ready: }, that the pod didn't tolerate\n```\n")
    r = ingest_text(text, "issue.md")
    [event] = [o for o in r.objects if o.kind == "Event"]
    assert event.provenance.line == 18 and event.body()["reason"] == "FailedScheduling"
    assert event.body()["count"] == 39 and not event.body()["involvedObject"].get("name")
    assert not [s for s in r.skipped if "Events row" in s.reason]


def test_an_aggregated_apis_conditions_quoted_below_elided_lines_are_that_apiservices() -> None:
    r = ingest_text(ANCHORE_17, "issue.md")
    assert not r.rejections
    (api,) = [o for o in r.objects if o is not None]
    assert (api.kind, api.namespace, api.name) == ("APIService", "", "v1.admission.anchore.io")
    (available,) = api.body()["status"]["conditions"]
    assert (available["status"], available["reason"]) == ("False", "FailedDiscoveryCheck")
    assert available["message"].endswith("/apis/admission.anchore.io/v1: 404")


# Trimmed from devopsaitoolkit.com's "Kubernetes Error Guide: 'OOMKilled' Exit Code 137" (an OOMKilled
# write-up, pages corpus): a pod's row, then `describe pod X | grep -A5 'Last State'`, the one
# container's last state without its name. Before: "could not be read as a kubectl table or describe".
OOM_WRITEUP = """```
$ kubectl get pods -l app=worker
NAME                      READY   STATUS      RESTARTS      AGE
worker-5f7d8c9b6d-h4kpz   0/1     OOMKilled   3 (30s ago)   6m18s
$ kubectl describe pod worker-5f7d8c9b6d-h4kpz | grep -A5 'Last State'
    Last State:     Terminated
      Reason:       OOMKilled
      Exit Code:    137
      Started:      Mon, 23 Jun 2026 14:08:02 +0000
      Finished:     Mon, 23 Jun 2026 14:11:47 +0000
    Ready:          False
```
"""


def _worker(text: str):
    r = ingest_text(text, "writeup.md")
    assert not r.rejections
    (pod,) = [o for o in r.objects if o is not None]
    assert (pod.kind, pod.name) == ("Pod", "worker-5f7d8c9b6d-h4kpz")
    return pod


def test_a_containers_last_state_grepped_from_a_describe_is_laid_over_the_pods_row() -> None:
    pod = _worker(OOM_WRITEUP)
    (status,) = pod.body()["status"]["containerStatuses"]
    assert status["lastState"]["terminated"] == {
        "reason": "OOMKilled", "exitCode": 137,
        "startedAt": "2026-06-23T14:08:02Z", "finishedAt": "2026-06-23T14:11:47Z"}
    assert status["ready"] is False and "state" not in status and status["name"] == ""
    # the row's STATUS stays the word on what the container does now; its AGE is kept
    assert pod.view.text.status == "OOMKilled" and pod.view.text.age_seconds == 378.0
    assert any("its container's state from this paste" in n for n in pod.notes)


def test_the_last_state_flattened_by_a_web_page_is_read_too() -> None:
    flat = "\n".join(line.strip() for line in OOM_WRITEUP.splitlines())
    (status,) = _worker(flat).body()["status"]["containerStatuses"]
    assert status["lastState"]["terminated"]["exitCode"] == 137


def test_a_grep_with_other_lines_than_a_containers_state_stays_unread() -> None:
    # an Image line among them: not one container's state only
    text = OOM_WRITEUP.replace("    Ready:          False", "    Image:          worker:1.4")
    r = ingest_text(text, "writeup.md")
    assert any("could not be read" in x.reason for x in r.rejections)
