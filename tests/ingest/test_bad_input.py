"""Hostile and broken input: nothing executed, nothing written or read outside, nothing crashes.

Each fixture is built inline; the comment on each says which attack or accident it stands for.
"""

from __future__ import annotations

import gzip
import io
import os
import stat
import tarfile
import time
import zipfile
from pathlib import Path

import pytest

from analyzer.ingest import IngestResult, ingest, ingest_text, tree

POD_YAML = b"apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  namespace: x\n"


def keys(r: IngestResult) -> list[str]:
    return sorted(o.key.id for o in r.objects)


# -- YAML tags and aliases -----------------------------------------------------------------


def test_python_tags_are_never_executed(tmp_path: Path) -> None:
    # The classic PyYAML exploit: a !!python/object/apply tag that runs a command.
    marker = tmp_path / "pwned"
    text = (f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: evil\n  namespace: x\n"
            f"data: !!python/object/apply:os.system ['touch {marker}']\n---\n").encode() + POD_YAML
    r = ingest(text)
    assert not marker.exists()
    assert keys(r) == ["core/Pod/x/a"]  # the next document is still read
    [rej] = r.object_rejections
    assert "python/object" in rej.reason and rej.location.startswith("document 0")
    assert r.accounting_holds()


def test_python_name_tag_is_refused() -> None:
    # !!python/name resolves a Python object by import path.
    r = ingest_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: evil\ndata: !!python/name:os.system\n")
    assert not r.objects and "python/name" in r.object_rejections[0].reason


BILLION_LAUGHS = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lol\n  namespace: x\ndata:\n" + "".join(
    [f"  l0: &l0 [{', '.join(['lol'] * 9)}]\n"]
    + [f"  l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 10)]
)


def test_alias_bomb_is_bounded_and_rejected() -> None:
    # "Billion laughs": 10 levels of 9 aliases expand to 9**10 strings.
    start = time.perf_counter()
    r = ingest_text(BILLION_LAUGHS)
    assert time.perf_counter() - start < 5
    assert not r.objects
    [rej] = r.object_rejections
    assert "aliases expand" in rej.reason


def test_many_aliases_are_refused_before_parsing() -> None:
    text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\nanchor: &a v\nrefs:\n" + "- *a\n" * 1500
    r = ingest_text(text)
    assert not r.objects and "more than 1000 aliases" in r.object_rejections[0].reason


def test_a_few_aliases_are_fine() -> None:
    # Hand-written manifests do use anchors for shared blocks.
    text = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  namespace: y\n  labels: &l {app: web}\n"
            "  annotations: *l\n")
    r = ingest_text(text)
    assert r.objects[0].view.metadata.annotations == {"app": "web"}


# -- nesting, huge values, binary --------------------------------------------------------


def test_deeply_nested_json_is_rejected_not_crashed() -> None:
    r = ingest_text('{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x"}, "spec": '
                    + "[" * 100_000 + "]" * 100_000 + "}")
    assert not r.objects and r.accounting_holds()
    assert "nested deeper" in r.object_rejections[0].reason


def test_bare_deep_json_array_is_rejected() -> None:
    r = ingest_text("[" * 100_000 + "]" * 100_000)
    assert not r.objects and len(r.object_rejections) == 1 and r.accounting_holds()


def test_deeply_nested_yaml_flow_is_rejected_not_crashed() -> None:
    # libyaml's compiled composer recurses in C: 30,000 levels overflow the stack (segfault).
    r = ingest_text("apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec: " + "[" * 100_000 + "]" * 100_000 + "\n")
    assert not r.objects
    assert "nested more than" in r.object_rejections[0].reason
    r = ingest_text("apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec: " + "{a: " * 30_000 + "1" + "}" * 30_000 + "\n")
    assert not r.objects and "nested more than" in r.object_rejections[0].reason


def test_huge_string_value_is_read() -> None:
    # A ConfigMap holding a 20 MB blob (a dashboard JSON, a CA bundle): large, not hostile.
    blob = "x" * 20_000_000
    r = ingest_text('{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "big", "namespace": "x"},'
                    ' "data": {"blob": "' + blob + '"}}')
    assert keys(r) == ["core/ConfigMap/x/big"]


@pytest.mark.parametrize(
    "data",
    [
        os.urandom(64 * 1024),  # a screenshot or an encrypted file attached by mistake
        b"\x00\x01\x02\x03" * 4096,  # NUL-heavy binary
        bytes(range(1, 32)) * 2000,  # control characters, no NUL
    ],
)
def test_binary_junk_is_rejected_with_a_reason(data: bytes) -> None:
    if data[:2] in (b"\x1f\x8b", b"PK", b"BZ") or data[:6] == b"\xfd7zXZ\x00":
        data = b"\x00" + data  # keep the random bytes from looking like an archive
    r = ingest(data)
    assert not r.objects and r.accounting_holds()
    [rej] = r.input_rejections
    assert "binary data" in rej.reason


# -- decompression bombs -----------------------------------------------------------------


def test_gzip_bomb_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 50 MB of zeros compress to ~50 KB; with a 1 MiB bound nothing past it is inflated.
    monkeypatch.setattr(tree, "MAX_MEMBER_BYTES", 1024 * 1024)
    path = tmp_path / "dump.json.gz"
    path.write_bytes(gzip.compress(b"0" * 50_000_000))
    r = ingest(path)
    assert not r.objects
    [rej] = r.input_rejections
    assert rej.source == str(path) and "decompression bomb" in rej.reason


def test_tar_member_bomb_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tree, "MAX_MEMBER_BYTES", 1024 * 1024)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name, content in (("bomb.json", b"0" * 5_000_000), ("pod.yaml", POD_YAML)):
            info = tarfile.TarInfo(name)
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
    path = tmp_path / "bomb.tar.gz"
    path.write_bytes(gzip.compress(buf.getvalue()))
    # the whole tar inflates past the bound too: refused as a whole
    [rej] = ingest(path).input_rejections
    assert "decompression bomb" in rej.reason
    # an uncompressed tar: only the member past the bound is refused, the others are read
    plain = tmp_path / "bomb.tar"
    plain.write_bytes(buf.getvalue())
    r = ingest(plain)
    assert keys(r) == ["core/Pod/x/a"]
    [rej] = r.input_rejections
    assert rej.source == f"{plain}!/bomb.json" and "decompression bomb" in rej.reason


def test_zip_member_bomb_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tree, "MAX_MEMBER_BYTES", 1024 * 1024)
    path = tmp_path / "bomb.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("bomb.json", b"0" * 5_000_000)
        zf.writestr("pod.yaml", POD_YAML)
    r = ingest(path)
    assert keys(r) == ["core/Pod/x/a"]  # the other member is still read
    assert any("decompression bomb" in x.reason for x in r.input_rejections)


# -- paths and links leaving the dump -------------------------------------------------------


def _tar_with(members: list[tarfile.TarInfo], data: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for info in members:
            content = data.get(info.name)
            if content is not None:
                info.size = len(content)
                tar.addfile(info, io.BytesIO(content))
            else:
                tar.addfile(info)
    return buf.getvalue()


def test_tar_members_leaving_the_archive_are_never_read_or_written(tmp_path: Path) -> None:
    outside = tmp_path / "outside.yaml"
    outside.write_bytes(POD_YAML.replace(b"name: a", b"name: secret-outside"))
    link = tarfile.TarInfo("bundle/link.yaml")
    link.type, link.linkname = tarfile.SYMTYPE, str(outside)
    hard = tarfile.TarInfo("bundle/hard.yaml")
    hard.type, hard.linkname = tarfile.LNKTYPE, "../../outside.yaml"
    members = [tarfile.TarInfo("../escape.yaml"), tarfile.TarInfo("/abs/escape.yaml"), link, hard,
               tarfile.TarInfo("bundle/pod.yaml")]
    data = {"../escape.yaml": POD_YAML, "/abs/escape.yaml": POD_YAML, "bundle/pod.yaml": POD_YAML}
    archive = tmp_path / "evil.tar"
    archive.write_bytes(_tar_with(members, data))
    before = sorted(p.name for p in tmp_path.rglob("*"))
    r = ingest(archive)
    assert keys(r) == ["core/Pod/x/a"]
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # nothing extracted anywhere
    reasons = sorted(s.reason for s in r.skipped)
    assert reasons == ["link in archive, not followed"] * 2 + ["member path leaves the archive; not read"] * 2


def test_zip_members_leaving_the_archive_and_symlinks_are_skipped(tmp_path: Path) -> None:
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("../../escape.yaml", POD_YAML)
        zf.writestr("/abs.yaml", POD_YAML)
        sym = zipfile.ZipInfo("bundle/link.yaml")
        sym.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(sym, "/etc/passwd")
        zf.writestr("bundle/pod.yaml", POD_YAML)
    r = ingest(archive)
    assert keys(r) == ["core/Pod/x/a"]
    assert sorted(s.reason for s in r.skipped) == (
        ["link in archive, not followed"] + ["member path leaves the archive; not read"] * 2)


def test_folder_symlinks_leading_outside_are_not_followed(tmp_path: Path) -> None:
    secret = tmp_path / "elsewhere"
    secret.mkdir()
    (secret / "pod.yaml").write_bytes(POD_YAML.replace(b"name: a", b"name: secret-outside"))
    dump = tmp_path / "dump"
    dump.mkdir()
    (dump / "pod.yaml").write_bytes(POD_YAML)
    (dump / "link.yaml").symlink_to(secret / "pod.yaml")
    (dump / "linked-folder").symlink_to(secret, target_is_directory=True)
    r = ingest(dump)
    assert keys(r) == ["core/Pod/x/a"]
    assert any("symlink pointing outside" in s.reason for s in r.skipped)


def test_invalid_utf8_inside_a_json_string_is_rejected_not_raised() -> None:
    # Found by mutating realdata files: a stray 0xFF inside a string of an otherwise good List.
    data = b'{"kind": "PodList", "apiVersion": "v1", "items": [{"metadata": {"name": "a\xff", "namespace": "x"}}]}'
    r = ingest(data)
    assert not r.objects and r.accounting_holds()
    assert r.object_rejections


def test_integer_past_64_bits_does_not_crash_the_lenient_conversion() -> None:
    # A YAML field of the wrong type holding an integer no JSON encoder takes.
    text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  namespace: x\nspec:\n  nodeName: 123456789012345678901234567890\n"
    r = ingest_text(text)
    assert r.accounting_holds() and r.objects_read == 1
    [pod] = r.objects  # kept, the field dropped and named
    assert pod.view.spec.nodeName is None
    assert any("spec.nodeName" in n for n in pod.notes)


def test_mutated_real_files_never_raise() -> None:
    # A small deterministic fuzz: bytes deleted, inserted (braces, markers, NULs, tags, frames,
    # log headers, tool headers) and cut, on small realdata files. Every outcome must be
    # objects or rejections, with the accounting exact.
    import random

    from conftest import REALDATA

    rng = random.Random(20240917)
    files = sorted(p for p in REALDATA.rglob("*") if p.is_file() and p.suffix in (".json", ".yaml", ".txt")
                   and p.stat().st_size < 30_000)
    inserts = [b"{", b"}", b"[", b"]", b"\n", b"---\n", b'"', b":", b"&a ", b"*a", b"\x00", b"\xff\xfe", b"- ",
               b"!!python/name:os.system", b"99999999999999999999999999", b"\t", b"? ", b"<<: ", b"|\n",
               "│".encode(), b"==== START logs for container c of pod a/b ====\n", b'{"tool_name": "x"}\n']
    for _ in range(150):
        path = rng.choice(files)
        data = bytearray(path.read_bytes())
        for _ in range(rng.randint(1, 6)):
            pos = rng.randrange(len(data)) if data else 0
            op = rng.random()
            if op < 0.3:
                del data[pos:pos + rng.randint(1, 200)]
            elif op < 0.7:
                data[pos:pos] = rng.choice(inserts)
            else:
                del data[pos:]
        r = ingest({path.relative_to(REALDATA).as_posix(): bytes(data)})
        assert r.accounting_holds(), path


def test_a_built_in_kind_under_the_core_apiversion_is_rejected_not_crashed() -> None:
    # Hand-edited: "apiVersion: v1" on a Deployment named like a kube-system component (coredns)
    # crashed component detection (its view has no spec); the API would refuse it ("no matches
    # for kind Deployment in version v1"). The Pod after it is read.
    text = (b"apiVersion: v1\nkind: Deployment\nmetadata: {name: coredns, namespace: kube-system}\n"
            b"spec:\n  template:\n    spec: {containers: [{name: c, image: coredns}]}\n---\n") + POD_YAML
    r = ingest(text)
    assert keys(r) == ["core/Pod/x/a"]
    [rej] = r.object_rejections
    assert "Deployment is not served by apiVersion v1" in rej.reason and rej.location.startswith("document 0")
    import analyzer
    assert analyzer.load({"edited.yaml": text.decode()}).distribution is not None


def test_a_cloud_clis_cluster_description_is_named_not_rejected(tmp_path) -> None:
    # `az aks show` as a user saved it (alikhawaja/aks-cli @ 1ebca12, clusterinfo.json), trimmed to
    # a few of its fields: not Kubernetes objects, but a reader should hear what it is.
    import json



    doc = {"agentPoolProfiles": [{"count": 3, "mode": "System", "name": "systempool1",
                                  "nodeImageVersion": "AKSUbuntu-2204gen2containerd-202504.28.0",
                                  "orchestratorVersion": "1.31", "vmSize": "standard_d4as_v6"}],
           "currentKubernetesVersion": "1.31.7", "dnsPrefix": "aktestweu03",
           "fqdn": "aktestweu03-pe4tng4q.hcp.westeurope.azmk8s.io", "kubernetesVersion": "1.31",
           "location": "westeurope", "name": "aks-test-weu-08",
           "type": "Microsoft.ContainerService/ManagedClusters"}
    path = tmp_path / "clusterinfo.json"
    path.write_text(json.dumps(doc, indent=2))
    r = ingest(str(path))
    assert not r.objects and not r.rejections and r.accounting_holds()
    assert [s.reason for s in r.skipped] == [
        "an AKS cluster as `az aks show` prints it, Kubernetes 1.31.7: not Kubernetes objects"]
    # `kubectl version -o json` (its shape; the version of the EKS node in Qovery/engine's payload)
    # names the server version as a bundle's version file does
    path.write_text(json.dumps({"clientVersion": {"gitVersion": "v1.30.2"},
                                "serverVersion": {"gitVersion": "v1.16.13-eks-ec92d4"}}, indent=2))
    r = ingest(str(path))
    assert r.server_version == "v1.16.13-eks-ec92d4" and not r.rejections


def test_a_configuration_file_beside_a_dump_is_named_not_rejected() -> None:
    # A kubeconfig as `kubectl config view --raw` prints it, in the shape of kubernetes/kubectl#667
    # (a user's token in place of certificates; values replaced), and kubeadm's
    # ClusterConfiguration as kubernetes/website's "Creating a cluster with kubeadm" writes it:
    # each was rejected as "Config has no metadata.name", an object of the API gone wrong.
    text = (b"apiVersion: v1\nclusters:\n- cluster:\n    server: https://10.0.0.1:6443\n  name: kubernetes\n"
            b"contexts:\n- context:\n    cluster: kubernetes\n    user: admin\n  name: admin@kubernetes\n"
            b"current-context: admin@kubernetes\nkind: Config\npreferences: {}\n"
            b"users:\n- name: admin\n  user:\n    token: 0b5c2f3e9d4a4c6b8e7f\n"
            b"---\napiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nkubernetesVersion: v1.27.3\n"
            b"---\n" + POD_YAML)
    r = ingest(text)
    assert keys(r) == ["core/Pod/x/a"] and not r.rejections and r.accounting_holds()
    assert r.objects_read == 1
    assert [(s.location, s.reason) for s in r.skipped] == [
        ("document 0, line 1", "a kubeconfig (`kubectl config view`), kind Config: a configuration file, "
                               "not Kubernetes objects"),
        ("document 1, line 19", "kubeadm's configuration, kind ClusterConfiguration: a configuration file, "
                                "not Kubernetes objects")]
    assert "0b5c2f3e9d4a4c6b8e7f" not in repr(r.skipped)


@pytest.mark.parametrize(("api_version", "kind", "served"), [
    ("apps/v1", "ReplicationController", "it is v1"),
    ("apps/v1", "Pod", "it is v1"),
    ("batch/v1", "Deployment", "it is apps/..."),
    ("networking.k8s.io/v1", "Service", "it is v1"),
])
def test_a_built_in_kind_under_another_kubernetes_group_is_rejected(api_version: str, kind: str, served: str) -> None:
    # Hand-edited as the test above (a structural fuzz of the rule cases made an apps/v1
    # ReplicationController that stopped component detection: its view had no spec).
    text = (f"apiVersion: {api_version}\nkind: {kind}\nmetadata: {{name: coredns, namespace: kube-system}}\n"
            f"spec:\n  template:\n    spec: {{containers: [{{name: c, image: coredns}}]}}\n---\n").encode() + POD_YAML
    r = ingest(text)
    assert keys(r) == ["core/Pod/x/a"]
    [rej] = r.object_rejections
    assert f"{kind} is not served by apiVersion {api_version} ({served})" in rej.reason
    import analyzer
    assert analyzer.load({"edited.yaml": text.decode()}).distribution is not None


@pytest.mark.parametrize(("api_version", "kind", "key"), [
    ("longhorn.io/v1beta2", "Node", "longhorn.io/Node/x/n"),  # a custom resource named like a built-in kind
    ("events.k8s.io/v1", "Event", "events.k8s.io/Event/x/n"),  # another group serving the kind
    ("extensions/v1beta1", "Deployment", "apps/Deployment/x/n"),
])
def test_a_built_in_kind_under_a_group_that_serves_it_or_a_custom_group_is_read(api_version: str, kind: str,
                                                                                key: str) -> None:
    text = f"apiVersion: {api_version}\nkind: {kind}\nmetadata: {{name: n, namespace: x}}\n".encode()
    r = ingest(text)
    assert keys(r) == [key] and not r.object_rejections
