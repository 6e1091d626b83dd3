"""One pod seen in several files of a dump (a tool's recorded kubectl calls): a table row that
counts more restarts than the other sighting is a later moment, and its state is kept over the
whole object's spec.

Fixtures: trimmed from ../shared/realdata/aks/holmesgpt-fixtures (test_ask_holmes/
158_slack_chat_correct_date: `kubectl get -o yaml` and `describe` of frontend-service with 7
restarts, a `get -o wide` row `9 (104s ago)` at AGE 23m, a `get -A | grep` row `16 (5m11s ago)`
at AGE 57m), each under its tool-call header as recorded (the invocation names the namespace).
"""

from __future__ import annotations

from conftest import REALDATA

import analyzer


def _call(tool: str, invocation: str) -> str:
    return (f'{{"toolset_name":"kubernetes/core","tool_name":"{tool}","match_params":{{}}}}\n'
            f'{{"schema_version": "robusta:v1.0.0", "status": "success", "error": null, "return_code": 0, '
            f'"url": null, "invocation": "{invocation}", "params": {{}}, "icon_url": null}}\n')


YAML_7 = _call("kubectl_get_yaml", "kubectl get -o yaml pod frontend-service -n default") + """\
apiVersion: v1
kind: Pod
metadata:
  name: frontend-service
  namespace: default
  uid: d5d64096-dfff-4596-a955-e3e4a1bc6a1d
spec:
  containers:
  - image: jfusterm/stress
    name: stress
  nodeName: aks-agentpool-29949785-vmss000001
status:
  containerStatuses:
  - image: docker.io/jfusterm/stress:latest
    lastState:
      terminated:
        exitCode: 255
        reason: Error
    name: stress
    ready: false
    restartCount: 7
    started: false
    state:
      waiting:
        reason: CrashLoopBackOff
  phase: Running
"""
ROW_9 = _call("kubectl_get_by_name", "kubectl get --show-labels -o wide pod frontend-service -n default") + """\
NAME               READY   STATUS             RESTARTS       AGE   IP           NODE                                NOMINATED NODE   READINESS GATES   LABELS
frontend-service   0/1     CrashLoopBackOff   9 (104s ago)   23m   10.244.1.0   aks-agentpool-29949785-vmss000001   <none>           <none>            <none>
"""
ROW_16 = _call("kubectl_find_resource", "kubectl get -A --show-labels -o wide pod | grep frontend-service") + """\
default            frontend-service                                         0/1     Error              16 (5m11s ago)   57m     10.244.1.0     aks-agentpool-29949785-vmss000001   <none>           <none>            <none>
"""


def _messages(cluster, rule: str, severity: str | None = None) -> list[str]:
    df = cluster.findings
    rows = df[(df["rule"] == rule) & ((df["severity"] == severity) if severity else True)]
    return list(rows["message"])


def _pod(files: dict[str, str]):
    cluster = analyzer.load(files)
    (pod,) = cluster.objects_of("Pod")
    return cluster, pod


def test_a_row_counting_more_restarts_than_the_whole_pod_gives_its_state() -> None:
    for files in ({"get_yaml.txt": YAML_7, "get_by_name.txt": ROW_9},
                  {"a_get_by_name.txt": ROW_9, "b_get_yaml.txt": YAML_7}):
        cluster, pod = _pod(files)
        assert pod.view.text is not None and pod.view.text.restarts == 9, files.keys()
        assert pod.view.spec.containers[0].image == "jfusterm/stress"  # the spec stays the whole body's
        (crash,) = _messages(cluster, "pod-crashloop")
        assert "9 restarts" in crash and "104s" in crash


def test_the_row_with_the_most_restarts_is_the_latest_whatever_the_file_order() -> None:
    _, pod = _pod({"find_resource.txt": ROW_16, "get_by_name.txt": ROW_9, "get_yaml.txt": YAML_7})
    assert pod.view.text.restarts == 16


def test_a_row_counting_fewer_restarts_than_the_whole_pod_does_not_take_its_place() -> None:
    older = ROW_9.replace("9 (104s ago)", "3 (9m ago)  ")
    _, pod = _pod({"get_by_name.txt": older, "get_yaml.txt": YAML_7})
    assert [s.restartCount for s in pod.view.status.containerStatuses] == [7]


def test_realdata_holmesgpt_aks_crashloop_quotes_the_latest_sighting() -> None:
    cluster = analyzer.load(REALDATA / "aks" / "holmesgpt-fixtures")
    (crash,) = _messages(cluster, "pod-crashloop", "critical")
    assert "16 restarts" in crash and "the last 5m11s before" in crash
