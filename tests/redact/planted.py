"""A small dump with secrets planted everywhere a real one leaks them (written for these tests).

Each planted value is unique and long enough that finding it anywhere in an output means a leak.
The shapes copy kubectl's: `get -o yaml` Lists (sample_dumps/aks/), a Secret applied with
`kubectl apply` (last-applied annotation holds its data), and a cluster-info dump directory
(`<ns>/<pod>/logs.txt`, as `kubectl cluster-info dump --output-directory` writes).
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import yaml

# The values that must never appear in any output, by where they were planted.
PLANTED = {
    "secret-data": "s3cr3t-data-Zq8wLm2",
    "secret-string-data": "s3cr3t-stringdata-Vt5pKx",
    "secret-last-applied": "s3cr3t-applied-Hy7nRc4",
    "env-password": "envP4ss-Wd9qLr3",
    "args-token": "argT0ken-Mv2xPq8",
    "annotation-connection-string": "annP4ss-Kj3wZt6",
    "log-password": "logP4ss-Qn7vBx1",
    "event-bearer": "evtBearer9Tk4Lm2Zx8",
    "configmap-connection-string": "cmP4ss-Rb6yHs3",
    "describe-last-applied": "dscrApplied-Pw4nXq7",
    # an Azure SAS URL's signature, and a GitHub token (an annotation of a name that says nothing)
    "annotation-sas-signature": "annSasSig%2BKq7Wm2Xp",
    "annotation-github-token": "ghp_annGitHub0Token1Xy2Zw3Vu4Ts5Rq6Pn",
    "log-sas-signature": "logSasSig%3DTn4Bv8Hc",
    # a credential flag's value as the next argv element, and as the next word of a command line
    # (`kubeadm join ... --token <id>.<secret>`, kubernetes/kubeadm#519)
    "argv-flag-password": "argvP4ss-Hq5nWc2",
    "log-flag-token": "lgflag.tk7q2m9x4w1b8c3v",
    # a kubeconfig kept in a ConfigMap: its user's private key, base64-encoded (lensapp/lens#3941's
    # shape), and a Redis URL with a password and no user (1Password/scim-examples#210's shape)
    "configmap-client-key": base64.b64encode(
        b"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAcmKey7Xq2Lw9\n-----END RSA PRIVATE KEY-----\n").decode(),
    "env-redis-password": "redisP4ss-Jc8vTn5",
    # a Helm 2 release in a ConfigMap of its namespace, as Rancher keeps them (gzip, base64: the
    # chart's values; helm/helm-mapkubeapis#31)
    "helm-release-configmap": "H4sIAAAAAAAC/+plantedHelmRelease7Qw2Lx",
    # a kubeconfig's bare `token:` (kubernetes/kubectl#667's `kubectl config view`), in the ConfigMap
    "configmap-kubeconfig-token": "cmKubeTok3n8Wq2Zx5",
    # a ticket's transcript: a registry login's `-p` (charmed-kubernetes/jenkins#168's CI log), a
    # `kubectl create secret docker-registry --docker-password=` (docker/hub-feedback#1424), a
    # `helm repo add --password`, and `kubectl config view --raw` (kubernetes/kubectl#667)
    "transcript-login-password": "loginP4ss-Yy7DvNe2",
    "transcript-docker-password": "dockerP4ss-Mw3Kq8",
    "transcript-helm-password": "helmP4ss-Tq6Zr1",
    "transcript-kubeconfig-token": "viewTok3n-Bn4Vc7Xs9",
}

_APPLIED_SECRET = {
    "apiVersion": "v1", "kind": "Secret", "type": "Opaque",
    "metadata": {"name": "db-credentials", "namespace": "shop"},
    "data": {"password": base64.b64encode(PLANTED["secret-last-applied"].encode()).decode()},
    "stringData": {"token": PLANTED["secret-last-applied"]},
}


def _secret() -> dict:
    return {
        "apiVersion": "v1", "kind": "Secret", "type": "Opaque",
        "metadata": {
            "name": "db-credentials", "namespace": "shop", "uid": "8d6b2c1e-0000-4000-8000-000000000001",
            "annotations": {"kubectl.kubernetes.io/last-applied-configuration": json.dumps(_APPLIED_SECRET) + "\n"},
        },
        "data": {"password": base64.b64encode(PLANTED["secret-data"].encode()).decode()},
        "stringData": {"api-token": PLANTED["secret-string-data"]},
    }


def _deployment() -> dict:
    return {
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {
            "name": "checkout", "namespace": "shop", "uid": "8d6b2c1e-0000-4000-8000-000000000002",
            "annotations": {
                "example.com/database": f"postgres://app:{PLANTED['annotation-connection-string']}@db.shop:5432/orders",
                "example.com/backups": "https://contoso.blob.core.windows.net/backups?sv=2022-11-02&sp=rl"
                                       f"&se=2030-01-01T00:00:00Z&sig={PLANTED['annotation-sas-signature']}",
                "example.com/ci": PLANTED["annotation-github-token"],
            },
        },
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": "checkout"}},
            "template": {
                "metadata": {"labels": {"app": "checkout"}},
                "spec": {"containers": [{
                    "name": "app", "image": "registry.example.com/shop/checkout:1.4.2",
                    "command": ["/app/checkout", "--db-password", PLANTED["argv-flag-password"]],
                    "args": ["--listen=:8080", f"--token={PLANTED['args-token']}"],
                    "env": [
                        {"name": "DB_PASSWORD", "value": PLANTED["env-password"]},
                        {"name": "LOG_LEVEL", "value": "info"},
                        {"name": "CACHE_URL", "value": f"redis://:{PLANTED['env-redis-password']}@cache.shop:6379/0"},
                    ],
                }]},
            },
        },
    }


def _pod() -> dict:
    template = _deployment()["spec"]["template"]
    return {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "checkout-6d4cf56db6-abcde", "namespace": "shop",
                     "uid": "8d6b2c1e-0000-4000-8000-000000000003", "labels": {"app": "checkout"}},
        "spec": {**template["spec"], "nodeName": "worker-contoso-01"},
        "status": {"phase": "Running", "podIP": "10.244.1.7", "hostIP": "10.0.0.4"},
    }


def _configmap() -> dict:
    return {
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "checkout-config", "namespace": "shop", "uid": "8d6b2c1e-0000-4000-8000-000000000004"},
        "data": {"DATABASE_URL": f"Server=db.shop;User Id=app;Password={PLANTED['configmap-connection-string']};",
                 "kubeconfig": "apiVersion: v1\nkind: Config\nusers:\n- name: deployer\n  user:\n"
                               f"    client-key-data: {PLANTED['configmap-client-key']}\n"
                               f"    token: {PLANTED['configmap-kubeconfig-token']}\n"},
    }


def _helm_release() -> dict:
    return {
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "checkout.v3", "namespace": "shop", "uid": "8d6b2c1e-0000-4000-8000-000000000007",
                     "labels": {"NAME": "checkout", "OWNER": "TILLER", "STATUS": "DEPLOYED", "VERSION": "3"}},
        "data": {"release": PLANTED["helm-release-configmap"]},
    }


def _event() -> dict:
    return {
        "apiVersion": "v1", "kind": "Event",
        "metadata": {"name": "checkout.17a", "namespace": "shop", "uid": "8d6b2c1e-0000-4000-8000-000000000005"},
        "involvedObject": {"kind": "Pod", "name": "checkout-6d4cf56db6-abcde", "namespace": "shop"},
        "reason": "Unhealthy", "type": "Warning", "count": 3,
        "message": f"Readiness probe failed: GET /ready with Authorization: Bearer {PLANTED['event-bearer']} returned 401",
        "lastTimestamp": "2024-09-15T11:59:00Z",
    }


def _node() -> dict:
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": "worker-contoso-01", "uid": "8d6b2c1e-0000-4000-8000-000000000006",
                     "labels": {"kubernetes.io/hostname": "worker-contoso-01"}},
        "status": {"addresses": [{"type": "InternalIP", "address": "10.0.0.4"},
                                 {"type": "Hostname", "address": "worker-contoso-01"}]},
    }


def write_planted_dump(root: Path) -> Path:
    """Write the planted dump as a folder under `root` and return it."""
    dump = root / "planted-dump"
    (dump / "shop" / "checkout-6d4cf56db6-abcde").mkdir(parents=True)
    items = [_node(), _secret(), _deployment(), _pod(), _configmap(), _helm_release(), _event()]
    (dump / "objects.yaml").write_text(
        yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": items}, sort_keys=True), encoding="utf-8")
    # `kubectl describe secret` as pasted into a ticket: last-applied JSON on its own line
    applied = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "api-keys", "namespace": "shop"},
               "data": {"key": base64.b64encode(PLANTED["describe-last-applied"].encode()).decode()}}
    (dump / "describe-secret.txt").write_text(
        "Name:         api-keys\nNamespace:    shop\nLabels:       <none>\n"
        "Annotations:  kubectl.kubernetes.io/last-applied-configuration:\n"
        f"                {json.dumps(applied, separators=(',', ':'))}\n\n"
        "Type:  Opaque\n\nData\n====\nkey:  19 bytes\n", encoding="utf-8")
    (dump / "shop" / "checkout-6d4cf56db6-abcde" / "logs.txt").write_text(
        "==== START logs for container app of pod shop/checkout-6d4cf56db6-abcde ====\n"
        f"connecting to postgres://app:{PLANTED['log-password']}@db.shop:5432/orders\n"
        "uploading to https://contoso.blob.core.windows.net/backups/x.tar?sv=2022-11-02&sr=b"
        f"&sig={PLANTED['log-sas-signature']}&se=2030-01-01\n"
        f"running kubeadm join 10.0.0.4:6443 --token {PLANTED['log-flag-token']} --discovery-token-ca-cert-hash sha256:0f1e\n"
        "==== END logs for container app of pod shop/checkout-6d4cf56db6-abcde ====\n", encoding="utf-8")
    # a ticket's terminal session (shapes of charmed-kubernetes/jenkins#168, docker/hub-feedback#1424,
    # kubernetes/kubectl#667): each command's echo in a skipped block's reason, the kubeconfig skipped
    (dump / "ticket.md").write_text(
        "Pulling from our registry fails:\n\n```console\n"
        f"$ docker login localhost:30534 -u test-user -p {PLANTED['transcript-login-password']}\n"
        "Error response from daemon: Login: 404 page not found\n"
        "$ kubectl create secret docker-registry regcred --docker-server=https://index.docker.io/v1/ "
        f"--docker-username=MYUSER --docker-password={PLANTED['transcript-docker-password']} --docker-email=MYEMAIL\n"
        "secret/regcred created\n"
        f"$ helm repo add shop https://charts.example.com --username bob --password {PLANTED['transcript-helm-password']}\n"
        '"shop" has been added to your repositories\n'
        "$ kubectl config view --raw\n"
        "apiVersion: v1\nclusters:\n- cluster:\n    certificate-authority-data: REDACTED\n"
        "    server: https://urlgoeshere:443\n  name: k8scluster\ncurrent-context: k8scluster\nkind: Config\n"
        "users:\n- name: clusterUser_k8scluster_k8scluster\n  user:\n    client-certificate-data: REDACTED\n"
        f"    client-key-data: REDACTED\n    token: {PLANTED['transcript-kubeconfig-token']}\n```\n", encoding="utf-8")
    return dump


def leaks(text: str) -> list[str]:
    """Which planted values a text contains (as they are, or base64-encoded as Secret data is)."""
    found = []
    for where, value in PLANTED.items():
        if value in text or base64.b64encode(value.encode()).decode() in text:
            found.append(where)
    return found
