"""A pasted row names no container; when it is kept as the later sighting over another file's
whole record of the pod, and that record's spec runs one container, the findings name it.

Fixture: trimmed from ../shared/realdata/aks/holmesgpt-fixtures (test_ask_holmes/
158_slack_chat_correct_date): the `kubectl get -o yaml` record of frontend-service (one container,
stress, 7 restarts) and the `get -A | grep` row `Error 16 (5m11s ago)`, each under its recorded
tool-call header.
"""

from __future__ import annotations

import analyzer


def _call(tool: str, invocation: str) -> str:
    return (f'{{"toolset_name":"kubernetes/core","tool_name":"{tool}","match_params":{{}}}}\n'
            f'{{"schema_version": "robusta:v1.0.0", "status": "success", "error": null, "return_code": 0, '
            f'"url": null, "invocation": "{invocation}", "params": {{}}, "icon_url": null}}\n')


def _record(containers: str) -> str:
    return _call("kubectl_get_yaml", "kubectl get -o yaml pod frontend-service -n default") + f"""\
apiVersion: v1
kind: Pod
metadata:
  name: frontend-service
  namespace: default
  uid: d5d64096-dfff-4596-a955-e3e4a1bc6a1d
spec:
  containers:
{containers}  nodeName: aks-agentpool-29949785-vmss000001
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


ONE = "  - image: jfusterm/stress\n    name: stress\n"
ROW_16 = _call("kubectl_find_resource", "kubectl get -A --show-labels -o wide pod | grep frontend-service") + """\
default            frontend-service                                         0/1     Error              16 (5m11s ago)   57m     10.244.1.0     aks-agentpool-29949785-vmss000001   <none>           <none>            <none>
"""


def _messages(files: dict[str, str], rule: str) -> list[str]:
    df = analyzer.load(files).findings
    return list(df[df["rule"] == rule]["message"])


def test_a_later_row_over_a_one_container_record_names_the_container() -> None:
    files = {"get_yaml.txt": _record(ONE), "find_resource.txt": ROW_16}
    (crash,) = _messages(files, "pod-crashloop")
    assert "(stress; the STATUS column says Error" in crash and "16 restarts" in crash
    (restarts,) = _messages(files, "pod-high-restarts")
    assert "container stress;" in restarts and "not named" not in restarts


def test_a_row_over_a_record_of_two_containers_does_not_guess_which() -> None:
    two = ONE + "  - image: busybox:1.36\n    name: sidecar\n"
    row = ROW_16.replace("0/1     Error", "0/2     Error")
    files = {"get_yaml.txt": _record(two), "find_resource.txt": row}
    (restarts,) = _messages(files, "pod-high-restarts")
    assert "container not named in the table" in restarts
    (crash,) = _messages(files, "pod-crashloop")
    assert "stress" not in crash and "sidecar" not in crash
