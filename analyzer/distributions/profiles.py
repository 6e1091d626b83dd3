"""The distributions the detector knows (profiles.yaml): control-plane kind, base, system namespaces."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from analyzer.model.namespaces import system_namespaces
from analyzer.safeyaml import load_yaml

PROFILES_FILE = Path(__file__).with_name("profiles.yaml")
CONTROL_PLANE_KINDS = ("managed", "self-hosted")
# How a self-hosted control plane runs: kubelet static pods (mirrored as pods) or plain processes.
CONTROL_PLANE_RUNS_AS = ("static-pods", "processes")


@dataclass(frozen=True, slots=True)
class Profile:
    """One distribution: its title, how its control plane runs, the distribution it is built on."""

    name: str
    title: str
    control_plane: str
    based_on: str | None = None
    runs_as: str | None = None  # a self-hosted control plane's static pods or processes


@dataclass(frozen=True, slots=True)
class Profiles:
    """Every known distribution, plus what marks system namespaces and virtual clusters."""

    distributions: dict[str, Profile]
    system_namespace_names: frozenset[str]
    system_namespace_prefixes: tuple[str, ...]
    virtual_node_labels: tuple[str, ...]
    control_plane_pods: re.Pattern[str]
    cni_node_annotations: dict[str, str]
    cni_of_component: dict[str, str]
    dns_services: tuple[str, ...]
    dns_configmaps: tuple[str, ...]
    control_plane_node_labels: tuple[str, ...] = ()
    cni_of_network: dict[str, str] = field(default_factory=dict)
    # distribution -> (the CNI, the node spec field every node has when it runs it)
    cni_without_pods: dict[str, tuple[str, str]] = field(default_factory=dict)
    # distribution -> where its owner changes a component the provider reconciles (not its spec)
    managed_changes: dict[str, str] = field(default_factory=dict)

    def is_system_namespace(self, namespace: str) -> bool:
        """Whether workloads in this namespace are cluster components rather than applications."""
        return namespace in self.system_namespace_names or namespace.startswith(
            self.system_namespace_prefixes
        )

    def is_control_plane_node(self, labels: dict[str, object]) -> bool:
        """Whether a node's labels say it is a control-plane node (`key` or `key=value` entries).

        >>> load_profiles().is_control_plane_node({"kubernetes.io/role": "master"})
        True
        >>> load_profiles().is_control_plane_node({"kubernetes.io/role": "agent"})
        False
        """
        for entry in self.control_plane_node_labels:
            key, eq, value = entry.partition("=")
            if key in labels and (not eq or str(labels[key]) == value):
                return True
        return False

    def shows_control_plane(self, labels: dict[str, object], roles: str | None = None) -> bool:
        """Whether a node is a control-plane node by its labels, or by the ROLES a pasted
        `kubectl get nodes` row shows for them (the row carries no labels).

        >>> load_profiles().shows_control_plane({}, "control-plane,master"), load_profiles().shows_control_plane({}, "agent")
        (True, False)
        """
        return self.is_control_plane_node(labels) or bool(self.control_plane_roles & set((roles or "").split(",")))

    @property
    def control_plane_roles(self) -> frozenset[str]:
        """The roles a `kubectl get nodes` ROLES column shows for those labels (kubectl prints a
        `node-role.kubernetes.io/<role>` key's role and a `kubernetes.io/role` label's value).

        >>> sorted(load_profiles().control_plane_roles)
        ['control-plane', 'master']
        """
        roles = set()
        for entry in self.control_plane_node_labels:
            key, eq, value = entry.partition("=")
            if key.startswith("node-role.kubernetes.io/"):
                roles.add(key.rsplit("/", 1)[-1])
            elif key == "kubernetes.io/role" and eq:
                roles.add(value)
        return frozenset(roles)

    def family(self, name: str) -> str:
        """The distribution a name is built on, or the name itself (kind -> kubeadm)."""
        profile = self.distributions.get(name)
        return profile.based_on if profile and profile.based_on else name


@cache
def load_profiles(path: Path = PROFILES_FILE) -> Profiles:
    """Read and check profiles.yaml."""
    data = load_yaml(path.read_text(encoding="utf-8")) or {}
    dists: dict[str, Profile] = {}
    for name, row in (data.get("distributions") or {}).items():
        if row.get("control_plane") not in CONTROL_PLANE_KINDS:
            raise ValueError(f"{path.name}: distribution {name!r}: control_plane must be one of "
                             f"{CONTROL_PLANE_KINDS}, not {row.get('control_plane')!r}")
        if row.get("runs_as") not in (None, *CONTROL_PLANE_RUNS_AS):
            raise ValueError(f"{path.name}: distribution {name!r}: runs_as must be one of "
                             f"{CONTROL_PLANE_RUNS_AS}, not {row.get('runs_as')!r}")
        dists[name] = Profile(name, row.get("title", name), row["control_plane"], row.get("based_on"),
                              row.get("runs_as"))
    for profile in dists.values():
        if profile.based_on and profile.based_on not in dists:
            raise ValueError(f"{path.name}: {profile.name} is based on unknown {profile.based_on!r}")
    managed_changes = {str(k): str(v) for k, v in (data.get("managed_changes") or {}).items()}
    for name in managed_changes:
        if name not in dists:
            raise ValueError(f"{path.name}: managed_changes names unknown distribution {name!r}")
    components = system_namespaces().components  # one list with the findings' (model/data)
    return Profiles(
        distributions=dists,
        system_namespace_names=components.names,
        system_namespace_prefixes=components.prefixes,
        virtual_node_labels=tuple(data.get("virtual_node_labels") or ()),
        control_plane_pods=re.compile(data.get("control_plane_pods") or "(?!)"),
        cni_node_annotations=dict(data.get("cni_node_annotations") or {}),
        cni_of_component={part: cni for cni, parts in (data.get("cni_components") or {}).items()
                          for part in parts},
        dns_services=tuple(data.get("dns_services") or ()),
        dns_configmaps=tuple(data.get("dns_configmaps") or ()),
        control_plane_node_labels=tuple(data.get("control_plane_node_labels") or ()),
        cni_of_network=dict(data.get("cni_network_names") or {}),
        cni_without_pods={dist: (entry["cni"], entry["nodes_have"])
                          for dist, entry in (data.get("cni_without_pods") or {}).items()},
        managed_changes=managed_changes,
    )
