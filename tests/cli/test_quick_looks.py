"""The first-minute commands, run as a user runs them (a subprocess each): `kda --version`,
`--help`, and the kubectl-shaped quick looks `kda get`, `kda describe`, `kda logs`, compared with
what a real kubectl prints for the same objects served by `kda serve`."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REALDATA, SAMPLE_DUMPS
from kubectl_server import Served, needs_current_kubectl, needs_kubectl, serving

# Sample dumps and real ones: a kURL support bundle, a cluster-info dump, a minikube
# --output-directory tree, an OpenShift must-gather.
DUMPS = [SAMPLE_DUMPS / n for n in ("aks", "eks", "kubeadm", "oke")] + [p for p in (
    REALDATA / "kubeadm/sbctl-kurl-supportbundle",
    REALDATA / "kubeadm/cka-3c97-cluster-info-dump/cluster-info-dump.json",
    REALDATA / "minikube/multi-k8s-cluster-info-dump",
    REALDATA / "openshift/must-gather-clean-aws",
) if p.exists()]


def kda(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True, timeout=120)
    if check and done.returncode != 0:
        raise AssertionError(f"kda {' '.join(args)} failed ({done.returncode}): {done.stderr}")
    return done


def _context(path: Path) -> str:
    return path.name.removesuffix(".json").removesuffix(".txt")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Served:
    with serving(DUMPS, tmp_path_factory.mktemp("quick")) as s:
        yield s


def test_version_and_help() -> None:
    done = kda("--version")
    assert re.fullmatch(r"kda \d+\.\d+\.\d+\n", done.stdout)
    text = kda("--help").stdout
    assert "<bool>" not in text
    for command in ("get", "describe", "logs", "serve"):
        assert re.search(rf"^  {command} ", text, re.M), command
    get_help = kda("get", "--help").stdout
    assert "-A, --all-namespaces " in get_help and "<bool>" not in get_help


@needs_kubectl
@pytest.mark.parametrize("dump", DUMPS, ids=_context)
def test_get_pods_and_nodes_print_what_kubectl_prints(served: Served, dump: Path) -> None:
    ctx = _context(dump)
    for args in (("pods", "-A", "-o", "wide"), ("nodes",), ("nodes", "-o", "wide"), ("deploy,svc", "-A")):
        ours = kda("get", *args[:1], str(dump), *args[1:], check=False)
        theirs = served.kubectl("--context", ctx, "get", *args, check=False)
        assert ours.stdout == theirs.stdout, (ctx, args)
        assert (ours.returncode == 0) == (theirs.returncode == 0), (ctx, args, ours.stderr, theirs.stderr)


@needs_kubectl
def test_get_yaml_and_json_read_as_kubectl_prints_them(served: Served) -> None:
    aks = str(SAMPLE_DUMPS / "aks")
    for kind, names, ns in (("deploy", ["cart"], "shop"), ("pods", [], "shop"), ("cm", ["coredns"], "kube-system")):
        for form in ("yaml", "json", "name"):
            ours = kda("get", kind, *names, aks, "-n", ns, "-o", form).stdout
            assert ours == served.kubectl("--context", "aks", "get", kind, *names, "-n", ns, "-o", form).stdout


def _ages_masked(text: str) -> str:
    # kubectl describe measures ages from the wall clock, kda from the dump's capture time
    text = re.sub(r"\b\d+(y|d|h|m|s)(\d+(d|h|m|s))?( \(x\d+ over [^)]*\))?", "AGE", text)
    return re.sub(r" +", " ", text)


@needs_kubectl
@needs_current_kubectl
@pytest.mark.parametrize("dump", DUMPS, ids=_context)
def test_describe_node_reads_as_kubectl_describe(served: Served, dump: Path) -> None:
    ctx = _context(dump)
    names = served.kubectl("--context", ctx, "get", "nodes", "-o", "name", check=False).stdout.split()
    if not names:
        pytest.skip("the dump has no nodes")
    node = names[0].split("/", 1)[1]
    ours = kda("describe", "node", node, str(dump)).stdout
    theirs = served.kubectl("--context", ctx, "describe", "node", node).stdout
    assert _ages_masked(ours) == _ages_masked(theirs)


@needs_kubectl
@needs_current_kubectl
def test_describe_volumes_and_claims_read_as_kubectl_describe(served: Served) -> None:
    # Before, kda describe pv/pvc printed the generic layout (API Version, Spec: ...), not
    # kubectl's: Claim, Reclaim Policy, Node Affinity, Source; Used By (the rev46a review).
    # One test over every served dump: most hold no volume (the OKE sample and kURL's do).
    described = []
    for dump in DUMPS:
        ctx = _context(dump)
        for kind in ("pv", "pvc"):
            for line in served.kubectl("--context", ctx, "get", kind, "-A", "--no-headers", "-o",
                                       "custom-columns=NS:.metadata.namespace,NAME:.metadata.name",
                                       check=False).stdout.splitlines()[:3]:
                ns, name = line.split()
                where = ["-n", ns] if ns != "<none>" else []
                ours = kda("describe", kind, name, str(dump), *where).stdout
                theirs = served.kubectl("--context", ctx, "describe", kind, name, *where).stdout
                # (a dump without events: kda says so where kubectl, served no events, prints <none>)
                ours = re.sub(r"Events:( +)<the dump did not collect Events>", lambda m: "Events:" + m[1] + "<none>", ours)
                assert _ages_masked(ours) == _ages_masked(theirs), (ctx, kind, name)
                described.append((ctx, kind))
    assert ("oke", "pvc") in described, described


def test_describe_volume_and_claim_in_kubectls_layout() -> None:
    # realdata kubeadm/sbctl-kurl-supportbundle: a Longhorn volume bound to minio's claim
    bundle = REALDATA / "kubeadm/sbctl-kurl-supportbundle"
    if not bundle.exists():
        pytest.skip("realdata not beside the checkout")
    pv = kda("describe", "pv", "pvc-36557d76-e15e-4abe-91ee-0be6075eaa7b", str(bundle)).stdout
    assert re.search(r"^Claim:\s+minio/minio-pv-claim\nReclaim Policy:\s+Delete\nAccess Modes:\s+RWO\n", pv, re.M)
    assert re.search(r"^Source:\n    Type:\s+CSI \(a Container Storage Interface \(CSI\) volume source\)\n"
                     r"    Driver:\s+driver.longhorn.io\n", pv, re.M)
    pvc = kda("describe", "pvc", "minio-pv-claim", str(bundle), "-n", "minio").stdout
    assert re.search(r"^Volume:\s+pvc-36557d76-e15e-4abe-91ee-0be6075eaa7b\n", pvc, re.M)
    assert re.search(r"^Used By:\s+minio-\S+\n", pvc, re.M) and "API Version:" not in pvc


def test_get_prints_custom_resource_columns_and_says_what_was_not_collected() -> None:
    bundle = REALDATA / "kubeadm/sbctl-kurl-supportbundle"
    if not bundle.exists():
        pytest.skip("realdata not beside the checkout")
    out = kda("get", "nodes.longhorn.io", str(bundle), "-A").stdout.splitlines()
    assert out[0].split()[:3] == ["NAMESPACE", "NAME", "READY"]
    missing = kda("get", "secrets", str(SAMPLE_DUMPS / "aks"), "-A", check=False)
    assert missing.returncode == 1 and "the dump did not collect Secrets" in missing.stderr
    assert kda("get", "pods", str(SAMPLE_DUMPS / "aks"), "-n", "nowhere").stderr.strip() == \
        "No resources found in nowhere namespace."


def test_logs_with_and_without_container_and_previous() -> None:
    bundle = REALDATA / "k3s/troubleshoot-testdata-supportbundle"
    if not bundle.exists():
        pytest.skip("realdata not beside the checkout")
    only = kda("logs", str(bundle), "coredns-b96499967-tncf4", "--tail", "2").stdout
    assert len(only.splitlines()) == 2
    prev = kda("logs", str(bundle), "coredns-b96499967-tncf4", "--previous").stdout
    assert prev and prev != kda("logs", str(bundle), "coredns-b96499967-tncf4").stdout
    two = kda("logs", str(bundle), "nginx-deployment-7986654d4-ztx2g", check=False)
    assert two.returncode == 1 and "choose one of: [nginx hello]" in two.stderr
    assert kda("logs", str(bundle), "nginx-deployment-7986654d4-ztx2g", "-c", "hello", "-p", "--tail", "1").stdout
    found = kda("logs", str(bundle), "--all", "--grep", "i/o timeout").stdout.splitlines()
    assert found and all("i/o timeout" in line for line in found)
    assert any(line.startswith("kube-system/metrics-server-668d979685-wttxd/metrics-server (previous): ") for line in found)


def test_logs_of_cluster_info_dumps() -> None:
    # (--previous: the first's pod shows no container status, Pending unscheduled, so the dump
    # cannot say whether a previous run was missed; the second's status shows it never restarted)
    for dump, no_previous in ((REALDATA / "kubeadm/cka-3c97-cluster-info-dump/cluster-info-dump.json",
                               "holds no previous log"),
                              (REALDATA / "minikube/multi-k8s-cluster-info-dump",
                               'previous terminated container "coredns" in pod "coredns-86c58d9df4-mnjkg" '
                               "not found (its status shows no restart)")):
        if not dump.exists():
            pytest.skip("realdata not beside the checkout")
        import analyzer

        logs = analyzer.load(str(dump)).logs
        first = logs[0]
        out = kda("logs", str(dump), first.pod, "-n", first.namespace, "-c", first.container).stdout
        assert out.rstrip("\n") == first.text.rstrip("\n")
        prev = kda("logs", str(dump), first.pod, "-n", first.namespace, "--previous", check=False)
        assert prev.returncode == 1 and no_previous in prev.stderr


def test_describe_workloads_and_namespaces() -> None:
    aks = str(SAMPLE_DUMPS / "aks")
    rs = kda("describe", "rs", "cart-6mvdgdjsd", aks, "-n", "shop").stdout
    assert "Replicas:       2 current / 2 desired" in rs and "Pods Status:    2 Running / 0 Waiting" in rs
    ds = kda("describe", "daemonset/azure-ip-masq-agent", aks, "-n", "kube-system").stdout
    assert "Desired Number of Nodes Scheduled: 3" in ds and "Pods Status:" in ds and "Pod Template:" in ds
    ns = kda("describe", "ns", "shop", aks).stdout
    assert ns.startswith("Name:         shop\n") and "the dump did not collect ResourceQuotas" in ns
    # a name that is no object's is tried as a prefix, as kubectl does
    assert kda("describe", "pod", "redis", aks, "-n", "shop").stdout.startswith("Name:             redis-")
    missing = kda("describe", "pod", "nothing-like-it", aks, "-n", "shop", check=False)
    assert missing.returncode == 1 and 'pods "nothing-like-it" not found' in missing.stderr


def test_logs_name_the_known_log_signatures() -> None:
    bundle = REALDATA / "k3s/troubleshoot-testdata-supportbundle"
    if not bundle.exists():
        pytest.skip("realdata not beside the checkout")
    import analyzer

    saved = next(r for r in analyzer.load(str(bundle)).logs if r.pod.startswith("metrics-server") and r.previous)
    done = kda("logs", str(bundle), saved.pod, "-n", saved.namespace, "--previous")
    assert done.stdout.rstrip("\n") == saved.text.rstrip("\n")  # piped: the log's own text
    assert "match known log signatures" in done.stderr
    assert "io-timeout (warning), line 1:" in done.stderr and "go-panic (warning)" in done.stderr


def test_get_all_lists_the_workload_kinds_the_dump_holds() -> None:
    # `kubectl get all` is what users type first; kda said 'the dump has no resource type "all"'.
    # The minikube --output-directory tree (erwee402/multi-k8s) holds pods, services, deployments,
    # replica sets and daemon sets; it did not collect statefulsets or jobs, which "all" passes over.
    dump = REALDATA / "minikube/multi-k8s-cluster-info-dump"
    if not dump.exists():
        pytest.skip("realdata not present")
    out = kda("get", "all", "-A", str(dump)).stdout
    for prefix in ("pod/", "service/", "deployment.apps/", "replicaset.apps/", "daemonset.apps/"):
        assert re.search(rf"^\S+\s+{re.escape(prefix)}", out, re.M), (prefix, out)
    assert "statefulset" not in out and "error" not in out.lower()
    # a dump with none of the kinds of "all" says so (as a kind not collected does)
    nodes_only = REALDATA / "unknown/troubleshoot-analyze-files/nodes.json"
    done = kda("get", "all", "-A", str(nodes_only), check=False)
    assert done.returncode == 1 and 'did not collect any kind of "all"' in done.stderr


# holmesgpt tests/llm/fixtures/test_ask_holmes/21_job_fail_curl_no_svc_account @ c1ee1d4 (an EKS
# cluster), trimmed: the pod's describe and the log of `kubectl logs get-data-mldtn` (no -c).
_HOLMES_POD = """\
{"toolset_name":"kubernetes/core","tool_name":"kubectl_describe","match_params":{"kind":"pod","name":"get-data-mldtn","namespace":"default"}}
{"schema_version": "robusta:v1.0.0", "status": "success", "invocation": "kubectl describe pod get-data-mldtn -n default"}
Name:             get-data-mldtn
Namespace:        default
Start Time:       Wed, 28 May 2025 15:48:23 +0300
Status:           Failed
Containers:
  curl-container:
    Image:         curlimages/curl:latest
    State:          Terminated
      Reason:       Error
      Exit Code:    6
    Ready:          False
    Restart Count:  0
Events:            <none>
"""
_HOLMES_LOG = """\
{"toolset_name":"kubernetes/logs","tool_name":"fetch_pod_logs","match_params":{"pod_name":"get-data-mldtn","namespace":"default"}}
{"schema_version": "robusta:v1.0.0", "status": "success", "invocation": "kubectl logs get-data-mldtn -n default"}
curl: (6) Could not resolve host: kldsvklnsdiogjerkngernjk23432i90erfefjio.com
"""


def test_a_log_saved_without_its_container_is_the_default_containers(tmp_path: Path) -> None:
    (tmp_path / "kubectl_describe_pod.txt").write_text(_HOLMES_POD)
    (tmp_path / "kubectl_logs.txt").write_text(_HOLMES_LOG)
    shown = kda("logs", str(tmp_path), "get-data-mldtn", "-n", "default").stdout
    assert "Could not resolve host" in shown
    assert "Could not resolve host" in kda("logs", str(tmp_path), "get-data-mldtn", "-c", "curl-container").stdout


def test_describe_of_a_pasted_custom_resource_prints_its_fields_not_the_paste_record(tmp_path: Path) -> None:
    # A NodeClaim's describe (the shape of aws/karpenter-provider-aws#7738, trimmed), read back and
    # described again: its Status as kubectl prints it, without this tool's `x-kda-text` record
    # (printed as "X - Kda - Text: Described: true" before).
    paste = tmp_path / "issue.txt"
    paste.write_text("Name:         default-xk2lp\nNamespace:\nLabels:       karpenter.sh/nodepool=default\n"
                     "API Version:  karpenter.sh/v1\nKind:         NodeClaim\nStatus:\n  Conditions:\n"
                     "    Message:               Node not registered with cluster\n"
                     "    Status:                Unknown\n    Type:                  Registered\n"
                     "Events:                    <none>\n", encoding="utf-8")
    out = kda("describe", "nodeclaim", "default-xk2lp", str(paste)).stdout
    assert re.search(r"\n    Message:\s+Node not registered with cluster\n", out), out
    assert "Kda" not in out and "Described" not in out


def test_get_prints_what_a_describe_states_beside_a_row_and_unknown_for_the_rest(tmp_path: Path) -> None:
    # A `kubectl get nodes` row without ROLES, then the node's describe stating them and only an
    # InternalIP: ROLES from the describe, EXTERNAL-IP `<none>` as kubectl prints it (the describe
    # lists every address), the kernel, which nothing shown states, `<unknown>`.
    paste = tmp_path / "paste.txt"
    paste.write_text("$ kubectl get nodes\nNAME     STATUS   AGE\nnode-1   Ready    10d\n"
                     "$ kubectl describe node node-1\nName:               node-1\n"
                     "Roles:              control-plane\n"
                     "Labels:             node-role.kubernetes.io/control-plane=\n"
                     "Addresses:\n  InternalIP:  10.0.0.1\n", encoding="utf-8")
    cells = kda("get", "nodes", str(paste), "-o", "wide", "--no-headers").stdout.split()
    assert cells[:4] == ["node-1", "Ready", "control-plane", "10d"], cells
    assert cells[-5:-3] == ["10.0.0.1", "<none>"] and cells[-1] == "<unknown>", cells


def test_describe_of_a_pod_its_pasted_describe_cut_before_its_state_says_what_its_row_does(tmp_path: Path) -> None:
    # Trimmed from projectcalico/calico#4519 (comment of 2021-04-08, kubeadm): the API server's row
    # (1/1 Running, 2 restarts), then its describe cut after its Image. Before: State Waiting,
    # Ready False, Restart Count 0, as kubectl prints an API object without them.
    paste = tmp_path / "calico-4519.txt"
    paste.write_text(
        "NAMESPACE     NAME                                                READY   STATUS              RESTARTS   AGE\n"
        "kube-system   kube-apiserver-calico-master.localdomain            1/1     Running             2          18h\n"
        "\n"
        "[master@calico-master ~]$ kubectl describe pod -n kube-system kube-apiserver-calico-master.localdomain\n"
        "Name:                 kube-apiserver-calico-master.localdomain\n"
        "Namespace:            kube-system\n"
        "Node:                 calico-master.localdomain/10.0.0.66\n"
        "Start Time:           Thu, 08 Apr 2021 14:34:02 -0400\n"
        "Labels:               component=kube-apiserver\n"
        "                      tier=control-plane\n"
        "Status:               Running\n"
        "IP:                   10.0.0.66\n"
        "Containers:\n"
        "  kube-apiserver:\n"
        "    Container ID:  docker://77c3447814488d4a5c31ff0acf0c01c4d96a613fc24863ce41380eac9ff68855\n"
        "    Image:         k8s.gcr.io/kube-apiserver:v1.16.0\n", encoding="utf-8")
    out = kda("describe", "pod", "-n", "kube-system", "kube-apiserver-calico-master.localdomain", str(paste)).stdout
    assert re.search(r"\n    State:\s+<unknown>\n    Ready:\s+True\n    Restart Count:\s+2\n", out), out


def test_describe_of_a_pod_whose_pasted_describe_ends_before_its_containers_says_so(tmp_path: Path) -> None:
    # k3s-io/k3s#12600 (2025-07-09), trimmed: helm-install-traefik-crd's describe quoted up to its
    # Controlled By. Before, the served pod's message said it was "read from a row of a pasted
    # kubectl table".
    paste = tmp_path / "paste.txt"
    paste.write_text("$ kubectl -n kube-system describe pod helm-install-traefik-crd-t7t68\n"
                     "Name:             helm-install-traefik-crd-t7t68\nNamespace:        kube-system\n"
                     "Status:           Running\nIP:               10.42.0.3\n"
                     "Controlled By:  Job/helm-install-traefik-crd\n", encoding="utf-8")
    out = kda("describe", "pod", "helm-install-traefik-crd-t7t68", str(paste), "-n", "kube-system").stdout
    assert re.search(r"\nMessage: +read from a pasted kubectl describe that ends after its Controlled By "
                     r"section: the dump holds no spec or status of its containers\n", out), out


def test_describe_pods_and_templates_lay_out_volumes_env_and_separators_as_kubectl() -> None:
    # trimmed from vmware-tanzu/sonobuoy test/integration/testdata/results-4-e2e-failures.tar.gz
    # (pods sonobuoy/sonobuoy and local-path-provisioner, Deployment coredns; managedFields
    # dropped). kubectl's writer indents a volume's lines after its first by their own four spaces,
    # a template's containers and volumes by one space before the name, resolves a fieldRef only
    # for metadata.name/namespace, and puts two blank lines between objects
    dump = str(Path(__file__).parent.parent / "data" / "sonobuoy-without-events")
    pod = kda("describe", "pod", "sonobuoy", dump, "-n", "sonobuoy").stdout
    assert ("  output-volume:\n"
            "    Type:       EmptyDir (a temporary directory that shares a pod's lifetime)\n"
            "    Medium:     \n"
            "    SizeLimit:  <unset>\n") in pod
    assert ("    ConfigMapName:           kube-root-ca.crt\n"
            "    Optional:                false\n"
            "    DownwardAPI:             true\n") in pod
    assert "      SONOBUOY_ADVERTISE_IP:   (v1:status.podIP)\n" in pod
    provisioner = kda("describe", "pod", "local-path-provisioner-547f784dff-spt2k", dump,
                      "-n", "local-path-storage").stdout
    assert "      POD_NAMESPACE:  local-path-storage (v1:metadata.namespace)\n" in provisioner
    deploy = kda("describe", "deploy", "coredns", dump, "-n", "kube-system").stdout
    assert ("  Containers:\n"
            "   coredns:\n"
            "    Image:       k8s.gcr.io/coredns/coredns:v1.8.0\n") in deploy
    assert "    Args:\n      -conf\n      /etc/coredns/Corefile\n" in deploy
    assert ("  Volumes:\n"
            "   config-volume:\n"
            "    Type:               ConfigMap (a volume populated by a ConfigMap)\n"
            "    Name:               coredns\n"
            "    Optional:           false\n"
            "  Priority Class Name:  system-cluster-critical\n") in deploy
    both = kda("describe", "pods", dump, "-A").stdout
    assert "<the dump did not collect Events>\n\n\nName:             sonobuoy\n" in both
    configmap = kda("describe", "cm", "coredns", dump, "-n", "kube-system").stdout
    assert configmap.endswith("BinaryData\n====\n\nEvents:  <the dump did not collect Events>\n")


def test_describe_resource_quotas_with_their_scopes_as_kubectl() -> None:
    # the same sonobuoy results' e2e namespace resourcequota-9871 and its two scoped quotas: kubectl
    # prints a quota's Scopes with its words for each, in the namespace and in the quota's own
    # describe (which was the generic Spec/Status dump)
    dump = str(Path(__file__).parent.parent / "data" / "sonobuoy-without-events")
    ns = kda("describe", "ns", "resourcequota-9871", dump).stdout
    assert ("Resource Quotas\n"
            "  Name:    quota-not-terminating\n"
            "  Scopes:  NotTerminating\n"
            "  * Matches all pods that do not have an active deadline. These pods usually include long running "
            "pods whose container command is not expected to terminate.\n"
            "  Resource         Used  Hard\n"
            "  --------         ---   ---\n"
            "  limits.cpu       0     2\n") in ns
    assert "  Name:            quota-terminating\n  Scopes:          Terminating\n" in ns
    quota = kda("describe", "quota", "quota-terminating", dump, "-n", "resourcequota-9871").stdout
    assert quota == (
        "Name:       quota-terminating\n"
        "Namespace:  resourcequota-9871\n"
        "Scopes:     Terminating\n"
        " * Matches all pods that have an active deadline. These pods have a limited lifespan on a node before "
        "being actively terminated by the system.\n"
        "Resource         Used   Hard\n"
        "--------         ----   ----\n"
        "limits.cpu       1      2\n"
        "limits.memory    400Mi  1Gi\n"
        "pods             1      5\n"
        "requests.cpu     500m   1\n"
        "requests.memory  200Mi  500Mi\n")


def test_describe_service_without_selector_says_none_as_kubectl() -> None:
    # the same sonobuoy results' default/kubernetes Service: kubectl formats a Service's selector
    # as labels (<none> when it has none), a workload's as a label selector (empty)
    dump = str(Path(__file__).parent.parent / "data" / "sonobuoy-without-events")
    service = kda("describe", "svc", "kubernetes", dump).stdout
    assert "\nSelector:          <none>\nType:              ClusterIP\n" in service


@needs_kubectl
def test_describe_bindings_and_quotas_read_as_kubectl_describe(tmp_path: Path) -> None:
    # the same sonobuoy results' kube-public RoleBinding (a User subject, no namespace) and two
    # ClusterRoleBindings (a Group; a ServiceAccount with its namespace): kubectl's binding
    # describer, where kda printed the generic Metadata/Role Ref/Subjects dump
    dump = Path(__file__).parent.parent / "data" / "sonobuoy-without-events"
    with serving([dump], tmp_path / "srv") as s:
        for args in (("rolebindings", "-A"), ("clusterrolebindings",), ("resourcequotas", "-A")):
            ours = kda("describe", args[0], str(dump), *args[1:]).stdout
            theirs = s.kubectl("describe", *args).stdout
            assert ours == theirs, args
    binding = kda("describe", "clusterrolebinding", "system:controller:replicaset-controller", str(dump)).stdout
    assert binding.endswith("Subjects:\n  Kind            Name                   Namespace\n"
                            "  ----            ----                   ---------\n"
                            "  ServiceAccount  replicaset-controller  kube-system\n")


def test_describe_prints_topology_spread_constraints_as_kubectl() -> None:
    # realdata k3s/troubleshoot-testdata-supportbundle (replicatedhq/troubleshoot testdata): k3s's
    # CoreDNS spreads over hosts; kubectl prints the constraint after a pod's Tolerations and after
    # a template's Volumes, which kda left out
    bundle = REALDATA / "k3s/troubleshoot-testdata-supportbundle"
    if not bundle.exists():
        pytest.skip("realdata not beside the checkout")
    spread = "kubernetes.io/hostname:DoNotSchedule when max skew 1 is exceeded for selector k8s-app=kube-dns\n"
    pod = kda("describe", "pod", "coredns-b96499967-tncf4", str(bundle), "-n", "kube-system").stdout
    assert "\nTopology Spread Constraints:  " + spread + "Events:" in pod
    deploy = kda("describe", "deploy", "coredns", str(bundle), "-n", "kube-system").stdout
    assert ("    Optional:                   true\n  Topology Spread Constraints:  " + spread
            + "  Priority Class Name:          system-cluster-critical\n") in deploy


# easzlab/kubeasz#355 (CoreDNS 1.2.2 on CentOS, 2018-11-05): the reporter's `kubectl logs` of the
# crash-looping pod, trimmed to its last lines.
_KUBEASZ_LOG = """\
[root@localhost ~]# kubectl logs -f -n kube-system coredns-56684f94d6-f7tzp
.:53
2018/11/05 13:48:16 [INFO] plugin/reload: Running configuration MD5 = afbaa991cc09b91b885a205d9b1a451b
2018/11/05 13:48:22 [FATAL] plugin/loop: Seen "HINFO IN 4849932600568443392.1730530029506169038." more than twice, loop detected
"""


def test_logs_name_a_log_saved_without_its_container_by_its_pod(tmp_path: Path) -> None:
    # Before: '1 line(s) of kube-system/coredns-56684f94d6-f7tzp/ match', the container it does
    # not know a trailing '/'
    paste = tmp_path / "kubeasz-355.txt"
    paste.write_text(_KUBEASZ_LOG)
    done = subprocess.run([sys.executable, "-m", "analyzer", "logs", str(paste), "coredns-56684f94d6-f7tzp",
                           "-n", "kube-system"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    assert done.returncode == 0, done.stdout
    lines = done.stdout.splitlines()
    assert lines[-3].endswith("more than twice, loop detected")
    assert lines[-2] == "1 line(s) of kube-system/coredns-56684f94d6-f7tzp match known log signatures:"


def test_logs_of_a_nodes_journal(tmp_path: Path) -> None:
    """`kda logs DUMP node/NAME` prints the journal lines the dump holds of a node as journalctl
    printed them, `--all --grep` searches them too (trimmed from a kubeadm cluster's notes in the
    public code index: explorer-6's kubelet stopped by swap)."""
    notes = tmp_path / "notes.md"
    notes.write_text(
        "kubectl get nodes\n"
        "NAME         STATUS     ROLES           AGE   VERSION\n"
        "explorer-6   NotReady   <none>          35d   v1.29.12\n"
        "\n"
        "    journalctl -u kubelet -n 30 --no-pager\n"
        '    Nov 09 16:07:17 explorer-6 kubelet[7557]: E1109 16:07:17.023811    7557 run.go:74] "command failed" '
        'err="failed to run Kubelet: running with swap on is not supported"\n'
        "    Nov 09 16:07:17 explorer-6 systemd[1]: kubelet.service: Main process exited, code=exited, status=1/FAILURE\n")
    printed = kda("logs", str(notes), "node/explorer-6", "--tail", "1").stdout
    assert printed == ("Nov 09 16:07:17 explorer-6 systemd[1]: kubelet.service: Main process exited, code=exited, "
                       "status=1/FAILURE\n")
    found = kda("logs", str(notes), "--all", "--grep", "swap").stdout.splitlines()
    assert found == ['node/explorer-6 (kubelet): Nov 09 16:07:17 explorer-6 kubelet[7557]: E1109 16:07:17.023811    '
                     '7557 run.go:74] "command failed" err="failed to run Kubelet: running with swap on is not supported"']
    other = kda("logs", str(notes), "node/explorer-7", check=False)
    assert other.returncode == 1 and "the dump holds no journal of node explorer-7 (it holds explorer-6's)" in other.stderr


def test_logs_of_a_nodes_journal_printed_under_its_hostname_in_capitals(tmp_path: Path) -> None:
    """The kubelet registers its node under the hostname lowercased; journalctl prints the hostname
    as set (fujitatomoya/ros_k8s#22, trimmed). Before: 'the dump holds no journal of node
    tomoyafujita-hp-compaq-elite-8300-sff'."""
    paste = tmp_path / "issue.md"
    paste.write_text(
        "root@tomoyafujita-HP-Compaq-Elite-8300-SFF:~# journalctl -u kubelet -f\n"
        "Apr 16 22:26:45 tomoyafujita-HP-Compaq-Elite-8300-SFF kubelet[10125]: E0416 22:26:45.154902   10125 "
        'kubelet.go:2373] "Container runtime network not ready"\n')
    printed = kda("logs", str(paste), "node/tomoyafujita-hp-compaq-elite-8300-sff").stdout
    assert printed == ("Apr 16 22:26:45 tomoyafujita-HP-Compaq-Elite-8300-SFF kubelet[10125]: E0416 22:26:45.154902   "
                       '10125 kubelet.go:2373] "Container runtime network not ready"\n')


def _restarted_describe() -> str:
    """kubernetes/kubernetes#122256's describe, as pod-recent-restart's case holds it: its newest
    time is the container's start after the restart, so the capture came then or later and every
    age from it is a lower bound."""
    from analyzer.safeyaml import load_yaml

    cases = load_yaml((Path(__file__).parents[1] / "findings" / "cases" / "pod-recent-restart.yaml").read_text())
    return next(c["files"]["describe.txt"] for c in cases["cases"] if "wk64c" in str(c.get("files", "")))


def test_ages_under_a_capture_that_is_a_lower_bound_say_so_beside_the_columns(tmp_path: Path) -> None:
    paste = tmp_path / "describe.txt"
    paste.write_text(_restarted_describe())
    note = ("Warning: ages are measured from 2023-11-13T02:50:57Z (container state), the newest time the "
            "dump holds; it was captured then or later, so each age is at least what it shows")
    got = kda("get", "pods", str(paste))
    assert got.stdout.splitlines()[0].split() == ["NAME", "READY", "STATUS", "RESTARTS", "AGE"]  # kubectl's columns
    assert note in got.stderr
    assert note in kda("describe", "pod", "wk64c", str(paste)).stderr
    assert kda("timeline", str(paste)).stdout.rstrip().endswith(
        "captured 2023-11-13T02:50:57Z or later (container state, the newest time the dump holds)")
    # a capture dated by heartbeats: ages as kubectl's, no note
    heartbeat = kda("get", "pods", "-A", str(SAMPLE_DUMPS / "aks"))
    assert heartbeat.stdout and "Warning: ages" not in heartbeat.stderr


HPA_V1 = Path(__file__).parent.parent / "data" / "hpa" / "autoscaling-v1.yaml"
# oam-dev/rudr#324 (2019): `kubectl get hpa -o yaml` at autoscaling/v1, its conditions and its memory
# metric in annotations, trimmed (HPA_V1); TheOutdoorProgrammer/manifests.io#92 (EKS 1.25): an
# autoscaling/v2 HPA's status, its spec this test's. Before: the generic layout (`API Version:`,
# `Spec:`), no Metrics or Conditions table as kubectl's HPA describer prints them.
_HPA_V2 = """\
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: default, creationTimestamp: "2023-04-02T08:28:20Z"}
spec:
  minReplicas: 1
  maxReplicas: 2
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}]
status:
  conditions:
  - {type: ScalingLimited, status: "True", reason: TooManyReplicas, message: the desired replica count is more than the maximum replica count, lastTransitionTime: "2023-04-02T09:07:55Z"}
  currentMetrics: [{type: Resource, resource: {name: cpu, current: {averageUtilization: 150, averageValue: 301m}}}]
  currentReplicas: 2
  desiredReplicas: 2
"""


def test_describe_hpa_prints_kubectls_metrics_and_conditions(tmp_path: Path) -> None:
    v1_dump = str(HPA_V1)
    v1 = kda("describe", "hpa", "autoscaled-repsvc-trait-autoscaler", v1_dump).stdout.splitlines()
    assert [line for line in v1 if line.startswith(("Metrics:", "  resource", "Min replicas:", "Deployment pods:"))] == [
        "Metrics:                                                  ( current / target )",
        "  resource memory on pods  (as a percentage of request):  <unknown> / 50%",
        "Min replicas:                                             2",
        "Deployment pods:                                          2 current / 2 desired"]
    conditions = v1[v1.index("Conditions:") + 1:v1.index("Conditions:") + 5]
    assert [line.split()[:3] for line in conditions] == [
        ["Type", "Status", "Reason"], ["----", "------", "------"], ["AbleToScale", "True", "SucceededGetScale"],
        ["ScalingActive", "False", "FailedGetResourceMetric"]]
    (tmp_path / "v2.yaml").write_text(_HPA_V2)
    v2 = kda("describe", "hpa", "web", str(tmp_path / "v2.yaml")).stdout
    assert "  resource cpu on pods  (as a percentage of request):  150% (301m) / 50%\n" in v2
    assert "  ScalingLimited  True    TooManyReplicas  the desired replica count is more than the maximum replica count\n" in v2
    # kubectl get's TARGETS of the v1 HPA: its annotated memory target, as the API server serves it
    row = kda("get", "hpa", v1_dump).stdout.splitlines()[1].split()
    assert row[2:5] == ["memory:", "<unknown>/50%", "2"]
