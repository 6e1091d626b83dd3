"""A real kubectl against `kda serve`: every output form, selectors, paging, custom resources,
describe, logs, watch, refused writes, coverage; counts checked against `kda tables`."""

from __future__ import annotations

import csv
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REALDATA, SAMPLE_DUMPS
from kubectl_server import Served, kubectl_minor, needs_current_kubectl, needs_kubectl, serving

pytestmark = needs_kubectl

# Sample dumps (one per distribution and form) and real dumps: a support bundle with CRDs and
# printer columns (kURL, longhorn), one with logs and previous logs (k3s), a cluster-info dump
# with logs (kubeadm), and an OpenShift must-gather.
SAMPLES = [SAMPLE_DUMPS / n for n in ("aks", "eks", "kubeadm", "oke")]
REAL = [REALDATA / p for p in (
    "kubeadm/sbctl-kurl-supportbundle", "k3s/troubleshoot-testdata-supportbundle",
    "kubeadm/cka-3c97-cluster-info-dump/cluster-info-dump.json", "openshift/must-gather-clean-aws",
    # a Harvester (RKE2) support-bundle-kit bundle, with the metrics API's PodMetrics
    "rke2/support-bundle-kit-harvester",
    # pasted `kubectl get -o wide` text (EKS), as a support ticket carries it
    "eks/holmesgpt-fixtures/test_investigate/08_memory_pressure/kubectl_get_all.txt",
)]
DUMPS = SAMPLES + [p for p in REAL if p.exists()]


def _context(path: Path) -> str:
    return path.name.removesuffix(".json").removesuffix(".txt")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Served:
    with serving(DUMPS, tmp_path_factory.mktemp("serve")) as s:
        yield s


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    for f in sorted(path.rglob("*")) if path.is_dir() else [path]:
        if f.is_file():
            h.update(str(f).encode())
            h.update(f.read_bytes())
    return h.hexdigest()


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, int]]:
    """Row counts of `kda tables --table all` per dump (pods, nodes, services, namespaces)."""
    out: dict[str, dict[str, int]] = {}
    for dump in DUMPS:
        target = tmp_path_factory.mktemp("tables")
        subprocess.run([sys.executable, "-m", "analyzer", "tables", str(dump), "--table", "all", "--format", "csv",
                        "-o", str(target)], check=True, capture_output=True)
        counts = {}
        for name in ("pods", "nodes", "services", "events"):
            with (target / f"{name}.csv").open(newline="", encoding="utf-8") as f:
                counts[name] = sum(1 for _ in csv.reader(f)) - 1
        out[_context(dump)] = counts
    return out


@pytest.mark.parametrize("dump", DUMPS, ids=_context)
def test_list_counts_agree_with_kda_tables(served: Served, tables: dict[str, dict[str, int]], dump: Path) -> None:
    ctx = _context(dump)
    store = next(s for s in served.stores if s.name == ctx)
    for resource in ("pods", "nodes", "services", "events"):
        done = served.kubectl("--context", ctx, "get", resource, "-A", "-o", "name", check=False)
        if done.returncode != 0:
            # only a kind the dump did not collect may fail, and it says so
            assert "the dump did not collect" in done.stderr, done.stderr
            assert not store.catalog.resolve(resource).objects
            assert tables[ctx][resource] == 0
            continue
        assert len(done.stdout.splitlines()) == tables[ctx][resource], (ctx, resource)


def test_every_output_form(served: Served) -> None:
    k = served.kubectl
    wide = k("--context", "aks", "get", "pods", "-n", "shop", "-o", "wide").stdout.splitlines()
    assert wide[0].split()[:5] == ["NAME", "READY", "STATUS", "RESTARTS", "AGE"]
    assert "NOMINATED NODE" in wide[0] and "READINESS GATES" in wide[0]
    assert any("CrashLoopBackOff" in line and "14 (" in line for line in wide)
    plain = k("--context", "aks", "get", "pods", "-n", "shop").stdout.splitlines()
    assert "IP" not in plain[0].split() and len(plain) == len(wide)
    items = json.loads(k("--context", "aks", "get", "pods", "-n", "shop", "-o", "json").stdout)["items"]
    assert len(items) == len(wide) - 1 and all(i["kind"] == "Pod" for i in items)
    yaml_text = k("--context", "aks", "get", "deploy", "cart", "-n", "shop", "-o", "yaml").stdout
    assert "kind: Deployment" in yaml_text and "name: cart" in yaml_text
    names = k("--context", "aks", "get", "deploy", "-n", "shop", "-o", "name").stdout.split()
    assert "deployment.apps/cart" in names
    jsonpath = k("--context", "aks", "get", "pods", "-n", "shop", "-o", "jsonpath={.items[*].metadata.name}").stdout
    assert sorted(jsonpath.split()) == sorted(i["metadata"]["name"] for i in items)
    custom = k("--context", "aks", "get", "pods", "-n", "shop", "-o",
               "custom-columns=NAME:.metadata.name,NODE:.spec.nodeName").stdout.splitlines()
    assert custom[0].split() == ["NAME", "NODE"] and len(custom) == len(wide)


def test_selectors_and_paging(served: Served) -> None:
    k = served.kubectl
    store = next(s for s in served.stores if s.name == "aks")
    pods = store.catalog.resolve("pods")
    bodies = store.bodies(pods, pods.objects)

    def names(*args: str) -> list[str]:
        return sorted(line.split("/", 1)[1] for line in k("--context", "aks", "get", "pods", "-A", "-o", "name",
                                                        *args).stdout.split())

    def expected(pred) -> list[str]:
        return sorted(b["metadata"]["name"] for b in bodies if pred(b))

    def label(b, key):
        return (b["metadata"].get("labels") or {}).get(key)

    assert names("-l", "app=cart") == expected(lambda b: label(b, "app") == "cart") != []
    assert names("-l", "app in (cart,redis)") == expected(lambda b: label(b, "app") in ("cart", "redis"))
    assert names("-l", "app notin (cart),app") == expected(lambda b: label(b, "app") not in (None, "cart"))
    assert names("-l", "app!=cart") == expected(lambda b: label(b, "app") != "cart")
    assert names("-l", "!app") == expected(lambda b: label(b, "app") is None)
    node = bodies[0]["spec"]["nodeName"]
    assert names("--field-selector", f"spec.nodeName={node}") == expected(lambda b: b["spec"].get("nodeName") == node)
    assert names("--field-selector", "status.phase!=Running") == expected(lambda b: b["status"].get("phase") != "Running") != []
    bad = k("--context", "aks", "get", "pods", "--field-selector", "spec.nope=1", check=False)
    assert bad.returncode != 0 and "field label not supported: spec.nope" in bad.stderr
    events = k("--context", "aks", "get", "events", "-A", "--field-selector", "involvedObject.kind=Node", "-o", "name")
    assert events.stdout.strip() and all(line.startswith("event/") for line in events.stdout.split())
    # paging: small chunks give the same rows as one list
    whole = k("--context", "aks", "get", "pods", "-A").stdout
    assert k("--context", "aks", "get", "pods", "-A", "--chunk-size=4").stdout == whole


def test_custom_resources_print_their_printer_columns(served: Served) -> None:
    if not (REALDATA / "kubeadm/sbctl-kurl-supportbundle").exists():
        pytest.skip("realdata not beside the checkout")
    k = served.kubectl
    resources = k("--context", "sbctl-kurl-supportbundle", "api-resources").stdout
    assert "nodes.longhorn.io" not in resources  # api-resources names plural and group apart
    assert any(line.split()[0] == "nodes" and "longhorn.io" in line for line in resources.splitlines())
    out = k("--context", "sbctl-kurl-supportbundle", "get", "nodes.longhorn.io", "-A").stdout.splitlines()
    store = next(s for s in served.stores if s.name == "sbctl-kurl-supportbundle")
    res = store.catalog.get("longhorn.io", "Node")
    columns = [c["name"].upper() for c in res.crd["spec"]["versions"][0]["additionalPrinterColumns"]
               if not c.get("priority")]
    assert out[0].split()[:2] == ["NAMESPACE", "NAME"]
    assert " ".join(out[0].split()[2:]) == " ".join(columns)
    assert len(out) == 1 + len(res.objects)
    # a built-in Node is still a built-in Node
    nodes = k("--context", "sbctl-kurl-supportbundle", "get", "nodes").stdout.splitlines()
    assert nodes[0].split() == ["NAME", "STATUS", "ROLES", "AGE", "VERSION"]


def test_openshift_config_kinds_print_as_oc_does_without_their_crd(served: Served) -> None:
    """A must-gather holds ClusterOperators, never their CRD: `kubectl get co` still resolves
    (the short name) and prints OpenShift's columns, not NAME and AGE."""
    if not (REALDATA / "openshift/must-gather-clean-aws").exists():
        pytest.skip("realdata not beside the checkout")
    k = served.kubectl
    co = k("--context", "must-gather-clean-aws", "get", "co").stdout.splitlines()
    assert co[0].split() == ["NAME", "VERSION", "AVAILABLE", "PROGRESSING", "DEGRADED", "SINCE", "MESSAGE"]
    assert co[1].split() == ["authentication", "4.8.0-0.nightly-2021-07-31-065602", "True", "False", "False", "27m"]
    cv = k("--context", "must-gather-clean-aws", "get", "clusterversion").stdout.splitlines()
    assert cv[0].split() == ["NAME", "VERSION", "AVAILABLE", "PROGRESSING", "SINCE", "STATUS"]
    assert cv[1].split()[-4:] == ["27m", "Cluster", "version", "is", "4.8.0-0.nightly-2021-07-31-065602"][-4:]


def test_describe_every_layout(served: Served) -> None:
    k = served.kubectl
    node = k("--context", "aks", "get", "nodes", "-o", "name").stdout.split()[0].split("/")[1]
    text = k("--context", "aks", "describe", "node", node).stdout
    assert f"Name:               {node}" in text and "Non-terminated Pods:" in text and "Allocated resources:" in text
    pod = k("--context", "aks", "describe", "pod", "-n", "shop", "-l", "app=cart").stdout
    assert "Controlled By:  ReplicaSet/" in pod and "Events:" in pod
    assert "Replicas:" in k("--context", "aks", "describe", "deploy", "cart", "-n", "shop").stdout
    assert "Type:                     LoadBalancer" in k("--context", "aks", "describe", "svc", "frontend", "-n", "shop").stdout
    generic = k("--context", "aks", "describe", "events", "-n", "shop").stdout
    assert "Involved Object:" in generic


def test_logs_of_a_nodes_log_files_with_and_without_timestamps(tmp_path: Path) -> None:
    """kubectl logs of a kind export's container log file prints the container's text, and with
    --timestamps the runtime's time of each line (clineberry/keycloak-in-kind-stuff @ b37dd9e,
    logs/local-test-control-plane/pods/.../coredns/0.log, its first two lines)."""
    log = tmp_path / "kind/local-test-control-plane/pods/kube-system_coredns-6d4b75cb6d-gr6m2_683487a2-06cc-425d-bdb6-81183c881bef/coredns/0.log"
    log.parent.mkdir(parents=True)
    log.write_bytes(b"2022-11-29T20:55:50.434917358Z stdout F .:53\n"
                    b"2022-11-29T20:55:50.435078483Z stdout F CoreDNS-1.8.6\n")
    # (kubectl asks for the pod first: the pod the path names, as its object would read)
    (tmp_path / "kind/pods.json").write_text(json.dumps({"apiVersion": "v1", "kind": "Pod", "metadata": {
        "name": "coredns-6d4b75cb6d-gr6m2", "namespace": "kube-system", "uid": "683487a2-06cc-425d-bdb6-81183c881bef"},
        "spec": {"containers": [{"name": "coredns", "image": "k8s.gcr.io/coredns/coredns:v1.8.6"}]}}))
    with serving([tmp_path / "kind"], tmp_path) as served:
        pod = ("logs", "coredns-6d4b75cb6d-gr6m2", "-n", "kube-system")
        assert served.kubectl(*pod).stdout == ".:53\nCoreDNS-1.8.6\n"
        stamped = served.kubectl(*pod, "--timestamps", "--tail", "1")
        assert stamped.stdout == "2022-11-29T20:55:50.435078483Z CoreDNS-1.8.6\n" and not stamped.stderr


def test_logs(served: Served) -> None:
    if not (REALDATA / "k3s/troubleshoot-testdata-supportbundle").exists():
        pytest.skip("realdata not beside the checkout")
    k = served.kubectl
    ctx = ("--context", "troubleshoot-testdata-supportbundle")
    store = next(s for s in served.stores if s.name == "troubleshoot-testdata-supportbundle")
    saved = {(r.pod, r.container, r.previous): r.text for r in store.result.logs}
    # the only container, without -c
    assert k(*ctx, "logs", "coredns-b96499967-tncf4", "-n", "kube-system").stdout == saved[("coredns-b96499967-tncf4", "coredns", False)]
    assert k(*ctx, "logs", "coredns-b96499967-tncf4", "-n", "kube-system", "--previous").stdout == \
        saved[("coredns-b96499967-tncf4", "coredns", True)]
    # two containers: -c picks, none says which to choose
    two = ("nginx-deployment-7986654d4-ztx2g", "-n", "default")
    assert k(*ctx, "logs", *two, "-c", "nginx").stdout == saved[("nginx-deployment-7986654d4-ztx2g", "nginx", False)]
    tail = k(*ctx, "logs", *two, "-c", "hello", "--tail", "3").stdout
    assert tail.splitlines() == saved[("nginx-deployment-7986654d4-ztx2g", "hello", False)].splitlines()[-3:]
    first = k(*ctx, "logs", *two, check=False)
    if kubectl_minor() >= 22:
        # kubectl itself picks the first container when the pod has several (and says so)
        assert first.stdout == saved[("nginx-deployment-7986654d4-ztx2g", "nginx", False)]
        assert 'Defaulted container "nginx"' in first.stderr
    else:  # an older kubectl asks the server, which names the choices
        assert first.returncode != 0 and "choose one of: [nginx hello]" in first.stderr
    stamped = k(*ctx, "logs", *two, "-c", "nginx", "--timestamps", "--tail", "1")
    assert "no timestamps" in stamped.stderr
    # a container whose previous instance the dump did not log: an empty log, and a warning why
    prev = k(*ctx, "logs", "helm-install-traefik-2fxbg", "-n", "kube-system", "--previous", check=False)
    assert (prev.returncode, prev.stdout) == (0, "")
    assert "Warning: the dump holds no previous log for container helm of pod helm-install-traefik-2fxbg" in \
        prev.stderr
    # a container whose status says it never ran before (no restart, no last state): the
    # kubelet's answer, not a log the dump missed
    never = k(*ctx, "logs", "helm-install-traefik-crd-q2ndn", "-n", "kube-system", "--previous", check=False)
    assert never.returncode != 0 and never.stdout == ""
    assert 'previous terminated container "helm" in pod "helm-install-traefik-crd-q2ndn" not found (its status ' \
        "shows no restart)" in never.stderr
    # a pod of a dump that holds no logs at all
    missing = k("--context", "aks", "logs", "redis-nrgmb8szf-rlbgs", "-n", "shop", check=False)
    assert (missing.returncode, missing.stdout) == (0, "")
    assert "Warning: the dump holds no log for container redis of pod redis-nrgmb8szf-rlbgs" in missing.stderr
    # a container the pod does not have, or a pod the dump does not hold, stays an error
    wrong = k("--context", "aks", "logs", "redis-nrgmb8szf-rlbgs", "-n", "shop", "-c", "nope", check=False)
    assert wrong.returncode != 0 and "container nope is not valid for pod redis-nrgmb8szf-rlbgs" in wrong.stderr
    absent = k("--context", "aks", "logs", "no-such-pod", "-n", "shop", check=False)
    assert absent.returncode != 0 and 'pods "no-such-pod" not found' in absent.stderr


def test_describe_says_its_event_ages_are_counted_from_now(served: Served) -> None:
    """kubectl describe words an event's age from its own clock (4y231d for the kURL bundle's
    velero pod, whose events were seconds old when captured): the server cannot move that, so it
    says from when to read them, on the events search describe makes (realdata
    kubeadm/sbctl-kurl-supportbundle, replicatedhq/sbctl tests/support-bundle)."""
    if not (REALDATA / "kubeadm/sbctl-kurl-supportbundle").exists():
        pytest.skip("realdata not beside the checkout")
    ctx = ("--context", "sbctl-kurl-supportbundle", "-n", "velero")
    said = ("Warning: kubectl describe counts event ages from now, not from the dump's capture at "
            "2022-04-12T00:59:01Z: kda describe counts them from the capture")
    described = served.kubectl(*ctx, "describe", "pod", "velero-6996dd565b-xl44t")
    assert "Back-off restarting failed container" in described.stdout and said in described.stderr
    # a listing of events words their ages itself, from the capture: nothing to say there
    listed = served.kubectl(*ctx, "get", "events")
    assert "Back-off restarting failed container" in listed.stdout and said not in listed.stderr


def test_events_reported_by_controller_name_it_as_kubectl_does(served: Served) -> None:
    """An event of the new API (the scheduler's Scheduled) names its reporter in core/v1's
    `reportingComponent`, not `reportingController`: `get events -o wide` printed its SOURCE as
    ", default-scheduler-troubleshoot-demo-001" and kda describe its From empty, where kubectl
    prints "default-scheduler" (realdata kubeadm/sbctl-kurl-supportbundle, replicatedhq/sbctl
    tests/support-bundle, cluster-resources/events/velero.json)."""
    if not (REALDATA / "kubeadm/sbctl-kurl-supportbundle").exists():
        pytest.skip("realdata not beside the checkout")
    ctx = ("--context", "sbctl-kurl-supportbundle", "-n", "velero")
    pod = "velero-6996dd565b-xl44t"
    wide = served.kubectl(*ctx, "get", "events", "-o", "wide", "--field-selector", f"involvedObject.name={pod}")
    scheduled = next(line for line in wide.stdout.splitlines() if " Scheduled " in line)
    assert "   default-scheduler, default-scheduler-troubleshoot-demo-001   " in scheduled
    theirs = served.kubectl(*ctx, "describe", "pod", pod).stdout
    ours = subprocess.run([sys.executable, "-m", "analyzer", "describe", "pod", pod, "-n", "velero",
                           str(REALDATA / "kubeadm/sbctl-kurl-supportbundle")], capture_output=True, text=True,
                          check=True).stdout

    def from_of_scheduled(text: str) -> str:
        return next(line for line in text.splitlines() if "  Scheduled  " in line).split()[3]
    assert from_of_scheduled(ours) == from_of_scheduled(theirs) == "default-scheduler"


def test_version_and_metrics_say_what_the_dump_does_not_state(tmp_path: Path) -> None:
    """`kubectl version` said v0.0.0, or a kubelet's version as the server's, without a word, where
    the dump states no server version; `get --raw /metrics` only 'could not find the requested
    resource'. Trimmed realdata: k3s/troubleshoot-testdata-supportbundle's cluster-resources/
    nodes.json without its cluster-info/cluster_version.json, and that file alone (replicatedhq/
    troubleshoot testdata/supportbundle), and minikube/troubleshoot-analyze-files/pods/message-oomkill-pod.json
    (replicatedhq/troubleshoot pkg/analyze/files), which holds pods alone."""
    nodes = REALDATA / "k3s/troubleshoot-testdata-supportbundle/cluster-resources/nodes.json"
    pods = REALDATA / "minikube/troubleshoot-analyze-files/pods/message-oomkill-pod.json"
    if not (nodes.exists() and pods.exists()):
        pytest.skip("realdata not beside the checkout")
    (tmp_path / "nodes-only/cluster-resources").mkdir(parents=True)
    (tmp_path / "nodes-only/cluster-resources/nodes.json").write_bytes(nodes.read_bytes())
    (tmp_path / "pods-only/cluster-resources/pods").mkdir(parents=True)
    (tmp_path / "pods-only/cluster-resources/pods/message-oomkill-pod.json").write_bytes(pods.read_bytes())
    (tmp_path / "stated/cluster-info").mkdir(parents=True)
    (tmp_path / "stated/cluster-info/cluster_version.json").write_bytes(
        (nodes.parents[1] / "cluster-info/cluster_version.json").read_bytes())
    with serving([tmp_path / "nodes-only", tmp_path / "pods-only", tmp_path / "stated"], tmp_path) as served:
        by_kubelet = served.kubectl("--context", "nodes-only", "version")
        assert "Server Version: v1.24.4+k3s1" in by_kubelet.stdout
        assert ("Warning: the dump states no API server version: v1.24.4+k3s1 is its newest node's kubeletVersion, "
                "and an API server is that version or newer") in by_kubelet.stderr
        unknown = served.kubectl("--context", "pods-only", "version", check=False)
        assert "Server Version: v0.0.0" in unknown.stdout
        assert "Warning: the dump states no API server version and holds no node to tell it by" in unknown.stderr
        metrics = served.kubectl("--context", "pods-only", "get", "--raw", "/metrics", check=False)
        assert metrics.returncode != 0
        assert "the dump did not collect the API server's metrics (/metrics)" in metrics.stderr
        # a version the dump states (its cluster_version.json) is served without a word
        stated = served.kubectl("--context", "stated", "version")
        assert "Server Version: v1.24.4+k3s1" in stated.stdout and "states no API server version" not in stated.stderr


def test_all_containers_logs_go_past_a_log_the_dump_lacks(tmp_path: Path) -> None:
    """`kubectl logs --all-containers` stopped at the first container whose log the dump lacks (a
    must-gather or support bundle saves some containers' logs: in the realdata must-gathers and
    bundles the etcd, weave-net, canal and multus pods' did so), printing no log at all when that
    one came first. A trimmed copy of realdata k3s/troubleshoot-testdata-supportbundle
    (replicatedhq/troubleshoot testdata/supportbundle): its default namespace's pods and the log of
    nginx-deployment's container hello, the one of its container nginx left out."""
    source = REALDATA / "k3s/troubleshoot-testdata-supportbundle/cluster-resources"
    if not source.exists():
        pytest.skip("realdata not beside the checkout")
    pod = "nginx-deployment-7986654d4-ztx2g"
    bundle = tmp_path / "bundle/cluster-resources"
    (bundle / f"pods/logs/default/{pod}").mkdir(parents=True)
    (bundle / "pods/default.json").write_bytes((source / "pods/default.json").read_bytes())
    hello = (source / f"pods/logs/default/{pod}/hello.log").read_text(encoding="utf-8")
    (bundle / f"pods/logs/default/{pod}/hello.log").write_text(hello, encoding="utf-8")
    with serving([tmp_path / "bundle"], tmp_path) as served:
        both = served.kubectl("logs", pod, "--all-containers", check=False)
        assert both.returncode == 0, both.stderr
        assert both.stdout == hello
        assert f"Warning: the dump holds no log for container nginx of pod {pod}" in both.stderr
        prefixed = served.kubectl("logs", pod, "--all-containers", "--prefix").stdout
        assert prefixed.splitlines() == [f"[pod/{pod}/hello] {line}" for line in hello.splitlines()]


def test_cluster_info_dump_logs(served: Served) -> None:
    dump = REALDATA / "kubeadm/cka-3c97-cluster-info-dump/cluster-info-dump.json"
    if not dump.exists():
        pytest.skip("realdata not beside the checkout")
    store = next(s for s in served.stores if s.name == "cluster-info-dump")
    log = store.result.logs[0]
    out = served.kubectl("--context", "cluster-info-dump", "logs", log.pod, "-n", log.namespace).stdout
    assert out == log.text
    prev = served.kubectl("--context", "cluster-info-dump", "logs", log.pod, "-n", log.namespace, "-p", check=False)
    assert prev.returncode == 0 and prev.stdout == "" and "Warning: the dump holds no previous log" in prev.stderr


def test_discovery(served: Served) -> None:
    k = served.kubectl
    resources = k("--context", "aks", "api-resources").stdout
    for name in ("pods", "deployments", "customresourcedefinitions", "leases"):
        assert any(line.split()[0] == name for line in resources.splitlines())
    versions = k("--context", "aks", "api-versions").stdout.split()
    assert "v1" in versions and "apps/v1" in versions
    assert "Server Version: v1.29.7" in k("--context", "aks", "version").stdout


def test_explain_says_the_dump_has_no_schema(served: Served) -> None:
    """`kubectl explain` reads /openapi/v3 then /openapi/v2, which no dump holds: the answer says
    so (a warning: kubectl prints its own words for the 404) and names the cluster's version; it
    said only "could not find the requested resource" (every realdata dump; here the OpenShift
    must-gather, realdata openshift/must-gather-clean-aws)."""
    ctx = "must-gather-clean-aws"
    if not any(s.name == ctx for s in served.stores):
        pytest.skip("realdata not beside the checkout")
    done = served.kubectl("--context", ctx, "explain", "pod", check=False)
    assert done.returncode != 0
    assert "Warning: the dump did not collect the API's OpenAPI schema, which kubectl explain reads" in done.stderr
    assert "a live cluster of version v1.21.1+38b3ecc" in done.stderr


def test_watch_holds_the_stream_open(served: Served) -> None:
    try:
        served.kubectl("--context", "aks", "get", "pods", "-n", "shop", "-w", timeout=4)
        held = False
    except subprocess.TimeoutExpired as exc:
        held = True
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        assert "cart-" in out
    assert held, "kubectl get -w ended by itself: the watch was not held open"


def test_writes_are_refused_and_nothing_changes(served: Served) -> None:
    before = _digest(SAMPLE_DUMPS / "aks")
    done = served.kubectl("--context", "aks", "delete", "pod", "-n", "shop", "redis-nrgmb8szf-rlbgs", check=False)
    assert done.returncode != 0
    assert "MethodNotAllowed" in done.stderr and "read-only: this is a saved dump" in done.stderr
    assert _digest(SAMPLE_DUMPS / "aks") == before
    assert "redis-nrgmb8szf-rlbgs" in served.kubectl("--context", "aks", "get", "pods", "-n", "shop").stdout


def test_access_reviews_allow_reading_only(served: Served) -> None:
    # UIs (k9s) ask "can I?" before they list: reading yes, changing no
    assert served.kubectl("--context", "aks", "auth", "can-i", "list", "pods", "-A").stdout.strip() == "yes"
    denied = served.kubectl("--context", "aks", "auth", "can-i", "delete", "pods", "-n", "shop", check=False)
    assert denied.returncode == 1 and denied.stdout.startswith("no")


# What kubectl 1.32 posts for `kubectl auth can-i delete pods -n x` (its -v=9 request body): a
# protobuf SelfSubjectAccessReview, where older kubectl posted JSON
CAN_I_DELETE_PROTOBUF = bytes.fromhex(
    "6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f763112"
    "1753656c665375626a65637441636365737352657669657712390a100a001200"
    "1a0022002a00320038004200121b0a190a0178120664656c6574651a0022002a"
    "04706f647332003a001a08080012001a0020001a002200")


def test_access_reviews_posted_as_protobuf_are_answered(served: Served) -> None:
    """kubectl 1.32+ posts `auth can-i` reviews as protobuf: every dump answered "the access
    review is not JSON" (cka-3c97 cluster-info dump, realdata kubeadm/cka-3c97-cluster-info-dump)."""
    import urllib.request

    ctx = "cluster-info-dump"
    if not any(s.name == ctx for s in served.stores):
        pytest.skip("realdata not beside the checkout")
    request = urllib.request.Request(
        f"{served.base_url}/dumps/{ctx}/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
        data=CAN_I_DELETE_PROTOBUF, method="POST",
        headers={"Content-Type": "application/vnd.kubernetes.protobuf",
                 "Accept": "application/vnd.kubernetes.protobuf,application/json"})
    with urllib.request.urlopen(request) as answer:
        review = json.loads(answer.read())
    assert review["kind"] == "SelfSubjectAccessReview"
    assert review["spec"]["resourceAttributes"] == {"namespace": "x", "verb": "delete", "group": "", "version": "",
                                                    "resource": "pods", "subresource": "", "name": ""}
    assert review["status"]["allowed"] is False and review["status"]["denied"] is True
    # and the kubectl on PATH, whichever encoding it posts
    k = served.kubectl
    assert k("--context", ctx, "auth", "can-i", "get", "pods", "-n", "kube-system").stdout.strip() == "yes"
    assert k("--context", ctx, "auth", "can-i", "delete", "pods", check=False).stdout.startswith("no")
    rules = k("--context", ctx, "auth", "can-i", "--list", "-n", "kube-system").stdout.splitlines()
    assert rules[0].split()[:3] == ["Resources", "Non-Resource", "URLs"]
    assert any(line.split()[0] == "*.*" and line.rstrip().endswith("[get list watch]") for line in rules[1:])


def test_a_kind_not_collected_says_so(served: Served) -> None:
    done = served.kubectl("--context", "aks", "get", "secrets", "-A", check=False)
    assert done.returncode != 0 and "the dump did not collect Secrets" in done.stderr
    assert "the dump did not collect ReplicationControllers" in served.kubectl(
        "--context", "aks", "get", "rc", "-A", check=False).stderr
    # `get all` shows what the dump holds, without an error per kind it never collected
    everything = served.kubectl("--context", "aks", "get", "all", "-A")
    assert "pod/" in everything.stdout and "deployment.apps/" in everything.stdout and not everything.stderr


def test_python_client_lists_and_watches(served: Served) -> None:
    kubernetes = pytest.importorskip("kubernetes")
    client = kubernetes.config.new_client_from_config(str(served.kubeconfig), context="aks")
    v1 = kubernetes.client.CoreV1Api(client)
    pods = v1.list_pod_for_all_namespaces()
    store = next(s for s in served.stores if s.name == "aks")
    assert len(pods.items) == len(store.catalog.resolve("pods").objects) > 0
    seen = []
    watch = kubernetes.watch.Watch()
    for event in watch.stream(v1.list_pod_for_all_namespaces, timeout_seconds=2):
        seen.append((event["type"], event["object"].metadata.name))
    assert len(seen) == len(pods.items) and {t for t, _ in seen} == {"ADDED"}


def test_pasted_text_serves_what_was_pasted(served: Served) -> None:
    dump = REALDATA / "eks/holmesgpt-fixtures/test_investigate/08_memory_pressure/kubectl_get_all.txt"
    if not dump.exists():
        pytest.skip("realdata not beside the checkout")
    out = served.kubectl("--context", "kubectl_get_all", "get", "nodes", "-o", "wide").stdout.splitlines()
    # the three node rows after the header, without the pasted LABELS column
    pasted = [line.split()[:-1] for line in dump.read_text(encoding="utf-8").splitlines()[4:7]]
    assert [line.split() for line in out[1:]] == pasted


def test_watch_sends_added_then_bookmarks(served: Served) -> None:
    import urllib.request

    base = f"{served.base_url}/dumps/aks/api/v1/namespaces/shop/pods"
    expected = len(served.kubectl("--context", "aks", "get", "pods", "-n", "shop", "-o", "name").stdout.split())
    with urllib.request.urlopen(f"{base}?watch=1&allowWatchBookmarks=true&timeoutSeconds=6", timeout=30) as stream:
        events = [json.loads(line) for line in stream]
    kinds = [e["type"] for e in events]
    assert kinds[:expected] == ["ADDED"] * expected and "BOOKMARK" in kinds[expected:]
    bookmark = next(e for e in events if e["type"] == "BOOKMARK")["object"]
    assert bookmark["kind"] == "Pod" and bookmark["metadata"]["resourceVersion"]
    # a watch from the list's resource version has nothing new to say: a dump does not change
    listed = json.loads(urllib.request.urlopen(base).read())
    rv = listed["metadata"]["resourceVersion"]
    with urllib.request.urlopen(f"{base}?watch=1&resourceVersion={rv}&timeoutSeconds=1", timeout=30) as stream:
        assert stream.read() == b""
    # watch-list: the objects, then a bookmark that says they are all there
    with urllib.request.urlopen(f"{base}?watch=1&sendInitialEvents=true&allowWatchBookmarks=true"
                                f"&resourceVersionMatch=NotOlderThan&timeoutSeconds=1", timeout=30) as stream:
        events = [json.loads(line) for line in stream]
    assert events[expected]["type"] == "BOOKMARK"
    assert events[expected]["object"]["metadata"]["annotations"] == {"k8s.io/initial-events-end": "true"}


def test_credentials_in_logs_env_and_config_maps_are_masked(tmp_path: Path) -> None:
    # A cluster-info dump written for this test: one pod whose env, log and args hold a password
    # (the args as `--db-password VALUE`, two elements), and a ConfigMap holding a connection
    # string and an API key.
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "app", "namespace": "default"},
           "spec": {"containers": [{"name": "app", "image": "app:1", "args": ["--db-password", "hunter2hunter2"],
                                    "env": [{"name": "DB_PASSWORD", "value": "hunter2hunter2"}]}]},
           "status": {"phase": "Running"}}
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "app", "namespace": "default"},
              "data": {"DATABASE_URL": "postgres://app:hunter2hunter2@db:5432/app", "api_key": "k3yk3yk3yk3y",
                       "LOG_LEVEL": "debug"}}
    dump = tmp_path / "cluster-info.txt"
    dump.write_text(json.dumps({"kind": "PodList", "apiVersion": "v1", "items": [pod]}, indent=4) + "\n"
                    + json.dumps({"kind": "ConfigMapList", "apiVersion": "v1", "items": [config]}, indent=4) + "\n"
                    "==== START logs for container app of pod default/app ====\n"
                    "connecting with --password=hunter2hunter2 to db\nready\n", encoding="utf-8")
    with serving([dump], tmp_path / "srv") as s:
        log = s.kubectl("logs", "app", "-n", "default").stdout
        assert "hunter2hunter2" not in log and "ready" in log
        assert "hunter2hunter2" not in s.kubectl("get", "pod", "app", "-n", "default", "-o", "yaml").stdout
        assert "hunter2hunter2" not in s.kubectl("describe", "pod", "app", "-n", "default").stdout
        for shown in (s.kubectl("get", "cm", "app", "-n", "default", "-o", "yaml").stdout,
                      s.kubectl("describe", "cm", "app", "-n", "default").stdout):
            assert "hunter2hunter2" not in shown and "k3yk3yk3yk3y" not in shown
            assert "postgres://app:<redacted>@db:5432/app" in shown and "debug" in shown


def test_top_reads_the_metrics_the_dump_saved(served: Served) -> None:
    if not (REALDATA / "rke2/support-bundle-kit-harvester").exists():
        pytest.skip("realdata not beside the checkout")
    store = next(s for s in served.stores if s.name == "support-bundle-kit-harvester")
    metrics = store.catalog.get("metrics.k8s.io", "PodMetrics").objects
    top = served.kubectl("--context", "support-bundle-kit-harvester", "top", "pods", "-A").stdout.splitlines()
    assert top[0].split() == ["NAMESPACE", "NAME", "CPU(cores)", "MEMORY(bytes)"] and len(top) == 1 + len(metrics)
    missing = served.kubectl("--context", "aks", "top", "pods", "-A", check=False)
    assert missing.returncode != 0 and "the dump did not collect PodMetrics" in missing.stderr


def test_numbers_a_bundle_wrote_as_floats_are_served_as_the_api_serves_them(served: Served) -> None:
    # support-bundle-kit wrote the Harvester nodes through float64 maps: `sizeBytes:
    # 1.194914199e+09`; kubectl refused the node ("cannot unmarshal number 1194914199.0 into Go
    # struct field ContainerImage.status.images.sizeBytes of type int64").
    if not (REALDATA / "rke2/support-bundle-kit-harvester").exists():
        pytest.skip("realdata not beside the checkout")
    k = served.kubectl
    described = k("--context", "support-bundle-kit-harvester", "describe", "nodes", check=False)
    assert described.returncode == 0, described.stderr
    assert "Name:               node1" in described.stdout
    sizes = k("--context", "support-bundle-kit-harvester", "get", "node", "node1",
              "-o", "jsonpath={.status.images[0].sizeBytes}").stdout
    assert sizes == "1194914199"


# Rows of `kubectl get all -A` from k3d-io/k3d#686 (svclb-traefik crash-looping on CentOS), and
# a log of one of its containers as a session would paste it after them (written for this test).
PASTED_ROWS = """$ kubectl get pods -A
NAMESPACE     NAME                                      READY   STATUS             RESTARTS   AGE
kube-system   coredns-7448499f4d-4n7lp                  1/1     Running            0          3m37s
kube-system   svclb-traefik-qk8kq                       0/2     CrashLoopBackOff   2          30s
kube-system   metrics-server-86cbb8457f-qjjlb           1/1     Running            0          3m37s
$ kubectl logs -n kube-system svclb-traefik-qk8kq -c lb-port-80
+ cat /proc/sys/net/ipv4/ip_forward
+ exit 1
$ kubectl logs -n kube-system coredns-7448499f4d-4n7lp
[INFO] plugin/reload: Running configuration MD5 = 442b35f70385f5c97f2491a0ce8a27f6
"""


def test_pods_of_pasted_rows_answer_logs_and_describe(tmp_path: Path) -> None:
    # A row names no container: kubectl logs panicked on the served pod's empty container list,
    # and describe printed an empty Status
    dump = tmp_path / "k3d-686.txt"
    dump.write_text(PASTED_ROWS, encoding="utf-8")
    with serving([dump], tmp_path / "srv") as s:
        unnamed = s.kubectl("logs", "metrics-server-86cbb8457f-qjjlb", "-n", "kube-system", check=False)
        assert unnamed.returncode == 1 and "panic" not in unnamed.stderr
        assert "Error from server (NotFound): the dump holds pod kube-system/metrics-server-86cbb8457f-qjjlb only " \
            "as a row of a pasted kubectl table, and no log of it" in unnamed.stderr
        # the containers a saved log names are the pod's; kubectl's default is then the first
        assert s.kubectl("logs", "svclb-traefik-qk8kq", "-n", "kube-system", "-c", "lb-port-80").stdout == \
            "+ cat /proc/sys/net/ipv4/ip_forward\n+ exit 1\n"
        # `kubectl logs POD` saved without -c is the pod's log when its containers are not named
        assert "plugin/reload" in s.kubectl("logs", "coredns-7448499f4d-4n7lp", "-n", "kube-system").stdout
        other = s.kubectl("logs", "svclb-traefik-qk8kq", "-n", "kube-system", "-c", "<unknown-2>", check=False)
        assert "no log of it: the names of its containers are not in the dump (it holds the logs of lb-port-80)" \
            in other.stderr
        described = s.kubectl("describe", "pod", "svclb-traefik-qk8kq", "-n", "kube-system").stdout
        assert re.search(r"^Status: +Unknown\nReason: +CrashLoopBackOff\nMessage: +read from a row of a pasted "
                         r"kubectl table \(READY 0/2, STATUS CrashLoopBackOff, RESTARTS 2\)", described, re.M)
        assert re.search(r"^Containers:\n  lb-port-80:\n(.*\n)*  <unknown-2>:", described, re.M)
        # the table still prints what was pasted
        rows = s.kubectl("get", "pods", "-n", "kube-system").stdout
        assert re.search(r"svclb-traefik-qk8kq +0/2 +CrashLoopBackOff +2 +30s", rows)


def test_describe_node_of_a_dump_without_pods_shows_the_node(tmp_path: Path) -> None:
    # realdata aks/autoscaler-issue-2805 holds a Node and no pods: kubectl describe node lists
    # the node's pods and stops at any error but Forbidden
    dump = REALDATA / "aks" / "autoscaler-issue-2805"
    if not dump.exists():
        pytest.skip("realdata not present")
    with serving([dump], tmp_path / "srv") as s:
        described = s.kubectl("describe", "node", "aks-linuxpool01-40896687-vmss000002")
        assert re.match(r"Name:\s+aks-linuxpool01-40896687-vmss000002\n", described.stdout)
        assert re.search(r"^Pods:\s+not authorized$", described.stdout, re.MULTILINE)
        listed = s.kubectl("get", "pods", "-A", check=False)
        assert listed.returncode != 0 and "(NotFound)" in listed.stderr
        assert "the dump did not collect Pods" in listed.stderr
        # `get all` says the same, not that the server has no resource type "all"
        everything = s.kubectl("get", "all", "-A", check=False)
        assert everything.returncode != 0 and "the dump did not collect Pods" in everything.stderr


def test_describe_configmap_of_a_dump_without_events_shows_it(tmp_path: Path) -> None:
    # trimmed from vmware-tanzu/sonobuoy test/integration/testdata/results-4-e2e-failures.tar.gz
    # (resources/ns/kube-system/core_v1_configmaps.json, meta/info.json): sonobuoy collects no
    # Events, and kubectl describe configmap, unlike other describers, stops at any error of its
    # events search, so it printed an error in place of every ConfigMap
    dump = Path(__file__).parent.parent / "data" / "sonobuoy-without-events"
    with serving([dump], tmp_path / "srv") as s:
        described = s.kubectl("describe", "configmap", "-n", "kube-system", "coredns")
        assert re.match(r"Name:\s+coredns\nNamespace:\s+kube-system\n", described.stdout)
        assert "kubernetes cluster.local in-addr.arpa ip6.arpa {" in described.stdout
        assert "Warning: the dump did not collect Events" in described.stderr
        # asked for by the user, events still say the dump did not collect them
        for selector in ([], ["--field-selector", "involvedObject.kind=ConfigMap"]):
            listed = s.kubectl("get", "events", "-A", *selector, check=False)
            assert listed.returncode != 0 and "the dump did not collect Events" in listed.stderr


def test_a_dump_of_endpoints_without_slices_serves_the_slices_derived_from_them(tmp_path: Path) -> None:
    # trimmed from vmware-tanzu/sonobuoy test/integration/testdata/results-4-e2e-failures.tar.gz
    # (commit 307560188828ce124c575f60fcd30e8fb7cd45b7; resources/ns/{default,kube-system,
    # services-4744}/core_v1_endpoints.json and core_v1_services.json): sonobuoy collects Endpoints,
    # no EndpointSlices, and kubectl 1.32's describe service reads only slices, so it said
    # "Endpoints: <none>" for every Service
    sonobuoy = Path(__file__).parent.parent / "data" / "sonobuoy-without-events"
    # not-ready and IPv6 addresses, which no Service of that dump has
    own = tmp_path / "not-ready.yaml"
    own.write_text("""apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Service, metadata: {name: web, namespace: shop},
   spec: {selector: {app: web}, clusterIP: 10.0.0.10, ports: [{name: http, port: 80, targetPort: 8080}]}}
- apiVersion: v1
  kind: Endpoints
  metadata: {name: web, namespace: shop}
  subsets:
  - addresses: [{ip: 10.1.0.5, nodeName: n1}]
    notReadyAddresses: [{ip: 10.1.0.6}, {ip: "fd00::6"}]
    ports: [{name: http, port: 8080, protocol: TCP}]
""", encoding="utf-8")
    with serving([sonobuoy, own], tmp_path / "srv") as s:
        ctx = ("--context", "sonobuoy-without-events")
        dns = s.kubectl(*ctx, "describe", "svc", "-n", "kube-system", "kube-dns").stdout
        assert re.findall(r"Endpoints:\s+(\S+)", dns) == ["10.244.0.3:53,10.244.0.4:53"] * 2 + \
            ["10.244.0.3:9153,10.244.0.4:9153"]
        api = s.kubectl(*ctx, "describe", "svc", "kubernetes").stdout
        assert re.search(r"Endpoints:\s+172\.18\.0\.2:6443\n", api)
        # an Endpoints without subsets: none, as before
        nodeport = s.kubectl(*ctx, "describe", "svc", "-n", "services-4744", "nodeport-service").stdout
        assert re.search(r"Endpoints:\s+<none>\n", nodeport)
        listed = json.loads(s.kubectl(*ctx, "get", "endpointslices", "-A", "-o", "json").stdout)["items"]
        by_service = {(i["metadata"]["namespace"], i["metadata"]["labels"]["kubernetes.io/service-name"]):
                      sorted(a for e in i["endpoints"] for a in e["addresses"]) for i in listed}
        assert by_service == {("default", "kubernetes"): ["172.18.0.2"],
                              ("kube-system", "kube-dns"): ["10.244.0.3", "10.244.0.4"],
                              ("services-4744", "externalsvc"): ["10.244.0.64", "10.244.0.65"]}
        dns_slice = next(i for i in listed if i["metadata"]["namespace"] == "kube-system")
        assert dns_slice["metadata"]["labels"]["endpointslice.kubernetes.io/managed-by"] == \
            "endpointslicemirroring-controller.k8s.io"
        assert dns_slice["metadata"]["annotations"]["kda.analyzer/derived-from"] == \
            "derived by kda from Endpoints kube-system/kube-dns: the dump collected no EndpointSlices"
        assert {(e["targetRef"]["name"], e["nodeName"]) for e in dns_slice["endpoints"]} == {
            ("coredns-558bd4d5db-vzb6x", "kind-control-plane"), ("coredns-558bd4d5db-gv559", "kind-control-plane")}
        assert sorted((p["name"], p["port"], p["protocol"]) for p in dns_slice["ports"]) == [
            ("dns", 53, "UDP"), ("dns-tcp", 53, "TCP"), ("metrics", 9153, "TCP")]
        # what the dump read is unchanged: no EndpointSlice among its objects
        store = next(st for st in s.stores if st.name == "sonobuoy-without-events")
        assert not any(o.kind == "EndpointSlice" for o in store.result.objects)
        # a not-ready address is a slice endpoint not ready, left out by describe as the Endpoints leave it
        own_ctx = ("--context", "not-ready.yaml")
        web = s.kubectl(*own_ctx, "describe", "svc", "-n", "shop", "web").stdout
        assert re.search(r"Endpoints:\s+10\.1\.0\.5:8080\n", web)
        slices = json.loads(s.kubectl(*own_ctx, "get", "endpointslices", "-n", "shop", "-o", "json").stdout)["items"]
        assert [(i["addressType"], [(e["addresses"][0], e["conditions"]["ready"]) for e in i["endpoints"]])
                for i in slices] == [("IPv4", [("10.1.0.5", True), ("10.1.0.6", False)]), ("IPv6", [("fd00::6", False)])]


@needs_current_kubectl
def test_an_autoscaling_v1_hpa_is_served_at_v2_as_the_api_server_converts_it(tmp_path: Path) -> None:
    # tests/data/hpa/autoscaling-v1.yaml: oam-dev/rudr#324's and NatLabRockies/openstudio-server-helm#4's
    # HPAs saved at autoscaling/v1. Before: served as `apiVersion: autoscaling/v2` with v1's fields
    # (targetCPUUtilizationPercentage, the conditions annotation), so kubectl describe printed no
    # metric and no Conditions, and -o yaml an object no API server serves.
    dump = Path(__file__).parent.parent / "data" / "hpa" / "autoscaling-v1.yaml"
    with serving([dump], tmp_path / "srv") as s:
        rows = [line.split() for line in s.kubectl("get", "hpa").stdout.splitlines()[1:]]
        assert [row[:4] for row in rows] == [
            ["autoscaled-repsvc-trait-autoscaler", "Deployment/autoscaled-repsvc", "memory:", "<unknown>/50%"],
            ["worker", "Deployment/worker", "cpu:", "<unknown>/50%"]]
        served = json.loads(s.kubectl("get", "hpa", "worker", "-o", "json").stdout)
        assert served["apiVersion"] == "autoscaling/v2"
        assert served["spec"]["metrics"] == [
            {"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 50}}}]
        assert "targetCPUUtilizationPercentage" not in served["spec"] and "annotations" not in served["metadata"]
        assert [(c["type"], c["status"], c["reason"]) for c in served["status"]["conditions"]] == [
            ("AbleToScale", "True", "SucceededGetScale"), ("ScalingActive", "False", "FailedGetResourceMetric")]
        described = s.kubectl("describe", "hpa", "worker").stdout
        assert re.search(r"\n  resource cpu on pods  \(as a percentage of request\):  <unknown> / 50%\n", described)
        assert re.search(r"\n  ScalingActive  False   FailedGetResourceMetric  the HPA was unable to compute", described)
        assert re.search(r"\nAnnotations:\s+<none>\n", described)
        # kda describe reads the same converted object
        kda = subprocess.run([sys.executable, "-m", "analyzer", "describe", "hpa", "worker", str(dump)],
                             capture_output=True, text=True, check=True).stdout
        assert [line for line in kda.splitlines() if line.startswith(("  resource", "  ScalingActive"))] == \
            [line for line in described.splitlines() if line.startswith(("  resource", "  ScalingActive"))]
    # nordic-institute/X-Road-Security-Server-sidecar's autoscaling/v2beta1 HPA: its Pods metric as
    # its kubectl describe printed it, not '"" on pods: <nil> / <nil>' and TARGETS '<unknown>/None'
    beta = Path(__file__).parent.parent / "data" / "hpa" / "autoscaling-v2beta1.yaml"
    with serving([beta], tmp_path / "beta") as s:
        assert s.kubectl("get", "hpa", "-n", "test").stdout.splitlines()[1].split()[2] == "5093m/100"
        described = s.kubectl("describe", "hpa", "-n", "test", "sidecar-secondary-hpa").stdout
        assert re.search(r'\n  "container_network_receive_packets_per_minute" on pods:  5093m / 100\n', described)
        served = json.loads(s.kubectl("get", "hpa", "-n", "test", "-o", "json").stdout)["items"][0]
        assert served["spec"]["metrics"] == [{"type": "Pods", "pods": {
            "metric": {"name": "container_network_receive_packets_per_minute"},
            "target": {"type": "AverageValue", "averageValue": "100"}}}]


@needs_current_kubectl
def test_an_extensions_v1beta1_ingress_is_served_at_v1_as_the_api_server_converts_it(tmp_path: Path) -> None:
    # tests/data/ingress/extensions-v1beta1.yaml: kubernetes-el's saved `get ingress` at v1beta1.
    # Before: served as networking.k8s.io/v1 with serviceName/servicePort, so kubectl describe
    # printed 'Default backend: <default>' and each path without its backend.
    dump = Path(__file__).parent.parent / "data" / "ingress" / "extensions-v1beta1.yaml"
    with serving([dump], tmp_path / "srv") as s:
        described = s.kubectl("describe", "ingress", "example-ingress").stdout
        assert re.search(r"\nDefault backend:\s+default-http-backend:80 \(", described)
        assert re.search(r"\n\s+/\s+example-service:80 \(", described)
        other = s.kubectl("describe", "ingress", "clojurescript-ingress").stdout
        assert re.search(r"\nDefault backend:\s+<default>\n", other)
        assert re.search(r"\n\s+/\s+nginx-service:80 \(", other)
        served = json.loads(s.kubectl("get", "ingress", "example-ingress", "-o", "json").stdout)
        assert served["apiVersion"] == "networking.k8s.io/v1" and "backend" not in served["spec"]
        assert served["spec"]["defaultBackend"] == {"service": {"name": "default-http-backend", "port": {"number": 80}}}
        assert served["spec"]["rules"][0]["http"]["paths"] == [
            {"path": "/", "pathType": "ImplementationSpecific",
             "backend": {"service": {"name": "example-service", "port": {"number": 80}}}}]


# realdata aks/holmesgpt-fixtures/test_ask_holmes/158_slack_chat_correct_date/
# kubectl_get_yamlpod_frontend-service_default.txt (robusta-dev/holmesgpt tests/llm/fixtures, same
# path), trimmed to its HolmesGPT header, the pod's times as hand-edited and what describe needs
HAND_EDITED_TIMES = """\
{"toolset_name":"kubernetes/core","tool_name":"kubectl_get_yaml","match_params":{"kind":"pod","name":"frontend-service","namespace":"default"}}
{"schema_version": "robusta:v1.0.0", "status": "success", "error": null, "return_code": 0, "url": null, "invocation": "kubectl get -o yaml pod frontend-service -n default", "params": {"kind": "pod", "name": "frontend-service", "namespace": "default"}, "icon_url": null}
apiVersion: v1
kind: Pod
metadata:
  creationTimestamp: "2025-08-2312:02:32Z"
  name: frontend-service
  namespace: default
spec:
  containers:
  - image: jfusterm/stress
    name: stress
status:
  conditions:
  - lastProbeTime: null
    lastTransitionTime: "2025-08-2312:02:38Z"
    status: "False"
    type: Ready
  containerStatuses:
  - lastState:
      terminated:
        exitCode: 255
        finishedAt: "2025-08-2312:13:39Z"
        reason: Error
        startedAt: "2025-08-23 12:13:39"
    name: stress
    ready: false
    restartCount: 7
    state:
      waiting:
        reason: CrashLoopBackOff
  phase: Running
"""


def test_times_no_client_parses_are_not_served(tmp_path: Path) -> None:
    """A time field kubectl cannot parse made it refuse the whole object: `describe pod` printed
    only 'error parsing time "2025-08-2312:02:32Z"' and `logs` failed the same way (the hand-edited
    HolmesGPT paste above). Such a time is served as null (the analyzer cannot read it either), and
    one the analyzer reads in another form (a space for "T", no offset) in RFC 3339."""
    (tmp_path / "paste").mkdir()
    (tmp_path / "paste/kubectl_get_yamlpod_frontend-service_default.txt").write_text(HAND_EDITED_TIMES)
    with serving([tmp_path / "paste"], tmp_path) as served:
        described = served.kubectl("describe", "pod", "frontend-service", check=False)
        assert described.returncode == 0 and "parsing time" not in described.stderr, described.stderr
        assert re.search(r"^Name: +frontend-service$", described.stdout, re.M) and "Restart Count:  7" in described.stdout
        assert "Started:      Sat, 23 Aug 2025 12:13:39 +0000" in described.stdout
        pod = json.loads(served.kubectl("get", "pod", "frontend-service", "-o", "json").stdout)
        assert pod["metadata"]["creationTimestamp"] is None
        assert pod["status"]["conditions"][0]["lastTransitionTime"] is None
        last = pod["status"]["containerStatuses"][0]["lastState"]["terminated"]
        assert (last["startedAt"], last["finishedAt"]) == ("2025-08-23T12:13:39Z", None)
        logs = served.kubectl("logs", "frontend-service", check=False)
        assert "parsing time" not in logs.stderr and "the dump holds no log for container stress" in logs.stderr


def test_pods_a_node_describe_lists_are_as_old_as_it_says(tmp_path: Path) -> None:
    """A pod known only as a row of a node describe's Non-terminated Pods table is served with the
    Age that row printed, as a pasted `kubectl get` row keeps its AGE: it was `<unknown>` since
    the describe heads the column "Age", not "AGE" (realdata eks/holmesgpt-fixtures/
    test_investigate/08_memory_pressure/kubectl_describe.txt, robusta-dev/holmesgpt
    tests/llm/fixtures, same path: its header, name and three of its rows)."""
    source = REALDATA / "eks/holmesgpt-fixtures/test_investigate/08_memory_pressure/kubectl_describe.txt"
    if not source.exists():
        pytest.skip("realdata not beside the checkout")
    lines = source.read_text(encoding="utf-8").splitlines()
    start = lines.index("Non-terminated Pods:          (17 in total)")
    (tmp_path / "describe").mkdir()
    (tmp_path / "describe/kubectl_describe.txt").write_text("\n".join(lines[:5] + lines[start:start + 6]) + "\n")
    with serving([tmp_path / "describe"], tmp_path) as served:
        rows = served.kubectl("get", "pods", "-A").stdout.splitlines()
    assert rows[0].split() == ["NAMESPACE", "NAME", "READY", "STATUS", "RESTARTS", "AGE"]
    ages = {row.split()[1]: row.split()[5] for row in rows[1:]}
    assert ages == {"nginx-deployment-688794cb9c-kbfbf": "63m", "prod-endpoint-84b57fcff-2zl4x": "95m",
                    "robusta-kube-prometheus-st-operator-7fc5db7f4d-pkv8m": "6d22h"}
    # what the row does not say stays unknown
    assert all(row.split()[2] == "<unknown>" and row.split()[4] == "<unknown>" for row in rows[1:])
