"""Pastes as they arrive: line endings, tabs, notes, prose, wrappers, cut text, TUI frames.

Fixtures are hand-written in kubectl's layout unless a comment names a seed or realdata file.
"""

from __future__ import annotations

import json
import time

import orjson
import pytest
from conftest import REALDATA, SEEDS

from analyzer.ingest.text import looks_like_kubectl_text, parse_kubectl_text

PODS = (
    "$ kubectl get pods -n web\n"
    "NAME    READY   STATUS    RESTARTS      AGE\n"
    "web-1   1/1     Running   3 (12h ago)   7d2h\n"
    "web-2   0/1     Pending   0             11d\n"
)


def bodies(text: str) -> list[dict]:
    return [obj.body for obj in parse_kubectl_text(text, "paste.txt").objects]


def test_crlf_cr_and_trailing_blanks_read_like_plain_newlines() -> None:
    expected = bodies(PODS)
    assert bodies(PODS.replace("\n", "\r\n")) == expected
    assert bodies(PODS.replace("\n", "\r")) == expected
    assert bodies(PODS.replace("\n", "   \n")) == expected
    assert bodies("\ufeff" + PODS) == expected


def test_namespace_comes_from_the_command_and_is_never_assumed() -> None:
    assert [b["metadata"]["namespace"] for b in bodies(PODS)] == ["web", "web"]
    without = PODS.replace(" -n web", "")
    assert all("namespace" not in b["metadata"] for b in bodies(without))
    assert bodies(PODS.replace("-n web", "-n default"))[0]["metadata"]["namespace"] == "default"
    assert bodies(PODS.replace("-n web", "--namespace=ops"))[0]["metadata"]["namespace"] == "ops"


@pytest.mark.parametrize("prompt", [
    "$ ", "# ", "root@host:~# ", "> ", "PS C:\\> ", "controlplane $ ", "[root@m1 ~]# ", "",
])
def test_every_prompt_form_carries_the_command(prompt: str) -> None:
    text = PODS.replace("$ kubectl", prompt + "kubectl")
    assert bodies(text)[0]["metadata"]["namespace"] == "web"


def test_notes_between_rows_are_skipped_and_prose_ends_nothing_it_should_not() -> None:
    # as seed 000: `# 日本語` notes between rows, prose between tables of `kubectl get all`
    text = (
        "$ kubectl get all -n kube-system\n"
        "NAME                 READY   STATUS    RESTARTS   AGE\n"
        "pod/coredns-1        1/1     Running   0          12h\n"
        "# coredns の replicas を持っている\n"
        "pod/coredns-2        1/1     Running   0          12h\n"
        "\n"
        "Some words about services follow here.\n"
        "\n"
        "NAME               TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)         AGE\n"
        "service/kube-dns   ClusterIP   10.0.0.10    <none>        53/UDP,53/TCP   11d\n"
        "That was all of it.\n"
    )
    parsed = parse_kubectl_text(text, "paste.txt")
    assert [(o.kind, o.name, o.namespace, o.line) for o in parsed.objects] == [
        ("Pod", "coredns-1", "kube-system", 3),
        ("Pod", "coredns-2", "kube-system", 5),
        ("Service", "kube-dns", "kube-system", 10),
    ]
    assert parsed.rejections == []


def test_a_row_cut_short_keeps_what_it_has_and_says_where() -> None:
    text = PODS.replace("web-2   0/1     Pending   0             11d\n", "web-2   0/1     Pending\n")
    parsed = parse_kubectl_text(text, "paste.txt")
    cut = parsed.find("Pod", "web-2").body
    assert cut["status"] == {"phase": "Pending"}
    assert "restarts" not in cut["x-kda-text"]
    # said once: a note on the object kept, not also a rejection
    assert parsed.rejections == []
    assert parsed.find("Pod", "web-2").notes == ["its table row is cut short: no RESTARTS, AGE; kept without them"]


def test_tabs_in_a_describe_are_read_as_spaces() -> None:
    text = "Name:\tweb-1\nNamespace:\tweb\nLabels:\tapp=web\n\t\tteam=shop\nQoS Class:\tBestEffort\nEvents:\t<none>\n"
    pod = parse_kubectl_text(text, "paste.txt").find("Pod", "web-1").body
    assert pod["metadata"] == {"name": "web-1", "namespace": "web", "labels": {"app": "web", "team": "shop"}}
    assert pod["status"] == {"qosClass": "BestEffort"}


def test_holmesgpt_wrapper_stderr_is_not_read() -> None:
    text = (
        '{"toolset_name": "kubernetes/core", "tool_name": "kubectl_get_by_kind_in_namespace", '
        '"match_params": {"kind": "pod", "namespace": "web"}}\n'
        '{"schema_version": "robusta:v1.0.0", "status": "success", '
        '"invocation": "kubectl get pod -n web", "params": {"kind": "pod"}}\n'
        "stdout:\n" + PODS.split("\n", 1)[1] + "\nstderr:\n"
        "NAME   READY   STATUS    RESTARTS   AGE\n"
        "ghost   1/1    Running   0          1d\n"
    )
    parsed = parse_kubectl_text(text, "fixture.txt")
    assert [(o.name, o.namespace) for o in parsed.objects] == [("web-1", "web"), ("web-2", "web")]


def test_box_drawing_frames_are_rejected_once_with_where() -> None:
    # realdata kubeadm/oci-ccm-issue-409: a Node's YAML pasted from a k9s view
    text = (REALDATA / "kubeadm/oci-ccm-issue-409/node-yaml-k9s-paste-excerpt.txt").read_text("utf-8")
    parsed = parse_kubectl_text(PODS + text, "paste.txt")
    assert len(parsed.objects) == 2
    assert [(r.location, r.reason.split(" are ")[0]) for r in parsed.rejections] == [
        ("line 5", "lines 5-11")]


@pytest.mark.parametrize("text", [
    '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x"}}',
    "[1, 2, 3]",
    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels:\n    app: web\n",
    "The cluster was slow today. NAME and STATUS are words we use.\nNothing else to see.\n",
    "2024-04-09T10:00:00Z INFO starting\n2024-04-09T10:00:01Z INFO ready\n",
    "",
])
def test_not_kubectl_text(text: str) -> None:
    assert looks_like_kubectl_text(text) is False


@pytest.mark.parametrize("text", [
    PODS,
    "Name:         kube-dns\nNamespace:    kube-system\nLabels:       <none>\n",
    "[root@m1 ~]# kubectl get nodes\nNAME   STATUS   ROLES    AGE   VERSION\nm1     Ready    <none>   2d    v1.29.4\n",
])
def test_kubectl_text(text: str) -> None:
    assert looks_like_kubectl_text(text) is True


def test_output_is_deterministic() -> None:
    text = (SEEDS / "004_417db4bb012edb13.txt").read_text("utf-8")
    first = parse_kubectl_text(text, "seed")
    second = parse_kubectl_text(text, "seed")
    assert orjson.dumps([o.body for o in first.objects]) == orjson.dumps([o.body for o in second.objects])
    assert first.rejections == second.rejections
    # Bodies are plain JSON values, as `kubectl get -o json` would have them.
    json.dumps([o.body for o in first.objects], allow_nan=False)


def test_a_ten_thousand_row_table_reads_in_linear_time() -> None:
    def table(rows: int) -> str:
        header = ["NAMESPACE", "NAME", "READY", "STATUS", "RESTARTS", "AGE", "IP", "NODE"]
        cells = [header] + [
            [f"ns-{i % 7}", f"web-{i}", "1/1", "Running", "2 (3h ago)", "5d",
             f"10.0.{i // 250}.{i % 250}", f"node-{i % 9}"]
            for i in range(rows)
        ]
        # Laid out as kubectl's tabwriter does: each column as wide as its widest cell + 3.
        widths = [max(len(row[c]) for row in cells) + 3 for c in range(len(header))]
        return "".join(
            "".join(value.ljust(width) for value, width in zip(row, widths, strict=True)).rstrip() + "\n"
            for row in cells
        )

    small, large = table(1000), table(10_000)
    started = time.perf_counter()
    parse_kubectl_text(small, "small")
    small_time = time.perf_counter() - started
    started = time.perf_counter()
    parsed = parse_kubectl_text(large, "large")
    large_time = time.perf_counter() - started
    assert len(parsed.objects) == 10_000
    assert parsed.objects[-1].body["status"]["podIP"] == "10.0.39.249"
    # Ten times the rows may take ten times as long, with room for a noisy machine; quadratic
    # work would take a hundred times as long.
    assert large_time < 40 * small_time + 0.5


# Trimmed from the comment of 2019-05-31 in bsycorp/kind#19 (github.com/bsycorp/kind/issues/19):
# the paste ends inside the next row, at `kube-apise`.
_BSYCORP_19 = """root@182238fc26a3:$ kubectl get -n kube-system pods
NAME                               READY   STATUS             RESTARTS   AGE
coredns-fb8b8dccf-hkwrv            0/1     CrashLoopBackOff   1          27d
etcd-minikube                      1/1     Running            0          27d
kube-apise
"""


def test_a_paste_ending_inside_a_row_says_so() -> None:
    parsed = parse_kubectl_text(_BSYCORP_19, "bsycorp-19.txt")
    assert [o.name for o in parsed.objects] == ["coredns-fb8b8dccf-hkwrv", "etcd-minikube"]
    assert [(r.location, r.reason) for r in parsed.rejections] == [
        ("line 5", "the table's last row is cut short at 'kube-apise': too little of it to read")]


def test_a_word_of_prose_after_a_table_is_no_cut_row() -> None:
    text = _BSYCORP_19.replace("kube-apise\n", "\nThat was all.\n")
    assert parse_kubectl_text(text, "notes.txt").rejections == []


# Trimmed from rancher/rke2#585 (github.com/rancher/rke2/issues/585, comment of 2021-01-19): the
# excerpt ends inside the next row, after `kube-system   k`.
_RKE2_585 = """$ kubectl get pods -A
NAMESPACE     NAME                                         READY   STATUS      RESTARTS   AGE
kube-system   helm-install-rke2-metrics-server-x9p4c       0/1     Pending     0          8m24s
kube-system   kube-apiserver-ip-172-31-6-18                1/1     Running     0          7m40s
kube-system   k
"""


def test_a_row_cut_right_after_a_name_that_may_be_cut_too_is_not_kept() -> None:
    parsed = parse_kubectl_text(_RKE2_585, "rke2-585.md")
    assert [o.name for o in parsed.objects] == ["helm-install-rke2-metrics-server-x9p4c",
                                                 "kube-apiserver-ip-172-31-6-18"]
    assert [(r.location, r.reason) for r in parsed.rejections] == [
        ("line 5", "the table's last row is cut short right after its name 'k', which may be cut too "
                   "(no controller's pod suffix ends it): not kept")]


def test_a_row_cut_right_after_a_whole_pod_name_is_kept() -> None:
    # (OKE, kubearmor/KubeArmor#1084: `kube-system   proxymux-client-2p4bn` ends its excerpt)
    text = _RKE2_585.replace("kube-system   k\n", "kube-system   proxymux-client-2p4bn\n")
    parsed = parse_kubectl_text(text, "oke.md")
    assert parsed.find("Pod", "proxymux-client-2p4bn").notes == [
        "its table row is cut short: no READY, STATUS, RESTARTS, AGE; kept without them"]
    assert parsed.rejections == []


def test_a_describes_containers_section_pasted_alone_is_named_as_such() -> None:
    # kubernetes/kubernetes#68286 (description, 2018-09-05), trimmed: `kubectl describe pods`
    # pasted from its Containers section on; no Name says which pod, so nothing is kept, and the
    # skip says what the block is.
    paste = ("One of my nodes ran out of disk space last night.\n\n```\nContainers:\n  static:\n"
             "    Container ID:   <my-container-id>\n    Image:          localhost:5000/static:v1\n"
             "    State:          Running\n      Started:      Tue, 04 Sep 2018 22:04:01 +0000\n"
             "    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    2\n"
             "    Ready:          True\n    Restart Count:  1\n```\n")
    assert "part of a `kubectl describe` (its 'Containers' section)" in _skipped_alone(paste)


def _skipped_alone(paste: str) -> str:
    """Why the one block of a paste that holds no object was skipped."""
    import analyzer

    result = analyzer.ingest.ingest_text(paste, "paste.md")
    assert result.objects == []
    (skip,) = [r for r in result.skipped if "kubectl describe" in r.reason]
    return skip.reason


def test_a_nodes_conditions_pasted_alone_are_named_with_what_they_say() -> None:
    # aws/karpenter-provider-aws#7029 (description, 2024-09-17, EKS), trimmed: a node's describe
    # Conditions without its Name. Before: 'code block, not kubectl output', its Ready=Unknown lost.
    paste = ("- Description of the node shows the following:\n```\nConditions:\n"
             "  Type             Status    LastHeartbeatTime                 LastTransitionTime"
             "                Reason              Message\n"
             "  ----             ------    -----------------                 ------------------"
             "                ------              -------\n"
             "  MemoryPressure   False     Tue, 17 Sep 2024 16:15:10 -0500   Tue, 17 Sep 2024 10:02:13 -0500"
             "   KubeletHasSufficientMemory   kubelet has sufficient memory available\n"
             "  Ready            Unknown   Tue, 17 Sep 2024 16:15:10 -0500   Tue, 17 Sep 2024 16:18:13 -0500"
             "   NodeStatusUnknown   Kubelet stopped posting node status.\n```\n")
    assert _skipped_alone(paste).endswith("(its 'Conditions' section) without the Name of what it describes: nothing to "
                                "read it as; it says Ready=Unknown (NodeStatusUnknown, since Tue, 17 Sep 2024 "
                                "16:18:13 -0500)")


def test_a_nodes_condition_row_quoted_alone_is_named_with_what_it_says() -> None:
    # gesiscss/orc#21 (description, 2020-12-06): one Ready row of `kubectl describe nodes`, no
    # heading, no name. Before: 'code block, not kubectl output'.
    paste = ("`kubectl describe nodes` output:\n\n```\n  Ready                False   Sun, 06 Dec 2020 18:56:49 +0100"
             "   Sun, 06 Dec 2020 18:49:40 +0100   KubeletNotReady              PLEG is not healthy: pleg was "
             "last seen active 10m18.040734348s ago; threshold is 3m0s\n```\n")
    assert _skipped_alone(paste).endswith("'Conditions' section) without the Name of what it describes: nothing to "
                                          "read it as; it says Ready=False (KubeletNotReady, since Sun, 06 Dec 2020 "
                                          "18:49:40 +0100)")
