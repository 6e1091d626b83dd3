"""A transcript read to its end as a person reads it: an output fence read with the command
before it, a later full listing and `kubectl delete` taking away what is gone, a row without a
namespace being the object the transcript knows.

Fixtures: the two OKE write-ups in tests/data/transcripts/ (cut from public write-ups, their tops
say how) and short pastes inline, each trimmed from a real session named beside it.
"""

from __future__ import annotations

from pathlib import Path

import analyzer
from analyzer.findings import findings_and_incidents
from analyzer.ingest import IngestResult, ingest, ingest_text

DATA = Path(__file__).parents[1] / "data" / "transcripts"
PODS = "NAME                                  READY   STATUS    RESTARTS   AGE\n"


def _ids(r: IngestResult) -> list[str]:
    return sorted(o.key.id for o in r.objects)


def _serious(path_or_text: str | Path) -> list[tuple[str, str]]:
    cluster = analyzer.load(path_or_text)
    findings, _ = findings_and_incidents(cluster)
    return [(f.rule, f.name) for f in findings if f.severity in ("warning", "critical") and f.status == "fail"]


# -- 1. the command and its output in separate blocks --------------------------------------------

def test_an_output_fence_is_read_with_the_command_fence_before_it() -> None:
    r = ingest(DATA / "oke-gva-writeup.md")
    assert r.accounting_holds()
    assert {o.namespace for o in r.objects if o.kind == "Pod"} == {"kube-system"}
    assert not any("no output shown" in s.reason for s in r.skipped)


def test_an_output_fence_is_read_with_the_inline_code_command_before_it() -> None:
    r = ingest(DATA / "oke-autoscale-demo.md")
    [metrics] = [o for o in r.objects if o.name == "metrics-server"]
    assert metrics.key.id == "apps/Deployment/kube-system/metrics-server"  # `-n kube-system` applied


def test_prose_between_is_allowed_and_a_missing_output_still_says_so() -> None:
    # shaped as oke-gva.md: a command fence, a sentence, the output fence; then a command alone
    text = ("```bash\nkubectl get po -n kube-system\n```\n\nThe output:\n\n```text\n" + PODS
            + "coredns-58975fffdb-f6x8f              1/1     Running   0          13s\n```\n\n"
            "```bash\nkubectl get nodes\n```\n\nThat is all for today.\n")
    r = ingest_text(text, "notes.md")
    assert _ids(r) == ["core/Pod/kube-system/coredns-58975fffdb-f6x8f"]
    assert [s.location for s in r.skipped if "no output shown" in s.reason] == ["line 13"]


def test_an_inline_command_inside_a_sentence_that_ends_in_a_colon() -> None:
    text = ("Running `kubectl get po -n shop` a minute later shows:\n\n```\n" + PODS
            + "web-7d9f8c6b5-x2k4q                   1/1     Running   0          1m\n```\n")
    r = ingest_text(text, "notes.md")
    assert _ids(r) == ["core/Pod/shop/web-7d9f8c6b5-x2k4q"]


def test_a_manifest_after_apply_is_not_its_output() -> None:
    # a write-up shows the command, then the manifest it applies: the manifest is read as itself
    text = ("```bash\nkubectl apply -f web.yaml\n```\n\n```yaml\napiVersion: apps/v1\nkind: Deployment\n"
            "metadata:\n  name: web\n  namespace: shop\nspec:\n  replicas: 2\n```\n\n"
            "`kubectl get po -n shop`\n\n```\n" + PODS
            + "web-7d9f8c6b5-x2k4q                   1/1     Running   0          1m\n```\n")
    r = ingest_text(text, "notes.md")
    assert _ids(r) == ["apps/Deployment/shop/web", "core/Pod/shop/web-7d9f8c6b5-x2k4q"]


def test_a_fence_that_is_no_table_is_not_the_output_of_a_get_before_it() -> None:
    text = ("```\nkubectl get pods -n web\n```\n\nThen the application said:\n\n```\n"
            "2024-05-02 10:11:12 ERROR could not reach db: connection refused\n```\n")
    r = ingest_text(text, "notes.md")
    assert [(s.location, s.reason) for s in r.skipped if "taken off" not in s.reason and "prose" not in s.reason] == [
        ("line 2", "'kubectl get pods -n web': no output shown"), ("line 8", "code block, not kubectl output")]
    assert not r.rejections


# -- 2. a later full listing supersedes what it no longer shows ----------------------------------

def test_a_later_full_listing_drops_what_it_no_longer_shows() -> None:
    r = ingest(DATA / "oke-gva-writeup.md")
    names = sorted(o.name for o in r.objects if o.kind == "Pod")
    assert "coredns-7949666f46-frvx4" not in names and "coredns-58975fffdb-f6x8f" in names
    assert all(o.view.status.phase == "Running" for o in r.objects if o.kind == "Pod")
    gone = [s for s in r.skipped if "not in the later full listing at line 29" in s.reason]
    assert [s.location for s in gone] == ["line 18", "line 20"]
    assert r.objects_read == len(r.objects) + r.duplicates + len(r.object_rejections)


def test_oke_gva_ends_where_its_reader_ends() -> None:
    cluster = analyzer.load(DATA / "oke-gva-writeup.md")
    assert cluster.distribution.name == "oke"
    assert not [f for f in _serious(DATA / "oke-gva-writeup.md") if f[0] == "pod-pending"]


SCOPES = (  # hand-made in kubectl's layout, as the sessions of tests/data/transcripts
    "$ kubectl get pods -A\nNAMESPACE   NAME    READY   STATUS    RESTARTS   AGE\n"
    "web         api-1   0/1     Pending   0          1m\nweb         api-2   1/1     Running   0          1m\n"
    "ops         job-1   0/1     Error     0          1m\n"
    "$ kubectl get pod api-1 -n web -o yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: api-1\n"
    "  namespace: web\nstatus:\n  phase: Pending\n"
    "$ kubectl get pods -n web -l app=api --watch\nNAME    READY   STATUS    RESTARTS   AGE\n"
    "api-3   1/1     Running   0          5s\n"
    "$ kubectl get pods -n web\nNAME    READY   STATUS    RESTARTS   AGE\napi-3   1/1     Running   0          9s\n"
    "$ kubectl get pods -n ops | grep nothing\n"
    "$ kubectl get pods -n ops\nNAME    READY   STATUS    RESTARTS   AGE\nlog-1   1/1     Running   0          3s\n...\n"
)


def test_only_tables_of_the_same_scope_are_dropped_by_a_later_table() -> None:
    r = ingest_text(SCOPES, "session.txt")
    assert r.accounting_holds()
    # api-2 is gone (not in the later `-n web` listing); api-1 was read whole, so it stays;
    # job-1 stays: the `-n ops` listing is piped, then cut short with `...`
    assert _ids(r) == ["core/Pod/ops/job-1", "core/Pod/ops/log-1", "core/Pod/web/api-1", "core/Pod/web/api-3"]
    [gone] = [s for s in r.skipped if "not in the later full listing" in s.reason]
    assert gone.location == "line 4" and "core/Pod/web/api-2" in gone.reason


def test_a_listing_in_one_transcript_never_drops_what_another_file_showed(tmp_path: Path) -> None:
    (tmp_path / "a-pods.txt").write_text("$ kubectl get pods -n web\nNAME    READY   STATUS    RESTARTS   AGE\n"
                                        "api-1   0/1     Pending   0          1m\n")
    (tmp_path / "b-session.txt").write_text("$ kubectl get pods -n web\nNAME    READY   STATUS    RESTARTS   AGE\n"
                                            "api-1   0/1     Pending   0          2m\n"
                                            "$ kubectl get pods -n web\nNAME    READY   STATUS    RESTARTS   AGE\n"
                                            "api-2   1/1     Running   0          1m\n")
    r = ingest(tmp_path)
    # api-1 is kept as a-pods.txt showed it: the session's later listing speaks for the session only
    assert _ids(r) == ["core/Pod/web/api-1", "core/Pod/web/api-2"]
    assert r.accounting_holds()


def test_an_empty_listing_empties_its_namespace() -> None:
    text = ("$ kubectl get pods -n web\nNAME    READY   STATUS    RESTARTS   AGE\napi-1   0/1     Pending   0          1m\n"
            "$ kubectl delete deploy api -n web --cascade=foreground\ndeployment.apps \"api\" deleted\n"
            "$ kubectl get pods\nNo resources found in web namespace.\n")
    r = ingest_text(text, "session.txt")
    assert r.accounting_holds() and r.objects == []
    # (api-1 is also a name the Deployment's pods never have, so the delete leaves it)
    assert [s.location for s in r.skipped if "not in the later full listing at line 6" in s.reason] == ["line 3"]
    assert "Pod" in r.collected_kinds


def test_a_selector_listing_speaks_for_the_rows_of_the_same_selector() -> None:
    # trimmed from minikube-powershell-session.txt (a falco DaemonSet re-applied)
    text = ("PS C:\\> kubectl get pods -l app=falco -n kube-system\nNAME          READY   STATUS             RESTARTS"
            "         AGE\nfalco-5p4sq   0/1     CrashLoopBackOff   10 (4m38s ago)   32m\n"
            "PS C:\\> kubectl get pods -n kube-system -l app=other\nNAME      READY   STATUS    RESTARTS   AGE\n"
            "other-1   1/1     Running   0          2m\n"
            "PS C:\\> kubectl apply -f falco-daemonset.yaml\ndaemonset.apps/falco configured\n"
            "PS C:\\> kubectl get pods -l app=falco -n kube-system\nNAME          READY   STATUS    RESTARTS   AGE\n"
            "falco-4b58s   1/1     Running   0          37s\n")
    r = ingest_text(text, "session.txt")
    assert _ids(r) == ["core/Pod/kube-system/falco-4b58s", "core/Pod/kube-system/other-1"]



def test_a_grep_listing_speaks_for_the_rows_of_the_same_grep() -> None:
    # trimmed from nbethala/code-base-setup-guides kubernetes/kubernetes-debug.md (an EKS node's
    # aws-node crash-looping on a missing IAM policy, then running again after the fix); the
    # writer's prompt "dev-EC2-->" has no blank before the command
    text = ("```\ndev-EC2-->kubectl get nodes  -o wide\n\n"
            "NAME                        STATUS     ROLES    AGE   VERSION\n"
            "ip-10-0-1-76.ec2.internal   NotReady   <none>   43m   v1.34.2-eks-ecaa3a6\n"
            "dev-EC2-->kubectl get pods -n kube-system | grep aws-node\n"
            "aws-node-7ggwm             1/2     CrashLoopBackOff   13 (4m9s ago)   43m\n"
            "dev-EC2-->kubectl get pods -n kube-system | grep coredns\n"
            "coredns-7d58d485c9-5c4m4   1/1     Running   0          43m\n```\n"
            "Fix the policies !!!!\n```\n"
            "Dev-EC2-->kubectl get pods -n kube-system | grep aws-node\n"
            "aws-node-pfgph             2/2     Running   0          23s\n```\n")
    r = ingest_text(text, "notes.md")
    # coredns was not in the grep for aws-node: it stays; the crash-looping pod is gone
    assert _ids(r) == ["core/Node//ip-10-0-1-76.ec2.internal", "core/Pod/kube-system/aws-node-pfgph",
                       "core/Pod/kube-system/coredns-7d58d485c9-5c4m4"]
    assert ("aws-node-7ggwm", "kubectl get pods -n kube-system | grep aws-node") in [
        (s.reason.split("/")[-1].split(" ")[0], s.reason.split("('")[-1].split("')")[0])
        for s in r.skipped if "superseded" in s.reason]
    assert ("pod-crashloop", "aws-node-7ggwm") not in _serious(text)

# -- 3. kubectl delete ------------------------------------------------------------------------------

def test_oke_autoscale_ends_where_its_reader_ends() -> None:
    path = DATA / "oke-autoscale-demo.md"
    cluster = analyzer.load(path)
    assert cluster.distribution.name == "oke"
    nodes = [o for o in cluster.objects if o.kind == "Node"]
    assert len(nodes) == 3
    assert all(c.status == "True" for o in nodes for c in o.view.status.conditions if c.type == "Ready")
    assert not [o for o in cluster.objects if o.name.startswith("nginx-78878bf58d") or o.name == "nginx"]
    assert cluster.ingest.accounting_holds()


def test_delete_removes_what_it_names_unless_seen_again() -> None:
    # trimmed from minikube-powershell-session.txt: redis-0 deleted, its StatefulSet makes it again
    text = ("PS C:\\> kubectl get pods -n default\nNAME      READY   STATUS    RESTARTS   AGE\n"
            "redis-0   1/1     Running   0          78m\nredis-1   1/1     Running   0          106m\n"
            "PS C:\\> kubectl delete pod redis-0 -n default\npod \"redis-0\" deleted\n"
            "PS C:\\> kubectl delete pod redis-1 -n default\npod \"redis-1\" deleted\n"
            "PS C:\\> kubectl get pod redis-0 -n default\nNAME      READY   STATUS    RESTARTS   AGE\n"
            "redis-0   1/1     Running   0          6s\n"
            "PS C:\\> kubectl delete ns scratch\nnamespace \"scratch\" deleted\n")
    r = ingest_text(text, "session.txt")
    assert r.accounting_holds()
    assert _ids(r) == ["core/Pod/default/redis-0"]
    assert next(o for o in r.objects).provenance.line == 11
    deleted = [(s.location, s.reason) for s in r.skipped if "deleted by" in s.reason]
    assert [loc for loc, _ in deleted] == ["line 3", "line 4"]
    assert "kubectl delete pod redis-1 -n default" in deleted[1][1]
    assert any(s.location == "line 13" and "not seen before it" in s.reason for s in r.skipped)


def test_delete_beside_a_not_found_error_still_removes_what_it_deleted() -> None:
    text = ("$ kubectl get svc -n web\nNAME   TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE\n"
            "api    ClusterIP   10.96.3.4    <none>        80/TCP    2m\n"
            "$ kubectl delete -f api.yaml -n web\nError from server (NotFound): deployments.apps \"api\" not found\n"
            "service \"api\" force deleted\n")
    r = ingest_text(text, "session.txt")
    assert r.objects == [] and r.accounting_holds()


def test_a_deleted_namespace_takes_its_objects() -> None:
    text = ("$ kubectl get deploy,svc -n scratch\nNAME                  READY   UP-TO-DATE   AVAILABLE   AGE\n"
            "deployment.apps/web   1/1     1            1           2m\n\n"
            "NAME          TYPE        CLUSTER-IP    EXTERNAL-IP   PORT(S)   AGE\n"
            "service/web   ClusterIP   10.96.3.4     <none>        80/TCP    2m\n"
            "$ kubectl get nodes\nNAME     STATUS   ROLES    AGE   VERSION\nnode-1   Ready    <none>   3d    v1.29.3\n"
            "$ kubectl delete namespace scratch\nnamespace \"scratch\" deleted\n")
    r = ingest_text(text, "session.txt")
    assert _ids(r) == ["core/Node//node-1"]


# -- 4. and 5. a row without a namespace; the end of a session that scales a StatefulSet ------------

# Trimmed from minikube-powershell-session.txt: its `kubectl cluster-info dump` (here two pods of it,
# shortened to the fields that matter) and the tables without -n that follow, verbatim but for the
# prompt's folder.
MINIKUBE = """PS C:\\homework> kubectl cluster-info dump
{
    "kind": "PodList",
    "apiVersion": "v1",
    "items": [
        {"metadata": {"name": "redis-0", "namespace": "default", "uid": "0b0e",
                      "ownerReferences": [{"kind": "StatefulSet", "name": "redis", "apiVersion": "apps/v1", "uid": "5a"}]},
         "spec": {"containers": [{"name": "redis", "image": "redis:7.4.1"}]},
         "status": {"phase": "Running"}},
        {"metadata": {"name": "redis-1", "namespace": "default", "uid": "0b0f",
                      "ownerReferences": [{"kind": "StatefulSet", "name": "redis", "apiVersion": "apps/v1", "uid": "5a"}]},
         "spec": {"containers": [{"name": "redis", "image": "redis:7.4.1"}]},
         "status": {"phase": "Running"}}
    ]
}
PS C:\\homework>   kubectl get pods -o wide
NAME      READY   STATUS    RESTARTS   AGE   IP           NODE       NOMINATED NODE   READINESS GATES
redis-0   1/1     Running   0          10m   10.244.0.6   minikube   <none>           <none>
redis-1   1/1     Running   0          39m   10.244.0.5   minikube   <none>           <none>
PS C:\\homework> kubectl get statefulset
NAME    READY   AGE
redis   2/2     40m
PS C:\\homework>  kubectl edit statefulset redis
statefulset.apps/redis edited
PS C:\\homework> kubectl get statefulset
NAME    READY   AGE
redis   2/3     46m
PS C:\\homework>   kubectl get pods -o wide
NAME      READY   STATUS    RESTARTS   AGE   IP           NODE       NOMINATED NODE   READINESS GATES
redis-0   1/1     Running   0          17m   10.244.0.6   minikube   <none>           <none>
redis-1   1/1     Running   0          46m   10.244.0.5   minikube   <none>           <none>
redis-2   1/1     Running   0          16s   10.244.0.7   minikube   <none>           <none>
PS C:\\homework>  kubectl edit statefulset redis
statefulset.apps/redis edited
PS C:\\homework>   kubectl get pods -o wide
NAME      READY   STATUS    RESTARTS   AGE   IP           NODE       NOMINATED NODE   READINESS GATES
redis-0   1/1     Running   0          22m   10.244.0.6   minikube   <none>           <none>
redis-1   1/1     Running   0          51m   10.244.0.5   minikube   <none>           <none>
"""


def test_a_row_without_a_namespace_is_the_object_the_transcript_knows() -> None:
    r = ingest_text(MINIKUBE, "session.txt")
    assert r.accounting_holds()
    assert _ids(r) == ["apps/StatefulSet/default/redis", "core/Pod/default/redis-0", "core/Pod/default/redis-1"]
    redis0 = next(o for o in r.objects if o.name == "redis-0")
    assert redis0.provenance.line == 37 and redis0.duplicates == 3
    assert any("namespace not stated by its table: default" in n for n in redis0.notes)
    assert not any("namespace not stated by the dump" in n for o in r.objects for n in o.notes)


def test_a_row_without_a_namespace_first_is_merged_into_the_later_whole_object() -> None:
    lines = MINIKUBE.splitlines(keepends=True)
    dump, table = "".join(lines[:15]), "".join(lines[15:19])  # the dump, the first `get pods -o wide`
    r = ingest_text(table + dump, "session.txt")
    assert _ids(r) == ["core/Pod/default/redis-0", "core/Pod/default/redis-1"]
    assert any("superseded by its later sighting" in s.reason and "in namespace default" in s.reason for s in r.skipped)


def test_a_statefulset_scaled_up_and_back_ends_without_a_warning() -> None:
    r = ingest_text(MINIKUBE, "session.txt")
    # redis-2 is not in the last listing; the StatefulSet's 2/3 row was changed by the edit after
    # it: the StatefulSet is still there, as last seen, its state after the edit unknown
    assert not any(o.name == "redis-2" for o in r.objects)
    [sts] = [o for o in r.objects if o.kind == "StatefulSet"]
    assert sts.provenance.line == 27 and sts.duplicates == 1
    assert "state unknown: changed by 'kubectl edit statefulset redis' (line 34) after this table " \
           "(it showed READY 2/3)" in sts.notes
    assert "status" not in sts.body() and "spec" not in sts.body()
    assert sts.body()["x-kda-text"]["columns"] == {"NAME": "redis", "READY": "<unknown>", "AGE": "46m"}
    assert not any("changed by" in s.reason for s in r.skipped)
    # what is left to say is the pods' own hygiene (no requests in the dump's spec), no shortage
    assert sorted({rule for rule, _ in _serious(MINIKUBE)}) == ["container-no-requests"]


def test_a_later_table_row_keeps_the_spec_of_the_object_read_whole() -> None:
    r = ingest_text(MINIKUBE, "session.txt")
    redis1 = next(o for o in r.objects if o.name == "redis-1")
    assert redis1.provenance.line == 38  # the last table's row: its state
    assert [c.image for c in redis1.view.spec.containers] == ["redis:7.4.1"]  # the dump's spec
    assert redis1.view.metadata.ownerReferences[0].name == "redis"
    assert any("spec and metadata from its earlier whole sighting" in n for n in redis1.notes)


# Trimmed from fujitake/vantiq-related vantiq-platform-operations/docs/eng/vantiq_k8s_troubleshooting.md
# (an AKS operations runbook, 2020-11): `describe node`, then later `get nodes -L ...`. Before, the
# row replaced the describe: the node lost its labels, provider ID and conditions' heartbeats.
_AKS_DESCRIBE_THEN_ROW = """\
$ kubectl describe node aks-vantiqnp-15823220-vmss000000
Name:               aks-vantiqnp-15823220-vmss000000
Roles:              agent
Labels:             agentpool=vantiqnp
                    kubernetes.azure.com/cluster=rg-evt00-prod-aks-node
CreationTimestamp:  Thu, 29 Oct 2020 04:34:30 +0000
Taints:             <none>
Unschedulable:      false
Conditions:
  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
  ----             ------  -----------------                 ------------------                ------                       -------
  Ready            True    Fri, 20 Nov 2020 13:14:09 +0000   Thu, 29 Oct 2020 04:34:40 +0000   KubeletReady                 kubelet is posting ready status. AppArmor enabled
ProviderID:                  azure:///subscriptions/72d94fef-e0df-4c3d-9732-da66ac4d7a7f/resourceGroups/rg-evt00-prod-aks-node/providers/Microsoft.Compute/virtualMachineScaleSets/aks-vantiqnp-15823220-vmss/virtualMachines/0
Events:                          <none>
$ kubectl get nodes -L failure-domain.beta.kubernetes.io/zone
NAME                                 STATUS   ROLES   AGE   VERSION    ZONE
aks-vantiqnp-15823220-vmss000000     {status}    agent   25d   v1.16.15   japaneast-1
"""


def test_a_later_table_row_keeps_the_metadata_of_the_described_object() -> None:
    [node] = ingest_text(_AKS_DESCRIBE_THEN_ROW.format(status="Ready"), "runbook.md").objects
    assert node.provenance.line == 17  # the row: the later state
    assert node.view.metadata.labels["kubernetes.azure.com/cluster"] == "rg-evt00-prod-aks-node"
    assert node.view.spec.providerID.startswith("azure:///subscriptions/")
    [ready] = node.view.status.conditions  # as described, the row saying the same
    assert (ready.status, ready.lastHeartbeatTime) == ("True", "2020-11-20T13:14:09Z")
    assert any("spec and metadata from its earlier describe" in n for n in node.notes)


def test_a_later_row_that_says_otherwise_is_the_nodes_state() -> None:
    [node] = ingest_text(_AKS_DESCRIBE_THEN_ROW.format(status="NotReady"), "runbook.md").objects
    assert [(c.type, c.status, c.lastHeartbeatTime) for c in node.view.status.conditions] == [("Ready", "False", None)]
    assert node.view.metadata.labels["kubernetes.azure.com/cluster"] == "rg-evt00-prod-aks-node"


# The same runbook: `get nodes -o wide` early, `get nodes -L zone` at its end. Before, the later
# rows left the nodes without OS image and runtime (the report's pools split on "unknown").
_AKS_WIDE_THEN_NARROW = """\
$ kubectl get nodes -o wide
NAME                                 STATUS   ROLES   AGE   VERSION    INTERNAL-IP     EXTERNAL-IP   OS-IMAGE             KERNEL-VERSION      CONTAINER-RUNTIME
aks-grafananp-15823220-vmss000000    Ready    agent   22d   v1.16.15   10.19.112.224   <none>        Ubuntu 16.04.7 LTS   4.15.0-1096-azure   docker://19.3.12
$ kubectl get nodes -L failure-domain.beta.kubernetes.io/zone
NAME                                 STATUS   ROLES   AGE   VERSION    ZONE
aks-grafananp-15823220-vmss000000    Ready    agent   {age}   v1.16.15   japaneast-1
"""


def test_a_narrower_later_row_keeps_what_the_wider_one_showed_of_the_same_object() -> None:
    [node] = ingest_text(_AKS_WIDE_THEN_NARROW.format(age="25d"), "runbook.md").objects
    assert node.provenance.line == 6
    info = node.view.status.nodeInfo
    assert (info.osImage, info.containerRuntimeVersion) == ("Ubuntu 16.04.7 LTS", "docker://19.3.12")
    assert node.body()["x-kda-text"]["columns"]["ZONE"] == "japaneast-1"


def test_a_younger_later_row_is_an_object_made_again_and_keeps_nothing() -> None:
    [node] = ingest_text(_AKS_WIDE_THEN_NARROW.format(age="2m "), "runbook.md").objects
    assert node.view.status.nodeInfo is None or node.view.status.nodeInfo.osImage is None


# Trimmed from vitobotta/hetzner-k3s#156 (a k3s session: `kubectl get pods -A`, then `kubectl
# describe pod` of the Pending coredns pod, which shows no AGE and, for a pod, no creation).
_K3S_PODS = ("NAMESPACE     NAME                       READY   STATUS    RESTARTS   AGE\n"
             "kube-system   coredns-597584b69b-p5sh7   0/1     Pending   0          7m41s\n")
_K3S_DESCRIBE = ("Name:                 coredns-597584b69b-p5sh7\n"
                 "Namespace:            kube-system\n"
                 "Priority Class Name:  system-cluster-critical\n"
                 "Service Account:      coredns\n"
                 "Node:                 <none>\n"
                 "Labels:               k8s-app=kube-dns\n"
                 "Status:               Pending\n"
                 "Controlled By:        ReplicaSet/coredns-597584b69b\n"
                 "Containers:\n"
                 "  coredns:\n"
                 "    Image:       rancher/mirrored-coredns-coredns:1.9.4\n"
                 "Events:                      <none>\n")


def test_a_describe_after_the_table_row_keeps_the_rows_age() -> None:
    text = ("root@master1:~# kubectl get pods -A\n" + _K3S_PODS
            + "root@master1:~# kubectl describe pod coredns-597584b69b-p5sh7 -n kube-system\n" + _K3S_DESCRIBE)
    r = ingest_text(text, "session.txt")
    [pod] = [o for o in r.objects if o.kind == "Pod"]
    assert pod.provenance.format == "describe"  # the later, fuller sighting is kept
    assert pod.body()["x-kda-text"]["age_seconds"] == 7 * 60 + 41
    assert any("age from its table row" in n for n in pod.notes)
    cluster = analyzer.load(text)
    assert cluster.tables.pods.set_index("name").loc["coredns-597584b69b-p5sh7", "age"].total_seconds() == 461


def test_a_describe_in_another_file_takes_the_age_of_the_table_row(tmp_path: Path) -> None:
    (tmp_path / "pods.txt").write_text(_K3S_PODS)
    (tmp_path / "describe.txt").write_text(_K3S_DESCRIBE)
    r = ingest(tmp_path)
    [pod] = [o for o in r.objects if o.kind == "Pod"]
    assert pod.provenance.format == "describe"
    assert pod.body()["x-kda-text"]["age_seconds"] == 461
    assert pod.body()["x-kda-text"]["columns"] == {"AGE": "7m41s"}


def test_a_described_creation_is_not_overwritten_by_a_rows_age() -> None:
    # `describe deployment` states its CreationTimestamp: that stays the object's own.
    text = ("$ kubectl get deploy -n kube-system\n"
            "NAME      READY   UP-TO-DATE   AVAILABLE   AGE\n"
            "coredns   0/1     1            0           7m41s\n"
            "$ kubectl describe deploy coredns -n kube-system\n"
            "Name:                   coredns\n"
            "Namespace:              kube-system\n"
            "CreationTimestamp:      Tue, 07 Feb 2023 10:12:01 +0000\n"
            "Labels:                 k8s-app=kube-dns\n"
            "Selector:               k8s-app=kube-dns\n"
            "Replicas:               1 desired | 1 updated | 1 total | 0 available | 1 unavailable\n")
    r = ingest_text(text, "session.txt")
    [dep] = [o for o in r.objects if o.kind == "Deployment"]
    assert dep.provenance.format == "describe"
    assert "age_seconds" not in (dep.body().get("x-kda-text") or {})


def test_a_scaled_deployment_keeps_what_it_runs_and_loses_only_its_counts() -> None:
    # A session of the shape of the OKE write-up (tests/data/transcripts/oke-gva-writeup.md:
    # `kubectl scale deployment pause-for-256ip-test --replicas=253`), its listing before the scale
    # as `kubectl get deploy -o wide` prints it.
    text = ("$ kubectl get deploy -o wide\n"
            "NAME                   READY     UP-TO-DATE   AVAILABLE   AGE   CONTAINERS   IMAGES                       SELECTOR\n"
            "pause-for-256ip-test   252/252   252          252         9m    pause        registry.k8s.io/pause:3.10   app=pause-for-256ip-test\n"
            "$ kubectl scale deployment pause-for-256ip-test --replicas=253\n"
            "deployment.apps/pause-for-256ip-test scaled\n")
    r = ingest_text(text, "session.txt")
    [dep] = r.objects
    assert dep.kind == "Deployment" and dep.name == "pause-for-256ip-test"
    body = dep.body()
    assert "replicas" not in body["spec"] and "status" not in body
    assert [c["image"] for c in body["spec"]["template"]["spec"]["containers"]] == ["registry.k8s.io/pause:3.10"]
    assert body["x-kda-text"]["age_seconds"] == 540
    assert body["x-kda-text"]["columns"]["READY"] == "<unknown>"
    assert any(n.startswith("state unknown: changed by 'kubectl scale deployment pause-for-256ip-test "
                            "--replicas=253' (line 5)") and "READY 252/252" in n for n in dep.notes)
    # no count is known after the scale: nothing is said of its replicas
    assert _serious(text) == []


def test_a_listing_after_the_change_is_the_objects_state_again() -> None:
    text = ("$ kubectl get deploy\nNAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    1/1     1            1           2m\n"
            "$ kubectl scale deploy web --replicas=2\ndeployment.apps/web scaled\n"
            "$ kubectl get deploy\nNAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    1/2     2            1           2m\n")
    [dep] = ingest_text(text, "session.txt").objects
    assert dep.provenance.line == 8 and dep.body()["status"]["readyReplicas"] == 1
    assert not any(n.startswith("state unknown") for n in dep.notes)


# -- a describe cut short after a table row of the same object ----------------------------------

# Trimmed from the comment of 2018-03-21 in Azure/AKS#102 (github.com/Azure/AKS/issues/102): the
# paste ends inside the describe's `CreationTimestamp` line, before its Conditions.
_AKS_102 = """meow@kubrick:~/dev/kube-system$ kubectl get nodes
NAME                       STATUS     ROLES     AGE       VERSION
aks-nodepool1-34207704-0   NotReady   agent     2d        v1.8.7
aks-nodepool1-34207704-1   Ready      agent     2d        v1.8.7
meow@kubrick:~/dev/kube-system$ kubectl describe node aks-nodepool1-34207704-0
Name:               aks-nodepool1-34207704-0
Roles:              agent
Labels:             agentpool=nodepool1
                    kubernetes.azure.com/cluster=MC_k8s-testing-aa_k8s-testing-aa-1_eastus
                    kubernetes.io/hostname=aks-nodepool1-34207704-0
Annotations:        node.alpha.kubernetes.io/ttl=0
Taints:             <none>
Creat
"""

# Trimmed from the comment of 2019-07-16 in kubernetes-sigs/kind#707: the describe of a Pending
# coredns pod is cut in its Labels section, before `Status:`.
_KIND_707 = """root@kind-control-plane:/# kubectl get pods -A
NAMESPACE     NAME                                         READY   STATUS             RESTARTS   AGE
kube-system   coredns-5c98db65d4-5xscs                     0/1     Pending            0          6m22s
kube-system   coredns-5c98db65d4-gqzfm                     0/1     Pending            0          6m22s
kube-system   kindnet-fnmdn                                0/1     CrashLoopBackOff   6          6m21s
root@kind-control-plane:/# kubectl describe pod coredns-5c98db65d4-5xscs --namespace=kube-system
Name:                 coredns-5c98db65d4-5xscs
Namespace:            kube-system
Priority:             2000000000
Priority Class Name:  system-cluster-critical
Node:                 <none>
Labels:
"""


def test_a_describe_cut_before_its_conditions_keeps_the_table_rows_notready() -> None:
    r = ingest_text(_AKS_102, "aks-102.txt")
    assert r.accounting_holds()
    [node] = [o for o in r.objects if o.name == "aks-nodepool1-34207704-0"]
    ready = [c for c in node.body()["status"]["conditions"] if c["type"] == "Ready"]
    assert [c["status"] for c in ready] == ["False"]
    assert node.provenance.format == "describe"  # the describe's labels are what is kept of it
    assert node.body()["metadata"]["labels"]["agentpool"] == "nodepool1"
    assert any("ends mid-section 'Taints'" in n for n in node.notes)
    assert ("node-not-ready", "aks-nodepool1-34207704-0") in _serious(_AKS_102)


def test_a_describe_cut_before_its_status_keeps_the_pod_pending() -> None:
    r = ingest_text(_KIND_707, "kind-707.txt")
    [pod] = [o for o in r.objects if o.name == "coredns-5c98db65d4-5xscs"]
    assert pod.body()["status"]["phase"] == "Pending"
    assert pod.body()["spec"]["priorityClassName"] == "system-cluster-critical"  # from the describe
    pending = {name for rule, name in _serious(_KIND_707) if rule == "pod-pending"}
    assert pending == {"coredns-5c98db65d4-5xscs", "coredns-5c98db65d4-gqzfm"}


def test_a_whole_describe_after_a_row_is_still_the_later_truth() -> None:
    # the same session with the describe read whole: its own Status wins over the row's
    text = _KIND_707.replace("Labels:\n", "Labels:               k8s-app=kube-dns\nStatus:               Running\n"
                                          "IP:                   10.244.0.2\nEvents:               <none>\n")
    r = ingest_text(text, "kind-707-whole.txt")
    [pod] = [o for o in r.objects if o.name == "coredns-5c98db65d4-5xscs"]
    assert pod.body()["status"]["phase"] == "Running"
    assert not any("ends mid-section" in n for n in pod.notes)


# Trimmed from k3s-io/k3s#1019 (its description and the comment of 2019-11-06): the later
# listing is cut off in its second row, so it says nothing of the rows below the cut.
_K3S_1019 = """```
# k3s kubectl get pods --all-namespaces=true
NAMESPACE     NAME                                      READY   STATUS             RESTARTS   AGE
kube-system   coredns-57d8bbb86-jzhmv                   1/1     Running            0          29m
kube-system   local-path-provisioner-58fb86bdfd-bwhsj   0/1     CrashLoopBackOff   10         29m
kube-system   helm-install-traefik-nmvrz                0/1     CrashLoopBackOff   10         29m
#
```

```
# k3s kubectl get pods --namespace=kube-system
NAME                                      READY   STATUS             RESTARTS   AGE
coredns-57d8bbb86-4v5z6                   1/1     Running            0          2m48s
local-path-provisioner-58fb86bdfd-5v85x   0/1
"""


def test_a_listing_cut_off_in_a_row_takes_nothing_earlier_as_gone() -> None:
    r = ingest_text(_K3S_1019, "k3s-1019.md")
    assert r.accounting_holds()
    assert "core/Pod/kube-system/helm-install-traefik-nmvrz" in _ids(r)
    assert any("cut off in a row: no full listing" in s.reason for s in r.skipped)
    assert ("pod-crashloop", "helm-install-traefik-nmvrz") in _serious(_K3S_1019)


def test_the_same_listing_whole_still_takes_what_it_does_not_show_as_gone() -> None:
    whole = _K3S_1019.replace("5v85x   0/1\n", "5v85x   1/1     Running            0          2m48s\n")
    r = ingest_text(whole, "k3s-1019-whole.md")
    assert "core/Pod/kube-system/helm-install-traefik-nmvrz" not in _ids(r)


def test_a_describe_ending_after_its_whole_conditions_keeps_the_rows_say_past_them() -> None:
    # The kind#707 session with the describe pasted up to the end of a whole Conditions table: no
    # cut (nothing rejected), but what it would have said after it stays as the row stated it.
    text = _KIND_707.replace("Labels:\n", "Labels:               k8s-app=kube-dns\n"
                                          "Conditions:\n  Type           Status\n  PodScheduled   False\n")
    r = ingest_text(text, "kind-707-conditions.txt")
    assert r.accounting_holds() and not r.rejections
    [pod] = [o for o in r.objects if o.name == "coredns-5c98db65d4-5xscs"]
    assert pod.provenance.format == "describe"
    assert pod.body()["status"]["conditions"] == [{"type": "PodScheduled", "status": "False"}]
    assert pod.view.text.ready == "0/1" and pod.view.text.status == "Pending"  # from the row
    assert any("ends after its section 'Conditions'" in n for n in pod.notes)


def test_an_uncordon_later_in_the_session_leaves_the_node_schedulable() -> None:
    # Trimmed from terraform-oci-oke's docs/src/guide/workers_drain.md (an OKE v1.26.2 pool
    # drained, then uncordoned): the node listed cordoned, then `kubectl uncordon` says so.
    text = ("```shell\nkubectl get nodes -l oke.oraclecloud.com/pool.name=oke-vm-draining\n"
            "NAME             STATUS                     ROLES   AGE   VERSION\n"
            "10.200.220.157   Ready,SchedulingDisabled   node    24m   v1.26.2\n```\n\n"
            "Run the following command to uncordon a previously drained worker pool.\n"
            "```shell\nkubectl uncordon -l oke.oraclecloud.com/pool.name=oke-vm-draining\n"
            "node/10.200.220.157 uncordoned\n```\n")
    r = ingest_text(text, "workers_drain.md")
    [node] = r.objects
    body = node.body()
    assert not body.get("spec", {}).get("unschedulable")
    assert body["x-kda-text"]["status"] == "Ready"
    assert any(n.startswith("uncordoned by 'kubectl uncordon -l oke.oraclecloud.com/pool.name=oke-vm-draining' "
                            "(line 10)") for n in node.notes), node.notes
    findings, _ = findings_and_incidents(analyzer.load(text))
    assert not [f for f in findings if f.rule == "node-cordoned" and f.status == "fail"]


def test_a_cordon_or_drain_later_in_the_session_leaves_the_node_cordoned() -> None:
    # The other way: kubectl drain prints `node/N cordoned`, then its evictions, then `drained`
    # (`already cordoned` is read as cordoned too: sightings.cordoned_nodes' example).
    text = ("$ kubectl get nodes\nNAME    STATUS   ROLES    AGE   VERSION\n"
            "node1   Ready    <none>   9d    v1.29.4\nnode2   Ready    <none>   9d    v1.29.4\n"
            "$ kubectl drain node1 --ignore-daemonsets\nnode/node1 cordoned\n"
            "evicting pod default/web-7d9c6b7f5-abcde\npod/web-7d9c6b7f5-abcde evicted\nnode/node1 drained\n")
    r = ingest_text(text, "session.txt")
    by_name = {o.name: o.body() for o in r.objects}
    assert by_name["node1"]["spec"]["unschedulable"] is True
    assert by_name["node1"]["x-kda-text"]["status"] == "Ready,SchedulingDisabled"
    assert not by_name["node2"].get("spec", {}).get("unschedulable")
    findings, _ = findings_and_incidents(analyzer.load(text))
    assert [(f.rule, f.name) for f in findings if f.rule == "node-cordoned" and f.status == "fail"] == [
        ("node-cordoned", "node1")]


# kubectl's own output for realdata kubeadm/cka-3c97-cluster-info-dump served by `kda serve`
# (`kubectl get pods -A -o wide`, `kubectl get nodes -o wide`, `kubectl describe node`), trimmed
# to one node and its pods; the Age of the Non-terminated Pods rows is as kubectl printed it.
NODE_PODS_SESSION = """\
$ kubectl get nodes -o wide
NAME              STATUS     ROLES                  AGE     VERSION   INTERNAL-IP   EXTERNAL-IP   OS-IMAGE             KERNEL-VERSION       CONTAINER-RUNTIME
cka-controller1   NotReady   control-plane,master   3d16h   v1.20.5   10.10.1.31    <none>        Ubuntu 18.04.5 LTS   4.15.0-140-generic   docker://19.3.12

$ kubectl get pods -A -o wide
NAMESPACE     NAME                                       READY   STATUS    RESTARTS        AGE     IP              NODE              NOMINATED NODE   READINESS GATES
kube-system   etcd-cka-controller1                       1/1     Running   0               3d16h   10.10.1.31      cka-controller1   <none>           <none>
kube-system   kube-apiserver-cka-controller1             1/1     Running   0               3d16h   10.10.1.31      cka-controller1   <none>           <none>

$ kubectl describe node cka-controller1
Name:               cka-controller1
Roles:              control-plane,master
Labels:             kubernetes.io/hostname=cka-controller1
                    kubernetes.io/os=linux
                    node-role.kubernetes.io/control-plane=
CreationTimestamp:  Wed, 07 Apr 2021 22:18:34 +0000
Taints:             node.kubernetes.io/not-ready:NoSchedule
Unschedulable:      false
Conditions:
  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
  ----             ------  -----------------                 ------------------                ------                       -------
  Ready            False   Thu, 08 Apr 2021 12:35:25 +0000   Wed, 07 Apr 2021 22:18:30 +0000   KubeletNotReady              runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:docker: network plugin is not ready: cni config uninitialized
Non-terminated Pods:          (2 in total)
  Namespace                   Name                                       CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
  ---------                   ----                                       ------------  ----------  ---------------  -------------  ---
  kube-system                 etcd-cka-controller1                       100m (5%)     0 (0%)      100Mi (5%)       0 (0%)         5y233d
  kube-system                 kube-apiserver-cka-controller1             250m (12%)    0 (0%)      0 (0%)           0 (0%)         5y233d
"""


def test_a_node_describes_pod_rows_add_to_the_pods_never_erase_their_status() -> None:
    r = ingest_text(NODE_PODS_SESSION, "session.txt")
    assert r.accounting_holds()
    pods = {o.name: o for o in r.objects if o.kind == "Pod"}
    etcd = pods["etcd-cka-controller1"]
    # the row of `get pods` says ready and running; the node's row adds what the pod requests
    assert (etcd.view.text.ready, etcd.view.text.status, etcd.view.status.phase) == ("1/1", "Running", "Running")
    assert etcd.view.text.requests == {"cpu": "100m", "memory": "100Mi"}
    assert etcd.view.spec.nodeName == "cka-controller1"
    assert any("a row of node cka-controller1's Non-terminated Pods" in n and "line 7" in n for n in etcd.notes)
    # so nothing says the control plane's pods are not ready (the dump itself says they are)
    # (the node NotReady on `cni config uninitialized` and an unfiltered `get pods -A` with no
    # network plugin: the missing CNI is this paste's cause, said since critical-component-missing
    # reads such a listing)
    assert [f for f in _serious(NODE_PODS_SESSION)
            if f[0] != "node-not-ready" and f != ("critical-component-missing", "cni")] == []


def test_a_node_describes_pod_row_alone_is_a_pod_of_unknown_status() -> None:
    alone = NODE_PODS_SESSION[NODE_PODS_SESSION.index("$ kubectl describe node"):]
    r = ingest_text(alone, "session.txt")
    [etcd, _] = sorted((o for o in r.objects if o.kind == "Pod"), key=lambda o: o.name)
    assert (etcd.view.text.ready, etcd.view.status.phase) == (None, None)
    assert not any("earlier sighting" in n for n in etcd.notes)


# kubectl's own describes of realdata openshift/must-gather-clean-aws served by `kda serve`
# (`kubectl describe pods -n openshift-etcd`, `kubectl describe node`), trimmed: kubectl prints an
# exec probe's script and a probe's output in an event's message raw, their lines at column 0,
# the output's `+ grep ...` lines the trace of the probe's `set -x`.
_OPENSHIFT_ETCD = """\
$ kubectl describe pods -n openshift-etcd
Name:                 etcd-ip-10-0-187-218.ec2.internal
Namespace:            openshift-etcd
Node:                 ip-10-0-187-218.ec2.internal/10.0.187.218
Start Time:           Tue, 03 Aug 2021 09:21:42 +0000
Status:               Running
Controlled By:  Node/ip-10-0-187-218.ec2.internal
Containers:
  etcd:
    Container ID:  cri-o://e7bbcc2404eeb98e854e4df0d9ab78193e7be43fb1f82bb881f70e2eeec2c255
    Image:         quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:7ab0346b7ff58de373ea380dd6c38242741b5323698c30030094c33913876153
    Image ID:      quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:7ab0346b7ff58de373ea380dd6c38242741b5323698c30030094c33913876153
    Port:          <none>
    Host Port:     <none>
    State:          Running
      Started:      Tue, 03 Aug 2021 09:26:39 +0000
    Ready:          True
    Restart Count:  0
    Requests:
      cpu:      300m
      memory:   600Mi
    Readiness:  exec [/bin/bash -c set -xe

# Unix sockets are used for health checks to ensure that the pod is reporting readiness of the etcd process
# in this container. While this might seem unnecessary the use of SO_REUSEADDR has made this explicitly
# required as the kernel will allow the reuse of a port while in TIME_WAIT. etcd requires socket
# path in this format <name>:<port> so port 0 is used only to meet this requirement.
unset ETCDCTL_ENDPOINTS
/usr/bin/etcdctl \\
  --command-timeout=2s \\
  --dial-timeout=2s \\
  --endpoints=unixs://${NODE_ip_10_0_187_218_ec2_internal_IP}:0 \\
  endpoint health -w json | grep \\"health\\":true
] delay=3s timeout=5s period=5s #success=1 #failure=3
Conditions:
  Type              Status
  Initialized       True
  Ready             True
  ContainersReady   True
  PodScheduled      True
Volumes:
Events:
  Normal   Pulled     5y116d  kubelet  Container image "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:7ab0346b7ff58de373ea380dd6c38242741b5323698c30030094c33913876153" already present on machine
  Normal   Created    5y116d  kubelet  Created container setup
  Normal   Started    5y116d  kubelet  Started container setup
  Normal   Started    5y116d  kubelet  Started container etcd-health-monitor
  Warning  Unhealthy  5y116d  kubelet  Readiness probe failed: + unset ETCDCTL_ENDPOINTS
+ /usr/bin/etcdctl --command-timeout=2s --dial-timeout=2s --endpoints=unixs://10.0.187.218:0 endpoint health -w json
+ grep '"health":true'
{"level":"warn","ts":"2021-08-03T09:26:46.443Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"endpoint://client-1037ac2c-83fe-466c-83bb-e4554a0d34cf/10.0.187.218:0","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: all SubConns are in TransientFailure, latest connection error: connection error: desc = \\"transport: Error while dialing dial unix 10.0.187.218:0: connect: no such file or directory\\""}
Error: unhealthy cluster


Name:                 etcd-ip-10-0-189-142.ec2.internal
Namespace:            openshift-etcd
Node:                 ip-10-0-189-142.ec2.internal/10.0.189.142
Status:               Running
Conditions:
  Type              Status
  Ready             True
Events:                   <none>

$ kubectl describe node ip-10-0-129-220.ec2.internal
Name:               ip-10-0-129-220.ec2.internal
Name:               ip-10-0-129-220.ec2.internal
Non-terminated Pods:          (0 in total)
  Namespace                   Name    CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
  ---------                   ----    ------------  ----------  ---------------  -------------  ---
Allocated resources:
  (Total limits may be over 100 percent, i.e., overcommitted.)
  Resource                    Requests  Limits
  --------                    --------  ------
  cpu                         0 (0%)    0 (0%)
Events:                       <none>
"""


def test_multi_line_probe_scripts_and_event_messages_keep_the_describe_whole() -> None:
    r = ingest_text(_OPENSHIFT_ETCD, "session.txt")
    assert r.accounting_holds()
    pods = {o.name: o for o in r.objects if o.kind == "Pod"}
    # the second describe is read too: the probe's `+ grep` trace in the first is no command
    assert sorted(pods) == ["etcd-ip-10-0-187-218.ec2.internal", "etcd-ip-10-0-189-142.ec2.internal"]
    first = pods["etcd-ip-10-0-187-218.ec2.internal"].view
    [etcd] = first.spec.containers
    assert list(etcd.readinessProbe.exec.command[:3]) == ["/bin/bash", "-c", "set"]
    assert etcd.readinessProbe.periodSeconds == 5
    assert [c.type for c in first.status.conditions] == ["Initialized", "Ready", "ContainersReady", "PodScheduled"]
    messages = [o.view.message for o in r.objects if o.kind == "Event" and o.view.reason == "Unhealthy"]
    assert len(messages) == 1
    assert messages[0].startswith("Readiness probe failed: + unset ETCDCTL_ENDPOINTS + /usr/bin/etcdctl")
    assert messages[0].endswith("Error: unhealthy cluster")
    # nothing was left unread: no prose skip, no rejection (the node's empty pods table included)
    assert not r.rejections
    assert [s.reason for s in r.skipped if "not read" in s.reason or "not kubectl" in s.reason] == []


# kubectl's own describes of realdata k3s/udacity-nd064-cluster-info-dump served by `kda serve`
# (trimmed): a DaemonSet's describe prints no Namespace line; its pod's says kube-system.
DAEMONSET_WITHOUT_NAMESPACE = """\
$ kubectl describe pods -n kube-system svclb-traefik-wvrxc
Name:             svclb-traefik-wvrxc
Namespace:        kube-system
Priority:         0
Service Account:  default
Node:             <none>
Labels:           app=svclb-traefik
                  controller-revision-hash=dc4f54cdc
                  pod-template-generation=1
                  svccontroller.k3s.cattle.io/svcname=traefik
Annotations:      <none>
Status:           Pending
IP:
IPs:              <none>
Controlled By:    DaemonSet/svclb-traefik
Events:            <none>

$ kubectl describe daemonsets -A
Name:           svclb-traefik
Selector:       app=svclb-traefik
Node-Selector:  <none>
Labels:         objectset.rio.cattle.io/hash=f31475152fbf70655d3c016d368e90118938f6ea
                svccontroller.k3s.cattle.io/nodeselector=false
Desired Number of Nodes Scheduled: 1
Current Number of Nodes Scheduled: 1
Number of Nodes Scheduled with Up-to-date Pods: 1
Number of Nodes Scheduled with Available Pods: 0
Number of Nodes Misscheduled: 0
Pods Status:  0 Running / 1 Waiting / 0 Succeeded / 0 Failed
Events:            <none>
"""


def test_a_describe_without_namespace_takes_the_one_of_what_it_controls() -> None:
    r = ingest_text(DAEMONSET_WITHOUT_NAMESPACE, "session.txt")
    [ds] = [o for o in r.objects if o.kind == "DaemonSet"]
    assert ds.namespace == "kube-system"
    assert any("the one namespace of the objects this transcript shows DaemonSet svclb-traefik "
               "controlling" in n for n in ds.notes)
    # without the pod before it, the namespace stays unknown
    alone = DAEMONSET_WITHOUT_NAMESPACE[DAEMONSET_WITHOUT_NAMESPACE.index("$ kubectl describe daemonsets"):]
    [ds] = [o for o in ingest_text(alone, "session.txt").objects if o.kind == "DaemonSet"]
    assert ds.namespace == ""


# kubectl's own describe of realdata openshift/insights-operator-archive-sample served by
# `kda serve` (trimmed): a container's Last State Message is its log's tail, printed raw, its
# lines at column 0 and its last newline a blank line before the rest of the describe.
LAST_STATE_MESSAGE = """\
$ kubectl describe pods -n openshift-kube-scheduler
Name:                 openshift-kube-scheduler-master-0.imeixner20210707.lab.upshift.rdu2.redhat.com
Namespace:            openshift-kube-scheduler
Status:               Running
Containers:
  kube-scheduler:
    State:       Running
      Started:   Fri, 09 Jul 2021 09:19:26 +0000
    Last State:  Terminated
      Reason:    Error
      Message:   ln" err="0/2 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 1 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate."
I0709 09:18:07.115601       1 scheduler.go:592] "Successfully bound pod to node" pod="openshift-marketplace/redhat-operators-5n74x" node="worker-0.imeixner20210707.lab.upshift.rdu2.redhat.com" evaluatedNodes=2 feasibleNodes=1
I0709 09:18:25.828887       1 factory.go:321] "Unable to schedule pod; no fit; waiting" pod="openshift-etcd/etcd-quorum-guard-5f6f5fbc4c-2g24w" err="0/2 nodes are available: 1 node(s) didn't match Pod's node affinity, 1 node(s) didn't match pod affinity/anti-affinity, 1 node(s) didn't match pod anti-affinity rules."
I0709 09:18:25.829620       1 factory.go:321] "Unable to schedule pod; no fit; waiting" pod="openshift-etcd/etcd-quorum-guard-5f6f5fbc4c-4q86s" err="0/2 nodes are available: 1 node(s) didn't match Pod's node affinity, 1 node(s) didn't match pod affinity/anti-affinity, 1 node(s) didn't match pod anti-affinity rules."
I0709 09:18:25.829771       1 factory.go:321] "Unable to schedule pod; no fit; waiting" pod="openshift-ingress/router-default-7bbdcfcf9b-7xdln" err="0/2 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 1 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate."
E0709 09:19:25.234377       1 leaderelection.go:325] error retrieving resource lock openshift-kube-scheduler/kube-scheduler: Get "https://api-int.imeixner20210707.lab.upshift.rdu2.redhat.com:6443/api/v1/namespaces/openshift-kube-scheduler/configmaps/kube-scheduler?timeout=10s": net/http: request canceled (Client.Timeout exceeded while awaiting headers)
I0709 09:19:25.234477       1 leaderelection.go:278] failed to renew lease openshift-kube-scheduler/kube-scheduler: timed out waiting for the condition
E0709 09:19:25.234532       1 leaderelection.go:301] Failed to release lock: resource name may not be empty
F0709 09:19:25.235782       1 server.go:217] leaderelection lost

      Exit Code:    1
      Started:      Thu, 08 Jul 2021 10:59:04 +0000
      Finished:     Fri, 09 Jul 2021 09:19:25 +0000
    Ready:          True
    Restart Count:  13
Conditions:
  Type              Status
  Initialized       True
  Ready             True
  ContainersReady   True
  PodScheduled      True
Events:                      <none>
"""


def test_a_last_state_message_of_many_lines_keeps_the_describe_whole() -> None:
    r = ingest_text(LAST_STATE_MESSAGE, "session.txt")
    assert not r.rejections
    [pod] = [o for o in r.objects if o.kind == "Pod"]
    [scheduler] = pod.view.status.containerStatuses
    assert (scheduler.ready, scheduler.restartCount) == (True, 13)
    last = scheduler.lastState.terminated
    assert last.exitCode == 1 and last.message.endswith("server.go:217] leaderelection lost")
    assert [(c.type, c.status) for c in pod.view.status.conditions][1] == ("Ready", "True")


# kubectl's own output for realdata kubeadm/cka-3c97-cluster-info-dump served by `kda serve`
# (`kubectl get svc,ep -A -o wide`): its Services, then its error for what the dump lacks.
KUBECTL_ERROR_AFTER_A_TABLE = """\
$ kubectl get svc,ep -A -o wide
NAMESPACE     NAME         TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)                  AGE    SELECTOR
default       kubernetes   ClusterIP   10.96.0.1    <none>        443/TCP                  154m   <none>
kube-system   kube-dns     ClusterIP   10.96.0.10   <none>        53/UDP,53/TCP,9153/TCP   154m   k8s-app=kube-dns
Error from server (NotFound): Unable to list "/v1, Resource=endpoints": the dump did not collect Endpoints
"""


def test_kubectls_error_lines_are_named_as_its_errors_not_prose() -> None:
    r = ingest_text(KUBECTL_ERROR_AFTER_A_TABLE, "session.txt")
    assert sorted(o.name for o in r.objects) == ["kube-dns", "kubernetes"]
    [error] = [s for s in r.skipped if "kubectl's error" in s.reason]
    assert error.location == "line 5"
    assert error.reason.startswith("kubectl's error, no objects: Error from server (NotFound): Unable to list")
    assert not [s for s in r.skipped if "prose" in s.reason]


# kubernetes/website#22888 (minikube, trimmed): the `kubectl set image` line quoted, then a
# describe's Events section in a fence: `set` prints only what it changed, so a table or describe
# under it is the output of a command the writer left out, read as such.
_SET_THEN_EVENTS = """\
> kubectl set image deployments/kubernetes-bootcamp kubernetes-bootcamp=gcr.io/google-samples/kubernetes-bootcamp:v10
```
Events:
  Type     Reason     Age                From               Message
  ----     ------     ----               ----               -------
  Normal   Scheduled  70s                default-scheduler  Successfully assigned default/kubernetes-bootcamp-886577c5d-tmh69 to minikube
  Warning  Failed     30s (x3 over 67s)  kubelet, minikube  Error: ErrImagePull
```
"""


def test_a_table_under_a_command_that_prints_only_changes_is_read_as_a_left_out_commands_output() -> None:
    r = ingest_text(_SET_THEN_EVENTS, "issue.md")
    assert r.accounting_holds()
    events = [o for o in r.objects if o.kind == "Event"]
    assert len(events) == 2 and {o.namespace for o in events} == {"default"}
    assert any("another command's, left out of the paste" in s.reason for s in r.skipped)


def test_what_set_image_prints_stays_its_own() -> None:
    r = ingest_text("$ kubectl set image deploy/web web=nginx:1.27\ndeployment.apps/web image updated\n"
                    "$ kubectl get deploy web\nNAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    1/1     1            1           3d\n",
                    "s.txt")
    assert [o.kind for o in r.objects] == ["Deployment"]
    assert any("kubectl set prints what it changed" in s.reason for s in r.skipped)


# kubernetes/kubernetes#91215 (`kubectl get pod goldpinger-hvww9 -w`, trimmed to its last rows),
# pasted with no prompt: a kubectl that printed no `(5m ago)`.
_WATCH = """\
NAME               READY   STATUS              RESTARTS   AGE
goldpinger-hvww9   0/1     ContainerCreating   0          10s
goldpinger-hvww9   1/1     Running             6          4m50s
goldpinger-hvww9   0/1     CrashLoopBackOff    6          4m56s
goldpinger-hvww9   0/1     Running             7          7m45s
goldpinger-hvww9   1/1     Running             7          8m9s
"""


def test_a_watch_pasted_alone_keeps_its_last_row() -> None:
    r = ingest_text(_WATCH, "watch.txt")
    assert r.accounting_holds()
    (pod,) = r.objects
    assert (pod.view.text.status, pod.view.text.restarts, pod.provenance.line) == ("Running", 7, 6)
    assert sum("superseded by its later sighting" in s.reason for s in r.skipped) == 4


def test_a_watchs_rows_bound_when_a_pod_last_restarted() -> None:
    (pod,) = ingest_text(_WATCH, "watch.txt").objects
    # the count rose between AGE 4m56s and 7m45s: 23s to 3m15s before the last row (8m9s)
    assert pod.view.text.last_restart_window == [23.0, 195.0]
    assert pod.view.text.last_restart_seen == "6 restarts at AGE 4m56s (line 4), 7 at AGE 7m45s (line 5)"


def test_a_later_listing_with_the_same_restarts_says_none_came_between() -> None:
    r = ingest_text("$ kubectl get pods\nNAME   READY   STATUS             RESTARTS   AGE\n"
                    "web    0/1     CrashLoopBackOff   6          9h\n"
                    "$ kubectl get pods\nNAME   READY   STATUS    RESTARTS   AGE\nweb    1/1     Running   6          17h\n",
                    "s.txt")
    (pod,) = r.objects
    assert pod.view.text.last_restart_window == [7 * 3600.0, None]  # 17h - (9h + its hour's rounding)


def test_rows_of_a_pod_made_again_or_told_when_by_kubectl_bound_nothing() -> None:
    for later in ("web    1/1     Running   0          2m\n",  # younger: made again under its name
                  "web    1/1     Running   7 (3m ago)   17h\n"):  # kubectl said when itself
        r = ingest_text("$ kubectl get pods\nNAME   READY   STATUS             RESTARTS   AGE\n"
                        "web    0/1     CrashLoopBackOff   6          9h\n"
                        f"$ kubectl get pods\nNAME   READY   STATUS    RESTARTS   AGE\n{later}", "s.txt")
        (pod,) = r.objects
        assert pod.view.text.last_restart_window is None


def test_an_ended_pods_describe_keeps_its_reason_and_message_under_a_later_row() -> None:
    # derailed/k9s#174 (GKE, trimmed): an evicted pod described, then listed `0/1  Evicted`:
    # the row says the same of a pod that has ended; the kubelet's message stays.
    r = ingest_text("$ kubectl describe pod web-79f7cbc6cf-rzck9 -n p\nName:         web-79f7cbc6cf-rzck9\n"
                    "Namespace:    p\nStatus:       Failed\nReason:       Evicted\n"
                    "Message:      The node was low on resource: memory.\nIP:\nEvents:       <none>\n"
                    "$ kubectl get pods -n p\nNAME                   READY   STATUS    RESTARTS   AGE\n"
                    "web-79f7cbc6cf-rzck9   0/1     Evicted   0          3h\n", "s.txt")
    (pod,) = r.objects
    status = pod.view.status
    assert (status.phase, status.reason, status.message) == ("Failed", "Evicted", "The node was low on resource: memory.")
    assert pod.view.text.age_seconds == 3 * 3600.0
