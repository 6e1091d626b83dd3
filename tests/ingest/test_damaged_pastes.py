"""Terminal damage to pasted kubectl output, read as the JSON or table it was.

Fixtures: tests/ingest/data/pastes/ (each says at its top where it was cut from): real sessions
a reviewer ran `kda` on, where JSON had lost its indentation, the console had wrapped a long
line, a whole session was indented by two spaces, or `| tail` had cut off an event table's
header.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import analyzer
from analyzer.ingest import IngestResult, ingest, ingest_text, jsondocs, jsonscan
from analyzer.ingest.text.transcript import looks_like_transcript
from analyzer.ingest.tree import MemoryTree

DATA = Path(__file__).parent / "data" / "pastes"


def _read(name: str) -> IngestResult:
    r = ingest(DATA / name)
    assert r.accounting_holds()
    return r


# -- JSON whose indentation was stripped ----------------------------------------------------


def test_unindented_cluster_info_dump_gives_its_objects_and_no_fake_ones() -> None:
    r = _read("unindented-dump.txt")
    assert [o.key.id for o in r.objects] == ["core/Node//minikube", "apps/ReplicaSet/kube-system/coredns-6f6b679f8f"]
    assert not r.rejections and r.objects_read == 2
    # the ReplicaSet's ownerReference is a reference, not a Deployment of its own
    rs = r.objects[1]
    assert [ref.name for ref in rs.view.metadata.ownerReferences] == ["coredns"]


def test_unindented_dump_raises_no_false_finding() -> None:
    cluster = analyzer.load(DATA / "unindented-dump.txt")
    assert cluster.tables["nodes"][["name", "ready"]].values.tolist() == [["minikube", "True"]]
    assert not (cluster.findings["status"] == "fail").any()
    assert len(cluster.incidents) == 0


def test_unindented_json_reads_the_same_in_a_transcript_and_as_a_json_file() -> None:
    text = (DATA / "unindented-dump.txt").read_text()
    documents = text[text.index("{"):text.rindex("}") + 1]
    as_file = analyzer.load(MemoryTree({"dump.json": documents}))
    in_session = ingest_text("PS C:\\> kubectl cluster-info dump\n" + documents + "\nPS C:\\> kubectl get ns\n"
                             "NAME      STATUS   AGE\ndefault   Active   5m\n", "session.txt")
    assert in_session.formats == ["transcript"]
    assert sorted(o.key.id for o in as_file.objects) == sorted(
        o.key.id for o in in_session.objects if o.kind != "Namespace")


def test_a_cut_off_unindented_document_is_one_rejection_not_its_nested_objects() -> None:
    text = (DATA / "unindented-dump.txt").read_text()
    cut = text[:text.index('"ownerReferences"')]  # cut inside the ReplicaSetList
    r = ingest_text(cut, "cut.txt")
    assert r.accounting_holds()
    assert [o.kind for o in r.objects] == ["Node"]
    [rejection] = r.object_rejections
    # named by the line of the item the text ends in (the ReplicaSet), not the List's first line
    assert rejection.location == "line 46"
    assert rejection.reason.endswith("item 1 of the ReplicaSetList, cut off: the file ends inside this item")


def test_document_end_skips_brackets_in_strings() -> None:
    data = b'{\n"a": "}]",\n"b": [\n{\n"c": "{"\n}\n]\n}\n{\n"d": 1\n}\n'
    first = jsonscan.document_end(data, 0, len(data))
    assert first is not None and json.loads(data[:first]) == {"a": "}]", "b": [{"c": "{"}]}
    assert [json.loads(bytes(d.raw)) for d in jsondocs.read_json_file(data, "x").documents] == [
        {"a": "}]", "b": [{"c": "{"}]}, {"d": 1}]
    # a document the parser refuses (a line break inside a string) still ends at its brackets
    damaged = b'{\n"a": "x}\ny]",\n"b": [\n{\n}\n]\n}\n{\n"d": 1\n}\n'
    assert jsonscan.document_end(damaged, 0, len(damaged)) == damaged.index(b"}\n{") + 1
    assert jsonscan.document_end(b'{\n"a": "never closed\n}\n', 0, 24) is None


# -- lines wrapped by the console inside a JSON string -------------------------------------


def test_console_wrapped_annotation_is_joined_back() -> None:
    r = _read("minikube-ps-wrapped-pod.txt")
    assert not r.rejections
    pod = next(o for o in r.objects if o.name == "storage-provisioner")
    applied = pod.view.metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]
    # joined at the wraps, nothing added or lost: the annotation is the JSON kubectl wrote
    spec = json.loads(applied)["spec"]
    assert spec["containers"][0]["command"] == ["/storage-provisioner"]
    assert spec["containers"][0]["volumeMounts"] == [{"mountPath": "/tmp", "name": "tmp"}]
    assert json.loads(applied)["metadata"]["labels"]["addonmanager.kubernetes.io/mode"] == "Reconcile"
    [note] = [s for s in r.skipped if "console" in s.reason]
    assert note.location == "line 9" and "line 28 was wrapped by the console at 174 columns" in note.reason


def _wrapped(first: int, middle: list[int]) -> bytes:
    """An unindented object whose string value the console broke into pieces of these widths."""
    key = '"message": "'
    pieces = ["a" * (first - len(key))] + ["b" * w for w in middle] + ["end"]
    return ('{\n"kind": "ConfigMap",\n"apiVersion": "v1",\n"metadata": {\n"name": "x"\n},\n"data": {\n'
            + key + "\n".join(pieces) + '"\n}\n}\n').encode()


def test_a_wrap_is_joined_only_when_its_pieces_show_the_window_width() -> None:
    # depth 2 (kubectl indents 8 spaces there): first piece 112 + 8 = 120, the next 120
    good = _wrapped(112, [120])
    joined = jsonscan.unwrap_console(good)
    assert joined is not None and joined.width == 120
    assert json.loads(joined.data)["data"]["message"] == "a" * 100 + "b" * 120 + "end"
    assert joined.data.count(b"\n") == good.count(b"\n")  # line numbers stay the file's
    # pieces that disagree (a width the window cannot have) are not joined: that would be a guess
    assert jsonscan.unwrap_console(_wrapped(112, [119])) is None
    # one piece alone proves no width
    assert jsonscan.unwrap_console(_wrapped(112, [])) is None


def test_an_unjoinable_wrap_is_rejected_saying_the_console_wrapped_it() -> None:
    text = b"$ kubectl get cm x -o json\n" + _wrapped(112, [119])
    r = ingest_text(text, "wrapped.txt")
    assert r.accounting_holds() and not r.objects
    [rejection] = r.object_rejections
    assert "line break inside a string at line 9" in rejection.reason
    assert "wrapped by the console" in rejection.reason


# -- where the second prompt is -------------------------------------------------------------


@pytest.mark.parametrize("log_lines", [100, 4100])
def test_a_session_is_a_session_wherever_its_second_prompt_is(log_lines: int) -> None:
    # The shape of the reviewer's repro-prompt-*-line-4000 (cut from the PowerShell session
    # above): `cluster-info dump` (a NodeList, then a long log section), then `get pods`.
    node = {"kind": "NodeList", "apiVersion": "v1", "metadata": {}, "items": [
        {"metadata": {"name": "minikube"}, "status": {"conditions": [{"type": "Ready", "status": "True"}]}}]}
    log = "".join(f"I1117 10:19:00.000000       1 controller.go:615] line {i}\n" for i in range(log_lines))
    text = ("PS C:\\Users\\Ry> kubectl cluster-info dump\n" + json.dumps(node, indent=4) + "\n"
            "==== START logs for container kube-controller-manager of pod kube-system/kcm-minikube ====\n"
            + log + "==== END logs for container kube-controller-manager of pod kube-system/kcm-minikube ====\n"
            "PS C:\\Users\\Ry> kubectl get pods -o wide\n"
            "NAME      READY   STATUS    RESTARTS   AGE   IP           NODE       NOMINATED NODE   READINESS GATES\n"
            "redis-0   1/1     Running   0          10m   10.244.0.6   minikube   <none>           <none>\n"
            "PS C:\\Users\\Ry>\n")
    assert looks_like_transcript(text)
    r = ingest_text(text, "session.txt")
    assert r.accounting_holds() and r.formats == ["transcript"]
    assert sorted(o.kind for o in r.objects) == ["Node", "Pod"] and len(r.logs) == 1


def test_one_command_and_a_long_output_is_still_read_as_before() -> None:
    rows = "".join(f"pod-{i}   1/1     Running   0          10m\n" for i in range(4100))
    text = "$ kubectl get pods\nNAME      READY   STATUS    RESTARTS   AGE\n" + rows
    assert not looks_like_transcript(text)


# -- a session indented as a whole ----------------------------------------------------------


def test_a_session_with_a_uniform_indent_is_read() -> None:
    r = _read("indented-ps-session.txt")
    # (redis-0/1 listed by `kubectl get pods` without -n, nothing naming their namespace: default)
    assert sorted(o.key.id for o in r.objects) == ["core/Pod/default/redis-0", "core/Pod/default/redis-1",
                                                  "core/Pod/kube-system/falco-5p4sq"]
    assert not r.rejections
    assert any(s.reason == "transcript: a uniform indent taken off the lines before reading" for s in r.skipped)
    assert not any("quoting" in s.reason for s in r.skipped)


def test_one_indented_command_is_read_and_a_lone_angle_bracket_is_no_quoting() -> None:
    r = ingest_text("  $ kubectl get pods\n  NAME      READY   STATUS    RESTARTS   AGE\n"
                    "  redis-0   1/1     Running   0          48m\n", "ticket.txt")
    assert [o.name for o in r.objects] == ["redis-0"] and not r.rejections
    # a `>` alone on a line (a log's, a shell continuation's) takes nothing off and says nothing
    text = ("$ kubectl get pods\nNAME      READY   STATUS    RESTARTS   AGE\nredis-0   1/1     Running   0          48m\n"
            "$ kubectl logs redis-0\nstarting\n>\nready\n")
    r = ingest_text(text, "session.txt")
    assert not any("quoting" in s.reason for s in r.skipped)
    # (kube-proxy's nftables errors end so: the log stays whole, its `>` lines in it)
    [log] = r.logs
    assert log.text.splitlines() == ["starting", ">", "ready"]


def test_indented_yaml_in_a_manifest_does_not_make_a_session() -> None:
    # a script line inside a manifest is no prompt: the file stays YAML
    text = ("apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: report\nspec:\n  template:\n    spec:\n"
            "      containers:\n      - name: k\n        image: bitnami/kubectl\n        command:\n"
            "        - sh\n        - -c\n        - |\n          kubectl get pods -A\n"
            "      restartPolicy: Never\n")
    r = ingest_text(text, "job.yaml")
    assert [o.kind for o in r.objects] == ["Job"] and r.formats != ["transcript"]


# -- event rows without their header ---------------------------------------------------------


def test_headerless_event_rows_after_tail_are_read_by_the_command() -> None:
    r = _read("headerless-events.md")
    assert not r.rejections
    # (kinds in lower case: a SealedSecret's is only known as `sealedsecret/` here)
    events = sorted(((o.namespace, o.view.reason, o.view.involvedObject.kind.lower(), o.view.involvedObject.name)
                     for o in r.objects), key=str)
    assert events == sorted([
        ("ingress-nginx", "Pulling", "pod", "ingress-nginx-controller-599c5c76cc-67ktn"),
        ("frontend-dev", "FailedComputeMetricsReplicas", "horizontalpodautoscaler", "frontend-frontend"),
        ("frontend-dev", "FailedGetResourceMetric", "horizontalpodautoscaler", "frontend-frontend"),
        ("frontend-dev", "FailedGetResourceMetric", "horizontalpodautoscaler", "frontend-frontend"),
        # `-n \"mysql-dev\"` inside the xtrace-escaped `bash -lc` script: the namespace is known
        ("mysql-dev", "Unsealed", "sealedsecret", "mysql-dev-secret"),
        ("mysql-dev", "NoPods", "poddisruptionbudget", "mysql"),
    ], key=str)
    warning = next(o for o in r.objects if o.view.reason == "FailedComputeMetricsReplicas")
    assert warning.view.type == "Warning" and warning.view.message.startswith("invalid metrics (2 invalid out of 2)")


# kubernetes-sigs/aws-ebs-csi-driver#477 (its description), trimmed: a describe pod's Events rows
# pasted without their heading, header and rule, in a one-backtick code span (the first row opens
# with the backtick), the last row cut by the paste.
_EVENT_ROWS_IN_A_SPAN = """\
The images should be pulled in but it seems that the ECR can't be accessed.

`  Normal   Scheduled  23m                   default-scheduler                                     Successfully assigned kube-system/ebs-csi-node-spdzt to ip-172-31-70-169.eu-west-1.compute.internal
  Normal   BackOff    23m                   kubelet, ip-172-31-70-169.eu-west-1.compute.internal  Back-off pulling image "602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/csi-liveness-probe:v1.1.0"
  Warning  Failed     23m                   kubelet, ip-172-31-70-169.eu-west-1.compute.internal  Error: ImagePullBackOff
  Normal   Pulling    23m (x2 over 23m)     kubelet, ip
"""


def test_describe_event_rows_without_heading_or_header_are_read() -> None:
    r = ingest_text(_EVENT_ROWS_IN_A_SPAN, "ebs-csi-477.md")
    assert r.accounting_holds()
    events = [(o.view.type, o.view.reason, o.view.involvedObject.name) for o in r.objects]
    assert events == [("Normal", "Scheduled", "ebs-csi-node-spdzt"), ("Normal", "BackOff", "ebs-csi-node-spdzt"),
                      ("Warning", "Failed", "ebs-csi-node-spdzt"), ("Normal", "Pulling", "ebs-csi-node-spdzt")]
    failed = r.objects[2]
    assert failed.namespace == "kube-system" and failed.view.message == "Error: ImagePullBackOff"
    assert failed.view.source.host == "ip-172-31-70-169.eu-west-1.compute.internal"
    assert [x.reason for x in r.rejections] == ["an Events section without its describe ends mid-row"]


def test_one_line_laid_out_like_an_event_row_is_not_read_as_events() -> None:
    text = "Notes:\n  Warning  Deprecated  3d  someone  this is just a sentence laid out in columns\n\nBye.\n"
    r = ingest_text(text, "notes.md")
    assert not r.objects


def test_a_shell_script_with_another_program_is_not_read_as_kubectl() -> None:
    text = ("```\n+ bash -lc kubectl\\ get\\ pods\\ \\&\\&\\ helm\\ list\n"
            "redis-0   1/1     Running   0          48m\n```\n")
    r = ingest_text(text, "ci.md")
    assert r.accounting_holds() and not r.objects


def test_one_broken_item_of_an_unindented_list_costs_only_itself() -> None:
    # as the session's PodList would read if its wrap could not be joined: the other pods stay
    good = '{\n"metadata": {\n"name": "web-1",\n"namespace": "shop"\n},\n"status": {\n"phase": "Running"\n}\n}'
    bad = '{\n"metadata": {\n"name": "web-2",\n"namespace": "shop",\n"annotations": {\n"note": "' + "a" * 90 \
        + "\n" + "b" * 119 + "\n" + "c" * 120 + '\n"\n}\n}\n}'
    text = ('$ kubectl get pods -n shop -o json\n{\n"kind": "PodList",\n"apiVersion": "v1",\n"items": [\n'
            + good + ",\n" + bad + ",\n" + good.replace("web-1", "web-3") + "\n]\n}\n")
    r = ingest_text(text, "pods.txt")
    assert r.accounting_holds()
    assert sorted(o.name for o in r.objects) == ["web-1", "web-3"] and r.objects_by_kind == {"Pod": 2}
    [rejection] = r.object_rejections
    assert "wrapped by the console" in rejection.reason and "at line 20:" in rejection.reason


def test_a_readme_in_a_configmap_with_an_indented_prompt_stays_yaml() -> None:
    text = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: runbook\n  namespace: ops\ndata:\n"
            "  README.md: |\n    Check the pods:\n\n    $ kubectl get pods -n shop\n"
            "    NAME    READY   STATUS    RESTARTS   AGE\n    web-1   1/1     Running   0          3d\n")
    r = ingest_text(text, "runbook.yaml")
    assert [o.key.id for o in r.objects] == ["core/ConfigMap/ops/runbook"] and r.formats != ["transcript"]


def test_a_wrap_right_after_a_backslash_keeps_the_escape() -> None:
    # the console broke `\"` between its two characters (as in last-applied-configuration)
    # a first piece whose width (with the 8 spaces the copy stripped at depth 2) puts the end
    # of the next piece just after the backslash of the escape that ends "a"'s value
    for n in (200, 201):
        value = '{"a":"' + "x" * n + '","b":"' + "y" * 300 + '"}'
        line = '"note": ' + json.dumps(value)
        escape = line.index('\\"', 100)
        if escape % 2:
            break
    cut = (escape + 1 - 8) // 2
    width = cut + 8
    rest = line[cut:]
    pieces = [rest[i:i + width] for i in range(0, len(rest), width)]
    assert len(pieces) >= 3 and pieces[0].endswith("\\") and pieces[1].startswith('"')
    text = ('{\n"kind": "ConfigMap",\n"apiVersion": "v1",\n"metadata": {\n"name": "x"\n},\n"data": {\n'
            + line[:cut] + "\n" + "\n".join(pieces) + "\n}\n}\n")
    joined = jsonscan.unwrap_console(text.encode())
    assert joined is not None and joined.width == width
    assert json.loads(json.loads(joined.data)["data"]["note"]) == json.loads(value)


# Azure/AKS-Construction#727 (trimmed to three of its seven rows): `kubectl get pods -o wide`
# rows cut from the middle of the table, with neither the header nor the command above them.
_BARE_WIDE_POD_ROWS = """```
azure-cns-9ztdr                                        1/1     Running            0                54m     10.240.0.6       aks-userpool01-68104822-vmss000003   <none>           <none>
azure-policy-86887785db-k885d                          1/1     Running            0                60m     10.240.100.24    aks-agentpool-30311657-vmss000000    <none>           <none>
azure-policy-webhook-6fbc657745-9jddk                  0/1     CrashLoopBackOff   9 (4m21s ago)    27m     10.240.100.104   aks-userpool01-68104822-vmss000004   <none>           <none>
```
"""


def test_pod_rows_with_neither_header_nor_command_are_read_when_unmistakable() -> None:
    r = ingest_text(_BARE_WIDE_POD_ROWS, "aks-construction-727.md")
    assert r.accounting_holds() and not r.rejections
    pods = {o.name: o for o in r.objects if o.kind == "Pod"}
    assert sorted(pods) == ["azure-cns-9ztdr", "azure-policy-86887785db-k885d", "azure-policy-webhook-6fbc657745-9jddk"]
    webhook = pods["azure-policy-webhook-6fbc657745-9jddk"]
    assert webhook.view.spec.nodeName == "aks-userpool01-68104822-vmss000004"
    assert webhook.view.status.podIP == "10.240.100.104"
    assert webhook.view.text.status == "CrashLoopBackOff" and webhook.view.text.restarts == 9


@pytest.mark.parametrize("text", [
    # a STATUS kubectl never prints for a pod
    "web-1   1/1   Happy     0   5m\nweb-2   1/1   Happy     0   5m\n",
    # one plain row (no IP, no node): too weak a signal alone
    "redis-0   1/1     Running   0          48m\n",
    # READY that is no n/m count
    "web-1   yes   Running   0   5m\nweb-2   yes   Running   0   5m\n",
    # one -A shaped row whose first cell is no namespace's name
    "Kube_System   redis-0   1/1     Running   0          48m\n",
    # an IP column holding something else
    ("web-1   1/1   Running   0   5m   here     node-1   <none>   <none>\n"
     "web-2   1/1   Running   0   5m   there    node-1   <none>   <none>\n"),
])
def test_bare_rows_on_weaker_signals_are_not_read_as_pods(text: str) -> None:
    r = ingest_text(text, "notes.md")
    assert not [o for o in r.objects if o.kind == "Pod"]


# k3s-io/k3s#776 (its description, 2019-08-30, the excerpt the issues corpus holds, trimmed):
# one `kubectl get pods -A` row under "pod state:", no header, no command. Before: "code block,
# not kubectl output", the CrashLoopBackOff missed ("no object could be read").
_BARE_ALL_NAMESPACES_POD_ROW = """pod state:
```
kube-system   coredns-b7464766c-wmqt9   0/1     CrashLoopBackOff   39         154m
```

logs:
```
.:53
2019-08-30T13:22:56.489Z [INFO] CoreDNS-1.3.0
```
"""


def test_one_bare_pod_row_with_its_namespace_is_read() -> None:
    r = ingest_text(_BARE_ALL_NAMESPACES_POD_ROW, "k3s-776.md")
    assert r.accounting_holds() and not r.rejections
    (pod,) = [o for o in r.objects if o.kind == "Pod"]
    assert (pod.namespace, pod.name) == ("kube-system", "coredns-b7464766c-wmqt9")
    assert pod.view.text.status == "CrashLoopBackOff" and pod.view.text.restarts == 39
    assert pod.view.text.ready == "0/1"


# Azure/AKS#425 (its description, 2018-06-13, AKS 1.9.6): `kubectl get nodes` named in bold prose
# above a fence of its rows, the header left out. Before: "code block, not kubectl output", the
# three NotReady nodes missed.
_BARE_NODE_ROWS = """> **Kubectl get nodes**

```
aks-agentpool-30381032-0   Ready      agent     6d        v1.9.6
aks-agentpool-30381032-1   NotReady   agent     22h       v1.9.6
aks-agentpool-30381032-3   NotReady   agent     1h        v1.9.6
```
"""


def test_node_rows_with_neither_header_nor_command_are_read_when_unmistakable() -> None:
    r = ingest_text(_BARE_NODE_ROWS, "aks-425.md")
    assert r.accounting_holds() and not r.rejections
    nodes = {o.name: o for o in r.objects if o.kind == "Node"}
    assert sorted(nodes) == ["aks-agentpool-30381032-0", "aks-agentpool-30381032-1", "aks-agentpool-30381032-3"]
    ready = {n: next(c.status for c in o.view.status.conditions if c.type == "Ready") for n, o in nodes.items()}
    assert ready == {"aks-agentpool-30381032-0": "True", "aks-agentpool-30381032-1": "False",
                     "aks-agentpool-30381032-3": "False"}
    assert nodes["aks-agentpool-30381032-1"].view.status.nodeInfo.kubeletVersion == "v1.9.6"


@pytest.mark.parametrize("text", [
    # a namespace listing: Active is no node STATUS
    "default       Active   61m\nkube-system   Active   61m\n",
    # no kubelet version in the last column
    "node-1   Ready   agent   6d   latest\nnode-2   Ready   agent   6d   latest\n",
])
def test_bare_rows_that_are_no_nodes_are_not_read_as_nodes(text: str) -> None:
    r = ingest_text(text, "notes.md")
    assert not [o for o in r.objects if o.kind == "Node"]


# kubernetes/ingress-nginx#9785 (an AKS 1.25 cluster, `kubectl get all -A -o wide` quoted from
# its DaemonSets on, header left behind), trimmed to two rows and the one the corpus cut: before,
# "code block, not kubectl output", nothing read.
_BARE_DAEMONSET_ROWS = """```
kube-system   daemonset.apps/ama-logs-windows             0         0         0       0            0           <none>          21d   ama-logs-windows                                 mcr.microsoft.com/azuremonitor/containerinsights/ciprod:win-ciprod01182023-095c864a                                                                                                          component=ama-logs-agent-windows,tier=node-win
kube-system   daemonset.apps/azure-ip-masq-agent          3         3         3       3            3           <none>          21d   azure-ip-masq-agent                              mcr.microsoft.com/aks/ip-masq-agent-v2:v0.1.5                                                                                                                                                k8s-app=azure-ip-masq-agent,tier=node
kube-system   daemonset.apps/cloud-node-manager           3         3         3
```
"""


def test_daemonset_rows_with_neither_header_nor_command_are_read_when_unmistakable() -> None:
    r = ingest_text(_BARE_DAEMONSET_ROWS, "ingress-nginx-9785.md")
    assert r.accounting_holds()
    sets = {o.name: o for o in r.objects if o.kind == "DaemonSet"}
    assert sorted(sets) == ["ama-logs-windows", "azure-ip-masq-agent"]
    assert sets["azure-ip-masq-agent"].namespace == "kube-system"
    assert sets["azure-ip-masq-agent"].view.status.numberReady == 3
    assert sets["ama-logs-windows"].view.status.desiredNumberScheduled == 0
    assert any("line 4" in s.location for s in r.skipped)  # the cut row, said so


def test_a_table_in_a_one_backtick_span_over_several_lines_is_read() -> None:
    # The shape of aws-ebs-csi-driver#477's paste (a tick typed before the first copied line and
    # after the last), with a `get pods` table as issues paste it: the ticks are not the table's.
    text = ("My pods:\n\n"
            "`NAME                     READY   STATUS             RESTARTS   AGE\n"
            "web-1                    1/1     Running            0          5m\n"
            "web-2                    0/1     CrashLoopBackOff   7          5m`\n\nany idea?\n")
    r = ingest_text(text, "issue.md")
    assert r.accounting_holds()
    pods = {o.name: o for o in r.objects}
    assert sorted(pods) == ["web-1", "web-2"]
    assert pods["web-2"].view.text.status == "CrashLoopBackOff" and pods["web-2"].view.text.age_seconds == 300


# Azure-Samples/aks-store-demo#192 (an AKS cluster, the description as the issues corpus
# keeps it, trimmed): a `-o wide` row with no header or command, then a describe fragment. The row is
# read; the fragment and the prose were passed over without a word before.
_AKS_STORE_192 = """\
**Describe the bug**
Virtual worker and viritual customer enter crash loop backoffs.

virtual-worker-7d5cdbb7bd-4lhhw     0/1     CrashLoopBackOff   32 (63s ago)   153m   10.244.0.118   aks-nodepool1-36220077-vmss000000   <none>           <none>

   Last State:     Terminated
      Reason:       StartError
      Message:      failed to create containerd task: failed to create shim task: OCI runtime create failed
      Exit Code:    128

**To Reproduce**
"""


def test_lines_a_paste_does_not_read_are_named_not_dropped() -> None:
    r = ingest_text(_AKS_STORE_192, "issue.md")
    assert [o.name for o in r.objects] == ["virtual-worker-7d5cdbb7bd-4lhhw"]
    unread = [(s.location, s.reason) for s in r.skipped if "not read" in s.reason]
    assert [loc for loc, _ in unread] == ["lines 1-2", "lines 6-11"]
    assert all("neither a kubectl table nor a describe" in why for _, why in unread)


# -- rows of a headerless `| grep` the terminal wrapped ------------------------------------


def test_grep_rows_the_terminal_wrapped_mid_cell_are_joined_whole() -> None:
    r = _read("aks-grep-wrapped-rows.txt")
    assert not r.rejections
    assert not [s for s in r.skipped if "neither a kubectl table" in s.reason]
    pods = {o.name: o for o in r.objects if o.kind == "Pod"}
    assert sorted(pods) == ["azure-cns-tfs6f", "azure-ip-masq-agent-sd7ff", "cloud-node-manager-bsl88"]
    # the node the wrap cut in two is the node of the nodes table, not `aks-nodepool1-31400841-vm`
    nodes = {o.name for o in r.objects if o.kind == "Node"}
    assert {p.view.spec.nodeName for p in pods.values()} == {"aks-nodepool1-31400841-vmss000002"} <= nodes
    assert all(p.provenance.location == f"line {no}" for p, no in zip(pods.values(), (11, 13, 15), strict=True))


def test_a_short_grep_row_is_not_joined_to_a_line_that_does_not_make_it_whole() -> None:
    # the row is the longest line, but no other line is as long: nothing shows a terminal's
    # width, so the prose after it is no wrapped tail and the row stays as read, cut short
    text = ("$ kubectl get po -o wide -A | grep node1\n"
            "kube-system   kube-proxy-88w86   1/1   Running   0   6d1h   10.0.0.4   node1\n"
            "then it broke\n")
    r = ingest_text(text.encode(), "short.txt")
    [pod] = [o for o in r.objects if o.kind == "Pod"]
    assert pod.view.spec.nodeName == "node1"
