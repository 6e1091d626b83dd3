"""What was asked for, as tools print it in tickets. Helm's release output (`helm install`,
`upgrade`, `status`): the tables under RESOURCES are kubectl's, without a NAMESPACE column; the
release head states the namespace they are in (kubernetes/kubernetes#67063 on OKE: objects read
with none though the head said one). A kubectl `--dry-run -o yaml`: the manifest it would send."""

from __future__ import annotations

from analyzer.ingest import ingest_text
from analyzer.ingest.result import IngestResult

# oracle/weblogic-kubernetes-operator docs-source/content/samples/simple/soa-preview-guide/_index.md
# (trimmed; OKE): Helm 2's `helm install ... --namespace operator` output pasted alone.
_WEBLOGIC_OPERATOR = "\n".join([
    "NAME:   weblogic-operator",
    "LAST DEPLOYED: Wed Oct 30 11:01:20 2019",
    "NAMESPACE: operator",
    "STATUS: DEPLOYED",
    "",
    "RESOURCES:",
    "==> v1/ClusterRole",
    "NAME                                                   AGE",
    "operator-weblogic-operator-clusterrole-domain-admin    2s",
    "",
    "==> v1/ConfigMap",
    "NAME                  DATA  AGE",
    "weblogic-operator-cm  2     2s",
    "",
    "==> v1/Pod(related)",
    "NAME                                READY  STATUS             RESTARTS  AGE",
    "weblogic-operator-7c95fd48cf-w427t  0/1    ContainerCreating  0         1s",
    "",
    "==> v1/Service",
    "NAME                            TYPE       CLUSTER-IP    EXTERNAL-IP  PORT(S)   AGE",
    "internal-weblogic-operator-svc  ClusterIP  10.96.169.15  <none>       8082/TCP  2s",
    "",
    "==> v1beta1/Deployment",
    "NAME               READY  UP-TO-DATE  AVAILABLE  AGE",
    "weblogic-operator  0/1    1           0          1s",
    "",
])

# yokawasa/azure-container-labs labs/aks-108-helm.md (commit 1c603033, trimmed; AKS): `$ helm status
# vote` in a session, its release head with no NAME line, a cluster-scoped StorageClass among the
# release's objects.
_AZURE_VOTE = "\n".join([
    "Get status of `vote` Helm chart",
    "",
    "```sh",
    "$ helm status vote",
    "",
    "(output)",
    "LAST DEPLOYED: Tue Oct  2 06:42:01 2018",
    "NAMESPACE: default",
    "STATUS: DEPLOYED",
    "",
    "RESOURCES:",
    "==> v1/ConfigMap",
    "NAME                     DATA  AGE",
    "azure-voting-app-config  1     4m",
    "",
    "==> v1/StorageClass",
    "NAME                 PROVISIONER               AGE",
    "azure-disk-standard  kubernetes.io/azure-disk  4m",
    "",
    "==> v1beta1/Deployment",
    "NAME                    DESIRED  CURRENT  UP-TO-DATE  AVAILABLE  AGE",
    "azure-voting-app-front  2        2        2           2          4m",
    "",
    "==> v1/Pod(related)",
    "NAME                                     READY  STATUS   RESTARTS  AGE",
    "azure-voting-app-front-5895b59496-4h999  1/1    Running  0         4m",
    "",
    "NOTES:",
    "1. Get the Azure Voting App URL to visit by running these commands in the same shell:",
    "```",
    "",
])


def _read_ids(text: str, name: str) -> tuple[IngestResult, list[str]]:
    r = ingest_text(text, name)
    assert r.accounting_holds()
    return r, sorted(o.key.id for o in r.objects)


def test_a_pasted_helm_install_puts_its_resources_in_the_namespace_its_head_states() -> None:
    r, ids = _read_ids(_WEBLOGIC_OPERATOR, "ticket.txt")
    assert ids == ["apps/Deployment/operator/weblogic-operator",
                   "core/ConfigMap/operator/weblogic-operator-cm",
                   "core/Pod/operator/weblogic-operator-7c95fd48cf-w427t",
                   "core/Service/operator/internal-weblogic-operator-svc"]
    pod = next(o for o in r.objects if o.kind == "Pod")
    assert any("Helm release head's 'NAMESPACE: operator' (line 3)" in n for n in pod.notes)
    assert not any(n == "namespace not stated by the dump" for o in r.objects for n in o.notes)
    # the `==> v1/Pod(related)` headings are the kinds of the tables below them, not prose left unread
    headings = [s for s in r.skipped if s.location in ("line 15", "line 19", "line 23")]
    assert headings == []


def test_helm_status_in_a_session_is_read_not_rejected_as_not_kubectl() -> None:
    r, ids = _read_ids(_AZURE_VOTE, "README.md")
    assert ids == ["apps/Deployment/default/azure-voting-app-front",
                   "core/ConfigMap/default/azure-voting-app-config",
                   "core/Pod/default/azure-voting-app-front-5895b59496-4h999",
                   "storage.k8s.io/StorageClass//azure-disk-standard"]  # cluster-scoped: none given
    assert any("'helm status vote' is Helm's" in s.reason for s in r.skipped)
    assert not any("'helm status vote'" in s.reason and "not kubectl" in s.reason for s in r.skipped)


def test_a_namespace_line_of_another_tool_or_after_the_release_notes_gives_no_namespace() -> None:
    # no LAST DEPLOYED above it: not Helm's head
    other = _WEBLOGIC_OPERATOR.replace("LAST DEPLOYED: Wed Oct 30 11:01:20 2019\n", "")
    r = ingest_text(other, "ticket.txt")
    assert {o.namespace for o in r.objects if o.kind == "Pod"} != {"operator"}
    # a table the writer pasted after Helm's NOTES is not the release's
    after_notes = _WEBLOGIC_OPERATOR + "\n".join([
        "NOTES:",
        "Then check the pods of the domain with kubectl as below.",
        "NAME          READY   STATUS    RESTARTS   AGE",
        "soadb-0       0/1     Pending   0          22s",
        "",
    ])
    r = ingest_text(after_notes, "ticket.txt")
    [soadb] = [o for o in r.objects if o.name == "soadb-0"]
    assert soadb.namespace != "operator"


def test_a_dry_run_manifest_beside_the_live_pod_is_said_as_what_would_be_sent() -> None:
    # a Kubernetes homework's notes (find_string "--dry-run=client -o yaml", trimmed): the live
    # pod web listed, then `kubectl run web ... --dry-run=client -o yaml` printing its manifest
    session = "\n".join([
        "```", "$ kubectl get pods",
        "NAME               READY   STATUS    RESTARTS   AGE",
        "web                1/1     Running   0          3h21m",
        "```", "", "```",
        "$ kubectl run web --image=nginx:latest --dry-run=client -o yaml",
        "apiVersion: v1", "kind: Pod", "metadata:", "  creationTimestamp: null", "  labels:",
        "    run: web", "  name: web", "spec:", "  containers:", "  - image: nginx:latest",
        "    name: web", "    resources: {}", "  dnsPolicy: ClusterFirst", "  restartPolicy: Always",
        "status: {}", "```", "",
    ])
    r, ids = _read_ids(session, "homework.md")
    assert ids == ["core/Pod/default/web"]
    [pod] = r.objects
    assert pod.body()["x-kda-text"]["status"] == "Running"  # the live row, not the manifest
    [said] = [s for s in r.skipped if "kubectl run web" in s.reason]
    assert said.reason.startswith("kubectl --dry-run=client printed the manifest it would send, not an object "
                                  "of the cluster (nothing was created or changed)")
