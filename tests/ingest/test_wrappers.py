"""Tool-call records and terminal frames around kubectl output are removed, the output read."""

from __future__ import annotations

from analyzer.ingest import ingest_text

# HolmesGPT fixture shape (realdata aks/holmesgpt-fixtures): tool metadata, the invocation,
# `stdout:`, the kubectl output, `stderr:` and what the command wrote there.
HOLMES_YAML = (
    '{"toolset_name": "kubernetes/core", "tool_name": "kubectl_get_yaml", "match_params": {}}\n'
    '{"schema_version": "robusta:v1.0.0", "status": "success", "invocation": "kubectl get -o yaml pod web -n shop"}\n'
    "stdout:\n"
    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: shop\n"
    "stderr:\n"
    "Warning: some warning\n"
)


def test_tool_call_record_around_yaml() -> None:
    r = ingest_text(HOLMES_YAML)
    assert [o.key.id for o in r.objects] == ["core/Pod/shop/web"]
    assert r.objects[0].provenance.line == 4  # lines keep their numbers in the file
    reasons = [s.reason for s in r.skipped]
    assert "tool-call header (HolmesGPT record), not Kubernetes objects" in reasons
    assert "tool's stderr: 'Warning: some warning'" in reasons
    assert r.formats == ["kubectl-yaml"] and not r.rejections


def test_tool_call_record_around_json() -> None:
    text = ('{"tool_name": "kubectl_get_json"}\n'
            '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web", "namespace": "shop"}}\n')
    r = ingest_text(text)
    assert [o.key.id for o in r.objects] == ["core/Pod/shop/web"]


# k9s "YAML" view copied from a terminal (realdata kubeadm/oci-ccm-issue-409): the first line
# lost its left border in the selection, every line is padded to the pane and closed by `│`.
K9S = "\n".join([
    "apiVersion: v1                                             │",
    "│ kind: Node                                                 │",
    "│ metadata:                                                  │",
    "│   labels:                                                  │",
    "│     kubernetes.io/hostname: worker-1                       │",
    "│   name: worker-1                                           │",
    "│ spec:                                                      │",
    "│   providerID: oci://ocid1.instance.oc1.iad.abc             │",
    "└────────────────────────────────────────────────────────────┘",
])


def test_k9s_frame_is_removed_and_the_yaml_read() -> None:
    r = ingest_text(K9S)
    [node] = r.objects
    assert node.key.id == "core/Node//worker-1"
    assert node.view.spec.providerID == "oci://ocid1.instance.oc1.iad.abc"
    assert node.view.metadata.labels == {"kubernetes.io/hostname": "worker-1"}
    assert any("terminal frame" in s.reason for s in r.skipped)


def test_a_table_with_a_few_box_characters_is_not_treated_as_framed() -> None:
    # One `│` in a value must not make the whole file a frame.
    text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: art\n  namespace: x\ndata:\n  a: 'x │ y'\n"
    r = ingest_text(text)
    assert r.objects[0].body()["data"] == {"a": "x │ y"}
    assert not any("terminal frame" in s.reason for s in r.skipped)


# Newer HolmesGPT records (robusta-dev/holmesgpt @ c1ee1d4, tests/llm/fixtures/test_workload_health/
# 01_crashpod, an EKS cluster in us-east-2, trimmed to three rows and the Deployment's head): the
# invocation names only the tool ("kubectl_get_by_kind_in_namespace command", the command is in
# its params), and the output is a quoted string written out with its line breaks (` "NAME ...`,
# last row ending `",`). Before: "plain text that is neither a dump nor a known log layout", the
# crash-looping pod lost.
HOLMES_QUOTED_TABLE = "\n".join([
    '{"toolset_name": "kubernetes/core", "tool_name": "kubectl_get_by_kind_in_namespace", '
    '"match_params": {"kind": "Pod", "namespace": "default"}}',
    '{"schema_version": "robusta:v1.0.0", "status": "success", "error": null, "return_code": 0, "url": null, '
    '"invocation": "kubectl_get_by_kind_in_namespace command", "params": {"kind": "Pod", "namespace": "default"}}',
    "stdout:",
    ' "NAME                                 READY   STATUS             RESTARTS      AGE     IP             NODE',
    "aws-cloudwatch-mcp-6f756749bd-6rvgn  1/1     Running            0             3h44m   10.0.218.59    ip-10-0-203-129.us-east-2.compute.internal",
    "crashpod-9688789bc-lgjzj             0/1     CrashLoopBackOff   7 (32s ago)   11m     10.0.219.148   ip-10-0-203-129.us-east-2.compute.internal",
    'robusta-forwarder-5d54dbffd6-m8j4s   1/1     Running            0             3d20h   10.0.207.76    ip-10-0-217-140.us-east-2.compute.internal",',
    "",
    "stderr:",
    "",
])
HOLMES_QUOTED_DESCRIBE = "\n".join([
    '{"toolset_name": "kubernetes/core", "tool_name": "kubectl_describe", '
    '"match_params": {"kind": "Deployment", "name": "crashpod", "namespace": "default"}}',
    '{"schema_version": "robusta:v1.0.0", "status": "success", "error": null, "return_code": 0, "url": null, '
    '"invocation": "kubectl_describe command", "params": {"kind": "Deployment", "name": "crashpod", "namespace": "default"}}',
    "stdout:",
    ' "Name:                   crashpod',
    "Namespace:              default",
    "CreationTimestamp:      Mon, 14 Jul 2025 14:04:46 +0300",
    "Selector:               app=crashpod",
    "Replicas:               1 desired | 1 updated | 1 total | 0 available | 1 unavailable",
    "StrategyType:           RollingUpdate",
    'Events:                 <none>"',
    "",
    "stderr:",
    "",
])


def test_a_quoted_tool_output_is_read_with_the_command_its_params_name() -> None:
    r = ingest_text(HOLMES_QUOTED_TABLE)
    pods = {o.key.id: o for o in r.objects}
    assert sorted(pods) == ["core/Pod/default/aws-cloudwatch-mcp-6f756749bd-6rvgn",
                            "core/Pod/default/crashpod-9688789bc-lgjzj",
                            "core/Pod/default/robusta-forwarder-5d54dbffd6-m8j4s"]
    # the closing quote of the last row is not part of its NODE cell
    assert pods["core/Pod/default/robusta-forwarder-5d54dbffd6-m8j4s"].view.spec.nodeName \
        == "ip-10-0-217-140.us-east-2.compute.internal"
    assert not r.rejections


def test_a_quoted_describe_is_read_as_its_kind() -> None:
    r = ingest_text(HOLMES_QUOTED_DESCRIBE)
    [dep] = r.objects
    assert dep.key.id == "apps/Deployment/default/crashpod"
    assert dep.view.status.unavailableReplicas == 1


def test_an_unquoted_output_is_left_as_it_is() -> None:
    # the older shape (realdata aks/holmesgpt-fixtures): no quotes, a `"` in a message stays
    from analyzer.ingest.wrappers import unwrap_tool_output
    text = HOLMES_YAML.replace("apiVersion: v1", 'apiVersion: v1\n# "quoted"')
    assert unwrap_tool_output(text).body.split("\n")[4] == '# "quoted"'


# The `kubectl logs` records of holmesgpt's 04_image_pull_backoff (EKS, @ c1ee1d4): the tool ran
# kubectl logs and it failed (the container never started); that text is not the pod's log.
HOLMES_LOGS_FAILED = "\n".join([
    '{"toolset_name": "kubernetes/logs", "tool_name": "fetch_pod_logs", "match_params": '
    '{"pod_name": "customer-relations-webapp-5d98ffcfd-tz4nc", "namespace": "default"}}',
    '{"schema_version": "robusta:v1.0.0", "status": "success", "error": null, "return_code": 0, "url": null, '
    '"invocation": "fetch_pod_logs command", "params": {"pod_name": "customer-relations-webapp-5d98ffcfd-tz4nc", '
    '"namespace": "default"}}',
    "Command `kubectl logs customer-relations-webapp-5d98ffcfd-tz4nc -n default` failed with return code 1",
    'Error from server (BadRequest): container "crw-main-container" in pod '
    '"customer-relations-webapp-5d98ffcfd-tz4nc" is waiting to start: image can\'t be pulled',
    "",
])


def test_a_logs_record_is_the_pods_log_and_a_failed_one_is_not() -> None:
    ok = HOLMES_LOGS_FAILED.split("\n")[:2] + ["Exception in thread \"main\" java.lang.StackOverflowError", ""]
    r = ingest_text("\n".join(ok), "kubectl_logs.txt")
    [log] = r.logs
    assert (log.namespace, log.pod, log.container, log.line) == (
        "default", "customer-relations-webapp-5d98ffcfd-tz4nc", "", 3)
    assert log.text.startswith("Exception in thread")
    failed = ingest_text(HOLMES_LOGS_FAILED, "kubectl_logs.txt")
    assert not failed.logs and not failed.objects


# A k9s pane pasted into an issue between prose (MicrosoftDocs/azure-docs#95667, AKS static
# Azure disk, 2022-07-12, trimmed): the pod's event rows keep k9s's left border, some their right
# one. Before: "code block, not kubectl output", nothing read from the file.
K9S_EVENTS_IN_ISSUE = "\n".join([
    "These are the events of the pod mypod:",
    "",
    "```",
    "│   Warning  FailedScheduling    4m36s                default-scheduler        0/3 nodes are "
    "available: 3 pod has unbound immediate PersistentVolumeClaims.                │",
    "│   Normal   Scheduled           4m21s                default-scheduler        Successfully "
    "assigned default/mypod to XXX",
    "│   Warning  FailedAttachVolume  20s (x2 over 2m21s)  attachdetach-controller  "
    'AttachVolume.Attach failed for volume "pv-azurediskdemo" : Attach timeout for volume /subscriptions/XXX/resou',
    "```",
])


def test_a_framed_code_block_inside_prose_is_unframed_and_read() -> None:
    r = ingest_text(K9S_EVENTS_IN_ISSUE)
    reasons = {e.view.reason for e in r.objects if e.key.kind == "Event"}
    assert {"FailedScheduling", "Scheduled", "FailedAttachVolume"} <= reasons
    [frame] = [s for s in r.skipped if "terminal frame" in s.reason]
    assert frame.location == "lines 4-6"


def test_one_line_opening_with_a_box_character_is_not_a_frame() -> None:
    from analyzer.ingest.wrappers import framed_runs

    assert framed_runs("prose\n│ one line\nmore prose\n") == []
    assert framed_runs("│ a\n│ b\nc\n│ d\n") == [(1, 2)]


# One `kubectl logs --all-containers` pasted into rancher/rke2#6220 (canal's installer on arm,
# 2024-06-18, trimmed): its lines begin with their own times, its command line does not, and
# kubectl's error about a container still initialising ends it. Before: the times were taken as
# a CI log's and cut off every line; without them, one pasted `kubectl logs` was not read at all.
RKE2_CANAL_LOG = "\n".join([
    "Partial canal pod logs: ",
    "$ kubectl -n kube-system logs rke2-canal-fmk8g --all-containers=true",
    "2024-06-18 17:55:23.199 [INFO][1] cni-installer/install.go 142: Running as a Kubernetes pod",
    "2024-06-18 17:55:23.763 [INFO][1] cni-installer/install.go 237: CNI plugin version: v3.28.0",
    '2024-06-18 17:55:53.767 [FATAL][1] cni-installer/install.go 482: Unable to create token for CNI kubeconfig '
    'error=Post "https://a.b.c.d:443/api/v1/namespaces/kube-system/serviceaccounts/canal/token": '
    "dial tcp a.b.c.d:443: i/o timeout",
    'Error from server (BadRequest): container "flexvol-driver" in pod "rke2-canal-fmk8g" is waiting to start: '
    "PodInitializing",
    "",
])


def test_one_pasted_kubectl_logs_is_the_pods_log_with_its_own_times() -> None:
    from analyzer.printing.logs import find_log
    from analyzer.printing.store import DumpStore

    r = ingest_text(RKE2_CANAL_LOG, "rke2-6220.md")
    [log] = r.logs
    assert (log.namespace, log.pod, log.container, log.line) == ("kube-system", "rke2-canal-fmk8g", "", 3)
    assert log.text.startswith("2024-06-18 17:55:23.199 [INFO][1] cni-installer/install.go 142:")
    assert not any("CI timestamps" in s.reason for s in r.skipped)
    # `kda logs DUMP POD`: the one log saved without a container's name (it said "choose one of: []")
    assert find_log(DumpStore(r), "kube-system", "rke2-canal-fmk8g").text == log.text


def test_kubectls_error_after_a_pasted_log_is_accounted_for_not_the_logs_last_line() -> None:
    # rancher/rke2#6220: `--all-containers` stopped at flexvol-driver, still initialising; the
    # error was kubectl's (its words, not canal's), and it was kept as the log's last line
    r = ingest_text(RKE2_CANAL_LOG, "rke2-6220.md")
    [log] = r.logs
    assert log.text.rstrip("\n").endswith("dial tcp a.b.c.d:443: i/o timeout")
    assert "Error from server" not in log.text
    [said] = [s for s in r.skipped if "Error from server" in s.reason]
    assert said.location == "line 6"
    assert said.reason.endswith('container "flexvol-driver" in pod "rke2-canal-fmk8g" is waiting to start: '
                                "PodInitializing")


def test_a_pasted_log_that_is_only_kubectls_error_is_still_no_log() -> None:
    # (dra-example-driver#33's `kubectl logs`: the error alone, named by the branch for it)
    r = ingest_text("$ kubectl logs dra-example-driver-kubeletplugin-xgj9x -n dra-example-driver\n"
                    'Error from server (BadRequest): container "plugin" in pod "dra-example-driver-kubeletplugin-xgj9x" '
                    "is waiting to start: PodInitializing\n", "issue.md")
    assert r.logs == []
    assert any("Error from server (BadRequest)" in s.reason for s in r.skipped)
