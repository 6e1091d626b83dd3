"""A node's kubelet log folders beside a dump (`kind export logs`): pods/<ns>_<pod>_<uid>/<container>/
<restart>.log and the containers/<pod>_<ns>_<container>-<id>.log links to them.

Trimmed from clineberry/keycloak-in-kind-stuff @ b37dd9e722f1c6d94ebace19ed1bd7b4f25f2aef:
cluster-info-dump.json (kubectl cluster-info dump of kind cluster local-test, 2022-11-23) and
logs/ (`kind export logs` of a cluster of the same name made again, 2022-11-29), cut to the etcd
static pod and a CoreDNS pod, two lines of each log. The etcd static pod has the same config hash
in both (its manifest did not change), but the kind logs hold another run of it; the CoreDNS pod
of the logs is not in the dump. kda read logs/<node>/containers/ as support-bundle-kit's
logs/<ns>/<pod>/<container>.log (Pod local-test-control-plane/containers, a pod-log-errors
finding on it) and skipped pods/ as plain text.
"""

from __future__ import annotations

import json

import analyzer
from analyzer.ingest import ingest
from analyzer.ingest.layouts import NodeLogHint
from analyzer.ingest.nodelogs import ContainerRuns, NodeLogFile, PodRuns, resolve

ETCD_ID = "90fdab5bdd212b69dc526ee92e1cc96c165aa96dbcdf23ba0a4e2c1434ad74cd"
ETCD = {"metadata": {"name": "etcd-local-test-control-plane", "namespace": "kube-system",
                     "uid": "6f8ce05a-c945-4757-805b-e6aa843c55b3",
                     "annotations": {"kubernetes.io/config.hash": "38021711ff50abd4f17793a0dbc0ca2b",
                                     "kubernetes.io/config.mirror": "38021711ff50abd4f17793a0dbc0ca2b"}},
        "spec": {"nodeName": "local-test-control-plane", "containers": [{"name": "etcd", "image": "k8s.gcr.io/etcd:3.5.3-0"}]},
        "status": {"phase": "Running", "containerStatuses": [
            {"name": "etcd", "ready": True, "restartCount": 0, "containerID": f"containerd://{ETCD_ID}",
             "state": {"running": {"startedAt": "2022-11-23T22:35:34Z"}}}]}}
DUMP_ETCD_LOG = ('{"level":"warn","ts":"2022-11-23T22:35:34.954Z","caller":"flags/flag.go:93","msg":"unrecognized '
                 'environment variable","environment-variable":"ETCD_UNSUPPORTED_ARCH=arm64"}\n')
KIND_ETCD_LOG = (b'2022-11-29T20:55:24.09691747Z stderr F {"level":"warn","ts":"2022-11-29T20:55:24.096Z","caller":'
                 b'"flags/flag.go:93","msg":"unrecognized environment variable","environment-variable":'
                 b'"ETCD_UNSUPPORTED_ARCH=arm64"}\n')
KIND_COREDNS_LOG = (b"2022-11-29T20:55:50.434917358Z stdout F .:53\n"
                    b"2022-11-29T20:55:50.435078483Z stdout F [INFO] plugin/reload: Running configuration MD5 = "
                    b"db32ca3650231d74073ff4cf814959a7\n")
NODE = "dump/logs/local-test-control-plane"
KIND_ETCD = f"{NODE}/pods/kube-system_etcd-local-test-control-plane_38021711ff50abd4f17793a0dbc0ca2b/etcd/0.log"
KIND_COREDNS = f"{NODE}/pods/kube-system_coredns-6d4b75cb6d-gr6m2_683487a2-06cc-425d-bdb6-81183c881bef/coredns/0.log"


def _dump() -> dict[str, bytes]:
    pods = json.dumps({"kind": "PodList", "apiVersion": "v1", "metadata": {}, "items": [ETCD]}, indent=4)
    text = (f"{pods}\n==== START logs for container etcd of pod kube-system/etcd-local-test-control-plane ====\n"
            f"{DUMP_ETCD_LOG}==== END logs for container etcd of pod kube-system/etcd-local-test-control-plane ====\n")
    return {
        "dump/cluster-info-dump.json": text.encode(),
        KIND_ETCD: KIND_ETCD_LOG,
        f"{NODE}/containers/etcd-local-test-control-plane_kube-system_etcd-"
        "843f54709d0f9369fa64e3b527eaa653213182cf1c5b17235ea7acf72c7335bf.log": KIND_ETCD_LOG,
        KIND_COREDNS: KIND_COREDNS_LOG,
        f"{NODE}/containers/coredns-6d4b75cb6d-gr6m2_kube-system_coredns-"
        "a3644a3a83f8aa13b5d8dcebcca9c815d4bb1ab6c0d506d93b2f5596a05f9f98.log": KIND_COREDNS_LOG,
    }


def test_kind_export_logs_are_read_by_pod_and_container_never_as_a_namespace_named_after_the_node() -> None:
    r = ingest(_dump())
    logs = sorted((g.namespace, g.pod, g.container, g.previous, g.source.rsplit("/", 1)[-1]) for g in r.logs)
    assert logs == [("kube-system", "coredns-6d4b75cb6d-gr6m2", "coredns", False, "0.log"),
                    ("kube-system", "etcd-local-test-control-plane", "etcd", False, "cluster-info-dump.json")]
    assert r.accounting_holds() and not r.rejections
    # the etcd the dump shows runs as 90fdab5bdd212...; the kind logs hold a later run, 843f54709d0f9...
    reasons = {s.source.split("!/", 1)[-1]: s.reason for s in r.skipped}
    etcd = reasons[KIND_ETCD]
    assert etcd == ("the log of container etcd's run 843f54709d0f9, which is neither the run the dump shows "
                    "(90fdab5bdd212) nor its previous one: not read as its log")
    links = sorted(why.split("!/", 1)[-1] for path, why in reasons.items() if path.startswith(f"{NODE}/containers/"))
    assert links == [f"{path} (/var/log/containers links to /var/log/pods): the same log, accounted for there"
                     for path in (KIND_COREDNS, KIND_ETCD)]


def _file(name: str, restart: int | None = None, uid: str | None = "u1", cid: str | None = None) -> NodeLogFile:
    return NodeLogFile(name, NodeLogHint("kubelet-logs", "kube-system", "etcd-1", "etcd", uid, restart, cid), name.encode())


def test_runs_are_told_apart_by_the_pods_restart_count_and_uid() -> None:
    """The dump's pod restarted twice: 2.log is its log, 1.log the previous, 0.log older, and a
    pod of the same name under another uid is not it."""
    runs = PodRuns(frozenset({"u1"}), {"etcd": ContainerRuns(None, None, 2)})
    verdicts = {v.file.display: (v.previous, v.why) for v in resolve(
        [_file("0", 0), _file("1", 1), _file("2", 2), _file("other", 2, uid="u9")], {("kube-system", "etcd-1"): runs})}
    assert verdicts["2"] == (False, None) and verdicts["1"] == (True, None)
    assert verdicts["0"][1] == ("the log of container etcd's run 0, older than the previous run of the one the dump "
                                "shows (restart 2): not read as its log")
    assert verdicts["other"][1].startswith("the log of another pod named kube-system/etcd-1 (uid u9; ")


def test_runs_of_a_pod_the_dump_lacks_are_the_latest_and_the_one_before() -> None:
    verdicts = {v.file.display: (v.previous, v.why is None) for v in resolve(
        [_file("3", 3), _file("5", 5), _file("4", 4)], {})}
    assert verdicts == {"5": (False, True), "4": (True, True), "3": (False, False)}


# chenjinkai/k8slogs @ 7fd8db6d7cca21fd5c3dcb1073070885315c4a64, k8slogs-bak.zip: a `kind export
# logs` of kind cluster "local" (v1.20), nothing else; trimmed to the kube-scheduler's log
# (its start-up, its RBAC refusals before its informers synced, and its last lines: 01:55) and
# kindnet's last lines (05:58, the newest line of the export). kda dated nothing ("capture time
# unknown") and called the scheduler's start-up refusals a warning "still coming at capture".
SCHEDULER_LOG = (
    b"2021-05-26T01:55:24.492589599Z stderr F I0526 01:55:24.492391       1 serving.go:331] Generated self-signed cert in-memory\n"
    + b"".join(b"2021-05-26T01:55:38.%09dZ stderr F E0526 01:55:38.%06d       1 reflector.go:138] k8s.io/client-go/informers/"
               b"factory.go:134: Failed to watch *v1.%s: failed to list *v1.%s: %s is forbidden: User \"system:kube-scheduler\" "
               b"cannot list resource \"%s\" in API group \"\" at the cluster scope\n" % (n, n // 1000, k, k, r, r)
               for n, k, r in ((201513559, b"Pod", b"pods"), (412122626, b"PersistentVolume", b"persistentvolumes"),
                               (426541878, b"Node", b"nodes")))
    + b"2021-05-26T01:55:41.198859926Z stderr F I0526 01:55:41.198484       1 leaderelection.go:243] attempting to acquire "
      b"leader lease kube-system/kube-scheduler...\n"
    b"2021-05-26T01:55:41.207096066Z stderr F I0526 01:55:41.206816       1 leaderelection.go:253] successfully acquired "
    b"lease kube-system/kube-scheduler\n")
KINDNET_LOG = (b"2021-05-26T05:58:06.313127024Z stderr F I0526 05:58:06.312975       1 main.go:223] Handling node with IPs: "
               b"map[172.18.0.2:{}]\n"
               b"2021-05-26T05:58:06.313201977Z stderr F I0526 05:58:06.313009       1 main.go:227] handling current node\n")


def test_a_node_log_export_alone_is_dated_by_its_newest_runtime_line_and_start_up_lines_are_history() -> None:
    node = "k8slogs-bak/local-control-plane/pods"
    cluster = analyzer.load({
        f"{node}/kube-system_kube-scheduler-local-control-plane_4cbf5050a941ea6d3b654edb8022d1d6/kube-scheduler/0.log": SCHEDULER_LOG,
        f"{node}/kube-system_kindnet-2zhgq_26760765-3bea-42da-83c9-04e2c8050fa4/kindnet-cni/0.log": KINDNET_LOG,
    })
    assert cluster.capture.describe() == ("2021-05-26T05:58:06Z (container log line, low confidence); "
                                          "the capture came then or later")
    assert cluster.capture.where == "the last line of kube-system/kindnet-2zhgq container kindnet-cni's log"
    found = cluster.findings
    rbac = found[(found["rule"] == "pod-log-errors") & (found["status"] != "not_applicable")]
    assert list(rbac["severity"]) == ["info"] and "(history: start-up" in rbac["message"].iloc[0]


def test_a_kind_exports_own_files_are_named_and_its_nodes_kubernetes_version_read() -> None:
    """The rest of k8slogs-bak.zip, trimmed: kind's version, a node's `docker inspect` (a JSON
    list kda rejected as an object without a kind), its Kubernetes version and kubelet journal."""
    node = "k8slogs-bak/local-control-plane"
    r = ingest({
        "k8slogs-bak/kind-version.txt": b"kind v0.11.0 go1.16.4 windows/amd64\n",
        f"{node}/inspect.json": b'[\n    {\n        "Id": "6588e3f7b68f5044d34bc5c7535a4f61d5a7186697b2c827bb1956599b6ba7ab",\n'
                                b'        "Created": "2021-05-26T01:54:53.063642754Z",\n        "Path": "/usr/local/bin/entrypoint"\n    }\n]\n',
        f"{node}/kubernetes-version.txt": b"v1.20.7",
        f"{node}/kubelet.log": b"-- Logs begin at Wed 2021-05-26 01:54:58 UTC, end at Wed 2021-05-26 05:55:49 UTC. --\n"
                               b"May 26 01:54:58 local-control-plane systemd[1]: Condition check resulted in kubelet: "
                               b"The Kubernetes Node Agent being skipped.\n",
        f"{node}/pods/kube-system_kindnet-2zhgq_26760765-3bea-42da-83c9-04e2c8050fa4/kindnet-cni/0.log": KINDNET_LOG,
    })
    assert not r.rejections and r.accounting_holds()
    assert r.server_version == "v1.20.7"
    reasons = {s.source.rsplit("/", 1)[-1]: s.reason for s in r.skipped}
    assert reasons["inspect.json"] == "`docker inspect` of a node's container (kind export logs), not Kubernetes objects"
    # (its journal line kept as the node's, the year and zone from journalctl's header)
    assert reasons["kubelet.log"].startswith("a node's own logs (kind export logs")
    assert "1 journal line(s) of local-control-plane" in reasons["kubelet.log"]
    assert [(j.host, j.when) for j in r.node_journal] == [("local-control-plane", "May 26 01:54:58 2021 UTC")]
    assert reasons["kind-version.txt"].startswith("kind's and Docker's own versions")


# awslabs/amazon-eks-ami log-collector-script/linux/eks-log-collector.sh (@ 00afdb7, v0.7.3):
# `cp --dereference --recursive /var/log/pods/kube-system_aws-node* .../var_log/` and the same of
# /var/log/containers/aws-node*, in eks_<instance>_<time>_<version>.tar.gz. The aws-node pod's
# lines as aws/amazon-vpc-cni-k8s#2133 quotes them (`kubectl logs`, 2022-11-09), framed as
# containerd writes them (the runtime's time, stream, F) in both files; the uid and container id
# stand for the node's.
AWS_NODE_UID = "3b0f4c1e-8a7d-4f5e-9c2b-1d6e7a8f9b0c"
AWS_NODE_ID = "5e" * 32
AWS_NODE_LOG = (b'2022-11-09T08:51:47.548431520Z stdout F {"level":"info","ts":"2022-11-09T08:51:47.548Z",'
                b'"caller":"entrypoint.sh","msg":"Validating env variables ..."}\n'
                b'2022-11-09T08:51:49.576502231Z stdout F {"level":"info","ts":"2022-11-09T08:51:49.576Z",'
                b'"caller":"entrypoint.sh","msg":"Retrying waiting for IPAM-D"}\n')


def test_an_eks_log_collectors_copies_of_the_pods_logs_are_read() -> None:
    root = "eks_i-0a1b2c3d4e5f60718_2022-11-09_0852-UTC_0.7.3/var_log/"
    r = ingest({
        f"{root}kube-system_aws-node-9xq2m_{AWS_NODE_UID}/aws-node/0.log": AWS_NODE_LOG,
        f"{root}aws-node-9xq2m_kube-system_aws-node-{AWS_NODE_ID}.log": AWS_NODE_LOG,
    })
    assert [(g.namespace, g.pod, g.container, g.previous) for g in r.logs] == [
        ("kube-system", "aws-node-9xq2m", "aws-node", False)]
    assert r.logs[0].text.splitlines()[1].endswith('"msg":"Retrying waiting for IPAM-D"}')
    (link,) = r.skipped
    assert link.source.endswith(f"aws-node-{AWS_NODE_ID}.log") and "the same log" in link.reason
    assert not r.rejections and r.accounting_holds()
    # the collector's archive is named by the UTC minute it ran (`date --utc +%Y-%m-%d_%H%M-%Z`):
    # the capture's time, not the newest line's (08:51:49) nor a lower bound
    assert r.capture_time.isoformat() == "2022-11-09T08:52:00+00:00"
    assert r.capture.signal == "bundle metadata" and r.capture.where == root.split("/")[0]
