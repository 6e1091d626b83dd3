"""Pairs of dumps of one cluster, built from sample_dumps/aks (the README's AKS sample, made by
sample_dumps/_generate.py): the sample as it is ("before") and a copy with known changes
("after"), each change of a class the diff must report."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import yaml
from conftest import SAMPLE_DUMPS

AKS = SAMPLE_DUMPS / "aks"
NODE_GONE = "aks-nodepool1-12345678-vmss000000"
NODE_NEW = "aks-nodepool1-12345678-vmss000003"
ROLLED = ("shop", "frontend")
ROLLED_IMAGE = "shopprodacr.azurecr.io/shop/frontend:2.5.0"
CRASHLOOP = ("shop", "cart-6mvdgdjsd-nbbzw")
CORDONED = "aks-nodepool1-12345678-vmss000001"
KUBELET = "v1.30.3"


def _read(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _write(path: Path, data: dict[str, Any]) -> None:
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def _rolled_pod_name(name: str) -> str:
    # frontend-bllwsgbgz-5jrgk -> frontend-7c9dqzxkw-5jrgk: a new ReplicaSet hash
    base, _, suffix = name.rpartition("-")
    return f"{base.rsplit('-', 1)[0]}-7c9dqzxkw-{suffix}"


def build_after(tmp: Path) -> Path:
    """A copy of the AKS sample a while later: frontend rolled to a new image, node 0 replaced
    by node 3, every kubelet upgraded, the crashlooping cart pod fixed (one restart more),
    node 1 cordoned with less allocatable memory, and ConfigMaps not collected."""
    out = tmp / "after"
    shutil.copytree(AKS, out)
    (out / "configmaps.yaml").unlink()  # a kind not collected in the second dump

    nodes = _read(out / "nodes.yaml")
    for node in nodes["items"]:
        info = node["status"]["nodeInfo"]
        info["kubeletVersion"] = info["kubeProxyVersion"] = KUBELET
        if node["metadata"]["name"] == NODE_GONE:
            node["metadata"]["name"] = NODE_NEW
            node["metadata"]["uid"] = "0b8f3c1e-3d6a-4f0e-9c3b-1f2a3b4c5d6e"
            node["metadata"]["labels"]["kubernetes.io/hostname"] = NODE_NEW
            node["spec"]["providerID"] = node["spec"]["providerID"].rsplit("/", 1)[0] + "/3"
            info["machineID"] = info["systemUUID"] = "f00dfeedf00dfeedf00dfeedf00dfeed"
        if node["metadata"]["name"] == CORDONED:
            node["spec"]["unschedulable"] = True
            node["status"]["allocatable"]["memory"] = "10000Mi"
    _write(out / "nodes.yaml", nodes)

    workloads = _read(out / "workloads.yaml")
    for w in workloads["items"]:
        if (w["kind"], w["metadata"]["namespace"], w["metadata"]["name"]) == ("Deployment", *ROLLED):
            w["metadata"]["generation"] = w["metadata"].get("generation", 1) + 1
            w["spec"]["template"]["spec"]["containers"][0]["image"] = ROLLED_IMAGE
    _write(out / "workloads.yaml", workloads)

    pods = _read(out / "pods.yaml")
    for pod in pods["items"]:
        meta, spec, status = pod["metadata"], pod["spec"], pod["status"]
        if spec.get("nodeName") == NODE_GONE:
            spec["nodeName"] = NODE_NEW
        if meta["namespace"] == ROLLED[0] and meta["name"].startswith(ROLLED[1] + "-"):
            meta["name"] = _rolled_pod_name(meta["name"])
            meta["uid"] = meta["uid"][:-4] + "beef"
            spec["containers"][0]["image"] = ROLLED_IMAGE
            for cs in status.get("containerStatuses") or ():
                cs["image"] = ROLLED_IMAGE
        if (meta["namespace"], meta["name"]) == CRASHLOOP:
            for cs in status["containerStatuses"]:
                cs["restartCount"] += 1
                cs["ready"] = cs["started"] = True
                cs["state"] = {"running": {"startedAt": "2024-09-15T12:20:00Z"}}
            for c in status["conditions"]:
                if c["type"] in ("Ready", "ContainersReady"):
                    c["status"] = "True"
                    c.pop("reason", None)
                    c.pop("message", None)
    _write(out / "pods.yaml", pods)
    return out
