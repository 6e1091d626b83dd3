"""cluster.timeline on small dumps written here (each test says what it plants) and on every
real dump: facts, spans, sources, order, filters and formats."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta
from pathlib import Path

import pandas as pd
import pytest
from conftest import REALDATA, SAMPLE_DUMPS
from typer.testing import CliRunner

import analyzer
from analyzer.cli import app
from analyzer.timeline import parse_duration, select
from analyzer.timeline.render import render

runner = CliRunner()
CASES = sorted(p.relative_to(REALDATA).as_posix() for p in REALDATA.glob("*/*") if p.is_dir()) \
    if REALDATA.is_dir() else []


def _dump(items: list[dict]) -> str:
    return json.dumps({"apiVersion": "v1", "kind": "List", "items": items}, indent=1)


def _node(name: str, **status: object) -> dict:
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "uid": f"uid-{name}", "creationTimestamp": "2024-05-01T00:00:00Z"},
            "spec": {"taints": [{"key": "node.kubernetes.io/unreachable", "effect": "NoExecute",
                                 "timeAdded": "2024-05-20T09:40:00Z"}]},
            "status": {"conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady",
                                       "lastHeartbeatTime": "2024-05-20T10:00:00Z",
                                       "lastTransitionTime": "2024-05-20T09:45:30Z"}], **status}}


def _pod(name: str, node: str, finished: str, reason: str = "Unknown", ns: str = "shop",
         exit_code: int = 255) -> dict:
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": ns, "uid": f"uid-{name}",
                         "creationTimestamp": "2024-05-19T00:00:00Z"},
            "spec": {"nodeName": node, "containers": [{"name": "app", "image": "app:1"}]},
            "status": {"phase": "Running", "startTime": "2024-05-19T00:00:05Z",
                       "conditions": [{"type": "Ready", "status": "True",
                                       "lastTransitionTime": "2024-05-20T09:46:00Z"}],
                       "containerStatuses": [{
                           "name": "app", "ready": True, "restartCount": 1,
                           "state": {"running": {"startedAt": "2024-05-20T09:45:50Z"}},
                           "lastState": {"terminated": {"reason": reason, "exitCode": exit_code,
                                                        "startedAt": "2024-05-19T00:00:10Z",
                                                        "finishedAt": finished}}}]}}


def _event(name: str, ns: str, involved: dict, message: str, kind: str = "Warning") -> dict:
    return {"apiVersion": "v1", "kind": "Event",
            "metadata": {"name": name, "namespace": ns, "creationTimestamp": "2024-05-20T09:00:00Z"},
            "involvedObject": involved, "type": kind, "reason": "BackOff", "message": message,
            "count": 12, "firstTimestamp": "2024-05-20T09:00:00Z", "lastTimestamp": "2024-05-20T09:59:00Z"}


@pytest.fixture(scope="module")
def planted() -> analyzer.Cluster:
    """Node n1 rebooted at 09:45 (four pods' containers ended within 20 s); n2's one pod ended
    an hour apart from anything else; an event repeating until capture with a password in it;
    a custom resource with a condition; a Lease; a Service being deleted."""
    items = [_node("n1"), _node("n2")]
    items += [_pod(f"web-{i}", "n1", f"2024-05-20T09:45:{10 + 5 * i:02d}Z") for i in range(4)]
    items += [_pod("lonely", "n2", "2024-05-20T08:40:00Z", reason="Error")]
    items.append(_event("web-0.1", "shop", {"kind": "Pod", "namespace": "shop", "name": "web-0"},
                        "Back-off restarting; DB_PASSWORD=hunter2 in env"))
    items.append({"apiVersion": "cert-manager.io/v1", "kind": "Certificate",
                  "metadata": {"name": "tls", "namespace": "shop", "creationTimestamp": "2024-05-10T00:00:00Z"},
                  "status": {"conditions": [{"type": "Ready", "status": "False", "reason": "Expired",
                                             "lastTransitionTime": "2024-05-20T07:00:00Z"}]}})
    items.append({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
                  "metadata": {"name": "n1", "namespace": "kube-node-lease"},
                  "spec": {"holderIdentity": "n1", "renewTime": "2024-05-20T09:59:58.000000Z"}})
    items.append({"apiVersion": "v1", "kind": "Service",
                  "metadata": {"name": "old", "namespace": "shop", "creationTimestamp": "2024-05-01T00:00:00Z",
                               "deletionTimestamp": "2024-05-20T09:50:00Z", "finalizers": ["x/y"]}})
    return analyzer.load(_dump(items))


def _facts(frame: pd.DataFrame, fact: str) -> pd.DataFrame:
    return frame[frame["fact"] == fact]


def test_every_kind_of_fact(planted: analyzer.Cluster) -> None:
    t = planted.timeline
    assert set(t["fact"]) >= {"created", "condition", "container started", "container terminated",
                              "pod started", "event", "taint added", "lease renewed", "heartbeat",
                              "deletion requested", "node restarted"}
    cert = t[(t["kind"] == "Certificate") & (t["fact"] == "condition")]
    assert list(cert["detail"]) == ["Ready=False (Expired)"] and list(cert["mark"]) == ["warning"]
    ended = _facts(t, "container terminated").set_index("name")["detail"]
    assert ended["web-0"] == "container app, reason Unknown, exit code 255; restarted (1 restarts in all)"
    assert ended["lonely"].startswith("container app, reason Error")
    taint = _facts(t, "taint added")
    assert list(taint["detail"]) == ["node.kubernetes.io/unreachable:NoExecute"] * 2
    deleted = _facts(t, "deletion requested")
    assert list(deleted["name"]) == ["old"] and "x/y" in deleted.iloc[0]["detail"]


def test_events_first_last_count_and_masked(planted: analyzer.Cluster) -> None:
    event = _facts(planted.timeline, "event").iloc[0]
    assert (event["kind"], event["namespace"], event["name"]) == ("Pod", "shop", "web-0")
    assert event["time"] == pd.Timestamp("2024-05-20T09:00:00Z")
    assert event["end"] == pd.Timestamp("2024-05-20T09:59:00Z")
    assert "x12" in event["detail"] and "hunter2" not in event["detail"]
    assert event["node"] == "n1" and event["mark"] == "warning"
    shown = analyzer.load(_dump([_event("e", "shop", {"kind": "Pod", "namespace": "shop", "name": "p"},
                                        "DB_PASSWORD=hunter2")]), show_sensitive=True)
    assert "hunter2" in _facts(shown.timeline, "event").iloc[0]["detail"]


def test_node_restart_is_one_span(planted: analyzer.Cluster) -> None:
    spans = _facts(planted.timeline, "node restarted")
    assert len(spans) == 1
    span = spans.iloc[0]
    assert (span["kind"], span["name"], span["node"]) == ("Node", "n1", "n1")
    assert span["time"] == pd.Timestamp("2024-05-20T09:45:10Z")
    assert span["end"] == pd.Timestamp("2024-05-20T09:45:25Z")
    assert "4 containers of 4 pods" in span["detail"] and "Unknown x4" in span["detail"]
    assert span["source"].startswith("4 container terminations")


def test_exiting_together_on_their_own_is_not_a_node_restart() -> None:
    """Three pods' containers exit 1 within a minute (their database went away): one moment, a
    shared cause, but their sandboxes were not lost."""
    items = [_node("n1")] + [_pod(f"web-{i}", "n1", f"2024-05-20T09:45:{10 * i:02d}Z", reason="Error",
                                  exit_code=1) for i in range(3)]
    t = analyzer.load(_dump(items)).timeline
    assert _facts(t, "node restarted").empty
    together = _facts(t, "restarted together")
    assert len(together) == 1 and "not a node restart" in together.iloc[0]["detail"]
    # two of the node's three pods exiting together may be chance
    two = analyzer.load(_dump([*items[:3], _pod("other", "n1", "2024-05-20T05:00:00Z")])).timeline
    assert _facts(two, "restarted together").empty


def test_terminations_apart_are_not_a_restart() -> None:
    items = [_node("n1")] + [_pod(f"web-{i}", "n1", f"2024-05-20T0{i + 5}:00:00Z") for i in range(4)]
    assert _facts(analyzer.load(_dump(items)).timeline, "node restarted").empty


def test_install_window() -> None:
    objects = [{"apiVersion": "v1", "kind": kind, "metadata": {
        "name": f"{kind.lower()}-{i}", "namespace": "app",
        "creationTimestamp": f"2024-05-20T09:{i:02d}:30Z"}}
        for i in range(6) for kind in ("ConfigMap", "Service")]
    objects.append({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {
        "name": "later", "namespace": "app", "creationTimestamp": "2024-05-20T12:00:00Z"}})
    t = analyzer.load(_dump(objects)).timeline
    windows = _facts(t, "install window")
    assert len(windows) == 1
    w = windows.iloc[0]
    assert (w["kind"], w["name"]) == ("Namespace", "app")
    assert (w["time"], w["end"]) == (pd.Timestamp("2024-05-20T09:00:30Z"), pd.Timestamp("2024-05-20T09:05:30Z"))
    assert w["detail"].startswith("cluster install: 12 objects created in 5m00s")


def test_restart_during_an_install_says_so(planted: analyzer.Cluster) -> None:
    assert "during" not in _facts(planted.timeline, "node restarted").iloc[0]["detail"]
    objects = [{"apiVersion": "v1", "kind": kind, "metadata": {
        "name": f"{kind.lower()}-{i}", "namespace": "kube-system",
        "creationTimestamp": f"2024-05-20T09:4{i}:00Z"}}
        for i in range(6) for kind in ("ConfigMap", "Service")]
    items = [_node("n1"), *objects] + [_pod(f"web-{i}", "n1", f"2024-05-20T09:45:{i:02d}Z") for i in range(3)]
    span = _facts(analyzer.load(_dump(items)).timeline, "node restarted").iloc[0]
    # the nodes are older than this burst of creations: an install, not the cluster's own
    assert span["detail"].endswith("during an install (2024-05-20T09:40:00Z to "
                                   "2024-05-20T09:45:00Z): expected while it is set up")


def test_since_and_namespace(planted: analyzer.Cluster) -> None:
    t = planted.timeline
    capture = planted.capture_time
    recent = select(t, since=timedelta(minutes=20), capture=capture)
    assert len(recent) < len(t)
    start = pd.Timestamp(capture) - pd.Timedelta(minutes=20)
    assert ((recent["end"].fillna(recent["time"])) >= start).all()
    # the event began an hour before capture but repeated until 09:59: it is in the period
    assert "event" in set(recent["fact"])
    shop = select(t, namespace="shop")
    assert set(shop["namespace"]) == {"shop"}
    with pytest.raises(ValueError):
        select(t, since=timedelta(hours=1), capture=None)


def test_parse_duration() -> None:
    assert parse_duration("90s") == timedelta(seconds=90)
    assert parse_duration("1w") == timedelta(days=7)
    for bad in ("", "6 hours", "abc", "5x"):
        with pytest.raises(ValueError):
            parse_duration(bad)


def test_formats(planted: analyzer.Cluster) -> None:
    t = planted.timeline
    records = json.loads(render(t, "json"))
    assert len(records) == len(t)
    for r in records:
        assert {"time", "object", "fact", "detail", "source"} <= set(r)
        assert set(r["object"]) == {"kind", "namespace", "name"}
    rows = list(csv.DictReader(io.StringIO(render(t, "csv"))))
    assert len(rows) == len(t) and rows[0]["time"] == records[0]["time"]
    text = render(t, "text")
    assert text.splitlines()[-1].startswith(f"{len(t)} facts; captured ")
    md = render(t, "markdown")
    assert md.startswith("| time | until | object | fact | detail | source |")
    assert len([line for line in md.splitlines() if line.startswith("| 20")]) == len(t)


def test_cli(tmp_path) -> None:
    dump = tmp_path / "dump.json"
    dump.write_text(_dump([_node("n1")] + [_pod(f"web-{i}", "n1", f"2024-05-20T09:45:{i:02d}Z")
                                          for i in range(3)]))
    result = runner.invoke(app, ["timeline", str(dump), "--since", "30m", "--format", "json"])
    assert result.exit_code == 0, result.output
    facts = {r["fact"] for r in json.loads(result.stdout)}
    assert "node restarted" in facts and "created" not in facts  # created weeks ago
    result = runner.invoke(app, ["timeline", str(dump), "--namespace", "nowhere"])
    assert result.exit_code == 0 and result.stdout.startswith("0 facts")
    bad = runner.invoke(app, ["timeline", str(dump), "--since", "soon"])
    assert bad.exit_code == 1 and "not a duration" in bad.output and "Traceback" not in bad.output


def test_pasted_table_without_capture_time() -> None:
    """`kubectl get pods` text: ages only, no timestamp to count from: nothing placed in time,
    said so, and the facts listed by how long before the capture, oldest first."""
    text = ("NAME    READY   STATUS    RESTARTS   AGE\n"
            "web-2   1/1     Running   0          3h\n"
            "web-1   1/1     Running   0          5d\n")
    cluster = analyzer.load(text)
    assert cluster.capture_time is None and len(cluster.objects) == 2
    t = cluster.timeline
    assert t.empty and t.attrs["undated"] == 2
    printed = render(t, "text").splitlines()
    assert printed[0].startswith("5d before capture  Pod/web-1  created") and printed[1].startswith("3h before capture")
    assert "2 facts stated only as ages: listed after any dated ones" in printed[-1]
    assert [r["before_capture"] for r in json.loads(render(t, "json"))] == ["5d", "3h"]
    result = runner.invoke(app, ["timeline", "-", "--since", "1h"], input=text)
    assert result.exit_code == 1 and "capture time is unknown" in result.output


def test_pasted_table_with_a_dated_dump() -> None:
    """The same table beside a dump with timestamps: ages are placed from its capture time."""
    text = ("NAME    READY   STATUS    RESTARTS   AGE\n"
            "web-1   1/1     Running   0          5d\n")
    node = json.dumps(_node("n1"), indent=1)
    cluster = analyzer.load(text, node)
    row = cluster.timeline[cluster.timeline["name"] == "web-1"].iloc[0]
    assert row["fact"] == "created" and "AGE" in row["detail"]
    assert row["time"] == pd.Timestamp(cluster.capture_time) - pd.Timedelta(days=5)


def test_log_lines_of_the_signature_catalog() -> None:
    """A support bundle (troubleshoot layout) with one pod's log: a catalogued line with a time
    stamp is a fact, located in its file; the same line without a stamp is not dated."""
    pods = {"apiVersion": "v1", "kind": "PodList", "items": [{
        "apiVersion": "v1", "kind": "Pod", "spec": {"nodeName": "n1"}, "status": {"phase": "Running"},
        "metadata": {"name": "web-1", "namespace": "shop", "creationTimestamp": "2024-05-20T09:00:00Z"}}]}
    log = ("2024-05-20T09:58:00Z starting\n"
           "2024-05-20T09:59:00.5Z tls: x509: certificate has expired or is not yet valid\n"
           "retrying: x509: certificate has expired or is not yet valid\n")
    cluster = analyzer.load({"cluster-resources/pods/shop.json": json.dumps(pods, indent=1),
                             "cluster-resources/pods/logs/shop/web-1/app.log": log})
    lines = _facts(cluster.timeline, "log line")
    assert len(lines) == 1
    row = lines.iloc[0]
    assert (row["kind"], row["namespace"], row["name"], row["node"]) == ("Pod", "shop", "web-1", "n1")
    assert row["time"] == pd.Timestamp("2024-05-20T09:59:00Z")
    assert row["detail"].startswith("container app: x509-certificate-expired (critical): ")
    assert row["source"].endswith("cluster-resources/pods/logs/shop/web-1/app.log:2")
    assert row["mark"] == "warning"


def test_hpa_scaled() -> None:
    hpa = {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
           "metadata": {"name": "web", "namespace": "shop"},
           "status": {"lastScaleTime": "2024-05-20T09:30:00Z", "currentReplicas": 2, "desiredReplicas": 5}}
    row = analyzer.load(_dump([hpa])).timeline.iloc[0]
    assert (row["fact"], row["detail"]) == ("scaled", "to 5 replicas (from 2)")


def test_one_cluster_in_two_forms_has_one_timeline(tmp_path) -> None:
    """The AKS sample as a support bundle and as cluster-info dump stdout (tests/diff/forms.py):
    the same facts, but for the kinds only the bundle collected."""
    import sys

    sys.path.insert(0, str(SAMPLE_DUMPS.parent / "tests" / "diff"))
    try:
        from forms import write_bundle, write_cluster_info_dump
    finally:
        sys.path.pop(0)

    def facts(cluster: analyzer.Cluster) -> set[tuple]:
        t = cluster.timeline
        t = t[t["fact"] != "install window"]  # it counts what was collected, so it differs
        return set(zip(t["time"], t["kind"].astype(str), t["namespace"], t["name"], t["fact"].astype(str),
                       t["detail"], strict=True))

    bundle = analyzer.load(str(write_bundle(tmp_path)))
    stdout = analyzer.load(str(write_cluster_info_dump(tmp_path)))
    only_bundle = facts(bundle) - facts(stdout)
    assert facts(stdout) - facts(bundle) == set()
    assert only_bundle and {kind for _, kind, *_ in only_bundle} <= {"ConfigMap", "Namespace", "Endpoints"}


def test_sample_dumps_every_form() -> None:
    for sample in ("aks", "eks", "kubeadm", "oke"):
        t = analyzer.load(str(SAMPLE_DUMPS / sample)).timeline
        assert len(t) > 100 and t["time"].is_monotonic_increasing
        assert (t["source"].str.len() > 0).all()


@pytest.mark.skipif(not CASES, reason="no ../shared/realdata beside the repo")
@pytest.mark.parametrize("case", CASES)
def test_realdata_in_time_order_with_sources(case: str) -> None:
    cluster = analyzer.load(str(REALDATA / case))
    t = cluster.timeline
    assert t["time"].notna().all() and t["time"].is_monotonic_increasing, case
    assert t["source"].notna().all() and (t["source"].str.len() > 0).all(), case
    assert set(t.columns) >= {"time", "kind", "namespace", "name", "fact", "detail", "source"}
    ended = t["end"].notna()
    assert (t.loc[ended, "end"] >= t.loc[ended, "time"]).all(), case
    for r in json.loads(render(t, "json")):
        # (a fact stated only as an age, the capture time unknown, says how long before it)
        assert (r["time"] or r["before_capture"]) and r["source"] and r["fact"]
    # every dated object shows its creation, from the file it was read from
    created = t[t["fact"] == "created"]
    dated = [o for o in cluster.objects if o.kind != "Event" and o.view.metadata.creationTimestamp
             and o.view.metadata.creationTimestamp[:4].isdigit()]
    assert len(created) >= len(dated) - t.attrs["unparsed"], case


# Azure/kubernetes-keyvault-flexvol#68 (AKS, 2019-02-11, a `kubectl describe pod`'s Events pasted
# alone, trimmed): ages only. Before, `kda timeline` printed none of it ("6 facts ... not placed").
_FLEXVOL_EVENTS = """\
Events:
  Type     Reason       Age   From                               Message
  ----     ------       ----  ----                               -------
  Normal   Scheduled    23s   default-scheduler                  Successfully assigned flexvoltest/nginx-flex-kv-podid to aks-agentpool-11854310-5
  Warning  FailedMount  22s   kubelet, aks-agentpool-11854310-5  MountVolume.SetUp failed for volume "test" : mount command failed, status: Failure, reason: failed to get key vault
  Normal   Pulling      16s   kubelet, aks-agentpool-11854310-5  pulling image "nginx"
  Normal   Created      14s   kubelet, aks-agentpool-11854310-5  Created container
  Normal   Started      14s   kubelet, aks-agentpool-11854310-5  Started container
"""


def test_events_of_a_paste_without_capture_time_are_listed_in_their_order() -> None:
    t = analyzer.load(_FLEXVOL_EVENTS).timeline
    facts = t.attrs["before_capture"]
    # oldest first; of one age (14s), in the order the describe printed them
    assert [(f["seconds"], f["detail"].split(":")[0]) for f in facts] == [
        (23.0, "Normal Scheduled"), (22.0, "Warning FailedMount"), (16.0, "Normal Pulling"),
        (14.0, "Normal Created"), (14.0, "Normal Started")]
    assert all(f["end_seconds"] is None for f in facts)  # one occurrence each: no span
    markdown = render(t, "markdown")
    assert "| 22s before capture |  | Pod/flexvoltest/nginx-flex-kv-podid | event | Warning FailedMount" in markdown
    assert select(t, namespace="elsewhere").attrs["before_capture"] == []


def test_a_graceful_deletion_is_dated_when_it_was_asked_for_not_at_its_grace_periods_end() -> None:
    """p0lyn0mial/multi-operator-manager @ 50cd1a7, must-gather (OpenShift 4.18, captured
    14:45:15Z): metrics-server's old pod, deleted by the rollout that created its successor
    ReplicaSet at 14:42:36, carries deletionTimestamp 14:45:26 and grace 170 s. The timeline said
    "deletion requested" at 14:45:26, after the capture."""
    pod = {"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": "metrics-server-7f98b5f8b5-9v6xq", "namespace": "openshift-monitoring",
                        "uid": "u1", "creationTimestamp": "2024-10-24T13:46:28Z",
                        "deletionTimestamp": "2024-10-24T14:45:26Z", "deletionGracePeriodSeconds": 170},
           "spec": {"containers": [{"name": "metrics-server", "image": "metrics-server:1"}]},
           "status": {"phase": "Running"}}
    deleted = _facts(analyzer.load(_dump([pod])).timeline, "deletion requested").iloc[0]
    assert deleted["time"] == pd.Timestamp("2024-10-24T14:42:36Z")
    assert deleted["detail"] == "graceful: its grace period (170s) ends at 2024-10-24T14:45:26Z"


SESSION = Path(__file__).parents[1] / "data" / "timeline" / "sealos-upgrade-session.txt"


def test_a_session_of_tables_keeps_what_its_earlier_rows_showed() -> None:
    """labring/sealos#481: `kubectl get nodes` six times through an upgrade. The last rows alone
    said nothing happened; each change is a span from the row before it to the row that shows it,
    placed by the rows' AGEs before the last row (dev-k8s-node: 5m49s, 6m5s, 6m23s, 6m26s)."""
    cluster = analyzer.load(str(SESSION))
    printed = [line.split("  ", 1)[0] + "  " + line.split("  ")[2]
               for line in render(cluster.timeline, "text").splitlines() if "row changed" in line]
    assert printed == [
        "69s .. 40s before capture  row changed: STATUS Ready,SchedulingDisabled -> Ready (its rows at line 6 and line 10)",
        "37s .. 21s before capture  row changed: VERSION v1.16.10 -> v1.17.12 (its rows at line 14 and line 18)",
        "37s .. 21s before capture  row changed: STATUS Ready -> Ready,SchedulingDisabled (its rows at line 15 and line 19)",
        "21s .. 3s before capture  row changed: STATUS Ready,SchedulingDisabled -> Ready (its rows at line 19 and line 23)",
        "3s .. 0s before capture  row changed: VERSION v1.16.10 -> v1.17.12 (its rows at line 23 and line 27)"]
    # seven facts stated only as ages (two creations, five changes): a span's end is no fact of its own
    assert cluster.timeline.attrs["undated"] == 7 == len(cluster.timeline.attrs["before_capture"])
    # the rows' cells as they are now stay the last row's
    assert {n.name: n.view.text.columns["STATUS"] for n in cluster.objects} == {
        "dev-k8s-master": "Ready", "dev-k8s-node": "Ready"}


def test_a_row_younger_than_the_one_before_starts_its_own_history() -> None:
    """The same name at a smaller AGE is the object made again: no change is said between them."""
    cluster = analyzer.load("$ kubectl get pods\nNAME   READY   STATUS    RESTARTS   AGE\nweb    0/1     Error     0          9h\n"
                            "$ kubectl get pods\nNAME   READY   STATUS    RESTARTS   AGE\nweb    1/1     Running   0          2m\n")
    assert not any("row changed" in line for line in render(cluster.timeline, "text").splitlines())


def test_the_facts_table_holds_each_fact_as_one_row_column_by_column() -> None:
    """`Rows.table` reads the facts as one flat run: the cells the plain conversion of the list of
    rows gives, each column contiguous (Arrow reads it so), and a field holding a list kept as
    one cell (the flat run must not shift the fields after it)."""
    import numpy as np

    from analyzer.timeline.facts import COLLECTORS, COLUMNS, Rows

    cluster = analyzer.load(str(SAMPLE_DUMPS / "kubeadm"))
    rows = Rows(cluster.capture_time)
    for collect in COLLECTORS:
        collect(cluster, rows, {})
    table = rows.table()
    plain = np.empty((len(rows.facts), len(COLUMNS)), dtype=object)
    plain[:] = rows.facts
    assert len(rows.facts) > 100 and table.shape == plain.shape and table.flags.f_contiguous
    assert table.tolist() == plain.tolist()

    rows.facts.append(("2024-05-01T10:00:00Z", None, "Pod", "ns", "p", "fact", ["a", "b"], None, "", "f.yaml:1"))
    last = rows.table()[-1]
    assert last.shape == (len(COLUMNS),) and last[6] == ["a", "b"] and last[9] == "f.yaml:1"
    assert Rows(None).table().shape == (0, len(COLUMNS))
