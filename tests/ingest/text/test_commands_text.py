"""Prompt lines and the kubectl commands on them (forms taken from the seeds and realdata)."""

from __future__ import annotations

import pytest

from analyzer.ingest.text.commands import command_in, parse_command


@pytest.mark.parametrize(("line", "verb", "resources", "namespace"), [
    ("$ kubectl get all -n kube-system", "get", ("all",), "kube-system"),  # seed 000
    ("# kubectl get pods -A -o wide", "get", ("pods",), None),  # seed 001
    ("controlplane $ kubectl describe pod kube-proxy-dgdbc -n kube-system", "describe", ("pod",), "kube-system"),  # seed 004
    ("root@myJump:/home/fiona/virtualnode# kubectl describe node aks-x", "describe", ("node",), None),  # realdata aks
    ("> kubectl describe node akswinpol00004y", "describe", ("node",), None),  # realdata aks
    ("PS C:\\Users\\me> kubectl get po --namespace=web", "get", ("po",), "web"),
    ("kubectl get replicasets # OR kubectl get rs", "get", ("replicasets",), None),  # seed 004
    ("k get po,svc -nweb", "get", ("po", "svc"), "web"),
    ("oc -n openshift-dns get pods", "get", ("pods",), "openshift-dns"),
    # wrappers between the prompt and kubectl (find_string "$ sudo kubectl get pods -n": a
    # kubeadm setup guide's `$ sudo kubectl get pods -n kube-system`; the binary's path, an
    # environment assignment, a distribution's kubectl): before, the line read as no command
    # and its table's pods lost their namespace
    ("$ sudo kubectl get pods -n kube-system", "get", ("pods",), "kube-system"),
    ("master@k8s-master:~$ sudo -E kubectl get pods -n foo", "get", ("pods",), "foo"),
    ("root@cp:~# /usr/local/bin/kubectl get po -n monitoring", "get", ("po",), "monitoring"),
    ("$ KUBECONFIG=/etc/rancher/k3s/k3s.yaml kubectl get pods -n shop", "get", ("pods",), "shop"),
    ("$ ./kubectl.exe get pods -n shop", "get", ("pods",), "shop"),
    ("$ microk8s.kubectl get po -n ingress", "get", ("po",), "ingress"),
    ("$ minikube kubectl -- get pods -n kube-system", "get", ("pods",), "kube-system"),
    # a writer's heading naming the command of the table below (elastic/cloud-on-k8s#1821, GKE:
    # "kubectl -n elastic-system get pods -o wide:"): the colon made `pods:` no resource and
    # `wide:` no output, and the OOMKilled Elasticsearch pods lost their namespace
    ("kubectl -n elastic-system get pods -o wide:", "get", ("pods",), "elastic-system"),
    ("kubectl -n elastic-system get pods:", "get", ("pods",), "elastic-system"),
    # as CI logs and people paste them: a shell's xtrace of a kind e2e setup script
    # (openebs/rawfile-localpv docs/contributor.md @469c8e40), Azure Pipelines' task log with its
    # timestamps (kubernetes/kubernetes#104233), a GitHub Actions step, kube-ps1's context before a
    # zsh theme's arrow (rancher/support-bundle-kit docs/quickstart.md), the arrow and folder alone,
    # an alias behind a prompt with a verb other than get: each read as no command, so the table
    # under it lost its namespace and rollouts.py kept regexes of its own
    ("+ kubectl get pods -n openebs -o wide", "get", ("pods",), "openebs"),
    ("2021-08-09T08:36:03.8486726Z [command]/usr/local/bin/kubectl rollout status "
     "Deployment/skyeye-fe-portal-sit --timeout 0s --namespace svc-sit", "rollout status", ("Deployment",), "svc-sit"),
    ("##[group]Run kubectl get pods -n shop", "get", ("pods",), "shop"),
    ("(⎈ |default:default)➜  ~ kubectl get pods -n support-bundle-node-info", "get", ("pods",),
     "support-bundle-node-info"),
    ("➜  ~ kubectl get pods -n ingress-nginx", "get", ("pods",), "ingress-nginx"),
    ("$ k rollout status deploy/web -n shop", "rollout status", ("deploy",), "shop"),
    # kubectl run in a kind node's container (find_string "control-plane kubectl get pods -n": a
    # containerlab lab's README, `docker exec iad-control-plane kubectl get pods -n iad-underlay`),
    # as transcripts already read it
    ("docker exec iad-control-plane kubectl get pods -n iad-underlay", "get", ("pods",), "iad-underlay"),
])
def test_prompt_lines(line: str, verb: str, resources: tuple, namespace: str | None) -> None:
    command = command_in(line)
    assert command is not None
    assert (command.verb, command.resources, command.namespace) == (verb, resources, namespace)


@pytest.mark.parametrize("line", [
    "3 kubectl set image deployment nginx-deployment nginx=nginx:1.16.2 --record=true",  # seed 004
    "kubernetes.io/change-cause: kubectl set image deployment nginx-deployment",  # seed 004
    "Use kubectl get pods to list them, it is easy and then more words follow",
    "k8s-app=kube-proxy",
    "Then run sudo kubectl get pods -n shop to see them",
    "+ kubectl and helm are installed",  # a diff's added line: no kubectl verb after it
    "k rollout status deploy/web",  # an alias without a prompt: only before get, describe, top
])
def test_not_prompt_lines(line: str) -> None:
    assert command_in(line) is None


def test_what_shapes_the_output() -> None:
    grep = parse_command("kubectl get -A --show-labels -o wide pod | grep frontend-service")
    assert (grep.all_namespaces, grep.show_labels, grep.wide, grep.piped) == (
        True, True, True, "grep frontend-service")
    assert grep.prints_table
    to_file = parse_command("kubectl get daemonset.apps/kubeproxy -n kube-system -o=yaml > ds.yaml")
    assert to_file.redirected and not to_file.prints_table
    assert to_file.names == ("kubeproxy",)
    assert parse_command("kubectl rollout history deployment web").verb == "rollout history"
