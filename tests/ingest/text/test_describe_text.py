"""Each table kind kubectl prints becomes objects of that kind (cases/describes.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from analyzer.ingest.text import parse_kubectl_text
from ingest.text.expect import check_case

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "describes.yaml").read_text("utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_describe(case: dict) -> None:
    check_case(parse_kubectl_text(case["text"], "case.txt"), case)


# Trimmed from eksctl-io/eksctl#5696 (github.com/eksctl-io/eksctl/pull/5696, turn 0): only the
# Events section of `kubectl describe pod` of a failing aws-node pod was pasted.
_EKSCTL_5696 = """Failing aws-node

Events:
  Type     Reason          Age                   From               Message
  ----     ------          ----                  ----               -------
  Normal   Scheduled       56m                   default-scheduler  Successfully assigned kube-system/aws-node-crvvl to ip-192-168-54-117.us-west-2.compute.internal
  Normal   Pulling         56m                   kubelet            Pulling image "602401143452.dkr.ecr.us-west-2.amazonaws.com/amazon-k8s-cni-init:v1.11.3-eksbuild.1"
  Normal   Started         56m                   kubelet            Started container aws-vpc-cni-init
"""


def test_events_pasted_alone_are_read_about_the_pod_the_scheduler_names() -> None:
    parsed = parse_kubectl_text(_EKSCTL_5696, "eksctl-5696.md")
    assert [(o.kind, o.namespace, o.body["reason"]) for o in parsed.objects] == [
        ("Event", "kube-system", "Scheduled"), ("Event", "kube-system", "Pulling"), ("Event", "kube-system", "Started")]
    assert {o.body["involvedObject"]["name"] for o in parsed.objects} == {"aws-node-crvvl"}
    assert not parsed.rejections


# Trimmed from a ka0s deployment report (a report script's output in a public repository,
# 2026-03-19, kubeadm cluster, namespace storage-system): each pod's describe pasted from its
# Volumes' tail on, under the script's `--- Description for POD ---` heading, then the script's
# `--- Logs for POD ---` and kubectl's error. Before: "describe without a Name: it has no name;
# nothing read", the pod's FailedMount and NodeNotReady lost; the events' messages ran on over
# the script's headings and kubectl's error below them.
_KA0S_REPORT = """--- Description for nfs-validation-job-nwm6k ---
    ClaimName:  nfs-validation-pvc
    ReadOnly:   false
QoS Class:                   BestEffort
Node-Selectors:              ka0s.io/default-worker=true
Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s
                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s
Events:
  Type     Reason       Age                   From               Message
  ----     ------       ----                  ----               -------
  Normal   Scheduled    10m                   default-scheduler  Successfully assigned storage-system/nfs-validation-job-nwm6k to k8-node-20
  Warning  FailedMount  6m34s (x10 over 10m)  kubelet            MountVolume.SetUp failed for volume "pvc-b5e5ac38" : mount failed: exit status 32
Mounting command: mount
Output: mount.nfs: mounting 192.168.1.40:/mnt/k8s-storage failed, reason given by server: No such file or directory
--- Logs for nfs-validation-job-nwm6k (Current) ---
Error from server: Get "https://192.168.1.20:10250/containerLogs/storage-system/nfs-validation-job-nwm6k/validation?tailLines=50": dial tcp 192.168.1.20:10250: connect: no route to host
Failed to fetch current logs
"""


def test_a_pods_describe_pasted_from_its_middle_is_the_pod_its_scheduled_event_names() -> None:
    parsed = parse_kubectl_text(_KA0S_REPORT, "report.txt")
    pod, scheduled, mount = parsed.objects
    assert (pod.body["kind"], pod.body["metadata"]) == ("Pod", {"name": "nfs-validation-job-nwm6k", "namespace": "storage-system"})
    assert "named by its Scheduled event" in pod.notes[0]
    assert pod.body["spec"]["tolerations"] and pod.body["status"]["qosClass"] == "BestEffort"
    assert {e.body["involvedObject"]["name"] for e in (scheduled, mount)} == {"nfs-validation-job-nwm6k"}
    assert mount.body["message"].endswith("reason given by server: No such file or directory")
    assert not parsed.rejections
    # without the Scheduled row nothing names it: said, not guessed
    unnamed = parse_kubectl_text(_KA0S_REPORT.replace(_KA0S_REPORT.splitlines()[10] + "\n", ""), "report.txt")
    assert not [o for o in unnamed.objects if o.body["kind"] == "Pod"]
    assert [r.reason for r in unnamed.rejections] == ["describe without a Name: it has no name; nothing read"]


def test_events_pasted_alone_under_a_describe_command_are_about_what_it_names() -> None:
    # shaped as the above, a warning instead; the command names the pod
    text = ("$ kubectl describe pod web-1 -n shop | tail -4\nEvents:\n"
            "  Type     Reason            Age               From               Message\n"
            "  ----     ------            ----              ----               -------\n"
            "  Warning  FailedScheduling  2m (x5 over 3m)   default-scheduler  0/3 nodes are available: 3 Insufficient cpu.\n")
    [event] = parse_kubectl_text(text, "paste.txt").objects
    assert event.body["involvedObject"] == {"apiVersion": "v1", "kind": "Pod", "name": "web-1", "namespace": "shop"}
    assert event.body["count"] == 5


def test_a_line_saying_events_in_prose_is_no_events_section() -> None:
    assert not parse_kubectl_text("Events:\nnothing happened that day.\n", "notes.txt").objects


# Trimmed from confluentinc/confluent-kubernetes-examples scheduling/pod-scheduling/README.md
# (an AKS node described to pick a topology key): the README shows the describe from its
# Labels on, under the command that names the node; the pod's describe names a placeholder.
_AKS_NODE_LABELS = """> kubectl describe node/aks-agentpool-18842733-vmss000001

Labels:             agentpool=agentpool
                    kubernetes.azure.com/agentpool=agentpool
                    kubernetes.azure.com/cluster=MC_taku-test_taku-test_japaneast
                    kubernetes.azure.com/mode=system
                    topology.kubernetes.io/zone=japaneast-2
"""


def test_an_excerpt_from_labels_on_is_the_object_its_describe_command_names() -> None:
    parsed = parse_kubectl_text(_AKS_NODE_LABELS, "README.md")
    [node] = parsed.objects
    assert node.body["kind"] == "Node" and node.body["metadata"]["name"] == "aks-agentpool-18842733-vmss000001"
    assert node.body["metadata"]["labels"]["kubernetes.azure.com/cluster"] == "MC_taku-test_taku-test_japaneast"
    assert "named from the command line" in node.notes[0]
    placeholder = _AKS_NODE_LABELS.replace("node/aks-agentpool-18842733-vmss000001", "node/<node-name>")
    assert not parse_kubectl_text(placeholder, "README.md").objects


# Trimmed from a Korean OKE workshop page (a markdown file of the public code index, its repository not resolved):
# `describe pod` whose nesting its author flattened, so `Volumes:` and the volume's name start
# new excerpts further down under the same command. Only an excerpt that is the command's first
# output is the object the command names; these later ones must not become a second sighting
# of the pod (it would hide the describe's Start Time, the paste's only clock).
_OKE_FLATTENED_DESCRIBE = """$ kubectl describe pod oke-sample-5d59bb9596-wgk6n

Name:           oke-sample-5d59bb9596-wgk6n
Namespace:      jonggyou
Priority:       0
Node:           10.0.10.4/10.0.10.4
Start Time:     Thu, 14 May 2020 08:26:59 +0000
Labels:         app=oke-sample
                pod-template-hash=5d59bb9596
Annotations:    <none>
Status:         Running
IP:             10.244.2.7
Controlled By:  ReplicaSet/oke-sample-5d59bb9596
Containers:
oke-sample:
    Container ID:   docker://e0944ddb7dd10349f2a77f36c777cf93442f4c8a58dd35bf4bda9c25b233af2c
    Image:          shiftyou/oke-sample
    Image ID:       docker-pullable://shiftyou/oke-sample@sha256:21b5119d81bf23eaae26616f644de26b647306075e902bacb8c18a7b0e083097
    Port:           8080/TCP
    Host Port:      0/TCP
    State:          Running
    Started:      Thu, 14 May 2020 08:27:03 +0000
    Ready:          True
    Restart Count:  0
    Environment:
    MYSQL_SERVICE_HOST:  oke-mysql.default
    Mounts:
    /var/run/secrets/kubernetes.io/serviceaccount from default-token-jx4ds (ro)
Conditions:
Type              Status
Initialized       True
Ready             True
ContainersReady   True
PodScheduled      True
Volumes:
default-token-jx4ds:
    Type:        Secret (a volume populated by a Secret)
    SecretName:  default-token-jx4ds
    Optional:    false
QoS Class:       BestEffort
Node-Selectors:  <none>
Tolerations:     node.kubernetes.io/not-ready:NoExecute for 300s
                node.kubernetes.io/unreachable:NoExecute for 300s
Events:          <none>
"""


def test_a_later_excerpt_under_a_describe_command_is_not_named_by_it() -> None:
    parsed = parse_kubectl_text(_OKE_FLATTENED_DESCRIBE, "workshop.md")
    pods = [o for o in parsed.objects if o.body["kind"] == "Pod"]
    assert [p.body["metadata"]["name"] for p in pods] == ["oke-sample-5d59bb9596-wgk6n"]
    assert pods[0].body["status"]["startTime"] == "2020-05-14T08:26:59Z"


# Trimmed from kubernetes-sigs/kubebuilder#3052 (github.com/kubernetes-sigs/kubebuilder/issues/3052):
# only the Events of `kubectl describe replicaset` were pasted; the replicaset controller's
# `Created pod: NAME-zbnbl` names the ReplicaSet they are about (its webhook failures were
# "about an object the events do not name" before).
_KUBEBUILDER_3052 = """Events:
  Type     Reason            Age                From                   Message
  ----     ------            ----               ----                   -------
  Normal   SuccessfulCreate  4m43s              replicaset-controller  Created pod: tcaplus-controller-manager-654b78675c-zbnbl
  Normal   SuccessfulDelete  50s                replicaset-controller  Deleted pod: tcaplus-controller-manager-654b78675c-zbnbl
  Warning  FailedCreate      3s (x13 over 23s)  replicaset-controller  Error creating: Internal error occurred: failed calling webhook "mpod.kb.io": Post "https://tcaplus-webhook-service.tcaplus-system.svc:443/mutate-v1-pod?timeout=10s": no endpoi
"""


def test_events_pasted_alone_are_about_the_workload_whose_pods_its_controller_created() -> None:
    parsed = parse_kubectl_text(_KUBEBUILDER_3052, "kubebuilder-3052.md")
    assert {(o.body["involvedObject"]["kind"], o.body["involvedObject"]["name"]) for o in parsed.objects} == {
        ("ReplicaSet", "tcaplus-controller-manager-654b78675c")}
    assert [o.body["reason"] for o in parsed.objects] == ["SuccessfulCreate", "SuccessfulDelete", "FailedCreate"]


def test_events_of_two_workloads_pasted_alone_name_neither() -> None:
    text = _KUBEBUILDER_3052.replace("Deleted pod: tcaplus-controller-manager-654b78675c-zbnbl",
                                     "Deleted pod: other-654b78675c-zbnbl")
    assert {o.body["involvedObject"].get("name") for o in parse_kubectl_text(text, "paste.md").objects} == {None}


# `kubectl describe --show-events=false` (rev11b: kubectl 1.32 against `kda serve` of review3's AKS
# arena dump), trimmed: without events the describe ends whole with its Tolerations.
_NO_EVENTS = """\
PS C:\\Users\\arena> kubectl -n kube-system describe pod tunnelfront-6869944cf6-j2zsk --show-events=false
Name:                 tunnelfront-6869944cf6-j2zsk
Namespace:            kube-system
Node:                 aks-nodepool1-28869405-vmss000000/10.240.0.4
Start Time:           Wed, 03 Jun 2020 17:51:20 +0000
Status:               Running
QoS Class:       Burstable
Node-Selectors:  beta.kubernetes.io/os=linux
Tolerations:     CriticalAddonsOnly op=Exists
                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s
                 node.kubernetes.io/unreachable:NoExecute op=Exists for 300s
PS C:\\Users\\arena> kubectl get events -A
No resources found
"""


def test_a_describe_told_to_show_no_events_ends_whole_before_them() -> None:
    import analyzer

    whole = analyzer.load({"session.txt": _NO_EVENTS}).ingest
    assert [o.name for o in whole.objects] == ["tunnelfront-6869944cf6-j2zsk"] and whole.rejections == []
    # the same describe typed without the flag stops before its Events: cut, said (kept, as truncated)
    cut = analyzer.load({"session.txt": _NO_EVENTS.replace(" --show-events=false", "")}).ingest
    assert cut.rejections == [] and [r.reason for r in cut.truncated] == [
        "describe of Pod 'tunnelfront-6869944cf6-j2zsk' ends mid-section 'Tolerations'"]


# Azure/AKS#3681 (2023-05-25, a pod that failed to start during an AKS upgrade): a describe's
# Events copied from a terminal 90 columns wide, every row and its message's pieces cut at
# column 90 (`...Successfu` / `lly assigned prd/foo-db-1 to ...`). Before: the messages were
# `Successfu`, `Unable to`: the pod not named, the mount failure not said.
_AKS_3681 = """\
```
Events:
  Type     Reason                  Age                  From                     Message
  ----     ------                  ----                 ----                     -------
  Normal   Scheduled               29m                  default-scheduler        Successfu
lly assigned prd/foo-db-1 to aks-agentpool-38920371-16
  Normal   SuccessfulAttachVolume  28m                  attachdetach-controller  AttachVol
ume.Attach succeeded for volume 'pvc-667085a6-2304-11e9-a249-2227bf1dfd8d'
  Warning  FailedMount             5m17s (x4 over 25m)  kubelet                  Unable to
 attach or mount volumes: unmounted volumes=[datadir], unattached volumes=[certs datadir]:
 timed out waiting for the condition
  Warning  FailedMount             44s (x9 over 27m)    kubelet                  Unable to
 attach or mount volumes: unmounted volumes=[datadir], unattached volumes=[datadir certs]:
 timed out waiting for the condition
"""


def test_events_a_terminal_wrapped_at_its_width_are_whole_again() -> None:
    objects = parse_kubectl_text(_AKS_3681, "aks-3681.md").objects
    assert {o.body["involvedObject"].get("name") for o in objects} == {"foo-db-1"}
    assert [o.body["message"] for o in objects][0] == "Successfully assigned prd/foo-db-1 to aks-agentpool-38920371-16"
    assert objects[-1].body["message"] == ("Unable to attach or mount volumes: unmounted volumes=[datadir], "
                                           "unattached volumes=[datadir certs]: timed out waiting for the condition")


def test_a_long_row_with_shorter_lines_around_it_is_no_terminal_wrap() -> None:
    # the same rows unwrapped, one message cut where the paste ended: not joined onto the next row
    text = _AKS_3681.replace("Successfu\nlly", "Successfully").replace("AttachVol\nume", "AttachVolume")
    text = text.replace("Unable to\n attach", "Unable to attach").replace("datadir]:\n timed", "datadir]: timed")
    messages = [o.body["message"] for o in parse_kubectl_text(text, "paste.md").objects]
    assert messages[0] == "Successfully assigned prd/foo-db-1 to aks-agentpool-38920371-16" and len(messages) == 4


# MicrosoftDocs/azure-docs#9121 (a comment of 2018-05-29, AKS's scale tutorial): `kubectl describe
# hpa` copied from a terminal 120 columns wide, the ScalingActive message cut at column 120 onto a
# line less indented than its row and one at column 0. Before: the message ended 'unable to get
# metrics', the cause (the metrics API not served) lost, and 'k8s.io)' was 'not read'.
_AZURE_DOCS_9121 = """\
kubectl describe hpa
Name:                                                  azure-vote-front
Namespace:                                             default
CreationTimestamp:                                     Tue, 29 May 2018 08:18:18 +0200
Reference:                                             Deployment/azure-vote-front
Metrics:                                               ( current / target )
  resource cpu on pods  (as a percentage of request):  <unknown> / 50%
Min replicas:                                          3
Max replicas:                                          10
Conditions:
  Type           Status  Reason                   Message
  ----           ------  ------                   -------
  AbleToScale    True    SucceededGetScale        the HPA controller was able to get the target's current scale
  ScalingActive  False   FailedGetResourceMetric  the HPA was unable to compute the replica count: unable to get metrics
 for resource cpu: unable to fetch metrics from API: the server could not find the requested resource (get pods.metrics.
k8s.io)
Events:                                                <none>
"""


def test_a_condition_row_a_terminal_wrapped_at_its_width_is_whole_again() -> None:
    parsed = parse_kubectl_text(_AZURE_DOCS_9121, "issue.md")
    [hpa] = [o.body for o in parsed.objects]
    assert hpa["status"]["conditions"][1]["message"] == (
        "the HPA was unable to compute the replica count: unable to get metrics for resource cpu: unable to fetch "
        "metrics from API: the server could not find the requested resource (get pods.metrics.k8s.io)")
    assert not parsed.unread and not parsed.rejections


def test_a_long_condition_row_without_a_second_line_as_wide_is_no_terminal_wrap() -> None:
    # the row whole on one line, a writer's note under the describe: the note is not joined onto it
    text = _AZURE_DOCS_9121.replace("metrics\n for", "metrics for").replace("metrics.\nk8s", "metrics.k8s")
    text = text.replace("Events:                                                <none>\n", "(it never scaled)\n")
    parsed = parse_kubectl_text(text, "issue.md")
    [hpa] = [o.body for o in parsed.objects]
    assert hpa["status"]["conditions"][1]["message"].endswith("(get pods.metrics.k8s.io)")


# From aws/karpenter-provider-aws#7738 (EKS, Karpenter 1.x, 2025-02-14): a NodeClaim's describe,
# its instance launched and its node never registered; the header lines (Name, API Version, Kind,
# Metadata) are as kubectl prints a NodeClaim, the Status as the issue quotes it, trimmed. Only
# the header's own fields were kept before: the conditions were lost.
_NODECLAIM_7738 = """Name:         default-xk2lp
Namespace:
Labels:       karpenter.sh/nodepool=default
API Version:  karpenter.sh/v1
Kind:         NodeClaim
Metadata:
  Creation Timestamp:  2025-02-14T07:15:25Z
Status:
  Conditions:
    Last Transition Time:  2025-02-14T07:15:25Z
    Message:               Node not registered with cluster
    Observed Generation:   1
    Reason:                NodeNotFound
    Status:                Unknown
    Type:                  Registered
    Last Transition Time:  2025-02-14T07:15:27Z
    Message:
    Observed Generation:   1
    Reason:                Launched
    Status:                True
    Type:                  Launched
  Image ID:                ami-0262a19088a11e248
  Provider ID:             aws:///ap-south-2b/i-0e593f835ff381a22
Events:                    <none>
"""


def test_a_custom_resources_describe_is_read_back_into_its_fields() -> None:
    parsed = parse_kubectl_text(_NODECLAIM_7738, "issue.md")
    [claim] = [o.body for o in parsed.objects]
    assert (claim["apiVersion"], claim["kind"]) == ("karpenter.sh/v1", "NodeClaim")
    assert claim["metadata"]["creationTimestamp"] == "2025-02-14T07:15:25Z"
    assert claim["metadata"]["labels"] == {"karpenter.sh/nodepool": "default"}
    assert claim["status"]["conditions"] == [
        {"lastTransitionTime": "2025-02-14T07:15:25Z", "message": "Node not registered with cluster",
         "observedGeneration": "1", "reason": "NodeNotFound", "status": "Unknown", "type": "Registered"},
        {"lastTransitionTime": "2025-02-14T07:15:27Z", "observedGeneration": "1", "reason": "Launched",
         "status": "True", "type": "Launched"}]
    assert claim["status"]["providerID"] == "aws:///ap-south-2b/i-0e593f835ff381a22"


# Trimmed from openshift/svt#738 (turn 4, an OpenShift node on GCP, `oc describe node`, cut after
# its third annotation as the corpus kept it): kubectl prints a long annotation as `key:` with its
# value two columns in on the next line. Before: the CSI node id's JSON was read as an annotation
# of its own, keyed `{"pd.csi.storage.gke.io"`, and the nodeid left empty.
_SVT_738 = """\
Name:               pubenda-g7-ngbj6-worker-b-2nqjc.c.openshift-qe.internal
Roles:              worker
Labels:             kubernetes.io/hostname=pubenda-g7-ngbj6-worker-b-2nqjc.c.openshift-qe.internal
                    topology.gke.io/zone=us-central1-b
Annotations:        cloud.network.openshift.io/egress-ipconfig: [{"interface":"nic0","ifaddr":{"ipv4":"10.0.128.0/17"},"capacity":{"ip":10}}]
                    csi.volume.kubernetes.io/nodeid:
                      {"pd.csi.storage.gke.io":"projects/openshift-qe/zones/us-central1-b/instances/pubenda-g7-ngbj6-worker-b-2nqjc"}
                    k8s.ovn.org/host-addresses: ["10.0.128.3"]
"""


def test_a_long_annotation_under_its_key_is_that_keys_value() -> None:
    parsed = parse_kubectl_text(_SVT_738, "svt-738.md")
    node = next(o for o in parsed.objects if o.kind == "Node")
    assert node.body["metadata"]["annotations"] == {
        "cloud.network.openshift.io/egress-ipconfig":
            '[{"interface":"nic0","ifaddr":{"ipv4":"10.0.128.0/17"},"capacity":{"ip":10}}]',
        "csi.volume.kubernetes.io/nodeid":
            '{"pd.csi.storage.gke.io":"projects/openshift-qe/zones/us-central1-b/instances/pubenda-g7-ngbj6-worker-b-2nqjc"}',
        "k8s.ovn.org/host-addresses": '["10.0.128.3"]',
    }
