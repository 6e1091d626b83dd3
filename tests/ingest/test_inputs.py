"""Inputs: folders, every archive form, nested archives, several inputs, stdin, missing paths.

The archives are built in a temporary folder from one small troubleshoot-layout bundle (the
shape of realdata kubeadm/sbctl-kurl-supportbundle: cluster-resources/<resource>/<ns>.json
lists whose items have no kind, and pods/logs/<ns>/<pod>/<container>.log).
"""

from __future__ import annotations

import gzip
import io
import json
import lzma
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from analyzer.ingest import IngestResult, ingest

BUNDLE: dict[str, bytes] = {
    "bundle/cluster-resources/pods/kube-system.json": json.dumps(
        {"kind": "PodList", "apiVersion": "v1",
         "items": [{"metadata": {"name": "coredns-1", "uid": "u-coredns"}, "spec": {"nodeName": "n1"}}]},
        indent=4).encode(),
    "bundle/cluster-resources/nodes.json": json.dumps(
        {"kind": "NodeList", "items": [{"metadata": {"name": "n1", "uid": "u-n1"}}]}, indent=4).encode(),
    "bundle/cluster-resources/pods/logs/kube-system/coredns-1/coredns.log": b"[INFO] plugin/reload\n",
    "bundle/cluster-resources/pods/logs/kube-system/coredns-1/coredns-previous.log": b"[FATAL] crash\n",
}
KEYS = ["core/Node//n1", "core/Pod/kube-system/coredns-1"]


def keys(r: IngestResult) -> list[str]:
    return sorted(o.key.id for o in r.objects)


def check_bundle(r: IngestResult) -> None:
    assert keys(r) == KEYS
    assert r.accounting_holds() and not r.rejections
    logs = sorted((g.pod, g.container, g.previous, g.text) for g in r.logs)
    assert logs == [("coredns-1", "coredns", False, "[INFO] plugin/reload\n"),
                    ("coredns-1", "coredns", True, "[FATAL] crash\n")]
    assert r.formats == ["support-bundle", "support-bundle logs"]


def tar_bytes(files: dict[str, bytes], mode: str = "w") -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=mode) as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def zip_bytes(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buf.getvalue()


def test_folder(tmp_path: Path) -> None:
    for name, data in BUNDLE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    r = ingest(tmp_path)
    check_bundle(r)
    pod = next(o for o in r.objects if o.kind == "Pod")
    assert pod.provenance.source == str(tmp_path / "bundle/cluster-resources/pods/kube-system.json")


@pytest.mark.parametrize(
    ("filename", "make"),
    [
        ("bundle.tar", lambda: tar_bytes(BUNDLE)),
        ("bundle.tar.gz", lambda: tar_bytes(BUNDLE, "w:gz")),
        ("bundle.tgz", lambda: tar_bytes(BUNDLE, "w:gz")),
        ("bundle.tar.xz", lambda: tar_bytes(BUNDLE, "w:xz")),
        ("bundle.zip", lambda: zip_bytes(BUNDLE)),
        # detected by content, not by name: a tar.gz saved without an extension
        ("support-bundle-download", lambda: tar_bytes(BUNDLE, "w:gz")),
    ],
)
def test_archives(tmp_path: Path, filename: str, make) -> None:
    path = tmp_path / filename
    path.write_bytes(make())
    r = ingest(path)
    check_bundle(r)
    pod = next(o for o in r.objects if o.kind == "Pod")
    # provenance names the archive and the member
    assert pod.provenance.source == f"{path}!/bundle/cluster-resources/pods/kube-system.json"


def test_lone_gz_file(tmp_path: Path) -> None:
    # `kubectl get pods -A -o json | gzip > pods.json.gz`
    doc = json.dumps({"kind": "List", "items": [
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a", "namespace": "x"}}]}).encode()
    path = tmp_path / "pods.json.gz"
    path.write_bytes(gzip.compress(doc))
    r = ingest(path)
    assert keys(r) == ["core/Pod/x/a"]


def test_lone_xz_yaml(tmp_path: Path) -> None:
    path = tmp_path / "pod.yaml.xz"
    path.write_bytes(lzma.compress(b"apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  namespace: x\n"))
    assert keys(ingest(path)) == ["core/Pod/x/a"]


def test_nested_archive(tmp_path: Path) -> None:
    # A customer zips the support bundle tarball to attach it to a ticket.
    inner = tar_bytes(BUNDLE, "w:gz")
    path = tmp_path / "ticket-1234.zip"
    path.write_bytes(zip_bytes({"attachments/support-bundle.tar.gz": inner}))
    r = ingest(path)
    check_bundle(r)
    pod = next(o for o in r.objects if o.kind == "Pod")
    assert pod.provenance.source == (f"{path}!/attachments/support-bundle.tar.gz"
                                     "!/bundle/cluster-resources/pods/kube-system.json")


def test_archive_nesting_is_bounded(tmp_path: Path) -> None:
    data = tar_bytes(BUNDLE, "w:gz")
    for i in range(4):
        data = zip_bytes({f"level{i}.bin": data})
    path = tmp_path / "deep.zip"
    path.write_bytes(data)
    r = ingest(path)
    assert not r.objects
    assert any("nested more than 3 deep" in x.reason for x in r.input_rejections)


def test_several_inputs_make_one_result(tmp_path: Path) -> None:
    # A bundle plus a separate `kubectl get pod -o yaml` of the same pod: one pod, one duplicate.
    bundle = tmp_path / "bundle.tgz"
    bundle.write_bytes(tar_bytes(BUNDLE, "w:gz"))
    extra = tmp_path / "coredns.yaml"
    extra.write_text("apiVersion: v1\nkind: Pod\nmetadata:\n  name: coredns-1\n  namespace: kube-system\n"
                     "  uid: u-coredns\n")
    r = ingest(bundle, extra)
    assert keys(r) == KEYS
    assert r.duplicates == 1 and r.accounting_holds()
    assert r.inputs == [str(bundle), str(extra)]


def test_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    # `kubectl get pods -o yaml | kda inspect -`
    data = b"apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  namespace: x\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    r = ingest("-")
    assert keys(r) == ["core/Pod/x/a"]
    assert r.objects[0].provenance.source == "<stdin>"


def test_stdin_archive(monkeypatch: pytest.MonkeyPatch) -> None:
    # `cat bundle.tar.gz | kda inspect -`
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(tar_bytes(BUNDLE, "w:gz"))))
    check_bundle(ingest("-"))


def test_missing_path_is_a_rejection_and_the_other_inputs_are_read(tmp_path: Path) -> None:
    good = tmp_path / "pod.yaml"
    good.write_text("apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  namespace: x\n")
    missing = tmp_path / "nope.json"
    r = ingest(missing, good)
    assert keys(r) == ["core/Pod/x/a"]
    assert [(x.source, x.reason) for x in r.input_rejections] == [(str(missing), "no such file or folder")]
    assert r.object_rejections == [] and r.accounting_holds()


def test_corrupt_archive_is_rejected_with_its_name(tmp_path: Path) -> None:
    path = tmp_path / "bundle.tar.gz"
    path.write_bytes(tar_bytes(BUNDLE, "w:gz")[:200])  # an interrupted download
    r = ingest(path)
    assert not r.objects
    [rej] = r.input_rejections
    assert rej.source == str(path) and "corrupt gzip data" in rej.reason


def test_truncated_tar_keeps_the_members_before_the_cut(tmp_path: Path) -> None:
    files = dict(BUNDLE)
    files["bundle/zz-padding.bin"] = b"x" * 200_000
    data = tar_bytes(files)
    path = tmp_path / "bundle.tar"
    path.write_bytes(data[: len(data) - 100_000])
    r = ingest(path)
    assert keys(r) == KEYS
    assert any("truncated or corrupt" in s.reason for s in r.skipped)


def test_cluster_info_output_directory_logs(tmp_path: Path) -> None:
    # `kubectl cluster-info dump --output-directory`: <ns>/pods.json and <ns>/<pod>/logs.txt
    (tmp_path / "kube-system" / "etcd-m1").mkdir(parents=True)
    (tmp_path / "kube-system" / "pods.json").write_text(json.dumps(
        {"kind": "PodList", "items": [{"metadata": {"name": "etcd-m1", "namespace": "kube-system"}}]}, indent=4))
    (tmp_path / "kube-system" / "etcd-m1" / "logs.txt").write_text(
        "==== START logs for container etcd of pod kube-system/etcd-m1 ====\n"
        "2024-01-01 ready to serve\n"
        "==== END logs for container etcd of pod kube-system/etcd-m1 ====\n")
    r = ingest(tmp_path)
    assert keys(r) == ["core/Pod/kube-system/etcd-m1"]
    [log] = r.logs
    assert (log.namespace, log.pod, log.container, log.text) == ("kube-system", "etcd-m1", "etcd", "2024-01-01 ready to serve\n")


def test_must_gather_current_log(tmp_path: Path) -> None:
    # must-gather: namespaces/<ns>/pods/<pod>/<container>/<container>/logs/current.log
    log_path = tmp_path / "namespaces/openshift-dns/pods/dns-1/dns/dns/logs/current.log"
    log_path.parent.mkdir(parents=True)
    log_path.write_text("2024-01-01T00:00:00Z started\n")
    previous = log_path.with_name("previous.log")
    previous.write_text("2023-12-31T00:00:00Z OOM\n")
    r = ingest(tmp_path)
    got = sorted((g.namespace, g.pod, g.container, g.previous) for g in r.logs)
    assert got == [("openshift-dns", "dns-1", "dns", False), ("openshift-dns", "dns-1", "dns", True)]


def test_cluster_info_stdout_log_blocks() -> None:
    # `kubectl cluster-info dump` to stdout: JSON lists and log blocks interleaved.
    text = (json.dumps({"kind": "PodList", "items": [{"metadata": {"name": "p", "namespace": "ns"}}]}, indent=4)
            + "\n==== START logs for container c of pod ns/p ====\nhello\n"
            "==== END logs for container c of pod ns/p ====\n"
            + json.dumps({"kind": "ServiceList", "items": [{"metadata": {"name": "s", "namespace": "ns"}}]}, indent=4)
            + "\n")
    r = ingest(text.encode())
    assert keys(r) == ["core/Pod/ns/p", "core/Service/ns/s"]
    assert [(g.pod, g.container, g.text) for g in r.logs] == [("p", "c", "hello\n")]
    assert r.formats == ["cluster-info-dump"]
    assert r.covers("Service") and not r.covers("ConfigMap")


def test_process_substitution_pipe_is_read_whole(tmp_path: Path) -> None:
    # `kda inspect <(kubectl get pod a -o yaml)` hands over /dev/fd/N, a pipe readable once.
    import os
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    payload = b"apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  namespace: x\n" + b"# padding\n" * 200

    def writer() -> None:
        with open(fifo, "wb") as f:
            f.write(payload)

    thread = threading.Thread(target=writer)
    thread.start()
    r = ingest(fifo)
    thread.join(timeout=10)
    assert keys(r) == ["core/Pod/x/a"]


def test_fifo_inside_a_folder_is_skipped_not_read(tmp_path: Path) -> None:
    import os

    (tmp_path / "pod.yaml").write_text("apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  namespace: x\n")
    os.mkfifo(tmp_path / "stuck")  # nobody writes: reading it would block forever
    r = ingest(tmp_path)
    assert keys(r) == ["core/Pod/x/a"]
    assert any(s.reason == "not a regular file, not read" for s in r.skipped)


# chenjinkai/k8slogs @ 7fd8db6, k8slogs-bak.zip: a `kind export logs` folder zipped with the git
# repository it had been committed to, .git/ and all (here its HEAD, a hook and an object): kda
# rejected each of the 60 .git files as "not a Kubernetes dump" or "binary data".
KIND_EXPORT_IN_A_REPO = {
    "k8slogs-bak/README.md": b"# k8slogs\n",
    "k8slogs-bak/.git/HEAD": b"ref: refs/heads/main\n",
    "k8slogs-bak/.git/hooks/pre-commit.sample": b"#!/bin/sh\n#\n# An example hook script\n",
    "k8slogs-bak/.git/objects/22/78026996b407d41baeca845342128b9e5c7aee": b"x\x01K\xca\xc9OR0\x00",
    "k8slogs-bak/local-control-plane/pods/local-path-storage_local-path-provisioner-547f784dff-8zg64_"
    "c3c09ea0-6a94-4eaf-89a4-68672125188d/local-path-provisioner/0.log":
        b"2021-05-26T01:56:03.101418283Z stderr F I0526 01:56:03.101086       1 controller.go:773] "
        b"Starting provisioner controller rancher.io/local-path_local-path-provisioner-547f784dff-8zg64\n",
}


@pytest.mark.parametrize("make", [lambda: zip_bytes(KIND_EXPORT_IN_A_REPO), lambda: tar_bytes(KIND_EXPORT_IN_A_REPO)])
def test_a_version_control_folder_is_named_once_never_read(tmp_path: Path, make) -> None:
    (tmp_path / "archive").write_bytes(make())
    (tmp_path / "folder").mkdir()
    for name, data in KIND_EXPORT_IN_A_REPO.items():
        (tmp_path / "folder" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "folder" / name).write_bytes(data)
    for r, root in ((ingest(tmp_path / "archive"), f"{tmp_path}/archive!/"), (ingest(tmp_path / "folder"), f"{tmp_path}/folder/")):
        assert not r.rejections and r.accounting_holds()
        assert [(s.source, s.reason) for s in r.skipped if ".git" in s.source] == [(
            f"{root}k8slogs-bak/.git",
            "a version-control folder (the repository's own metadata), not part of the dump; not read")]
        assert [(g.namespace, g.pod, g.container) for g in r.logs] == [
            ("local-path-storage", "local-path-provisioner-547f784dff-8zg64", "local-path-provisioner")]
