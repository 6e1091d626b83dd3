"""What a support engineer's first problem looks like in a pasted ticket, judged end to end:
pasted text -> objects -> findings, one trimmed public paste per problem type."""

from __future__ import annotations

import analyzer
from analyzer.findings import collect_findings


def _failed(text: str, rule: str) -> list[str]:
    cluster = analyzer.load({"issue.md": text})
    return sorted(f.name for f in collect_findings(cluster) if f.rule == rule and f.status == "fail")


# k0sproject/k0s#4015 (2023-12), trimmed: a fresh k0s cluster's `kubectl get apiservice`, the
# metrics API not available. Before, the listing was a table of no kind: nothing was said of it.
K0S_4015 = """\
Checked with `kubectl get apiservice`

```
NAME                                   SERVICE                      AVAILABLE                      AGE
v1.                                    Local                        True                           12m
v1.admissionregistration.k8s.io        Local                        True                           12m
v1beta1.metrics.k8s.io                 kube-system/metrics-server   False (FailedDiscoveryCheck)   12m
```
"""


def test_a_pasted_apiservice_listing_names_the_unavailable_aggregated_api() -> None:
    assert _failed(K0S_4015, "apiservice-unavailable") == ["v1beta1.metrics.k8s.io"]


# DataDog/datadog-operator#401 (2021-11-17): the drain's two lines pasted alone, no command and
# no object. Before: "not a Kubernetes dump" and `kda findings` stopped on "nothing could be read".
DATADOG_401 = """\
evicting pod datadog/datadog-cluster-agent-689f579b4f-dmrcn
error when evicting pods/"datadog-cluster-agent-689f579b4f-dmrcn" -n "datadog" (will retry after 5s): \
Cannot evict pod as it would violate the pod's disruption budget.
"""


def test_a_drains_refusal_pasted_alone_is_judged(tmp_path) -> None:
    from typer.testing import CliRunner

    from analyzer.cli import app

    paste = tmp_path / "drain.txt"
    paste.write_text(DATADOG_401, encoding="utf-8")
    result = CliRunner().invoke(app, ["findings", str(paste)])
    assert result.exit_code == 0, result.output
    assert "[eviction-refused] Eviction of Pod datadog/datadog-cluster-agent-689f579b4f-dmrcn refused" in result.stdout


def test_a_quoted_last_state_names_the_oom_kill_and_keeps_the_rows_crash_loop() -> None:
    # The OOMKilled write-up of tests/ingest/text/test_fragments_text.py: the container's Last
    # State grepped from the pod's describe lays its OOM kill (exit 137) over the pod's row; the
    # row's STATUS still says what the container does now (it loops), and no memory limit is
    # claimed: the paste shows none.
    from tests.ingest.text.test_fragments_text import OOM_WRITEUP

    cluster = analyzer.load({"issue.md": OOM_WRITEUP})
    found = {f.rule: f for f in collect_findings(cluster) if f.status == "fail"}
    assert "pod-crashloop" in found
    oom = found["pod-oomkilled"]
    assert oom.evidence[0].field.endswith(".lastState.terminated.reason")
    assert oom.facts["limits"] == "not in the dump" and oom.facts["containers"] == "(its name not in the paste)"


# nebari-dev/nebari#3213 (2026-03-26), trimmed: the command in one fence, the row it printed (its
# RESTARTS and AGE left out by the writer) in the next. Before: "no output shown" and "code block,
# not kubectl output": the crash-looping EBS CSI controller was not read.
NEBARI_3213 = """\
### CSI controller crashlooping
```
kubectl get pods -n kube-system | grep ebs
```
```
ebs-csi-controller-xxxxx   1/6   CrashLoopBackOff
```
"""


def test_a_row_cut_to_its_first_columns_in_its_own_fence_is_judged_without_made_up_restarts() -> None:
    cluster = analyzer.load({"issue.md": NEBARI_3213})
    (loop,) = [f for f in collect_findings(cluster) if f.rule == "pod-crashloop" and f.status == "fail"]
    assert (loop.namespace, loop.name) == ("kube-system", "ebs-csi-controller-xxxxx")
    assert loop.facts["restarts"] == "an unknown number of"


# A kubeadm write-up's session (kubectl 1.9), in the public code index (its repository not named
# there), trimmed: `kubectl get deployment` in the layout before READY, kube-dns AVAILABLE 0 at 26m.
KUBEDNS_OLD_LAYOUT = """\
$ kubectl get deployment --namespace=kube-system
NAME                       DESIRED   CURRENT   UP-TO-DATE   AVAILABLE   AGE
calico-kube-controllers    1         1         1            1           24m
calico-policy-controller   0         0         0            0           24m
kube-dns                   1         1         1            0           26m
"""


def test_an_older_deployment_row_is_judged_by_the_available_count_it_gave() -> None:
    # the row gives no ready count: the evidence names the AVAILABLE it showed, not a
    # `status.readyReplicas = 0` the paste never said
    cluster = analyzer.load({"issue.md": KUBEDNS_OLD_LAYOUT})
    (short,) = [f for f in collect_findings(cluster) if f.rule == "deployment-unavailable" and f.status == "fail"]
    assert short.name == "kube-dns"
    assert (short.evidence[0].field, short.evidence[0].seen) == ("status.availableReplicas", 0)


# kubernetes/kubernetes docs/user-guide/introspection-and-debugging.md (@ 0baa29e9, "Example:
# debugging Pending Pods", kubectl 1.0), trimmed: a pending pod's describe, its one event the
# scheduler's `failedScheduling` (renamed FailedScheduling in 1.1, kubernetes#12539). Before:
# "no reason recorded (no scheduler condition or event)".
K8S_10_PENDING = (
    "```console\n$ kubectl describe pod my-nginx-9unp9 \n"
    "Name:\t\t\t\tmy-nginx-9unp9\nImage(s):\t\t\tnginx\nNode:\t\t\t\t/\nLabels:\t\t\t\tapp=nginx\n"
    "Status:\t\t\t\tPending\nReason:\t\t\t\t\nMessage:\t\t\t\nIP:\t\t\t\t\n"
    "Replication Controllers:\tmy-nginx (5/5 replicas created)\n"
    "Containers:\n  nginx:\n    Image:\tnginx\n    Limits:\n      cpu:\t\t600m\n      memory:\t\t128Mi\n"
    "    State:\t\tWaiting\n    Ready:\t\tFalse\n    Restart Count:\t0\n"
    "Events:\n"
    "  FirstSeen\t\t\t\tLastSeen\t\t\tCount\tFrom\t\tSubobjectPath\tReason\t\t\tMessage\n"
    "  Thu, 09 Jul 2015 23:56:21 -0700\tFri, 10 Jul 2015 00:01:30 -0700\t21\t{scheduler }\t\t\t"
    "failedScheduling\tFailed for reason PodFitsResources and possibly others\n"
    "```\n"
)


def test_a_kubernetes_1_0_failed_scheduling_is_the_pending_pods_reason_kept_as_written() -> None:
    cluster = analyzer.load({"issue.md": K8S_10_PENDING})
    [pending] = [f for f in collect_findings(cluster) if f.rule == "pod-pending" and f.status == "fail"]
    assert pending.facts["reason"] == "Failed for reason PodFitsResources and possibly others"
    assert pending.facts["reason_source"].startswith("FailedScheduling event")
    # the event as it was written stays in the evidence
    assert ("Event.reason", "failedScheduling") in [(e.field, e.seen) for e in pending.evidence]



def test_a_kubernetes_1_0_failed_scheduling_pasted_alone_is_a_dated_pod_problem() -> None:
    # the same describe's Events section alone (its table of kubectl 1.0: dates, no Type): the pod
    # known only from its event, 21 times in five minutes. Before: nothing was read.
    events = "Events:" + K8S_10_PENDING.split("Events:")[1]
    cluster = analyzer.load({"issue.md": events})
    [problem] = [f for f in collect_findings(cluster) if f.rule == "events-pod-problem" and f.status == "fail"]
    assert problem.facts["reason"] == "FailedScheduling" and problem.facts["count"] == 21
    assert "PodFitsResources" in problem.facts["last_message"]
    assert (problem.evidence[0].field, problem.evidence[0].seen) == ("reason", "failedScheduling")
    assert str(cluster.capture_time) == "2015-07-10 07:01:30+00:00"  # the event's last time: a lower bound
