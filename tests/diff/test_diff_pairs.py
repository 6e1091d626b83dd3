"""analyzer.diff on pairs built from the sample dumps: every change class, the same-cluster
check, kinds collected only once, and one cluster in two forms."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SAMPLE_DUMPS
from forms import write_bundle, write_cluster_info_dump
from pairs import (
    AKS,
    CORDONED,
    CRASHLOOP,
    KUBELET,
    NODE_GONE,
    NODE_NEW,
    ROLLED,
    ROLLED_IMAGE,
    build_after,
)

import analyzer
from analyzer.diff import DifferentClusters, diff


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> dict:
    after = build_after(tmp_path_factory.mktemp("pair"))
    return diff(analyzer.load(str(AKS)), analyzer.load(str(after))).to_dict()


def _ids(items: list[dict]) -> set[tuple[str, str, str]]:
    return {(i["kind"], i["namespace"], i["name"]) for i in items}


def _changed(result: dict, kind: str, namespace: str, name: str) -> dict[str, tuple]:
    for item in result["changed"]:
        if (item["kind"], item["namespace"], item["name"]) == (kind, namespace, name):
            return {f["path"]: (f["old"], f["new"]) for f in item["fields"]}
    raise AssertionError(f"{kind} {namespace}/{name} not among the changed objects")


def test_public_api() -> None:
    assert analyzer.diff is diff
    sample = analyzer.load(str(AKS))
    assert analyzer.diff(sample, sample).empty


def test_same_cluster_with_its_evidence(result: dict) -> None:
    verdict = result["same_cluster"]
    assert verdict["verdict"] == "same" and verdict["confidence"] >= 0.9
    said = {e["signal"]: e["says"] for e in verdict["evidence"]}
    assert said["kube-system namespace uid"] == "same"
    # one of three nodes was replaced: the node sets overlap, they are not equal
    assert said["node providerIDs"] == "same"
    assert not result["forced"]


def test_rolled_deployment(result: dict) -> None:
    fields = _changed(result, "Deployment", *ROLLED)
    old_image, new_image = fields["spec.template.spec.containers[frontend].image"]
    assert old_image.endswith("frontend:2.4.1") and new_image == ROLLED_IMAGE
    assert fields["metadata.generation"] == (1, 2)
    # the new ReplicaSet's pods replace the old one's: made again by the Deployment, not removed and added
    assert not {n for k, ns, n in _ids(result["removed"]) | _ids(result["added"]) if k == "Pod" and ns == "shop"}
    (rolled,) = [r for r in result["replaced"] if r["controller"] == "Deployment shop/frontend"]
    assert rolled["old"] == ["frontend-bllwsgbgz-5jrgk", "frontend-bllwsgbgz-pm2wv", "frontend-bllwsgbgz-tfpvw"]
    assert rolled["new"] == ["frontend-7c9dqzxkw-5jrgk", "frontend-7c9dqzxkw-pm2wv", "frontend-7c9dqzxkw-tfpvw"]
    ((path, before, after),) = [(f["path"], f["old"], f["new"]) for f in rolled["fields"] if f["path"] == "images"]
    assert before[0].endswith("frontend:2.4.1") and after == [ROLLED_IMAGE]


def test_node_replaced(result: dict) -> None:
    assert ("Node", "", NODE_GONE) in _ids(result["removed"])
    assert ("Node", "", NODE_NEW) in _ids(result["added"])
    # the pods that ran on it (DaemonSet pods keep their names here) moved with it
    assert _changed(result, "Pod", "kube-system", "kube-proxy-smp5x")["spec.nodeName"] == (NODE_GONE, NODE_NEW)


def test_kubelet_upgrade(result: dict) -> None:
    versions = {v["what"]: v for v in result["versions"]}
    assert versions["kubelet"]["changed"]
    assert versions["kubelet"]["old"] == "v1.29.7 (3 nodes)"
    assert versions["kubelet"]["new"] == f"{KUBELET} (3 nodes)"
    assert versions["OS image"]["changed"] is False
    fields = _changed(result, "Node", "", "aks-nodepool1-12345678-vmss000002")
    assert fields == {"status.nodeInfo.kubeProxyVersion": ("v1.29.7", KUBELET),
                      "status.nodeInfo.kubeletVersion": ("v1.29.7", KUBELET)}


def test_crashloop_fixed(result: dict) -> None:
    resolved = {(f["rule"], f["namespace"], f["name"]) for f in result["findings"]["resolved"]}
    assert ("pod-crashloop", *CRASHLOOP) in resolved
    fields = _changed(result, "Pod", *CRASHLOOP)
    assert fields["status.conditions[Ready].status"] == ("False", "True")
    assert fields["status.containerStatuses[cart].restartCount"] == (14, 15)
    assert fields["status.containerStatuses[cart].state.running.startedAt"][1] == "2024-09-15T12:20:00Z"
    assert result["restarts"] == [{"namespace": "shop", "name": "cart-6mvdgdjsd-nbbzw", "old": 14,
                                   "new": 15, "gained": 1, "last_restart": "2024-09-15T11:54:02Z"}]


def test_new_and_open_findings(result: dict) -> None:
    new = {(f["rule"], f["name"]) for f in result["findings"]["new"]}
    assert ("node-cordoned", CORDONED) in new
    still = {(f["rule"], f["name"]) for f in result["findings"]["open"]}
    assert ("node-memory-pressure", "aks-nodepool1-12345678-vmss000002") in still
    assert not ({(f["rule"], f["name"]) for f in result["findings"]["resolved"]} & still)


def test_incidents(result: dict) -> None:
    incidents = result["incidents"]
    assert incidents["new"] == [] and incidents["resolved"] == []
    cart = next(x for x in incidents["open"] if x["cause"] == "Pod shop/cart-6mvdgdjsd-nbbzw")
    # the crashloop is fixed; what remains of the incident is its OOMKilled history
    assert "OOMKilled" in cart["headline"] and any("CrashLoopBackOff" in w for w in cart["was"])


def test_kind_not_collected_is_not_removed(result: dict) -> None:
    assert [(n["kind"], n["collected_in"], n["objects"]) for n in result["not_comparable"]] == [
        ("ConfigMap", "old", 13)]
    assert not any(i["kind"] == "ConfigMap" for i in result["removed"] + result["changed"])
    # the rule that needs ConfigMaps cannot tell in the new dump: its finding is not "resolved"
    assert "ref-missing-configmap" in {f["rule"] for f in result["findings"]["not_comparable"]}
    assert "ref-missing-configmap" not in {f["rule"] for f in result["findings"]["resolved"]}


def test_capacity_and_allocatable(result: dict) -> None:
    cap = result["capacity"]
    assert cap["changed_nodes"] == [{"node": CORDONED, "what": "memory_allocatable",
                                     "old": 13188747264, "new": 10000 * 2**20}]
    totals = {t["what"]: t for t in cap["totals"]}
    assert totals["memory_allocatable"]["changed"] and not totals["cpu_capacity"]["changed"]
    assert _changed(result, "Node", "", CORDONED)["spec.unschedulable"] == (None, True)


def test_volatile_fields_are_left_out_and_listed(tmp_path: Path) -> None:
    after = tmp_path / "after"
    after.mkdir()
    text = (AKS / "nodes.yaml").read_text(encoding="utf-8")
    # a later capture of unchanged nodes: newer heartbeats and resource versions only
    (after / "nodes.yaml").write_text(
        text.replace("lastHeartbeatTime: \"2024-09-15T11:5", "lastHeartbeatTime: \"2024-09-15T12:3")
            .replace("resourceVersion: \"", "resourceVersion: \"9"), encoding="utf-8")
    assert text != (after / "nodes.yaml").read_text(encoding="utf-8")
    d = diff(analyzer.load(str(AKS / "nodes.yaml")), analyzer.load(str(after))).to_dict()
    assert d["changed"] == [] and d["unchanged"] == 3
    paths = {v["path"] for v in d["volatile_fields"]}
    assert {"metadata.resourceVersion", "metadata.managedFields", "status.observedGeneration",
            "status.conditions.*.lastHeartbeatTime"} <= paths


def test_different_clusters_are_refused_unless_forced() -> None:
    aks, eks = analyzer.load(str(AKS)), analyzer.load(str(SAMPLE_DUMPS / "eks"))
    with pytest.raises(DifferentClusters) as refused:
        diff(aks, eks)
    assert refused.value.verdict["verdict"] == "different"
    assert "cloud provider" in str(refused.value)
    forced = diff(aks, eks, force=True).to_dict()
    assert forced["forced"] and forced["same_cluster"]["verdict"] == "different"


def test_one_cluster_in_two_forms(tmp_path: Path) -> None:
    bundle = analyzer.load(str(write_bundle(tmp_path)))
    stdout = analyzer.load(str(write_cluster_info_dump(tmp_path)))
    assert bundle.ingest.formats != stdout.ingest.formats
    d = diff(stdout, bundle).to_dict()
    assert d["same_cluster"]["verdict"] == "same"
    assert d["added"] == d["removed"] == d["changed"] == []
    assert d["unchanged"] == len(stdout.objects) - sum(1 for o in stdout.objects if o.kind == "Event")
    assert {n["kind"]: n["collected_in"] for n in d["not_comparable"]} == {
        "ConfigMap": "new", "Endpoints": "new", "Namespace": "new"}
    assert d["findings"]["new"] == [] and d["findings"]["resolved"] == []


def test_pasted_text_against_its_structured_dump() -> None:
    """A `kubectl get pods` table pasted from the same cluster: objects compared by identity."""
    cluster = analyzer.load(str(AKS))
    cells = [("NAMESPACE", "NAME", "READY", "STATUS", "RESTARTS", "AGE")]
    cells += [(p.namespace, p.name, "1/1", "Running", str(p.restarts), "5d")
              for p in cluster.tables.pods.itertuples()]
    widths = [max(len(row[i]) for row in cells) + 3 for i in range(6)]  # as kubectl aligns them
    text = "".join("".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() + "\n"
                   for row in cells)
    pasted = analyzer.load(text)
    assert {o.kind for o in pasted.objects} == {"Pod"}
    d = diff(cluster, pasted).to_dict()
    assert d["added"] == [] and d["removed"] == [] and d["changed"] == []
    assert d["compared_by_identity_only"] == len(cluster.tables.pods)
    assert {n["kind"] for n in d["not_comparable"]} >= {"Node", "Deployment", "Service"}
    json.dumps(d)  # plain data throughout


@pytest.mark.parametrize("sample", ["aks", "eks", "kubeadm", "oke"])
def test_sample_against_itself_and_without_one_kind(sample: str, tmp_path: Path) -> None:
    """Every sample form against itself changes nothing; against its own Nodes alone, the kinds
    left out are not comparable, never removed."""
    cluster = analyzer.load(str(SAMPLE_DUMPS / sample))
    d = diff(cluster, analyzer.load(str(SAMPLE_DUMPS / sample))).to_dict()
    assert d["same_cluster"]["verdict"] == "same"
    assert d["added"] == d["removed"] == d["changed"] == [] and d["not_comparable"] == []
    services = [o for o in cluster.objects if o.kind == "Service"]
    assert services
    fewer = analyzer.load(json.dumps({"apiVersion": "v1", "kind": "List",
                                      "items": [{**o.body(), "apiVersion": "v1", "kind": "Node"}
                                                for o in cluster.objects if o.kind == "Node"]},
                                     indent=1))
    d = diff(cluster, fewer).to_dict()
    assert d["same_cluster"]["verdict"] == "same"
    assert d["removed"] == [] and d["changed"] == []
    assert "Service" in {n["kind"] for n in d["not_comparable"]}


def test_a_few_pasted_rows_remove_nothing() -> None:
    """Two rows of `kubectl get pods -A` pasted as the new dump: one pod the old dump lacks is
    added; the old dump's other pods are not in the paste, which does not make them gone."""
    text = ("NAMESPACE     NAME                      READY   STATUS    RESTARTS   AGE\n"
            "kube-system   coredns-6qp2v7f9r-6psns   1/1     Running   0          5d\n"
            "shop          web-new-7f9c-abcde        1/1     Running   0          2m\n")
    cluster = analyzer.load(str(AKS))
    d = diff(cluster, analyzer.load(text)).to_dict()
    assert d["same_cluster"]["verdict"] == "unknown"
    assert _ids(d["added"]) == {("Pod", "shop", "web-new-7f9c-abcde")}
    assert d["removed"] == [] and d["changed"] == []
    pods = next(n for n in d["not_comparable"] if n["kind"] == "Pod")
    assert pods["objects"] == len(cluster.tables.pods) - 1 and "pasted text" in pods["reason"]
    # the crashlooping pod is not in the paste: its findings are not resolved, only not comparable
    assert d["findings"]["resolved"] == [] and d["findings"]["new"] == []
    assert "pod-crashloop" in {f["rule"] for f in d["findings"]["not_comparable"]}
    assert not any(v["changed"] for v in d["versions"])
    assert d["capacity"]["nodes_new"] is None


def test_a_changed_credential_is_said_changed_and_never_shown(tmp_path: Path) -> None:
    # Written for this test: one pod's password env var and argv (`--db-password VALUE`) and a
    # ConfigMap's connection string change between two dumps. Before, the diff masked only values
    # that looked like credentials by themselves: `env[DB_PASSWORD].value: hunter2hunter2 ->
    # s3cr3tNEW99`, `command[2]: hunter2hunter2 -> s3cr3tNEW99`.
    def dump(password: str) -> dict:
        pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "app", "namespace": "shop"},
               "spec": {"containers": [{"name": "app", "image": "app:1",
                                        "command": ["/app", "--db-password", password, password[:3]], "env": [
                   {"name": "DB_PASSWORD", "value": password}, {"name": "LOG_LEVEL", "value": password[:3]}]}]}}
        config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "app", "namespace": "shop"},
                  "data": {"DATABASE_URL": f"postgres://app:{password}@db:5432/app"}}
        return {"apiVersion": "v1", "kind": "List", "items": [pod, config]}

    before, after = tmp_path / "before.json", tmp_path / "after.json"
    before.write_text(json.dumps(dump("hunter2hunter2")), encoding="utf-8")
    after.write_text(json.dumps(dump("s3cr3tNEW99")), encoding="utf-8")
    result = diff(analyzer.load(str(before)), analyzer.load(str(after)), force=True).to_dict()
    shown = json.dumps(result)
    assert "hunter2hunter2" not in shown and "s3cr3tNEW99" not in shown
    assert _changed(result, "Pod", "shop", "app") == {
        "spec.containers[app].env[DB_PASSWORD].value": ("<redacted>", "<redacted> (another value, masked)"),
        "spec.containers[app].env[LOG_LEVEL].value": ("hun", "s3c"),
        "spec.containers[app].command[2]": ("<redacted>", "<redacted> (another value, masked)"),
        "spec.containers[app].command[3]": ("hun", "s3c")}
    assert _changed(result, "ConfigMap", "shop", "app") == {"data.DATABASE_URL": (
        "postgres://app:<redacted>@db:5432/app", "postgres://app:<redacted>@db:5432/app (another value, masked)")}
    # asked for, the values are shown
    shown = diff(analyzer.load(str(before), show_sensitive=True), analyzer.load(str(after), show_sensitive=True),
                 force=True).to_dict()
    assert _changed(shown, "Pod", "shop", "app")["spec.containers[app].env[DB_PASSWORD].value"] == (
        "hunter2hunter2", "s3cr3tNEW99")
