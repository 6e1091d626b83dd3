"""The kubeconfig `kda serve` writes: one cluster, user and context per dump; the first current."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import yaml


def kubeconfig_text(base_url: str, contexts: Sequence[str]) -> str:
    """A kubeconfig whose contexts point at each dump's path on the server.

    >>> print(kubeconfig_text("http://127.0.0.1:8001", ["aks"]))  # doctest: +ELLIPSIS
    apiVersion: v1
    clusters:
    - cluster:
        server: http://127.0.0.1:8001/dumps/aks
      name: aks
    ...
    current-context: aks
    ...
    """
    doc = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": c, "cluster": {"server": f"{base_url}/dumps/{c}"}} for c in contexts],
        "users": [{"name": f"kda-{c}", "user": {}} for c in contexts],
        "contexts": [{"name": c, "context": {"cluster": c, "user": f"kda-{c}", "namespace": "default"}}
                     for c in contexts],
        "current-context": contexts[0],
        "preferences": {},
    }
    return yaml.safe_dump(doc, sort_keys=True, default_flow_style=False)


def write_kubeconfig(path: Path, base_url: str, contexts: Sequence[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(kubeconfig_text(base_url, contexts), encoding="utf-8")
    path.chmod(0o600)
    return path
