"""Redacted copies of sample and real dumps read like the originals: same objects, distribution,
graph, logs and layout, and none of the replaced values left in them."""

from __future__ import annotations

import codecs
import re
import tarfile
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from conftest import REALDATA, ROOT, SAMPLE_DUMPS

import analyzer
from analyzer.redact import redact_dump

# Sample dumps (AKS/EKS/OKE/kubeadm, each a different form), the kubeadm sample as a .tar.gz, and
# real dumps of other forms: support bundle, cluster-info dump, must-gather, UTF-16 PowerShell
# capture, k3s support bundle, pasted kubectl tables (REALDATA/SOURCES.md says where each came from).
DUMPS = {
    "sample-aks": SAMPLE_DUMPS / "aks",
    "sample-eks": SAMPLE_DUMPS / "eks",
    "sample-oke": SAMPLE_DUMPS / "oke",
    "sample-kubeadm": SAMPLE_DUMPS / "kubeadm",
    "sample-kubeadm-tar-gz": ROOT / "tests" / "data" / "archives" / "kubeadm-dump.tar.gz",
    "kurl-support-bundle": REALDATA / "kubeadm" / "sbctl-kurl-supportbundle",
    "cka-cluster-info-dump": REALDATA / "kubeadm" / "cka-3c97-cluster-info-dump",
    "must-gather-clean-aws": REALDATA / "openshift" / "must-gather-clean-aws",
    "minikube-utf16": REALDATA / "minikube" / "bits-assignment-group11",
    "k3s-support-bundle": REALDATA / "k3s" / "troubleshoot-testdata-supportbundle",
    # pasted `kubectl get -o wide` tables: read by column position, so columns must stay put
    "eks-pasted-tables": REALDATA / "eks" / "holmesgpt-fixtures",
}
KEY = b"test key"


@pytest.fixture(scope="module")
def redacted(tmp_path_factory: pytest.TempPathFactory):
    """name -> (original cluster, redacted cluster, redacted path, report dict), each made once."""
    root = tmp_path_factory.mktemp("redacted")

    @cache
    def make(name: str) -> tuple[analyzer.Cluster, analyzer.Cluster, Path, dict]:
        src = DUMPS[name]
        if not src.exists():
            pytest.skip(f"{src} is not here")
        out = root / name / src.name
        report = redact_dump(src, out, names=True, key=KEY)
        return analyzer.load(str(src)), analyzer.load(str(out)), out, report.to_dict()

    return make


def _relations(cluster: analyzer.Cluster) -> Counter:
    return Counter(d.get("relation") for _, _, d in cluster.graph.edges(data=True))


def _text_files(root: Path) -> dict[str, str]:
    if root.is_file():
        if tarfile.is_tarfile(root):
            with tarfile.open(root) as tar:
                return {m.name: tar.extractfile(m).read().decode("utf-8", "replace") for m in tar if m.isfile()}
        return {root.name: root.read_bytes().decode("utf-16" if root.read_bytes()[:2] == codecs.BOM_UTF16_LE else "utf-8", "replace")}
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.is_symlink():
            data = p.read_bytes()
            out[p.relative_to(root).as_posix()] = data.decode("utf-16" if data[:2] == codecs.BOM_UTF16_LE else "utf-8", "replace")
    return out


@pytest.mark.parametrize("name", sorted(DUMPS))
def test_same_objects_logs_distribution_and_graph(name: str, redacted) -> None:
    before, after, _, report = redacted(name)
    assert after.summary()["objects_by_kind"] == before.summary()["objects_by_kind"]
    assert report["differences"] == {}
    assert len(after.logs) == len(before.logs)
    assert after.distribution.name == before.distribution.name
    # every join (pod -> node, service -> pods, owner, mounts, ...) still finds its other end
    assert _relations(after) == _relations(before)
    assert len(after.ingest.rejections) == len(before.ingest.rejections)


@pytest.mark.parametrize("name", ["sample-aks", "sample-eks", "sample-oke", "sample-kubeadm", "must-gather-clean-aws"])
def test_same_findings(name: str, redacted) -> None:
    before, after, _, _ = redacted(name)
    assert Counter(after.findings["rule"]) == Counter(before.findings["rule"])


@pytest.mark.parametrize("name", sorted(DUMPS))
def test_node_facts_detection_reads_are_kept(name: str, redacted) -> None:
    before, after, _, _ = redacted(name)

    def facts(cluster: analyzer.Cluster) -> tuple:
        schemes, label_keys = [], set()
        for node in cluster.objects_of("Node"):
            provider = node.view.spec.providerID if node.view.spec else None
            schemes.append(provider.split("://")[0] if provider else None)
            label_keys |= set(node.view.metadata.labels or {})
        return sorted(schemes, key=str), sorted(label_keys)

    assert facts(after) == facts(before)


@pytest.mark.parametrize("name", sorted(DUMPS))
def test_replaced_values_are_gone(name: str, redacted) -> None:
    before, after, out, report = redacted(name)
    texts = "\n".join(_text_files(out).values())
    private_ips = {a.address for n in before.objects_of("Node") for a in (n.view.status.addresses or ())
                   if n.view.status and a.type == "InternalIP" and a.address
                   and a.address.startswith(("10.", "172.", "192.168."))}
    renamed_nodes = {n.name for n in before.objects_of("Node")} - {n.name for n in after.objects_of("Node")}
    assert [v for v in private_ips | renamed_nodes if re.search(rf"(?<![\w.-]){re.escape(v)}(?![\w-])", texts)] == []
    if name == "kurl-support-bundle":
        # troubleshoot already hid its addresses (***HIDDEN***): only hostnames were left to replace
        assert not private_ips and set(report["replacements"]) - {"namespace", "object-name"} == {"hostname"}
    else:
        assert private_ips | renamed_nodes


@pytest.mark.parametrize("name", sorted(DUMPS))
def test_same_layout_file_by_file(name: str, redacted) -> None:
    _, _, out, report = redacted(name)
    original, redacted = _text_files(DUMPS[name]), _text_files(out)
    assert len(redacted) == len(original) - len(report["dropped"])
    # each file keeps its line count (no Secrets in these dumps, so nothing is re-serialised)
    assert sorted(t.count("\n") for t in redacted.values()) == sorted(
        t.count("\n") for p, t in original.items() if p not in report["dropped"])


def test_utf16_capture_stays_utf16(redacted) -> None:
    _, _, out, _ = redacted("minikube-utf16")
    src = DUMPS["minikube-utf16"] / "cluster-dump.txt"
    assert (out / "cluster-dump.txt").read_bytes()[:2] == src.read_bytes()[:2] == codecs.BOM_UTF16_LE


def test_archive_stays_a_gzipped_tar_with_the_same_members(redacted) -> None:
    _, _, out, _ = redacted("sample-kubeadm-tar-gz")
    assert out.read_bytes()[:2] == b"\x1f\x8b"
    with tarfile.open(DUMPS["sample-kubeadm-tar-gz"]) as a, tarfile.open(out) as b:
        assert len(a.getmembers()) == len(b.getmembers())


def test_cloud_ids_keep_their_shape(redacted) -> None:
    before, after, _, report = redacted("sample-aks")
    ids = [n.view.spec.providerID for n in after.objects_of("Node")]
    assert all(i.startswith("azure:///subscriptions/") and "/resourceGroups/mc_" in i for i in ids)
    assert {n.view.spec.providerID for n in before.objects_of("Node")}.isdisjoint(ids)
    assert {"azure-subscription", "azure-resource-group", "cluster-name"} <= set(report["replacements"])
    labels = [n.view.metadata.labels["kubernetes.azure.com/cluster"] for n in after.objects_of("Node")]
    assert all(v.startswith("MC_") and v.endswith("_eastus") for v in labels)
    oke_ids = [n.view.spec.providerID for n in redacted("sample-oke")[1].objects_of("Node")]
    assert all(i.startswith("oci://ocid1.instance.oc1.") for i in oke_ids)


def test_same_key_same_bytes(tmp_path: Path) -> None:
    src = DUMPS["sample-kubeadm"]
    redact_dump(src, tmp_path / "a", key=KEY)
    redact_dump(src, tmp_path / "b", key=KEY)
    redact_dump(src, tmp_path / "c", key=b"another key")
    a, b, c = (_text_files(tmp_path / x) for x in "abc")
    assert a == b
    assert a != c


def test_zip_stays_a_zip_and_a_lone_gzip_stays_gzip(tmp_path: Path) -> None:
    import gzip
    import zipfile

    # a zip of the AKS sample (as a support engineer would attach it), and one gzipped file
    src = tmp_path / "aks.zip"
    with zipfile.ZipFile(src, "w") as zf:
        for p in sorted((SAMPLE_DUMPS / "aks").iterdir()):
            zf.write(p, f"aks/{p.name}")
    report = redact_dump(src, tmp_path / "out.zip", key=KEY)
    assert report.files == 7 and zipfile.is_zipfile(tmp_path / "out.zip")
    before, after = analyzer.load(str(src)), analyzer.load(str(tmp_path / "out.zip"))
    assert after.summary()["objects_by_kind"] == before.summary()["objects_by_kind"]
    assert after.distribution.name == "aks"
    lone = tmp_path / "nodes.json.gz"
    lone.write_bytes(gzip.compress((SAMPLE_DUMPS / "kubeadm" / "nodes.json").read_bytes()))
    redact_dump(lone, tmp_path / "nodes-out.json.gz", key=KEY)
    out = gzip.decompress((tmp_path / "nodes-out.json.gz").read_bytes()).decode()
    assert out.count("\n") == (SAMPLE_DUMPS / "kubeadm" / "nodes.json").read_text().count("\n")
    assert analyzer.load(str(tmp_path / "nodes-out.json.gz")).summary()["objects_by_kind"] == {"Node": 3}


def test_one_key_gives_one_pseudonym_across_dumps(tmp_path: Path) -> None:
    # two captures of one cluster (here: the AKS sample and its nodes file alone), one key:
    # the redacted copies still compare node by node
    whole, part = SAMPLE_DUMPS / "aks", SAMPLE_DUMPS / "aks" / "nodes.yaml"
    redact_dump(whole, tmp_path / "whole", key=KEY)
    redact_dump(part, tmp_path / "nodes.yaml", key=KEY)
    names = [sorted(n.name for n in analyzer.load(str(p)).objects_of("Node")) for p in (tmp_path / "whole", tmp_path / "nodes.yaml")]
    assert names[0] == names[1]
    assert set(names[0]).isdisjoint(n.name for n in analyzer.load(str(whole)).objects_of("Node"))


def test_a_hostile_archive_members_path_or_link_out_of_it_is_left_out_of_the_copy(tmp_path: Path) -> None:
    # Written for this test, after the hostile archives of tests/ingest/test_bad_input.py: a
    # support bundle whose tar and zip hold members named `../../escape.yaml` and `/tmp/abs.yaml`
    # and links to /etc/passwd. Ingest never read them; before, `kda redact` wrote them into the
    # copy made to be shared, for whoever unpacks it.
    import io
    import zipfile

    pod = (SAMPLE_DUMPS / "kubeadm" / "nodes.json").read_bytes()

    def add(tar: tarfile.TarFile, name: str, data: bytes = b"", kind: bytes = tarfile.REGTYPE, link: str = "") -> None:
        info = tarfile.TarInfo(name)
        info.type, info.linkname, info.size = kind, link, len(data)
        tar.addfile(info, io.BytesIO(data) if data else None)

    src = tmp_path / "bundle.tar.gz"
    with tarfile.open(src, "w:gz") as tar:
        add(tar, "bundle/nodes.json", pod)
        add(tar, "../../escape.json", pod)
        add(tar, "/tmp/abs.json", pod)
        add(tar, "bundle/passwd", kind=tarfile.SYMTYPE, link="/etc/passwd")
        add(tar, "bundle/up", kind=tarfile.SYMTYPE, link="../../etc/passwd")
        add(tar, "bundle/hard", kind=tarfile.LNKTYPE, link="../etc/passwd")
        add(tar, "bundle/same", kind=tarfile.SYMTYPE, link="nodes.json")  # inside: kept, as a folder's
    report = redact_dump(src, tmp_path / "out.tar.gz", key=KEY)
    with tarfile.open(tmp_path / "out.tar.gz") as tar:
        kept = sorted(m.name for m in tar)
    assert len(kept) == 2 and not any(".." in name or name.startswith("/") for name in kept)
    assert sorted(report.paths_refused) == ["../../escape.json", "/tmp/abs.json"]
    assert sorted(report.links_skipped) == ["bundle/hard", "bundle/passwd", "bundle/up"]
    assert report.differences == {}

    zsrc = tmp_path / "bundle.zip"
    with zipfile.ZipFile(zsrc, "w") as zf:
        zf.writestr("bundle/nodes.json", pod)
        zf.writestr("../../escape.json", pod)
        link = zipfile.ZipInfo("bundle/passwd")
        link.external_attr = 0o120777 << 16
        zf.writestr(link, "/etc/passwd")
    report = redact_dump(zsrc, tmp_path / "out.zip", key=KEY)
    with zipfile.ZipFile(tmp_path / "out.zip") as zf:
        assert len(zf.namelist()) == 1
    assert report.paths_refused == ["../../escape.json"] and report.links_skipped == ["bundle/passwd"]
