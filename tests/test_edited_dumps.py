"""Hand-edited dumps whose values have another type than the API's: every stage still runs, the
object is still in its table, and the odd value is shown as text or left missing, never a
traceback. Each object is a real one, trimmed, with the one edit named beside it (the edits are
the kind a structural fuzz of `shared/realdata` found to stop a stage)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pandas as pd
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import analyzer
from analyzer.report import render_cluster_report
from analyzer.safeyaml import load_yaml

# realdata/openshift/insights-operator-archive-sample/config/clusteroperator/authentication.json,
# trimmed; edited: Degraded's status an unquoted YAML bool, Available's message a mapping and
# Upgradeable's type a number (a custom resource's conditions are untyped dicts).
CLUSTER_OPERATOR = """\
apiVersion: config.openshift.io/v1
kind: ClusterOperator
metadata:
  name: authentication
  uid: f9f2d54f-1abd-4533-9819-5386a1e7c7a6
  creationTimestamp: "2021-07-07T11:02:54Z"
status:
  conditions:
  - type: Degraded
    status: True
    lastTransitionTime: "2021-07-12T21:20:38Z"
    reason: AsExpected
  - type: Available
    status: "True"
    lastTransitionTime: "2021-07-12T21:20:44Z"
    reason: AsExpected
    message: {OAuthServerDeploymentAvailable: "availableReplicas==2"}
  - type: 3.5
    status: "False"
    lastTransitionTime: "2021-07-07T11:26:28Z"
    reason: UnsupportedConfigOverrides_UnsupportedConfigOverridesSet
"""

# realdata/kind/k9s-testdata/po_sidecar.json, trimmed; edited: the init container's restartCount
# past 64 bits, and the volume's name a mapping.
POD = {
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "sleep", "namespace": "default", "creationTimestamp": "2024-08-24T01:54:32Z",
                 "uid": "35079257-0ffb-4b09-b2c1-3c0d416f2523"},
    "spec": {
        "containers": [{"name": "sleep", "image": "istio/base", "command": ["/bin/sleep", "60"],
                        "volumeMounts": [{"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                                          "name": "kube-api-access-mphcq", "readOnly": True}]}],
        "initContainers": [{"name": "init", "image": "istio/base", "command": ["/bin/sleep", "1"]}],
        "volumes": [{"name": {"edited": "kube-api-access-mphcq"}, "projected": {"sources": [
            {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}}]}}],
    },
    "status": {
        "phase": "Running", "startTime": "2024-08-24T01:54:32Z",
        "initContainerStatuses": [{"name": "init", "ready": True, "restartCount": 10**20, "image": "istio/base",
                                   "state": {"terminated": {"exitCode": 0, "reason": "Completed",
                                                            "startedAt": "2024-08-24T01:54:35Z",
                                                            "finishedAt": "2024-08-24T01:54:36Z"}}}],
        "containerStatuses": [{"name": "sleep", "ready": True, "restartCount": 0, "image": "istio/base",
                               "state": {"running": {"startedAt": "2024-08-24T01:54:40Z"}}}],
    },
}

# realdata/rke2/support-bundle-kit-harvester/sampleSupportBundle/yamls/cluster/v1/persistentvolumes.yaml,
# trimmed to two volumes; edited: the second one's CSI driver name a number.
VOLUMES = """\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: PersistentVolume
  metadata:
    name: pvc-232180f3-6740-4682-ba5c-f4b57a75512b
    creationTimestamp: "2022-03-07T08:21:04Z"
  spec:
    capacity: {storage: 5Gi}
    accessModes: [ReadWriteOnce]
    csi: {driver: driver.longhorn.io, fsType: ext4, volumeHandle: pvc-232180f3-6740-4682-ba5c-f4b57a75512b}
    storageClassName: longhorn
  status: {phase: Bound}
- apiVersion: v1
  kind: PersistentVolume
  metadata:
    name: pvc-ce3fa571-6642-4018-b7fd-9eb2c1e56191
    creationTimestamp: "2022-03-07T08:22:10Z"
  spec:
    capacity: {storage: 10Gi}
    accessModes: [ReadWriteOnce]
    csi: {driver: 42, fsType: ext4, volumeHandle: pvc-ce3fa571-6642-4018-b7fd-9eb2c1e56191}
    storageClassName: longhorn
  status: {phase: Bound}
"""


def _every_stage(path: Path, out: Path) -> analyzer.Cluster:
    cluster = analyzer.load(str(path))
    built = [cluster.tables[name] for name in cluster.tables]
    built += [cluster.findings, cluster.incidents, cluster.timeline]
    assert built and cluster.graph is not None and cluster.distribution is not None
    render_cluster_report(cluster, out / "report", formats=("html", "json"), second_process=None)
    return cluster


@pytest.mark.parametrize(("file_name", "text"), [
    ("co.yaml", CLUSTER_OPERATOR),
    ("pod.json", json.dumps(POD)),
    ("volumes.yaml", VOLUMES),
])
def test_every_stage_runs_and_nothing_is_lost(tmp_path: Path, file_name: str, text: str) -> None:
    path = tmp_path / file_name
    path.write_text(text, encoding="utf-8")
    cluster = _every_stage(path, tmp_path)
    assert cluster.tables.rejections.empty
    assert len(cluster.objects) == (2 if file_name == "volumes.yaml" else 1)
    assert (tmp_path / "report" / "index.html").exists() or any((tmp_path / "report").rglob("*.html"))


def test_edited_condition_values_are_read_as_text(tmp_path: Path) -> None:
    path = tmp_path / "co.yaml"
    path.write_text(CLUSTER_OPERATOR, encoding="utf-8")
    timeline = _every_stage(path, tmp_path).timeline
    details = set(timeline.loc[timeline["kind"] == "ClusterOperator", "detail"].astype(str))
    assert "Degraded=True (AsExpected)" in details  # the YAML bool as the API would write it
    assert any(d.startswith("Available=True (AsExpected: {") for d in details)
    assert any(d.startswith("3.5=False") for d in details)


def test_edited_pod_values_are_missing_or_text(tmp_path: Path) -> None:
    path = tmp_path / "pod.json"
    path.write_text(json.dumps(POD), encoding="utf-8")
    cluster = _every_stage(path, tmp_path)
    init = cluster.tables.containers.set_index("name").loc["init"]
    assert pd.isna(init["restarts"])  # past 64 bits: not a count any table can hold
    volume = cluster.tables.volumes.iloc[0]
    assert volume["type"] == "projected" and "kube-api-access-mphcq" in str(volume["name"])


# tests/findings/cases/critical-component-missing.yaml's EKS kube-system (the EKS seed's coredns
# and aws-node), hand-edited: aws-node's desiredNumberScheduled past 64 bits.
KUBE_SYSTEM = """\
apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: coredns, namespace: kube-system}
  spec: {replicas: 2, template: {spec: {containers: [{name: coredns, image: "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/coredns:v1.11.1-eksbuild.9"}]}}}
  status: {replicas: 2, readyReplicas: 2, observedGeneration: 1}
- apiVersion: apps/v1
  kind: DaemonSet
  metadata: {name: aws-node, namespace: kube-system}
  spec: {template: {spec: {containers: [{name: aws-node, image: "602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon-k8s-cni:v1.18.3"}]}}}
  status: {desiredNumberScheduled: 100000000000000000000, numberReady: 2, observedGeneration: 1}
"""


def test_a_component_count_past_64_bits_is_missing(tmp_path: Path) -> None:
    path = tmp_path / "kube-system.yaml"
    path.write_text(KUBE_SYSTEM, encoding="utf-8")
    cluster = _every_stage(path, tmp_path)
    components = cluster.tables.components.set_index("name")
    assert pd.isna(components.loc["aws-node", "desired"]) and components.loc["aws-node", "ready"] == 2
    assert components.loc["coredns", "desired"] == 2


# -- any edit: the rule cases' objects with random fields replaced by values of another type -------

def _rule_case_objects() -> list[tuple[str, list[dict]]]:
    """(case, objects) of every rule case that lists objects (tests/findings/cases/*.yaml, each
    file naming the real dumps its objects follow)."""
    cases = []
    for path in sorted((Path(__file__).parent / "findings" / "cases").glob("*.yaml")):
        for case in (load_yaml(path.read_text(encoding="utf-8")) or {}).get("cases") or ():
            if case.get("objects"):
                cases.append((f"{path.stem}: {case['name']}", case["objects"]))
    return cases


# What a hand-edited or broken dump puts where the API has another type (each one found to stop
# some stage before it was fixed).
ODD_VALUES = [None, "", "x", 0, -1, 3.5, True, [], {}, ["a"], {"a": 1}, [{"x": None}], "2024-13-45T99:99:99Z",
              "1Gi", "abc:def", 10**20, {"type": "Ready"}, [None], [1, 2], "-5", "1e400", [[]], {"": None}]


def _fields(doc: object, path: tuple = ()) -> list[tuple]:
    out = [path] if path else []
    if isinstance(doc, dict):
        for key, value in doc.items():
            out += _fields(value, (*path, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            out += _fields(value, (*path, i))
    return out


@st.composite
def edited_dumps(draw: st.DrawFn) -> tuple[str, dict]:
    name, objects = draw(st.sampled_from(_RULE_CASES))
    items = copy.deepcopy(objects)
    for _ in range(draw(st.integers(1, 4))):
        # below an item's top (its kind and name stay), never the text reader's own facts
        fields = [p for p in _fields(items) if len(p) > 2 and "x-kda-text" not in p]
        if not fields:
            break
        *parents, last = draw(st.sampled_from(fields))
        target = items
        for step in parents:
            target = target[step]
        target[last] = copy.deepcopy(draw(st.sampled_from(ODD_VALUES)))
    return name, {"apiVersion": "v1", "kind": "List", "items": items}


_RULE_CASES = _rule_case_objects()


@settings(max_examples=40, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(edited=edited_dumps(), as_yaml=st.booleans())
def test_every_stage_and_printer_runs_on_an_edited_dump(tmp_path: Path, edited: tuple[str, dict],
                                                        as_yaml: bool) -> None:
    from analyzer.printing.describe import describe
    from analyzer.printing.store import DumpStore
    from analyzer.printing.tables import build_table, render_table

    case, doc = edited
    path = tmp_path / ("edited.yaml" if as_yaml else "edited.json")
    path.write_text(yaml.safe_dump(doc) if as_yaml else json.dumps(doc), encoding="utf-8")
    cluster = analyzer.load(str(path))
    assert cluster.ingest.accounting_holds(), case  # read = in a table + rejected with a reason
    built = [cluster.tables[name] for name in cluster.tables]
    built += [cluster.findings, cluster.incidents, cluster.timeline]  # a rule stopping fails the test
    assert built and cluster.graph is not None and cluster.distribution is not None
    store = DumpStore.from_cluster(cluster)
    for kind in sorted({o.kind for o in cluster.objects}):
        res = store.catalog.resolve(kind)
        if res is None:
            continue
        objects = store.select(res, None)
        bodies = [store.body(res, o) for o in objects]
        if bodies:
            render_table(build_table(res, bodies, store.clock), wide=True, namespace_column=res.namespaced,
                         kind_prefix="", show_labels=True, headers=True)
        for obj in objects:
            assert describe(store, res, store.body(res, obj))
