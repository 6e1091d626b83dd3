"""analyzer.ingest.text.transcript: which lines make which block, on small hand-written texts."""

from __future__ import annotations

import pytest

from analyzer.ingest.text.transcript import looks_like_transcript, split_transcript


def _blocks(text: str) -> list[tuple[str, str, str | None]]:
    return [(b.kind, b.span, b.command_text) for b in split_transcript(text).blocks]


def test_history_listing_is_one_block() -> None:
    text = "$ history | tail -3\n  501  kubectl get pods\n  502  kubectl get nodes\n  503  history | tail -3\n$ kubectl get ns\nNAME      STATUS   AGE\ndefault   Active   3d\n"
    assert _blocks(text) == [("history", "lines 1-4", "history | tail -3"),
                             ("kubectl", "lines 5-7", "kubectl get ns")]


def test_history_pasted_without_its_command() -> None:
    text = "Here is what I ran:\n\n  17  kubectl get pods -A\n  18  kubectl delete pod web-1\n\n$ kubectl get ns\nNAME      STATUS   AGE\ndefault   Active   3d\n"
    assert [b[0] for b in _blocks(text)] == ["text", "history", "kubectl"]


def test_fences_end_blocks_and_a_fence_on_a_line_of_text() -> None:
    text = "Nodes:```console\n$ kubectl get nodes\nNAME   STATUS\n```\nAfter that, all was fine.\n"
    assert _blocks(text) == [("text", "line 1", None), ("kubectl", "lines 2-3", "kubectl get nodes"),
                             ("text", "line 5", None)]
    assert split_transcript(text).unwrapped == ["markdown fences"]


def test_ci_timestamps_and_steps() -> None:
    text = ("2024-05-02T10:11:12.1234567Z ##[group]Run kubectl get ns\n"
            "2024-05-02T10:11:12.2234567Z kubectl get ns\n"
            "2024-05-02T10:11:12.3234567Z ##[endgroup]\n"
            "2024-05-02T10:11:13.1234567Z NAME      STATUS   AGE\n"
            "2024-05-02T10:11:13.2234567Z default   Active   3d\n")
    split = split_transcript(text)
    assert split.unwrapped == ["CI timestamps"]
    [block] = split.blocks
    assert (block.kind, block.command_text) == ("kubectl", "kubectl get ns")
    assert [ln.text for ln in block.output()] == ["NAME      STATUS   AGE", "default   Active   3d"]


def test_quoting_is_taken_off_at_any_depth() -> None:
    text = "> > $ kubectl get ns\n> > NAME      STATUS   AGE\n> > default   Active   3d\n"
    split = split_transcript(text)
    assert split.unwrapped == ["quoting"]
    assert [ln.text for ln in split.blocks[0].output()] == ["NAME      STATUS   AGE", "default   Active   3d"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$ kubectl get pods\nNAME   READY\n", False),  # one paste: read as kubectl text
        ("$ kubectl get pods\nNAME   READY\n$ kubectl get nodes\nNAME   STATUS\n", True),
        ("```\n$ kubectl get pods\nNAME   READY\n```\n", True),
        ("> $ kubectl get pods\n> NAME   READY\n", True),
        ("apiVersion: v1\nkind: Pod\nmetadata:\n  annotations:\n    kubectl.kubernetes.io/restartedAt: x\n", False),
        ("The kubectl get command lists pods. Then we ran it again.\n", False),
    ],
)
def test_looks_like_transcript(text: str, expected: bool) -> None:
    assert looks_like_transcript(text) is expected


def test_gitlab_colours_and_jenkins_xtrace() -> None:
    gitlab = ("\x1b[0KRunning with gitlab-runner 16.11.0\n"
              "\x1b[32;1m$ kubectl get ns\x1b[0;m\n"
              "NAME      STATUS   AGE\ndefault   Active   3d\n"
              "\x1b[32;1m$ helm list -A\x1b[0;m\n"
              "NAME   NAMESPACE   REVISION\n")
    assert [(b.kind, b.command_text) for b in split_transcript(gitlab).blocks] == [
        ("text", None), ("kubectl", "kubectl get ns"), ("command", "helm list -A")]
    jenkins = ("[2024-05-02T10:11:12.123Z] + kubectl get ns\n"
               "[2024-05-02T10:11:12.523Z] NAME      STATUS   AGE\n"
               "[2024-05-02T10:11:12.524Z] default   Active   3d\n"
               "[2024-05-02T10:11:13.001Z] + curl -s http://web\n"
               "[2024-05-02T10:11:13.101Z] ok\n")
    split = split_transcript(jenkins)
    assert split.unwrapped == ["CI timestamps"]
    assert [(b.kind, b.command_text) for b in split.blocks] == [
        ("kubectl", "kubectl get ns"), ("command", "curl -s http://web")]
    # a diff's added line of prose is not a command
    assert [b.kind for b in split_transcript("+ kubectl krew-style plugins were added\n").blocks] == ["text"]


# From easzlab/kubeasz#355 (github.com/easzlab/kubeasz/issues/355, a comment of 2018-11-05): the
# commands set in bold after the prompt, the first prompt without its `#`; each command's output
# in the fence below it. Before, neither line was a command: the file was no transcript and its
# log was dropped without a word.
_KUBEASZ_355 = """@gjmzj
[root@localhost ~] **kubectl logs -f -n kube-system coredns-56684f94d6-f7tzp**:
```
.:53
2018/11/05 13:48:22 [FATAL] plugin/loop: Seen "HINFO IN 4849932600568443392.1730530029506169038." more than twice, loop detected
```
[root@localhost ~]# **kubectl describe pod -n kube-system coredns-56684f94d6-f7tzp**:
```
Name:           coredns-56684f94d6-f7tzp
Namespace:      kube-system
```
"""


def test_bold_commands_after_a_bracketed_prompt_are_commands() -> None:
    assert looks_like_transcript(_KUBEASZ_355)
    kubectl = [b.command_text for b in split_transcript(_KUBEASZ_355).blocks if b.kind == "kubectl"]
    assert kubectl == ["kubectl logs -f -n kube-system coredns-56684f94d6-f7tzp",
                       "kubectl describe pod -n kube-system coredns-56684f94d6-f7tzp"]


# kubernetes-sigs/aws-load-balancer-controller#2956 (EKS, 2023-01-04), trimmed: a prompt that is a
# folder alone (its theme's arrow lost in the paste); the command names the namespace.
_ALBC_2956 = """\
```
 ~/Downloads/ kubectl get deployment -n kube-system aws-load-balancer-controller
NAME                           READY   UP-TO-DATE   AVAILABLE   AGE
aws-load-balancer-controller   0/2     0            0           15d
```
"""
# kubernetes/minikube#6299 (turn 1, medyagh), trimmed: `user@dir $ ` and the `kc` alias, unfenced.
_MINIKUBE_6299 = """\
medya@~ $ kc get pods -A
NAMESPACE     NAME                         READY   STATUS         RESTARTS   AGE
kube-system   kindnet-h8sm6                0/1     ErrImagePull   0          29s
medya@~ $ kc get pods -A
NAMESPACE     NAME                         READY   STATUS         RESTARTS   AGE
kube-system   kindnet-h8sm6                0/1     ErrImagePull   0          30s
"""


def test_a_folder_alone_or_user_at_folder_before_kubectl_is_a_prompt() -> None:
    import analyzer

    cluster = analyzer.load({"albc-2956.md": _ALBC_2956})
    assert [(o.namespace, o.name) for o in cluster.ingest.objects] == [("kube-system", "aws-load-balancer-controller")]
    assert looks_like_transcript(_MINIKUBE_6299)
    kubectl = [b.command_text for b in split_transcript(_MINIKUBE_6299).blocks if b.kind == "kubectl"]
    assert kubectl == ["kc get pods -A", "kc get pods -A"]


# kubernetes/ingress-nginx#3608 (its description, 2018-12-28, kubeadm with flannel): a describe
# pasted as a markdown code block four spaces in, its command typed behind a `$` with no blank,
# and one annotation's value wrapped by the terminal onto a line of the block's own indent.
# Before: 'looks like Kubernetes data ... but could not be read', the Service lost.
_INGRESS_NGINX_3608 = """\
    $kubectl describe service ingress-nginx -n ingress-nginx
    Name:                     ingress-nginx
    Namespace:                ingress-nginx
    Labels:                   app.kubernetes.io/name=ingress-nginx
                              app.kubernetes.io/part-of=ingress-nginx
    Annotations:              kubectl.kubernetes.io/last-applied-configuration:
                                {"apiVersion":"v1","kind":"Service","metadata":{"annotations":{"service.beta.kubernetes.io/aws-load-balancer-type":"nlb"},"label
    s":{"app.k...
                              service.beta.kubernetes.io/aws-load-balancer-type: nlb
    Selector:                 app.kubernetes.io/name=ingress-nginx,app.kubernetes.io/part-of=ingress-nginx
    Type:                     LoadBalancer
    IP:                       10.108.221.18
    Port:                     http  80/TCP
    TargetPort:               http/TCP
    NodePort:                 http  32010/TCP
    Endpoints:                10.244.0.4:80
    Session Affinity:         None
    External Traffic Policy:  Local
    HealthCheck NodePort:     30401
    Events:                   <none>
"""


def test_a_dollar_sign_the_command_follows_without_a_blank_is_a_prompt() -> None:
    import analyzer

    assert [b.command_text for b in split_transcript("$kubectl get pods\nNAME  READY\n").blocks
            if b.kind == "kubectl"] == ["kubectl get pods"]
    cluster = analyzer.load({"ingress-nginx-3608.md": _INGRESS_NGINX_3608})
    [svc] = [o for o in cluster.ingest.objects if o.kind == "Service"]
    assert (svc.namespace, svc.name, svc.view.spec.type) == ("ingress-nginx", "ingress-nginx", "LoadBalancer")
    assert svc.view.metadata.annotations["service.beta.kubernetes.io/aws-load-balancer-type"] == "nlb"
    assert not cluster.ingest.rejections
