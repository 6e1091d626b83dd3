"""Every real dump in shared/realdata ingests with exact, independently checked counts.

The counts per kind are the object counts of SOURCES.md's Files table summed per directory
(objects read = kept + duplicates), and were re-counted with a plain `json.raw_decode` walk for
the rows SOURCES.md truncates ("…") and for the items it lists as "(no kind)", whose kind comes
from their path or selfLink here.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import REALDATA

from analyzer.ingest import IngestResult, ingest


@dataclass(frozen=True)
class Expected:
    """What one realdata directory must give (structured objects only; see `text_files`)."""

    kinds: dict[str, int]
    read: int
    duplicates: int
    logs: int
    capture_time: str | None
    formats: tuple[str, ...]
    # Files of pasted kubectl text (describe, tables): read by analyzer.ingest.text when present,
    # otherwise skipped as plain text. Their objects are the text stage's to test.
    text_files: int = 0
    rejected: tuple[tuple[str, str, str], ...] = ()  # (file name, location, reason)
    input_rejected: tuple[tuple[str, str], ...] = ()


def _text_stage_present() -> bool:
    try:
        from analyzer.ingest.text import looks_like_kubectl_text, parse_kubectl_text  # noqa: F401
    except ImportError:
        return False
    return True


EXPECTED: dict[str, Expected] = {
    "aks/autoscaler-issue-2805": Expected(
        kinds={},
        read=0, duplicates=0, logs=0, capture_time=None,
        formats=(),
        text_files=1,
    ),
    "aks/azure-aks-issue-1461": Expected(
        kinds={},
        read=0, duplicates=0, logs=0, capture_time=None,
        formats=(),
        text_files=1,
    ),
    "aks/holmesgpt-fixtures": Expected(
        kinds={'Pod': 1},
        read=1, duplicates=0, logs=0, capture_time=None,
        formats=('kubectl-yaml',),
        text_files=3,
    ),
    "aks/virtual-kubelet-issue-1250": Expected(
        kinds={},
        read=0, duplicates=0, logs=0, capture_time=None,
        formats=(),
        text_files=1,
    ),
    "docker-desktop/multi-k8s-ciobotaru": Expected(
        kinds={'DaemonSet': 1, 'Deployment': 7, 'Node': 1, 'Pod': 18, 'ReplicaSet': 11, 'Service': 8},
        read=46, duplicates=0, logs=18, capture_time='2019-12-26T10:12:29Z',
        formats=('cluster-info-dump',),
    ),
    "eks/holmesgpt-fixtures": Expected(
        kinds={},
        read=0, duplicates=0, logs=0, capture_time=None,
        formats=(),
        text_files=3,
    ),
    "gke/cryptnono-issue-34": Expected(
        kinds={},
        read=0, duplicates=0, logs=0, capture_time=None,
        formats=(),
        text_files=1,
    ),
    "gke/holmesgpt-fixtures": Expected(
        kinds={},
        read=0, duplicates=0, logs=0, capture_time=None,
        formats=(),
        text_files=3,
    ),
    "k3s/troubleshoot-testdata-supportbundle": Expected(  # static-hi.log: a link's stub (its target's path)
        kinds={'Addon': 12, 'ClusterRole': 69, 'ClusterRoleBinding': 54, 'CustomResourceDefinition': 12, 'Deployment': 5, 'Event': 5, 'HelmChart': 2, 'IngressRoute': 1, 'Job': 2, 'Namespace': 4, 'Node': 1, 'PersistentVolume': 4, 'PersistentVolumeClaim': 4, 'Pod': 8, 'ReplicaSet': 6, 'Role': 7, 'RoleBinding': 9, 'Service': 4, 'StorageClass': 1},
        read=210, duplicates=0, logs=19, capture_time='2022-12-21T16:43:09Z',
        formats=('support-bundle', 'support-bundle logs'),
        text_files=0,
    ),
    "k3s/udacity-nd064-cluster-info-dump": Expected(
        kinds={'DaemonSet': 2, 'Deployment': 6, 'Event': 2, 'Node': 1, 'Pod': 15, 'ReplicaSet': 6, 'Service': 15},
        read=47, duplicates=0, logs=17, capture_time='2020-10-13T08:51:20Z',
        formats=('cluster-info-dump',),
    ),
    "kind/k9s-testdata": Expected(
        kinds={'Pod': 1},
        read=1, duplicates=0, logs=0, capture_time='2024-08-24T01:54:39Z',  # the pod's Ready transition
        formats=('kubectl-json',),
    ),
    "kind/kubectl-neat": Expected(
        kinds={'Pod': 2},
        read=4, duplicates=2, logs=0, capture_time='2020-05-29T15:59:40Z',  # pod t2's Ready transition
        formats=('kubectl-json', 'kubectl-yaml'),
    ),
    "kind/troubleshoot-analyze-files": Expected(
        kinds={'Pod': 4},
        read=4, duplicates=0, logs=0, capture_time='2023-03-23T16:43:46Z',
        formats=('kubectl-json',),
    ),
    "kubeadm/cka-3c97-cluster-info-dump": Expected(
        kinds={'DaemonSet': 2, 'Deployment': 2, 'Event': 6, 'Node': 6, 'Pod': 26, 'ReplicaSet': 3, 'Service': 2},
        read=51, duplicates=4, logs=35, capture_time='2021-04-11T14:33:30Z',
        formats=('cluster-info-dump',),
    ),
    "kubeadm/oci-ccm-issue-409": Expected(
        kinds={},
        read=1, duplicates=0, logs=0, capture_time=None,
        formats=('kubectl-yaml',),
        rejected=(('node-yaml-k9s-paste-excerpt.txt', 'document 0, line 1', 'Node has no metadata.name'),),
    ),
    "kubeadm/sbctl-kurl-supportbundle": Expected(
        kinds={'BackupStorageLocation': 1, 'BackupTarget': 1, 'ConfigMap': 4, 'CustomResourceDefinition': 32, 'Deployment': 12, 'Engine': 1, 'EngineImage': 1, 'Event': 67, 'Installer': 1, 'InstanceManager': 6, 'Job': 1, 'Namespace': 9, 'Node': 6, 'PersistentVolume': 1, 'PersistentVolumeClaim': 1, 'Pod': 58, 'Replica': 3, 'ReplicaSet': 13, 'Service': 12, 'Setting': 46, 'StorageClass': 1, 'Volume': 1},
        read=278, duplicates=0, logs=2, capture_time='2022-04-12T00:59:01Z',  # velero's last termination; ConfigMaps re-created in 2024 are a later period
        formats=('support-bundle', 'support-bundle logs'),
    ),
    "kubeadm/troubleshoot-analyze-files-kurl": Expected(
        kinds={'ReplicaSet': 14},
        read=14, duplicates=0, logs=0, capture_time='2021-12-17T18:42:21Z',
        formats=('kubectl-json',),
    ),
    "minikube/bits-assignment-group11": Expected(
        kinds={'DaemonSet': 1, 'Deployment': 2, 'Event': 909, 'Node': 1, 'Pod': 8, 'ReplicaSet': 3, 'Service': 3},
        read=927, duplicates=0, logs=8, capture_time='2022-07-31T05:18:12Z',
        formats=('cluster-info-dump',),
    ),
    "minikube/k9s-testdata": Expected(
        kinds={'Node': 1, 'Pod': 2},
        read=5, duplicates=2, logs=0, capture_time='2020-01-21T00:07:47Z',  # cilium-operator's Ready transition
        formats=('kubectl-json',),
    ),
    "minikube/kubectl-neat": Expected(
        kinds={'PersistentVolume': 1, 'Pod': 1, 'Service': 1},
        read=5, duplicates=2, logs=0, capture_time='2019-07-06T18:41:25Z',  # pod myapp's container start
        formats=('kubectl-json', 'kubectl-yaml'),
    ),
    "minikube/multi-k8s-cluster-info-dump": Expected(
        kinds={'DaemonSet': 1, 'Deployment': 3, 'Event': 489, 'Node': 1, 'Pod': 11, 'ReplicaSet': 3, 'Service': 3},
        read=511, duplicates=0, logs=11, capture_time='2019-03-08T08:59:58Z',
        formats=('cluster-info-dump-dir', 'cluster-info-dump-dir logs'),
    ),
    "minikube/troubleshoot-analyze-files": Expected(
        kinds={'Event': 110, 'Pod': 5},
        read=115, duplicates=0, logs=0, capture_time='2023-07-11T05:36:25Z',
        formats=('kubectl-json',),
    ),
    "openshift/insights-operator-archive-sample": Expected(
        kinds={'ClusterOperator': 2, 'Machine': 1, 'Node': 2, 'PersistentVolume': 1, 'Pod': 6},
        read=12, duplicates=0, logs=0, capture_time='2024-04-27T09:54:24Z',  # vsystem's container state; the node heartbeats are of 2021 (stitched)
        formats=('insights-archive',),
    ),
    "openshift/must-gather-clean-aws": Expected(
        kinds={'ClusterOperator': 31, 'ClusterVersion': 1, 'ConfigMap': 3, 'Deployment': 1, 'EndpointSlice': 2, 'Endpoints': 2, 'Event': 277, 'Infrastructure': 1, 'Namespace': 2, 'Node': 6, 'Pod': 20, 'PodDisruptionBudget': 1, 'ReplicaSet': 1, 'Service': 2, 'ServiceMonitor': 1},
        read=353, duplicates=2, logs=2, capture_time='2021-08-03T10:12:39Z',
        formats=('must-gather', 'must-gather logs'),
    ),
    "openshift/must-gather-clean-metal": Expected(
        kinds={'ClusterVersion': 1, 'Node': 6},
        read=7, duplicates=0, logs=0, capture_time='2021-09-14T14:43:04Z',
        formats=('must-gather',),
    ),
    "openshift/must-gather-clean-vsphere": Expected(
        kinds={'ClusterVersion': 1, 'Node': 6},
        read=7, duplicates=0, logs=0, capture_time='2021-09-14T10:15:23Z',
        formats=('must-gather',),
    ),
    "rke2/support-bundle-kit-harvester": Expected(
        kinds={'Addon': 9, 'CSIDriver': 1, 'CSINode': 1, 'ComponentStatus': 3, 'ControllerRevision': 4, 'DaemonSet': 7, 'Deployment': 12, 'Endpoints': 7, 'Event': 8, 'HelmChartConfig': 2, 'Job': 5, 'Lease': 5, 'Namespace': 18, 'Node': 1, 'PersistentVolume': 2, 'Pod': 55, 'PodMetrics': 14, 'PriorityClass': 3, 'ReplicaSet': 4, 'Service': 11, 'StorageClass': 2, 'VolumeAttachment': 2},
        read=176, duplicates=0, logs=2, capture_time='2022-03-22T23:49:45Z',
        formats=('support-bundle-kit', 'support-bundle-kit logs'),
    ),
    "unknown/troubleshoot-analyze-files": Expected(
        kinds={'Deployment': 10, 'Job': 2, 'Node': 7, 'Pod': 2, 'StatefulSet': 3},
        read=24, duplicates=0, logs=0, capture_time='2024-12-19T02:59:48Z',
        formats=('cluster-info-dump-dir', 'kubectl-json'),
    ),
    "vanilla/kubernetes-vagrant-centos-cluster-info-dump": Expected(
        kinds={'DaemonSet': 1, 'Deployment': 3, 'Event': 74, 'Node': 3, 'Pod': 6, 'ReplicaSet': 3, 'Service': 5},
        read=95, duplicates=0, logs=6, capture_time='2018-02-24T06:18:57Z',
        formats=('cluster-info-dump',),
    ),
}

_CACHE: dict[str, IngestResult] = {}


def read(rel: str) -> IngestResult:
    """Ingest one realdata directory once per test session."""
    if rel not in _CACHE:
        _CACHE[rel] = ingest(REALDATA / rel)
    return _CACHE[rel]


def _pasted_text_sources(r: IngestResult) -> set[str]:
    """Files that were pasted kubectl text: read by the text stage, or skipped as plain text."""
    return {f.source for f in r.files if f.format in ("kubectl-text", "transcript")} | {
        s.source for s in r.skipped if s.reason.startswith("plain text")
    }


def read_structured(rel: str) -> IngestResult:
    """The directory without its pasted-text files, whose objects are the text stage's to test."""
    full = read(rel)
    text = _pasted_text_sources(full)
    if not text:
        return full
    root = REALDATA / rel
    # Same relative paths, so that layouts still give kinds and namespaces.
    return ingest({p.relative_to(root).as_posix(): p.read_bytes()
                   for p in sorted(root.rglob("*")) if p.is_file() and str(p) not in text})


def _iso(r: IngestResult) -> str | None:
    return r.capture_time.isoformat().replace("+00:00", "Z") if r.capture_time else None


def test_every_realdata_directory_has_expectations() -> None:
    found = sorted(f"{p.parent.name}/{p.name}" for p in REALDATA.glob("*/*") if p.is_dir())
    assert found == sorted(EXPECTED)


@pytest.mark.parametrize("rel", sorted(EXPECTED))
def test_realdata_counts(rel: str) -> None:
    exp = EXPECTED[rel]
    r = read_structured(rel)
    assert r.accounting_holds()
    assert r.objects_by_kind == exp.kinds
    assert r.objects_read == exp.read
    assert r.duplicates == exp.duplicates
    assert len(r.logs) == exp.logs
    assert _iso(r) == exp.capture_time
    assert tuple((x.source.rsplit("/", 1)[-1], x.location, x.reason) for x in r.object_rejections) == exp.rejected
    assert tuple((x.source.rsplit("/", 1)[-1], x.reason) for x in r.input_rejections) == exp.input_rejected
    assert tuple(r.formats) == exp.formats


@pytest.mark.parametrize("rel", sorted(k for k, v in EXPECTED.items() if v.text_files))
def test_realdata_pasted_text_is_handed_to_the_text_stage(rel: str) -> None:
    r = read(rel)
    assert r.accounting_holds()
    assert len(_pasted_text_sources(r)) == EXPECTED[rel].text_files
    parsed = {f.source for f in r.files if f.format in ("kubectl-text", "transcript")}
    if not _text_stage_present():
        assert not parsed
    elif "holmesgpt" in rel:  # whole kubectl outputs once their tool-call header is removed
        assert parsed == _pasted_text_sources(r)
        assert r.objects_read > EXPECTED[rel].read


# -- what the hard cases turned into, value by value --------------------------------------


def _one(r: IngestResult, key: str):
    found = [o for o in r.objects if o.key.id == key]
    assert len(found) == 1, key
    return found[0]


def test_kubectl_1_9_dump_takes_kinds_from_self_links_and_maps_internal_structs() -> None:
    r = read("vanilla/kubernetes-vagrant-centos-cluster-info-dump")
    node = _one(r, "core/Node//node1")
    assert node.view.status.nodeInfo.kubeletVersion == "v1.9.1"
    assert node.view.status.nodeInfo.osImage == "CentOS Linux 7 (Core)"
    assert node.view.status.capacity["memory"] == "1883516Ki"
    # extensions/v1beta1 Deployments are keyed under today's group, their template unflattened
    dep = _one(r, "apps/Deployment/kube-system/coredns")
    assert dep.api_version == "extensions/v1beta1"
    assert dep.view.spec.template.metadata.labels == {"k8s-app": "coredns"}
    assert {o.namespace for o in r.objects if o.kind == "Event"} == {"default", "kube-system"}


def test_utf16_powershell_dump_is_read() -> None:
    r = read("minikube/bits-assignment-group11")
    assert _one(r, "core/Node//minikube").view.status.nodeInfo.kubeletVersion == "v1.24.1"
    assert {log.container for log in r.logs} >= {"etcd", "coredns"}


def test_harvester_bundle_metadata_is_read_for_its_facts_not_as_objects() -> None:
    r = read("rke2/support-bundle-kit-harvester")
    assert r.server_version == "v1.21.7+rke2r1"
    [(stated, source)] = r.stated_capture_times
    assert stated == "2022-03-22T23:49:32Z" and source.endswith("metadata.yaml")
    assert any(s.source.endswith("metadata.yaml") and "bundle metadata" in s.reason for s in r.skipped)


def test_troubleshoot_redaction_markers_do_not_cost_the_documents() -> None:
    r = read("kubeadm/sbctl-kurl-supportbundle")
    engine = next(o for o in r.objects if o.kind == "Engine")
    assert engine.key.group == "longhorn.io"
    addresses = engine.body()["spec"]["replicaAddressMap"]  # kept, as the redacted strings
    assert len(addresses) == 3 and set(addresses.values()) == {"***HIDDEN***:10000"}
    assert sum("***HIDDEN***" in s.reason for s in r.skipped) == 3


def test_k9s_paste_frame_is_stripped_and_the_truncated_node_rejected_with_its_reason() -> None:
    r = read("kubeadm/oci-ccm-issue-409")
    assert any("terminal frame" in s.reason for s in r.skipped)
    # after the frame is gone the YAML parses; it was cut off before metadata.name
    assert [x.reason for x in r.object_rejections] == ["Node has no metadata.name"]


def test_holmesgpt_yaml_record_yields_its_pod() -> None:
    r = read("aks/holmesgpt-fixtures")
    pod = _one(r, "core/Pod/default/frontend-service")
    # the `get -A | grep` row counts 16 restarts to the record's 7: a later moment, its state
    # kept over the record's spec, which the note names (document 0, after the two header lines)
    assert pod.provenance.format == "text table" and pod.view.spec.containers[0].image == "jfusterm/stress"
    assert any("kubectl_get_yamlpod_frontend-service_default.txt, document 0, line 3" in n for n in pod.notes)
    assert sum("tool-call header" in s.reason for s in r.skipped) == 4
    alone = ingest(REALDATA / "aks/holmesgpt-fixtures/test_ask_holmes/158_slack_chat_correct_date"
                   / "kubectl_get_yamlpod_frontend-service_default.txt")
    whole = _one(alone, "core/Pod/default/frontend-service")
    assert whole.provenance.format == "kubectl-yaml" and whole.provenance.line == 3


def test_must_gather_empty_route_list_is_coverage_not_an_object() -> None:
    r = read("openshift/must-gather-clean-aws")
    assert r.covers("Route") and not r.objects_by_kind.get("RouteList")
    assert {(log.namespace, log.container) for log in r.logs} == {("openshift-ingress", "router")}


def test_insights_archive_kinds_and_names_come_from_paths() -> None:
    r = read("openshift/insights-operator-archive-sample")
    node = next(o for o in r.objects if o.kind == "Node" and o.name.startswith("master-0"))
    assert node.view.status.nodeInfo is not None
    assert {o.namespace for o in r.objects if o.kind == "Pod"} >= {"openshift-etcd", "openshift-monitoring"}


def test_hand_edited_copies_sharing_a_uid_stay_apart_and_are_noted() -> None:
    r = read("kind/troubleshoot-analyze-files")
    assert sorted(o.namespace for o in r.objects) == ["default", "default-unhealthy", "other", "other-unhealthy"]
    assert sum(1 for o in r.objects if any(n.startswith("uid also used by") for n in o.notes)) == 3


def test_same_object_in_two_files_is_one_object() -> None:
    r = read("kind/kubectl-neat")  # list1-raw.json and list1-raw.yaml hold the same two pods
    assert r.duplicates == 2
    assert all(o.duplicates == 1 for o in r.objects)


@pytest.mark.parametrize(
    ("rel", "namespace", "pod", "container", "previous"),
    [
        # cluster-info dump to stdout: ==== START logs ... ==== blocks
        ("kubeadm/cka-3c97-cluster-info-dump", "kube-system", "calico-node-26mhc", "install-cni", False),
        # cluster-info --output-directory: <ns>/<pod>/logs.txt
        ("minikube/multi-k8s-cluster-info-dump", "kube-system", "coredns-86c58d9df4-mnjkg", "coredns", False),
        # troubleshoot bundle: cluster-resources/pods/logs/<ns>/<pod>/<container>[-previous].log
        ("k3s/troubleshoot-testdata-supportbundle", "kube-system", "coredns-b96499967-tncf4", "coredns", True),
        # must-gather: namespaces/<ns>/pods/<pod>/<container>/<container>/logs/current.log
        ("openshift/must-gather-clean-aws", "openshift-ingress", "router-default-6dd4c95495-7dqkw", "router", False),
        # support-bundle-kit: logs/<ns>/<pod>/<container>.log
        ("rke2/support-bundle-kit-harvester", "longhorn-system", "csi-attacher-66fcbbff5c-drjmf", "csi-attacher", False),
    ],
)
def test_logs_are_attached_to_pod_and_container(rel: str, namespace: str, pod: str, container: str, previous: bool) -> None:
    r = read(rel)
    logs = [g for g in r.logs if (g.namespace, g.pod, g.container, g.previous) == (namespace, pod, container, previous)]
    assert len(logs) == 1
    assert logs[0].line_count > 0


def _all_logs_copy(tmp_path: Path, as_links: bool) -> Path:
    """The k3s bundle copied with its all-logs/ entries as real symlinks or as link stubs
    (a file holding the link's target path), whichever the shared copy does not hold."""
    src = REALDATA / "k3s/troubleshoot-testdata-supportbundle"
    dst = tmp_path / "bundle"
    for p in sorted(src.rglob("*")):
        if p.is_dir() and not p.is_symlink():
            continue
        rel = p.relative_to(src)
        out = dst / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        target = os.readlink(p) if p.is_symlink() else None
        if target is None and rel.parts[0] == "all-logs" and p.read_bytes().strip().startswith(b"../"):
            target = p.read_text().strip()
        if target is None:
            shutil.copyfile(p, out)
        elif as_links:
            out.symlink_to(target)
        else:
            out.write_text(target + "\n")
    return dst


@pytest.mark.parametrize("as_links", [False, True], ids=["link-stubs", "symlinks"])
def test_troubleshoot_all_logs_links_are_not_read_twice(tmp_path: Path, as_links: bool) -> None:
    # The shared copy may hold all-logs/ as symlinks or as stubs; both layouts are read here.
    r = ingest(_all_logs_copy(tmp_path, as_links))
    assert r.accounting_holds()
    keys = [(g.namespace, g.pod, g.container, g.previous) for g in r.logs]
    assert len(keys) == len(set(keys)) == 19
    assert all(g.namespace for g in r.logs)
    reason = "same log as " if as_links else "link to "
    assert sum(s.reason.startswith(reason) for s in r.skipped if not s.source.endswith("/static-hi.log")) == 18
    # the bundle's root static-hi.log, a link in the tarball to the log of cluster-resources/
    # (kept here as its target's path): the link it is, not plain text
    (root,) = [s for s in r.skipped if s.source.endswith("/static-hi.log")]
    assert root.reason == "link to cluster-resources/pods/logs/default/static-hi/static-hi.log; the log is read there"
