"""rancherlabs/support-tools rancher2_logs_collector.sh output: a node's tree of kubectl text
files, pod logs named `<namespace>-<pod>`, and the node's own state.

The fixture tests/ingest/data/rancher2-logs-collector/ is trimmed from the RKE2 bundle in
Rancheroo/r8s @ ff98879, example-log-bundle/w-guard-wg-cp-svtk6-lqtxw-2025-12-04_09_15_57 (v1.32.7+rke2r1,
one server and three agents, 2025-12-04): a few rows of rke2/kubectl/pods, the nodes, the files
kubectl wrote only its message to (pvc, nodesdescribe, version), the networkpolicies table, three pod logs and two
`-previous` ones (kubectl's error where no container restarted), the etcd static pod
manifest (trimmed), a crictl listing, the kubelet's gzipped log (its first eight lines and its
last two: RKE2's kubelet logs to agent-logs/, not to the journal), and a file each of
systeminfo/, networking/, etcd/ and journald/.
"""

from __future__ import annotations

from pathlib import Path

from analyzer.ingest import ingest

DATA = Path(__file__).parent / "data" / "rancher2-logs-collector"
ROOT = "w-guard-wg-cp-svtk6-lqtxw-2025-12-04_09_15_57/"


def _skipped(r) -> dict[str, str]:
    return {s.source.split(ROOT, 1)[1]: s.reason for s in r.skipped if ROOT in s.source}


def test_every_file_of_the_collector_is_read_or_passed_over_with_its_reason() -> None:
    r = ingest(str(DATA))
    assert r.accounting_holds()
    assert not r.rejections, r.rejections
    assert r.server_version == "v1.32.7+rke2r1"
    skipped = _skipped(r)
    for path, words in {
        "systeminfo/hostname": "the node's own facts",
        "networking/iprule": "the node's network state",
        "etcd/memberlist": "etcdctl output",
        "journald/cloud-init": "journal and syslog",
        "rke2/crictl/pods": "container runtime",
        "rke2/agent-logs/kubelet-2025-12-02T13-58-40.483.log.gz":
            "5 line(s) read as the kubelet journal of node w-guard-wg-cp-svtk6-lqtxw, no objects; 5 other",
        "rke2/version": "the distribution's version",
        "rke2/kubectl/pvc": "no PersistentVolumeClaim in the cluster",
        "rke2/kubectl/nodesdescribe": "kubectl's error, no objects: Error from server (Forbidden)",
        "rke2/kubectl/version": "`kubectl version` output",
    }.items():
        assert words in skipped[path], (path, skipped.get(path))
    # an empty listing is a listing: the kind was collected, none exists
    assert "PersistentVolumeClaim" in r.collected_kinds
    # a table of a kind kda reads no rows of (networkpolicies): there, not "not collected"
    assert "NetworkPolicy" in r.coverage_unreadable and "NetworkPolicy" not in r.coverage_absent


def test_the_collectors_date_is_the_capture_time() -> None:
    r = ingest(str(DATA))
    assert r.capture_time is not None
    assert r.capture_time.isoformat().startswith("2025-12-04T09:15:58")


def test_pod_logs_named_namespace_dash_pod_go_with_their_pods() -> None:
    r = ingest(str(DATA))
    assert sorted((g.namespace, g.pod, g.previous) for g in r.logs) == [
        ("calico-system", "calico-node-j2sxg", False),
        ("kube-system", "etcd-w-guard-wg-cp-svtk6-lqtxw", False),
    ]
    skipped = _skipped(r)
    # `kubectl logs --previous` of a container that never restarted: its error, not a log
    assert skipped["rke2/podlogs/calico-system-calico-node-j2sxg-previous"].startswith(
        "kubectl's error instead of a log: Error from server (BadRequest)")
    # a pod the trimmed listing does not hold: named, not guessed
    assert "no pod of the dump" in skipped["rke2/podlogs/tigera-operator-tigera-operator-fcbdc5c89-f5gml"]


def test_a_static_pod_manifest_beside_its_mirror_pod_is_not_a_second_pod() -> None:
    r = ingest(str(DATA))
    pods = sorted(o.name for o in r.objects if o.kind == "Pod")
    assert pods == ["calico-node-j2sxg", "etcd-w-guard-wg-cp-svtk6-lqtxw", "test-notready"]
    reason = _skipped(r)["rke2/pod-manifests/etcd.yaml"]
    assert "static pod manifest" in reason and "kube-system/etcd-w-guard-wg-cp-svtk6-lqtxw" in reason
    # the mirror pod, a row of `kubectl get pods -o wide`, takes its containers from the manifest
    # (served to kubectl, `kubectl logs` of it found no container: kubectl panicked)
    [etcd] = [o for o in r.objects if o.name.startswith("etcd-")]
    spec = etcd.view.spec
    assert [(c.name, c.image) for c in spec.containers] == [
        ("etcd", "index.docker.io/rancher/hardened-etcd:v3.5.21-k3s1-build20250612")]
    assert spec.nodeName == "w-guard-wg-cp-svtk6-lqtxw" and spec.hostNetwork
    assert etcd.view.metadata.labels == {"component": "etcd", "tier": "control-plane"}
    assert etcd.view.text is not None and etcd.view.text.ready == "1/1"  # the row's own facts kept
    assert any(n.startswith("spec from the static pod manifest") for n in etcd.notes)


def test_a_static_pod_manifest_alone_is_kept(tmp_path: Path) -> None:
    # the same manifest without the cluster's listing: the only record of that pod
    manifest = DATA / ROOT / "rke2/pod-manifests/etcd.yaml"
    (tmp_path / "etcd.yaml").write_bytes(manifest.read_bytes())
    r = ingest(str(tmp_path))
    assert [o.name for o in r.objects] == ["etcd"]


def test_the_collectors_archive_reads_as_its_folder(tmp_path: Path) -> None:
    # archive() of the script: `tar --create --directory TMPDIR .` then gzip: members `./rke2/...`
    import tarfile

    archive = tmp_path / "w-guard-wg-cp-svtk6-lqtxw-2025-12-04_09_15_57.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(DATA / ROOT, arcname=".")
    folder, packed = ingest(str(DATA)), ingest(str(archive))
    assert packed.accounting_holds() and not packed.rejections
    assert sorted(o.key.id for o in packed.objects) == sorted(o.key.id for o in folder.objects)
    assert sorted((g.namespace, g.pod) for g in packed.logs) == sorted((g.namespace, g.pod) for g in folder.logs)
    assert packed.capture_time == folder.capture_time
    # the archive is named by the node, as the folder was: the kubelet's own log is its journal
    assert [(j.host, j.unit, j.message) for j in packed.node_journal] == \
        [(j.host, j.unit, j.message) for j in folder.node_journal] != []


def test_the_kubelets_own_log_is_the_nodes_kubelet_journal(tmp_path: Path) -> None:
    # RKE2's agent writes the kubelet's klog lines to agent-logs/kubelet.log (rotated to
    # kubelet-<time>.log.gz), never to the journal (rancherlabs/support-tools#119): before, both
    # were passed over as "component logs", so node-kubelet-failing and `kda logs node/NAME` had
    # no kubelet line of an RKE2 node. klog prints neither year nor zone: the year is the
    # collection's (2025-12-04), the zone stays unsaid.
    import shutil

    tree = tmp_path / "bundle"
    shutil.copytree(DATA, tree)
    logs = tree / ROOT / "rke2" / "agent-logs"
    # the live log beside the rotated one (this bundle's was not published): the kubelet
    # failing as kubernetes/kubelet#9 quotes its klog line (kubeadm, v1.18.0), as RKE2 writes it
    (logs / "kubelet.log").write_text(
        'I0405 05:33:40.480106    4759 server.go:417] Version: v1.18.0\n'
        'F0405 05:33:40.511159    4759 server.go:274] failed to run Kubelet: misconfiguration: kubelet cgroup '
        'driver: "cgroupfs" is different from docker cgroup driver: "systemd"\n')
    r = ingest(str(tree))
    assert r.accounting_holds() and not r.rejections, r.rejections
    kubelet = [j for j in r.node_journal if j.unit == "kubelet"]
    assert {j.host for j in kubelet} == {"w-guard-wg-cp-svtk6-lqtxw"}
    rotated = [j for j in kubelet if j.source.endswith(".log.gz")]
    assert [(j.line, j.when) for j in rotated[:1]] == [(6, "Nov 20 00:44:40 2025 (time zone not printed)")]
    assert rotated[-1].message.startswith('E1202 13:58:39.480936    8869 dns.go:153] "Nameserver limits exceeded"')

    # `kda logs node/NAME` prints them as the file holds them (no journal's prefix)
    import subprocess
    import sys

    printed = subprocess.run([sys.executable, "-m", "analyzer", "logs", str(tree), "node/w-guard-wg-cp-svtk6-lqtxw",
                              "-c", "kubelet", "--tail", "1"], capture_output=True, text=True, timeout=120, check=True)
    assert printed.stdout.startswith("F0405 05:33:40.511159    4759 server.go:274] failed to run Kubelet")

    import analyzer

    findings = analyzer.load(str(tree)).findings
    failing = findings[(findings.rule == "node-kubelet-failing") & (findings.status == "fail")]
    assert list(failing.name) == ["w-guard-wg-cp-svtk6-lqtxw"]
    assert "cgroup driver" in failing.iloc[0].message


def test_a_renamed_collector_folder_names_its_node_by_its_systeminfo(tmp_path: Path) -> None:
    # The bundle saved under another name (a ticket's attachment `node3-bundle/`, an archive
    # `logs.tgz`): no `<hostname>-<date>` left to name the node, so RKE2's kubelet log was passed
    # over as a component log; the collector's systeminfo/hostname names it, systeminfo/date the year.
    import shutil
    import tarfile

    folder = tmp_path / "node3-bundle"
    shutil.copytree(DATA / ROOT, folder)
    archive = tmp_path / "logs.tgz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(folder, arcname=".")
    original = [(j.host, j.unit, j.when, j.message) for j in ingest(str(DATA)).node_journal if j.unit == "kubelet"]
    assert original
    for renamed in (folder, archive):
        r = ingest(str(renamed))
        assert r.accounting_holds() and not r.rejections
        assert [(j.host, j.unit, j.when, j.message) for j in r.node_journal if j.unit == "kubelet"] == original

    # without a file that names the node, the log is passed over saying why
    (folder / "systeminfo" / "hostname").unlink()
    r = ingest(str(folder))
    assert not [j for j in r.node_journal if j.unit == "kubelet"]
    [said] = [s.reason for s in r.skipped if "agent-logs/kubelet-" in s.source and "own log" in s.reason]
    assert said.startswith("the kubelet's own log, but neither its folder's name nor a systeminfo/hostname")
