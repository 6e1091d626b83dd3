"""The log signature catalog and its matcher: one compiled scan, line numbers, currency."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REALDATA

import analyzer
from analyzer.model.logsignatures import (
    LogMatcher,
    Signature,
    SignatureCatalogError,
    container_log_matches,
    load_signatures,
    match_log,
)

SIGNATURES = load_signatures()


@pytest.mark.parametrize("sig", SIGNATURES, ids=[s.id for s in SIGNATURES])
def test_every_signature_matches_its_example_as_itself(sig: Signature) -> None:
    assert sig.example, f"{sig.id}: give an example line"
    found = list(match_log(sig.example))
    assert [(m.signature.id, m.line) for m in found] == [(sig.id, 1)]
    assert sig.meaning and sig.severity in ("critical", "warning", "info")


def test_text_and_lines_give_the_same_matches_with_line_numbers() -> None:
    lines = ["starting", SIGNATURES[1].example, "ok", "", SIGNATURES[2].example, "done"]
    from_text = [(m.signature.id, m.line, m.text) for m in match_log("\n".join(lines) + "\n")]
    from_lines = [(m.signature.id, m.line, m.text) for m in match_log(lines)]
    assert from_text == from_lines == [(SIGNATURES[1].id, 2, lines[1]), (SIGNATURES[2].id, 5, lines[4])]


def test_one_match_per_line_and_the_leftmost_signature_wins() -> None:
    # A Request log error line also holds "i/o timeout": it is reported once, as what it is.
    line = 'Request log error: Get "https://10.0.1.4:10250/containerLogs/a/b/c": dial tcp 10.0.1.4:10250: i/o timeout'
    assert [m.signature.id for m in match_log(line)] == ["kubectl-request-log-error"]


def test_calico_probing_for_its_tunnel_device_is_not_a_missing_interface() -> None:
    # ../shared/realdata/kubeadm/cka-3c97-cluster-info-dump/cluster-info-dump-2.json, calico-node-26mhc
    line = ("2021-04-11 12:07:00.737 [INFO][58] felix/ipip_mgr.go 106: Failed to get IPIP tunnel device, "
            "assuming it isn't present error=Link not found")
    assert list(match_log(line)) == []


def test_a_bad_catalog_entry_is_named() -> None:
    with pytest.raises(SignatureCatalogError, match="broken"):
        LogMatcher([Signature("broken", "([unclosed", "m", "warning")])
    with pytest.raises(SignatureCatalogError, match="named groups"):
        LogMatcher([Signature("grouped", "(?P<x>a)", "m", "warning")])


def test_matches_point_at_the_line_of_the_dump_file() -> None:
    # udacity: CoreDNS's upstream 10.0.2.3:53 times out until the capture; the match's
    # file_line is the line of cluster-info-dump.txt that holds it.
    dump = REALDATA / "k3s" / "udacity-nd064-cluster-info-dump"
    cluster = analyzer.load(str(dump))
    coredns = [m for m in container_log_matches(cluster) if m.log.pod.startswith("coredns-")]
    assert coredns and {m.match.signature.id for m in coredns} >= {"coredns-upstream-unreachable"}
    upstream = [m for m in coredns if m.match.signature.id == "coredns-upstream-unreachable"]
    assert all(m.current for m in upstream)
    file_lines = Path(upstream[-1].log.source).read_text(encoding="utf-8").splitlines()
    assert file_lines[upstream[-1].file_line - 1] == upstream[-1].match.text
    # Its connection errors of the first seconds after start (07:39) are not current.
    early = [m for m in coredns if m.match.signature.id == "api-server-connection-refused"]
    assert early and not any(m.current for m in early)


def test_start_up_errors_and_previous_containers_are_history() -> None:
    # minikube multi-k8s: the scheduler's RBAC errors while the API server bootstrapped
    # (08:48:13-22, the log starts 08:48:09); k3s bundle: previous containers' last words.
    mk = analyzer.load(str(REALDATA / "minikube" / "multi-k8s-cluster-info-dump"))
    assert not any(m.current for m in container_log_matches(mk))
    k3s = analyzer.load(str(REALDATA / "k3s" / "troubleshoot-testdata-supportbundle"))
    previous = [m for m in container_log_matches(k3s) if m.log.previous]
    assert previous and not any(m.current for m in previous)
    assert {m.match.signature.id for m in previous} >= {"fatal-log", "go-panic", "io-timeout"}


def test_untimed_lines_take_the_time_of_the_trace_line_before_them() -> None:
    # coredns's [ERROR] lines have no stamp; the client-go trace lines before them say 10:19:48
    # (+30 s), 49 minutes before the capture: start-up history, not current.
    cluster = analyzer.load(str(Path(__file__).parent / "data" / "coredns-startup-timeouts.txt"))
    matches = [m for m in container_log_matches(cluster) if m.match.signature.id == "io-timeout"]
    assert len(matches) == 9 and not any(m.current for m in matches)
    failing = cluster.findings[cluster.findings.status == "fail"]
    assert set(failing.severity) == {"info"}, failing[["rule", "severity", "message"]]


VCLUSTER_COREDNS = Path(__file__).parent / "data" / "vcluster-coredns-replica-quiet.txt"


def test_untimed_shared_errors_a_later_replica_never_logged_are_history() -> None:
    # Two coredns replicas (started 2024-04-29) end their logs with untimed etcd and API errors;
    # the third (started 2024-05-13, 21 days before the capture) logged none: the API was
    # answering since, so the lines are history, not "still coming at capture".
    cluster = analyzer.load(str(VCLUSTER_COREDNS))
    shared = [m for m in container_log_matches(cluster) if m.match.signature.shared]
    assert {m.log.pod for m in shared} == {"coredns-68bdd584b4-l46zj", "coredns-68bdd584b4-zr8db"}
    assert not any(m.current for m in shared)
    etcd = [m for m in shared if m.match.signature.id == "etcd-no-leader"]
    assert {m.quiet_since[0] for m in etcd if m.quiet_since} == {"coredns-68bdd584b4-kwwtt"}
    failing = cluster.findings[cluster.findings.status == "fail"]
    assert set(failing.severity) == {"info"}, failing[["rule", "severity", "message"]]
    assert all("history: replica coredns-68bdd584b4-kwwtt" in m for m in failing.message)


def test_untimed_shared_errors_stay_current_when_the_later_replica_logs_them_too(tmp_path: Path) -> None:
    # The same dump, with the later replica's log ending in the same etcd errors, and the
    # others' retried (a line of them again): nothing shows the API answered since, so the
    # repeated last lines are current. (Without the retry each informer failed once and then
    # listed again silently: a burst, history; see test_an_untimed_burst_...)
    text = VCLUSTER_COREDNS.read_text(encoding="utf-8")
    errors = "\n".join(line for line in text.splitlines() if "etcdserver: request timed out" in line)
    errors += "\n" + errors
    for pod in ("l46zj", "zr8db"):
        end_of = f"==== END logs for container coredns of pod kube-system/coredns-68bdd584b4-{pod} ===="
        text = text.replace(end_of, errors + "\n" + end_of)
    end = "==== END logs for container coredns of pod kube-system/coredns-68bdd584b4-kwwtt ===="
    (tmp_path / "dump.txt").write_text(text.replace(end, errors + "\n" + end), encoding="utf-8")
    cluster = analyzer.load(str(tmp_path / "dump.txt"))
    etcd = [m for m in container_log_matches(cluster) if m.match.signature.id == "etcd-no-leader"]
    assert {m.log.pod for m in etcd if m.current} == {
        "coredns-68bdd584b4-kwwtt", "coredns-68bdd584b4-l46zj", "coredns-68bdd584b4-zr8db"}
    assert not any(m.quiet_since for m in etcd)


def test_logs_of_pods_the_dump_does_not_hold_are_history(tmp_path: Path) -> None:
    # EpicApex/k8s-arena's AKS `cluster-info dump --output-directory` (@ 4566ccf), trimmed: pods.json
    # holds tunnelfront-6869944cf6-j2zsk; the folder also has logs.txt of tunnelfront-6869944cf6-qjq8m
    # (and of a default/ pod, default/pods.json being empty), left by an earlier run into the folder.
    import json

    for ns in ("kube-system", "default"):
        (tmp_path / ns).mkdir()
    pod = {"metadata": {"name": "tunnelfront-6869944cf6-j2zsk", "namespace": "kube-system",
                        "creationTimestamp": "2020-06-03T17:51:20Z"},
           "spec": {"containers": [{"name": "tunnel-front", "image": "mcr.microsoft.com/aks/hcp/hcp-tunnel-front:v1.9.2-v3.0.12"}]},
           "status": {"phase": "Running", "startTime": "2020-06-03T17:51:20Z"}}
    (tmp_path / "kube-system" / "pods.json").write_text(json.dumps({"kind": "PodList", "apiVersion": "v1", "items": [pod]}))
    (tmp_path / "default" / "pods.json").write_text(json.dumps({"kind": "PodList", "apiVersion": "v1", "items": []}))
    (tmp_path / "default" / "services.json").write_text(json.dumps({"kind": "ServiceList", "apiVersion": "v1", "items": [
        {"metadata": {"name": "kubernetes", "namespace": "default"}, "spec": {"clusterIP": "10.0.0.1", "ports": [{"port": 443}]}}]}))
    for ns, name, container in (("kube-system", "tunnelfront-6869944cf6-j2zsk", "tunnel-front"),
                                ("kube-system", "tunnelfront-6869944cf6-qjq8m", "tunnel-front"),
                                ("default", "arena-deployment-d48c8dfb8-dhldd", "centos-systemd")):
        (tmp_path / ns / name).mkdir()
        (tmp_path / ns / name / "logs.txt").write_text(
            f"==== START logs for container {container} of pod {ns}/{name} ====\n"
            f'Request log error: an error on the server ("unknown") has prevented the request from succeeding (get pods {name})\n'
            f"==== END logs for container {container} of pod {ns}/{name} ====\n")
    cluster = analyzer.load(str(tmp_path))
    by_pod = {m.log.pod: m for m in container_log_matches(cluster)}
    assert by_pod["tunnelfront-6869944cf6-j2zsk"].current and not by_pod["tunnelfront-6869944cf6-j2zsk"].orphan
    for gone in ("tunnelfront-6869944cf6-qjq8m", "arena-deployment-d48c8dfb8-dhldd"):
        assert by_pod[gone].orphan and not by_pod[gone].current
    assert cluster.summary()["logs"]["without_pod"] == [
        "default/arena-deployment-d48c8dfb8-dhldd", "kube-system/tunnelfront-6869944cf6-qjq8m"]


def _crashing_backend(tmp_path: Path, waiting: str) -> analyzer.Cluster:
    # Trimmed from a real k3s support bundle (replicatedhq/troubleshoot @ e155e4e,
    # real-support-bundles/support-bundle-2025-09-11T15_54_39/cluster-resources/pods/default.json
    # and pods/logs/default/backend-api-75fb46b7bd-xtkrh/api-server.log): the container exits 1 at
    # every start, its log has no time stamps and says why once.
    import json

    bundle = tmp_path / "bundle" / "cluster-resources"
    (bundle / "pods" / "logs" / "default" / "backend-api-75fb46b7bd-xtkrh").mkdir(parents=True)
    pod = {"metadata": {"name": "backend-api-75fb46b7bd-xtkrh", "namespace": "default",
                        "creationTimestamp": "2025-09-11T20:50:19Z"},
           "spec": {"containers": [{"name": "api-server", "image": "alpine:latest"}]},
           "status": {"phase": "Running", "startTime": "2025-09-11T20:50:19Z", "containerStatuses": [
               {"name": "api-server", "ready": False, "restartCount": 5, "image": "alpine:latest",
                "state": {"waiting": {"reason": waiting}},
                "lastState": {"terminated": {"exitCode": 1, "reason": "Error", "startedAt": "2025-09-11T20:53:27Z",
                                             "finishedAt": "2025-09-11T20:53:27Z"}}}]}}
    (bundle / "pods" / "default.json").write_text(json.dumps({"kind": "PodList", "apiVersion": "v1", "items": [pod]}))
    (bundle / "pods" / "logs" / "default" / "backend-api-75fb46b7bd-xtkrh" / "api-server.log").write_text(
        "Starting Backend API Server v3.2.1\nEnvironment: production\nInitializing database connection...\n"
        "nc: bad address 'postgres-service.database'\nERROR: Failed to connect to database: connection refused\n"
        "Database connection failed after 3 retries\n")
    return analyzer.load(str(tmp_path / "bundle"))


def test_a_crashlooping_containers_last_words_are_current(tmp_path: Path) -> None:
    matches = container_log_matches(_crashing_backend(tmp_path, "CrashLoopBackOff"))
    assert [(m.match.signature.id, m.current) for m in matches] == [("name-not-resolved", True)]


def test_the_same_untimed_line_once_in_a_container_that_is_not_crashing_is_not_current(tmp_path: Path) -> None:
    matches = container_log_matches(_crashing_backend(tmp_path, "ContainerCreating"))
    assert [(m.match.signature.id, m.current) for m in matches] == [("name-not-resolved", False)]


# From easzlab/kubeasz#355 (github.com/easzlab/kubeasz/issues/355, a comment of 2018-11-05): the
# transcript's describe of a CoreDNS pod (cut where the comment's excerpt ends) and its
# `kubectl logs -f`, 6 s from its start to the loop plugin's FATAL.
_KUBEASZ_355 = """[root@localhost ~]# kubectl describe pod -n kube-system coredns-56684f94d6-f7tzp
Name:           coredns-56684f94d6-f7tzp
Namespace:      kube-system
Node:           80.0.0.245/80.0.0.245
Start Time:     Sat, 03 Nov 2018 00:38:41 +0800
Labels:         k8s-app=kube-dns
                pod-template-hash=56684f94d6
Status:         Running
IP:             172.20.0.2
[root@localhost ~]# kubectl logs -f -n kube-system coredns-56684f94d6-f7tzp
.:53
2018/11/05 13:48:16 [INFO] CoreDNS-1.2.2
2018/11/05 13:48:16 [INFO] linux/amd64, go1.11, eb51e8b
CoreDNS-1.2.2
linux/amd64, go1.11, eb51e8b
2018/11/05 13:48:16 [INFO] plugin/reload: Running configuration MD5 = afbaa991cc09b91b885a205d9b1a451b
2018/11/05 13:48:22 [FATAL] plugin/loop: Seen "HINFO IN 4849932600568443392.1730530029506169038." more than twice, loop detected
"""


def test_a_log_ending_on_a_line_the_process_exits_on_is_current_however_soon_after_its_start(tmp_path: Path) -> None:
    (tmp_path / "paste.txt").write_text(_KUBEASZ_355)
    matches = container_log_matches(analyzer.load(str(tmp_path / "paste.txt")))
    assert [(m.log.pod, m.match.signature.id, m.current) for m in matches] == [
        ("coredns-56684f94d6-f7tzp", "coredns-loop-detected", True)]


def test_a_line_the_process_exits_on_followed_by_more_lines_is_not_its_last_words(tmp_path: Path) -> None:
    (tmp_path / "paste.txt").write_text(_KUBEASZ_355 + "2018/11/05 13:48:30 [INFO] CoreDNS-1.2.2\n")
    matches = container_log_matches(analyzer.load(str(tmp_path / "paste.txt")))
    assert [(m.match.signature.id, m.current) for m in matches] == [("coredns-loop-detected", False)]


# A kubectl session against `kda serve` of a kubeadm cluster's cluster-info dump (brief review3,
# kubeadm-vcluster-rubin; the session in brief rev15a): coredns's last 12 lines are one etcd
# leader election seen by its three informers (connection refused, 'no leader', 'request timed
# out'), each once, untimed; its replicas run ready for weeks.
_RUBIN_SESSION = """[rubin@sdfk8sm001 ~]$ kubectl get pods -A -o wide
NAMESPACE     NAME                       READY   STATUS    RESTARTS   AGE   IP                NODE         NOMINATED NODE   READINESS GATES
kube-system   coredns-68bdd584b4-kwwtt   1/1     Running   0          21d   192.168.79.174    sdfk8sc045   <none>           <none>
kube-system   coredns-68bdd584b4-l46zj   1/1     Running   0          35d   192.168.48.229    sdfk8sc012   <none>           <none>
kube-system   coredns-68bdd584b4-zr8db   1/1     Running   0          35d   192.168.109.130   sdfk8sc029   <none>           <none>
[rubin@sdfk8sm001 ~]$ kubectl logs -n kube-system coredns-68bdd584b4-l46zj --tail=12
[ERROR] plugin/kubernetes: pkg/mod/k8s.io/client-go@v0.27.4/tools/cache/reflector.go:231: Failed to watch *v1.Namespace: failed to list *v1.Namespace: Get "https://10.98.42.207:443/api/v1/namespaces?resourceVersion=20529889": dial tcp 10.98.42.207:443: connect: connection refused
[INFO] plugin/kubernetes: pkg/mod/k8s.io/client-go@v0.27.4/tools/cache/reflector.go:231: failed to list *v1.EndpointSlice: Get "https://10.98.42.207:443/apis/discovery.k8s.io/v1/endpointslices?resourceVersion=20529889": dial tcp 10.98.42.207:443: connect: connection refused
[ERROR] plugin/kubernetes: pkg/mod/k8s.io/client-go@v0.27.4/tools/cache/reflector.go:231: Failed to watch *v1.EndpointSlice: failed to list *v1.EndpointSlice: Get "https://10.98.42.207:443/apis/discovery.k8s.io/v1/endpointslices?resourceVersion=20529889": dial tcp 10.98.42.207:443: connect: connection refused
[INFO] plugin/kubernetes: pkg/mod/k8s.io/client-go@v0.27.4/tools/cache/reflector.go:231: watch of *v1.EndpointSlice ended with: Internal error occurred: etcdserver: no leader
[INFO] plugin/kubernetes: pkg/mod/k8s.io/client-go@v0.27.4/tools/cache/reflector.go:231: watch of *v1.Service ended with: Internal error occurred: etcdserver: no leader
[INFO] plugin/kubernetes: pkg/mod/k8s.io/client-go@v0.27.4/tools/cache/reflector.go:231: watch of *v1.Namespace ended with: Internal error occurred: etcdserver: no leader
[INFO] plugin/kubernetes: pkg/mod/k8s.io/client-go@v0.27.4/tools/cache/reflector.go:231: failed to list *v1.Namespace: etcdserver: request timed out
[ERROR] plugin/kubernetes: pkg/mod/k8s.io/client-go@v0.27.4/tools/cache/reflector.go:231: Failed to watch *v1.Namespace: failed to list *v1.Namespace: etcdserver: request timed out
[INFO] plugin/kubernetes: pkg/mod/k8s.io/client-go@v0.27.4/tools/cache/reflector.go:231: failed to list *v1.EndpointSlice: etcdserver: request timed out
[ERROR] plugin/kubernetes: pkg/mod/k8s.io/client-go@v0.27.4/tools/cache/reflector.go:231: Failed to watch *v1.EndpointSlice: failed to list *v1.EndpointSlice: etcdserver: request timed out
[INFO] plugin/kubernetes: pkg/mod/k8s.io/client-go@v0.27.4/tools/cache/reflector.go:231: failed to list *v1.Service: etcdserver: request timed out
[ERROR] plugin/kubernetes: pkg/mod/k8s.io/client-go@v0.27.4/tools/cache/reflector.go:231: Failed to watch *v1.Service: failed to list *v1.Service: etcdserver: request timed out
"""


def test_an_untimed_burst_in_which_no_line_came_again_is_not_current(tmp_path: Path) -> None:
    (tmp_path / "session.txt").write_text(_RUBIN_SESSION)
    cluster = analyzer.load(str(tmp_path / "session.txt"))
    matches = container_log_matches(cluster)
    assert matches and not any(m.current for m in matches)
    (found,) = [f for f in cluster.findings.itertuples() if f.rule == "pod-log-errors"]
    assert found.severity == "info" and "a burst near the end of its log, untimed" in found.message


def test_an_untimed_line_that_keeps_coming_back_is_current(tmp_path: Path) -> None:
    # the same session with the informers' last failure retried (client-go lists again)
    last = _RUBIN_SESSION.rstrip("\n").rsplit("\n", 1)[1]
    (tmp_path / "session.txt").write_text(_RUBIN_SESSION + last + "\n" + last + "\n")
    matches = container_log_matches(analyzer.load(str(tmp_path / "session.txt")))
    assert any(m.current for m in matches)


# Real lines of AWS components that find no credentials or are refused their IRSA role, each
# with where it was pasted.
AWS_CREDENTIAL_LINES = [
    # kubernetes-sigs/aws-ebs-csi-driver#1010 (EKS 1.20, driver v1.2.0): the provisioner's error
    ("aws-web-identity-denied", ": could not create volume in EC2: WebIdentityErr: failed to retrieve credentials"),
    ("aws-web-identity-denied", "caused by: AccessDenied: Not authorized to perform sts:AssumeRoleWithWebIdentity"),
    # kubernetes-sigs/external-dns#676 (a comment's external-dns log, kube2iam in front of the
    # node role, 2018): up to date, then no credentials
    (None, 'time="2018-08-22T19:42:17Z" level=info msg="All records are already up to date"'),
    ("aws-no-credentials", 'time="2018-08-22T19:44:17Z" level=error msg="NoCredentialProviders: no valid providers '
                           'in chain. Deprecated.\\n\\tFor verbose messaging see aws.Config.CredentialsChainVerboseErrors"'),
    # kinvolk/lokomotive#1219: `kubectl logs -l app=ebs-csi-controller -c ebs-plugin`, a v1 SDK
    # error over three lines, each line its own
    ("aws-no-credentials", "E1126 10:30:52.693448       1 driver.go:111] GRPC error: rpc error: code = Internal desc = "
                           "NoCredentialProviders: no valid providers in chain"),
    (None, "caused by: EnvAccessKeyNotFound: failed to find credentials in the environment."),
    ("aws-no-credentials", "EC2RoleRequestError: no EC2 instance role found"),
    # kubernetes-sigs/aws-load-balancer-controller#1226 (2020): the cluster's OIDC provider not in IAM
    ("aws-web-identity-denied", "E0416 12:40:46.016106       1 healthcheck.go:38] Controller health check failed: "
                                "[ec2.DescribeTagsWithContext]: WebIdentityErr: failed to retrieve credentials"),
    # terraform-aws-modules/terraform-aws-eks#965: cluster-autoscaler exits on it; its fatal line
    # is named as the exit (the leftmost match), the line of its cause as the refusal
    ("fatal-log", "F0813 16:43:55.729117       1 aws_cloud_provider.go:376] Failed to create AWS Manager: cannot "
                  "autodiscover ASGs: WebIdentityErr: failed to retrieve credentials"),
    ("aws-web-identity-denied", "caused by: InvalidIdentityToken: No OpenIDConnect provider found in your account for "
                                "https://oidc.eks.eu-west-1.amazonaws.com/id/<REDACTED>"),
    # aws/aws-sdk-js-v3#5083 (a Node.js pod in cn-north-1)
    ("aws-web-identity-denied", "InvalidIdentityTokenException: No OpenIDConnect provider found in your account for "
                                "https://oidc.eks.cn-north-1.amazonaws.com.cn/id/<ID>"),
]


@pytest.mark.parametrize("expected,line", AWS_CREDENTIAL_LINES)
def test_aws_credential_failures_are_named(expected: str | None, line: str) -> None:
    assert [m.signature.id for m in match_log(line)] == ([expected] if expected else [])


@pytest.mark.parametrize("line", [
    # Yolean/kubernetes-kafka#282 (ZooKeeper on OpenShift), docker-library/mysql#1041 (5.7 to 8.0)
    "mkdir: cannot create directory '/opt/kafka/bin/../logs': Permission denied",
    "mkdir: cannot create directory '/var/lib/mysql-files': Permission denied",
    # observatorium/observatorium#410 (Loki on GKE)
    'level=error ts=2021-05-06T20:07:23.034407503Z caller=log.go:149 msg="error running loki" err="mkdir /data/loki: permission denied"',
    # luksa/kubernetes-in-action#15
    "/bin/sh: 1: /bin/fortuneloop.sh: Permission denied",
])
def test_the_runtimes_words_for_a_permission_denied(line: str) -> None:
    assert [m.signature.id for m in match_log(line)] == ["permission-denied"]


def test_permission_words_in_prose_are_no_permission_denied() -> None:
    assert list(match_log("level=info msg=\"checked: no permission denied errors since start\"")) == []


@pytest.mark.parametrize("line", [
    # aquasecurity/starboard#627: the operator's HandleCrash before its stack
    'E0623 15:24:30.674204 1 runtime.go:78] Observed a panic: "invalid memory address or nil pointer dereference" (runtime error: invalid memory address or nil pointer dereference)',
    # the Gloo-SP-6994 reproducer README (solo-io/solo-projects#6994): gloo-portal-controller as a k9s pane showed it
    '{"level":"info","ts":"2024-10-18T20:35:46.757Z","caller":"controller/controller.go:115","msg":"Observed a panic in reconciler: runtime error: invalid memory address or nil pointer dereference","controll │',
])
def test_a_go_controllers_observed_panic_is_a_go_panic(line: str) -> None:
    assert [m.signature.id for m in match_log(line)] == ["go-panic"]


@pytest.mark.parametrize("line", [
    # rancher/rke2#2505: RKE2's helm-install Job for rancher-vsphere-csi after an upgrade to 1.22
    "Error: UPGRADE FAILED: chart requires kubeVersion: 1.19 - 1.21 which is incompatible with Kubernetes v1.22.5+rke2r2",
    # rancher/rke2#5005 (RKE2 1.28 on OCI), helm/helm#11699 (helm's debug line, k3s 1.25)
    "Error: INSTALLATION FAILED: chart requires kubeVersion: < 1.27.0-0 which is incompatible with Kubernetes v1.28.3+rke2r2",
    "helm.go:84: [debug] chart requires kubeVersion: < 1.22.0-0 which is incompatible with Kubernetes v1.25.3+k3s1",
    # rancher/local-path-provisioner#34: Helm 2's words, on k3s 0.4
    "Error: Chart requires kubernetesVersion: >=1.12.0 which is incompatible with Kubernetes v1.14.1-k3s.4",
])
def test_a_chart_refused_for_the_clusters_version_is_named(line: str) -> None:
    assert [m.signature.id for m in match_log(line)] == ["helm-chart-kube-version-incompatible"]


# Sandbox errors of CNIs whose IPAM had no free pod address, as their issues quote them (the
# message tail of each FailedCreatePodSandBox event).
IPAM_EXHAUSTED = {
    # cilium/cilium#10627 (kubeadm, Cilium 1.7): every pod of the connectivity check ContainerCreating
    "cilium": 'networkPlugin cni failed to set up pod "pod-to-a-allowed-cnp-5899c44899-lmsr8_default" network: '
              'unable to allocate IP via local cilium agent: [POST /ipam][502] postIpamFailure  range is full',
    # Azure/AKS#2532 (Azure CNI, a /21 subnet)
    "azure-vnet": 'failed to setup network for sandbox "ce54c8f820d18e4ea9eca3b7da6482d110f162a4b0bc03a905a33fb2712b1e4d": '
                  'Failed to allocate pool: Failed to delegate: Failed to allocate address: No available addresses',
    # Azure/aks-engine#4263 (dual-stack Azure CNI near --max-pods)
    "azure-vnet pools": 'network: Failed to allocate pool: Failed to delegate: Failed to allocate pool: No available address pools',
    # MicrosoftDocs/architecture-center#4402 (AKS, Azure CNI dynamic IP allocation through CNS)
    "azure-cns": "plugin type='azure-vnet' failed (add): IPAM Invoker Add failed with error: Failed to get IP address "
                 "from CNS with error: %w: AllocateIPConfig failed: not enough IPs available for 9c6a7f37-dd43-4f7c-a01f-1ff41653609c",
    # harvester/harvester#7326 (RKE2 guest cluster, Calico IPAM)
    "calico": 'failed to setup network for sandbox "ddcbd3e324e1ec8e2724bfc98660a2d5d191194e088cb758b325437e7100dcc9": '
              'plugin type="calico" failed (add): cannot allocate new block due to per host block limit',
}


@pytest.mark.parametrize("line", IPAM_EXHAUSTED.values(), ids=IPAM_EXHAUSTED.keys())
def test_each_cnis_words_for_no_free_pod_address_are_one_signature(line: str) -> None:
    assert [m.signature.id for m in match_log(line)] == ["cni-ip-allocation-failed"]


# Whose addresses ran out, by the plugin's words: the VPC CNI's ipamd hands out the secondary
# IPs of the node's ENIs (no pod CIDR: aws/amazon-vpc-cni-k8s#668's maintainers, "no IP addresses
# available on the instance"), Azure CNI those the node was given (Azure/AKS#2532: 1,701 free in
# the subnet); host-local's range is the node's pod CIDR.
PLUGIN_MEANINGS = {
    # rancher/rio#631 (EKS, the pod's describe Events)
    'NetworkPlugin cni failed to set up pod "gateway-v2-5fdf4545bc-r9x2c_rio-system" network: add cmd: '
    'failed to assign an IP address to container': "the AWS VPC CNI (ipamd) has no free IP on the node's ENIs",
    # kubernetes/kubernetes#131071 (kops on EC2 with the VPC CNI, `kubectl get events`)
    'failed to setup network for sandbox "40d7bc158517c6954d0e8f1ba2bbc04e376e3123ab38227d6a601b7b1bb48ccf": '
    'plugin type="aws-cni" name="aws-cni" failed (add): add cmd: failed to assign an IP address to container':
        "the AWS VPC CNI (ipamd) has no free IP on the node's ENIs",
    IPAM_EXHAUSTED["azure-vnet"]: "Azure CNI has no free address among those the node was given",
    IPAM_EXHAUSTED["azure-vnet pools"]: "Azure CNI has no free address among those the node was given",
    IPAM_EXHAUSTED["cilium"]: "the CNI's IPAM has no free pod address (pod CIDR or subnet exhausted",
}


@pytest.mark.parametrize(("line", "meaning"), PLUGIN_MEANINGS.items(), ids=range(len(PLUGIN_MEANINGS)))
def test_a_no_free_address_line_means_what_its_plugin_allocates_from(line: str, meaning: str) -> None:
    (match,) = match_log(line)
    assert match.meaning.startswith(meaning)


# Older Go releases named the failed call "getsockopt" where later ones say "connect": the same refusal.
OLD_GO_REFUSALS = {
    # kubernetes/kubernetes#56642 (kube-proxy of Kubernetes 1.6 on the master node)
    "kube-proxy": "E1114 19:39:37.146635       1 reflector.go:201] k8s.io/kubernetes/pkg/proxy/config/api.go:49: Failed to "
                  "list *api.Endpoints: Get https://10.196.12.154:6443/api/v1/endpoints?resourceVersion=0: dial tcp "
                  "10.196.12.154:6443: getsockopt: connection refused",
    # kubernetes/kubernetes#63754 (kube-dns reaching the kubernetes Service's address)
    "kube-dns": "E0512 11:05:51.443615       1 reflector.go:201] k8s.io/dns/pkg/dns/dns.go:147: Failed to list *v1.Endpoints: "
                "Get https://10.96.0.1:443/api/v1/endpoints?resourceVersion=0: dial tcp 10.96.0.1:443: getsockopt: "
                "connection refused",
}


@pytest.mark.parametrize("line", OLD_GO_REFUSALS.values(), ids=OLD_GO_REFUSALS.keys())
def test_an_api_server_refusal_in_old_gos_words_is_one(line: str) -> None:
    assert [m.signature.id for m in match_log(line)] == ["api-server-connection-refused"]


def test_a_static_pod_address_already_taken_is_no_shortage_of_addresses() -> None:
    # danm-cni/danm#256: a pod asking for one IPv6 address on an SR-IOV network
    line = ("CNI operation for network:sriov-o1c failed with:IP address reservation failed for network:sriov-o1c with "
            "error:failed to allocate IP address for network:sriov-o1c with error:static IP allocation failed, "
            "requested IP address:2001:11:194:101::113 is already in use")
    assert [m.signature.id for m in match_log(line)] == []
