"""analyzer.diff on real dumps (../shared/realdata): each against itself, and against redacted
copies of itself, where only the pseudonymised values may change."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import REALDATA

import analyzer
from analyzer.diff import DifferentClusters, diff
from analyzer.diff.render import as_text as diff_text
from analyzer.redact import redact_dump

pytestmark = pytest.mark.skipif(not REALDATA.is_dir(), reason="no ../shared/realdata beside the repo")

CASES = sorted(p.relative_to(REALDATA).as_posix() for p in REALDATA.glob("*/*") if p.is_dir()) \
    if REALDATA.is_dir() else []
# Redacting reads and rewrites every file: three cases of three layouts are enough.
REDACTED = ("k3s/troubleshoot-testdata-supportbundle", "kubeadm/sbctl-kurl-supportbundle",
            "docker-desktop/multi-k8s-ciobotaru")
KEY = b"kda-test-key"


@pytest.mark.parametrize("case", CASES)
def test_dump_against_itself(case: str) -> None:
    a, b = analyzer.load(str(REALDATA / case)), analyzer.load(str(REALDATA / case))
    if not a.objects:
        pytest.skip(f"{case}: no object to compare")
    d = diff(a, b).to_dict()
    assert d["same_cluster"]["verdict"] in ("same", "unknown"), d["same_cluster"]
    assert d["added"] == d["removed"] == d["changed"] == [], case
    assert d["not_comparable"] == []
    assert d["findings"]["new"] == d["findings"]["resolved"] == []
    assert d["incidents"]["new"] == d["incidents"]["resolved"] == []
    assert len(d["incidents"]["open"]) == len(a.incidents)
    assert d["restarts"] == []
    assert d["unchanged"] + d["compared_by_identity_only"] + sum(h["old"] for h in d["history"]) \
        == len({(o.key.group, o.kind, o.namespace, o.name) for o in a.objects})
    json.dumps(d)


def _pseudonymise(text: str, mapping: dict[str, str]) -> str:
    if not mapping:
        return text
    # the redaction replaces whole words: a name part between dots, dashes or slashes
    words = sorted(mapping, key=len, reverse=True)
    pattern = r"(?<![A-Za-z0-9])(?:" + "|".join(map(re.escape, words)) + r")(?![A-Za-z0-9])"
    return re.sub(pattern, lambda m: mapping[m.group(0)], text)


_IP = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b")


def _ips(text: str) -> str:
    return _IP.sub("<ip>", text)


def _flat_map(map_file: Path) -> dict[str, str]:
    categories = json.loads(map_file.read_text(encoding="utf-8"))
    return {original: pseudonym for pairs in categories.values() for original, pseudonym in pairs.items()}


@pytest.mark.parametrize("case", REDACTED)
def test_redacted_copy_changes_only_pseudonymised_values(case: str, tmp_path: Path) -> None:
    source = REALDATA / case
    first, second, map_file = tmp_path / "one", tmp_path / "two", tmp_path / "map.json"
    redact_dump(source, first, map_file=map_file, key=KEY)
    redact_dump(source, second, key=KEY)
    original, copy_one, copy_two = (analyzer.load(str(p)) for p in (source, first, second))

    # the same key gives the same pseudonyms: two copies do not differ at all
    again = diff(copy_one, copy_two).to_dict()
    assert again["added"] == again["removed"] == again["changed"] == []

    mapping = _flat_map(map_file)
    assert mapping, "the redaction replaced nothing: the test would prove nothing"
    d = diff(original, copy_one, force=True).to_dict()
    assert d["same_cluster"]["verdict"] != "different" or d["same_cluster"]["confidence"] < 0.85

    def renamed(items: list[dict]) -> set[tuple[str, str, str]]:
        return {(i["kind"], _pseudonymise(i["namespace"], mapping), _pseudonymise(i["name"], mapping))
                for i in items}

    # an object is added or removed only because its name holds a pseudonymised word
    assert renamed(d["removed"]) == {(i["kind"], i["namespace"], i["name"]) for i in d["added"]}
    for item in d["changed"]:
        before: dict[str, object] = {}
        after: dict[str, object] = {}
        for f in item["fields"]:
            if f["old"] is not None:
                before[_pseudonymise(f["path"], mapping)] = f["old"]
            if f["new"] is not None:
                after[f["path"]] = f["new"]
        # every change is a value (or key) the map turns into the copy's
        assert set(before) == set(after), (item["name"], before, after)
        for path, old in before.items():
            if isinstance(old, str):
                # networks (CIDRs) keep their prefix length but get a pseudonymised address
                # that the map, which lists addresses, does not name: compared with IPs masked
                assert _ips(_pseudonymise(old, mapping)) == _ips(str(after[path])), (item["name"], path)
                assert _ips(old) != old or _pseudonymise(old, mapping) == after[path], (item["name"], path)
            else:
                assert old == after[path], (item["name"], path)
    # the same cluster's findings, named by their pseudonyms: none new, none resolved
    assert {(f["rule"], _pseudonymise(f["name"], mapping)) for f in d["findings"]["resolved"]} == \
        {(f["rule"], f["name"]) for f in d["findings"]["new"]}


def test_a_cluster_created_again_is_another_cluster() -> None:
    """Two cluster-info dumps of one CKA lab, three days apart: the cluster was built again
    (new node names, new machine ids, the default/kubernetes Service with a new uid)."""
    folder = REALDATA / "kubeadm/cka-3c97-cluster-info-dump"
    old = analyzer.load(str(folder / "cluster-info-dump.json"))
    new = analyzer.load(str(folder / "cluster-info-dump-2.json"))
    with pytest.raises(DifferentClusters) as refused:
        diff(old, new)
    said = {e["signal"]: e["says"] for e in refused.value.verdict["evidence"]}
    assert said["default/kubernetes Service uid"] == "different"
    d = diff(old, new, force=True).to_dict()
    changed = {(c["kind"], c["namespace"], c["name"]): c for c in d["changed"]}
    proxy = changed[("DaemonSet", "kube-system", "kube-proxy")]
    assert proxy["recreated"]
    fields = {f["path"]: (f["old"], f["new"]) for f in proxy["fields"]}
    assert fields["spec.template.spec.containers[kube-proxy].image"] == (
        "k8s.gcr.io/kube-proxy:v1.20.5", "k8s.gcr.io/kube-proxy:v1.21.0")
    versions = {v["what"]: v for v in d["versions"]}
    assert versions["kubelet"]["changed"]


def test_a_node_pool_scaled_down_changes_no_version(tmp_path: Path) -> None:
    """A written change of a real dump (labelled so): the kURL bundle's three v1.23.5 nodes
    (replicatedhq/sbctl tests/support-bundle cluster-resources/nodes.json), then two of them, as
    after the customer scaled the pool down. The node count moved, not a version: 'Versions:
    unchanged', and 'Nodes: 3 -> 2' with the totals."""
    nodes = REALDATA / "kubeadm/sbctl-kurl-supportbundle/cluster-resources/nodes.json"
    if not nodes.is_file():
        pytest.skip("no kURL bundle in realdata")
    fewer = json.loads(nodes.read_text(encoding="utf-8"))
    fewer["items"] = fewer["items"][:2]
    (tmp_path / "nodes.json").write_text(json.dumps(fewer), encoding="utf-8")
    d = diff(analyzer.load(str(nodes)), analyzer.load(str(tmp_path / "nodes.json"))).to_dict()
    kubelet = next(v for v in d["versions"] if v["what"] == "kubelet")
    assert (kubelet["old"], kubelet["new"], kubelet["changed"]) == ("v1.23.5 (3 nodes)", "v1.23.5 (2 nodes)", False)
    assert not any(v["changed"] for v in d["versions"])
    assert (d["capacity"]["nodes_old"], d["capacity"]["nodes_new"]) == (3, 2)
    text = diff_text(d)
    assert "Versions: unchanged (where both dumps say)" in text and "Nodes: 3 -> 2" in text
