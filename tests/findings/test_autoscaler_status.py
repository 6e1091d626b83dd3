"""The cluster autoscaler's status ConfigMap read in each form real pastes show (the rule's
cases are in tests/findings/cases/autoscaler-status.yaml)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import yaml

import analyzer
from analyzer.findings import collect_findings, message
from analyzer.findings.autoscaler_status import managed_by, parse_status, status_configmap
from analyzer.findings.incidents import group_incidents
from analyzer.findings.rules.autoscaler_status import RULE as STATUS_RULE
from analyzer.findings.rules.pod_pending import RULE as PENDING_RULE
from analyzer.findings.types import Finding
from tests.ingest.test_transcripts import _AUTOSCALER_STATUS

# microsoft/tyger#59 (AKS, 2023-11-29), trimmed (tests/ingest): `get configmap NAME -o yaml`
# cut before its kind; the counts with `(resourceUnready=0)`.
TYGER_59 = _AUTOSCALER_STATUS

# kubernetes/autoscaler#6375 (2023-12-20, the PR that made the status YAML): its output on GKE,
# the command in the sentence before the block, trimmed inside its node group.
PR_6375 = """\
Here is the output of the `kubectl get configmap cluster-autoscaler-status --namespace=kube-system -o yaml`
```yaml
apiVersion: v1
data:
  status: |
    time: 2023-12-20 10:52:04.558615784 +0000 UTC
    autoscalerStatus: Running
    clusterWide:
      health:
        status: Healthy
        nodeCounts:
          registered:
            total: 7
            ready: 7
            notStarted: 0
          longUnregistered: 0
          unregistered: 0
        lastProbeTime: "2023-12-20T10:52:04.558615784Z"
        lastTransitionTime: "2023-12-20T10:46:22.549253146Z"
      scaleUp:
        status: InProgress
        lastProbeTime: "2023-12-20T10:52:04.558615784Z"
        lastTransitionTime: "2023-12-20T10:52:04.558615784Z"
      scaleDown:
        status: NoCandidates
        lastProbeTime: "2023-12-20T10:51:54.408045905Z"
    nodeGroups:
    - name: https://www.googleapis.com/compute/v1/projects/sample-project/zones/us-central1-c/instanceGroups/gke-sample-cluster-default-pool-40ce0341-grp
      health:
        status: Healthy
```
"""

# MicrosoftDocs/azure-docs#17360 (AKS, 2018-10-25): `describe configmap`, the autoscaler starting.
DOCS_17360 = """\
D:\\dockerbuild>kubectl -n kube-system describe configmap cluster-autoscaler-status
Name:         cluster-autoscaler-status
Namespace:    kube-system
Labels:       <none>
Annotations:  cluster-autoscaler.kubernetes.io/last-updated=2018-10-25 16:43:49.278121089 +0000 UTC

Data
====
status:
----
Cluster-autoscaler status at 2018-10-25 16:43:49.278121089 +0000 UTC:
Initializing
Events:  <none>
"""

# kubernetes/autoscaler#197 (2017-08-04), trimmed: before longUnregistered was counted, a group's
# target above its ready nodes while a scale-up is in progress.
STATUS_197 = """\
Cluster-autoscaler status at 2017-08-04 14:43:40.552637077 +0000 UTC:
Cluster-wide:
  Health:      Healthy (ready=10 unready=0 notStarted=0 longNotStarted=0 registered=10)
               LastProbeTime:      2017-08-04 14:43:39.709980994 +0000 UTC
               LastTransitionTime: 2017-08-03 18:27:55.053846379 +0000 UTC
  ScaleUp:     InProgress (ready=10 registered=10)
               LastProbeTime:      2017-08-04 14:43:39.709980994 +0000 UTC
               LastTransitionTime: 2017-08-04 14:32:56.359845521 +0000 UTC

NodeGroups:
  Name:        k8s-production-asg
  Health:      Healthy (ready=6 unready=0 notStarted=0 longNotStarted=0 registered=6 cloudProviderTarget=7 (minSize=2, maxSize=70))
               LastProbeTime:      2017-08-04 14:43:39.709980994 +0000 UTC
"""

# Azure/AKS#3733 (AKS 1.25.6, 2023-06-20): the two lines of a node group it asked about.
AKS_3733 = """\
NodeGroups:
  Name:        aks-worker-17816125-vmss
  Health:      Healthy (ready=0 unready=0 (resourceUnready=0) notStarted=1 longNotStarted=0 registered=1 longUnregistered=0 cloudProviderTarget=1 (minSize=1, maxSize=3))
"""


def _status(text: str):
    cluster = analyzer.load({"issue.md": text})
    found = status_configmap(cluster)
    assert found is not None, cluster.ingest.rejections
    return cluster, found[1]


def test_the_text_form_of_an_aks_paste_is_read_and_its_autoscaler_is_the_providers() -> None:
    cluster, status = _status(TYGER_59)
    assert (status.form, status.state) == ("text", "Running")
    health = status.cluster["Health"]
    assert health.status == "Healthy" and health.counts["resourceUnready"] == 0 and health.counts["ready"] == 1
    assert status.cluster["ScaleUp"].status == "InProgress" and not status.groups
    assert status.written == datetime(2023, 11, 29, 13, 34, 29, 1925, tzinfo=UTC)
    assert managed_by(cluster, status) == ""  # (no node group named, the distribution not told)
    aks = parse_status("Cluster-wide:\n" + AKS_3733)
    assert [g.name for g in aks.groups] == ["aks-worker-17816125-vmss"]
    assert managed_by(cluster, aks) == "AKS runs this cluster autoscaler on its control plane"


def test_the_yaml_form_is_read_with_its_counts_and_times_and_a_gke_group_is_the_providers() -> None:
    cluster, status = _status(PR_6375)
    assert (status.form, status.state) == ("yaml", "Running")
    assert status.written == datetime(2023, 12, 20, 10, 52, 4, 558615, tzinfo=UTC)
    assert status.cluster["Health"].counts == {"registered": 7, "ready": 7, "notStarted": 0,
                                               "longUnregistered": 0, "unregistered": 0}
    assert status.cluster["Health"].since == datetime(2023, 12, 20, 10, 46, 22, 549253, tzinfo=UTC)
    assert status.cluster["ScaleDown"].probed == datetime(2023, 12, 20, 10, 51, 54, 408045, tzinfo=UTC)
    assert status.groups[0].name.endswith("/instanceGroups/gke-sample-cluster-default-pool-40ce0341-grp")
    assert managed_by(cluster, status) == "GKE runs this cluster autoscaler on its control plane"


def test_a_described_status_of_an_autoscaler_starting_is_initializing() -> None:
    _, status = _status(DOCS_17360)
    assert status.state == "Initializing" and not status.cluster and not status.groups
    assert status.written == datetime(2018, 10, 25, 16, 43, 49, 278121, tzinfo=UTC)


def test_older_and_partial_text_forms_give_their_sizes_and_counts() -> None:
    status = parse_status(STATUS_197)
    group = status.groups[0]
    health = group.conditions["Health"]
    assert (group.name, health.min_size, health.max_size, health.counts["cloudProviderTarget"]) == \
        ("k8s-production-asg", 2, 70, 7)
    assert "longUnregistered" not in health.counts and "minSize" not in health.counts
    assert status.cluster["Health"].probed == datetime(2017, 8, 4, 14, 43, 39, 709980, tzinfo=UTC)
    # a paste of its NodeGroups lines alone is no status: the head and Cluster-wide say it is one
    assert parse_status(AKS_3733) is None
    group = parse_status("Cluster-wide:\n" + AKS_3733).groups[0]
    assert group.conditions["Health"].counts["notStarted"] == 1 and group.conditions["Health"].max_size == 3


def test_an_eks_group_is_the_customers_autoscaler() -> None:
    status = parse_status(STATUS_197.replace("k8s-production-asg", "eks-workers-2c1f9d3b-a8e2-4f11-9c3e-8b7a6d5e4f30"))
    assert managed_by(SimpleNamespace(distribution=SimpleNamespace(name="eks")), status) == ""


def test_a_healthy_or_starting_status_makes_no_finding() -> None:
    for text in (TYGER_59, PR_6375, DOCS_17360):
        cluster = analyzer.load({"issue.md": text})
        assert not [f for f in collect_findings(cluster) if f.rule == "autoscaler-status" and f.status == "fail"]


def _pending_paste(name: str) -> str:
    """A pasted pending pod of tests/findings/cases/pod-pending.yaml, by its case's name."""
    doc = yaml.safe_load((Path(__file__).parent / "cases" / "pod-pending.yaml").read_text(encoding="utf-8"))
    return next(c for c in doc["cases"] if c["name"] == name)["files"]["issue.md"]


def _status_map(status: str) -> str:
    """A status as its ConfigMap holds it, as `get -o yaml` prints it."""
    return yaml.safe_dump({"apiVersion": "v1", "kind": "ConfigMap", "data": {"status": status},
                           "metadata": {"name": "cluster-autoscaler-status", "namespace": "kube-system"}})


# kubernetes-retired/contrib#2409's example status: its node group ng1 Unhealthy and at its
# maximum size (cloudProviderTarget=5, max=5).
CONTRIB_2409 = """\
Cluster-wide:
  Health:      Healthy (ready=0 unready=1 notStarted=0 longNotStarted=0 registered=1)
               LastProbeTime:      0001-01-01 00:00:00 +0000 UTC
               LastTransitionTime: 0001-01-01 00:00:00 +0000 UTC

NodeGroups:
  Name:        ng1
  Health:      Unhealthy (ready=0 unready=1 notStarted=0 longNotStarted=0 registered=1 cloudProviderTarget=5 (min=5, max=5))
               LastProbeTime:      0001-01-01 00:00:00 +0000 UTC
               LastTransitionTime: 0001-01-01 00:00:00 +0000 UTC
"""
# The pod pending under "2 max node group size reached" (huangyingting/llm-inference, AKS), in
# the pod-pending cases; the two were not pasted together: a dump that holds both.
VLLM = "a pending pod whose node group is at its maximum size says to raise the group's maximum"
# The pod pending under "1 in backoff after failed scale-up" (olga-mir/k8s, GKE) and the node
# group its TriggeredScaleUp names.
GKE_IP = "a pending pod is said with the autoscaler's refusal and the failed scale-up before it"
GKE_IP_GROUP = ("https://www.googleapis.com/compute/v1/projects/PROJECT_ID/zones/australia-southeast1-b/"
                "instanceGroups/gke-demo-ip-original-nodepool-22330990-grp")


def _pending(cluster) -> Finding:
    return next(f for f in collect_findings(cluster) if f.rule == "pod-pending" and f.status == "fail")


def test_a_pending_pods_node_group_at_its_maximum_is_cited_where_the_status_agrees() -> None:
    cluster = analyzer.load({"issue.md": _pending_paste(VLLM), "status.yaml": _status_map(CONTRIB_2409)})
    finding = _pending(cluster)
    assert finding.facts["autoscaler_groups"] == ["ng1"]
    assert message(finding, PENDING_RULE).endswith(
        "2 max node group size reached; a node group that would take it is at its maximum size (raise the group's "
        "maximum); its status agrees: node group ng1 is at its maximum size (5 of 5)")
    # one incident: the group's own finding (Unhealthy) is the cause, the pod pends for it
    incident = next(i for i in group_incidents(collect_findings(cluster), cluster)
                    if any(f.rule == "pod-pending" for f in i.members))
    assert incident.cause_rule == "autoscaler-status" and {f.rule for f in incident.members} == \
        {"autoscaler-status", "pod-pending"}
    assert incident.cause == "Node group ng1 (the cluster autoscaler's status, ConfigMap kube-system/cluster-autoscaler-status)"
    # a status whose groups are not at their maximum does not agree: nothing cited, nothing joined
    below = CONTRIB_2409.replace("cloudProviderTarget=5 (min=5, max=5)", "cloudProviderTarget=5 (min=5, max=9)")
    cluster = analyzer.load({"issue.md": _pending_paste(VLLM), "status.yaml": _status_map(below)})
    finding = _pending(cluster)
    assert "autoscaler_groups" not in finding.facts and "its status" not in message(finding, PENDING_RULE)


def test_a_pending_pods_node_group_in_backoff_is_cited_with_the_statuss_error() -> None:
    # upstream's status_test.yaml (clusterstate/utils), its node group named as the GKE paste's is
    upstream = (Path(__file__).parent / "cases" / "autoscaler-status.yaml").read_text(encoding="utf-8")
    status = yaml.safe_load(upstream)["cases"][0]["objects"][0]["data"]["status"]
    status = status.replace('name: "sample-node-group"', f'name: "{GKE_IP_GROUP}"')
    cluster = analyzer.load({"issue.md": _pending_paste(GKE_IP), "status.yaml": _status_map(status)})
    finding = _pending(cluster)
    assert finding.facts["autoscaler_groups"] == [GKE_IP_GROUP]
    assert (f"; its status agrees: node group {GKE_IP_GROUP} is in Backoff after a failed scale-up (QUOTA_EXCEEDED: "
            "Instance 'sample-node-group-40ce0341-t28s' creation failed") in message(finding, PENDING_RULE)
    managed = next(f for f in collect_findings(cluster) if f.rule == "autoscaler-status")
    assert managed.managed == "" and managed.facts["node_group"] == GKE_IP_GROUP  # the group's quota: the customer's


def _upstream_status() -> str:
    """upstream's status_test.yaml, as the autoscaler-status cases hold it."""
    upstream = (Path(__file__).parent / "cases" / "autoscaler-status.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(upstream)["cases"][0]["objects"][0]["data"]["status"]


def test_a_node_group_a_scale_up_grew_and_that_backs_off_is_cited() -> None:
    # the GKE paste cut after its TriggeredScaleUp, which names the group it grew
    paste = _pending_paste("a pending pod whose autoscaler set off a scale-up for it minutes before is a warning")
    status = _upstream_status().replace('name: "sample-node-group"', f'name: "{GKE_IP_GROUP}"')
    finding = _pending(analyzer.load({"issue.md": paste, "status.yaml": _status_map(status)}))
    assert finding.facts["autoscaler_groups"] == [GKE_IP_GROUP]
    said = message(finding, PENDING_RULE)
    assert (f"; but no node is coming for it, its status says: node group {GKE_IP_GROUP} is in Backoff after a "
            "failed scale-up") in said
    # the scale-up 97s before is within a node's provisioning time, but its group backs off: no
    # node is being added, so its severity says so (was a warning, "a node is being added for it")
    assert "a node is being added" not in said and finding.severity == "critical"
    # a group the scale-up did not grow is not its cause: the node may be on its way
    finding = _pending(analyzer.load({"issue.md": paste, "status.yaml": _status_map(_upstream_status())}))
    assert "autoscaler_groups" not in finding.facts
    assert "a node is being added for it" in message(finding, PENDING_RULE) and finding.severity == "warning"


def test_the_autoscaler_unhealthy_is_critical_and_says_what_it_stops() -> None:
    # upstream's status_test.yaml with its cluster-wide health Unhealthy (a status value its api
    # types define: too many nodes unready), its groups cut off
    status = _upstream_status().replace('status: "Healthy"', 'status: "Unhealthy"', 1)
    status = status[:status.index("nodeGroups:")]
    found = [f for f in collect_findings(analyzer.load({"status.yaml": _status_map(status)}))
             if f.rule == "autoscaler-status" and f.status == "fail"]
    assert [f.severity for f in found] == ["critical", "warning"]
    said = [message(f, STATUS_RULE) for f in found]
    assert said[0].startswith("The cluster autoscaler's status says the cluster is Unhealthy (registered=11 ready=4 "
                              "notStarted=3 unready=2 longUnregistered=1 unregistered=2), since 2023-11-23 14:52:02Z, "
                              "13h before its last probe: it neither adds nor removes nodes")
    # its groups cut off, the cluster's count of long-unregistered nodes is said alone
    assert "the cluster has 1 node(s) long unregistered" in said[1]


def _event_at(when: str) -> str:
    """A hand-made event of `when`, the newest time of a dump: its capture came then or later."""
    return yaml.safe_dump({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e1", "namespace": "default"},
                           "involvedObject": {"kind": "Pod", "namespace": "default", "name": "web"}, "type": "Normal",
                           "reason": "Pulled", "message": "Successfully pulled image", "lastTimestamp": when})


def test_a_status_stuck_initializing_long_before_the_capture_is_stale() -> None:
    # MicrosoftDocs/azure-docs#17360's describe ("Initializing" at 16:43:49), beside a hand-made
    # event of 18:00 that dates the capture: the autoscaler never got past starting

    later = _event_at("2018-10-25T18:00:00Z")
    found = [f for f in collect_findings(analyzer.load({"issue.md": DOCS_17360, "event.yaml": later}))
             if f.rule == "autoscaler-status" and f.status == "fail"]
    assert [message(f, STATUS_RULE) for f in found] == [
        "The cluster autoscaler's status says it was last written 2018-10-25 16:43:49Z, at least 76m before capture, "
        "Initializing: the autoscaler has not written it since (not running, or not this cluster's any more); what "
        "it says is of then, not of the capture"]


def test_a_backoff_probed_just_before_the_capture_is_said_since_when_and_still_so() -> None:
    # upstream's status_test.yaml (probed 04:28:19) beside a hand-made event of 04:30 that dates
    # the capture: current, its backoff began 13h before
    later = _event_at("2023-11-24T04:30:00Z")
    cluster = analyzer.load({"status.yaml": _status_map(_upstream_status()), "event.yaml": later})
    found = [f for f in collect_findings(cluster) if f.rule == "autoscaler-status" and f.status == "fail"]
    assert len(found) == 1 and found[0].facts["node_group"] == "sample-node-group"
    said = message(found[0], STATUS_RULE)
    assert "Limit: 57.0 in region us-central1), since 2023-11-23 14:52:02Z, at least 13h before capture: " in said
    assert said.endswith("; still so at its last probe, at least 101s before capture")


def test_a_status_edited_out_of_its_shape_is_read_as_far_as_it_goes() -> None:
    # (a YAML status whose lists and mappings hold other types, as an edited dump may)
    status = parse_status("autoscalerStatus: Running\nnodeGroups: 5\nclusterWide: {health: 7, scaleUp: {status: "
                          "Backoff, lastProbeTime: 5, backoffInfo: x}}")
    assert status.groups == () and status.cluster["ScaleUp"].probed is None and status.cluster["ScaleUp"].error == ""
