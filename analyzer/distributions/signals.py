"""Signal types: what part of a dump each fingerprint row looks at, and how its pattern matches.

One small function per signal type turns a fingerprint pattern into a predicate over observed
values; SIGNALS registers each with the observation channel it reads (see observations.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

Matcher = Callable[[str], bool]


def provider_id_prefix(pattern: str) -> Matcher:
    """spec.providerID starts with the pattern (`azure://`, `aws://`, `oci://`)."""
    return lambda value: value.startswith(pattern)


def node_label_key_prefix(pattern: str) -> Matcher:
    """A node label key starts with the pattern (`kubernetes.azure.com/`)."""
    return lambda key: key.startswith(pattern)


def node_label(pattern: str) -> Matcher:
    """A node label `key=value` equals the pattern; a pattern without `=` names the key alone."""
    if "=" in pattern:
        return lambda pair: pair == pattern
    return lambda pair: pair.partition("=")[0] == pattern


def node_annotation_key_prefix(pattern: str) -> Matcher:
    """A node annotation key starts with the pattern (`kubeadm.alpha.kubernetes.io/`)."""
    return lambda key: key.startswith(pattern)


def pod_annotation(pattern: str) -> Matcher:
    """A pod annotation `key=value` equals the pattern; a pattern without `=` names the key alone
    (`kubernetes.io/psp=eks.privileged`: the PodSecurityPolicy that admitted the pod)."""
    return node_label(pattern)


def system_object_label(pattern: str) -> Matcher:
    """A label `key=value` of any object in a system namespace equals the pattern (the keys
    fingerprints.yaml names only): `app.kubernetes.io/managed-by=EKS`, which EKS's add-on manager
    writes on what it installs (a ServiceAccount described alone says so)."""
    return node_label(pattern)


class RegexMatcher:
    """A matcher by regex (search or fullmatch). `test` is the regex's own bound method, truthy
    where the value matches: the detector filters tens of thousands of distinct names through
    it (a 5,000-node cluster's pods and nodes) without a Python call per value."""

    __slots__ = ("test",)

    def __init__(self, test: Callable[[str], re.Match[str] | None]) -> None:
        self.test = test

    def __call__(self, value: str) -> bool:
        return self.test(value) is not None


_GROUP_REFERENCE = re.compile(r"\\[1-9]|\(\?P=")


def any_matcher(matchers: list[RegexMatcher]) -> Callable[[str], re.Match[str] | None] | None:
    r"""One regex test truthy where any of the matchers matches (they all search, or all match
    whole values): a 5,000-node cluster has ~12,000 system workload names and thirty-odd patterns
    for them, nearly none matching, and one alternation rejects a name in one call instead of
    thirty. None when the patterns cannot be joined (a back-reference would refer to another
    pattern's group; a pattern setting flags for the whole regex cannot stand inside one).

    >>> test = any_matcher([_search("^aws-node"), _search("-eks-")])
    >>> bool(test("aws-node-x1")), bool(test("v1.29.0-eks-a1")), bool(test("coredns"))
    (True, True, False)
    >>> any_matcher([_search("(a)\\1"), _search("b")]) is None, any_matcher([_search("(?i)x"), _search("y")]) is None
    (True, True)
    """
    methods = {m.test.__name__ for m in matchers}
    if len(methods) != 1 or not methods <= {"search", "fullmatch"}:
        return None
    patterns = [m.test.__self__.pattern for m in matchers]
    if any(_GROUP_REFERENCE.search(p) for p in patterns):
        return None
    try:
        joined = re.compile("|".join(f"(?:{p})" for p in patterns))
    except re.error:
        return None
    return getattr(joined, methods.pop())


def _search(pattern: str) -> Matcher:
    return RegexMatcher(re.compile(pattern).search)


def _fullmatch(pattern: str) -> Matcher:
    return RegexMatcher(re.compile(pattern).fullmatch)


def kubelet_version_regex(pattern: str) -> Matcher:
    """A kubelet, kube-proxy or API server version matches (`-eks-`, `\\+k3s`)."""
    return _search(pattern)


def os_image_regex(pattern: str) -> Matcher:
    """A node's OS image matches (`AKSUbuntu`, `Bottlerocket`, `Container-Optimized OS`)."""
    return _search(pattern)


def node_name_regex(pattern: str) -> Matcher:
    """A node name (of a Node, or a pod's spec.nodeName) matches (`^aks-`, `^minikube$`)."""
    return _search(pattern)


def node_name_suffix(pattern: str) -> Matcher:
    """What a node's name adds to another node's name in the dump is the pattern (a regex, whole
    suffix): `-m02` of multinode-demo-m02 beside multinode-demo, minikube's second node of a profile."""
    return _fullmatch(pattern)


def workload_name(pattern: str) -> Matcher:
    """A workload or pod name in a system namespace matches (`^aws-node`, `^kube-apiserver-`)."""
    return _search(pattern)


def system_workload(pattern: str) -> Matcher:
    """`namespace/name` of a workload or pod in a system namespace matches
    (`^kube-system/csi-snapshot-controller-`: where a component runs tells what installed it)."""
    return _search(pattern)


def configmap_name(pattern: str) -> Matcher:
    """A ConfigMap name in a system namespace is the pattern (a regex, whole name)."""
    return _fullmatch(pattern)


def api_group(pattern: str) -> Matcher:
    """An API group served or used is the pattern, ends with `.pattern`, or fully matches it."""
    regex = re.compile(pattern)
    return lambda group: (group == pattern or group.endswith("." + pattern)
                          or regex.fullmatch(group) is not None)


def image_registry_regex(pattern: str) -> Matcher:
    """An image of a system workload matches (`^mcr\\.microsoft\\.com/oss/kubernetes/`)."""
    return _search(pattern)


def namespace_name(pattern: str) -> Matcher:
    """A namespace name is the pattern (a regex, whole name)."""
    return _fullmatch(pattern)


def namespace_annotation_key_prefix(pattern: str) -> Matcher:
    """A Namespace annotation key starts with the pattern (`openshift.io/sa.scc.`)."""
    return lambda key: key.startswith(pattern)


def pull_secret_name(pattern: str) -> Matcher:
    """A Secret's name, or one a ServiceAccount lists (secrets, imagePullSecrets), matches
    (`-dockercfg-[a-z0-9]{5}$`)."""
    return _search(pattern)


def service_cluster_ip(pattern: str) -> Matcher:
    """The cluster IP of the API server's Service or the DNS Service, as `kubernetes=IP` or
    `kube-dns=IP` (search): the first addresses of the service range a distribution defaults to."""
    return _search(pattern)


def service_port(pattern: str) -> Matcher:
    """A port of the API server's Service (`default/kubernetes`), as `kubernetes=PORT/PROTOCOL`
    (whole): a distribution that tunnels to its nodes may publish its tunnel's port there too."""
    return _fullmatch(pattern)


def cli_tool(pattern: str) -> Matcher:
    """A transcript ran kubectl through this client (`oc`, `microk8s kubectl`): whole name."""
    return _fullmatch(pattern)


def event_source(pattern: str) -> Matcher:
    """What reported an event (its source component, or reportingComponent) is the pattern (a
    regex, whole name): `gke.io/optimize-utilization-scheduler`, GKE's own scheduler."""
    return _fullmatch(pattern)


@dataclass(frozen=True, slots=True)
class SignalType:
    """A signal type: the observation channel it reads and how its pattern becomes a matcher."""

    name: str
    channel: str
    compile: Callable[[str], Matcher]


def _signal(fn: Callable[[str], Matcher], channel: str) -> SignalType:
    return SignalType(fn.__name__, channel, fn)


# The one place signal types are registered; fingerprints.yaml may use only these names.
SIGNALS: dict[str, SignalType] = {
    s.name: s
    for s in (
        _signal(provider_id_prefix, "provider_id"),
        _signal(node_label_key_prefix, "node_label_key"),
        _signal(node_label, "node_label"),
        _signal(node_annotation_key_prefix, "node_annotation_key"),
        _signal(pod_annotation, "pod_annotation"),
        _signal(system_object_label, "system_object_label"),
        _signal(kubelet_version_regex, "version"),
        _signal(os_image_regex, "os_image"),
        _signal(node_name_regex, "node_name"),
        _signal(node_name_suffix, "node_name_suffix"),
        _signal(workload_name, "workload_name"),
        _signal(system_workload, "system_workload"),
        _signal(configmap_name, "configmap_name"),
        _signal(api_group, "api_group"),
        _signal(image_registry_regex, "image"),
        _signal(namespace_name, "namespace"),
        _signal(namespace_annotation_key_prefix, "namespace_annotation_key"),
        _signal(pull_secret_name, "secret_name"),
        _signal(service_cluster_ip, "service_ip"),
        _signal(service_port, "service_port"),
        _signal(cli_tool, "cli_tool"),
        _signal(event_source, "event_source"),
    )
}
