"""A node's container log files (kind export logs' pods/, /var/log/pods copies) read as `kubectl
logs` prints them: the container's text alone, a line the runtime split joined, the runtime's
times kept for `--timestamps`, signatures and the capture estimate.

Before, the CRI prefix (`<time> <stream> <P|F> `) stayed in every line kda printed and matched,
and a line split into `P` pieces was never matched as one line.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import analyzer
from analyzer.cli import app
from analyzer.ingest import ingest
from analyzer.model.logsignatures import container_log_matches, match_log

runner = CliRunner()

# clineberry/keycloak-in-kind-stuff @ b37dd9e722f1c6d94ebace19ed1bd7b4f25f2aef, logs/ (`kind export
# logs` of kind cluster local-test, 2022-11-29): CoreDNS's first two lines, as containerd wrote them.
COREDNS = ("local-test-control-plane/pods/kube-system_coredns-6d4b75cb6d-gr6m2_683487a2-06cc-425d-bdb6-81183c881bef/"
           "coredns/0.log")
COREDNS_LOG = (b"2022-11-29T20:55:50.434917358Z stdout F .:53\n"
               b"2022-11-29T20:55:50.435078483Z stdout F [INFO] plugin/reload: Running configuration MD5 = "
               b"db32ca3650231d74073ff4cf814959a7\n")

# fluent/fluent-bit#4234 (logs.txt, a containerd log of lines the runtime split), trimmed to its
# first two split lines: `P` pieces, each continued by the stream's next line, ended by `F`.
SPLIT = "node/pods/default_partial-0_0b7b1a8e-4234-4c1c-9d6e-000000004234/app/0.log"
SPLIT_LOG = (b"2021-09-21T18:03:44.312144359Z stdout P 2021-09-21 This \n"
             b"2021-09-21T18:03:44.312144359Z stdout P is \n"
             b"2021-09-21T18:03:44.312144359Z stdout F Partial 7\n"
             b"2021-09-21T18:03:44.312144359Z stdout P   This \n"
             b"2021-09-21T18:03:44.312144359Z stdout P is \n"
             b"2021-09-21T18:03:44.312144359Z stdout F Partial 8\n")

# chenjinkai/k8slogs @ 7fd8db6d7cca21fd5c3dcb1073070885315c4a64, k8slogs-bak.zip (kind export logs):
# the kube-scheduler's RBAC refusal, cut into a `P` piece and its `F` rest where the runtime would
# cut a line over 16 KiB, with a stderr line of the same moment between them (the two streams of
# one container share the file); then its next line as written.
SCHEDULER = ("k8slogs-bak/local-control-plane/pods/kube-system_kube-scheduler-local-control-plane_"
             "4cbf5050a941ea6d3b654edb8022d1d6/kube-scheduler/0.log")
SCHEDULER_LOG = (
    b'2021-05-26T01:55:38.201513559Z stderr P E0526 01:55:38.201513       1 reflector.go:138] k8s.io/client-go/informers/'
    b'factory.go:134: Failed to watch *v1.Pod: failed to list *v1.Pod: pods is forb\n'
    b"2021-05-26T01:55:38.201600000Z stdout F I0526 01:55:38.201600       1 serving.go:331] Generated self-signed cert\n"
    b'2021-05-26T01:55:38.201513999Z stderr F idden: User "system:kube-scheduler" cannot list resource "pods" in API '
    b'group "" at the cluster scope\n'
    b"2021-05-26T01:55:41.198859926Z stderr F I0526 01:55:41.198484       1 leaderelection.go:243] attempting to acquire "
    b"leader lease kube-system/kube-scheduler...\n")

# Docker's json-file log of a Spark driver (a Spark-on-Kubernetes write-up's `##log:`, public code
# index id 35116651765, 2018-03-09), its first lines; the last one cut in two where Docker cuts a
# line over 16 KiB (the piece without its "\n").
DOCKER = "node/pods/default_spark-pi-driver_5d1c3e1a-2018-4f0e-9d0a-000000000309/spark-kubernetes-driver/0.log"
DOCKER_LOG = (b'{"log":"++ id -u\\n","stream":"stderr","time":"2018-03-09T03:17:06.739189441Z"}\n'
              b'{"log":"+ myuid=0\\n","stream":"stderr","time":"2018-03-09T03:17:06.758879415Z"}\n'
              b'{"log":"2018-03-09 03:17:09 INFO  SparkContext:54 - Running ","stream":"stdout",'
              b'"time":"2018-03-09T03:17:09.384639705Z"}\n'
              b'{"log":"Spark version 2.2.0-k8s-0.5.0\\n","stream":"stdout","time":"2018-03-09T03:17:09.384639999Z"}\n')


def _write(tmp_path: Path, files: dict[str, bytes]) -> str:
    for name, data in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return str(tmp_path)


def _logs(result: object) -> dict[str, object]:
    return {log.pod: log for log in result.logs}


def test_a_cri_log_is_the_containers_text_and_its_times_are_kept_for_timestamps(tmp_path: Path) -> None:
    dump = _write(tmp_path, {COREDNS: COREDNS_LOG})
    r = ingest(dump)
    log = _logs(r)["coredns-6d4b75cb6d-gr6m2"]
    assert log.text == ".:53\n[INFO] plugin/reload: Running configuration MD5 = db32ca3650231d74073ff4cf814959a7\n"
    assert (log.stamp(1), log.stamp(2), log.stamp(3)) == ("2022-11-29T20:55:50.434917358Z",
                                                          "2022-11-29T20:55:50.435078483Z", None)
    assert [f.format for f in r.files] == ["kubelet-logs logs (CRI)"] and r.accounting_holds()
    plain = runner.invoke(app, ["logs", dump, "coredns-6d4b75cb6d-gr6m2"])
    assert plain.exit_code == 0 and plain.stdout.splitlines()[0] == ".:53"
    stamped = runner.invoke(app, ["logs", dump, "coredns-6d4b75cb6d-gr6m2", "--timestamps", "--tail", "1"])
    assert stamped.stdout == ("2022-11-29T20:55:50.435078483Z [INFO] plugin/reload: Running configuration MD5 = "
                              "db32ca3650231d74073ff4cf814959a7\n")
    found = runner.invoke(app, ["logs", dump, "--all", "--grep", "MD5", "--timestamps"])
    assert found.stdout == ("kube-system/coredns-6d4b75cb6d-gr6m2/coredns: 2022-11-29T20:55:50.435078483Z [INFO] "
                            "plugin/reload: Running configuration MD5 = db32ca3650231d74073ff4cf814959a7\n")


def test_the_pieces_of_a_split_line_are_one_line_with_the_time_of_the_first() -> None:
    r = ingest({SPLIT: SPLIT_LOG})
    log = _logs(r)["partial-0"]
    assert log.text == "2021-09-21 This is Partial 7\n  This is Partial 8\n"
    assert log.stamp(2) == "2021-09-21T18:03:44.312144359Z"
    # each where its first piece is in the file
    assert [(file.split("!/")[-1], line) for file, line in map(log.place, (1, 2))] == [(SPLIT, 1), (SPLIT, 4)]
    assert [f.format for f in r.files] == ["kubelet-logs logs (CRI)"] and log.line_count == 2
    # a file that ends on a piece (the export taken mid-line) keeps what was written of the line
    cut = _logs(ingest({SPLIT: SPLIT_LOG.split(b"\n", 2)[0] + b"\n" + SPLIT_LOG.split(b"\n", 2)[1] + b"\n"}))
    assert cut["partial-0"].text == "2021-09-21 This is \n"


def test_a_signature_split_by_the_runtime_is_matched_once_where_its_line_starts_and_is_dated_by_it() -> None:
    cluster = analyzer.load({SCHEDULER: SCHEDULER_LOG})
    log = cluster.logs[0]
    lines = log.text.splitlines()
    assert lines[0].startswith("E0526 01:55:38.201513 ") and lines[0].endswith('"pods" in API group "" at the cluster scope')
    assert lines[1].startswith("I0526 01:55:38.201600 ") and len(lines) == 3
    assert [(m.signature.id, m.line) for m in match_log(log.text)] == [("rbac-forbidden", 1)]
    found = [m for m in container_log_matches(cluster) if m.match.signature.id == "rbac-forbidden"]
    assert [(m.file_line, m.time(2021).isoformat()) for m in found] == [(1, "2021-05-26T01:55:38.201513+00:00")]
    # the export is dated by the runtime's newest line, its text no longer carrying the time
    assert cluster.capture.describe() == ("2021-05-26T01:55:41Z (container log line, low confidence); "
                                          "the capture came then or later")
    assert log.place(3) == (log.source, 4) and log.source.endswith(SCHEDULER)


def test_a_docker_json_file_log_is_read_as_kubectl_logs_prints_it() -> None:
    r = ingest({DOCKER: DOCKER_LOG})
    log = _logs(r)["spark-pi-driver"]
    assert log.text == ("++ id -u\n+ myuid=0\n2018-03-09 03:17:09 INFO  SparkContext:54 - Running Spark version "
                        "2.2.0-k8s-0.5.0\n")
    assert log.stamp(3) == "2018-03-09T03:17:09.384639705Z"
    assert [f.format for f in r.files] == ["kubelet-logs logs (docker json-file)"]


# Rotated files, as kubernetes-sigs/kueue#8338 found them in a kueue e2e job's `kind export logs`
# (kind-control-plane/pods/kube-system_kube-apiserver-kind-control-plane_<hash>/kube-apiserver/
# 0.log.20251218-161920 beside 0.log, the rotated one holding the lines that explained the
# failure). That export is not at hand: the lines are chenjinkai/k8slogs' kube-scheduler's (above),
# laid out as the kubelet rotates a run's file (pkg/kubelet/logs/container_log_manager.go:
# <log>.<YYYYMMDD-hhmmss>, gzipped from the second rotation on, `.tmp` while compressing).
ROTATED_DIR = ("k8slogs-bak/local-control-plane/pods/kube-system_kube-scheduler-local-control-plane_"
               "4cbf5050a941ea6d3b654edb8022d1d6/kube-scheduler")
RUN0_FIRST = (b"2021-05-26T01:55:24.492589599Z stderr F I0526 01:55:24.492391       1 serving.go:331] Generated "
              b"self-signed cert in-memory\n")
RUN0_MIDDLE = (b"2021-05-26T01:55:38.201513559Z stderr F E0526 01:55:38.201513       1 reflector.go:138] k8s.io/client-go/"
               b"informers/factory.go:134: Failed to watch *v1.Pod: failed to list *v1.Pod: pods is forbidden: User "
               b'"system:kube-scheduler" cannot list resource "pods" in API group "" at the cluster scope\n')
RUN0_LAST = (b"2021-05-26T01:55:41.198859926Z stderr F I0526 01:55:41.198484       1 leaderelection.go:243] attempting to "
             b"acquire leader lease kube-system/kube-scheduler...\n")
RUN1 = (b"2021-05-26T01:58:06.207096066Z stderr F I0526 01:58:06.206816       1 leaderelection.go:253] successfully "
        b"acquired lease kube-system/kube-scheduler\n")
SCHEDULER_POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {
    "name": "kube-scheduler-local-control-plane", "namespace": "kube-system", "uid": "0d3b6a0c-1f7e-4f4e-9d55-5b0c2d1e8f10",
    "annotations": {"kubernetes.io/config.hash": "4cbf5050a941ea6d3b654edb8022d1d6"}},
    "spec": {"containers": [{"name": "kube-scheduler", "image": "k8s.gcr.io/kube-scheduler:v1.20.7"}]},
    "status": {"phase": "Running", "containerStatuses": [{"name": "kube-scheduler", "ready": True, "restartCount": 1,
                                                          "state": {"running": {"startedAt": "2021-05-26T01:58:06Z"}}}]}}


def test_rotated_files_are_read_before_their_runs_file_oldest_first_and_the_rest_accounted_for(tmp_path: Path) -> None:

    dump = _write(tmp_path, {
        "pods.json": json.dumps({"apiVersion": "v1", "kind": "List", "items": [SCHEDULER_POD]}).encode(),
        f"{ROTATED_DIR}/0.log.20210526-015530.gz": gzip.compress(RUN0_FIRST),
        f"{ROTATED_DIR}/0.log.20210526-015540": RUN0_MIDDLE,
        f"{ROTATED_DIR}/0.log": RUN0_LAST,
        # the kubelet's leftovers: a rotation it was compressing, and one it compressed already
        f"{ROTATED_DIR}/1.log.20210526-015900.tmp": gzip.compress(RUN1)[:20],
        f"{ROTATED_DIR}/0.log.20210526-015530": RUN0_FIRST,
        f"{ROTATED_DIR}/1.log": RUN1,
    })
    r = ingest(dump)
    logs = {log.previous: log for log in r.logs}
    assert set(logs) == {False, True} and r.accounting_holds() and not r.rejections
    # the run before the one the dump shows (restart 1) is 0: its rotated files come first, oldest first
    previous = logs[True]
    assert previous.text.splitlines() == [line.split(" ", 3)[3] for line in
                                          (RUN0_FIRST + RUN0_MIDDLE + RUN0_LAST).decode().splitlines()]
    assert [(file.rsplit("/", 1)[-1], line) for file, line in map(previous.place, (1, 2, 3))] == [
        ("0.log.20210526-015530.gz", 1), ("0.log.20210526-015540", 1), ("0.log", 1)]
    assert previous.stamp(1) == "2021-05-26T01:55:24.492589599Z"
    assert logs[False].text.startswith("I0526 01:58:06.206816 ")
    reasons = {s.source.rsplit("/", 1)[-1]: s.reason for s in r.skipped}
    assert reasons["1.log.20210526-015900.tmp"].startswith("a rotated log the kubelet was still compressing")
    assert reasons["0.log.20210526-015530"] == ("the lines of 0.log.20210526-015530.gz, which the kubelet compressed "
                                                "from it: read there")
    formats = {f.source.rsplit("/", 1)[-1]: f.format for f in r.files}
    assert formats["0.log.20210526-015530.gz"] == "kubelet-logs logs (CRI, rotated)"
    shown = runner.invoke(app, ["logs", dump, "kube-scheduler-local-control-plane", "-n", "kube-system", "-p"])
    assert shown.exit_code == 0 and len(shown.stdout.splitlines()) == 3
    # the refusal quoted from the rotated file it is in
    cluster = analyzer.load(dump)
    found = [m for m in container_log_matches(cluster) if m.match.signature.id == "rbac-forbidden"]
    assert [(m.file.rsplit("/", 1)[-1], m.file_line) for m in found] == [("0.log.20210526-015540", 1)]


def test_a_rotated_file_of_a_run_the_dump_does_not_show_is_named_with_its_run() -> None:
    pod = json.dumps({"apiVersion": "v1", "kind": "List", "items": [SCHEDULER_POD | {"status": {
        "containerStatuses": [{"name": "kube-scheduler", "restartCount": 3}]}}]}).encode()
    r = ingest({"pods.json": pod, f"{ROTATED_DIR}/0.log.20210526-015540": RUN0_MIDDLE, f"{ROTATED_DIR}/0.log": RUN0_LAST})
    assert not r.logs and r.accounting_holds()
    reasons = {s.source.rsplit("/", 1)[-1]: s.reason for s in r.skipped}
    assert reasons["0.log.20210526-015540"].startswith(f"rotated from the run of <memory 0>!/{ROTATED_DIR}/0.log: the log "
                                                       "of container kube-scheduler's run 0, older than")


def test_a_rotated_gzip_is_inflated_in_memory_only_up_to_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    from analyzer.ingest import collect

    monkeypatch.setattr(collect, "MAX_ROTATED_LOG_BYTES", 1024)
    big = gzip.compress(RUN0_MIDDLE * 20)
    r = ingest({f"{ROTATED_DIR}/0.log.20210526-015540.gz": big, f"{ROTATED_DIR}/0.log": RUN0_LAST})
    [rejected] = r.input_rejections
    assert rejected.source.endswith("0.log.20210526-015540.gz") and "decompression bomb" in rejected.reason
    assert [log.text.count("\n") for log in r.logs] == [1] and r.accounting_holds()


# Before Kubernetes 1.14 the kubelet named a pod's log folder by its uid alone (<uid>/<container>_<n>.log
# until 1.9, <uid>/<container>/<n>.log from 1.10; DataDog/datadog-agent#5062, grafana/loki#557). The
# Spark-on-Kubernetes write-up above (March 2018, docker) prints its driver pod's status as the
# submission client watched it: spark-pi-1520566177619-driver in default, uid
# 19001bc8-234a-11e8-89bc-fa163e44a675, container spark-kubernetes-driver, completed with exit code 0.
# Its `##log:` lines (DOCKER_LOG) are of the driver it submitted just before; here they stand in as
# that pod's 0.log, under the old layout.
SPARK_POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {
    "name": "spark-pi-1520566177619-driver", "namespace": "default", "uid": "19001bc8-234a-11e8-89bc-fa163e44a675",
    "labels": {"spark-app-selector": "spark-9e18e2761c20473ea9e09068cbb9b02a", "spark-role": "driver"}},
    "spec": {"nodeName": "192.168.0.29", "containers": [{
        "name": "spark-kubernetes-driver", "image": "100.125.0.198:20202/kernel/spark-driver:v2.2.0-kubernetes-0.5.0"}]},
    "status": {"phase": "Succeeded", "startTime": "2018-03-09T03:29:38Z", "containerStatuses": [{
        "name": "spark-kubernetes-driver", "ready": False, "restartCount": 0,
        "containerID": "docker://a18d122ecc059b5412c6ad2d6446325a643cf7fe7c98874c44b8af7dad5b6b11",
        "state": {"terminated": {"exitCode": 0, "reason": "Completed", "startedAt": "2018-03-09T03:29:40Z",
                                 "finishedAt": "2018-03-09T03:30:00Z"}}}]}}


@pytest.mark.parametrize("layout", ["spark-kubernetes-driver_0.log", "spark-kubernetes-driver/0.log"])
def test_a_log_folder_named_by_the_pods_uid_alone_is_read_as_that_pods(layout: str) -> None:
    node = "sosreport-192.168.0.29/var/log/pods"
    r = ingest({"pods.json": json.dumps(SPARK_POD).encode(),
                f"{node}/19001bc8-234a-11e8-89bc-fa163e44a675/{layout}": DOCKER_LOG,
                f"{node}/5d1c3e1a-2018-4f0e-9d0a-000000000309/{layout}": DOCKER_LOG})
    [log] = r.logs
    assert (log.namespace, log.pod, log.container, log.previous) == ("default", "spark-pi-1520566177619-driver",
                                                                     "spark-kubernetes-driver", False)
    assert log.text.startswith("++ id -u\n")
    [skipped] = [s for s in r.skipped if "5d1c3e1a" in s.source]
    assert skipped.reason.startswith("a container log of the pod of uid 5d1c3e1a-2018-4f0e-9d0a-000000000309 (its folder")
    assert r.accounting_holds() and not r.rejections


def test_a_line_holding_a_carriage_return_keeps_its_time_and_its_number(tmp_path: Path) -> None:
    """A progress bar's "\\r" inside one CRI line (no real file at hand: the CoreDNS lines above
    with one such line between them) is one line for kubectl, the stamps and the signatures."""
    data = COREDNS_LOG.replace(b"\n", b"\n2022-11-29T20:55:50.434999999Z stdout F 10%\r50%\r100%\n", 1)
    dump = _write(tmp_path, {COREDNS: data})
    found = runner.invoke(app, ["logs", dump, "--all", "--grep", "MD5", "--timestamps"])
    assert found.stdout.startswith("kube-system/coredns-6d4b75cb6d-gr6m2/coredns: 2022-11-29T20:55:50.435078483Z ")
    printed = runner.invoke(app, ["logs", dump, "coredns-6d4b75cb6d-gr6m2", "--timestamps"]).stdout
    assert printed.split("\n")[1] == "2022-11-29T20:55:50.434999999Z 10%\r50%\r100%"


# openshift/must-gather-clean test/files/must-gather-aws.tar.xz @ cb2f7e580bde628058a2f14b9ea1033ba3804c5b
# (realdata openshift/must-gather-clean-aws): the router's current.log as `oc adm inspect` saved
# it, each line after the runtime's time; its first two lines, the first cut after "version".
MUST_GATHER_LOG = (
    b'2021-08-03T09:27:12.250278575Z I0803 09:27:12.249550       1 template.go:437] router "msg"="starting router"  '
    b'"version"="majorFromGit: \\nminorFromGit: \\n"\n'
    b'2021-08-03T09:27:12.254454070Z I0803 09:27:12.253255       1 metrics.go:155] metrics "msg"="router health and '
    b'metrics port listening on HTTP and HTTPS"  "address"="0.0.0.0:1936"\n')
MUST_GATHER = ("must-gather-aws/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85cb/namespaces/openshift-ingress/"
               "pods/router-default-6dd4c95495-7dqkw/router/router/logs/current.log")


def test_a_must_gathers_log_saved_with_timestamps_is_the_containers_text_with_its_times_apart(tmp_path: Path) -> None:
    dump = _write(tmp_path, {MUST_GATHER: MUST_GATHER_LOG})
    [log] = ingest(dump).logs
    assert log.text.startswith('I0803 09:27:12.249550       1 template.go:437] router "msg"="starting router"')
    assert log.stamp(2) == "2021-08-03T09:27:12.254454070Z"
    pod = ["logs", dump, "router-default-6dd4c95495-7dqkw", "-n", "openshift-ingress"]
    assert runner.invoke(app, [*pod, "--tail", "1"]).stdout.startswith("I0803 09:27:12.253255 ")
    assert runner.invoke(app, [*pod, "--tail", "1", "--timestamps"]).stdout.encode() == MUST_GATHER_LOG.split(b"\n")[1] + b"\n"
