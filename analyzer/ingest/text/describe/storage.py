"""`kubectl describe pvc` and `pv`: phase, class, volume or claim, and what the claim's pods or
the volume's source are."""

from __future__ import annotations

import re
from typing import Any

from analyzer.ingest.text.describe.context import DescribeContext
from analyzer.ingest.text.describe.sections import being_deleted, key_values
from analyzer.ingest.text.describe.tree import Entry
from analyzer.ingest.text.types import TextObject
from analyzer.ingest.text.values import cell, csv, set_path

# kubectl prints access modes short (`RWO,RWX`).
ACCESS_MODES = {"RWO": "ReadWriteOnce", "RWX": "ReadWriteMany", "ROX": "ReadOnlyMany",
                "RWOP": "ReadWriteOncePod"}


def read_claim(root: Entry, body: dict[str, Any], facts: dict[str, Any],
               ctx: DescribeContext) -> list[TextObject]:
    """Fill a PersistentVolumeClaim from its describe."""
    status = cell(root.child_value("Status"))
    if status and not being_deleted(status, facts):  # (the phase is not printed then)
        set_path(body, "status.phase", status)
    for key, path in (("StorageClass", "spec.storageClassName"),
                      ("Volume", "spec.volumeName"), ("VolumeMode", "spec.volumeMode"),
                      ("Capacity", "status.capacity.storage")):
        if value := cell(root.child_value(key)):
            set_path(body, path, value)
    if modes := [ACCESS_MODES.get(m, m) for m in csv(root.child_value("Access Modes"))]:
        set_path(body, "spec.accessModes", modes)
    # `Used By:` (kubectl 1.20 on), `Mounted By:` before: the pods that mount the claim
    users = root.child("Used By") or root.child("Mounted By")
    if used_by := [name for value in (users.values if users else ()) for name in csv(value)
                   if cell(name) is not None]:
        facts["used_by"] = used_by
    return []


# A volume's `Source:` by its `Type:` (k8s.io/kubectl describe.go's print*VolumeSource): the
# spec field it fills, and its lines by the fields they fill.
_SOURCES: dict[str, tuple[str, dict[str, str]]] = {
    "CSI": ("csi", {"Driver": "driver", "VolumeHandle": "volumeHandle", "FSType": "fsType"}),
    "HostPath": ("hostPath", {"Path": "path", "HostPathType": "type"}),
    "NFS": ("nfs", {"Server": "server", "Path": "path"}),
    "LocalVolume": ("local", {"Path": "path"}),
}


def read_volume(root: Entry, body: dict[str, Any], facts: dict[str, Any],
                ctx: DescribeContext) -> list[TextObject]:
    """Fill a PersistentVolume from its describe: its phase, claim, class, reclaim policy, access
    modes, capacity and source (what `kubectl get pv` and the storage rules read)."""
    status = cell(root.child_value("Status"))
    if status and not being_deleted(status, facts):
        set_path(body, "status.phase", status)
    for key, path in (("StorageClass", "spec.storageClassName"), ("Reclaim Policy", "spec.persistentVolumeReclaimPolicy"),
                      ("VolumeMode", "spec.volumeMode"), ("Capacity", "spec.capacity.storage"),
                      ("Message", "status.message")):
        if value := cell(root.child_value(key)):
            set_path(body, path, value)
    namespace, _, name = (cell(root.child_value("Claim")) or "").rpartition("/")
    if namespace and name:
        set_path(body, "spec.claimRef", {"kind": "PersistentVolumeClaim", "namespace": namespace, "name": name})
    if modes := [ACCESS_MODES.get(m, m) for m in csv(root.child_value("Access Modes"))]:
        set_path(body, "spec.accessModes", modes)
    if terms := _node_affinity_terms(root.child("Node Affinity")):
        set_path(body, "spec.nodeAffinity", {"required": {"nodeSelectorTerms": terms}})
    if (source := root.child("Source")) is not None:
        kind = (cell(source.child_value("Type")) or "").partition(" ")[0]
        field, lines = _SOURCES.get(kind, ("", {}))
        read = {target: value for key, target in lines.items() if (value := cell(source.child_value(key)))}
        if field and read:
            set_path(body, f"spec.{field}", read)
    return []


# A node selector requirement as kubectl describes a volume's node affinity (describe.go's
# printNodeSelectorTermsMultilineWithIndent: `key in [a, b]`, the operator lower-cased).
_REQUIREMENT = re.compile(r"^(?P<key>\S+) (?P<op>in|notin|exists|doesnotexist|gt|lt)(?: \[(?P<values>.*)\])?$")
_OPERATORS = {"in": "In", "notin": "NotIn", "exists": "Exists", "doesnotexist": "DoesNotExist", "gt": "Gt", "lt": "Lt"}


def _node_affinity_terms(entry: Entry | None) -> list[dict[str, Any]]:
    """A volume's `Node Affinity:` / `Required Terms:` / `Term 0:  key in [a]` as API node
    selector terms ([] when it has none or a term does not read): where a zonal or local volume
    can be used.

    >>> from analyzer.ingest.text.describe.tree import parse_tree
    >>> from analyzer.ingest.text.lines import split_lines
    >>> root = parse_tree(split_lines("Node Affinity:\\n  Required Terms:\\n"
    ...                               "    Term 0:        topology.ebs.csi.aws.com/zone in [us-east-1a]"))
    >>> _node_affinity_terms(root.child("Node Affinity"))
    [{'matchExpressions': [{'key': 'topology.ebs.csi.aws.com/zone', 'operator': 'In', 'values': ['us-east-1a']}]}]
    """
    required = entry.child("Required Terms") if entry is not None else None
    terms = []
    for term in required.children if required is not None else ():
        expressions = []
        for text in term.values:
            match = _REQUIREMENT.match(text.strip())
            if match is None:
                return []
            expression: dict[str, Any] = {"key": match.group("key"), "operator": _OPERATORS[match.group("op")]}
            if match.group("values") is not None:
                expression["values"] = [v.strip() for v in match.group("values").split(",") if v.strip()]
            expressions.append(expression)
        if expressions:
            terms.append({"matchExpressions": expressions})
    return terms


# A StorageClass's one-line fields (k8s.io/kubectl describe.go's describeStorageClass).
_CLASS_FIELDS = {"Provisioner": "provisioner", "ReclaimPolicy": "reclaimPolicy",
                 "VolumeBindingMode": "volumeBindingMode"}
# The annotations that make a class the default (kubectl's IsDefaultClass reads both).
DEFAULT_CLASS = ("storageclass.kubernetes.io/is-default-class", "storageclass.beta.kubernetes.io/is-default-class")


def read_class(root: Entry, body: dict[str, Any], facts: dict[str, Any],
               ctx: DescribeContext) -> list[TextObject]:
    """Fill a StorageClass from its describe: provisioner, parameters, reclaim policy, binding
    mode, expansion, mount options, and whether it is the default (`IsDefaultClass: Yes`, which
    kubectl reads from the annotation it stands for)."""
    for key, field in _CLASS_FIELDS.items():
        if value := cell(root.child_value(key)):
            body[field] = value
    if parameters := key_values([part for value in (root.child("Parameters") or Entry("", "", 0, 0, None)).values
                                 for part in csv(value)], "="):
        body["parameters"] = parameters
    expansion = (cell(root.child_value("AllowVolumeExpansion")) or "").lower()
    if expansion in ("true", "false"):
        body["allowVolumeExpansion"] = expansion == "true"
    if options := [o for o in (root.child("MountOptions") or Entry("", "", 0, 0, None)).values if cell(o)]:
        body["mountOptions"] = options
    annotations = _joined_annotations(root.child("Annotations"))
    if cell(root.child_value("IsDefaultClass")) == "Yes" and "true" not in (annotations.get(a) for a in DEFAULT_CLASS):
        annotations[DEFAULT_CLASS[0]] = "true"  # (a paste cut its annotations: IsDefaultClass says it)
    body["metadata"].pop("annotations", None)
    if annotations:
        body["metadata"]["annotations"] = annotations
    return []


# A `,` that begins the next `key=value` of annotations printed on one line.
_NEXT_ANNOTATION = re.compile(r",(?=[A-Za-z0-9][A-Za-z0-9._/-]*=)")


def _joined_annotations(entry: Entry | None) -> dict[str, str]:
    """A StorageClass's annotations, which kubectl prints as labels are, `k=v,k2=v2` on one line;
    a last-applied-configuration value ends in a line break, so the next one begins a line with
    its comma (`{...}` then `,storageclass.kubernetes.io/is-default-class=true`)."""
    text = "".join(entry.values) if entry is not None else ""
    if cell(text) is None:
        return {}
    pairs = (item.partition("=") for item in _NEXT_ANNOTATION.split(text))
    return {key: value for key, sep, value in pairs if sep and key}


READERS = {"PersistentVolumeClaim": read_claim, "PersistentVolume": read_volume, "StorageClass": read_class}
