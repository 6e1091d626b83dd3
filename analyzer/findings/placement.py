"""Where a pod template may run: the nodes its node selector and required node affinity pick,
and the taints it does not tolerate on them (what keeps a DaemonSet off the nodes it names); the
volumes whose own node affinity no node meets."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from analyzer.findings.facts import knows_labels, knows_taints, objects_named, selector_matches
from analyzer.findings.removal import AUTOSCALER_TAINT, KARPENTER_TAINTS
from analyzer.model.normalize import as_dict, as_list

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump
    from analyzer.ingest.records import KubeObject
    from analyzer.kube.views import Taint

BLOCKING = ("NoSchedule", "NoExecute")
# Taints a node's state puts on it and lifts with it (not ready, pressure, cordoned, not yet
# initialised, being scaled down): the DaemonSet controller tolerates most of them by itself, and
# the node rules say the rest, as they do of a node being scaled down or replaced; they are not
# what keeps a DaemonSet off a node for good.
_TRANSIENT_PREFIXES = ("node.kubernetes.io/", "node.cloudprovider.kubernetes.io/", AUTOSCALER_TAINT,
                       *KARPENTER_TAINTS)


def tolerates(tolerations: list[dict[str, Any]], taint: Any) -> bool:
    """Whether any toleration matches the taint (key, value, effect; Exists without key = all).

    >>> from analyzer.kube.views import Taint
    >>> tolerates([{"operator": "Exists"}], Taint(key="a", effect="NoSchedule"))
    True
    >>> tolerates([{"key": "a", "value": "x", "effect": "NoSchedule"}], Taint(key="a", value="y", effect="NoSchedule"))
    False
    """
    for t in tolerations:
        if not isinstance(t, dict):
            continue  # a hand-edited dump's toleration that is no mapping tolerates nothing
        if t.get("effect") and t.get("effect") != taint.effect:
            continue
        if t.get("operator") == "Exists":
            if not t.get("key") or t.get("key") == taint.key:
                return True
        elif t.get("key") == taint.key and str(t.get("value") or "") == str(taint.value or ""):
            return True
    return False


def template_spec(workload: KubeObject) -> dict[str, Any]:
    """A workload's pod template spec as written (the typed view keeps no affinity)."""
    return as_dict(as_dict(as_dict(workload.body().get("spec")).get("template")).get("spec"))


def tainted_off(template_spec: dict[str, Any], nodes: list[KubeObject]) -> list[tuple[KubeObject, list[Taint]]]:
    """The nodes a pod template's node selector and required node affinity pick whose lasting
    taints it does not tolerate, each with those taints; only nodes whose labels and taints the
    dump holds (its cases: tests/findings/cases/daemonset-tainted-off.yaml).
    """
    tolerations = as_list(template_spec.get("tolerations"))
    found = []
    for node in nodes:
        if not (knows_labels(node) and knows_taints(node)):
            continue
        if not picks(template_spec, node.name, node.view.metadata.labels or {}):
            continue
        untolerated = [t for t in node.view.spec.taints or ()
                       if t.effect in BLOCKING and not str(t.key or "").startswith(_TRANSIENT_PREFIXES)
                       and not tolerates(tolerations, t)]
        if untolerated:
            found.append((node, untolerated))
    return found


def picks(template_spec: dict[str, Any], node_name: str, labels: dict[str, Any]) -> bool:
    """Whether a pod template's nodeSelector and required node affinity admit a node.

    >>> spec = {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
    ...     {"nodeSelectorTerms": [{"matchExpressions": [
    ...         {"key": "type", "operator": "NotIn", "values": ["virtual-kubelet"]}]}]}}}}
    >>> picks(spec, "n1", {"kubernetes.io/os": "windows"}), picks(spec, "vk", {"type": "virtual-kubelet"})
    (True, False)
    """
    selector = template_spec.get("nodeSelector")
    if selector and not selector_matches(selector, labels):
        return False
    required = as_dict(as_dict(as_dict(template_spec.get("affinity")).get("nodeAffinity"))
                       .get("requiredDuringSchedulingIgnoredDuringExecution"))
    terms = as_list(required.get("nodeSelectorTerms"))
    # The terms are ORed; a term's expressions and fields are ANDed (fields: metadata.name only).
    return not terms or any(_term_admits(term, node_name, labels) for term in terms)


def _term_admits(term: dict[str, Any], node_name: str, labels: dict[str, Any]) -> bool:
    term = as_dict(term)
    expressions = as_list(term.get("matchExpressions"))
    fields = [f for f in as_list(term.get("matchFields")) if isinstance(f, dict)]
    if not expressions and not fields:
        return False  # an empty term matches no node
    if expressions and not selector_matches({"matchExpressions": expressions}, labels):
        return False
    return all(selector_matches({"matchExpressions": [{**f, "key": "name"}]}, {"name": node_name})
               for f in fields if f.get("key") == "metadata.name")


def pinned_volumes(cluster: AnalyzedDump, pod: KubeObject) -> str:
    """The pod's bound volumes whose node affinity no node of the dump meets, with the values the
    nodes carry for its keys: why the scheduler said `volume node affinity conflict` (a zonal disk
    left in a zone whose nodes are gone, kubernetes/kubernetes#108096); '' when the dump cannot
    tell (no nodes, nodes without their labels, no such volume)."""
    nodes = list(cluster.objects_of("Node"))
    if not nodes or not all(knows_labels(node) for node in nodes):
        return ""
    claims = objects_named(cluster, "PersistentVolumeClaim")
    volumes = objects_named(cluster, "PersistentVolume")
    said = []
    for volume in pod.view.spec.volumes or ():
        claim = claims.get((pod.namespace, str(as_dict(volume.get("persistentVolumeClaim")).get("claimName"))))
        pv = volumes.get(("", claim.view.spec.volumeName or "")) if claim is not None else None
        required = as_dict(as_dict(pv.view.spec.nodeAffinity).get("required")) if pv is not None else {}
        terms = required.get("nodeSelectorTerms") or []
        if not terms or any(_term_admits(term, node.name, node.view.metadata.labels or {})
                            for term in terms for node in nodes):
            continue
        keys = sorted({str(e.get("key")) for term in terms for e in term.get("matchExpressions") or ()})
        wants = "; ".join(f"{e.get('key')} {e.get('operator')} {', '.join(map(str, e.get('values') or ()))}".rstrip()
                          for term in terms for e in term.get("matchExpressions") or ())
        carried = ", ".join(f"{key}: {', '.join(sorted({str((n.view.metadata.labels or {}).get(key, '(none)')) for n in nodes}))}"
                            for key in keys)
        said.append(f"PersistentVolume {pv.name} (claim {claim.name}) may be used only on nodes with {wants}; "
                    f"none of the dump's {len(nodes)} node(s) has that ({carried})")
    return "; ".join(said)
