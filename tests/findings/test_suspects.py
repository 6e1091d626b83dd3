"""The pods a pod rule could fail (analyzer/findings/suspects.py): the rules that walk only those
must find exactly what they find walking every pod."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REALDATA, SAMPLE_DUMPS
from test_rule_cases import CASES, cluster_of

import analyzer
from analyzer.findings import collect_findings
from analyzer.findings.suspects import CONCERNS, PodSuspects, pod_suspects
from analyzer.findings.types import Finding


def _readers() -> list[Any]:
    """The findings modules that ask for suspects (rules, restarts), imported."""
    from analyzer.findings.registry import load_rules

    load_rules()
    return [m for name, m in list(sys.modules.items())
            if name.startswith("analyzer.findings") and getattr(m, "pod_suspects", None) is pod_suspects]


def _every_pod_suspected(cluster: Any) -> PodSuspects:
    pods = list(cluster.objects_of("Pod"))
    return PodSuspects(pods, {c: list(range(len(pods))) for c in CONCERNS})


def _findings_both_ways(cluster_of_dump: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Finding], list[Finding]]:
    """(findings with the suspects, findings with every pod a suspect of every concern), each on a
    fresh load of the dump: the rules that read suspects, and those that read what they share."""
    readers = _readers()
    rule_ids = sorted({m.RULE.id for m in readers if hasattr(m, "RULE")}
                      | {"pod-crashloop", "control-plane-restarts", "pod-high-restarts"})
    narrowed = collect_findings(cluster_of_dump(), rule_ids, show_sensitive=True)
    with monkeypatch.context() as patch:
        for module in readers:
            patch.setattr(module, "pod_suspects", _every_pod_suspected)
        everything = collect_findings(cluster_of_dump(), rule_ids, show_sensitive=True)
    return narrowed, everything


def test_readers_are_the_pod_rules() -> None:
    names = {m.__name__.rsplit(".", 1)[-1] for m in _readers()}
    # A rule that walks pods for a condition should ask the suspects for them.
    assert {"pod_crashloop", "pod_not_ready", "pod_oomkilled", "pod_host_path", "container_runs_as_root",
            "pod_stuck_terminating", "restarts"} <= names


def _case_params() -> list[Any]:
    params = []
    for path in sorted(CASES.glob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        cases = [c for c in doc["cases"] if any(o.get("kind") == "Pod" for o in c.get("objects") or ())]
        if cases:
            params.append(pytest.param(cases, id=doc["rule"]))
    return params


@pytest.mark.parametrize("cases", _case_params())
def test_rule_cases_find_the_same_with_every_pod(cases: list[dict[str, Any]],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    for case in cases:
        narrowed, everything = _findings_both_ways(lambda case=case: cluster_of(case), monkeypatch)
        assert narrowed == everything, case["name"]


def _dumps() -> list[Path]:
    real = sorted(p for p in REALDATA.glob("*/*") if p.is_dir()) if REALDATA.is_dir() else []
    return sorted(p for p in SAMPLE_DUMPS.iterdir() if p.is_dir()) + real


@pytest.mark.parametrize("dump", _dumps(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_dumps_find_the_same_with_every_pod(dump: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    narrowed, everything = _findings_both_ways(lambda: analyzer.load(str(dump)), monkeypatch)
    assert narrowed == everything


PODS = """
apiVersion: v1
kind: List
items:
- {kind: Pod, apiVersion: v1, metadata: {name: healthy, namespace: shop},
   spec: {containers: [{name: c, image: web:1}], initContainers: [{name: i, image: init:1}],
          volumes: [{name: cfg, configMap: {name: cfg}}]},
   status: {phase: Running,
            initContainerStatuses: [{name: i, ready: false, restartCount: 0,
                                     state: {terminated: {exitCode: 0, reason: Completed}}}],
            containerStatuses: [{name: c, ready: true, restartCount: 0, state: {running: {}}, lastState: {}}]}}
- {kind: Pod, apiVersion: v1, metadata: {name: looping, namespace: shop},
   spec: {containers: [{name: c, image: web:1}]},
   status: {phase: Running, containerStatuses: [{name: c, ready: false, restartCount: 7,
            state: {waiting: {reason: CrashLoopBackOff}},
            lastState: {terminated: {exitCode: 1, reason: Error}}}]}}
- {kind: Pod, apiVersion: v1, metadata: {name: oom, namespace: shop},
   spec: {containers: [{name: c, image: web:1}]},
   status: {phase: Running, containerStatuses: [{name: c, ready: true, restartCount: 0,
            state: {terminated: {exitCode: 137, reason: OOMKilled}}}]}}
- {kind: Pod, apiVersion: v1, metadata: {name: going, namespace: shop, deletionTimestamp: "2024-01-01T00:00:00Z"},
   spec: {containers: [{name: c, image: web:1}]}, status: {phase: Pending, reason: Evicted}}
- {kind: Pod, apiVersion: v1, metadata: {name: hosty, namespace: shop},
   spec: {hostPID: true, securityContext: {runAsUser: 0}, containers: [{name: c, image: web:1}]},
   status: {phase: Running}}
- {kind: Pod, apiVersion: v1, metadata: {name: mounts-host, namespace: shop},
   spec: {volumes: [{name: h, hostPath: {path: /var}}],
          containers: [{name: c, image: web:1, securityContext: {runAsUser: 0}}]},
   status: {phase: Running}}
- {kind: Pod, apiVersion: v1, metadata: {name: proxy, namespace: kube-system},
   spec: {hostNetwork: true, containers: [{name: c, image: proxy:1, securityContext: {runAsUser: 0}}]},
   status: {phase: Running}}
"""


def test_each_pod_is_filed_under_what_it_shows() -> None:
    cluster = analyzer.load({"pods.yaml": PODS})
    suspects = pod_suspects(cluster)
    assert pod_suspects(cluster) is suspects  # once per dump
    under = {c: [p.name for p in suspects.of(c)] for c in CONCERNS}
    assert under == {
        "text": [], "deleting": ["going"], "reason": ["going"], "pending": ["going"],
        "waiting": ["looping"], "not_ready": ["looping"], "restarted": ["looping"],
        "exited": ["looping", "oom"],
        # system namespaces are nobody's hygiene concern: kube-system's proxy is in neither
        "host": ["hosty", "mounts-host"], "root": ["hosty", "mounts-host"],
    }
    # a union keeps the dump's order and names each pod once
    assert [p.name for p in suspects.of("root", "deleting", "waiting", "host")] == [
        "looping", "going", "hosty", "mounts-host"]
    with pytest.raises(KeyError, match="unknown pod concern"):
        suspects.of("sad")


def test_pasted_pods_are_suspects_of_their_own() -> None:
    table = "NAMESPACE   NAME    READY   STATUS             RESTARTS   AGE\nshop        web-1   0/1     CrashLoopBackOff   12         3h\n"
    cluster = analyzer.load({"pods.txt": table})
    suspects = pod_suspects(cluster)
    assert [p.name for p in suspects.of("text")] == ["web-1"]
    assert [f.name for f in collect_findings(cluster, ["pod-crashloop"]) if f.status == "fail"] == ["web-1"]
