"""OpenShift must-gathers as `oc adm must-gather` writes them whole: beside namespaces/ and
cluster-scoped-resources/, the files its gather scripts leave (timestamp, version, etcd_info,
host_service_logs, ingress_controllers, monitoring, the API server's priority-and-fairness
dumps) and a node gather's nodes/<node>/ folders.

Fixtures, trimmed copies:
- tests/ingest/data/must-gather-aws/ from openshift/must-gather-clean @ cb2f7e580bde
  test/files/must-gather-aws.tar.xz (OpenShift 4.8 on AWS, 2021-08-03): both timestamp files,
  version, two etcd_info files, a node, an APIRequestCount and a MachineConfigPool from
  cluster-scoped-resources/, the kube-scheduler static pod with its
  recovery controller's current and previous log (first lines) and empty previous.insecure.log,
  the first lines of a host service log, a router's haproxy.config and an APF queues dump, and
  monitoring/alerts.json cut to one rule.
- tests/ingest/data/must-gather-node-gather/ from RedHatQE/must-gather-explorer @ 4269b73f490f
  must_gather_explorer/tests/manifests/must-gather-data/data (an OpenShift Virtualization
  must-gather, 2024-12-01): one pod's own file and one node's nodes/<node>/ folder, its JSON
  lists cut to their first items, the kubelet journal to three lines, sysinfo.tgz re-packed
  with machineinfo.json, proc/cmdline and one of its /sys links.
- tests/ingest/data/must-gather-ovn/ from p0lyn0mial/multi-operator-manager @ 50cd1a747cdc
  must-gather/ (an OpenShift 4.18 CI cluster on OVN-Kubernetes, 2024-10-24): the first and last
  lines of timestamp and gather.logs, network_logs/ (cluster_scale, multi-networkpolicy, and
  ovnk_database_store.tar.gz re-packed with two records of one node's nbdb), the first lines of
  a kube-apiserver termination log, a node's podresources.json cut to one pod, and the
  AlertmanagerConfig CRD cut to the schema of its matchType enum. kda rejected 17,875 OVSDB
  records as objects without a kind, and the CRD whole: "could not determine a constructor for
  the tag 'tag:yaml.org,2002:value'" (its plain `=`).
"""

from __future__ import annotations

from pathlib import Path

from analyzer.ingest import ingest

DATA = Path(__file__).parent / "data"
GATHER = "quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85cbd33388f7e18954e5ce8ad9616e91df05ace604966c0a44111d85c897/"


def _skipped(r, root: str) -> dict[str, str]:
    return {s.source.split(root, 1)[1]: s.reason for s in r.skipped if root in s.source}


def test_every_file_beside_the_objects_is_passed_over_with_what_it_holds() -> None:
    r = ingest(str(DATA / "must-gather-aws"))
    assert r.accounting_holds()
    assert not r.rejections, r.rejections
    skipped = _skipped(r, GATHER)
    for path, words in {
        "version": "the collector's own name and version",
        "timestamp": "start and end times",
        "etcd_info/member_list.json": "etcdctl output",
        "etcd_info/endpoint_health.json": "etcdctl output",
        "host_service_logs/masters/kubelet_service.log": "a host service's journal",
        "ingress_controllers/default/router-default-6dd4c95495-7dqkw/haproxy.config": "HAProxy configuration",
        "monitoring/alerts.json": "Prometheus and Alertmanager",
        "namespaces/openshift-kube-apiserver/pods/kube-apiserver-ip-10-0-187-218.ec2.internal/kube-apiserver/"
        "kube-apiserver/api_priority_and_fairness/queues": "priority-and-fairness",
    }.items():
        assert words in skipped[path], (path, skipped.get(path))
    assert sorted(o.kind for o in r.objects) == ["APIRequestCount", "MachineConfigPool", "Node", "Pod"]


def test_objects_under_cluster_scoped_resources_state_no_namespace_rightly() -> None:
    # APIRequestCount and MachineConfigPool: kinds whose scope kda does not know, kept in
    # cluster-scoped-resources/: no "namespace not stated by the dump" note on each
    r = ingest(str(DATA / "must-gather-aws"))
    kept = {o.kind: o for o in r.objects}
    assert kept["APIRequestCount"].namespace == "" and kept["MachineConfigPool"].namespace == ""
    assert r.object_notes == []


def test_the_timestamp_files_newest_line_is_the_capture_time() -> None:
    # the outer timestamp (oc's own, in CEST) ends at 12:14:13+02:00, after the gather
    # scripts' last line (10:13:47Z) and the newest node heartbeat (10:12:39Z)
    r = ingest(str(DATA / "must-gather-aws"))
    assert r.capture_time is not None and r.capture_time.isoformat() == "2021-08-03T10:14:13+00:00"
    capture = r.capture
    assert capture.signal == "bundle metadata"
    assert capture.where.endswith("must-gather-aws/timestamp") and GATHER not in capture.where


def test_the_static_pods_logs_go_to_its_containers_previous_as_previous() -> None:
    r = ingest(str(DATA / "must-gather-aws"))
    assert sorted((g.namespace, g.pod, g.container, g.previous) for g in r.logs) == [
        ("openshift-kube-scheduler", "openshift-kube-scheduler-ip-10-0-189-142.ec2.internal",
         "kube-scheduler-recovery-controller", False),
        ("openshift-kube-scheduler", "openshift-kube-scheduler-ip-10-0-189-142.ec2.internal",
         "kube-scheduler-recovery-controller", True),
    ]


def test_a_node_gathers_files_and_archive_are_passed_over_whole() -> None:
    r = ingest(str(DATA / "must-gather-node-gather"))
    assert r.accounting_holds()
    assert not r.rejections, r.rejections
    node = "data/nodes/qemtv-05-s8dvn-master-0/"
    skipped = _skipped(r, node)
    assert sorted(skipped) == sorted([
        "cpu_affinities.json", "ethtool_channels", "irq_affinities.json", "lscpu", "pods_info.json",
        "proc_cmdline", "qemtv-05-s8dvn-master-0_logs_kubelet.gz", "sysinfo.tgz"])
    assert all(reason.startswith("a node's own state") for reason in skipped.values())
    # the sysinfo archive is one entry: none of its members (/proc, /sys links) is listed
    assert not any("sysinfo.tgz!" in s.source for s in r.skipped)
    assert [(o.kind, o.name) for o in r.objects] == [("Pod", "csi-nfs-node-ktfpc")]


def test_a_version_file_of_kubectl_version_is_read_for_the_server_version(tmp_path: Path) -> None:
    # must-gather's `version` holds its image's name; a collector that saves `kubectl version`
    # as `version` (the text of rancher2_logs_collector's kubectl/version, tests/ingest/data/
    # rancher2-logs-collector) still gives the server version
    rancher = next((DATA / "rancher2-logs-collector").glob("*/rke2/kubectl/version"))
    (tmp_path / "version").write_bytes(rancher.read_bytes())
    r = ingest(str(tmp_path))
    assert r.server_version == "v1.32.7+rke2r1"
    assert not r.rejections
    must_gather = ingest(str(DATA / "must-gather-aws"))
    assert must_gather.server_version is None  # "openshift/must-gather / 4.0-art-dev" is no server's


def test_a_nodes_folder_of_kubectl_text_is_read_not_passed_over(tmp_path: Path) -> None:
    # only the node gathers' own files are passed over by name: a describe saved under
    # nodes/<node>/ (realdata gke/cryptnono-issue-34's excerpt) is a Node
    from conftest import REALDATA

    (tmp_path / "nodes" / "n1").mkdir(parents=True)
    describe = REALDATA / "gke" / "cryptnono-issue-34" / "describe-node-excerpt.txt"
    (tmp_path / "nodes" / "n1" / "describe.txt").write_bytes(describe.read_bytes())
    r = ingest(str(tmp_path))
    assert [o.kind for o in r.objects] == ["Node"]


def test_a_must_gathers_network_logs_are_passed_over_and_a_plain_equals_sign_is_a_string() -> None:
    r = ingest(str(DATA / "must-gather-ovn"))
    assert r.accounting_holds()
    assert not r.rejections, r.rejections
    skipped = _skipped(r, "must-gather-ovn/must-gather/")
    for path, words in {
        "network_logs/ovnk_database_store.tar.gz": "the nodes' OVN databases",
        "network_logs/cluster_scale": "object counts",
        "network_logs/multi-networkpolicy": "kubectl's error",
        "static-pods/kube-apiserver/ci-op-2fcpj5j6-f6035-2lklf-master-0-termination.log.gz": "termination log",
        "nodes/ci-op-2fcpj5j6-f6035-2lklf-master-0/podresources.json": "a node's own state",
        "gather.logs": "the must-gather's own log",
    }.items():
        assert words in skipped[path], (path, skipped.get(path))
    (crd,) = r.objects
    schema = crd.body()["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    rule = schema["properties"]["spec"]["properties"]["inhibitRules"]["items"]
    assert rule["properties"]["sourceMatch"]["items"]["properties"]["matchType"]["enum"] == ["!=", "=", "=~", "!~"]
