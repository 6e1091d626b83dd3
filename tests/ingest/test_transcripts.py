"""Transcripts read as a person reads them: nodes and pods at the counts a person would count,
every other block skipped with its lines and reason, later sightings winning.

Fixtures: tests/data/transcripts/ (hand-made but three, cut from public write-ups; each file says
how at its top, see its README).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from analyzer.ingest import IngestResult, ingest, ingest_text

DATA = Path(__file__).parents[1] / "data" / "transcripts"


@dataclass(frozen=True)
class Counted:
    """What a person counts in a fixture."""

    kinds: dict[str, int]
    superseded: int
    logs: int
    server_version: str | None
    skipped: tuple[str, ...]  # a piece of each skip reason, in file order (prose left out)
    rejected: tuple[tuple[str, str], ...] = ()
    truncated: tuple[tuple[str, str], ...] = ()  # kept as far as the paste goes: no rejection


COUNTED = {
    "bash-session.txt": Counted(
        {"Node": 3, "Pod": 8}, superseded=3, logs=1, server_version="v1.29.3",
        skipped=("kubectl version: server version v1.29.3 read", "output of 'helm list -A': not kubectl",
                 "shell history listing", "superseded", "output of 'sudo systemctl status kubelet",
                 "superseded", "superseded", "output of 'curl -s")),
    "zsh-session.txt": Counted(
        {"Node": 2, "Pod": 5, "PersistentVolumeClaim": 1}, superseded=2, logs=0, server_version=None,
        skipped=("output of 'k9s --version': not kubectl", "superseded", "superseded")),
    "powershell-session.txt": Counted(
        {"Node": 3, "Pod": 6}, superseded=3, logs=0, server_version="v1.28.5",
        skipped=("server version v1.28.5 read", "output of 'Get-Service -Name docker': not kubectl",
                 "superseded", "superseded", "superseded")),
    "postmortem.md": Counted(
        {"Node": 2, "Pod": 3, "Service": 1}, superseded=0, logs=0, server_version=None,
        skipped=("markdown fences taken off", "output of 'terraform plan -target=module.eks': not kubectl")),
    "support-ticket.txt": Counted(
        {"Node": 2, "Pod": 3}, superseded=0, logs=0, server_version=None,
        skipped=("quoting taken off",),
        rejected=(("line 28", "cut off"),)),
    "flannel-writeup.md": Counted(
        {}, superseded=0, logs=1, server_version=None,
        skipped=("markdown fences taken off", "without a container name: the same text as container kube-flannel's")),
    "oke-gva-writeup.md": Counted(
        {"Deployment": 1, "Node": 1, "Pod": 6}, superseded=6, logs=0, server_version=None,
        skipped=("markdown fences taken off", "superseded", "superseded", "superseded", "superseded",
                 "coredns-7949666f46-frvx4 superseded: not in the later full listing at line 29",
                 "kube-dns-autoscaler-9b5569b69-ddqbr superseded: not in the later full listing at line 29",
                 "kubectl scale prints what it scaled"),
        truncated=(("line 60", "describe of Node '10.0.1.17' ends mid-section 'Allocatable'"),)),
    "oke-autoscale-demo.md": Counted(
        {"Deployment": 2, "HorizontalPodAutoscaler": 1, "Node": 3, "Pod": 6, "Service": 2}, superseded=20, logs=0,
        server_version=None,
        skipped=("markdown fences taken off", "kubectl create prints what it created", *["superseded"] * 6,
                 "nginx-78878bf58d-7hcxd superseded: deleted with its owner Deployment nginx",
                 "nginx-78878bf58d-glxvn superseded: deleted with its owner Deployment nginx",
                 "Service/default/nginx superseded: deleted by 'kubectl delete -f ngninx-service.yml' (line 66)",
                 "kubectl delete prints what it deleted", *["superseded"] * 11)),
    "github-actions.log": Counted(
        {"Node": 2, "Pod": 8, "Event": 2}, superseded=0, logs=0, server_version="v1.28.8+k3s1",
        skipped=("CI timestamps taken off", "server version v1.28.8+k3s1 read",
                 "output of 'terraform -chdir=infra apply -auto-approve': not kubectl")),
}


def _read(name: str) -> IngestResult:
    return ingest(DATA / name)


def test_every_fixture_is_counted() -> None:
    assert sorted(p.name for p in DATA.iterdir() if p.name != "README.md") == sorted(COUNTED)


@pytest.mark.parametrize("name", sorted(COUNTED))
def test_transcript_counts(name: str) -> None:
    exp = COUNTED[name]
    r = _read(name)
    assert r.accounting_holds()
    assert r.objects_by_kind == dict(sorted(exp.kinds.items()))
    assert r.duplicates == exp.superseded == sum("superseded" in s.reason for s in r.skipped)
    assert len(r.logs) == exp.logs
    assert r.server_version == exp.server_version
    assert r.formats == ["transcript"]
    reasons = [s.reason for s in r.skipped if "prose" not in s.reason]
    assert len(reasons) == len(exp.skipped), reasons
    for want, got in zip(exp.skipped, reasons, strict=True):
        assert want in got
    assert all(s.location for s in r.skipped if "taken off" not in s.reason)  # each names its lines
    assert [(x.location, x.reason.split(":")[0]) for x in r.rejections] == list(exp.rejected)
    assert [(x.location, x.reason) for x in r.truncated] == list(exp.truncated)


def test_latest_sighting_wins_and_names_the_earlier_lines() -> None:
    r = _read("bash-session.txt")
    web = next(o for o in r.objects if o.name == "web-7d9f8c6b5-x2k4q")
    # the last table (restarts 15), not the YAML before it (restartCount 14)
    assert web.provenance.format == "text table" and web.provenance.line == 93
    assert web.duplicates == 2
    earlier = [s.location for s in r.skipped if "web-7d9f8c6b5-x2k4q superseded" in s.reason]
    assert earlier == ["line 23", "document 0, line 38"]


def test_log_and_version_are_read_from_their_commands() -> None:
    r = _read("bash-session.txt")
    [log] = r.logs
    assert (log.namespace, log.pod, log.container, log.previous) == ("shop", "web-7d9f8c6b5-x2k4q", "web", True)
    assert "connection refused" in log.text and log.line_count == 2


def test_yaml_glued_to_the_prompt_line_and_stripped_json_are_read() -> None:
    pvc = next(o for o in _read("zsh-session.txt").objects if o.kind == "PersistentVolumeClaim")
    assert pvc.name == "data-api-0" and pvc.namespace == "default"
    svc = next(o for o in _read("postmortem.md").objects if o.kind == "Service")
    assert svc.view.spec.clusterIP == "10.100.42.7" and svc.namespace == "web"


def test_quoted_twice_and_cut_off() -> None:
    r = _read("support-ticket.txt")
    assert sorted(o.name for o in r.objects if o.kind == "Node") == ["10.0.10.5", "10.0.10.6"]  # "> > "
    # the cut-off JSON is one rejection at its first line; api-1 is still known from the table
    assert [x.location for x in r.object_rejections] == ["line 28"]
    assert any(o.name == "api-1" for o in r.objects)


@pytest.mark.parametrize(
    ("prompt", "command"),
    [
        ("root@cp-1:~# ", "kubectl get nodes"),
        ("[root@node1 ~]# ", "kubectl get nodes"),
        ("ops@box ~> ", "kubectl get nodes"),  # fish
        ("❯ ", "kubectl get nodes"),
        ("PS C:\\> ", "kubectl.exe get nodes"),
        ("C:\\Users\\ops>", "kubectl get nodes"),
        ("$ ", "oc get nodes"),
        ("$ ", "sudo k3s kubectl get nodes"),
        ("$ ", "kubectl --kubeconfig /etc/rancher/k3s/k3s.yaml --context default get nodes"),
        ("", "k get no"),
    ],
)
def test_prompts_and_command_forms(prompt: str, command: str) -> None:
    table = "NAME     STATUS   ROLES    AGE   VERSION\nnode-1   Ready    <none>   3d    v1.29.3\n"
    text = f"{prompt}{command}\n{table}{prompt}helm version --short\nv3.14.4+g81c902a\n"
    if not prompt:  # commands without prompts: as a code block of a write-up shows them
        text = f"```\n{text}```\n"
    r = ingest_text(text, "session.txt")
    assert r.accounting_holds()
    assert [o.key.id for o in r.objects] == ["core/Node//node-1"]
    assert any("helm version" in s.reason for s in r.skipped)


def test_a_single_pasted_command_is_read_as_before() -> None:
    # one command and its output is no transcript: the kubectl text reader reads it
    r = ingest_text("$ kubectl get nodes\nNAME     STATUS   ROLES    AGE   VERSION\nnode-1   Ready    <none>   3d    v1.29.3\n")
    assert r.formats == ["kubectl-text"] and len(r.objects) == 1


def test_prose_and_markdown_headings_are_not_commands() -> None:
    text = ("# kubectl and helm notes\n\nWe ran the usual checks.\n\n```\n$ kubectl get nodes\n"
            "NAME     STATUS   ROLES    AGE   VERSION\nnode-1   Ready    <none>   3d    v1.29.3\n```\n")
    r = ingest_text(text, "notes.md")
    assert [o.name for o in r.objects] == ["node-1"]
    assert [s.location for s in r.skipped if "prose" in s.reason] == ["line 1", "line 3"]


def test_commands_that_printed_no_objects_are_named() -> None:
    text = ("$ kubectl get pods -n web\nNo resources found in web namespace.\n"
            "$ kubectl get pod x\nError from server (NotFound): pods \"x\" not found\n"
            "$ kubectl top pods -n kube-system\nNAME                       CPU(cores)   MEMORY(bytes)\n"
            "coredns-76f75df574-8xq2c   3m           14Mi\n"
            "$ kubectl cluster-info\nKubernetes control plane is running at https://10.0.0.1:6443\n"
            "$ kubectl apply -f web.yaml\ndeployment.apps/web configured\n"
            "$ kubectl get deploy -n web -o name\ndeployment.apps/web\n")
    r = ingest_text(text, "session.txt")
    assert r.accounting_holds()
    assert [o.key.id for o in r.objects] == ["apps/Deployment/web/web"]
    assert [(s.location, s.reason.split(":")[0]) for s in r.skipped] == [
        ("lines 1-2", "'kubectl get pods -n web' printed no objects"),
        ("lines 3-4", "'kubectl get pod x' printed no objects"),
        ("line 6", "a table of a kind with no objects ('kubectl top pods -n kube-system')"),
        ("lines 8-9", "kubectl cluster-info prints endpoints, no objects"),
        ("lines 10-11", "kubectl apply prints what it changed, no objects ('kubectl apply -f web.yaml')"),
    ]


def test_a_kubectl_that_could_not_reach_its_server_printed_no_objects() -> None:
    # kubectl 1.31's own output with no server to reach (a session run against no kubeconfig):
    # its log lines first, then the error it ends with
    klog = ('E1126 21:58:32.715286   23900 memcache.go:265] "Unhandled Error" err="couldn\'t get current '
            'server API group list: Get \\"http://localhost:8080/api?timeout=32s\\": dial tcp 127.0.0.1:8080: '
            'connect: connection refused"\n')
    refused = "The connection to the server localhost:8080 was refused - did you specify the right host or port?\n"
    text = "$ kubectl get nodes -o wide\n" + klog * 5 + refused + "$ kubectl get pods -A\n" + klog * 5 + refused
    r = ingest_text(text, "session.txt")
    assert r.accounting_holds() and not r.rejections
    said = "printed no objects: The connection to the server localhost:8080 was refused - did you specify the r\u2026"
    assert [(s.location, s.reason) for s in r.skipped] == [
        ("lines 1-7", f"'kubectl get nodes -o wide' {said}"), ("lines 8-14", f"'kubectl get pods -A' {said}")]


def test_a_kubectl_logs_paste_ends_where_a_cluster_info_dump_section_begins() -> None:
    # flannel-writeup.md: `kubectl logs POD` (no -c), then the same log as a dump section.
    r = _read("flannel-writeup.md")
    [log] = r.logs
    assert (log.namespace, log.pod, log.container) == ("kube-system", "kube-flannel-ds-7rxss", "kube-flannel")
    assert log.line == 33 and log.line_count == 15 and "==== " not in log.text
    assert "pod cidr not assigned" in log.text.splitlines()[11]


def test_cluster_info_dump_log_sections_alone_are_logs_not_a_rejection() -> None:
    # The logs part of a cluster-info dump's stdout cut out on its own (a ticket attachment).
    text = ("==== START logs for container coredns of pod kube-system/coredns-5d78c9869d-2xk4q ====\n"
            "[ERROR] plugin/errors: 2 example.org. A: read udp 10.244.0.3:45122->10.0.2.3:53: i/o timeout\n"
            "==== END logs for container coredns of pod kube-system/coredns-5d78c9869d-2xk4q ====\n")
    r = ingest_text(text, name="coredns-logs.txt")
    assert not r.rejections and r.objects_read == 0
    [log] = r.logs
    assert (log.pod, log.container, log.line) == ("coredns-5d78c9869d-2xk4q", "coredns", 2)
    assert r.formats == ["cluster-info-dump"]


def test_a_theme_prompt_with_the_host_before_its_arrow_is_a_session() -> None:
    # KodeKloud's lab prompt ("controlplane ~ ➜  "), as in public CKA notes of its Worker Node
    # Failure test: the node NotReady, then (the kubelet restarted) Ready; the later one wins.
    text = ("controlplane ~ ➜  k get no\n"
            "NAME     STATUS     ROLES    AGE   VERSION\n"
            "node01   NotReady   <none>   5m    v1.32.0\n"
            "\n"
            "controlplane ~ ➜  k get no\n"
            "NAME     STATUS   ROLES    AGE   VERSION\n"
            "node01   Ready    <none>   43m   v1.32.0\n")
    r = ingest_text(text, name="kodekloud.txt")
    assert r.formats == ["transcript"]
    [node] = r.objects
    assert node.provenance.line == 7 and node.duplicates == 1


# One command pasted with its table, behind a shell's xtrace (openebs/rawfile-localpv
# docs/contributor.md @469c8e40, its kind e2e setup script's last step) or kube-ps1's context and a
# zsh theme (rancher/support-bundle-kit docs/quickstart.md, Harvester's support bundle simulator):
# the command line read as prose, the pods lost the namespace it names.
_XTRACED_GET = """+ kubectl get pods -n openebs -o wide
NAME                           READY   STATUS    RESTARTS   AGE   IP           NODE             NOMINATED NODE   READINESS GATES
rawfile-localpv-controller-0   2/2     Running   0          26s   10.244.1.3   rawfile-worker   <none>           <none>
rawfile-localpv-node-8xscw     5/5     Running   0          26s   10.244.1.2   rawfile-worker   <none>           <none>
"""
_KUBE_PS1_GET = """For example:
```shell
(⎈ |default:default)➜  ~ kubectl get pods -n support-bundle-node-info
NAME              READY   STATUS    RESTARTS   AGE
harvester-pxe-1   8/8     Running   0          41h
harvester-pxe-2   8/8     Running   0          41h

```
"""


@pytest.mark.parametrize(("text", "namespace"), [(_XTRACED_GET, "openebs"), (_KUBE_PS1_GET, "support-bundle-node-info")])
def test_a_traced_or_themed_command_names_its_tables_namespace(text: str, namespace: str) -> None:
    r = ingest_text(text, "pasted.md")
    assert r.accounting_holds()
    assert {o.key.namespace for o in r.objects} == {namespace} and len(r.objects) == 2
    assert not any("neither a kubectl table" in s.reason for s in r.skipped)  # the command line, before


# Trimmed from NicolasLopes7/k8s-learnings readme.md (an earlier version): a session typed behind
# oh-my-zsh's default theme, the folder a plain word (`➜  k8s `) and the git state after it. Before,
# each line read as a program named `k8s`: its `get` tables were read without their command, its
# `delete`s were not kubectl's, and the two pods it deleted were kept as running.
_ROBBYRUSSELL = """## Commands
➜  k8s kubectl get pods
NAME    READY   STATUS    RESTARTS   AGE
nginx   1/1     Running   0          55s

➜  k8s kubectl delete pod nginx
pod "nginx" deleted

➜  k8s kubectl get pods
No resources found in default namespace.

### Adding a new layer to manager pods:
- Replica set, manages our pods and verifying if pods are on, if they off, replica set will recreat it to us.

➜  k8s git:(main) ✗ kubectl get pods
NAME                     READY   STATUS    RESTARTS   AGE
nginx-replicaset-z9qrk   1/1     Running   0          45s

➜  k8s git:(main) ✗ kubectl delete pod nginx-replicaset-z9qrk
pod "nginx-replicaset-z9qrk" deleted

➜  k8s git:(main) ✗ kubectl get pods
NAME                     READY   STATUS    RESTARTS   AGE
nginx-replicaset-4qf88   1/1     Running   0          6s
"""


def test_a_theme_prompt_with_a_plain_folder_runs_kubectl() -> None:
    r = ingest_text(_ROBBYRUSSELL, "readme.md")
    assert r.accounting_holds() and not r.rejections
    assert [o.key.id for o in r.objects] == ["core/Pod/default/nginx-replicaset-4qf88"]
    assert sum("superseded: deleted by 'kubectl delete pod" in s.reason for s in r.skipped) == 2
    # kubectl's one line, the writer's heading and list after it: no table that could not be read
    assert any(s.reason == "'kubectl get pods' printed no objects: No resources found in default namespace."
               and s.location == "lines 9-14" for s in r.skipped)


# Trimmed from harness/developer-hub docs/first-gen/continuous-delivery/helm-deployment/
# 2-connectors-providers-and-helm-setup.md (GKE's Cloud Shell): the command set in bold from the
# prompt's `$` on, each line ending in markdown's two spaces. Before, the closing `**` stayed on
# the last argument: the Deployment and Service were read in a namespace `kube-system**`.
_CLOUD_SHELL_BOLD = "```\n" + "".join(f"{line}  \n" for line in """\
j_doe@cloudshell:~ (project-121212)**$ kubectl --namespace kube-system create sa tiller**
serviceaccount "tiller" created

j_doe@cloudshell:~ (project-121212)**$ kubectl get deploy,svc tiller-deploy -n kube-system**
NAME                                  DESIRED   CURRENT   UP-TO-DATE   AVAILABLE   AGE
deployment.extensions/tiller-deploy   1         1         1            1           20s
NAME                    TYPE        CLUSTER-IP      EXTERNAL-IP   PORT(S)     AGE
service/tiller-deploy   ClusterIP   10.63.251.235   <none>        44134/TCP   20s""".splitlines()) + "```\n"


def test_a_command_in_bold_from_its_prompts_mark_keeps_its_namespace() -> None:
    r = ingest_text(_CLOUD_SHELL_BOLD, "helm-setup.md")
    assert r.accounting_holds() and not r.rejections
    assert sorted(o.key.id for o in r.objects) == ["apps/Deployment/kube-system/tiller-deploy",
                                                    "core/Service/kube-system/tiller-deploy"]


# Trimmed from aws/aws-cdk#6005 (an EKS FargateCluster's CoreDNS Pending): the whole command line,
# prompt and all, set in bold. Before, the closing `**` stayed on the namespace: CoreDNS's pods and
# Deployment were read in a namespace `kube-system**`, no system component's.
_CDK_6005_BOLD_PROMPT = """```console
**Andrzejs-MacBook-Pro:awscdk-eks-fargate-cluster anti9to5$ kubectl get pods -n kube-system**
NAME                       READY   STATUS    RESTARTS   AGE
coredns-56678dcf76-nhkzq   0/1     Pending   0          73m
coredns-7dc94799cb-b2ph6   0/1     Pending   0          70m
```
"""


def test_a_command_line_in_bold_prompt_and_all_keeps_its_namespace() -> None:
    r = ingest_text(_CDK_6005_BOLD_PROMPT, "issue.md")
    assert r.accounting_holds() and not r.rejections
    assert sorted(o.key.id for o in r.objects) == ["core/Pod/kube-system/coredns-56678dcf76-nhkzq",
                                                    "core/Pod/kube-system/coredns-7dc94799cb-b2ph6"]


# Trimmed from rancher/rke2#8498 (github.com/rancher/rke2/issues/8498, its description): the
# reporter's aliases `kno` and `kpo` print `kubectl get nodes` and `kubectl get pods -A`.
_RKE2_8498_ALIASES = """```
$ kno
NAME                                          STATUS     ROLES                       AGE   VERSION
ip-172-31-17-160.us-east-2.compute.internal   NotReady   <none>                      23m   v1.31.10+rke2r1
ip-172-31-28-209.us-east-2.compute.internal   NotReady   control-plane,etcd,master   25m   v1.31.10+rke2r1
```
```
[ec2-user@ip-172-31-28-209 ~]$ kpo
NAMESPACE        NAME                                                                   READY   STATUS                  RESTARTS        AGE
auto-clusterip   test-clusterip-6b86dc97bd-2vqlm                                        0/1     Pending                 0               10m
auto-dns         dnsutils                                                               0/1     Pending                 0               10m
```
"""


def test_an_alias_that_prints_a_kubectl_table_is_read_as_the_table() -> None:
    r = ingest_text(_RKE2_8498_ALIASES, "rke2-8498.md")
    assert r.accounting_holds()
    assert sorted(o.key.id for o in r.objects) == [
        "core/Node//ip-172-31-17-160.us-east-2.compute.internal",
        "core/Node//ip-172-31-28-209.us-east-2.compute.internal",
        "core/Pod/auto-clusterip/test-clusterip-6b86dc97bd-2vqlm",
        "core/Pod/auto-dns/dnsutils",
    ]
    said = [s.reason for s in r.skipped if "kno" in s.reason or "kpo" in s.reason]
    assert len(said) == 2 and all("read as one" in s for s in said)


def test_another_command_whose_output_is_no_kubectl_table_is_still_skipped() -> None:
    # `helm list` opens with NAME too, but names no kind kubectl prints: not read as objects
    text = ("$ kubectl get ns\nNAME          STATUS   AGE\nshop          Active   3d\n"
            "$ helm list -A\nNAME   NAMESPACE   REVISION   UPDATED                                STATUS     CHART\n"
            "web    shop        3          2024-05-02 10:11:12.1 +0000 UTC        deployed   web-1.2.0\n")
    r = ingest_text(text, "helm.txt")
    assert [o.key.id for o in r.objects] == ["core/Namespace//shop"]
    assert any("not kubectl" in s.reason for s in r.skipped)


# Trimmed from a Telegraf proof of concept's README (Spanish, by toni-moreno, in the public code
# index; it quotes an EKS node's YAML, name cut by its author): prose, a ```yaml fence, prose,
# a ```toml fence, and no kubectl command. Read as YAML it was one broken document ("invalid
# YAML" at the prose after the fence); read as a write-up the Node is found and judged.
_EKS_NODE_README = """Si tenemos los siguientes labels en un nodo EKS
```yaml
apiVersion: v1
kind: Node
metadata:
  creationTimestamp: "2025-10-17T10:40:12Z"
  labels:
    eks.amazonaws.com/capacityType: ON_DEMAND
    eks.amazonaws.com/nodegroup: MyNodeGroup
    topology.kubernetes.io/zone: eu-west-1a
```
Podriamos querer disponer de la siguiente informacion poniendola como variables de entorno:

```toml
[global_tags]
  region = "${TOPOLOGY_KUBERNETES_IO_REGION}"
```
"""


def test_a_write_up_of_fenced_yaml_without_a_command_is_read_block_by_block() -> None:
    r = ingest_text(_EKS_NODE_README, "README.md")
    assert [f.format for f in r.files] == ["transcript"]
    [rejection] = r.rejections
    assert rejection.location == "document 0, line 3" and "no metadata.name" in rejection.reason
    assert any("code block" in s.reason for s in r.skipped)  # the toml, said and skipped
    named = ingest_text(_EKS_NODE_README.replace("metadata:\n", "metadata:\n  name: ip-10-0-1-5\n"),
                        "README.md")
    assert [(o.kind, o.name) for o in named.objects] == [("Node", "ip-10-0-1-5")]



# Trimmed from a Pulumi-on-EKS conversation log in the public code index (CONVERSATION-HISTORY.md
# of an EKS "Dawn/Day/Dusk" project; the index does not name its repository): two fenced JSON
# ServiceAccounts, neither one an object. Their rejections named line 1 of the file, where the
# transcript's blank-padded block starts, not the lines their documents open on.
_EKS_SA_JSON_WRITE_UP = """\
### Assistant Response 14
Explained Kubernetes resource anatomy using ALB controller ServiceAccount.

**Inputs:**
```json
{
  "metadata": {
    "name": "aws-load-balancer-controller",
    "namespace": "kube-system",
    "annotations": {
      "eks.amazonaws.com/role-arn": "arn:aws:iam::..."
    }
  }
}
```

**Outputs (from K8s API):**
```json
{
  "apiVersion": "v1",
  "kind": "ServiceAccount",
  "metadata": {
    "uid": "a1b2c3d4-e5f6-7890-abcd-ef1234567890",
    "creationTimestamp": "2025-11-15T12:34:56Z"
  }
}
```
"""


def test_a_json_document_in_a_write_up_is_rejected_at_the_line_it_opens_on() -> None:
    r = ingest_text(_EKS_SA_JSON_WRITE_UP, "CONVERSATION-HISTORY.md")
    assert [(x.location, x.reason.split(",")[0]) for x in r.rejections] == [
        ("document 0, line 6", "object has no kind"),
        ("document 0, line 19", "ServiceAccount has no metadata.name"),
    ]


# A write-up that shows the command in one code block and its output in the next (converged-
# computing/operator-experiments @ 347f9a1, aws/lammps/hpc7g/run3/DEBUGGING.md, an EKS 1.27
# cluster's EFA device plugin, trimmed): the output was read without its command, so the
# DaemonSet (whose describe prints no Namespace line) had no namespace and counted twice beside
# the same DaemonSet of the `-o json` after it.
_EFA_WRITE_UP = """\
> 2. kubectl describe ds aws-efa-k8s-device-plugin-daemonset -n <Namespace>

```bash
$ kubectl describe ds aws-efa-k8s-device-plugin-daemonset -n kube-system
```
```console
Name:           aws-efa-k8s-device-plugin-daemonset
Selector:       name=aws-efa-k8s-device-plugin
Node-Selector:  <none>
Labels:         <none>
Desired Number of Nodes Scheduled: 8
Current Number of Nodes Scheduled: 8
Number of Nodes Scheduled with Up-to-date Pods: 8
Number of Nodes Scheduled with Available Pods: 3
Number of Nodes Misscheduled: 0
Pods Status:  8 Running / 0 Waiting / 0 Succeeded / 0 Failed
Events:
  Type    Reason            Age   From                  Message
  ----    ------            ----  ----                  -------
  Normal  SuccessfulCreate  14m   daemonset-controller  Created pod: aws-efa-k8s-device-plugin-daemonset-7tf47
```

Json output included too:

```bash
$ kubectl get ds aws-efa-k8s-device-plugin-daemonset -n kube-system -o json
```
```console
{
    "apiVersion": "apps/v1",
    "kind": "DaemonSet",
    "metadata": {
        "creationTimestamp": "2023-07-28T17:10:55Z",
        "name": "aws-efa-k8s-device-plugin-daemonset",
        "namespace": "kube-system",
        "uid": "64cbfeb6-f251-4797-8b92-07ef6c3a40db"
    },
    "status": {"desiredNumberScheduled": 8, "numberAvailable": 3, "numberReady": 3}
}
```
"""


def test_a_command_in_one_code_block_owns_the_output_in_the_next() -> None:
    r = ingest_text(_EFA_WRITE_UP, "DEBUGGING.md")
    daemonsets = [o for o in r.objects if o.kind == "DaemonSet"]
    assert [o.key.id for o in daemonsets] == ["apps/DaemonSet/kube-system/aws-efa-k8s-device-plugin-daemonset"]
    assert r.duplicates == 1  # the describe and the JSON: one object, seen twice
    # the events of the describe are the DaemonSet's, in its namespace
    assert {o.namespace for o in r.objects if o.kind == "Event"} == {"kube-system"}


# Trimmed from NVIDIA/cloud-native-docs openshift/install-nfd.rst @015aa87d (Sphinx): the command
# in one `.. code-block:: console`, its output in the next. Before, the directives' indented content
# was prose: 'no output shown' for the command, and its pod lost the namespace the command names.
_NFD_RST = """#. Verify the Node Feature Discovery Operator is running:

   .. code-block:: console

      $ oc get pods -n openshift-nfd

   .. code-block:: console

      NAME                                      READY   STATUS    RESTARTS   AGE
      nfd-controller-manager-7f86ccfb58-nqgxm   2/2     Running   0          11m

#. When the Node Feature Discovery is installed, create an instance of Node Feature Discovery.
"""


def test_a_command_in_one_rst_code_block_owns_the_output_in_the_next() -> None:
    r = ingest_text(_NFD_RST, "install-nfd.rst")
    assert r.accounting_holds()
    assert [o.key.id for o in r.objects] == ["core/Pod/openshift-nfd/nfd-controller-manager-7f86ccfb58-nqgxm"]
    assert not any("no output shown" in s.reason for s in r.skipped)
    # the prose after the block, back at the directive's indent, is prose again
    assert any(s.reason.startswith("prose") and s.location == "line 12" for s in r.skipped)


def test_a_command_block_followed_by_prose_keeps_its_empty_output() -> None:
    text = _EFA_WRITE_UP.split("```console")[0] + "Then nothing.\n"
    r = ingest_text(text, "DEBUGGING.md")
    assert not r.objects and not r.rejections


def test_json_log_lines_in_a_code_block_are_no_rejected_object() -> None:
    # trimmed from aws/amazon-vpc-cni-k8s#1394 (its description, 2021-03-02): the aws-node plugin's
    # log line pasted in its own fence after the pod's Events. Before: "rejected: object has no
    # kind", counted as an object read and rejected.
    text = ("```sh\nEvents:\n  Type     Reason     Age                      From                                 Message\n"
            "  ----     ------     ----                     ----                                 -------\n"
            "  Warning  BackOff    6m13s (x935 over 5h19m)  kubelet, ip-10-0-14-55.ec2.internal  "
            "Back-off restarting failed container\n```\n\nThe plugin logs are full of:\n```sh\n"
            '{"level":"error","ts":"2021-03-02T19:55:24.667Z","caller":"routed-eni-cni-plugin/cni.go:249",'
            '"msg":"Error received from DelNetwork gRPC call"}\n```\n')
    r = ingest_text(text, "issue.md")
    assert not r.rejections and r.objects_read == 1
    assert [s.reason for s in r.skipped if "JSON log" in s.reason] == [
        "code block: JSON log lines (level, message), no Kubernetes object"]


def test_another_clis_json_list_of_strings_is_no_rejected_object() -> None:
    # trimmed from an AKS GPU node pool write-up (a public repository's notes, 2023-08-10): `az aks
    # nodepool show ... --query nodeTaints` printed a JSON list of strings behind a root `# `
    # prompt, between kubectl's output. Before: "rejected: broken JSON document: Expected
    # `object`, got `array`", counted as an object read and rejected; the skip before it named line 1.
    text = ("```\n# az aks nodepool show -g $rgname --cluster-name $clustername -n gpunp --query gpuInstanceProfile\n"
            "(null)\n\n# az aks nodepool show -g $rgname --cluster-name $clustername -n gpunp --query nodeTaints\n"
            '[\n  "sku=gpu:NoSchedule"\n]\n\n'
            "# kubectl get nodes\nNAME                            STATUS   ROLES   AGE     VERSION\n"
            "aks-gpunp-10282168-vmss000000   Ready    agent   2m13s   v1.26.6\n```\n")
    r = ingest_text(text, "notes.md")
    assert not r.rejections and r.objects_read == 1
    reasons = {s.location: s.reason for s in r.skipped}
    assert reasons["line 6"] == "JSON holding no object (a list of 1 value(s)): not a Kubernetes object"
    assert reasons["line 2"].startswith("not JSON, skipped: '# az aks nodepool show")


def test_a_command_typed_over_lines_is_read_whole() -> None:
    # trimmed from an OKE (Oracle) Cloud Shell session in a public repository's notes (mushop on
    # OKE 1.24): the Secret's jsonpath went on a second line after a `\`, behind the shell's `> `.
    # Before: the command was cut at the `\`, so its output (a decoded password) "could not be
    # read as a kubectl table or describe" and was counted as an input not read.
    text = ("```bash\nmgarciar@cloudshell:~ (us-ashburn-1)$ kubectl get secret -n mushop-utilities mushop-utils-grafana \\\n"
            "> -o jsonpath=\"{.data.admin-password}\" | base64 --decode ; echo\nqFAHPGDxLlpVY2RX6tEERXmIBcZxjneEFHzQq0ku\n```\n\n"
            "```bash\nmgarciar@cloudshell:~ (us-ashburn-1)$ kubectl get pods \\\n  -n mushop\n"
            "NAME                         READY   STATUS    RESTARTS   AGE\n"
            "mushop-api-99f4cd58b-fh6mh   1/1     Running   0          2d\n```\n")
    r = ingest_text(text, "notes.md")
    assert not r.rejections
    assert [(o.namespace, o.name) for o in r.objects if o is not None] == [("mushop", "mushop-api-99f4cd58b-fh6mh")]
    reasons = {s.location: s.reason for s in r.skipped}
    assert reasons["lines 2-4"].endswith("is jsonpath, which names no whole object")
    assert not any("qFAHPGDx" in s.reason for s in r.skipped)


def test_a_describes_one_event_row_quoted_alone_is_that_objects_event() -> None:
    # trimmed from jonashackt/tekton-argocd-eks#118 (2022-12-08, EKS 1.23 without the EBS CSI
    # add-on): the command in inline code, its one Events row in a fence, no heading. Before:
    # "code block, not kubectl output" (one such row alone may be prose in columns).
    text = ("Running `k describe pvc buildpacks-source-pvc` shows the problem, that no PersistentVolume seems "
            "to be created anymore:\n\n```\n Normal  ExternalProvisioning  14s (x8 over 101s)  persistentvolume-controller  "
            "waiting for a volume to be created, either by external provisioner \"ebs.csi.aws.com\" or manually "
            "created by system administrator\n```\n")
    r = ingest_text(text, "issue.md")
    assert not r.rejections
    (event,) = [o for o in r.objects if o is not None]
    about = event.body()["involvedObject"]
    assert (about["kind"], about["name"]) == ("PersistentVolumeClaim", "buildpacks-source-pvc")
    assert event.body()["reason"] == "ExternalProvisioning" and event.body()["count"] == 8
    # the same row with no describe above it is an event of an object not named (its From, a
    # controller's name, says it is kubectl's), its claim's wait still read
    alone = ingest_text(text.split("\n\n", 1)[1], "issue.md")
    (event,) = [o for o in alone.objects if o is not None]
    assert event.body()["reason"] == "ExternalProvisioning" and not event.body()["involvedObject"].get("name")


def test_a_describes_condition_row_in_the_fence_below_the_command_naming_it_is_that_nodes() -> None:
    # trimmed from kubernetes/kubernetes#107899 (2022-02-01, an OKE node named by its IP): the
    # command in inline code on a line ending with a colon, its one MemoryPressure row in the fence
    # below. Before: "'kubectl describe node ...': no output shown" and the row "without the Name
    # of what it describes", the node and its pressure since 20 Jan lost.
    text = ("`kubectl describe node 10.0.10.132` shows:\n\n```\n"
            "  MemoryPressure       True    Tue, 01 Feb 2022 09:44:34 +0100   Thu, 20 Jan 2022 04:54:21 +0100   "
            "KubeletHasInsufficientMemory   kubelet has insufficient memory available\n```\n")
    r = ingest_text(text, "issue.md")
    assert not r.rejections
    (node,) = [o for o in r.objects if o is not None]
    assert (node.kind, node.name) == ("Node", "10.0.10.132")
    (condition,) = node.body()["status"]["conditions"]
    assert (condition["type"], condition["status"], condition["lastTransitionTime"]) == \
        ("MemoryPressure", "True", "2022-01-20T03:54:21Z")
    # a fence of prose below such a line is still not taken for the command's output
    prose = ingest_text("`kubectl describe node 10.0.10.132` shows:\n\n```\nnothing useful here\n```\n", "issue.md")
    assert not [o for o in prose.objects if o is not None]


def test_a_node_describes_pods_table_quoted_without_its_name_is_skipped_naming_the_pods() -> None:
    # trimmed from kubernetes/kubernetes#107899 (the same description): its Non-terminated Pods
    # and Allocated resources quoted under a sentence naming only `kubectl describe`. Before:
    # "code block, not kubectl output", the OKE proxymux-client among them unsaid.
    text = ("On the allocated resources section from `kubectl describe` shows (check also the events):\n\n```\n"
            "Non-terminated Pods:          (3 in total)\n"
            "  Namespace                   Name                     CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age\n"
            "  ---------                   ----                     ------------  ----------  ---------------  -------------  ---\n"
            "  kube-system                 kube-flannel-ds-4vbr5    100m (5%)     1 (50%)     50Mi (0%)        500Mi (6%)     55d\n"
            "  kube-system                 proxymux-client-mq9vn    50m (2%)      500m (25%)  64Mi (0%)        256Mi (3%)     47d\n"
            "Allocated resources:\n"
            "  (Total limits may be over 100 percent, i.e., overcommitted.)\n"
            "  Resource           Requests    Limits\n"
            "  --------           --------    ------\n"
            "  cpu                150m (7%)   1500m (75%)\n```\n")
    pods = "it says 2 pod(s) on it: kube-system/kube-flannel-ds-4vbr5, kube-system/proxymux-client-mq9vn"
    r = ingest_text(text, "issue.md")
    assert not [o for o in r.objects if o is not None]
    (said,) = [x.reason for x in r.rejections]  # read as a describe's excerpt: refused, and what it shows said
    assert said == f"describe without a Name: it has no name; nothing read; {pods}"
    # the table alone (no second section to tell a describe by) is skipped, saying the same
    alone = ingest_text(text.split("Allocated resources:")[0] + "```\n", "issue.md")
    (skipped,) = [x.reason for x in alone.skipped if "Non-terminated Pods" in x.reason]
    assert skipped.endswith(pods)


def test_a_describes_one_event_row_past_a_mark_of_what_was_cut_is_that_pods_event() -> None:
    # trimmed from kubernetes/kubernetes#82453 (2019-09-07, OpenShift 4 with Rook Ceph): `oc get
    # pod`, then `oc describe pod X` cut to ` .` and its one FailedMount row, then a headerless
    # `oc get pv` row. Before: the describe 'could not be read', the FailedMount that keeps the
    # ContainerCreating pod from starting lost, and no finding at all.
    text = ("# oc get pod\n"
            "NAME                               READY     STATUS              RESTARTS   AGE\n"
            "virt-launcher-vm-dv-cirros-mk5vg   0/1       ContainerCreating   0          25s\n"
            "virt-launcher-vm-dv-cirros-v72rs   1/1       Running             0          2m5s\n"
            "\n"
            "# oc describe pod virt-launcher-vm-dv-cirros-mk5vg\n"
            " .\n"
            " Warning  FailedMount  27s (x8 over 1m)  kubelet, cluster1-4pt9b-worker-0-rwq2g  MountVolume.SetUp failed "
            "for volume \"pvc-eb52992f-d00c-11e9-be37-5254001e809d\" : mount command failed, status: Failure, reason: "
            "Rook: Mount volume failed: failed to attach volume pvc-eb52992f-d00c-11e9-be37-5254001e809d for pod "
            "default/virt-launcher-vm-dv-cirros-mk5vg. Volume is already attached by pod "
            "default/virt-launcher-vm-dv-cirros-v72rs. Status Running\n")
    r = ingest_text(text, "issue.md")
    assert not r.rejections
    (event,) = [o for o in r.objects if o is not None and o.key.kind == "Event"]
    about = event.body()["involvedObject"]
    assert (about["kind"], about["name"]) == ("Pod", "virt-launcher-vm-dv-cirros-mk5vg")
    assert event.body()["reason"] == "FailedMount" and event.body()["count"] == 8
    assert event.provenance.line == 8
    # one row under the Events heading alone is a row too, and so is one with nothing above it,
    # the kubelet's in its From (of an object not named: no describe names it)
    under_heading = ingest_text("Events:\n" + text.splitlines()[7] + "\n", "issue.md")
    assert [o.body()["reason"] for o in under_heading.objects if o is not None] == ["FailedMount"]
    alone = ingest_text(text.splitlines()[7] + "\n", "issue.md")
    assert [o.body()["reason"] for o in alone.objects if o is not None] == ["FailedMount"]


def test_a_describes_section_past_a_mark_of_what_was_cut_is_the_named_objects() -> None:
    # trimmed from Deepomatic/dmake#475 (comment 2021-01-22): `kubectl describe deploy xxx`, `...`,
    # then its Conditions. Before: 'could not be read as a kubectl table or describe', the
    # Deployment's timed-out rollout lost.
    text = ("$ kubectl describe deploy xxx\n"
            "...\n"
            "Conditions:\n"
            "  Type           Status  Reason\n"
            "  ----           ------  ------\n"
            "  Available      True    MinimumReplicasAvailable\n"
            "  Progressing    False   ProgressDeadlineExceeded\n")
    r = ingest_text(text, "issue.md")
    assert not r.rejections
    (deploy,) = [o for o in r.objects if o is not None]
    assert (deploy.key.kind, deploy.key.name) == ("Deployment", "xxx")
    conditions = {c["type"]: (c["status"], c["reason"]) for c in deploy.body()["status"]["conditions"]}
    assert conditions["Progressing"] == ("False", "ProgressDeadlineExceeded")
    # the section with text other than a cut mark above it is no excerpt the command names
    prose = ingest_text(text.replace("...\n", "the rest was fine\n"), "issue.md")
    assert not [o for o in prose.objects if o is not None]


def test_openshift_3s_oc_version_gives_the_servers_kubernetes_version() -> None:
    # A public OpenShift 3.11 write-up's session (found by the text index for "openshift v3.11.0+"),
    # trimmed: `oc version` prints the client, then `Server <url>`, `openshift v3.11...` and the
    # server's `kubernetes v1.11.0+d4cacc0`.
    session = ("$ oc version\n"
               "oc v3.11.0+e5dbec2-186\n"
               "kubernetes v1.11.0+d4cacc0\n"
               "features: Basic-Auth GSSAPI Kerberos SPNEGO\n"
               "\n"
               "Server https://master:8443\n"
               "openshift v3.11.0+9b1e777-164\n"
               "kubernetes v1.11.0+d4cacc0\n"
               "\n"
               "$ oc get pods\n"
               "NAME                       READY     STATUS    RESTARTS   AGE\n"
               "router-1-xlp7j             1/1       Running   0          1h\n")
    result = ingest_text(session, "session.txt")
    assert result.server_version == "v1.11.0+d4cacc0" and result.cli_tools == {"oc": 2}
    # the same print pasted as prose (tab-indented under a heading, no command before it)
    prose = "## version\n" + "".join("\t" + line + "\n" for line in session.splitlines()[1:8])
    prose += "\n" + "\n".join(session.splitlines()[10:]) + "\n"
    result = ingest_text(prose, "notes.md")
    assert result.server_version == "v1.11.0+d4cacc0" and result.cli_tools == {"oc": 1}


def test_output_in_a_fence_inside_a_markdown_list_item_is_read() -> None:
    # trimmed from kubernetes/ingress-nginx#9492 (a kind cluster): the command in inline code
    # in a list item, its output in a fence indented with the item. Before: "code block, not
    # kubectl output" (every line four spaces in), nothing read.
    text = ("  - `kubectl -n ingress-nginx get svc,ds -A`\n"
            "    ```\n"
            "    NAMESPACE       NAME                                         TYPE        CLUSTER-IP     EXTERNAL-IP   PORT(S)                      AGE\n"
            "    ingress-nginx   service/ingress-nginx-controller             NodePort    10.96.192.35   <none>        80:31041/TCP,443:31875/TCP   17m\n"
            "    kube-system     service/kube-dns                             ClusterIP   10.96.0.10     <none>        53/UDP,53/TCP,9153/TCP       3d22h\n"
            "\n"
            "    NAMESPACE     NAME                        DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR   AGE\n"
            "    kube-system   daemonset.apps/kindnet      1         1         1       1            1           <none>          3d22h\n"
            "    ```\n")
    r = ingest_text(text, "issue.md")
    assert not r.rejections
    assert sorted((o.kind, o.name) for o in r.objects if o is not None) == [
        ("DaemonSet", "kindnet"), ("Service", "ingress-nginx-controller"), ("Service", "kube-dns")]


def test_a_table_indented_as_a_whole_is_read() -> None:
    # trimmed from kubernetes/ingress-nginx#9248 (GKE): `get all -A -o wide` pasted four spaces
    # in (a markdown list item's body), no fence. Before: "not a Kubernetes dump: neither JSON,
    # YAML objects, nor kubectl text".
    text = ("    NAMESPACE     NAME                                          DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR            AGE     CONTAINERS                                 IMAGES\n"
            "    kube-system   daemonset.apps/fluentbit-gke                  3         3         3       3            3           kubernetes.io/os=linux   2y      fluentbit,fluentbit-gke                    gke.gcr.io/fluent-bit:v1.8.7-gke.1,gke.gcr.io/fluent-bit-gke-exporter:v0.17.1-gke.0\n"
            "    kube-system   daemonset.apps/fluentbit-gke-256pd            0         0         0       0            0           kubernetes.io/os=linux   95d     fluentbit,fluentbit-gke                    gke.gcr.io/fluent-bit:v1.8.7-gke.1,gke.gcr.io/fluent-bit-gke-exporter:v0.17.1-gke.0\n")
    r = ingest_text(text, "issue.md")
    assert not r.rejections
    assert [(o.kind, o.name) for o in r.objects if o is not None] == [
        ("DaemonSet", "fluentbit-gke"), ("DaemonSet", "fluentbit-gke-256pd")]
    # prose indented the same way stays prose
    assert not [o for o in ingest_text("    the pods were fine\n    NAME is a word\n", "note.md").objects if o is not None]



# Trimmed from cilium/cilium#17307 (GKE CI, 2021-09-03): Ginkgo's report of a failed test prints
# the command, its exit code and `Stdout:` at the margin, then kubectl's output with a tab and a
# space in front of each line (the header behind a space more). Before: "not a Kubernetes dump:
# neither JSON, YAML objects, nor kubectl text", the GKE pods and the distribution lost.
_CILIUM_17307 = (
    "19:48:36 STEP: Running AfterFailed block for EntireTestsuite K8sDatapathConfig\n"
    "cmd: kubectl get pods -o wide --all-namespaces\n"
    "Exitcode: 0 \n"
    "Stdout:\n"
    " \t NAMESPACE                                                         NAME                                                        READY   STATUS    RESTARTS   AGE     IP            NODE                                        NOMINATED NODE   READINESS GATES\n"
    "\t 202109031944k8sdatapathconfigdirectroutingcheckconnectivitywith   test-k8s2-79ff876c9d-krpp6                                  2/2     Running   0          4m15s   10.24.2.4     gke-cilium-ci-9-cilium-ci-9-0b6d1a72-m9c1   <none>           <none>\n"
    "\t 202109031944k8sdatapathconfigdirectroutingcheckconnectivitywith   testclient-pr5pd                                            1/1     Running   0          4m15s   10.24.2.74    gke-cilium-ci-9-cilium-ci-9-0b6d1a72-m9c1   <none>           <none>\n"
    "\t kube-system                                                       kube-proxy-gke-cilium-ci-9-cilium-ci-9-0b6d1a72-kn7j        1/1     Running   0          65m     10.128.0.21   gke-cilium-ci-9-cilium-ci-9-0b6d1a72-kn7j   <none>           <none>\n"
    "\t kube-system                                                       l7-default-backend-66579f5d7-znk5h                          1/1     Running   0          62m     10.24.1.10    gke-cilium-ci-9-cilium-ci-9-0b6d1a72-kn7j   <none>           <none>\n"
    "\t \n"
    "Stderr:\n"
    " \t \n")


def test_a_ci_logs_table_behind_tabs_under_its_stdout_line_is_read() -> None:
    r = ingest_text(_CILIUM_17307, "cilium-17307.log")
    assert not r.rejections
    pods = {(o.namespace, o.name): o.body() for o in r.objects if o is not None and o.kind == "Pod"}
    assert sorted(pods) == [
        ("202109031944k8sdatapathconfigdirectroutingcheckconnectivitywith", "test-k8s2-79ff876c9d-krpp6"),
        ("202109031944k8sdatapathconfigdirectroutingcheckconnectivitywith", "testclient-pr5pd"),
        ("kube-system", "kube-proxy-gke-cilium-ci-9-cilium-ci-9-0b6d1a72-kn7j"),
        ("kube-system", "l7-default-backend-66579f5d7-znk5h")]
    assert pods[("kube-system", "l7-default-backend-66579f5d7-znk5h")]["spec"]["nodeName"] \
        == "gke-cilium-ci-9-cilium-ci-9-0b6d1a72-kn7j"


def test_an_indented_name_closing_a_paragraph_is_not_taken_for_a_describe() -> None:
    # (a custom resource's describe cut off in its Spec: its indented `Name:` is a field, not
    # the start of another describe, unless its command stands right above it)
    from analyzer.ingest.text.lines import split_lines, undented
    text = "Kind:         Widget\nSpec:\n  Name:   blue\n  Size:   3\n"
    assert [ln.text for ln in undented(split_lines(text))] == text.splitlines()
    typed = "$ kubectl describe pod web-1\n  Name:   web-1\n  Namespace:   shop\n"
    assert [ln.text for ln in undented(split_lines(typed))][1:] == ["Name:   web-1", "Namespace:   shop"]

# Trimmed from kubernetes-sigs/kind#3226 (a kind node, 2023-05-14): `get nodes --show-labels`
# pasted a blank line below its command, indented, its LABELS cell broken one label a line.
# Before: "could not be read as a kubectl table or describe", and the node row that says kind lost.
_KIND_3226_LABELS = """```
$ kubectl get nodes --show-labels

  kind-control-plane   Ready    control-plane   10m   v1.27.1{trailing}
  beta.kubernetes.io/arch=amd64,
  kubernetes.io/hostname=kind-control-plane,
  node-role.kubernetes.io/control-plane=,
  node.kubernetes.io/exclude-from-external-load-balancers=
```
""".format(trailing="   ")  # (the paste's row ends in spaces)


def test_show_labels_output_broken_one_label_a_line_is_read_whole() -> None:
    result = ingest_text(_KIND_3226_LABELS, "kind-3226.md")
    [node] = [o for o in result.objects if o is not None and o.kind == "Node"]
    assert node.name == "kind-control-plane"
    assert node.body()["metadata"]["labels"] == {
        "beta.kubernetes.io/arch": "amd64", "kubernetes.io/hostname": "kind-control-plane",
        "node-role.kubernetes.io/control-plane": "",
        "node.kubernetes.io/exclude-from-external-load-balancers": ""}
    assert not result.input_rejections


def test_headerless_rows_a_blank_line_below_their_command_are_read() -> None:
    # (the same paste, its LABELS cell whole: only the blank line stood in the way)
    text = "$ kubectl get nodes\n\nkind-control-plane   Ready    control-plane   10m   v1.27.1\n"
    result = ingest_text(text, "kind-3226.txt")
    assert [o.name for o in result.objects if o is not None and o.kind == "Node"] == ["kind-control-plane"]


def test_a_command_typed_plain_above_its_quoted_output_is_a_session() -> None:
    # trimmed from okd-project/okd#1470 (2023-01): `$ oc get co`, then the table quoted with `>`
    # and no space. Before: "not a Kubernetes dump: neither JSON, YAML objects, nor kubectl text".
    text = ("$ oc get co\n"
            ">NAME                            VERSION                          AVAILABLE   PROGRESSING   DEGRADED   SINCE   MESSAGE\n"
            ">authentication                  4.11.0-0.okd-2023-01-14-152430   False       False         True       31m     "
            "OAuthServerRouteEndpointAccessibleControllerAvailable: Get \"https://oauth-openshift.apps.tanhung.okd.local/healthz\": EOF\n"
            ">baremetal                       4.11.0-0.okd-2023-01-14-152430   True        False         False      226d\n")
    result = ingest_text(text, "okd-1470.md")
    operators = {o.name: o.body()["status"]["conditions"][0] for o in result.objects if o is not None}
    assert operators["authentication"]["status"] == "False"
    assert operators["authentication"]["message"].startswith("OAuthServerRouteEndpointAccessibleControllerAvailable")
    assert operators["baremetal"]["status"] == "True"


def test_logs_of_a_pod_and_its_container_named_plain_with_the_writers_words_after() -> None:
    # trimmed from k3s-io/klipper-lb#66 (2024-04): the table introduced by "kubectl get pod -A
    # gives:", the log by "kubectl logs POD CONTAINER -n NS gives:". Before: the log was skipped
    # ("logs of pods the command does not name one by one"): `logs POD CONTAINER` was not read,
    # and "gives:" was taken for a name.
    text = ("kubectl get pod -A gives:\n\n"
            "NAMESPACE     NAME                                      READY   STATUS             RESTARTS          AGE\n"
            "kube-system   traefik-8657d6b9f4-ctwtz                  1/1     Running            0                 6h37m\n"
            "kube-system   svclb-traefik-4ea49843-qhf9g              0/2     CrashLoopBackOff   164 (2m19s ago)   6h37m\n\n"
            "kubectl logs svclb-traefik-4ea49843-qhf9g lb-tcp-80 -n kube-system gives:\n\n"
            "+ trap exit TERM INT\n"
            "+ BIN_DIR=/sbin\n"
            "+ check_iptables_mode\n"
            "[INFO]  legacy\n")
    result = ingest_text(text, "klipper-lb-66.md")
    assert sorted(o.name for o in result.objects if o is not None) == [
        "svclb-traefik-4ea49843-qhf9g", "traefik-8657d6b9f4-ctwtz"]
    [log] = result.logs
    assert (log.namespace, log.pod, log.container) == ("kube-system", "svclb-traefik-4ea49843-qhf9g", "lb-tcp-80")
    assert log.text.startswith("+ trap exit TERM INT")


def test_kubectl_events_rows_with_a_repeat_count_in_last_seen_are_read() -> None:
    # trimmed from kubernetes-sigs/kind#3504 (2024): `kubectl events` (1.26+) prints a repeated
    # event's LAST SEEN as `10m (x8 over 10m)`. Before: those rows were rejected ("fits none of
    # its columns"), the single ones read.
    text = ("$ kubectl get pods\n"
            "NAME      READY   STATUS             RESTARTS   AGE\n"
            "testpod   0/1     ImagePullBackOff   0          27m\n\n"
            "$ kubectl events testpod\n"
            "LAST SEEN               TYPE      REASON                    OBJECT                    MESSAGE\n"
            "10m (x8 over 10m)       Normal    NodeHasSufficientMemory   Node/kind-control-plane   Node kind-control-plane status is now: NodeHasSufficientMemory\n"
            "10m (x7 over 10m)       Normal    NodeHasSufficientPID      Node/kind-control-plane   Node kind-control-plane status is now: NodeHasSufficientPID\n"
            "10m                     Normal    Starting                  Node/kind-control-plane   Starting kubelet.\n")
    result = ingest_text(text, "kind-3504.md")
    assert not result.rejections
    events = {o.body()["reason"]: o.body() for o in result.objects if o is not None and o.kind == "Event"}
    assert set(events) == {"NodeHasSufficientMemory", "NodeHasSufficientPID", "Starting"}
    assert events["NodeHasSufficientMemory"]["count"] == 8 and events["NodeHasSufficientPID"]["count"] == 7
    assert events["Starting"]["involvedObject"]["name"] == "kind-control-plane"


# trimmed from k3s-io/k3s#10010 (turn 0 by Stolz, 2024-04): a markdown write-up whose session is
# a code block indented by a tab, prose at the margin after it. Before: "output of 'kubectl get
# pods -n kube-system' could not be read", the crashlooping pods lost.
_K3S_TAB_INDENTED = (
    "Check pod status\n\n"
    "\t$ kubectl get pods -n kube-system\n"
    "\tNAME                                      READY   STATUS             RESTARTS      AGE\n"
    "\tcoredns-597584b69b-pwlmm                  0/1     Running            0             4m24s\n"
    "\tlocal-path-provisioner-79f67d76f8-j4vcv   0/1     CrashLoopBackOff   4 (17s ago)   4m24s\n"
    "\tmetrics-server-5c8978b444-mhx2c           0/1     CrashLoopBackOff   4 (13s ago)   4m24s\n"
    "\nCheck failing pods logs\n")


@pytest.mark.parametrize("pad", ["\t", "    "])
def test_an_indented_session_is_read_and_its_output_ends_where_prose_comes_back(pad: str) -> None:
    r = ingest_text(_K3S_TAB_INDENTED.replace("\t", pad), "issue.md")
    assert not r.rejections
    assert sorted(o.name for o in r.objects if o.kind == "Pod") == [
        "coredns-597584b69b-pwlmm", "local-path-provisioner-79f67d76f8-j4vcv", "metrics-server-5c8978b444-mhx2c"]
    assert any("prose" in s.reason and "Check failing" not in s.reason for s in r.skipped)


def test_a_kubectl_panic_where_a_log_would_be_is_no_log_of_the_pod() -> None:
    # kubectl 1.32 against `kda serve` of the rancher2_logs_collector bundle of brief rev17c
    # (a pod read from a table row lists no container): `kubectl logs` panicked in its own code.
    # Trimmed to the panic's first frames.
    r = ingest_text(
        "support@jump:~$ kubectl get pods -n kube-system\n"
        "NAME                             READY   STATUS    RESTARTS   AGE\n"
        "etcd-w-guard-wg-cp-svtk6-lqtxw   1/1     Running   0          14d\n"
        "\n"
        "support@jump:~$ kubectl logs -n kube-system etcd-w-guard-wg-cp-svtk6-lqtxw --tail=3\n"
        "panic: runtime error: index out of range [0] with length 0\n"
        "\n"
        "goroutine 1 [running]:\n"
        "k8s.io/kubectl/pkg/polymorphichelpers.logsForObjectWithClient({0x27cf720, 0xc000548b60}, "
        "{0x2799588?, 0xc000337b08}, {0x27995b0, 0xc000551b90}, 0x4a817c800, 0x0, 0x0)\n"
        "\tk8s.io/kubectl/pkg/polymorphichelpers/logsforobject.go:109 +0xad5\n"
        "main.main()\n"
        "\tk8s.io/kubernetes/cmd/kubectl-sdk/kubectl.go:41 +0x85\n",
        "session.txt")
    assert r.logs == []
    assert any("crashed: a Go panic of kubectl itself" in s.reason for s in r.skipped)
    # a pod's own Go panic stays its log
    r = ingest_text(
        "$ kubectl get pods -n web\n"
        "NAME        READY   STATUS             RESTARTS      AGE\n"
        "api-7d9f8   0/1     CrashLoopBackOff   4 (30s ago)   3m\n"
        "$ kubectl logs -n web api-7d9f8 --previous\n"
        "panic: runtime error: invalid memory address or nil pointer dereference\n"
        "goroutine 1 [running]:\n"
        "main.main()\n"
        "\t/app/main.go:12 +0x1d\n",
        "session.txt")
    assert [(g.namespace, g.pod, g.previous) for g in r.logs] == [("web", "api-7d9f8", True)]


# Trimmed from the OKE seed document (shared seeds 002: gashirar's blog post on OKE's
# proxymux-client, its prose shortened): the tunnel's DaemonSet deleted, then `kubectl logs`
# answered by the API server's error, the post's prose after it.
_OKE_PROXYMUX_DELETED = """\
apiVersion: extensions/v1beta1
kind: DaemonSet
metadata:
  name: proxymux-client
  namespace: kube-system
spec:
  template:
    spec:
      containers:
      - name: proxymux-client
      hostNetwork: true

# kubectl delete ds -n kube-system proxymux-client
daemonset.extensions "proxymux-client" deleted

# kubectl logs -n kube-system kube-flannel-ds-h9cm9
Error from server: Get https://10.0.10.10:10250/containerLogs/kube-system/kube-flannel-ds-h9cm9/kube-flannel: EOF

みれなくなっていました・・・。
やはりOKEには不可欠なものみたいです。

まとめ

  • proxymux-clientはprivate subnetでクラスタをを作った際に、API Serverとの通信周りの処理を行う
"""


def test_kubectl_logs_answered_by_an_error_is_no_log_and_the_prose_after_it_is_prose() -> None:
    r = ingest_text(_OKE_PROXYMUX_DELETED, "blog.txt")
    assert r.logs == [] and not r.rejections
    (error,) = [s for s in r.skipped if "printed no log" in s.reason]
    assert error.location == "line 17" and "Error from server: Get https://10.0.10.10:10250" in error.reason
    assert any(s.reason == "prose, not kubectl output" and "みれなくなっていました" not in s.reason for s in r.skipped)
    (quoted,) = r.kubelet_unreachable
    assert (quoted.line, quoted.host, quoted.namespace, quoted.pod, quoted.reason) == (
        17, "10.0.10.10", "kube-system", "kube-flannel-ds-h9cm9", "EOF")


def test_what_a_session_deleted_is_kept_as_deleted_with_its_command() -> None:
    r = ingest_text(_OKE_PROXYMUX_DELETED, "blog.txt")
    assert r.objects == []
    (gone,) = r.deleted
    assert (gone.obj.key.id, gone.command, gone.line, gone.owner) == (
        "apps/DaemonSet/kube-system/proxymux-client", "kubectl delete ds -n kube-system proxymux-client", 14, "")


def test_a_single_pasted_kubectl_logs_is_the_pods_log() -> None:
    # Hand-written like a ticket's paste: one `kubectl logs` and what it printed.
    r = ingest_text("$ kubectl logs -n kube-system metrics-server-7d9d5b9c8-x2x7z\n"
                    'E0501 10:00:00.000000       1 scraper.go:140] "Failed to scrape node"\n', "ticket.txt")
    (log,) = r.logs
    assert (log.namespace, log.pod, log.line) == ("kube-system", "metrics-server-7d9d5b9c8-x2x7z", 2)
    assert not r.rejections and r.kubelet_unreachable == []


def test_a_single_pasted_kubectl_logs_behind_a_root_prompt_is_the_pods_log() -> None:
    # easzlab/kubeasz#355 (CentOS, 2018-11-05): `[root@localhost ~]# kubectl logs ...` and
    # CoreDNS's log, trimmed. Its first `[` was taken for a JSON array, the paste for a manifest:
    # 'not a Kubernetes dump', the loop-detected line lost
    r = ingest_text("[root@localhost ~]# kubectl logs -n kube-system coredns-56684f94d6-f7tzp\n"
                    ".:53\n"
                    '2018/11/05 13:48:22 [FATAL] plugin/loop: Seen "HINFO IN 4849932600568443392.'
                    '1730530029506169038." more than twice, loop detected\n', "ticket.txt")
    (log,) = r.logs
    assert (log.namespace, log.pod, log.line) == ("kube-system", "coredns-56684f94d6-f7tzp", 2)
    assert log.text.endswith("loop detected\n") and not r.rejections
    # a JSON array is still one
    assert ingest_text('[{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a"}}]\n', "pods.json").objects


def test_a_command_glued_to_a_sentence_in_japanese_is_prose() -> None:
    # The OKE seed document (shared seeds 002): after a `kubectl get pod -A` listing, the post
    # says "kubectl get podは動きました。" ("kubectl get pod worked.") and goes on.
    r = ingest_text("# kubectl get pod -A\n"
                    "NAMESPACE     NAME                       READY   STATUS    RESTARTS   AGE\n"
                    "kube-system   coredns-67bb89d7c6-ddnvv   1/1     Running   0          3h45m\n"
                    "\n"
                    "kubectl get podは動きました。\n"
                    "とりあえず適当なPodのログでも見てみましょう。\n", "blog.txt")
    assert not r.rejections and [o.name for o in r.objects] == ["coredns-67bb89d7c6-ddnvv"]


# From kubernetes-sigs/karpenter#2187 (EKS 1.31, a Karpenter GPU node, its description): the
# writer labels each output with its command and a colon. The node's row, headerless under
# `kubectl get node:`, was "neither a kubectl table nor a describe": the node and EKS lost.
_KARPENTER_2187 = """```
nodes with taints:
ip-192-16-0-1.ec2.internal   [map[effect:NoSchedule key:hub.jupyter.org/node-purpose value:user]]
------------------------------------------
kubectl get node:
ip-192-16-0-1.ec2.internal   Ready    <none>   3m32s   v1.31.5-eks-5d632ec
-------------------------------------------
```
"""


def test_a_heading_naming_the_command_reads_the_output_below_it_as_that_commands() -> None:
    r = ingest_text(_KARPENTER_2187, "issue.md")
    assert [(o.kind, o.name) for o in r.objects] == [("Node", "ip-192-16-0-1.ec2.internal")]
    assert r.objects[0].view.status.nodeInfo.kubeletVersion == "v1.31.5-eks-5d632ec"


# From nebari-dev/nebari#3213 (EKS, the EBS CSI add-on without its IRSA role, the PR's debug
# logs, trimmed): the command in one fence, its log in the next. The writer's `<pod>` was taken
# for a shell redirection (`> file`), so the command "printed nothing" and the log was lost.
_NEBARI_3213 = """### EBS CSI controller had no AWS creds
```
kubectl logs -n kube-system ebs-csi-controller-<pod> --all-containers --tail=50
```
```
Failed health check (verify network connection and IAM credentials):
dry-run EC2 API call failed:
get identity: get credentials:
failed to refresh cached credentials,
no EC2 IMDS role found
```
"""


def test_a_writers_placeholder_is_a_word_of_the_command_not_a_redirection() -> None:
    r = ingest_text(_NEBARI_3213, "pr.md")
    [log] = r.logs
    assert (log.namespace, log.pod) == ("kube-system", "ebs-csi-controller-<pod>")
    assert log.text.rstrip().endswith("no EC2 IMDS role found")


def test_a_prompted_command_after_the_open_fence_on_its_line_owns_the_block() -> None:
    # coredns/coredns#2391 (2018-12-12), trimmed: the command typed right after the fence, its
    # prompt with it; before, the prompt stayed in the command, so the log was "code block, not
    # kubectl output" and its loop-detected line was lost
    text = ("coredns pods starts crashing with following message in logs:\n\n"
            "```[root@qa065 ~]# kubectl logs coredns-576cbf47c7-6vxd4 -n kube-system\n"
            ".:53\n"
            "2018/12/12 13:33:16 [INFO] CoreDNS-1.2.2\n"
            '2018/12/12 13:33:22 [FATAL] plugin/loop: Seen "HINFO IN 7087784449798295848.7359092265978106814." '
            "more than twice, loop detected\n"
            "```\n")
    r = ingest_text(text, "issue.md")
    [log] = r.logs
    assert (log.namespace, log.pod) == ("kube-system", "coredns-576cbf47c7-6vxd4")
    assert log.text.splitlines()[-1].endswith("loop detected")



def test_a_command_or_a_table_header_typed_on_the_open_fence_is_the_blocks_first_line() -> None:
    # canonical/microk8s#184 (2018-11-16; the describe cut after its first line as the issue is
    # stored) and k3s-io/k3s#7345 (2023-11-14): the command, or the listing's header, typed right
    # after the fence. Before, its first word was taken for the fence's language: `describe -n ...`
    # lost its kubectl (the describe "its kind could not be told; nothing read") and the node
    # listing lost its NAME column (nothing read).
    text = ("```microk8s.kubectl describe -n kube-system pod/hostpath-provisioner-7d7c578f6b-9wz4x\n"
            "Name:               hostpath-provisioner-7d7c578f6b-9wz4x\n"
            "```\n\n"
            "```NAME         STATUS   ROLES                  AGE     VERSION        INTERNAL-IP     EXTERNAL-IP   "
            "OS-IMAGE             KERNEL-VERSION     CONTAINER-RUNTIME\n"
            "devops-s2h   Ready    control-plane,master   4h58m   v1.27.7+k3s2   172.16.11.243   <none>        "
            "Ubuntu 22.04.3 LTS   6.2.0-36-generic   containerd://1.7.7-k3s1.27\n"
            "```\n\n"
            # a language's name is the fence's tag still, and no line of the block
            "```console $ kubectl get pods -n web\nNAME    READY   STATUS    RESTARTS   AGE\n"
            "web-1   1/1     Running   0          3m\n```\n")
    r = ingest_text(text, "issue.md")
    assert sorted(o.key.id for o in r.objects) == ["core/Node//devops-s2h", "core/Pod/kube-system/hostpath-provisioner-7d7c578f6b-9wz4x",
                                                     "core/Pod/web/web-1"]
    assert r.cli_tools == {"microk8s kubectl": 1}
    [node] = [o for o in r.objects if o.kind == "Node"]
    assert node.raw["status"]["nodeInfo"]["kubeletVersion"] == "v1.27.7+k3s2"


# k3s-io/k3s#12600 (2025-07-09, RHEL 10), trimmed: `kspd`, an alias for k3s's kubectl with debug
# on; k3s logs the kubectl it runs, then kubectl's describe. Before: "output of 'kspd ...': not
# kubectl", nothing read.
_K3S_DATA = "/var/lib/rancher/k3s/data/1b7cbbb3a5b11f87bde410c5b493eddc409ba6809dd5318a80c7cc3eadb26f48"
_K3S_DEBUGGED = ("[ec2-user@ip-172-31-26-230 ~]$ kspd helm-install-traefik-crd-t7t68\n"
                 f"DEBU[0000] Asset dir {_K3S_DATA}\n"
                 f"DEBU[0000] Running {_K3S_DATA}/bin/kubectl [kubectl --kubeconfig /etc/rancher/k3s/k3s.yaml "
                 "-n kube-system describe pod helm-install-traefik-crd-t7t68]\n"
                 "Name:             helm-install-traefik-crd-t7t68\n"
                 "Namespace:        kube-system\n"
                 "Node:             ip-172-31-26-230.us-east-2.compute.internal/172.31.26.230\n"
                 "Status:           Running\n"
                 "Controlled By:  Job/helm-install-traefik-crd\n")
# crc-org/snc#524 (2022-04-06), trimmed: MicroShift's `oc describe node` run in its podman
# container. Before: "'podman exec -it microshift oc describe node' is no kubectl command line".
_IN_CONTAINER = ("```\npodman exec -it microshift oc describe node\n"
                 "Name:               c48e1cabd457\n"
                 "Roles:              <none>\n"
                 "Labels:             kubernetes.io/hostname=c48e1cabd457\n"
                 "CreationTimestamp:  Wed, 06 Apr 2022 02:42:54 +0000\n"
                 "Taints:             <none>\n"
                 "```\n")


@pytest.mark.parametrize(("text", "key", "tools", "word", "skipped"), [
    (_K3S_DEBUGGED, "core/Pod/kube-system/helm-install-traefik-crd-t7t68", {"k3s kubectl": 1}, "kspd", ["lines 1-2"]),
    (_IN_CONTAINER, "core/Node//c48e1cabd457", {}, "podman", []),
], ids=["k3s-debug-line", "podman-exec"])
def test_the_kubectl_a_wrapper_ran_is_read_as_that_command(text: str, key: str, tools: dict, word: str,
                                                           skipped: list[str]) -> None:
    r = ingest_text(text, "issue.md")
    assert [o.key.id for o in r.objects] == [key]
    assert r.cli_tools == tools
    assert [s.location for s in r.skipped if word in s.reason] == skipped


_DNS_LOG = ("$ kubectl logs -l k8s-app=kube-dns -n kube-system\n"
            ".:53\n"
            "[INFO] plugin/reload: Running configuration SHA512 = 8a7d59126e7f114ab49c6d2613be93d8\n"
            "CoreDNS-1.11.1\n")


def test_logs_by_selector_after_a_listing_that_shows_one_pod_are_that_pods() -> None:
    # the session of kubernetes-sigs/external-dns#2027 as reported (the issue itself was not in
    # the search corpus; rows and log from aws-samples/eks-workshop-v2's CoreDNS check, cut to
    # one pod): `get pods -l k8s-app=kube-dns -n kube-system` shows one pod, then `logs -l` with
    # that selector. Before: the log was skipped as "logs of pods the command does not name one by one".
    text = ("$ kubectl get pods -l k8s-app=kube-dns -n kube-system\n"
            "NAME                       READY   STATUS    RESTARTS   AGE\n"
            "coredns-7f6dd6865f-7qcjr   1/1     Running   0          100s\n\n" + _DNS_LOG)
    result = ingest_text(text, "one-dns-pod.md")
    [log] = result.logs
    assert (log.namespace, log.pod, log.container) == ("kube-system", "coredns-7f6dd6865f-7qcjr", "")
    assert log.text.startswith(".:53")
    assert not any("one by one" in r.reason for r in result.skipped)


@pytest.mark.parametrize("before", [
    # trimmed from aws-samples/eks-workshop-v2 website/docs/troubleshooting/dns (the CoreDNS
    # check): two pods listed, so the log interleaves both and is no one pod's
    "$ kubectl get pod -l k8s-app=kube-dns -n kube-system\n"
    "NAME                       READY   STATUS    RESTARTS   AGE\n"
    "CoreDNS-7f6dd6865f-7qcjr   1/1     Running   0          100s\n"
    "CoreDNS-7f6dd6865f-kxw2x   1/1     Running   0          100s\n\n",
    # a listing with another selector says nothing of this one's pods
    "$ kubectl get pods -l k8s-app=kube-proxy -n kube-system\n"
    "NAME               READY   STATUS    RESTARTS   AGE\n"
    "kube-proxy-7qcjr   1/1     Running   0          100s\n\n",
    # a rollout between the listing and the log may have made other pods
    "$ kubectl get pods -l k8s-app=kube-dns -n kube-system\n"
    "NAME                       READY   STATUS    RESTARTS   AGE\n"
    "coredns-7f6dd6865f-7qcjr   1/1     Running   0          100s\n\n"
    "$ kubectl rollout restart deployment coredns -n kube-system\n"
    "deployment.apps/coredns restarted\n\n",
    # the one pod listed in another namespace
    "$ kubectl get pods -l k8s-app=kube-dns -n dns\n"
    "NAME                       READY   STATUS    RESTARTS   AGE\n"
    "coredns-7f6dd6865f-7qcjr   1/1     Running   0          100s\n\n",
])
def test_logs_by_selector_stay_skipped_where_the_session_leaves_doubt(before: str) -> None:
    result = ingest_text(before + _DNS_LOG, "dns-pods.md")
    assert not result.logs
    assert any("one by one" in r.reason for r in result.skipped)


def test_a_watch_of_a_listing_is_the_listing_of_the_command_watch_runs() -> None:
    # trimmed from DheerajJoshi/argocd's README (its install steps): `$ watch kubectl get pods -n
    # argocd`, then watch's title line (the command, the host and its clock) over the last screen.
    # Before: `watch` was another program ('not kubectl'), its title no command, and the pods had
    # no namespace ("namespace not stated by the dump").
    text = ("```\n"
            "$ watch kubectl get pods -n argocd\n"
            "\n"
            "Every 2.0s: kubectl get pods -n argocd                                      "
            "                                                   ITSG002707-MAC: Thu Aug  6 17:26:36 2020\n"
            "\n"
            "NAME                                            READY   STATUS    RESTARTS   AGE\n"
            "argocd-application-controller-d99d77688-dlqg6   0/1     Running   0          29s\n"
            "argocd-dex-server-6c865df778-mdbz2              1/1     Running   0          29s\n"
            "```\n")
    result = ingest_text(text, "README.md")
    pods = [o for o in result.objects if o is not None]
    assert sorted((o.namespace, o.name) for o in pods) == [
        ("argocd", "argocd-application-controller-d99d77688-dlqg6"), ("argocd", "argocd-dex-server-6c865df778-mdbz2")]
    assert not any("not kubectl" in r.reason for r in result.skipped)
    # the same title atop a pasted screen with no command typed above it
    screen = "\n".join(text.splitlines()[3:-1]) + "\n"
    assert {o.namespace for o in ingest_text(screen, "screen.txt").objects if o is not None} == {"argocd"}


# Trimmed from oracle/cloudtestdrive#128 (description, 2021-04-25, an OKE lab's build log): a CI
# step's lines, stamped `[2021-04-25 13:02:15] `, run `kubectl get pods`; then, unstamped, the
# pod's describe Events pasted under a line of prose. Before: the stamp's `[2` was taken for a
# JSON array (no transcript), the stamped listing was prose and the pod in ImagePullBackOff
# lost; read as a transcript, the Events after the get's table were lost instead.
_CLOUDTESTDRIVE_128 = """\
[2021-04-25 13:02:15] + kubectl get pods
[2021-04-25 13:02:18] NAME                    READY   STATUS             RESTARTS   AGE
[2021-04-25 13:02:18] atp2-75ffb788cc-svsct   0/1     ImagePullBackOff   0          6s

Pod description

Events:
  Type     Reason     Age                   From               Message
  ----     ------     ----                  ----               -------
  Normal   Scheduled  25m                   default-scheduler  Successfully assigned default/atp2-75ffb788cc-svsct to 10.0.10.154
  Warning  Failed     24m (x4 over 25m)     kubelet            Failed to pull image "fra.ocir.io/fri8nesdgloc/atpdocker_pi/atp01:latest": rpc error: code = Unknown desc = Get "https://fra.ocir.io/v2/fri8nesdgloc/atpdocker_pi/atp01/manifests/latest": unknown: Unauthorized
  Normal   BackOff    36s (x110 over 25m)   kubelet            Back-off pulling image "fra.ocir.io/fri8nesdgloc/atpdocker_pi/atp01:latest"
"""


def test_a_ci_steps_stamped_lines_amid_a_ticket_are_read_and_the_events_after_its_table_too() -> None:
    r = ingest_text(_CLOUDTESTDRIVE_128, "issue.md")
    assert r.accounting_holds() and not r.rejections
    assert [f.format for f in r.files] == ["transcript"]
    assert r.objects_by_kind == {"Event": 3, "Pod": 1}
    (pod,) = [o for o in r.objects if o.kind == "Pod"]
    assert (pod.namespace, pod.name, pod.provenance.line) == ("default", "atp2-75ffb788cc-svsct", 3)
    assert pod.body()["x-kda-text"]["status"] == "ImagePullBackOff"
    failed = next(o.body() for o in r.objects if o.kind == "Event" and o.body().get("reason") == "Failed")
    assert failed["message"].endswith("unknown: Unauthorized")
    skipped = [s.reason for s in r.skipped]
    assert "transcript: CI timestamps taken off the lines before reading" in skipped


def test_a_jenkins_log_stamped_from_its_first_line_is_a_transcript_not_json() -> None:
    jenkins = ("[2024-05-02T10:11:12.123Z] + kubectl get ns\n"
               "[2024-05-02T10:11:12.523Z] NAME      STATUS   AGE\n"
               "[2024-05-02T10:11:12.524Z] default   Active   3d\n")
    r = ingest_text(jenkins, "build.log")
    assert [f.format for f in r.files] == ["transcript"]
    assert [(o.kind, o.name) for o in r.objects] == [("Namespace", "default")]


# Trimmed from kubernetes/kubernetes#58514 (2018-01-19, kubeadm on AWS): the nodes' kubelets still
# v1.9.1 while `kubeadm upgrade plan` reads the API server at v1.9.2
_KUBEADM_PLAN_58514 = """\
[root@node1 ~]# kubectl get nodes
NAME                         STATUS    ROLES     AGE       VERSION
ip-10-0-0-11.ec2.internal    Ready     master    1d        v1.9.1
ip-10-0-0-12.ec2.internal    Ready     <none>    1d        v1.9.1
[root@node1 ~]# kubeadm upgrade plan
[preflight] Running pre-flight checks.
[upgrade] Making sure the cluster is healthy:
[upgrade] Fetching available versions to upgrade to
[upgrade/versions] Cluster version: v1.9.2
[upgrade/versions] kubeadm version: v1.9.2
[upgrade/versions] Latest stable version: v1.9.2

Awesome, you're up-to-date! Enjoy!
"""

# Trimmed from kubernetes/kubeadm#672 (2018-01-25): an apply's success names the version it left,
# the node listed after it
_KUBEADM_APPLY_672 = """\
[upgrade/successful] SUCCESS! Your cluster was upgraded to "v1.9.2". Enjoy!

[upgrade/kubelet] Now that your control plane is upgraded, please proceed with upgrading your kubelets in turn.
root@raspberrypi:/home/pi# kubectl get no raspberrypi
NAME          STATUS    ROLES     AGE       VERSION
raspberrypi   Ready     master    94d       v1.9.2
"""

# Trimmed from kubernetes/kubeadm#1617 (2019-06): the apply said it upgraded to v1.14.3, the server
# `kubectl version` asked still answered v1.13.3
_KUBEADM_APPLY_1617 = """\
$ sudo kubeadm upgrade apply v1.14.3
[upgrade/versions] Cluster version: v1.13.3
[upgrade/versions] kubeadm version: v1.14.3
[upgrade/successful] SUCCESS! Your cluster was upgraded to "v1.14.3". Enjoy!
$ kubectl version --short
Client Version: v1.14.3
Server Version: v1.13.3
"""


@pytest.mark.parametrize(("text", "version"), [(_KUBEADM_PLAN_58514, "v1.9.2"), (_KUBEADM_APPLY_672, "v1.9.2"),
                                               (_KUBEADM_APPLY_1617, "v1.13.3")])
def test_the_cluster_version_kubeadm_upgrade_states_is_the_server_version_unless_kubectl_says(text: str,
                                                                                              version: str) -> None:
    """kubeadm's upgrade plan and apply state the API server's version (an apply's success the new
    one); `kubectl version` asked the server itself, so it wins (kubeadm#1617: still v1.13.3)."""
    assert ingest_text(text, "issue.md").server_version == version


# microsoft/tyger#59 (AKS, 2023-11-29), trimmed: `get configmap NAME -o yaml` quoted from its
# `data:` down and cut before `kind:` and `metadata:`, as kubernetes/autoscaler#2287's paste was.
_AUTOSCALER_STATUS = """\
```
kubectl get configmap -n kube-system cluster-autoscaler-status -o yaml

apiVersion: v1
data:
  status: |+
    Cluster-autoscaler status at 2023-11-29 13:34:29.001925665 +0000 UTC:
    Cluster-wide:
      Health:      Healthy (ready=1 unready=0 (resourceUnready=0) notStarted=0 longNotStarted=0 registered=1 longUnregistered=0)
      ScaleUp:     InProgress (ready=1 registered=1)

```
"""


def test_an_object_cut_before_its_kind_is_the_one_its_get_command_names() -> None:
    r = ingest_text(_AUTOSCALER_STATUS, "ticket.md")
    assert [o.key.id for o in r.objects] == ["core/ConfigMap/kube-system/cluster-autoscaler-status"]
    assert not r.object_rejections and r.accounting_holds()
    assert "ScaleUp:     InProgress" in r.objects[0].body()["data"]["status"]
    # a command naming two objects, or a kind it does not know, names none of them
    for command in ("kubectl get configmap -n kube-system a b -o yaml", "kubectl get widgets x -o yaml"):
        text = _AUTOSCALER_STATUS.replace("kubectl get configmap -n kube-system cluster-autoscaler-status -o yaml", command)
        assert not ingest_text(text, "ticket.md").objects
