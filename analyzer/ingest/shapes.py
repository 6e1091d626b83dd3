"""The kind of an object that does not say it, from its shape (a table of data, shapes.yaml)."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from analyzer.safeyaml import load_yaml


@cache
def _data() -> dict[str, Any]:
    return load_yaml(resources.files("analyzer.ingest").joinpath("shapes.yaml").read_text("utf-8"))


@cache
def _shapes() -> tuple[tuple[str, tuple[tuple[str, ...], ...]], ...]:
    rows = _data()["shapes"]
    return tuple((row["kind"], tuple(tuple(p.split(".")) for p in row["all"])) for row in rows)


def _get(body: Any, path: tuple[str, ...]) -> Any:
    for step in path:
        if not isinstance(body, dict):
            return None
        body = body.get(step)
    return body


def _has(body: Any, path: tuple[str, ...]) -> bool:
    return _get(body, path) is not None


def kind_from_shape(body: dict[str, Any]) -> tuple[str, str] | None:
    """(kind, the fields that told it) for an API-shaped body, or None if no shape fits.

    >>> kind_from_shape({"metadata": {"name": "n1"}, "status": {"nodeInfo": {}}})
    ('Node', 'status.nodeInfo')
    >>> kind_from_shape({"spec": {"containers": []}, "status": {"phase": "Running"}})
    ('Pod', 'spec.containers, status.phase')
    >>> kind_from_shape({"data": {"a": "b"}}) is None
    True
    """
    for kind, paths in _shapes():
        if all(_has(body, p) for p in paths):
            return kind, ", ".join(".".join(p) for p in paths)
    return None


@cache
def _foreign() -> tuple[tuple[str, tuple[tuple[str, ...], ...], tuple[str, ...] | None], ...]:
    rows = _data().get("not_kubernetes") or ()
    return tuple((row["what"], tuple(tuple(p.split(".")) for p in row["all"]),
                  tuple(row["version"].split(".")) if row.get("version") else None) for row in rows)


def foreign_document(body: Any) -> tuple[str, str | None] | None:
    """(what the document is, the Kubernetes version it states) for a cloud CLI's or kubectl's
    own JSON (not an API object), or None.

    >>> foreign_document({"agentPoolProfiles": [], "fqdn": "x.hcp.westeurope.azmk8s.io",
    ...                   "currentKubernetesVersion": "1.31.7"})
    ('an AKS cluster as `az aks show` prints it', '1.31.7')
    >>> foreign_document({"metadata": {"name": "n1"}}) is None
    True
    """
    if not isinstance(body, dict) or body.get("kind"):
        return None
    for what, paths, version in _foreign():
        if all(_has(body, p) for p in paths):
            stated = _get(body, version) if version else None
            return what, stated if isinstance(stated, str) else None
    return None


@cache
def _configuration_files() -> dict[tuple[str, str], str]:
    return {(str(row["group"] or ""), kind): str(row["what"])
            for row in _data().get("configuration_files") or () for kind in row["kinds"]}


def configuration_file(group: str, kind: str) -> str | None:
    """What a document of (API group, kind) is when it is a configuration file's, not an object
    of the API (a kubeconfig, kubeadm's ClusterConfiguration), or None.

    >>> configuration_file("", "Config"), configuration_file("kubeadm.k8s.io", "ClusterConfiguration")
    ('a kubeconfig (`kubectl config view`)', "kubeadm's configuration")
    >>> configuration_file("", "ConfigMap") is None
    True
    """
    return _configuration_files().get((group, kind))
