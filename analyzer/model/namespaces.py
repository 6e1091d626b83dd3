"""Which namespaces are not the applications' (data/system_namespaces.yaml).

One list for every stage: the distributions read the platform's and the add-ons' namespaces (their
workloads are cluster components); the findings skip the platform's and the dump tools' (host
access is their job, their specs not the cluster owner's to change).

>>> is_platform_namespace("kube-system"), is_platform_namespace("openshift-dns"), is_platform_namespace("shop")
(True, True, False)
>>> is_component_namespace("velero"), is_platform_namespace("velero")
(True, False)
>>> is_component_namespace("sonobuoy"), is_dump_tool_namespace("sonobuoy")
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from analyzer.safeyaml import load_yaml

DATA = Path(__file__).parent / "data" / "system_namespaces.yaml"


@dataclass(frozen=True, slots=True)
class NamespaceSet:
    """Namespaces by exact name or by the prefix of their name."""

    names: frozenset[str]
    prefixes: tuple[str, ...]

    def __contains__(self, namespace: object) -> bool:
        return isinstance(namespace, str) and (
            namespace in self.names or namespace.startswith(self.prefixes))


@dataclass(frozen=True, slots=True)
class SystemNamespaces:
    """The platform's namespaces, the add-ons', and those of the tools that collect dumps (and
    the labels such a tool sets on the pods it runs elsewhere)."""

    platform: NamespaceSet
    addons: NamespaceSet
    dump_tools: NamespaceSet
    dump_tool_pod_labels: tuple[tuple[str, frozenset[str]], ...] = ()
    dump_tool_namespace_label_keys: frozenset[str] = frozenset()

    @property
    def components(self) -> NamespaceSet:
        """The namespaces whose workloads are cluster components: the platform's and the add-ons'."""
        return NamespaceSet(self.platform.names | self.addons.names,
                            self.platform.prefixes + self.addons.prefixes)


def _namespace_set(row: dict | None) -> NamespaceSet:
    row = row or {}
    return NamespaceSet(frozenset(str(n) for n in row.get("names") or ()),
                        tuple(str(p) for p in row.get("prefixes") or ()))


@cache
def system_namespaces(path: Path = DATA) -> SystemNamespaces:
    """The lists of system_namespaces.yaml."""
    data = load_yaml(path.read_text(encoding="utf-8")) or {}
    tools = data.get("dump_tools") or {}
    labels = tools.get("pod_labels") or {}
    return SystemNamespaces(_namespace_set(data.get("platform")), _namespace_set(data.get("addons")),
                            _namespace_set(tools),
                            tuple((str(k), frozenset(str(v) for v in values)) for k, values in labels.items()),
                            frozenset(str(k) for k in tools.get("namespace_label_keys") or ()))


def is_platform_namespace(namespace: str) -> bool:
    """Whether the namespace is Kubernetes's, a distribution's or its provider's (not an add-on's)."""
    return namespace in system_namespaces().platform


def is_component_namespace(namespace: str) -> bool:
    """Whether the namespace's workloads are cluster components (the platform's or an add-on's)."""
    return namespace in system_namespaces().platform or namespace in system_namespaces().addons


def is_dump_tool_namespace(namespace: str) -> bool:
    """Whether the namespace is that of a tool that collects dumps (sonobuoy)."""
    return namespace in system_namespaces().dump_tools


def is_dump_tool_made_namespace(labels: dict[str, str] | None) -> str:
    """The label that says a dump tool's tests made a namespace (the e2e framework's e2e-run), or "".

    >>> is_dump_tool_made_namespace({"e2e-framework": "services", "e2e-run": "fc13"}), is_dump_tool_made_namespace({})
    ('e2e-run', '')
    """
    keys = system_namespaces().dump_tool_namespace_label_keys
    return next((key for key in sorted(keys) if labels and key in labels), "")


def is_dump_tool_pod(labels: dict[str, str] | None) -> bool:
    """Whether a pod's labels say a dump tool runs it (troubleshoot's run collectors).

    >>> is_dump_tool_pod({"troubleshoot-role": "run-collector"}), is_dump_tool_pod({"app": "web"})
    (True, False)
    """
    return bool(labels) and any(isinstance(value := labels.get(key), str) and value in values
                                for key, values in system_namespaces().dump_tool_pod_labels)
