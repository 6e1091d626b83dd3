"""Old kubectl shapes mapped onto the API shape.

kubectl 1.13 printed lists as `{"Items": [...]}` with no kind; kubectl 1.9 printed its internal
structs: metadata flattened into the object, field names Capitalised (`KubeletVersion`), volume
sources under `VolumeSource`, hostNetwork under the pod's SecurityContext.
"""

from __future__ import annotations

from typing import Any

_META_KEYS = (
    "name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation",
    "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels",
    "annotations", "ownerReferences", "initializers", "finalizers", "clusterName",
)
# Fields whose values are maps with user keys: their keys are never re-cased.
_MAP_FIELDS = frozenset(
    {
        "labels", "annotations", "capacity", "allocatable", "selector", "nodeSelector", "data",
        "binaryData", "limits", "requests", "matchLabels", "parameters", "hard", "used",
        "stringData",
    }
)
_SPECIAL = {
    "QOSClass": "qosClass", "UID": "uid", "IP": "ip", "IPs": "ips", "PodIP": "podIP",
    "PodIPs": "podIPs", "HostIP": "hostIP", "PodCIDR": "podCIDR", "PodCIDRs": "podCIDRs",
    "ProviderID": "providerID", "ClusterIP": "clusterIP", "ClusterIPs": "clusterIPs",
    "ExternalIPs": "externalIPs", "ImageID": "imageID", "ContainerID": "containerID",
    "MachineID": "machineID", "SystemUUID": "systemUUID", "BootID": "bootID",
    "ExternalID": "externalID", "LoadBalancerIP": "loadBalancerIP", "TTY": "tty",
    "OSImage": "osImage", "DNSPolicy": "dnsPolicy",
    "DNSConfig": "dnsConfig", "FSGroup": "fsGroup",
}


def looks_legacy(body: dict[str, Any]) -> bool:
    """Whether an item is in an old kubectl shape (flattened metadata or Capitalised fields).

    >>> looks_legacy({"name": "n1", "Spec": {}}), looks_legacy({"metadata": {"name": "n1"}})
    (True, False)
    """
    if "metadata" in body:
        return any(k in body for k in ("Spec", "Status"))
    return "name" in body or any(isinstance(k, str) and k[:1].isupper() for k in body)


def _recase(key: str) -> str:
    if key in _SPECIAL:
        return _SPECIAL[key]
    return key[:1].lower() + key[1:] if key[:1].isupper() else key


def _modernize_value(value: Any, parent_key: str) -> Any:
    if isinstance(value, dict):
        if parent_key in _MAP_FIELDS:
            return {k: _modernize_value(v, "") for k, v in value.items()}
        out: dict[str, Any] = {}
        for k, v in value.items():
            if not isinstance(k, str):
                out[k] = v
                continue
            nk = _recase(k)
            nv = _modernize_value(v, nk)
            if nk == "volumeSource" and isinstance(nv, dict):
                # internal Volume{Name, VolumeSource{HostPath...}} -> v1 Volume{name, hostPath}
                out.update({sk: sv for sk, sv in nv.items() if sv is not None})
                continue
            out[nk] = nv
        if "Spec" in value and "metadata" not in out:
            # an embedded object (a pod template) with its metadata flattened, like the top level
            meta = {k: out.pop(k) for k in _META_KEYS if k in out}
            if meta:
                out = {"metadata": meta, **out}
        return out
    if isinstance(value, list):
        return [_modernize_value(v, parent_key) for v in value]
    return value


def modernize(body: dict[str, Any]) -> dict[str, Any]:
    """Map an old-shape item onto the API shape (a new dict; the input is not changed).

    >>> modernize({"name": "n1", "uid": "u", "Spec": {"ProviderID": "aws:///x"},
    ...            "Status": {"NodeInfo": {"KubeletVersion": "v1.9.1"}}})
    {'metadata': {'name': 'n1', 'uid': 'u'}, 'spec': {'providerID': 'aws:///x'}, 'status': {'nodeInfo': {'kubeletVersion': 'v1.9.1'}}}
    """
    out: dict[str, Any] = {}
    stated = body.get("metadata")
    meta = dict(stated) if isinstance(stated, dict) else {}
    for key, value in body.items():
        if key in _META_KEYS and "metadata" not in body:
            meta[key] = value
        elif key in ("metadata", "ObjectMeta"):
            if isinstance(value, dict):
                meta.update(value)
        elif key in ("TypeMeta",) and isinstance(value, dict):
            out.update({_recase(k): v for k, v in value.items()})
        else:
            out[_recase(key)] = _modernize_value(value, _recase(key))
    if meta:
        out = {"metadata": meta, **out}
    spec = out.get("spec")
    if isinstance(spec, dict):
        sc = spec.get("securityContext")
        if isinstance(sc, dict):
            for flag in ("hostNetwork", "hostPID", "hostIPC"):
                if flag in sc and flag not in spec:
                    spec[flag] = sc[flag]
    return out
