"""Where a pod template may run, on hand-edited templates: a node selector, affinity term,
expression or toleration of another type than the API's selects or tolerates nothing, and the
rules reading them still run (the random edits of tests/test_edited_dumps.py had stopped
daemonset-tainted-off with a TypeError in `selector_matches` and an AttributeError in `picks`)."""

from __future__ import annotations

import copy
import json

import pytest

import analyzer
from analyzer.findings import collect_findings
from analyzer.findings.facts import selector_matches
from analyzer.findings.placement import picks, tolerates
from analyzer.kube.views import Taint

# tests/findings/cases/daemonset-tainted-off.yaml's first case (Azure/secrets-store-csi-driver-
# provider-azure#213: the Windows DaemonSet without the Windows pool's toleration), trimmed.
NODE = {"apiVersion": "v1", "kind": "Node",
        "metadata": {"name": "aksnpwin000001", "labels": {"kubernetes.io/os": "windows"}},
        "spec": {"taints": [{"key": "os", "value": "windows", "effect": "NoSchedule"}]}}
DAEMONSET = {
    "apiVersion": "apps/v1", "kind": "DaemonSet",
    "metadata": {"name": "csi-secrets-store-secrets-store-csi-driver-windows", "namespace": "default"},
    "spec": {"template": {"spec": {
        "nodeSelector": {"kubernetes.io/os": "windows"},
        "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "type", "operator": "NotIn", "values": ["virtual-kubelet"]}]}]}}},
        "containers": [{"name": "secrets-store", "image": "mcr.microsoft.com/k8s/csi/secrets-store/driver:v0.0.20"}]}}},
    "status": {"desiredNumberScheduled": 0, "currentNumberScheduled": 0, "numberReady": 0},
}
TERMS = ("affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")


def _edited(path: tuple, value: object) -> dict:
    daemonset = copy.deepcopy(DAEMONSET)
    target = daemonset["spec"]["template"]["spec"]
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return daemonset


@pytest.mark.parametrize(("path", "value"), [
    (("nodeSelector",), ["a"]),
    (("nodeSelector",), {"matchExpressions": [1, 2]}),
    (("nodeSelector",), {"matchLabels": "x", "matchExpressions": {"a": 1}}),
    (("affinity",), "x"),
    (("affinity", "nodeAffinity"), [None]),
    ((*TERMS,), {"a": 1}),
    ((*TERMS, 0), "x"),
    ((*TERMS, 0, "matchExpressions"), [None]),
    ((*TERMS, 0, "matchExpressions", 0, "values"), 3.5),
    ((*TERMS, 0, "matchFields"), [["a"], {"key": "metadata.name", "operator": "In", "values": "x"}]),
    (("tolerations",), [None, "x"]),
    (("tolerations",), {"a": 1}),
])
def test_an_edited_template_stops_no_rule(path: tuple, value: object) -> None:
    cluster = analyzer.load(json.dumps({"apiVersion": "v1", "kind": "List", "items": [NODE, _edited(path, value)]}))
    assert len(cluster.objects) == 2
    # a rule that stops warns RuleStopped, an error under the suite's filterwarnings
    judged = collect_findings(cluster, ["daemonset-tainted-off"])
    assert {f.status for f in judged} <= {"pass", "fail"}, [f.facts for f in judged]


def test_odd_selectors_select_nothing_and_odd_tolerations_tolerate_nothing() -> None:
    labels = {"app": "web"}
    assert selector_matches({"app": "web"}, labels)
    assert not selector_matches(["app"], labels)
    assert not selector_matches({"matchLabels": "app=web"}, labels)
    assert not selector_matches({"matchExpressions": [None]}, labels)
    assert not selector_matches({"matchExpressions": [{"key": "app", "operator": "In", "values": 3}]}, labels)
    assert selector_matches({"app": "web"}, "oops") is False
    taint = Taint(key="os", value="windows", effect="NoSchedule")
    assert not tolerates([None, "Exists", ["a"]], taint)
    assert tolerates([None, {"operator": "Exists"}], taint)
    assert not picks({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": ["x"]}}}}, "n1", labels)
