"""kubectl <= 1.13 internal serialisation in every layout: output-directory tree, stdout, single
files, archives; damaged Lists that keep their kinds; no data-looking file passed over.

Fixture: tests/ingest/data/kubectl-1.8-tree (see its README: cut from a real kubectl 1.9 dump,
written in the 1.8 tree's layout).
"""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest
from conftest import REALDATA

from analyzer.ingest import IngestResult, ingest, ingest_text

TREE = Path(__file__).parent / "data" / "kubectl-1.8-tree"
# What the tree holds, counted from its files by hand: 2 nodes, 2+2 pods, 3+3 events, the
# kube-system Services/Deployments/ReplicaSets/DaemonSet and default's Service/Deployment/RS.
KINDS = {"DaemonSet": 1, "Deployment": 3, "Event": 6, "Node": 2, "Pod": 4, "ReplicaSet": 3, "Service": 5}


def _files() -> dict[str, bytes]:
    return {p.relative_to(TREE).as_posix(): p.read_bytes()
            for p in sorted(TREE.rglob("*")) if p.is_file() and p.name != "README.md"}


def _checked(r: IngestResult) -> IngestResult:
    assert r.accounting_holds()
    assert not r.warnings
    return r


@pytest.mark.parametrize("root", ["tree", "its cluster-info folder"])
def test_tree_is_read_whether_given_as_parent_or_as_the_folder_itself(root: str) -> None:
    # Given as the parent, every path starts with `cluster-info/` (troubleshoot's folder for
    # its version file): nothing of it may be taken for bundle metadata.
    r = _checked(ingest(TREE if root == "tree" else TREE / "cluster-info"))
    assert r.objects_by_kind == KINDS
    assert r.objects_read == sum(KINDS.values()) and not r.rejections
    assert r.formats == ["cluster-info-dump-dir", "cluster-info-dump-dir logs"]
    assert not [s for s in r.skipped if "metadata" in s.reason and not s.source.endswith("README.md")]
    node = next(o for o in r.objects if o.kind == "Node")
    assert node.view.status.nodeInfo.kubeletVersion == "v1.8.15"
    assert "Node" not in r.coverage_absent and "ReplicationController" in r.coverage_present
    assert [g.container for g in r.logs] == ["coredns"]


def test_tree_in_an_archive() -> None:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in _files().items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    r = _checked(ingest(buf.getvalue()))
    assert r.objects_by_kind == KINDS


def test_stdout_form_of_the_same_dump() -> None:
    # `kubectl cluster-info dump` without --output-directory: the Lists one after the other,
    # then the logs between ==== START/END lines.
    files = _files()
    text = b"".join(v for k, v in files.items() if k.endswith(".json"))
    text += b"".join(v for k, v in files.items() if k.endswith("logs.txt"))
    r = _checked(ingest_text(text, "cluster-info-dump.txt"))
    assert r.objects_by_kind == KINDS
    assert len(r.logs) == 1


@pytest.mark.parametrize("name", ["nodes.json", "kube-system/pods.json", "kube-system/events.json"])
def test_single_files_with_or_without_their_path(name: str) -> None:
    data = (TREE / "cluster-info" / name).read_bytes()
    expected = len(json.loads(data)["Items"])
    for r in (ingest({name: data}), ingest_text(data, "pasted.json")):
        _checked(r)
        assert len(r.objects) == expected and not r.rejections


def test_items_that_lost_their_self_links_take_the_kind_from_their_shape() -> None:
    # A single file with no path and no selfLink: only the fields say what the items are.
    doc = json.loads((TREE / "cluster-info" / "nodes.json").read_bytes())
    doc.pop("selfLink")
    for item in doc["Items"]:
        item.pop("selfLink")
    r = _checked(ingest_text(json.dumps(doc), "nodes.txt"))
    assert r.objects_by_kind == {"Node": 2}
    assert all(n.startswith("kind not stated: Node inferred from its shape (status.nodeInfo)")
               for o in r.objects for n in o.notes)


def test_realdata_1_13_tree_reads_the_same_as_its_stdout_form() -> None:
    root = REALDATA / "minikube" / "multi-k8s-cluster-info-dump"
    tree = ingest(root)
    text = b"".join(p.read_bytes() for p in sorted(root.rglob("*.json")))
    stdout = ingest_text(text, "cluster-info-dump.json")
    assert tree.accounting_holds() and stdout.accounting_holds()
    assert stdout.objects_by_kind == tree.objects_by_kind
    assert {o.key for o in stdout.objects} == {o.key for o in tree.objects}


# -- damaged Lists keep their kinds ------------------------------------------------------------


def _damaged_node_list(list_kind: bool) -> str:
    """A NodeList as kubectl prints it, items without kind (a raw API list), its first line
    edited by hand into `{ {`."""
    doc = json.loads((REALDATA / "unknown" / "troubleshoot-analyze-files" / "nodes.json").read_bytes())
    if not list_kind:
        doc.pop("kind")
    for item in doc["items"]:
        item.pop("kind", None)
        item.pop("apiVersion", None)
        item["metadata"].pop("selfLink", None)
    return "{ " + json.dumps(doc, indent=2)


def test_damaged_list_items_take_the_list_kind_named_before_them() -> None:
    r = _checked(ingest_text(_damaged_node_list(True), "nodes.json"))
    assert r.objects_by_kind == {"Node": 7} and not r.object_rejections
    assert all(o.notes == ["kind not stated: Node taken from the NodeList named before it in the damaged document"]
               for o in r.objects)


def test_damaged_list_without_a_list_kind_takes_kinds_from_shapes() -> None:
    r = _checked(ingest_text(_damaged_node_list(False), "nodes.json"))
    assert r.objects_by_kind == {"Node": 7} and not r.object_rejections
    assert all(any("inferred from its shape" in n for n in o.notes) for o in r.objects)


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        ({"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c"}]}, "status": {"phase": "Running"}}, "Pod"),
        ({"metadata": {"name": "e", "namespace": "d"}, "involvedObject": {"kind": "Pod"}, "reason": "BackOff"}, "Event"),
        ({"metadata": {"name": "d", "namespace": "d"}, "spec": {"template": {}, "strategy": {"type": "Recreate"}}}, "Deployment"),
        ({"metadata": {"name": "s", "namespace": "d"}, "spec": {"ports": [], "clusterIP": "10.0.0.1"}}, "Service"),
        ({"metadata": {"name": "x", "namespace": "d"}, "data": {"a": "b"}}, None),  # a ConfigMap? nothing says
    ],
)
def test_shape_table(body: dict, kind: str | None) -> None:
    r = _checked(ingest_text(json.dumps({"kind": "List", "items": [body]}), "list.json"))
    assert [o.kind for o in r.objects] == ([kind] if kind else [])
    assert len(r.object_rejections) == (0 if kind else 1)


# -- nothing passed over ------------------------------------------------------------------------


def test_unreadable_nodes_json_is_loud_and_still_counts_as_collected() -> None:
    files = _files()
    files["cluster-info/nodes.json"] = files["cluster-info/nodes.json"].replace(b'"Items": [', b'"Items": [[', 1)
    r = ingest(files)
    assert r.accounting_holds()
    assert r.warnings == ["nodes.json was present but no Node could be read (see the rejections)"]
    assert "Node" not in r.coverage_absent and r.coverage_unreadable == ["Node"]
    assert any(x.source.endswith("nodes.json") for x in r.rejections)


def test_data_looking_side_file_is_read_and_real_side_files_are_not() -> None:
    node_list = (TREE / "cluster-info" / "nodes.json").read_bytes()
    version = b'{"info": {"gitVersion": "v1.24.4+k3s1"}, "string": "v1.24.4+k3s1"}'
    r = ingest({"bundle/cluster-info/cluster_version.json": version, "bundle/analysis.json": node_list})
    assert r.objects_by_kind == {"Node": 2}
    assert r.server_version == "v1.24.4+k3s1"


def test_data_looking_file_that_no_reader_takes_is_a_rejection_not_ignored() -> None:
    # A .txt holding a List damaged past salvage (its one item cut off too): once "plain text
    # ... ignored", now rejected.
    text = b'{"kind": "NodeList",, "items": [ {"metadata": {"name": "n1"}, "status": {}\n'
    r = ingest({"notes/nodes.txt": b"saved from the broken cluster:\n" + text})
    assert r.accounting_holds() and not r.objects
    assert r.input_rejections or r.object_rejections
    assert not [s for s in r.skipped if "ignored" in s.reason or "plain text" in s.reason]


@pytest.mark.parametrize(
    ("data", "shape"),
    [
        (b'{"selfLink": "/api/v1/nodes", "Items": [{"name": "n1", "Spec": {}}]}', "objects"),
        (b'{"kind": "PodList", "items": []}', "empty list"),
        (b'[{"name": "", "versions": [{"groupVersion": "v1"}]}]', None),  # troubleshoot groups.json
        (b'{"apiVersion": "troubleshoot.sh/v1beta2", "kind": "SupportBundle", "spec": {}}', None),
        (b'{"kind": "NodeList",, "items": [ {\n', "objects"),  # damaged: judged by its marks
    ],
)
def test_data_shape(data: bytes, shape: str | None) -> None:
    from analyzer.ingest.datasniff import data_shape

    assert data_shape(data) == shape


def test_warnings_name_the_layout_files_of_a_bundle() -> None:
    r = ingest({
        "bundle/cluster-resources/pods/default.json": b'{"kind": "PodList", "items": [[',
        "bundle/cluster-resources/pods/kube-system.json": b'{"kind": "PodList", "items": [[1]]}',
        "bundle/cluster-resources/nodes.json": b'{"kind": "NodeList", "items": []}',
    })
    assert r.accounting_holds()
    assert r.warnings == [
        "nodes.json was present but held no Node",
        "pods/default.json, pods/kube-system.json were present but no Pod could be read (see the rejections)",
    ]


# `kubectl get pods -n kube-system -o yaml` of an EKS cluster of 2018-09-16 (kubectl before 1.14
# printed its times unquoted), kept as a test fixture in a public EKS tester's Go source (code
# corpus file id 14113871944); one aws-node pod, trimmed. Before: "field ignored: Expected `str |
# null`, got `datetime` - at `$.metadata.creationTimestamp`" on every pod, their AGE unknown.
_UNQUOTED_TIMES = """\
apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    creationTimestamp: 2018-09-16T21:52:16Z
    generateName: aws-node-
    labels:
      k8s-app: aws-node
    name: aws-node-7mwqc
    namespace: kube-system
    uid: c6d3f32d-b9fa-11e8-852e-02d628d39cc2
  spec:
    containers:
    - image: 602401143452.dkr.ecr.us-west-2.amazonaws.com/amazon-k8s-cni:1.1.0
      name: aws-node
    nodeName: ip-192-168-105-121.us-west-2.compute.internal
  status:
    conditions:
    - lastProbeTime: null
      lastTransitionTime: 2018-09-16T21:52:30Z
      status: "True"
      type: Ready
    containerStatuses:
    - image: 602401143452.dkr.ecr.us-west-2.amazonaws.com/amazon-k8s-cni:1.1.0
      lastState: {}
      name: aws-node
      ready: true
      restartCount: 0
      state:
        running:
          startedAt: 2018-09-16T21:52:30Z
    phase: Running
    startTime: 2018-09-16T21:52:16Z
kind: List
metadata:
  resourceVersion: ""
  selfLink: ""
"""


def test_unquoted_yaml_timestamps_of_old_kubectl_are_read_as_the_times_they_are() -> None:
    result = ingest_text(_UNQUOTED_TIMES, "pods.yaml")
    (pod,) = result.objects
    assert not [n for n in pod.notes if "field ignored" in n]
    assert pod.view.metadata.creationTimestamp.startswith("2018-09-16T21:52:16")
    # the body `kda get` prints from holds the time as text, as kubectl's JSON does (AGE known)
    created = pod.body()["metadata"]["creationTimestamp"]
    assert isinstance(created, str) and created.startswith("2018-09-16T21:52:16")
