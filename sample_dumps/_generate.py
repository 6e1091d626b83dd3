#!/usr/bin/env python3
"""Builds the sample dumps (AKS, EKS, OKE, kubeadm) and the kubeadm test archive, byte-reproducibly.

Usage:  python sample_dumps/_generate.py [--out DIR] [--archive FILE]

Each cluster is modelled once as plain API objects, then written in the form its dump uses:
  aks/      `kubectl get ... -A -o yaml` Lists (go-yaml style, sorted keys, no managedFields)
  eks/      `kubectl cluster-info dump --all-namespaces` stdout (typed JSON, logs interleaved)
  oke/      a replicatedhq/troubleshoot support bundle (typed JSON Lists, 2-space indent)
  kubeadm/  `kubectl cluster-info dump --output-directory` (kube-system and default)
Everything (uids, names, IPs, digests, times) derives from names and a fixed capture time, so a
rerun writes the same bytes. Nothing here is a real credential; no Secret objects are written.
"""

from __future__ import annotations

import argparse
import copy
import gzip
import hashlib
import io
import json
import shutil
import sys
import tarfile
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DUMP_DIRS = ("aks", "eks", "oke", "kubeadm")
ARCHIVE = REPO / "tests" / "data" / "archives" / "kubeadm-dump.tar.gz"

# The moment every dump was "captured"; all other times are offsets back from it.
CAPTURE = datetime(2024, 9, 15, 12, 0, 0, tzinfo=UTC)

Obj = dict[str, Any]


# ---------------------------------------------------------------------------------------------
# Deterministic identities and times
# ---------------------------------------------------------------------------------------------

# Kubernetes' rand.String alphabet (no vowels, no 0/1/3), used for generated name suffixes.
SAFE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"


def digest(*parts: object) -> bytes:
    """SHA-256 of the joined parts: the single source of every pseudo-random value."""
    return hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).digest()


def hexid(length: int, *parts: object) -> str:
    """A hex string of `length` characters derived from the parts."""
    out = ""
    counter = 0
    while len(out) < length:
        out += digest(counter, *parts).hex()
        counter += 1
    return out[:length]


def make_uid(*parts: object) -> str:
    """An object uid (UUID version 5) derived from the parts."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "kda-sample:" + "/".join(str(p) for p in parts)))


def safe_suffix(length: int, *parts: object) -> str:
    """A name suffix in the alphabet Kubernetes uses for generated names."""
    return "".join(SAFE_ALPHABET[b % len(SAFE_ALPHABET)] for b in digest(*parts)[:length])


def pick(number: int, *parts: object) -> int:
    """A stable integer in range(number)."""
    return int.from_bytes(digest(*parts)[:4], "big") % number


def ago(days: float = 0, hours: float = 0, minutes: float = 0, seconds: float = 0) -> datetime:
    """A time before the capture."""
    return CAPTURE - timedelta(days=days, hours=hours, minutes=minutes, seconds=seconds)


def ts(moment: datetime) -> str:
    """RFC 3339 seconds, as the API serialises metav1.Time."""
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def micro_ts(moment: datetime, *parts: object) -> str:
    """RFC 3339 with microseconds (metav1.MicroTime); the fraction is derived from the parts."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{pick(1_000_000, *parts):06d}Z"


def nano_ts(moment: datetime, *parts: object) -> str:
    """RFC 3339 with nanoseconds, as kubelet writes kubernetes.io/config.seen."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{pick(1_000_000_000, *parts):09d}Z"


def klog_time(moment: datetime, *parts: object) -> str:
    """The `MMDD HH:MM:SS.uuuuuu` stamp klog puts after the severity letter."""
    return moment.strftime("%m%d %H:%M:%S") + f".{pick(1_000_000, *parts):06d}"


def image_digest(image: str) -> str:
    """A sha256 digest for an image reference (stable per reference)."""
    return "sha256:" + hexid(64, "image", image)


# ---------------------------------------------------------------------------------------------
# Go struct field order: typed clients (cluster-info dump, troubleshoot) print fields in the
# order the Go structs declare them; maps come out with sorted keys. `kubectl get -o yaml`
# instead goes through unstructured maps, so its keys are simply sorted.
# Token forms: `f` scalar or list of scalars, `f:T` struct, `f:[T]` list of structs,
# `f:map` map (sorted keys), `f:raw` JSON kept as stored (fieldsV1; sorted as the server sorts).
# ---------------------------------------------------------------------------------------------

GO_FIELDS: dict[str, str] = {
    "ListMeta": "selfLink resourceVersion continue remainingItemCount",
    "ObjectMeta": (
        "name generateName namespace selfLink uid resourceVersion generation creationTimestamp"
        " deletionTimestamp deletionGracePeriodSeconds labels:map annotations:map"
        " ownerReferences:[OwnerReference] finalizers managedFields:[ManagedFieldsEntry]"
    ),
    "OwnerReference": "apiVersion kind name uid controller blockOwnerDeletion",
    "ManagedFieldsEntry": "manager operation apiVersion time fieldsType fieldsV1:raw subresource",
    "ObjectReference": "kind namespace name uid apiVersion resourceVersion fieldPath",
    "LabelSelector": "matchLabels:map matchExpressions:[LabelSelectorRequirement]",
    "LabelSelectorRequirement": "key operator values",
    # core/v1 Pod
    "Pod": "kind apiVersion metadata:ObjectMeta spec:PodSpec status:PodStatus",
    "PodTemplateSpec": "metadata:ObjectMeta spec:PodSpec",
    "PodSpec": (
        "volumes:[Volume] initContainers:[Container] containers:[Container] ephemeralContainers"
        " restartPolicy terminationGracePeriodSeconds activeDeadlineSeconds dnsPolicy"
        " nodeSelector:map serviceAccountName serviceAccount automountServiceAccountToken"
        " nodeName hostNetwork hostPID hostIPC shareProcessNamespace"
        " securityContext:PodSecurityContext imagePullSecrets:[LocalObjectReference] hostname"
        " subdomain affinity:Affinity schedulerName tolerations:[Toleration] hostAliases"
        " priorityClassName priority dnsConfig readinessGates runtimeClassName"
        " enableServiceLinks preemptionPolicy overhead:map topologySpreadConstraints"
        " setHostnameAsFQDN os hostUsers schedulingGates resourceClaims"
    ),
    "Volume": (
        "name hostPath:HostPathVolumeSource emptyDir:EmptyDirVolumeSource gcePersistentDisk"
        " awsElasticBlockStore gitRepo secret:SecretVolumeSource nfs iscsi glusterfs"
        " persistentVolumeClaim:PersistentVolumeClaimVolumeSource rbd flexVolume cinder cephfs"
        " flocker downwardAPI:DownwardAPIProjection fc azureFile configMap:ConfigMapVolumeSource"
        " vsphereVolume quobyte azureDisk photonPersistentDisk projected:ProjectedVolumeSource"
        " portworxVolume scaleIO storageos csi ephemeral"
    ),
    "HostPathVolumeSource": "path type",
    "EmptyDirVolumeSource": "medium sizeLimit",
    "SecretVolumeSource": "secretName items:[KeyToPath] defaultMode optional",
    "ConfigMapVolumeSource": "name items:[KeyToPath] defaultMode optional",
    "PersistentVolumeClaimVolumeSource": "claimName readOnly",
    "KeyToPath": "key path mode",
    "ProjectedVolumeSource": "sources:[VolumeProjection] defaultMode",
    "VolumeProjection": (
        "secret downwardAPI:DownwardAPIProjection configMap:ConfigMapProjection"
        " serviceAccountToken:ServiceAccountTokenProjection clusterTrustBundle"
    ),
    "ServiceAccountTokenProjection": "audience expirationSeconds path",
    "ConfigMapProjection": "name items:[KeyToPath] optional",
    "DownwardAPIProjection": "items:[DownwardAPIVolumeFile]",
    "DownwardAPIVolumeFile": "path fieldRef:ObjectFieldSelector resourceFieldRef mode",
    "Container": (
        "name image command args workingDir ports:[ContainerPort] envFrom:[EnvFromSource]"
        " env:[EnvVar] resources:ResourceRequirements resizePolicy restartPolicy"
        " volumeMounts:[VolumeMount] volumeDevices livenessProbe:Probe readinessProbe:Probe"
        " startupProbe:Probe lifecycle terminationMessagePath terminationMessagePolicy"
        " imagePullPolicy securityContext:SecurityContext stdin stdinOnce tty"
    ),
    "ContainerPort": "name hostPort containerPort protocol hostIP",
    "EnvFromSource": "prefix configMapRef:ConfigMapEnvSource secretRef",
    "ConfigMapEnvSource": "name optional",
    "EnvVar": "name value valueFrom:EnvVarSource",
    "EnvVarSource": (
        "fieldRef:ObjectFieldSelector resourceFieldRef:ResourceFieldSelector"
        " configMapKeyRef:ConfigMapKeySelector secretKeyRef"
    ),
    "ObjectFieldSelector": "apiVersion fieldPath",
    "ResourceFieldSelector": "containerName resource divisor",
    "ConfigMapKeySelector": "name key optional",
    "ResourceRequirements": "limits:map requests:map claims",
    "VolumeMount": "name readOnly recursiveReadOnly mountPath subPath mountPropagation subPathExpr",
    "Probe": (
        "exec:ExecAction httpGet:HTTPGetAction tcpSocket:TCPSocketAction grpc"
        " initialDelaySeconds timeoutSeconds periodSeconds successThreshold failureThreshold"
        " terminationGracePeriodSeconds"
    ),
    "ExecAction": "command",
    "HTTPGetAction": "path port host scheme httpHeaders",
    "TCPSocketAction": "port host",
    "SecurityContext": (
        "capabilities:Capabilities privileged seLinuxOptions windowsOptions runAsUser"
        " runAsGroup runAsNonRoot readOnlyRootFilesystem allowPrivilegeEscalation procMount"
        " seccompProfile:SeccompProfile appArmorProfile"
    ),
    "Capabilities": "add drop",
    "SeccompProfile": "type localhostProfile",
    "PodSecurityContext": (
        "seLinuxOptions windowsOptions runAsUser runAsGroup runAsNonRoot supplementalGroups"
        " fsGroup sysctls fsGroupChangePolicy seccompProfile:SeccompProfile appArmorProfile"
    ),
    "LocalObjectReference": "name",
    "Affinity": "nodeAffinity:NodeAffinity podAffinity podAntiAffinity:PodAntiAffinity",
    "NodeAffinity": (
        "requiredDuringSchedulingIgnoredDuringExecution:NodeSelector"
        " preferredDuringSchedulingIgnoredDuringExecution"
    ),
    "NodeSelector": "nodeSelectorTerms:[NodeSelectorTerm]",
    "NodeSelectorTerm": "matchExpressions:[NodeSelectorRequirement] matchFields:[NodeSelectorRequirement]",
    "NodeSelectorRequirement": "key operator values",
    "PodAntiAffinity": (
        "requiredDuringSchedulingIgnoredDuringExecution"
        " preferredDuringSchedulingIgnoredDuringExecution:[WeightedPodAffinityTerm]"
    ),
    "WeightedPodAffinityTerm": "weight podAffinityTerm:PodAffinityTerm",
    "PodAffinityTerm": "labelSelector:LabelSelector namespaces topologyKey namespaceSelector",
    "Toleration": "key operator value effect tolerationSeconds",
    "PodStatus": (
        "phase conditions:[PodCondition] message reason nominatedNodeName hostIP"
        " hostIPs:[HostIP] podIP podIPs:[HostIP] startTime"
        " initContainerStatuses:[ContainerStatus] containerStatuses:[ContainerStatus] qosClass"
    ),
    "PodCondition": "type status lastProbeTime lastTransitionTime reason message",
    "HostIP": "ip",
    "ContainerStatus": (
        "name state:ContainerState lastState:ContainerState ready restartCount image imageID"
        " containerID started"
    ),
    "ContainerState": (
        "waiting:ContainerStateWaiting running:ContainerStateRunning"
        " terminated:ContainerStateTerminated"
    ),
    "ContainerStateWaiting": "reason message",
    "ContainerStateRunning": "startedAt",
    "ContainerStateTerminated": "exitCode signal reason message startedAt finishedAt containerID",
    # core/v1 Node
    "Node": "kind apiVersion metadata:ObjectMeta spec:NodeSpec status:NodeStatus",
    "NodeSpec": "podCIDR podCIDRs providerID unschedulable taints:[Taint] configSource externalID",
    "Taint": "key value effect timeAdded",
    "NodeStatus": (
        "capacity:map allocatable:map phase conditions:[NodeCondition] addresses:[NodeAddress]"
        " daemonEndpoints:NodeDaemonEndpoints nodeInfo:NodeSystemInfo images:[ContainerImage]"
        " volumesInUse volumesAttached:[AttachedVolume] config runtimeHandlers:[NodeRuntimeHandler]"
    ),
    "NodeCondition": "type status lastHeartbeatTime lastTransitionTime reason message",
    "NodeAddress": "type address",
    "NodeDaemonEndpoints": "kubeletEndpoint:DaemonEndpoint",
    "DaemonEndpoint": "Port",
    "NodeSystemInfo": (
        "machineID systemUUID bootID kernelVersion osImage containerRuntimeVersion"
        " kubeletVersion kubeProxyVersion operatingSystem architecture"
    ),
    "ContainerImage": "names sizeBytes",
    "AttachedVolume": "name devicePath",
    "NodeRuntimeHandler": "name features:NodeRuntimeHandlerFeatures",
    "NodeRuntimeHandlerFeatures": "recursiveReadOnlyMounts userNamespaces",
    # core/v1 Service, Endpoints, ConfigMap, Event, Namespace, PVC, PV
    "Service": "kind apiVersion metadata:ObjectMeta spec:ServiceSpec status:ServiceStatus",
    "ServiceSpec": (
        "ports:[ServicePort] selector:map clusterIP clusterIPs type externalIPs sessionAffinity"
        " loadBalancerIP loadBalancerSourceRanges externalName externalTrafficPolicy"
        " healthCheckNodePort publishNotReadyAddresses sessionAffinityConfig ipFamilies"
        " ipFamilyPolicy allocateLoadBalancerNodePorts loadBalancerClass internalTrafficPolicy"
    ),
    "ServicePort": "name protocol appProtocol port targetPort nodePort",
    "ServiceStatus": "loadBalancer:LoadBalancerStatus conditions",
    "LoadBalancerStatus": "ingress:[LoadBalancerIngress]",
    "LoadBalancerIngress": "ip hostname ipMode ports",
    "Endpoints": "kind apiVersion metadata:ObjectMeta subsets:[EndpointSubset]",
    "EndpointSubset": "addresses:[EndpointAddress] notReadyAddresses:[EndpointAddress] ports:[EndpointPort]",
    "EndpointAddress": "ip hostname nodeName targetRef:ObjectReference",
    "EndpointPort": "name port protocol appProtocol",
    "ConfigMap": "kind apiVersion metadata:ObjectMeta immutable data:map binaryData:map",
    "Event": (
        "kind apiVersion metadata:ObjectMeta involvedObject:ObjectReference reason message"
        " source:EventSource firstTimestamp lastTimestamp count type eventTime series:EventSeries"
        " action related reportingComponent reportingInstance"
    ),
    "EventSource": "component host",
    "EventSeries": "count lastObservedTime",
    "Namespace": "kind apiVersion metadata:ObjectMeta spec:NamespaceSpec status:NamespaceStatus",
    "NamespaceSpec": "finalizers",
    "NamespaceStatus": "phase conditions",
    "PersistentVolumeClaim": (
        "kind apiVersion metadata:ObjectMeta spec:PersistentVolumeClaimSpec"
        " status:PersistentVolumeClaimStatus"
    ),
    "PersistentVolumeClaimSpec": (
        "accessModes selector:LabelSelector resources:ResourceRequirements volumeName"
        " storageClassName volumeMode dataSource dataSourceRef"
    ),
    "PersistentVolumeClaimStatus": "phase accessModes capacity:map conditions",
    "PersistentVolume": (
        "kind apiVersion metadata:ObjectMeta spec:PersistentVolumeSpec status:PersistentVolumeStatus"
    ),
    "PersistentVolumeSpec": (
        "capacity:map csi:CSIPersistentVolumeSource accessModes claimRef:ObjectReference"
        " persistentVolumeReclaimPolicy storageClassName mountOptions volumeMode"
        " nodeAffinity:VolumeNodeAffinity"
    ),
    "CSIPersistentVolumeSource": "driver volumeHandle readOnly fsType volumeAttributes:map",
    "VolumeNodeAffinity": "required:NodeSelector",
    "PersistentVolumeStatus": "phase message reason lastPhaseTransitionTime",
    "StorageClass": (
        "kind apiVersion metadata:ObjectMeta provisioner parameters:map reclaimPolicy"
        " mountOptions allowVolumeExpansion volumeBindingMode allowedTopologies"
    ),
    # apps/v1, batch/v1
    "Deployment": "kind apiVersion metadata:ObjectMeta spec:DeploymentSpec status:DeploymentStatus",
    "DeploymentSpec": (
        "replicas selector:LabelSelector template:PodTemplateSpec strategy:DeploymentStrategy"
        " minReadySeconds revisionHistoryLimit paused progressDeadlineSeconds"
    ),
    "DeploymentStrategy": "type rollingUpdate:RollingUpdate",
    "RollingUpdate": "maxUnavailable maxSurge",
    "DeploymentStatus": (
        "observedGeneration replicas updatedReplicas readyReplicas availableReplicas"
        " unavailableReplicas conditions:[DeploymentCondition] collisionCount"
    ),
    "DeploymentCondition": "type status lastUpdateTime lastTransitionTime reason message",
    "ReplicaSet": "kind apiVersion metadata:ObjectMeta spec:ReplicaSetSpec status:ReplicaSetStatus",
    "ReplicaSetSpec": "replicas minReadySeconds selector:LabelSelector template:PodTemplateSpec",
    "ReplicaSetStatus": (
        "replicas fullyLabeledReplicas readyReplicas availableReplicas observedGeneration conditions"
    ),
    "DaemonSet": "kind apiVersion metadata:ObjectMeta spec:DaemonSetSpec status:DaemonSetStatus",
    "DaemonSetSpec": (
        "selector:LabelSelector template:PodTemplateSpec updateStrategy:DaemonSetUpdateStrategy"
        " minReadySeconds revisionHistoryLimit"
    ),
    "DaemonSetUpdateStrategy": "type rollingUpdate:RollingUpdate",
    "DaemonSetStatus": (
        "currentNumberScheduled numberMisscheduled desiredNumberScheduled numberReady"
        " observedGeneration updatedNumberScheduled numberAvailable numberUnavailable"
        " collisionCount conditions"
    ),
    "Job": "kind apiVersion metadata:ObjectMeta spec:JobSpec status:JobStatus",
    "JobSpec": (
        "parallelism completions activeDeadlineSeconds podFailurePolicy backoffLimit"
        " backoffLimitPerIndex maxFailedIndexes selector:LabelSelector manualSelector"
        " template:PodTemplateSpec ttlSecondsAfterFinished completionMode suspend"
        " podReplacementPolicy"
    ),
    "JobStatus": (
        "conditions:[JobCondition] startTime completionTime active succeeded failed terminating"
        " completedIndexes failedIndexes uncountedTerminatedPods:map ready"
    ),
    "JobCondition": "type status lastProbeTime lastTransitionTime reason message",
}


def _parse_fields(spec: str) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for token in spec.split():
        name, _, kind = token.partition(":")
        out.append((name, kind or None))
    return out


GO_ORDER = {type_name: _parse_fields(spec) for type_name, spec in GO_FIELDS.items()}


def sorted_deep(value: Any) -> Any:
    """Maps with sorted keys all the way down (how Go prints map[string]... and raw fieldsV1)."""
    if isinstance(value, dict):
        return {k: sorted_deep(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [sorted_deep(v) for v in value]
    return value


def go_order(value: Obj, type_name: str) -> Obj:
    """Reorder an object's keys as the Go struct `type_name` declares them; unknown keys fail."""
    fields = GO_ORDER[type_name]
    known = {name for name, _ in fields}
    unknown = set(value) - known
    if unknown:
        raise KeyError(f"{type_name} has no field(s) {sorted(unknown)}")
    out: Obj = {}
    for name, kind in fields:
        if name not in value:
            continue
        item = value[name]
        if kind is None:
            if isinstance(item, dict) or (isinstance(item, list) and any(isinstance(v, dict) for v in item)):
                raise TypeError(f"{type_name}.{name} holds structures but is declared scalar")
            out[name] = item
        elif kind in ("map", "raw"):
            out[name] = sorted_deep(item)
        elif kind.startswith("["):
            out[name] = [go_order(v, kind[1:-1]) for v in item]
        else:
            out[name] = go_order(item, kind)
    return out


def go_order_list(list_obj: Obj, keep_item_type_meta: bool) -> Obj:
    """A typed List in Go order; items keep kind/apiVersion only where the writer printed them."""
    items = []
    for item in list_obj["items"]:
        ordered = go_order(item, item["kind"])
        if not keep_item_type_meta:
            ordered.pop("kind")
            ordered.pop("apiVersion")
        items.append(ordered)
    return {
        "kind": list_obj["kind"],
        "apiVersion": list_obj["apiVersion"],
        "metadata": go_order(list_obj["metadata"], "ListMeta"),
        "items": items,
    }


# ---------------------------------------------------------------------------------------------
# Serialisers
# ---------------------------------------------------------------------------------------------


def go_json(value: Any, indent: int) -> str:
    """JSON as Go's json.MarshalIndent writes it (HTML characters escaped), plus a newline."""
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    # encoding/json escapes <, > and & inside strings; they never occur outside strings in JSON.
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return text + "\n"


class KubectlYamlDumper(yaml.SafeDumper):
    """PyYAML dumper tuned to look like the go-yaml v2 output of `kubectl get -o yaml`."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _represent_str(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    # go-yaml: multi-line strings as literal blocks; strings that would read back as another
    # type (bools, numbers, timestamps, empty) double-quoted; everything else plain if it can be,
    # otherwise single-quoted.
    if "\n" in text:
        style: str | None = "|"
    elif dumper.resolve(yaml.ScalarNode, text, (True, False)) != "tag:yaml.org,2002:str":
        style = '"'
    else:
        style = None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


KubectlYamlDumper.add_representer(str, _represent_str)


def kubectl_yaml(value: Any) -> str:
    """YAML the way kubectl prints it: sorted keys, block style, lines folded at 80 columns."""
    return yaml.dump(
        value,
        Dumper=KubectlYamlDumper,
        sort_keys=True,
        default_flow_style=False,
        allow_unicode=True,
        width=80,  # go-yaml's best width; the AKS seed shows kubectl folding long values
    )


def compact_json(value: Any) -> str:
    """JSON as kubectl stores it in last-applied-configuration (sorted, no spaces)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# ---------------------------------------------------------------------------------------------
# managedFields (server-side field ownership), derived from the fields each manager wrote
# ---------------------------------------------------------------------------------------------

# Structs that are not pointers get no "." marker of their own.
NO_SELF_MARKER = {
    "metadata", "spec", "status", "template", "strategy", "updateStrategy", "nodeInfo",
    "daemonEndpoints", "kubeletEndpoint", "containers", "regarding",
}
ATOMIC_LISTS = {
    "command", "args", "tolerations", "images", "containerStatuses", "initContainerStatuses",
    "sources", "items", "nodeSelectorTerms", "clusterIPs", "ipFamilies", "subsets",
    "accessModes", "values", "names", "matchExpressions", "matchFields", "taints",
}
SET_LISTS = {"finalizers", "podCIDRs"}


def _list_key(element: Obj) -> Obj | None:
    for keys in (("containerPort", "protocol"), ("port", "protocol"), ("uid",), ("type",),
                 ("mountPath",), ("ip",), ("name",)):
        if all(k in element for k in keys):
            return {k: element[k] for k in keys}
    return None


def fields_v1(value: Obj) -> Obj:
    """The fieldsV1 description of the fields present in `value`."""
    return {f"f:{key}": _field_entry(key, item) for key, item in value.items()}


def _field_entry(key: str, item: Any) -> Obj:
    if isinstance(item, dict):
        if not item:
            return {}
        inner = fields_v1(item)
        return inner if key in NO_SELF_MARKER else {".": {}, **inner}
    if isinstance(item, list) and item:
        if key in SET_LISTS:
            return {".": {}, **{"v:" + json.dumps(v): {} for v in item}}
        if key not in ATOMIC_LISTS and all(isinstance(v, dict) for v in item):
            keyed: Obj = {} if key in NO_SELF_MARKER else {".": {}}
            for element in item:
                element_key = _list_key(element)
                if element_key is None:
                    return {}
                keyed["k:" + json.dumps(element_key, sort_keys=True, separators=(",", ":"))] = {
                    ".": {}, **fields_v1(element)
                }
            return keyed
    return {}


def managed(manager: str, when: datetime, owned: Obj, api_version: str = "v1",
            operation: str = "Update", subresource: str | None = None) -> Obj:
    """One managedFields entry for `manager`, owning the fields present in `owned`."""
    entry: Obj = {
        "manager": manager,
        "operation": operation,
        "apiVersion": api_version,
        "time": ts(when),
        "fieldsType": "FieldsV1",
        "fieldsV1": fields_v1(owned),
    }
    if subresource:
        entry["subresource"] = subresource
    return entry


def pick_keys(value: Obj, *keys: str) -> Obj:
    """The subset of `value` with the given keys (those present)."""
    return {k: value[k] for k in keys if k in value}


# ---------------------------------------------------------------------------------------------
# The cluster model: API objects as the API server would hold them
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Flavor:
    """What differs per distribution in how the API server and kubelets populate objects."""

    name: str
    k8s_minor: int
    runtime: str  # "containerd" or "cri-o": container/image id prefixes and image naming
    created: datetime  # when the control plane came up
    scheduler_instance: str  # reportingInstance of default-scheduler events
    addon_manager: str  # field manager that applied the distribution's add-ons
    addon_api_operation: str = "Update"


@dataclass
class Run:
    """How one container is doing at capture time."""

    state: str = "running"  # running | waiting | terminated
    reason: str = ""  # waiting/terminated reason
    message: str = ""
    exit_code: int = 0
    restarts: int = 0
    last_reason: str = ""  # lastState.terminated.reason when the container restarted before
    last_exit_code: int = 0
    ready: bool | None = None  # None: ready when running
    started: datetime | None = None  # current instance start (running) or last start
    last_started: datetime | None = None
    last_finished: datetime | None = None
    ever_started: bool = True  # False: image never pulled / never created


@dataclass
class PodPlan:
    """Where a pod runs and how its containers are doing."""

    node: str | None
    runs: dict[str, Run] = field(default_factory=dict)
    unschedulable: str = ""  # the scheduler's message when the pod has no node
    node_lost: bool = False  # node stopped reporting; node controller marked the pod not ready
    no_sandbox: bool = False  # sandbox never created (volume setup failing): no pod IP
    phase: str | None = None  # explicit phase (Failed/Succeeded for job pods)
    created: datetime | None = None
    unready_since: datetime | None = None  # when Ready turned False (default: about an hour ago)


@dataclass
class NodeSlot:
    """Per-node facts the pod builder needs."""

    name: str
    ip: str
    pod_ip_prefix: str
    next_pod_ip: int
    uid: str
    created: datetime


PRIORITY_OF_CLASS = {"system-node-critical": 2000001000, "system-cluster-critical": 2000000000}
SERVICE_ACCOUNT_MOUNT = "/var/run/secrets/kubernetes.io/serviceaccount"
DS_TOLERATIONS = [
    ("node.kubernetes.io/not-ready", "NoExecute"),
    ("node.kubernetes.io/unreachable", "NoExecute"),
    ("node.kubernetes.io/disk-pressure", "NoSchedule"),
    ("node.kubernetes.io/memory-pressure", "NoSchedule"),
    ("node.kubernetes.io/pid-pressure", "NoSchedule"),
    ("node.kubernetes.io/unschedulable", "NoSchedule"),
]


def image_has_digest_or_tag(image: str) -> bool:
    last = image.rsplit("/", 1)[-1]
    return "@" in last or ":" in last


def pull_policy(image: str) -> str:
    """The API default for imagePullPolicy."""
    if not image_has_digest_or_tag(image) or image.endswith(":latest"):
        return "Always"
    return "IfNotPresent"


def normalized_image(image: str) -> str:
    """The fully-qualified reference a CRI runtime reports for an image."""
    first = image.split("/", 1)[0]
    if "/" not in image:
        image = "docker.io/library/" + image
    elif "." not in first and ":" not in first and first != "localhost":
        image = "docker.io/" + image
    if not image_has_digest_or_tag(image):
        image += ":latest"
    return image


def image_repo(image: str) -> str:
    ref = normalized_image(image)
    if "@" in ref:
        return ref.split("@", 1)[0]
    head, _, _tag = ref.rpartition(":")
    return head


def default_probe(probe: Obj) -> Obj:
    out = copy.deepcopy(probe)
    if "httpGet" in out:
        out["httpGet"].setdefault("scheme", "HTTP")
    for key, value in (("timeoutSeconds", 1), ("periodSeconds", 10), ("successThreshold", 1),
                       ("failureThreshold", 3)):
        out.setdefault(key, value)
    return out


def default_container(container: Obj) -> Obj:
    """Apply the API server's defaults to a container."""
    out = copy.deepcopy(container)
    for port in out.get("ports", []):
        port.setdefault("protocol", "TCP")
    out.setdefault("resources", {})
    for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
        if probe in out:
            out[probe] = default_probe(out[probe])
    out.setdefault("terminationMessagePath", "/dev/termination-log")
    out.setdefault("terminationMessagePolicy", "File")
    out.setdefault("imagePullPolicy", pull_policy(out["image"]))
    for env in out.get("env", []):
        ref = env.get("valueFrom", {}).get("fieldRef")
        if ref is not None:
            ref.setdefault("apiVersion", "v1")
    return out


def default_pod_spec(spec: Obj) -> Obj:
    """Apply the API server's defaults to a pod spec (as stored in templates)."""
    out = copy.deepcopy(spec)
    for volume in out.get("volumes", []):
        if "configMap" in volume:
            volume["configMap"].setdefault("defaultMode", 420)
        if "secret" in volume:
            volume["secret"].setdefault("defaultMode", 420)
        if "hostPath" in volume:
            volume["hostPath"].setdefault("type", "")
    for key in ("initContainers", "containers"):
        if key in out:
            out[key] = [default_container(c) for c in out[key]]
    out.setdefault("restartPolicy", "Always")
    out.setdefault("terminationGracePeriodSeconds", 30)
    out.setdefault("dnsPolicy", "ClusterFirst")
    if "serviceAccountName" in out:
        out["serviceAccount"] = out["serviceAccountName"]
    out.setdefault("securityContext", {})
    out.setdefault("schedulerName", "default-scheduler")
    return out


def qos_class(spec: Obj) -> str:
    """Guaranteed, Burstable or BestEffort, from the containers' requests and limits."""
    containers = spec.get("initContainers", []) + spec["containers"]
    any_set = False
    guaranteed = True
    for container in containers:
        requests = container.get("resources", {}).get("requests", {})
        limits = container.get("resources", {}).get("limits", {})
        if requests or limits:
            any_set = True
        for resource in ("cpu", "memory"):
            if resource not in limits or requests.get(resource, limits[resource]) != limits[resource]:
                guaranteed = False
    if not any_set:
        return "BestEffort"
    return "Guaranteed" if guaranteed else "Burstable"


def label_selector_matches(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return all(labels.get(k) == v for k, v in selector.items())


class Cluster:
    """All objects of one cluster, plus its container logs."""

    def __init__(self, flavor: Flavor, api_server_endpoints: list[tuple[str, int]]) -> None:
        self.flavor = flavor
        self.objects: list[Obj] = []
        self.logs: dict[tuple[str, str, str, bool], str] = {}
        self.nodes: dict[str, NodeSlot] = {}
        self.api_server_endpoints = api_server_endpoints
        self._rv = 400 + pick(300, flavor.name)

    # -- bookkeeping -------------------------------------------------------------------------

    def next_rv(self) -> str:
        """A fresh resourceVersion (increasing, like etcd revisions)."""
        self._rv += 1 + pick(97, self.flavor.name, self._rv)
        return str(self._rv)

    @property
    def list_rv(self) -> str:
        return str(self._rv + 211)

    def add(self, obj: Obj) -> Obj:
        self.objects.append(obj)
        return obj

    def of_kind(self, kind: str, namespace: str | None = None) -> list[Obj]:
        """Objects of a kind (in one namespace if given), sorted as the API lists them."""
        found = [
            o for o in self.objects
            if o["kind"] == kind and (namespace is None or o["metadata"].get("namespace") == namespace)
        ]
        return sorted(found, key=lambda o: (o["metadata"].get("namespace", ""), o["metadata"]["name"]))

    def get(self, kind: str, namespace: str, name: str) -> Obj:
        for o in self.objects:
            md = o["metadata"]
            if o["kind"] == kind and md.get("namespace", "") == namespace and md["name"] == name:
                return o
        raise KeyError(f"{kind} {namespace}/{name}")

    def namespaces(self) -> list[str]:
        return [o["metadata"]["name"] for o in self.of_kind("Namespace")]

    def meta(self, kind: str, namespace: str, name: str, created: datetime,
             labels: dict[str, str] | None = None, annotations: dict[str, str] | None = None,
             **extra: Any) -> Obj:
        """Server-populated ObjectMeta (uid, resourceVersion, creationTimestamp)."""
        md: Obj = {"name": name}
        if "generateName" in extra:
            md["generateName"] = extra.pop("generateName")
        if namespace:
            md["namespace"] = namespace
        md["uid"] = make_uid(self.flavor.name, kind, namespace, name)
        md["resourceVersion"] = self.next_rv()
        if "generation" in extra:
            md["generation"] = extra.pop("generation")
        md["creationTimestamp"] = ts(created)
        if labels:
            md["labels"] = dict(labels)
        if annotations:
            md["annotations"] = dict(annotations)
        md.update(extra)
        return md

    # -- namespaces, nodes, config -------------------------------------------------------------

    def add_namespace(self, name: str, created: datetime, labels: dict[str, str] | None = None) -> Obj:
        all_labels = {"kubernetes.io/metadata.name": name, **(labels or {})}
        md = self.meta("Namespace", "", name, created, all_labels)
        manager = "kube-apiserver" if name in ("default", "kube-system", "kube-public", "kube-node-lease") else "kubectl-create"
        md["managedFields"] = [managed(manager, created, {"metadata": {"labels": all_labels}})]
        return self.add({
            "kind": "Namespace", "apiVersion": "v1", "metadata": md,
            "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"},
        })

    def add_node(self, name: str, ip: str, created: datetime, labels: dict[str, str],
                 annotations: dict[str, str], spec: Obj, capacity: dict[str, str],
                 allocatable: dict[str, str], node_info: Obj, conditions: list[Obj],
                 addresses: list[Obj], pod_ip_prefix: str, first_pod_ip: int) -> Obj:
        md = self.meta("Node", "", name, created, labels, annotations)
        kubelet_owned: Obj = {"metadata": {
            "annotations": pick_keys(annotations, "volumes.kubernetes.io/controller-managed-attach-detach",
                                     "alpha.kubernetes.io/provided-node-ip"),
            "labels": labels,
        }}
        if "providerID" in spec:
            kubelet_owned["spec"] = {"providerID": spec["providerID"]}
        controller_owned: Obj = {"metadata": {"annotations": pick_keys(annotations, "node.alpha.kubernetes.io/ttl")}}
        if "podCIDR" in spec:
            controller_owned["spec"] = pick_keys(spec, "podCIDR", "podCIDRs")
        status = {
            "capacity": capacity, "allocatable": allocatable, "conditions": conditions,
            "addresses": addresses, "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "nodeInfo": node_info, "images": [],
        }
        md["managedFields"] = [
            managed("kubelet", created, kubelet_owned),
            managed("kube-controller-manager", created + timedelta(seconds=12), controller_owned),
            managed("kubelet", ago(minutes=4), {"status": status}, subresource="status"),
        ]
        node = self.add({"kind": "Node", "apiVersion": "v1", "metadata": md, "spec": spec, "status": status})
        self.nodes[name] = NodeSlot(name, ip, pod_ip_prefix, first_pod_ip, md["uid"], created)
        return node

    def add_configmap(self, namespace: str, name: str, data: dict[str, str] | None, created: datetime,
                      labels: dict[str, str] | None = None, annotations: dict[str, str] | None = None,
                      manager: str = "kubectl-client-side-apply") -> Obj:
        md = self.meta("ConfigMap", namespace, name, created, labels, annotations)
        owned: Obj = {"metadata": pick_keys(md, "labels", "annotations")}
        if data is not None:
            owned["data"] = data
        md["managedFields"] = [managed(manager, created, owned)]
        obj: Obj = {"kind": "ConfigMap", "apiVersion": "v1", "metadata": md}
        if data is not None:
            obj["data"] = data
        return self.add(obj)

    # -- pods -----------------------------------------------------------------------------------

    def _pod_ip(self, node: str) -> str:
        slot = self.nodes[node]
        ip = f"{slot.pod_ip_prefix}{slot.next_pod_ip}"
        slot.next_pod_ip += 1 + pick(3, node, slot.next_pod_ip)
        return ip

    def build_pod(self, namespace: str, name: str, template: Obj, plan: PodPlan,
                  owner: Obj | None, generate_name: str | None, created: datetime,
                  static: bool = False, extra_annotations: dict[str, str] | None = None) -> Obj:
        """A pod as the API server stores it after admission, scheduling and kubelet status."""
        tmeta = template.get("metadata", {})
        spec = default_pod_spec(template["spec"])
        if plan.node and plan.created is None and created < self.nodes[plan.node].created:
            # the pod was (re)created once its node existed
            plan.created = self.nodes[plan.node].created + timedelta(minutes=2, seconds=pick(90, name))
        annotations = {**tmeta.get("annotations", {}), **(extra_annotations or {})}
        extra: Obj = {}
        if generate_name:
            extra["generateName"] = generate_name
        md = self.meta("Pod", namespace, name, plan.created or created, tmeta.get("labels"), annotations or None, **extra)
        if owner is not None:
            md["ownerReferences"] = [owner]
        if not static:
            spec.setdefault("serviceAccountName", "default")
            spec["serviceAccount"] = spec["serviceAccountName"]
            if spec.get("automountServiceAccountToken") is not False:
                volume_name = "kube-api-access-" + safe_suffix(5, self.flavor.name, namespace, name, "sa")
                spec.setdefault("volumes", []).append({"name": volume_name, "projected": {
                    "sources": [
                        {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                        {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
                        {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {
                            "apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}},
                    ],
                    "defaultMode": 420,
                }})
                for container in spec.get("initContainers", []) + spec["containers"]:
                    container.setdefault("volumeMounts", []).append(
                        {"name": volume_name, "readOnly": True, "mountPath": SERVICE_ACCOUNT_MOUNT})
            tolerations = spec.setdefault("tolerations", [])
            tolerated = {(t.get("key"), t.get("effect")) for t in tolerations}
            for key in ("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"):
                if (key, "NoExecute") not in tolerated and not any(
                        t.get("operator") == "Exists" and "key" not in t for t in tolerations):
                    tolerations.append({"key": key, "operator": "Exists", "effect": "NoExecute",
                                        "tolerationSeconds": 300})
        if plan.node:
            spec["nodeName"] = plan.node
        spec["priority"] = PRIORITY_OF_CLASS.get(spec.get("priorityClassName", ""), 0)
        spec["enableServiceLinks"] = True
        spec["preemptionPolicy"] = "PreemptLowerPriority"
        # keep the Go field order readable in YAML too: re-sort spec keys the way Go declares them
        spec = go_order(spec, "PodSpec")
        pod: Obj = {"kind": "Pod", "apiVersion": "v1", "metadata": md, "spec": spec}
        pod["status"] = self.pod_status(pod, plan, plan.created or created)
        creator = "kubelet" if static else "kube-controller-manager"
        owned_meta = pick_keys(md, "generateName", "labels", "annotations", "ownerReferences")
        owned_spec = {k: v for k, v in spec.items() if k not in ("nodeName", "priority")}
        md["managedFields"] = [
            managed(creator, plan.created or created, {"metadata": owned_meta, "spec": owned_spec}),
        ]
        if plan.node:
            md["managedFields"].append(managed(
                "kubelet", ago(minutes=2 + pick(40, name)), {"status": pod["status"]}, subresource="status"))
        return self.add(pod)

    def _container_ids(self, namespace: str, pod: str, container: str, instance: int) -> str:
        prefix = "cri-o://" if self.flavor.runtime == "cri-o" else "containerd://"
        return prefix + hexid(64, self.flavor.name, namespace, pod, container, instance)

    def _container_status(self, namespace: str, pod_name: str, pod_uid: str, container: Obj, run: Run,
                          started_default: datetime) -> Obj:
        image = container["image"]
        status: Obj = {"name": container["name"]}
        started = run.started or started_default
        if run.state == "running":
            status["state"] = {"running": {"startedAt": ts(started)}}
        elif run.state == "waiting":
            waiting: Obj = {"reason": run.reason}
            if run.message:
                waiting["message"] = run.message.format(pod=pod_name, namespace=namespace, uid=pod_uid,
                                                        container=container["name"])
            status["state"] = {"waiting": waiting}
        else:
            terminated: Obj = {"exitCode": run.exit_code, "reason": run.reason}
            if run.message:
                terminated["message"] = run.message
            terminated["startedAt"] = ts(started)
            terminated["finishedAt"] = ts(run.last_finished or started + timedelta(seconds=7))
            terminated["containerID"] = self._container_ids(namespace, pod_name, container["name"], run.restarts)
            status["state"] = {"terminated": terminated}
        if run.last_reason:
            last_start = run.last_started or started - timedelta(minutes=5)
            status["lastState"] = {"terminated": {
                "exitCode": run.last_exit_code,
                "reason": run.last_reason,
                "startedAt": ts(last_start),
                "finishedAt": ts(run.last_finished or last_start + timedelta(seconds=41)),
                "containerID": self._container_ids(namespace, pod_name, container["name"], max(run.restarts - 1, 0)),
            }}
        else:
            status["lastState"] = {}
        ready = run.ready if run.ready is not None else run.state == "running"
        status["ready"] = ready
        status["restartCount"] = run.restarts
        if run.ever_started:
            status["image"] = normalized_image(image)
            status["imageID"] = image_repo(image) + "@" + image_digest(image)
            if run.state in ("running", "terminated"):
                status["containerID"] = self._container_ids(namespace, pod_name, container["name"], run.restarts)
            elif run.last_reason:  # crash-looping: the id of the container that last exited
                status["containerID"] = status["lastState"]["terminated"]["containerID"]
        else:
            status["image"] = image
            status["imageID"] = ""
        status["started"] = run.state == "running"
        return status

    def pod_status(self, pod: Obj, plan: PodPlan, created: datetime) -> Obj:
        spec = pod["spec"]
        name = pod["metadata"]["name"]
        namespace = pod["metadata"]["namespace"]
        scheduled_at = created + timedelta(seconds=1)
        if not plan.node:
            return {
                "phase": "Pending",
                "conditions": [{
                    "type": "PodScheduled", "status": "False", "lastProbeTime": None,
                    "lastTransitionTime": ts(scheduled_at), "reason": "Unschedulable",
                    "message": plan.unschedulable,
                }],
                "qosClass": qos_class(spec),
            }
        runs = {c["name"]: plan.runs.get(c["name"], Run()) for c in spec["containers"]}
        init_runs = {c["name"]: plan.runs.get(c["name"], Run(state="terminated", reason="Completed"))
                     for c in spec.get("initContainers", [])}
        started_default = scheduled_at + timedelta(seconds=3 + pick(20, name))
        container_statuses = [
            self._container_status(namespace, name, pod["metadata"]["uid"], c, runs[c["name"]], started_default)
            for c in spec["containers"]
        ]
        init_statuses = []
        for c in spec.get("initContainers", []):
            st = self._container_status(namespace, name, pod["metadata"]["uid"], c, init_runs[c["name"]],
                                        started_default - timedelta(seconds=2))
            st["ready"] = True
            init_statuses.append(st)
        unready = [s["name"] for s in container_statuses if not s["ready"]]
        has_started = any(r.ever_started and r.state != "waiting" or r.last_reason for r in runs.values())
        if plan.phase:
            phase = plan.phase
        elif has_started:
            phase = "Running"
        else:
            phase = "Pending"
        ready_since = max(
            (datetime.strptime(s["state"]["running"]["startedAt"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
             for s in container_statuses if "running" in s["state"]), default=started_default)
        conditions: list[Obj] = []
        sandbox_ok = not plan.no_sandbox
        if self.flavor.k8s_minor >= 29:
            conditions.append({
                "type": "PodReadyToStartContainers", "status": "True" if sandbox_ok and phase != "Failed" else "False",
                "lastProbeTime": None, "lastTransitionTime": ts(started_default - timedelta(seconds=2)),
            })
        conditions.append({"type": "Initialized", "status": "True", "lastProbeTime": None,
                           "lastTransitionTime": ts(scheduled_at if not init_statuses else started_default)})
        if plan.node_lost:
            lost_at = ago(minutes=3, seconds=12)
            conditions.append({"type": "Ready", "status": "False", "lastProbeTime": None,
                               "lastTransitionTime": ts(lost_at)})
            conditions.append({"type": "ContainersReady", "status": "True", "lastProbeTime": None,
                               "lastTransitionTime": ts(ready_since)})
        elif unready:
            message = f"containers with unready status: [{' '.join(unready)}]"
            when = ts(plan.unready_since or (max(scheduled_at, ago(hours=1, minutes=6)) if has_started
                                             else scheduled_at))
            if phase == "Failed":
                conditions.append({"type": "Ready", "status": "False", "lastProbeTime": None,
                                   "lastTransitionTime": when, "reason": "PodFailed"})
                conditions.append({"type": "ContainersReady", "status": "False", "lastProbeTime": None,
                                   "lastTransitionTime": when, "reason": "PodFailed"})
            else:
                for kind in ("Ready", "ContainersReady"):
                    conditions.append({"type": kind, "status": "False", "lastProbeTime": None,
                                       "lastTransitionTime": when, "reason": "ContainersNotReady",
                                       "message": message})
        else:
            for kind in ("Ready", "ContainersReady"):
                conditions.append({"type": kind, "status": "True", "lastProbeTime": None,
                                   "lastTransitionTime": ts(ready_since + timedelta(seconds=4))})
        conditions.append({"type": "PodScheduled", "status": "True", "lastProbeTime": None,
                           "lastTransitionTime": ts(scheduled_at)})
        node_ip = self.nodes[plan.node].ip
        status: Obj = {"phase": phase, "conditions": conditions, "hostIP": node_ip}
        if self.flavor.k8s_minor >= 28:
            status["hostIPs"] = [{"ip": node_ip}]
        if sandbox_ok:
            pod_ip = node_ip if spec.get("hostNetwork") else self._pod_ip(plan.node)
            status["podIP"] = pod_ip
            status["podIPs"] = [{"ip": pod_ip}]
        status["startTime"] = ts(scheduled_at)
        if init_statuses:
            status["initContainerStatuses"] = init_statuses
        status["containerStatuses"] = container_statuses
        status["qosClass"] = qos_class(spec)
        return status

    # -- workloads ------------------------------------------------------------------------------

    def _template(self, labels: dict[str, str], spec: Obj, annotations: dict[str, str] | None = None) -> Obj:
        meta: Obj = {"creationTimestamp": None, "labels": dict(labels)}
        if annotations:
            meta["annotations"] = dict(annotations)
        return {"metadata": meta, "spec": default_pod_spec(spec)}

    def add_deployment(self, namespace: str, name: str, labels: dict[str, str], pod_spec: Obj,
                       plans: list[PodPlan], created: datetime, replicas: int | None = None,
                       selector: dict[str, str] | None = None, manager: str | None = None,
                       progress: str = "", pod_annotations: dict[str, str] | None = None,
                       annotations: dict[str, str] | None = None) -> Obj:
        """A Deployment, its ReplicaSet and its pods (one pod per plan)."""
        replicas = len(plans) if replicas is None else replicas
        selector = selector or dict(labels)
        pod_labels = dict(selector)
        template = self._template(pod_labels, pod_spec, pod_annotations)
        manager = manager or self.flavor.addon_manager
        dep_annotations = {"deployment.kubernetes.io/revision": "1", **(annotations or {})}
        md = self.meta("Deployment", namespace, name, created, labels, dep_annotations, generation=1)
        rs_hash = safe_suffix(9 + pick(2, name), self.flavor.name, namespace, name, "rs")
        rs_name = f"{name}-{rs_hash}"
        owner_dep = {"apiVersion": "apps/v1", "kind": "Deployment", "name": name, "uid": md["uid"],
                     "controller": True, "blockOwnerDeletion": True}
        rs_md = self.meta("ReplicaSet", namespace, rs_name, created + timedelta(seconds=1),
                          {**pod_labels, "pod-template-hash": rs_hash},
                          {"deployment.kubernetes.io/desired-replicas": str(replicas),
                           "deployment.kubernetes.io/max-replicas": str(replicas + max(1, -(-replicas // 4))),
                           "deployment.kubernetes.io/revision": "1"}, generation=1)
        rs_md["ownerReferences"] = [owner_dep]
        owner_rs = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": rs_name, "uid": rs_md["uid"],
                    "controller": True, "blockOwnerDeletion": True}
        rs_template = copy.deepcopy(template)
        rs_template["metadata"]["labels"]["pod-template-hash"] = rs_hash
        pods = []
        for index, plan in enumerate(plans):
            pod_name = f"{rs_name}-{safe_suffix(5, self.flavor.name, rs_name, index)}"
            pods.append(self.build_pod(namespace, pod_name, rs_template, plan, owner_rs, f"{rs_name}-",
                                       created + timedelta(seconds=2)))
        ready = sum(1 for p in pods if _pod_ready(p))
        rs_status: Obj = {"replicas": len(pods), "fullyLabeledReplicas": len(pods)}
        if ready:
            rs_status["readyReplicas"] = ready
            rs_status["availableReplicas"] = ready
        rs_status["observedGeneration"] = 1
        if not pods:
            rs_status.pop("fullyLabeledReplicas")
        rs_spec = {"replicas": replicas, "selector": {"matchLabels": {**selector, "pod-template-hash": rs_hash}},
                   "template": rs_template}
        rs_md["managedFields"] = [
            managed("kube-controller-manager", created + timedelta(seconds=1),
                    {"metadata": pick_keys(rs_md, "annotations", "labels", "ownerReferences"), "spec": rs_spec},
                    api_version="apps/v1"),
            managed("kube-controller-manager", ago(minutes=5 + pick(50, rs_name)), {"status": rs_status},
                    api_version="apps/v1", subresource="status"),
        ]
        self.add({"kind": "ReplicaSet", "apiVersion": "apps/v1", "metadata": rs_md, "spec": rs_spec,
                  "status": rs_status})
        spec: Obj = {
            "replicas": replicas, "selector": {"matchLabels": selector}, "template": template,
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}},
            "revisionHistoryLimit": 10, "progressDeadlineSeconds": 600,
        }
        status = deployment_status(replicas, len(pods), ready, rs_name, created, progress)
        md["managedFields"] = [
            managed(manager, created, {"metadata": pick_keys(md, "labels") | {"annotations": annotations or {}},
                                       "spec": {k: v for k, v in spec.items() if k != "revisionHistoryLimit"}},
                    api_version="apps/v1", operation=self.flavor.addon_api_operation if manager == self.flavor.addon_manager else "Update"),
            managed("kube-controller-manager", ago(minutes=5 + pick(50, name)),
                    {"metadata": {"annotations": {"deployment.kubernetes.io/revision": "1"}}, "status": status},
                    api_version="apps/v1", subresource="status"),
        ]
        return self.add({"kind": "Deployment", "apiVersion": "apps/v1", "metadata": md, "spec": spec,
                         "status": status})

    def add_daemonset(self, namespace: str, name: str, labels: dict[str, str], pod_spec: Obj,
                      plans: list[PodPlan], created: datetime, selector: dict[str, str] | None = None,
                      manager: str | None = None, annotations: dict[str, str] | None = None,
                      pod_annotations: dict[str, str] | None = None, max_unavailable: Any = 1) -> Obj:
        """A DaemonSet and one pod per plan (plans name the nodes it runs on)."""
        selector = selector or dict(labels)
        template = self._template(dict(selector), pod_spec, pod_annotations)
        manager = manager or self.flavor.addon_manager
        ds_annotations = {"deprecated.daemonset.template.generation": "1", **(annotations or {})}
        md = self.meta("DaemonSet", namespace, name, created, labels, ds_annotations, generation=1)
        revision_hash = safe_suffix(9 + pick(2, name), self.flavor.name, namespace, name, "rev")
        owner = {"apiVersion": "apps/v1", "kind": "DaemonSet", "name": name, "uid": md["uid"],
                 "controller": True, "blockOwnerDeletion": True}
        pods = []
        for plan in plans:
            pod_template = copy.deepcopy(template)
            pod_template["metadata"]["labels"].update(
                {"controller-revision-hash": revision_hash, "pod-template-generation": "1"})
            pod_spec_full = pod_template["spec"]
            pod_spec_full["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [{"matchFields": [
                    {"key": "metadata.name", "operator": "In", "values": [plan.node]}]}]}}}
            tolerations = pod_spec_full.setdefault("tolerations", [])
            for key, effect in DS_TOLERATIONS + ([("node.kubernetes.io/network-unavailable", "NoSchedule")]
                                                 if pod_spec_full.get("hostNetwork") else []):
                if not any(t.get("key") == key and t.get("effect") == effect for t in tolerations):
                    tolerations.append({"key": key, "operator": "Exists", "effect": effect})
            pod_name = f"{name}-{safe_suffix(5, self.flavor.name, name, plan.node)}"
            pods.append(self.build_pod(namespace, pod_name, pod_template, plan, owner, f"{name}-",
                                       created + timedelta(seconds=3)))
        desired = len(plans)
        ready = sum(1 for p in pods if _pod_ready(p))
        status: Obj = {"currentNumberScheduled": desired, "numberMisscheduled": 0,
                       "desiredNumberScheduled": desired, "numberReady": ready, "observedGeneration": 1}
        if desired:
            status["updatedNumberScheduled"] = desired
        if ready:
            status["numberAvailable"] = ready
        if desired - ready:
            status["numberUnavailable"] = desired - ready
        spec = {"selector": {"matchLabels": selector}, "template": template,
                "updateStrategy": {"type": "RollingUpdate",
                                   "rollingUpdate": {"maxUnavailable": max_unavailable, "maxSurge": 0}},
                "revisionHistoryLimit": 10}
        md["managedFields"] = [
            managed(manager, created, {"metadata": pick_keys(md, "labels") | {"annotations": annotations or {}},
                                       "spec": {k: v for k, v in spec.items() if k != "revisionHistoryLimit"}},
                    api_version="apps/v1"),
            managed("kube-controller-manager", ago(minutes=3 + pick(30, name)), {"status": status},
                    api_version="apps/v1", subresource="status"),
        ]
        return self.add({"kind": "DaemonSet", "apiVersion": "apps/v1", "metadata": md, "spec": spec,
                         "status": status})

    def add_static_pod(self, component: str, node: str, pod_spec: Obj, plan: PodPlan, created: datetime,
                       extra_annotations: dict[str, str]) -> Obj:
        """A kubelet mirror pod `<component>-<node>` for a manifest in /etc/kubernetes/manifests."""
        config_hash = hexid(32, self.flavor.name, component, node, "manifest")
        annotations = {
            **extra_annotations,
            "kubernetes.io/config.hash": config_hash,
            "kubernetes.io/config.mirror": config_hash,
            "kubernetes.io/config.seen": nano_ts(created - timedelta(seconds=9), component, node),
            "kubernetes.io/config.source": "file",
        }
        template = {"metadata": {"labels": {"component": component, "tier": "control-plane"}}, "spec": pod_spec}
        owner = {"apiVersion": "v1", "kind": "Node", "name": node, "uid": self.nodes[node].uid, "controller": True}
        plan.node = node
        return self.build_pod("kube-system", f"{component}-{node}", template, plan, owner, None, created,
                              static=True, extra_annotations=annotations)

    def add_job(self, namespace: str, name: str, pod_spec: Obj, plans: list[PodPlan], created: datetime,
                backoff_limit: int, failed_at: datetime | None) -> Obj:
        """A Job and its pods; a failed Job reports BackoffLimitExceeded."""
        job_uid = make_uid(self.flavor.name, "Job", namespace, name)
        selector = {"batch.kubernetes.io/controller-uid": job_uid}
        pod_labels = {"batch.kubernetes.io/controller-uid": job_uid, "batch.kubernetes.io/job-name": name,
                      "controller-uid": job_uid, "job-name": name}
        template = self._template(pod_labels, pod_spec)
        md = self.meta("Job", namespace, name, created, {"batch.kubernetes.io/controller-uid": job_uid,
                       "batch.kubernetes.io/job-name": name, "controller-uid": job_uid, "job-name": name},
                       generation=1)
        owner = {"apiVersion": "batch/v1", "kind": "Job", "name": name, "uid": md["uid"],
                 "controller": True, "blockOwnerDeletion": True}
        for index, plan in enumerate(plans):
            pod_name = f"{name}-{safe_suffix(5, self.flavor.name, name, index)}"
            self.build_pod(namespace, pod_name, template, plan, owner, f"{name}-", created + timedelta(minutes=index))
        spec = {"parallelism": 1, "completions": 1, "backoffLimit": backoff_limit,
                "selector": {"matchLabels": selector}, "template": template,
                "completionMode": "NonIndexed", "suspend": False}
        status: Obj = {}
        if failed_at is not None:
            status["conditions"] = [{
                "type": "Failed", "status": "True", "lastProbeTime": ts(failed_at),
                "lastTransitionTime": ts(failed_at), "reason": "BackoffLimitExceeded",
                "message": "Job has reached the specified backoff limit",
            }]
        status["startTime"] = ts(created)
        status["failed"] = len(plans)
        status["uncountedTerminatedPods"] = {}
        status["ready"] = 0
        md["managedFields"] = [
            managed("kubectl-create", created, {"spec": {k: v for k, v in spec.items() if k not in ("selector",)}},
                    api_version="batch/v1"),
            managed("kube-controller-manager", failed_at or created, {"status": status},
                    api_version="batch/v1", subresource="status"),
        ]
        return self.add({"kind": "Job", "apiVersion": "batch/v1", "metadata": md, "spec": spec, "status": status})

    # -- services, storage, events ----------------------------------------------------------------

    def add_service(self, namespace: str, name: str, ports: list[Obj], created: datetime,
                    selector: dict[str, str] | None, cluster_ip: str, service_type: str = "ClusterIP",
                    labels: dict[str, str] | None = None, annotations: dict[str, str] | None = None,
                    load_balancer: Obj | None = None, manager: str = "kubectl-client-side-apply") -> Obj:
        md = self.meta("Service", namespace, name, created, labels, annotations)
        full_ports = []
        for port in ports:
            full = {"name": port.get("name"), "protocol": port.get("protocol", "TCP"),
                    "appProtocol": port.get("appProtocol"), "port": port["port"],
                    "targetPort": port.get("targetPort", port["port"]), "nodePort": port.get("nodePort")}
            full_ports.append({k: v for k, v in full.items() if v is not None})
        spec: Obj = {"ports": full_ports}
        if selector is not None:
            spec["selector"] = selector
        spec.update({"clusterIP": cluster_ip, "clusterIPs": [cluster_ip], "type": service_type,
                     "sessionAffinity": "None"})
        if service_type in ("NodePort", "LoadBalancer"):
            spec["externalTrafficPolicy"] = "Cluster"
        spec.update({"ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack"})
        if service_type == "LoadBalancer":
            spec["allocateLoadBalancerNodePorts"] = True
        spec["internalTrafficPolicy"] = "Cluster"
        status: Obj = {"loadBalancer": load_balancer or {}}
        owned: Obj = {"metadata": pick_keys(md, "labels", "annotations"),
                      "spec": {k: v for k, v in spec.items() if k not in ("clusterIP", "clusterIPs", "ipFamilies")}}
        md["managedFields"] = [managed(manager, created, owned)]
        if load_balancer:
            md["managedFields"].append(managed("kube-controller-manager", created + timedelta(minutes=2),
                                               {"status": status}, subresource="status"))
        return self.add({"kind": "Service", "apiVersion": "v1", "metadata": md, "spec": spec, "status": status})

    def add_storageclass(self, name: str, provisioner: str, created: datetime, parameters: dict[str, str],
                         default: bool, binding_mode: str, expansion: bool = True,
                         labels: dict[str, str] | None = None) -> Obj:
        annotations = {"storageclass.kubernetes.io/is-default-class": "true"} if default else None
        md = self.meta("StorageClass", "", name, created, labels, annotations)
        obj: Obj = {"kind": "StorageClass", "apiVersion": "storage.k8s.io/v1", "metadata": md,
                    "provisioner": provisioner, "parameters": parameters, "reclaimPolicy": "Delete",
                    "allowVolumeExpansion": expansion, "volumeBindingMode": binding_mode}
        if not parameters:
            obj.pop("parameters")
        md["managedFields"] = [managed(self.flavor.addon_manager, created,
                                       {k: v for k, v in obj.items() if k not in ("kind", "apiVersion", "metadata")},
                                       api_version="storage.k8s.io/v1")]
        return self.add(obj)

    def add_pvc(self, namespace: str, name: str, size: str, storage_class: str, created: datetime,
                volume: str | None = None) -> Obj:
        annotations: dict[str, str] = {}
        if volume:
            annotations = {"pv.kubernetes.io/bind-completed": "yes", "pv.kubernetes.io/bound-by-controller": "yes",
                           "volume.beta.kubernetes.io/storage-provisioner": "blockvolume.csi.oraclecloud.com",
                           "volume.kubernetes.io/storage-provisioner": "blockvolume.csi.oraclecloud.com"}
        md = self.meta("PersistentVolumeClaim", namespace, name, created, None, annotations or None,
                       finalizers=["kubernetes.io/pvc-protection"])
        spec: Obj = {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": size}}}
        if volume:
            spec["volumeName"] = volume
        spec["storageClassName"] = storage_class
        spec["volumeMode"] = "Filesystem"
        status: Obj = {"phase": "Bound" if volume else "Pending"}
        if volume:
            status["accessModes"] = ["ReadWriteOnce"]
            status["capacity"] = {"storage": size}
        md["managedFields"] = [managed("kubectl-client-side-apply", created, {"spec": pick_keys(
            spec, "accessModes", "resources", "storageClassName", "volumeMode")})]
        if volume:
            md["managedFields"].append(managed("kube-controller-manager", created + timedelta(seconds=21),
                                               {"metadata": {"annotations": annotations}, "spec": {"volumeName": volume}}))
            md["managedFields"].append(managed("kube-controller-manager", created + timedelta(seconds=21),
                                               {"status": status}, subresource="status"))
        return self.add({"kind": "PersistentVolumeClaim", "apiVersion": "v1", "metadata": md, "spec": spec,
                         "status": status})

    def add_pv(self, name: str, claim: Obj, size: str, driver: str, handle: str, storage_class: str,
               zone_key: str, zone: str, created: datetime) -> Obj:
        md = self.meta("PersistentVolume", "", name, created, None,
                       {"pv.kubernetes.io/provisioned-by": driver, "volume.kubernetes.io/provisioner-deletion-secret-name": "",
                        "volume.kubernetes.io/provisioner-deletion-secret-namespace": ""},
                       finalizers=["kubernetes.io/pv-protection", "external-attacher/" + driver.replace(".", "-")])
        cmd = claim["metadata"]
        spec = {
            "capacity": {"storage": size},
            "csi": {"driver": driver, "volumeHandle": handle, "fsType": "ext4",
                    "volumeAttributes": {"storage.kubernetes.io/csiProvisionerIdentity": f"{int(created.timestamp() * 1000) - 86_400_000}-8081-{driver}"}},
            "accessModes": ["ReadWriteOnce"],
            "claimRef": {"kind": "PersistentVolumeClaim", "namespace": cmd["namespace"], "name": cmd["name"],
                         "uid": cmd["uid"], "apiVersion": "v1", "resourceVersion": cmd["resourceVersion"]},
            "persistentVolumeReclaimPolicy": "Delete",
            "storageClassName": storage_class,
            "volumeMode": "Filesystem",
            "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
                {"key": zone_key, "operator": "In", "values": [zone]}]}]}},
        }
        status = {"phase": "Bound", "lastPhaseTransitionTime": ts(created + timedelta(seconds=1))}
        if self.flavor.k8s_minor < 29:
            status.pop("lastPhaseTransitionTime")
        md["managedFields"] = [managed("csi-provisioner", created, {"spec": spec}),
                               managed("kube-controller-manager", created + timedelta(seconds=1),
                                       {"status": status}, subresource="status")]
        return self.add({"kind": "PersistentVolume", "apiVersion": "v1", "metadata": md, "spec": spec,
                         "status": status})

    def add_event(self, involved: Obj, reason: str, message: str, first: datetime, last: datetime | None = None,
                  count: int = 1, event_type: str = "Normal", component: str = "kubelet", host: str | None = None,
                  field_path: str | None = None, namespace: str | None = None) -> Obj:
        """A core/v1 Event as kubelet and the controllers record them."""
        last = last or first
        imd = involved["metadata"]
        namespace = namespace if namespace is not None else (imd.get("namespace") or "default")
        name = f"{imd['name']}.{_event_suffix(first, imd['name'], reason, message)}"
        ref: Obj = {"kind": involved["kind"]}
        if imd.get("namespace"):
            ref["namespace"] = imd["namespace"]
        ref["name"] = imd["name"]
        ref["uid"] = imd["name"] if involved["kind"] == "Node" else imd["uid"]
        ref["apiVersion"] = involved["apiVersion"]
        if involved["kind"] != "Node":
            ref["resourceVersion"] = imd["resourceVersion"]
        if field_path:
            ref["fieldPath"] = field_path
        source: Obj = {"component": component}
        if host:
            source["host"] = host
        md = self.meta("Event", namespace, name, first)
        event: Obj = {
            "kind": "Event", "apiVersion": "v1", "metadata": md, "involvedObject": ref, "reason": reason,
            "message": message, "source": source, "firstTimestamp": ts(first), "lastTimestamp": ts(last),
            "count": count, "type": event_type, "eventTime": None,
            "reportingComponent": component, "reportingInstance": host or "",
        }
        manager = {"kubelet": "kubelet"}.get(component, "kube-controller-manager")
        md["managedFields"] = [managed(manager, last, {k: v for k, v in event.items()
                                                       if k in ("count", "firstTimestamp", "involvedObject",
                                                                "lastTimestamp", "message", "reason",
                                                                "reportingComponent", "reportingInstance",
                                                                "source", "type")})]
        return self.add(event)

    def add_scheduler_event(self, pod: Obj, message: str, first: datetime, last: datetime, count: int) -> Obj:
        """A FailedScheduling event as default-scheduler records it (events.k8s.io/v1 series)."""
        pmd = pod["metadata"]
        name = f"{pmd['name']}.{_event_suffix(first, pmd['name'], 'FailedScheduling', message)}"
        md = self.meta("Event", pmd["namespace"], name, first)
        series = {"count": count, "lastObservedTime": micro_ts(last, pmd["name"], "series")}
        event: Obj = {
            "kind": "Event", "apiVersion": "v1", "metadata": md,
            "involvedObject": {"kind": "Pod", "namespace": pmd["namespace"], "name": pmd["name"],
                               "uid": pmd["uid"], "apiVersion": "v1", "resourceVersion": pmd["resourceVersion"]},
            "reason": "FailedScheduling", "message": message, "source": {}, "firstTimestamp": None,
            "lastTimestamp": None, "type": "Warning", "eventTime": micro_ts(first, pmd["name"], "first"),
            "series": series, "action": "Scheduling", "reportingComponent": "default-scheduler",
            "reportingInstance": self.flavor.scheduler_instance,
        }
        md["managedFields"] = [managed("kube-scheduler", last, {
            "action": "", "eventTime": "", "note": "", "reason": "", "regarding": {
                "apiVersion": "", "kind": "", "name": "", "namespace": "", "resourceVersion": "", "uid": ""},
            "reportingController": "", "reportingInstance": "", "series": series, "type": ""},
            api_version="events.k8s.io/v1")]
        return self.add(event)

    # -- derived objects --------------------------------------------------------------------------

    def finish(self) -> None:
        """Derive Endpoints from Services and pods, and node image lists from the pods they run."""
        for service in self.of_kind("Service"):
            self._add_endpoints(service)
        for node in self.of_kind("Node"):
            node["status"]["images"] = self._node_images(node["metadata"]["name"])
        self.objects.sort(key=lambda o: (o["kind"], o["metadata"].get("namespace", ""), o["metadata"]["name"]))

    def _add_endpoints(self, service: Obj) -> None:
        smd = service["metadata"]
        namespace, name = smd["namespace"], smd["name"]
        created = datetime.strptime(smd["creationTimestamp"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        selector = service["spec"].get("selector")
        annotations = None
        subsets: list[Obj] = []
        if name == "kubernetes" and namespace == "default":
            subsets = [{"addresses": [{"ip": ip} for ip, _ in self.api_server_endpoints],
                        "ports": [{"name": "https", "port": self.api_server_endpoints[0][1], "protocol": "TCP"}]}]
            labels: dict[str, str] | None = {"endpointslice.kubernetes.io/skip-mirror": "true"}
        elif selector:
            labels = dict(smd.get("labels", {})) or None
            ready, not_ready, target_ports = [], [], []
            for pod in self.of_kind("Pod", namespace):
                if not label_selector_matches(selector, pod["metadata"].get("labels", {})):
                    continue
                ip = pod["status"].get("podIP")
                if not ip or pod["status"]["phase"] in ("Failed", "Succeeded"):
                    continue
                address = {"ip": ip, "nodeName": pod["spec"]["nodeName"], "targetRef": {
                    "kind": "Pod", "namespace": namespace, "name": pod["metadata"]["name"],
                    "uid": pod["metadata"]["uid"]}}
                (ready if _pod_ready(pod) else not_ready).append(address)
                target_ports.append(pod)
            if ready or not_ready:
                ports = []
                for port in service["spec"]["ports"]:
                    target = port["targetPort"]
                    if isinstance(target, str):
                        target = _named_port(target_ports[0], target)
                    ep_port: Obj = {"name": port.get("name"), "port": target, "protocol": port["protocol"]}
                    ports.append({k: v for k, v in ep_port.items() if v is not None})
                subset: Obj = {}
                if ready:
                    subset["addresses"] = sorted(ready, key=lambda a: a["ip"])
                if not_ready:
                    subset["notReadyAddresses"] = sorted(not_ready, key=lambda a: a["ip"])
                subset["ports"] = ports
                subsets = [subset]
            annotations = {"endpoints.kubernetes.io/last-change-trigger-time": ts(ago(minutes=3 + pick(300, name)))}
        else:
            return
        md = self.meta("Endpoints", namespace, name, created + timedelta(seconds=1), labels, annotations)
        body: Obj = {"kind": "Endpoints", "apiVersion": "v1", "metadata": md}
        if subsets:
            body["subsets"] = subsets
        manager = "kube-apiserver" if name == "kubernetes" else "kube-controller-manager"
        md["managedFields"] = [managed(manager, created + timedelta(seconds=1),
                                       {"metadata": pick_keys(md, "labels", "annotations"), **({"subsets": subsets} if subsets else {})})]
        self.add(body)

    def _node_images(self, node: str) -> list[Obj]:
        images = {self.pause_image()}
        for pod in self.of_kind("Pod"):
            if pod["spec"].get("nodeName") != node:
                continue
            for container in pod["spec"].get("initContainers", []) + pod["spec"]["containers"]:
                status = next((s for s in pod["status"].get("containerStatuses", []) +
                               pod["status"].get("initContainerStatuses", [])
                               if s["name"] == container["name"]), None)
                if status is None or status["imageID"]:
                    images.add(container["image"])
        out = []
        for image in images:
            names = [image_repo(image) + "@" + image_digest(image), normalized_image(image)]
            out.append({"names": names, "sizeBytes": 300_000 + pick(120_000_000, "size", image)})
        return sorted(out, key=lambda i: (-i["sizeBytes"], i["names"][0]))

    def pause_image(self) -> str:
        return PAUSE_IMAGES[self.flavor.name]


PAUSE_IMAGES = {
    "aks": "mcr.microsoft.com/oss/kubernetes/pause:3.6",
    "eks": "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/pause:3.5",
    "oke": "iad.ocir.io/axoxdievda5j/oke-public-pause:3.9",
    "kubeadm": "registry.k8s.io/pause:3.9",
}


def _event_suffix(first: datetime, *parts: object) -> str:
    # Event names end in the hex UnixNano of the first occurrence.
    return format(int(first.timestamp()) * 1_000_000_000 + pick(1_000_000_000, *parts), "x")


def _pod_ready(pod: Obj) -> bool:
    return any(c["type"] == "Ready" and c["status"] == "True" for c in pod["status"].get("conditions", []))


def _named_port(pod: Obj, port_name: str) -> int:
    for container in pod["spec"]["containers"]:
        for port in container.get("ports", []):
            if port.get("name") == port_name:
                return port["containerPort"]
    raise KeyError(port_name)


def deployment_status(replicas: int, current: int, ready: int, rs_name: str, created: datetime,
                      progress: str) -> Obj:
    """Deployment status and its Available/Progressing conditions."""
    max_unavailable = replicas * 25 // 100
    status: Obj = {"observedGeneration": 1}
    if current:
        status["replicas"] = current
        status["updatedReplicas"] = current
    if ready:
        status["readyReplicas"] = ready
        status["availableReplicas"] = ready
    if replicas - ready > 0:
        status["unavailableReplicas"] = replicas - ready
    available = ready >= replicas - max_unavailable
    changed = ago(hours=2 + pick(20, rs_name)) if not available else created + timedelta(seconds=40)
    conditions = [{
        "type": "Available", "status": "True" if available else "False",
        "lastUpdateTime": ts(changed), "lastTransitionTime": ts(changed),
        "reason": "MinimumReplicasAvailable" if available else "MinimumReplicasUnavailable",
        "message": "Deployment has minimum availability." if available
        else "Deployment does not have minimum availability.",
    }]
    progress = progress or ("complete" if ready == replicas else "progressing")
    if progress == "complete":
        conditions.append({"type": "Progressing", "status": "True",
                           "lastUpdateTime": ts(created + timedelta(seconds=40)),
                           "lastTransitionTime": ts(created + timedelta(seconds=2)),
                           "reason": "NewReplicaSetAvailable",
                           "message": f'ReplicaSet "{rs_name}" has successfully progressed.'})
    elif progress == "deadline":
        conditions.append({"type": "Progressing", "status": "False",
                           "lastUpdateTime": ts(created + timedelta(minutes=10, seconds=2)),
                           "lastTransitionTime": ts(created + timedelta(minutes=10, seconds=2)),
                           "reason": "ProgressDeadlineExceeded",
                           "message": f'ReplicaSet "{rs_name}" has timed out progressing.'})
    else:
        conditions.append({"type": "Progressing", "status": "True",
                           "lastUpdateTime": ts(created + timedelta(seconds=2)),
                           "lastTransitionTime": ts(created + timedelta(seconds=2)),
                           "reason": "ReplicaSetUpdated",
                           "message": f'ReplicaSet "{rs_name}" is progressing.'})
    status["conditions"] = conditions
    return status


# ---------------------------------------------------------------------------------------------
# Spec helpers (what a manifest author writes; the API defaults are added by the model)
# ---------------------------------------------------------------------------------------------


def ctr(name: str, image: str, *, command: list[str] | None = None, args: list[str] | None = None,
        ports: list[Obj] | None = None, env: list[Obj] | None = None, env_from: list[Obj] | None = None,
        requests: dict[str, str] | None = None, limits: dict[str, str] | None = None,
        mounts: list[Obj] | None = None, liveness: Obj | None = None, readiness: Obj | None = None,
        startup: Obj | None = None, security: Obj | None = None, pull: str | None = None) -> Obj:
    """A container as written in a manifest."""
    out: Obj = {"name": name, "image": image}
    if command:
        out["command"] = command
    if args:
        out["args"] = args
    if ports:
        out["ports"] = ports
    if env_from:
        out["envFrom"] = env_from
    if env:
        out["env"] = env
    resources: Obj = {}
    if limits:
        resources["limits"] = limits
    if requests:
        resources["requests"] = requests
    out["resources"] = resources
    if mounts:
        out["volumeMounts"] = mounts
    if liveness:
        out["livenessProbe"] = liveness
    if readiness:
        out["readinessProbe"] = readiness
    if startup:
        out["startupProbe"] = startup
    if pull:
        out["imagePullPolicy"] = pull
    if security is not None:
        out["securityContext"] = security
    return out


def port(name: str | None, number: int, protocol: str = "TCP", host_port: int | None = None) -> Obj:
    out: Obj = {}
    if name:
        out["name"] = name
    if host_port is not None:
        out["hostPort"] = host_port
    out["containerPort"] = number
    out["protocol"] = protocol
    return out


def mount(name: str, path: str, read_only: bool = False, sub_path: str | None = None) -> Obj:
    out: Obj = {"name": name}
    if read_only:
        out["readOnly"] = True
    out["mountPath"] = path
    if sub_path:
        out["subPath"] = sub_path
    return out


def http_probe(path: str, probe_port: int | str, initial: int = 0, period: int = 10, timeout: int = 1,
               failure: int = 3, host: str | None = None, scheme: str = "HTTP") -> Obj:
    get: Obj = {"path": path, "port": probe_port}
    if host:
        get["host"] = host
    get["scheme"] = scheme
    out: Obj = {"httpGet": get}
    if initial:
        out["initialDelaySeconds"] = initial
    out.update({"timeoutSeconds": timeout, "periodSeconds": period, "successThreshold": 1,
                "failureThreshold": failure})
    return out


def exec_probe(command: list[str], initial: int = 0, period: int = 10, timeout: int = 1, failure: int = 3) -> Obj:
    out: Obj = {"exec": {"command": command}}
    if initial:
        out["initialDelaySeconds"] = initial
    out.update({"timeoutSeconds": timeout, "periodSeconds": period, "successThreshold": 1,
                "failureThreshold": failure})
    return out


def env_value(name: str, value: str) -> Obj:
    return {"name": name, "value": value}


def env_field(name: str, path: str) -> Obj:
    return {"name": name, "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": path}}}


def cm_volume(name: str, configmap: str, items: list[Obj] | None = None, optional: bool | None = None,
              mode: int | None = None) -> Obj:
    source: Obj = {"name": configmap}
    if items:
        source["items"] = items
    if mode is not None:
        source["defaultMode"] = mode
    if optional is not None:
        source["optional"] = optional
    return {"name": name, "configMap": source}


def host_volume(name: str, path: str, host_type: str = "") -> Obj:
    return {"name": name, "hostPath": {"path": path, "type": host_type}}


def empty_volume(name: str, medium: str | None = None) -> Obj:
    return {"name": name, "emptyDir": {"medium": medium} if medium else {}}


def pvc_volume(name: str, claim: str) -> Obj:
    return {"name": name, "persistentVolumeClaim": {"claimName": claim}}


def toleration(key: str | None = None, operator: str = "Exists", effect: str | None = None,
               value: str | None = None) -> Obj:
    out: Obj = {}
    if key:
        out["key"] = key
    out["operator"] = operator
    if value is not None:
        out["value"] = value
    if effect:
        out["effect"] = effect
    return out


def last_applied(manifest: Obj) -> dict[str, str]:
    """The annotation `kubectl apply` leaves on what it created."""
    return {"kubectl.kubernetes.io/last-applied-configuration": compact_json(manifest) + "\n"}


# ---------------------------------------------------------------------------------------------
# Nodes
# ---------------------------------------------------------------------------------------------


def node_conditions(heartbeat: datetime, since: datetime, network: tuple[str, str] | None = None,
                    memory_pressure: datetime | None = None, lost: datetime | None = None,
                    extra: list[tuple[str, str, str]] | None = None) -> list[Obj]:
    """Node conditions: node-problem-detector ones first, then the kubelet's."""
    out: list[Obj] = []
    for kind, reason, message in extra or []:
        out.append({"type": kind, "status": "False", "lastHeartbeatTime": ts(heartbeat - timedelta(seconds=41)),
                    "lastTransitionTime": ts(since + timedelta(seconds=38)), "reason": reason, "message": message})
    if network:
        out.append({"type": "NetworkUnavailable", "status": "False",
                    "lastHeartbeatTime": ts(since + timedelta(seconds=31)),
                    "lastTransitionTime": ts(since + timedelta(seconds=31)),
                    "reason": network[0], "message": network[1]})
    standard = [
        ("MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
        ("DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
        ("PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
        ("Ready", "KubeletReady", "kubelet is posting ready status"),
    ]
    for kind, reason, message in standard:
        condition: Obj = {"type": kind, "status": "True" if kind == "Ready" else "False",
                          "lastHeartbeatTime": ts(heartbeat),
                          "lastTransitionTime": ts(since + timedelta(seconds=14 if kind == "Ready" else 0)),
                          "reason": reason, "message": message}
        if kind == "MemoryPressure" and memory_pressure:
            condition.update({"status": "True", "lastTransitionTime": ts(memory_pressure),
                              "reason": "KubeletHasInsufficientMemory",
                              "message": "kubelet has insufficient memory available"})
        if lost:
            condition.update({"status": "Unknown", "lastHeartbeatTime": ts(lost - timedelta(seconds=40)),
                              "lastTransitionTime": ts(lost), "reason": "NodeStatusUnknown",
                              "message": "Kubelet stopped posting node status."})
        out.append(condition)
    return out


def node_info(cluster: str, node: str, kernel: str, os_image: str, runtime: str, kubelet: str,
              kube_proxy: str | None = None) -> Obj:
    machine = hexid(32, cluster, node, "machine")
    return {
        "machineID": machine,
        "systemUUID": str(uuid.UUID(hexid(32, cluster, node, "system"))),
        "bootID": make_uid(cluster, node, "boot"),
        "kernelVersion": kernel,
        "osImage": os_image,
        "containerRuntimeVersion": runtime,
        "kubeletVersion": kubelet,
        "kubeProxyVersion": kube_proxy or kubelet,
        "operatingSystem": "linux",
        "architecture": "amd64",
    }


# ---------------------------------------------------------------------------------------------
# Container logs (what `kubectl logs` would return), stable per pod
# ---------------------------------------------------------------------------------------------


def klog(severity: str, moment: datetime, source: str, message: str, *parts: object) -> str:
    return f"{severity}{klog_time(moment, source, message, *parts)}       1 {source}] {message}"


def coredns_log(version: str, go: str, commit: str) -> str:
    return "\n".join([
        ".:53",
        f"[INFO] plugin/reload: Running configuration SHA512 = {hexid(128, 'corefile', version)}",
        f"CoreDNS-{version}",
        f"linux/amd64, {go}, {commit}",
    ]) + "\n"


def kube_proxy_log(node: str, node_ip: str, started: datetime, mode: str = "iptables") -> str:
    lines = [
        klog("I", started, "server_linux.go:69", f'"Using {mode} proxy"', node),
        klog("I", started, "server.go:1050", f'"Successfully retrieved node IP(s)" IPs=["{node_ip}"]', node),
        klog("I", started + timedelta(milliseconds=40), "conntrack.go:58",
             '"Setting nf_conntrack_max" nfConntrackMax=131072', node),
        klog("I", started + timedelta(milliseconds=90), "server.go:865", '"Version info" version="v1.29.7"', node),
        klog("I", started + timedelta(milliseconds=120), "config.go:188",
             '"Starting service config controller"', node),
        klog("I", started + timedelta(milliseconds=121), "config.go:97",
             '"Starting endpoint slice config controller"', node),
        klog("I", started + timedelta(milliseconds=122), "config.go:315", '"Starting node config controller"', node),
        klog("I", started + timedelta(milliseconds=230), "shared_informer.go:318",
             '"Caches are synced" controller="service config"', node),
        klog("I", started + timedelta(milliseconds=231), "shared_informer.go:318",
             '"Caches are synced" controller="endpoint slice config"', node),
        klog("I", started + timedelta(milliseconds=232), "shared_informer.go:318",
             '"Caches are synced" controller="node config"', node),
    ]
    return "\n".join(lines) + "\n"


def json_log_lines(started: datetime, caller_prefix: str, entries: list[tuple[str, float, str, str]]) -> str:
    """Zap-style JSON lines (etcd, aws-node): (level, seconds after start, caller, message)."""
    out = []
    for level, offset, caller, message in entries:
        moment = started + timedelta(seconds=offset, microseconds=pick(900, caller, message, offset))
        stamp = moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        out.append(json.dumps({"level": level, "ts": stamp, "caller": f"{caller_prefix}{caller}", "msg": message},
                              separators=(",", ":")))
    return "\n".join(out) + "\n"


def app_log(started: datetime, lines: list[tuple[float, str, str]], fmt: str = "logfmt") -> str:
    """Application log lines: (seconds after start, level, message)."""
    out = []
    for offset, level, message in lines:
        moment = started + timedelta(seconds=offset)
        stamp = moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{moment.microsecond // 1000:03d}Z"
        if fmt == "logfmt":
            out.append(f'time={stamp} level={level} msg="{message}"')
        else:
            out.append(f"{stamp} {level.upper():5} {message}")
    return "\n".join(out) + "\n"


def nginx_access_log(started: datetime, count: int, source: str, paths: list[str]) -> str:
    out = []
    for i in range(count):
        moment = started + timedelta(seconds=37 * i + pick(30, source, i))
        path = paths[pick(len(paths), source, i, "path")]
        client = f"10.{pick(3, source, i, 'a') + 224}.{pick(4, source, i, 'b')}.{pick(250, source, i, 'c') + 2}"
        size = 200 + pick(9000, source, i, "size")
        stamp = moment.strftime("%d/%b/%Y:%H:%M:%S +0000")
        out.append(f'{client} - - [{stamp}] "GET {path} HTTP/1.1" 200 {size} "-" "kube-probe/1.29" "-"'
                   if path == "/healthz" else
                   f'{client} - - [{stamp}] "GET {path} HTTP/1.1" 200 {size} "-" "Mozilla/5.0" "-"')
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# Shared cluster content
# ---------------------------------------------------------------------------------------------

ROOT_CA_DESCRIPTION = (
    "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints"
    " such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across"
    " distributions of Kubernetes clusters."
)


def public_cert(*parts: object) -> str:
    """A PEM block standing in for a cluster CA certificate (public data; derived, not real)."""
    import base64

    body = base64.b64encode(b"".join(digest(i, *parts) for i in range(27))[:810]).decode()
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return "-----BEGIN CERTIFICATE-----\n" + "\n".join(lines) + "\n-----END CERTIFICATE-----\n"


def add_root_ca(cluster: Cluster, namespace: str, created: datetime) -> None:
    cluster.add_configmap(namespace, "kube-root-ca.crt", {"ca.crt": public_cert(cluster.flavor.name, "ca")},
                          created, annotations={"kubernetes.io/description": ROOT_CA_DESCRIPTION},
                          manager="kube-controller-manager")


def add_extension_apiserver_authentication(cluster: Cluster, created: datetime) -> None:
    cluster.add_configmap("kube-system", "extension-apiserver-authentication", {
        "client-ca-file": public_cert(cluster.flavor.name, "client-ca"),
        "requestheader-allowed-names": '["front-proxy-client"]',
        "requestheader-client-ca-file": public_cert(cluster.flavor.name, "front-proxy-ca"),
        "requestheader-extra-headers-prefix": '["X-Remote-Extra-"]',
        "requestheader-group-headers": '["X-Remote-Group"]',
        "requestheader-username-headers": '["X-Remote-User"]',
    }, created, manager="kube-apiserver")


def add_default_namespaces(cluster: Cluster, created: datetime, extra: Iterable[tuple[str, datetime]]) -> None:
    """The four namespaces every cluster starts with, the application ones, and their CA bundles."""
    when = {name: created for name in ("default", "kube-node-lease", "kube-public", "kube-system")}
    when.update(extra)
    for name, made in when.items():
        cluster.add_namespace(name, made)
        # kube-controller-manager publishes kube-root-ca.crt into each namespace shortly after it exists
        add_root_ca(cluster, name, made + timedelta(seconds=15))


def kube_dns_service_ports() -> list[Obj]:
    return [{"name": "dns", "port": 53, "protocol": "UDP", "targetPort": 53},
            {"name": "dns-tcp", "port": 53, "protocol": "TCP", "targetPort": 53},
            {"name": "metrics", "port": 9153, "protocol": "TCP", "targetPort": 9153}]


COREFILE_UPSTREAM = """.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30
    loop
    reload
    loadbalance
}
"""

# From the AKS seed (kube-system/coredns), without the private-cluster hosts block.
COREFILE_AKS = """.:53 {
    errors
    ready
    health
    kubernetes cluster.local in-addr.arpa ip6.arpa {
      pods insecure
      fallthrough in-addr.arpa ip6.arpa
    }
    prometheus :9153
    forward . /etc/resolv.conf
    cache 30
    loop
    reload
    loadbalance
    import custom/*.override
}
import custom/*.server
"""


def coredns_spec(image: str, service_account: str = "coredns", extra_volumes: list[Obj] | None = None,
                 extra_mounts: list[Obj] | None = None, memory_limit: str = "170Mi",
                 items: list[Obj] | None = None, node_selector: dict[str, str] | None = None,
                 tolerations: list[Obj] | None = None) -> Obj:
    """The CoreDNS pod spec kubeadm and the managed services all derive from."""
    return {
        "volumes": [cm_volume("config-volume", "coredns", items=items or [{"key": "Corefile", "path": "Corefile"}]),
                    *(extra_volumes or [])],
        "containers": [ctr(
            "coredns", image, args=["-conf", "/etc/coredns/Corefile"],
            ports=[port("dns", 53, "UDP"), port("dns-tcp", 53, "TCP"), port("metrics", 9153, "TCP")],
            limits={"memory": memory_limit}, requests={"cpu": "100m", "memory": "70Mi"},
            mounts=[mount("config-volume", "/etc/coredns", read_only=True), *(extra_mounts or [])],
            liveness=http_probe("/health", 8080, initial=60, timeout=5, failure=5),
            readiness=http_probe("/ready", 8181),
            security={"capabilities": {"add": ["NET_BIND_SERVICE"], "drop": ["ALL"]},
                      "allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True},
        )],
        "dnsPolicy": "Default",
        "nodeSelector": node_selector or {"kubernetes.io/os": "linux"},
        "serviceAccountName": service_account,
        "tolerations": tolerations or [toleration("CriticalAddonsOnly"),
                                       toleration("node-role.kubernetes.io/control-plane", effect="NoSchedule")],
        "priorityClassName": "system-cluster-critical",
    }


def kube_proxy_spec(image: str, command: list[str], extra_volumes: list[Obj] | None = None,
                    extra_mounts: list[Obj] | None = None, requests: dict[str, str] | None = None,
                    node_selector: dict[str, str] | None = None) -> Obj:
    """kube-proxy DaemonSet pod spec (kubeadm's, from the seed; managed services adjust it)."""
    return {
        "volumes": [*(extra_volumes or []), host_volume("xtables-lock", "/run/xtables.lock", "FileOrCreate"),
                    host_volume("lib-modules", "/lib/modules")],
        "containers": [ctr("kube-proxy", image, command=command,
                           env=[env_field("NODE_NAME", "spec.nodeName")], requests=requests,
                           mounts=[*(extra_mounts or []), mount("xtables-lock", "/run/xtables.lock"),
                                   mount("lib-modules", "/lib/modules", read_only=True)],
                           security={"privileged": True})],
        "nodeSelector": node_selector or {"kubernetes.io/os": "linux"},
        "serviceAccountName": "kube-proxy",
        "hostNetwork": True,
        "tolerations": [toleration(), ],
        "priorityClassName": "system-node-critical",
    }


def crashloop(restarts: int, last_reason: str, exit_code: int, last_started: datetime,
              last_finished: datetime) -> Run:
    """A container in CrashLoopBackOff after `restarts` restarts."""
    return Run(state="waiting", reason="CrashLoopBackOff", restarts=restarts, last_reason=last_reason,
               last_exit_code=exit_code, last_started=last_started, last_finished=last_finished,
               message="back-off 5m0s restarting failed container={container} pod={pod}_{namespace}({uid})")


def running(restarts: int = 0, last_reason: str = "", last_exit_code: int = 0,
            started: datetime | None = None, last_started: datetime | None = None,
            last_finished: datetime | None = None, ready: bool | None = None) -> Run:
    return Run(restarts=restarts, last_reason=last_reason, last_exit_code=last_exit_code, started=started,
               last_started=last_started, last_finished=last_finished, ready=ready)


# ---------------------------------------------------------------------------------------------
# AKS: kubenet cluster, three VMSS nodes, a shop application (seed 000 for kube-system)
# ---------------------------------------------------------------------------------------------

AKS_SUBSCRIPTION = "6f1c9a52-3d8e-4b7a-a0c4-9e2f51d7b803"
AKS_NODE_RG = "mc_rg-shop-prod_aks-shop-prod_eastus"
AKS_VERSION = "v1.29.7"
MCR = "mcr.microsoft.com/oss/kubernetes"


def aks_node_labels(name: str, index: int) -> dict[str, str]:
    return {
        "agentpool": "nodepool1",
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/instance-type": "Standard_D4s_v3",
        "beta.kubernetes.io/os": "linux",
        "failure-domain.beta.kubernetes.io/region": "eastus",
        "failure-domain.beta.kubernetes.io/zone": "0",
        "kubernetes.azure.com/agentpool": "nodepool1",
        "kubernetes.azure.com/cluster": "MC_rg-shop-prod_aks-shop-prod_eastus",
        "kubernetes.azure.com/consolidated-additional-properties": make_uid("aks", "props"),
        "kubernetes.azure.com/kubelet-identity-client-id": make_uid("aks", "kubelet-identity"),
        "kubernetes.azure.com/mode": "system",
        "kubernetes.azure.com/node-image-version": "AKSUbuntu-2204gen2containerd-202408.27.0",
        "kubernetes.azure.com/nodepool-type": "VirtualMachineScaleSets",
        "kubernetes.azure.com/os-sku": "Ubuntu",
        "kubernetes.azure.com/role": "agent",
        "kubernetes.azure.com/storageprofile": "managed",
        "kubernetes.azure.com/storagetier": "Premium_LRS",
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "kubernetes.io/role": "agent",
        "node-role.kubernetes.io/agent": "",
        "node.kubernetes.io/instance-type": "Standard_D4s_v3",
        "storageprofile": "managed",
        "storagetier": "Premium_LRS",
        "topology.disk.csi.azure.com/zone": "",
        "topology.kubernetes.io/region": "eastus",
        "topology.kubernetes.io/zone": "0",
    }


AKS_NPD_CONDITIONS = [
    ("FrequentContainerdRestart", "NoFrequentContainerdRestart", "containerd is functioning properly"),
    ("FilesystemCorruptionProblem", "FilesystemIsOK", "Filesystem is healthy"),
    ("KernelDeadlock", "KernelHasNoDeadlock", "kernel has no deadlock"),
    ("FrequentKubeletRestart", "NoFrequentKubeletRestart", "kubelet is functioning properly"),
    ("ReadonlyFilesystem", "FilesystemIsNotReadOnly", "Filesystem is not read-only"),
    ("VMEventScheduled", "NoVMEventScheduled", "VM has no scheduled event"),
    ("ContainerRuntimeProblem", "ContainerRuntimeIsUp", "container runtime service is up"),
    ("KubeletProblem", "KubeletIsUp", "kubelet service is up"),
]


def build_aks() -> Cluster:
    created = ago(days=11, hours=3, minutes=12)
    flavor = Flavor("aks", 29, "containerd", created, "default-scheduler", "kubectl-client-side-apply")
    cluster = Cluster(flavor, [("20.62.143.17", 443)])
    shop_created = ago(days=9, hours=6)
    add_default_namespaces(cluster, created, [("shop", shop_created)])

    nodes = []
    for index in range(3):
        name = f"aks-nodepool1-12345678-vmss00000{index}"
        ip = f"10.224.0.{4 + index}"
        node_created = ago(days=7, hours=2, minutes=index) if index < 2 else ago(days=2, hours=5, minutes=40)
        memory_pressure = ago(minutes=26) if index == 2 else None
        spec: Obj = {"podCIDR": f"10.244.{index}.0/24", "podCIDRs": [f"10.244.{index}.0/24"],
                     "providerID": f"azure:///subscriptions/{AKS_SUBSCRIPTION}/resourceGroups/{AKS_NODE_RG}"
                                   f"/providers/Microsoft.Compute/virtualMachineScaleSets/aks-nodepool1-12345678-vmss"
                                   f"/virtualMachines/{index}"}
        if memory_pressure:
            spec["taints"] = [{"key": "node.kubernetes.io/memory-pressure", "effect": "NoSchedule",
                               "timeAdded": ts(memory_pressure + timedelta(seconds=1))}]
        nodes.append(cluster.add_node(
            name, ip, node_created, aks_node_labels(name, index),
            {"csi.volume.kubernetes.io/nodeid": json.dumps({"disk.csi.azure.com": name, "file.csi.azure.com": name},
                                                           separators=(",", ":")),
             "node.alpha.kubernetes.io/ttl": "0",
             "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
            spec,
            {"cpu": "4", "ephemeral-storage": "129886128Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
             "memory": "16375060Ki", "pods": "110"},
            {"cpu": "3860m", "ephemeral-storage": "119703055367", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
             "memory": "12879636Ki", "pods": "110"},
            node_info("aks", name, "5.15.0-1071-azure", "Ubuntu 22.04.4 LTS", "containerd://1.7.20-1", AKS_VERSION),
            node_conditions(ago(seconds=38 + index * 7), node_created, ("RouteCreated", "RouteController created a route"),
                            memory_pressure=memory_pressure, extra=AKS_NPD_CONDITIONS),
            [{"type": "InternalIP", "address": ip}, {"type": "Hostname", "address": name}],
            f"10.244.{index}.", 2,
        ))
    node_names = [n["metadata"]["name"] for n in nodes]
    addon_labels = {"addonmanager.kubernetes.io/mode": "Reconcile", "kubernetes.azure.com/managedby": "aks"}

    # kube-system ConfigMaps (seed 000: `kubectl get configmaps -n kube-system`)
    cluster.add_configmap("kube-system", "azure-ip-masq-agent-config", {
        "ip-masq-agent": "nonMasqueradeCIDRs:\n  - 10.244.0.0/16\n  - 10.224.0.0/12\nmasqLinkLocal: true\n"},
        created, labels={"addonmanager.kubernetes.io/mode": "EnsureExists", "component": "ip-masq-agent",
                         "kubernetes.io/cluster-service": "true"})
    coredns_labels = {"addonmanager.kubernetes.io/mode": "Reconcile", "k8s-app": "kube-dns",
                      "kubernetes.io/cluster-service": "true"}
    cluster.add_configmap("kube-system", "coredns", {"Corefile": COREFILE_AKS}, created, labels=coredns_labels,
                          annotations=last_applied({"apiVersion": "v1", "data": {"Corefile": COREFILE_AKS},
                                                    "kind": "ConfigMap", "metadata": {"annotations": {},
                                                    "labels": coredns_labels, "name": "coredns",
                                                    "namespace": "kube-system"}}))
    cluster.add_configmap("kube-system", "coredns-autoscaler", {
        "linear": '{"coresPerReplica":512,"includeUnschedulableNodes":true,"min":2,"nodesPerReplica":8,'
                  '"preventSinglePointFailure":true}'}, created + timedelta(minutes=1),
        labels={"addonmanager.kubernetes.io/mode": "EnsureExists"}, manager="cluster-proportional-autoscaler")
    cluster.add_configmap("kube-system", "coredns-custom", None, created,
                          labels={"addonmanager.kubernetes.io/mode": "EnsureExists", "k8s-app": "kube-dns",
                                  "kubernetes.io/cluster-service": "true"})
    add_extension_apiserver_authentication(cluster, created)
    overlay = {"ccpEtag": make_uid("aks", "ccp-etag"), "isSLA": "false",
               "lastUpgradeTime": "2024-09-04T09:47:31.218734552Z",
               "overlaymgrversionGoal": "Version: v20240826.240829.1 - Branch: refs/heads/official/v20240826"
                                        " - git SHA: 8f2b1c7e4 - Build date / time: 2024-08-29T17:02:11Z"}
    overlay_labels = {"addonmanager.kubernetes.io/mode": "Reconcile", "k8s-app": "overlay-upgrade"}
    cluster.add_configmap("kube-system", "overlay-upgrade-data", overlay, created + timedelta(seconds=3),
                          labels=overlay_labels,
                          annotations=last_applied({"apiVersion": "v1", "data": overlay, "kind": "ConfigMap",
                                                    "metadata": {"annotations": {}, "labels": overlay_labels,
                                                                 "name": "overlay-upgrade-data",
                                                                 "namespace": "kube-system"}}))

    # kube-system DaemonSets (seed 000: `kubectl get all -n kube-system`)
    def ds_plans() -> list[PodPlan]:
        return [PodPlan(n) for n in node_names]

    cluster.add_daemonset("kube-system", "azure-ip-masq-agent",
                          {**addon_labels, "component": "azure-ip-masq-agent", "kubernetes.io/cluster-service": "true",
                           "tier": "node"},
                          {"volumes": [{"name": "azure-ip-masq-agent-config-volume", "projected": {"sources": [
                              {"configMap": {"name": "azure-ip-masq-agent-config", "items": [
                                  {"key": "ip-masq-agent", "path": "ip-masq-agent", "mode": 444}], "optional": True}}],
                              "defaultMode": 420}}],
                           "containers": [ctr("azure-ip-masq-agent", "mcr.microsoft.com/aks/ip-masq-agent-v2:v0.1.11",
                                              args=["--v=2", "--resync-interval=60"],
                                              limits={"cpu": "500m", "memory": "250Mi"},
                                              requests={"cpu": "100m", "memory": "50Mi"},
                                              mounts=[mount("azure-ip-masq-agent-config-volume", "/etc/config",
                                                            read_only=True)],
                                              security={"capabilities": {"add": ["NET_ADMIN", "NET_RAW"]}})],
                           "nodeSelector": {"kubernetes.io/os": "linux"}, "hostNetwork": True,
                           "tolerations": [toleration("CriticalAddonsOnly"), toleration(effect="NoExecute"),
                                           toleration(effect="NoSchedule")],
                           "priorityClassName": "system-node-critical"},
                          ds_plans(), created, selector={"k8s-app": "azure-ip-masq-agent", "tier": "node"})
    cluster.add_daemonset("kube-system", "cloud-node-manager",
                          {**addon_labels, "component": "cloud-node-manager", "kubernetes.io/cluster-service": "true"},
                          {"containers": [ctr("cloud-node-manager", f"{MCR}/azure-cloud-node-manager:v1.29.8",
                                              command=["cloud-node-manager", "--node-name=$(NODE_NAME)",
                                                       "--wait-routes=true"],
                                              env=[env_field("NODE_NAME", "spec.nodeName")],
                                              limits={"cpu": "2", "memory": "512Mi"},
                                              requests={"cpu": "50m", "memory": "50Mi"})],
                           "nodeSelector": {"kubernetes.io/os": "linux"}, "serviceAccountName": "cloud-node-manager",
                           "hostNetwork": True, "tolerations": [toleration(effect="NoSchedule"),
                                                                toleration(effect="NoExecute")],
                           "priorityClassName": "system-node-critical"},
                          ds_plans(), created, selector={"k8s-app": "cloud-node-manager"})
    for driver, plugin_image in (("azuredisk", "azuredisk-csi:v1.29.9"), ("azurefile", "azurefile-csi:v1.29.6")):
        short = "disk" if driver == "azuredisk" else "file"
        csi_spec = {
            "volumes": [host_volume("socket-dir", f"/var/lib/kubelet/plugins/{short}.csi.azure.com", "DirectoryOrCreate"),
                        host_volume("mountpoint-dir", "/var/lib/kubelet/", "DirectoryOrCreate"),
                        host_volume("registration-dir", "/var/lib/kubelet/plugins_registry/", "DirectoryOrCreate"),
                        host_volume("azure-cred", "/etc/kubernetes/", "DirectoryOrCreate"),
                        host_volume("device-dir", "/dev", "Directory")],
            "containers": [
                ctr("liveness-probe", "mcr.microsoft.com/oss/kubernetes-csi/livenessprobe:v2.12.0",
                    args=["--csi-address=/csi/csi.sock", "--probe-timeout=3s", "--health-port=2902" if short == "disk" else "--health-port=29613"],
                    limits={"memory": "100Mi"}, requests={"cpu": "10m", "memory": "20Mi"},
                    mounts=[mount("socket-dir", "/csi")]),
                ctr("node-driver-registrar", "mcr.microsoft.com/oss/kubernetes-csi/csi-node-driver-registrar:v2.10.1",
                    args=["--csi-address=$(ADDRESS)", "--kubelet-registration-path=$(DRIVER_REG_SOCK_PATH)", "--v=2"],
                    env=[env_value("ADDRESS", "/csi/csi.sock"),
                         env_value("DRIVER_REG_SOCK_PATH", f"/var/lib/kubelet/plugins/{short}.csi.azure.com/csi.sock")],
                    limits={"memory": "100Mi"}, requests={"cpu": "10m", "memory": "20Mi"},
                    mounts=[mount("socket-dir", "/csi"), mount("registration-dir", "/registration")]),
                ctr(driver, f"mcr.microsoft.com/oss/kubernetes-csi/{plugin_image}",
                    args=["--v=5", "--endpoint=$(CSI_ENDPOINT)", "--nodeid=$(KUBE_NODE_NAME)",
                          "--enable-perf-optimization=true"],
                    env=[env_value("AZURE_CREDENTIAL_FILE", "/etc/kubernetes/azure.json"),
                         env_value("CSI_ENDPOINT", "unix:///csi/csi.sock"), env_field("KUBE_NODE_NAME", "spec.nodeName")],
                    ports=[port("healthz", 29603 if short == "disk" else 29613)],
                    limits={"memory": "2100Mi"}, requests={"cpu": "10m", "memory": "20Mi"},
                    mounts=[mount("socket-dir", "/csi"), mount("mountpoint-dir", "/var/lib/kubelet/"),
                            mount("azure-cred", "/etc/kubernetes/"), mount("device-dir", "/dev")],
                    security={"privileged": True}),
            ],
            "nodeSelector": {"kubernetes.io/os": "linux"}, "serviceAccountName": f"csi-{driver}-node-sa",
            "hostNetwork": True, "tolerations": [toleration()], "priorityClassName": "system-node-critical",
        }
        cluster.add_daemonset("kube-system", f"csi-{driver}-node", {**addon_labels, "app": f"csi-{driver}-node"},
                              csi_spec, ds_plans(), created, selector={"app": f"csi-{driver}-node"})
        windows_spec = copy.deepcopy(csi_spec)
        windows_spec["nodeSelector"] = {"kubernetes.io/os": "windows"}
        windows_spec.pop("hostNetwork")
        cluster.add_daemonset("kube-system", f"csi-{driver}-node-win", {**addon_labels, "app": f"csi-{driver}-node-win"},
                              windows_spec, [], created, selector={"app": f"csi-{driver}-node-win"})
    cluster.add_daemonset("kube-system", "kube-proxy",
                          {**addon_labels, "component": "kube-proxy", "tier": "node"},
                          kube_proxy_spec(f"{MCR}/kube-proxy:{AKS_VERSION}",
                                          ["kube-proxy", "--conntrack-max-per-core=0", "--metrics-bind-address=0.0.0.0:10249",
                                           "--cluster-cidr=10.244.0.0/16", "--detect-local-mode=ClusterCIDR",
                                           "--pod-interface-name-prefix=", "--v=3"],
                                          requests={"cpu": "100m"}),
                          [PodPlan(n, {}, created=ago(minutes=5 + i)) for i, n in enumerate(node_names)], created,
                          selector={"component": "kube-proxy", "tier": "node"})

    # kube-system Deployments
    cluster.add_deployment("kube-system", "coredns",
                           {**addon_labels, "k8s-app": "kube-dns", "kubernetes.io/cluster-service": "true",
                            "kubernetes.io/name": "CoreDNS", "version": "v20"},
                           coredns_spec(f"{MCR}/coredns:v1.9.4-hotfix.20240704", memory_limit="500Mi",
                                        extra_volumes=[cm_volume("custom-config-volume", "coredns-custom", optional=True),
                                                       empty_volume("tmp")],
                                        extra_mounts=[mount("custom-config-volume", "/etc/coredns/custom", read_only=True),
                                                      mount("tmp", "/tmp")],
                                        items=[{"key": "Corefile", "path": "Corefile"}],
                                        tolerations=[toleration("CriticalAddonsOnly")]),
                           [PodPlan(node_names[0]), PodPlan(node_names[1])], created,
                           selector={"k8s-app": "kube-dns", "version": "v20"})
    cluster.add_deployment("kube-system", "coredns-autoscaler",
                           {**addon_labels, "k8s-app": "coredns-autoscaler", "kubernetes.io/cluster-service": "true"},
                           {"containers": [ctr("autoscaler", f"{MCR}/autoscaler/cluster-proportional-autoscaler:v1.8.11",
                                               command=["/cluster-proportional-autoscaler", "--namespace=kube-system",
                                                        "--configmap=coredns-autoscaler", "--target=deployment/coredns",
                                                        "--default-params={\"linear\":{\"coresPerReplica\":512,"
                                                        "\"nodesPerReplica\":8,\"min\":1,\"preventSinglePointFailure\":true}}",
                                                        "--logtostderr=true", "--v=2"],
                                               limits={"cpu": "200m", "memory": "500Mi"},
                                               requests={"cpu": "20m", "memory": "10Mi"})],
                            "dnsPolicy": "ClusterFirst", "nodeSelector": {"kubernetes.io/os": "linux"},
                            "serviceAccountName": "coredns-autoscaler",
                            "tolerations": [toleration("CriticalAddonsOnly")],
                            "priorityClassName": "system-cluster-critical"},
                           [PodPlan(node_names[1])], created, selector={"k8s-app": "coredns-autoscaler"})
    cluster.add_deployment("kube-system", "konnectivity-agent",
                           {**addon_labels, "app": "konnectivity-agent", "component": "tunnel"},
                           {"volumes": [{"name": "kubeconfig", "secret": {"secretName": "konnectivity-agent"}}],
                            "containers": [ctr("konnectivity-agent",
                                               f"{MCR}/apiserver-network-proxy/agent:v0.1.6-hotfix.20240116",
                                               command=["/proxy-agent"],
                                               args=["--logtostderr=true", "--ca-cert=/certs/ca.crt",
                                                     "--proxy-server-host=aks-shop-prod-dns-4f8a2c1e.hcp.eastus.azmk8s.io",
                                                     "--proxy-server-port=443", "--agent-identifiers=default-route=true",
                                                     "--keepalive-time=1m"],
                                               limits={"cpu": "2", "memory": "1Gi"},
                                               requests={"cpu": "20m", "memory": "50Mi"},
                                               mounts=[mount("kubeconfig", "/certs", read_only=True)],
                                               liveness=http_probe("/healthz", 8082, initial=15, timeout=15))],
                            "nodeSelector": {"kubernetes.io/os": "linux"},
                            "serviceAccountName": "konnectivity-agent",
                            "tolerations": [toleration("CriticalAddonsOnly")],
                            "priorityClassName": "system-cluster-critical"},
                           [PodPlan(node_names[0]), PodPlan(node_names[1])], created, selector={"app": "konnectivity-agent"})
    cluster.add_deployment("kube-system", "metrics-server",
                           {**addon_labels, "k8s-app": "metrics-server", "kubernetes.io/cluster-service": "true"},
                           {"volumes": [empty_volume("tmp-dir")],
                            "containers": [ctr("metrics-server", f"{MCR}/metrics-server:v0.6.3",
                                               command=["/metrics-server", "--kubelet-insecure-tls",
                                                        "--kubelet-preferred-address-types=InternalIP",
                                                        "--cert-dir=/tmp", "--secure-port=4443"],
                                               ports=[port("https", 4443)],
                                               limits={"cpu": "145m", "memory": "208Mi"},
                                               requests={"cpu": "44m", "memory": "55Mi"},
                                               mounts=[mount("tmp-dir", "/tmp")],
                                               liveness=http_probe("/livez", "https", scheme="HTTPS", failure=3),
                                               readiness=http_probe("/readyz", "https", scheme="HTTPS", initial=20),
                                               security={"readOnlyRootFilesystem": True, "runAsNonRoot": True,
                                                         "runAsUser": 1000, "allowPrivilegeEscalation": False})],
                            "nodeSelector": {"kubernetes.io/os": "linux"},
                            "serviceAccountName": "metrics-server",
                            "tolerations": [toleration("CriticalAddonsOnly")],
                            "priorityClassName": "system-cluster-critical"},
                           [PodPlan(node_names[0], {"metrics-server": running(1, "Error", 1,
                                                                               started=ago(days=6, hours=22))})],
                           created, selector={"k8s-app": "metrics-server"})

    # kube-system Services
    cluster.add_service("kube-system", "kube-dns", kube_dns_service_ports()[:2], created, {"k8s-app": "kube-dns"},
                        "10.0.0.10", labels={**addon_labels, "k8s-app": "kube-dns",
                                             "kubernetes.io/cluster-service": "true", "kubernetes.io/name": "CoreDNS"})
    cluster.add_service("kube-system", "metrics-server", [{"port": 443, "targetPort": "https"}], created,
                        {"k8s-app": "metrics-server"}, "10.0.131.223",
                        labels={**addon_labels, "k8s-app": "metrics-server", "kubernetes.io/cluster-service": "true",
                                "kubernetes.io/name": "Metrics-server"})
    cluster.add_service("default", "kubernetes", [{"name": "https", "port": 443, "targetPort": 443}], created,
                        None, "10.0.0.1", labels={"component": "apiserver", "provider": "kubernetes"},
                        manager="kube-apiserver")

    build_aks_shop(cluster, node_names, shop_created)
    cluster.finish()
    return cluster


def build_aks_shop(cluster: Cluster, nodes: list[str], created: datetime) -> None:
    """The `shop` namespace: an online shop with the problems the README lists."""
    acr = "shopprodacr.azurecr.io/shop"
    frontend_config = {"API_BASE_URL": "http://cart.shop.svc.cluster.local:8080", "FEATURE_RECS": "true",
                       "LOG_LEVEL": "info"}
    cluster.add_configmap("shop", "frontend-config", frontend_config, created,
                          annotations=last_applied({"apiVersion": "v1", "data": frontend_config, "kind": "ConfigMap",
                                                    "metadata": {"annotations": {}, "name": "frontend-config",
                                                                 "namespace": "shop"}}))
    cart_config = {"application.yaml": "server:\n  port: 8080\nspring:\n  redis:\n    host: redis.shop.svc.cluster.local\n"
                                       "    port: 6379\ncart:\n  session-ttl: 30m\n"}
    cluster.add_configmap("shop", "cart-config", cart_config, created,
                          annotations=last_applied({"apiVersion": "v1", "data": cart_config, "kind": "ConfigMap",
                                                    "metadata": {"annotations": {}, "name": "cart-config",
                                                                 "namespace": "shop"}}))

    def app(name: str, image: str, port_number: int, **kw: Any) -> Obj:
        return ctr(name, image, ports=[port("http", port_number)], **kw)

    frontend = {"containers": [app("frontend", f"{acr}/frontend:2.4.1", 3000,
                                   env_from=[{"configMapRef": {"name": "frontend-config"}}],
                                   requests={"cpu": "100m", "memory": "128Mi"}, limits={"cpu": "500m", "memory": "256Mi"},
                                   readiness=http_probe("/healthz", "http", period=5),
                                   liveness=http_probe("/healthz", "http", initial=10))]}
    cluster.add_deployment("shop", "frontend", {"app": "frontend", "app.kubernetes.io/part-of": "shop"}, frontend,
                           [PodPlan(nodes[0]), PodPlan(nodes[1]), PodPlan(nodes[2])], created + timedelta(minutes=3),
                           selector={"app": "frontend"}, manager="kubectl-client-side-apply")
    # cart: one replica is OOM-killed over and over on the node under memory pressure.
    cart = {"volumes": [cm_volume("config", "cart-config")],
            "containers": [app("cart", f"{acr}/cart:1.8.0", 8080,
                               env=[env_value("JAVA_TOOL_OPTIONS", "-Xms256m -Xmx768m"),
                                    env_value("SPRING_CONFIG_ADDITIONAL_LOCATION", "/config/")],
                               requests={"cpu": "250m", "memory": "512Mi"}, limits={"cpu": "1", "memory": "512Mi"},
                               mounts=[mount("config", "/config", read_only=True)],
                               readiness=http_probe("/actuator/health/readiness", "http", initial=20),
                               liveness=http_probe("/actuator/health/liveness", "http", initial=60))]}
    oom = crashloop(14, "OOMKilled", 137, ago(minutes=6, seconds=42), ago(minutes=5, seconds=58))
    cluster.add_deployment("shop", "cart", {"app": "cart", "app.kubernetes.io/part-of": "shop"}, cart,
                                      [PodPlan(nodes[0]), PodPlan(nodes[2], {"cart": oom})], created + timedelta(minutes=3),
                                      selector={"app": "cart"}, manager="kubectl-client-side-apply", progress="complete")
    cart_pods = [p for p in cluster.of_kind("Pod", "shop") if p["metadata"]["name"].startswith("cart-")]
    crashing = next(p for p in cart_pods if p["spec"]["nodeName"] == nodes[2])
    cluster.add_event(crashing, "BackOff", f"Back-off restarting failed container cart in pod "
                      f"{crashing['metadata']['name']}_shop({crashing['metadata']['uid']})",
                      ago(hours=1, minutes=4), ago(minutes=1, seconds=9), 58, "Warning", host=nodes[2],
                      field_path="spec.containers{cart}")
    cluster.add_event(crashing, "Pulled", f'Container image "{acr}/cart:1.8.0" already present on machine',
                      ago(hours=1, minutes=6), ago(minutes=6, seconds=43), 14, host=nodes[2],
                      field_path="spec.containers{cart}")
    cluster.add_event(crashing, "Created", "Created container cart", ago(hours=1, minutes=6),
                      ago(minutes=6, seconds=43), 14, host=nodes[2], field_path="spec.containers{cart}")
    cluster.add_event(crashing, "Started", "Started container cart", ago(hours=1, minutes=6),
                      ago(minutes=6, seconds=42), 14, host=nodes[2], field_path="spec.containers{cart}")
    cluster.logs[("shop", crashing["metadata"]["name"], "cart", True)] = app_log(ago(minutes=6, seconds=42), [
        (0.4, "info", "Starting CartApplication v1.8.0 using Java 17.0.12"),
        (3.1, "info", "Tomcat initialized with port 8080 (http)"),
        (9.8, "info", "Started CartApplication in 10.2 seconds"),
        (31.5, "warn", "Session cache size 412311 entries exceeds soft limit 250000"),
        (43.0, "error", "java.lang.OutOfMemoryError: Java heap space"),
    ], fmt="plain")

    # recommendations: `:latest` image and a ConfigMap that was never created.
    recs = {"volumes": [cm_volume("config", "recommendations-config")],
            "containers": [app("recommendations", f"{acr}/recommendations:latest", 8081,
                               requests={"cpu": "100m", "memory": "256Mi"},
                               mounts=[mount("config", "/etc/recommendations", read_only=True)])]}
    cluster.add_deployment("shop", "recommendations", {"app": "recommendations", "app.kubernetes.io/part-of": "shop"},
                           recs, [PodPlan(nodes[1], {"recommendations": Run(state="waiting", reason="ContainerCreating",
                                                                            ever_started=False)}, no_sandbox=True,
                                          created=ago(hours=1, minutes=50))],
                           ago(hours=1, minutes=50), selector={"app": "recommendations"},
                           manager="kubectl-client-side-apply", progress="deadline")
    recs_pod = next(p for p in cluster.of_kind("Pod", "shop") if p["metadata"]["name"].startswith("recommendations-"))
    cluster.add_event(recs_pod, "FailedMount",
                      'MountVolume.SetUp failed for volume "config" : configmap "recommendations-config" not found',
                      ago(hours=1, minutes=50), ago(minutes=2, seconds=17), 57, "Warning", host=nodes[1])

    redis = {"containers": [ctr("redis", "redis:7.2.5", args=["--save", "", "--appendonly", "no"],
                                ports=[port("redis", 6379)], requests={"cpu": "100m", "memory": "128Mi"},
                                limits={"memory": "256Mi"},
                                liveness=exec_probe(["redis-cli", "ping"], initial=5))]}
    cluster.add_deployment("shop", "redis", {"app": "redis", "app.kubernetes.io/part-of": "shop"}, redis,
                           [PodPlan(nodes[1])], created + timedelta(minutes=2), selector={"app": "redis"},
                           manager="kubectl-client-side-apply")
    payments = {"containers": [app("payments-api", f"{acr}/payments-api:3.0.2", 8443,
                                   requests={"cpu": "200m", "memory": "256Mi"}, limits={"memory": "512Mi"},
                                   readiness=http_probe("/ready", "http"))]}
    cluster.add_deployment("shop", "payments-api", {"app": "payments-api", "app.kubernetes.io/part-of": "shop"},
                           payments, [PodPlan(nodes[0]), PodPlan(nodes[1])], created + timedelta(minutes=4),
                           selector={"app": "payments-api"}, manager="kubectl-client-side-apply")

    lb = {"ingress": [{"ip": "20.81.112.45", "ipMode": "VIP"}]}
    cluster.add_service("shop", "frontend", [{"name": "http", "port": 80, "targetPort": "http", "nodePort": 31847}],
                        created + timedelta(minutes=3), {"app": "frontend"}, "10.0.84.17", "LoadBalancer",
                        labels={"app": "frontend"}, load_balancer=lb)
    cluster.add_service("shop", "cart", [{"name": "http", "port": 8080, "targetPort": "http"}],
                        created + timedelta(minutes=3), {"app": "cart"}, "10.0.201.9", labels={"app": "cart"})
    cluster.add_service("shop", "redis", [{"name": "redis", "port": 6379, "targetPort": 6379}],
                        created + timedelta(minutes=2), {"app": "redis"}, "10.0.45.200", labels={"app": "redis"})
    cluster.add_service("shop", "recommendations", [{"name": "http", "port": 8081, "targetPort": "http"}],
                        ago(hours=1, minutes=50), {"app": "recommendations"}, "10.0.17.88",
                        labels={"app": "recommendations"})
    # payments: selects app=payments, but the pods are labelled app=payments-api.
    cluster.add_service("shop", "payments", [{"name": "https", "port": 443, "targetPort": 8443}],
                        created + timedelta(minutes=4), {"app": "payments"}, "10.0.92.31", labels={"app": "payments"})

    pressured = cluster.get("Node", "", nodes[2])
    cluster.add_event(pressured, "NodeHasInsufficientMemory",
                      f"Node {nodes[2]} status is now: NodeHasInsufficientMemory", ago(minutes=26), host=nodes[2])
    cluster.add_event(pressured, "EvictionThresholdMet", "Attempting to reclaim memory", ago(minutes=27, seconds=3),
                      ago(minutes=4, seconds=50), 9, "Warning", host=nodes[2])
    cluster.add_event(pressured, "OOMKilling",
                      "Memory cgroup out of memory: Killed process 24817 (java) total-vm:3894116kB, "
                      "anon-rss:522428kB, file-rss:21176kB, shmem-rss:0kB, UID:1000 pgtables:1316kB oom_score_adj:984",
                      ago(minutes=5, seconds=58), event_type="Warning", component="kernel-monitor", host=nodes[2])


# ---------------------------------------------------------------------------------------------
# Container logs as each dump form shows them
# ---------------------------------------------------------------------------------------------


def default_log(cluster: Cluster, pod: Obj, container: Obj) -> str:
    """What `kubectl logs` returns for a container that no scenario gave a log of its own."""
    name = container["name"]
    pod_name = pod["metadata"]["name"]
    node = pod["spec"].get("nodeName", "")
    status = next((s for s in pod["status"].get("containerStatuses", []) + pod["status"].get("initContainerStatuses", [])
                   if s["name"] == name), None)
    started = CAPTURE - timedelta(days=1)
    if status and ("running" in status["state"] or "terminated" in status["state"]):
        state = status["state"].get("running") or status["state"]["terminated"]
        started = datetime.strptime(state["startedAt"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    image = container["image"]
    tag = image.rsplit(":", 1)[-1]
    if name == "coredns":
        version = tag.lstrip("v").split("-")[0]
        return coredns_log(version, "go1.21.11" if version >= "1.10" else "go1.19.10", hexid(7, image))
    if name == "kube-proxy":
        return kube_proxy_log(node, cluster.nodes[node].ip, started)
    if name in ("autoscaler", "kube-dns-autoscaler"):
        return "\n".join([
            klog("I", started, "autoscaler.go:49", "Scaling Namespace: kube-system, Target: deployment/coredns", pod_name),
            klog("I", started + timedelta(seconds=1), "autoscaler_server.go:157", "ConfigMap not found: configmaps \"coredns-autoscaler\" not found, will create one with default params" if cluster.flavor.name == "oke" else "Setting up the autoscaler server", pod_name),
            klog("I", started + timedelta(seconds=1), "k8sclient.go:147", "Cluster status: SchedulableNodes[3], SchedulableCores[12]", pod_name),
            klog("I", started + timedelta(seconds=1), "k8sclient.go:148", "Replicas are not as expected : updating replicas from 1 to 2" if cluster.flavor.name == "aks" else "Replicas are as expected: 3", pod_name),
        ]) + "\n"
    if name == "metrics-server":
        return "\n".join([
            klog("I", started, "serving.go:342", "Generated self-signed cert (/tmp/apiserver.crt, /tmp/apiserver.key)", pod_name),
            klog("I", started + timedelta(seconds=1), "handler.go:232", "Adding GroupVersion metrics.k8s.io v1beta1 to ResourceManager", pod_name),
            klog("I", started + timedelta(seconds=1), "secure_serving.go:266", "Serving securely on [::]:4443", pod_name),
            klog("E", started + timedelta(hours=3), "scraper.go:140", '"Failed to scrape node" err="Get \\"https://10.224.0.6:10250/metrics/resource\\": context deadline exceeded" node="aks-nodepool1-12345678-vmss000002"', pod_name),
        ]) + "\n"
    if name in ("liveness-probe", "node-driver-registrar", "csi-provisioner", "csi-attacher", "csi-snapshotter",
                "csi-resizer"):
        return "\n".join([
            klog("I", started, "main.go:135", f"Version: {tag}", pod_name),
            klog("I", started, "main.go:136", "Running node-driver-registrar in mode=registration" if name == "node-driver-registrar" else "Running " + name, pod_name),
            klog("I", started + timedelta(seconds=1), "connection.go:215", "Connecting to unix:///csi/csi.sock", pod_name),
        ]) + "\n"
    if name in ("azuredisk", "azurefile", "ebs-plugin"):
        return "\n".join([
            klog("I", started, "main.go:91", f'"set up prometheus server on" address=":29604" driver="{name}"', pod_name),
            klog("I", started + timedelta(seconds=1), "driver.go:147", f'"Driver starting" Driver="{name}" Version="{tag}"', pod_name),
            klog("I", started + timedelta(seconds=1), "server.go:117", 'Listening for connections on address: &net.UnixAddr{Name:"//csi/csi.sock", Net:"unix"}', pod_name),
            klog("I", started + timedelta(seconds=2), "utils.go:77", "GRPC call: /csi.v1.Identity/GetPluginInfo", pod_name),
            klog("I", started + timedelta(seconds=2), "utils.go:77", "GRPC call: /csi.v1.Node/NodeGetInfo", pod_name),
        ]) + "\n"
    if name in ("azure-ip-masq-agent", "cloud-node-manager", "konnectivity-agent", "eks-pod-identity-agent",
                "calico-kube-controllers"):
        return "\n".join([
            klog("I", started, "main.go:67", f"{name} version {tag} starting", pod_name),
            klog("I", started + timedelta(seconds=1), "main.go:102", "connected; waiting for work", pod_name),
            klog("I", started + timedelta(hours=2), "main.go:131", "sync completed", pod_name),
        ]) + "\n"
    special = COMPONENT_LOGS.get(name)
    if special is not None:
        return special(cluster, pod, started, tag)
    return app_log(started, [(0.2, "info", f"starting {name} {tag}"), (1.4, "info", "listening"),
                             (600.0, "info", "health check ok")])


def log_error(cluster: Cluster, pod: Obj, container: Obj) -> str | None:
    """The error kubectl prints instead of a log when the kubelet cannot give one."""
    node = pod["spec"].get("nodeName")
    if not node:
        return ""  # an unscheduled pod has no log location: the API returns nothing
    name = container["name"]
    status = next((s for s in pod["status"].get("containerStatuses", []) + pod["status"].get("initContainerStatuses", [])
                   if s["name"] == name), None)
    if any(c["type"] == "Ready" and c["status"] == "False" and "reason" not in c
           for c in pod["status"]["conditions"]):
        ip = cluster.nodes[node].ip
        return (f'Request log error: Get "https://{ip}:10250/containerLogs/{pod["metadata"]["namespace"]}/'
                f'{pod["metadata"]["name"]}/{name}": dial tcp {ip}:10250: i/o timeout\n')
    if status and "waiting" in status["state"] and not status.get("containerID"):
        reason = status["state"]["waiting"]["reason"]
        if reason == "ImagePullBackOff":
            reason = "trying and failing to pull image"
        return (f'Request log error: container "{name}" in pod "{pod["metadata"]["name"]}" is waiting to start: '
                f"{reason}\n")
    return None


def container_log(cluster: Cluster, pod: Obj, container: Obj) -> str:
    error = log_error(cluster, pod, container)
    if error is not None:
        return error
    key = (pod["metadata"]["namespace"], pod["metadata"]["name"], container["name"], False)
    return cluster.logs.get(key) or default_log(cluster, pod, container)


# ---------------------------------------------------------------------------------------------
# Writers, one per dump form
# ---------------------------------------------------------------------------------------------


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


LIST_KINDS = {
    "Node": ("NodeList", "v1"), "Namespace": ("NamespaceList", "v1"), "Pod": ("PodList", "v1"),
    "Service": ("ServiceList", "v1"), "Endpoints": ("EndpointsList", "v1"), "Event": ("EventList", "v1"),
    "ConfigMap": ("ConfigMapList", "v1"), "ReplicationController": ("ReplicationControllerList", "v1"),
    "PersistentVolumeClaim": ("PersistentVolumeClaimList", "v1"),
    "PersistentVolume": ("PersistentVolumeList", "v1"),
    "StorageClass": ("StorageClassList", "storage.k8s.io/v1"),
    "Deployment": ("DeploymentList", "apps/v1"), "DaemonSet": ("DaemonSetList", "apps/v1"),
    "ReplicaSet": ("ReplicaSetList", "apps/v1"), "StatefulSet": ("StatefulSetList", "apps/v1"),
    "Job": ("JobList", "batch/v1"),
}


def typed_list(cluster: Cluster, kind: str, namespace: str | None, keep_item_type_meta: bool,
               managed_fields: bool) -> Obj:
    """What a typed client's List call returns, in Go field order."""
    list_kind, api_version = LIST_KINDS[kind]
    items = cluster.of_kind(kind, namespace)
    if not managed_fields:
        # kubectl >= 1.21 prints through OmitManagedFieldsPrinter unless --show-managed-fields
        items = [without_managed_fields(o) for o in items]
    return go_order_list({"kind": list_kind, "apiVersion": api_version,
                          "metadata": {"resourceVersion": cluster.list_rv}, "items": items}, keep_item_type_meta)


def without_managed_fields(obj: Obj) -> Obj:
    out = copy.deepcopy(obj)
    out["metadata"].pop("managedFields", None)
    return out


# `kubectl get <resources> -A -o yaml > <file>` per file; kubectl >= 1.21 hides managedFields.
KUBECTL_GET_FILES = {
    "nodes.yaml": ("Node",),
    "namespaces.yaml": ("Namespace",),
    "pods.yaml": ("Pod",),
    "services.yaml": ("Service", "Endpoints"),
    "workloads.yaml": ("Deployment", "DaemonSet", "ReplicaSet"),
    "configmaps.yaml": ("ConfigMap",),
    "events.yaml": ("Event",),
}


def write_kubectl_get_yaml(cluster: Cluster, out_dir: Path) -> None:
    for filename, kinds in KUBECTL_GET_FILES.items():
        items = [without_managed_fields(o) for kind in kinds for o in cluster.of_kind(kind)]
        document = {"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}}
        write_text(out_dir / filename, kubectl_yaml(document))


CLUSTER_INFO_RESOURCES = (
    ("events", "Event"), ("replication-controllers", "ReplicationController"), ("services", "Service"),
    ("daemonsets", "DaemonSet"), ("deployments", "Deployment"), ("replicasets", "ReplicaSet"), ("pods", "Pod"),
)


def pod_log_blocks(cluster: Cluster, pod: Obj) -> str:
    """The START/END log sections `kubectl cluster-info dump` writes for one pod."""
    namespace, name = pod["metadata"]["namespace"], pod["metadata"]["name"]
    out = []
    for container in pod["spec"].get("initContainers", []) + pod["spec"]["containers"]:
        cname = container["name"]
        out.append(f"==== START logs for container {cname} of pod {namespace}/{name} ====\n")
        out.append(container_log(cluster, pod, container))
        out.append(f"==== END logs for container {cname} of pod {namespace}/{name} ====\n")
    return "".join(out)


def write_cluster_info_dump_stdout(cluster: Cluster, path: Path, namespaces: list[str]) -> None:
    parts = [go_json(typed_list(cluster, "Node", None, False, False), 4)]
    for namespace in namespaces:
        for _, kind in CLUSTER_INFO_RESOURCES:
            parts.append(go_json(typed_list(cluster, kind, namespace, False, False), 4))
        for pod in cluster.of_kind("Pod", namespace):
            parts.append(pod_log_blocks(cluster, pod))
    write_text(path, "".join(parts))


def write_cluster_info_dump_dir(cluster: Cluster, out_dir: Path, namespaces: list[str]) -> None:
    write_text(out_dir / "nodes.json", go_json(typed_list(cluster, "Node", None, False, False), 4))
    for namespace in namespaces:
        for resource, kind in CLUSTER_INFO_RESOURCES:
            write_text(out_dir / namespace / f"{resource}.json", go_json(typed_list(cluster, kind, namespace, False, False), 4))
        for pod in cluster.of_kind("Pod", namespace):
            write_text(out_dir / namespace / pod["metadata"]["name"] / "logs.txt", pod_log_blocks(cluster, pod))


SUPPORT_BUNDLE_NAMESPACED = (
    ("pods", "Pod"), ("services", "Service"), ("endpoints", "Endpoints"), ("deployments", "Deployment"),
    ("replicasets", "ReplicaSet"), ("daemonsets", "DaemonSet"), ("statefulsets", "StatefulSet"), ("jobs", "Job"),
    ("configmaps", "ConfigMap"), ("events", "Event"), ("pvcs", "PersistentVolumeClaim"),
)


def unhealthy(pod: Obj) -> bool:
    """Pods whose logs troubleshoot's clusterResources collector keeps (not running and ready)."""
    status = pod["status"]
    if status["phase"] in ("Succeeded",):
        return False
    if status["phase"] != "Running":
        return True
    return any(not s["ready"] or s["restartCount"] > 0 for s in status.get("containerStatuses", []))


def write_support_bundle(cluster: Cluster, out_dir: Path, server_version: Obj, bundle_version: str) -> None:
    write_text(out_dir / "version.yaml", yaml.safe_dump(
        {"apiVersion": "troubleshoot.sh/v1beta2", "kind": "SupportBundle",
         "spec": {"versionNumber": bundle_version}}, sort_keys=False))
    write_text(out_dir / "cluster-info" / "cluster_version.json",
               go_json({"info": server_version, "string": server_version["gitVersion"]}, 2))
    resources = out_dir / "cluster-resources"
    write_text(resources / "namespaces.json", go_json(typed_list(cluster, "Namespace", None, True, True), 2))
    write_text(resources / "nodes.json", go_json(typed_list(cluster, "Node", None, True, True), 2))
    write_text(resources / "pvs.json", go_json(typed_list(cluster, "PersistentVolume", None, True, True), 2))
    write_text(resources / "storage-classes.json", go_json(typed_list(cluster, "StorageClass", None, True, True), 2))
    for namespace in cluster.namespaces():
        for directory, kind in SUPPORT_BUNDLE_NAMESPACED:
            write_text(resources / directory / f"{namespace}.json",
                       go_json(typed_list(cluster, kind, namespace, True, True), 2))
        for pod in cluster.of_kind("Pod", namespace):
            if not unhealthy(pod) or not pod["spec"].get("nodeName"):
                continue
            logs_dir = resources / "pods" / "logs" / namespace / pod["metadata"]["name"]
            for container in pod["spec"].get("initContainers", []) + pod["spec"]["containers"]:
                status = next(s for s in pod["status"].get("containerStatuses", []) +
                              pod["status"].get("initContainerStatuses", []) if s["name"] == container["name"])
                if status.get("containerID"):
                    write_text(logs_dir / f"{container['name']}.log", container_log(cluster, pod, container))
                previous = cluster.logs.get((namespace, pod["metadata"]["name"], container["name"], True))
                if previous is not None:
                    write_text(logs_dir / f"{container['name']}-previous.log", previous)


def write_tar_gz(source: Path, archive: Path, top: str) -> None:
    """A .tar.gz of `source` under `top/`, identical on every run (fixed order, times, owners)."""
    buffer = io.BytesIO()
    stamp = int(CAPTURE.timestamp())
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as tar:
        paths = sorted(source.rglob("*"), key=lambda p: p.relative_to(source).as_posix())
        for path in [source, *paths]:
            relative = path.relative_to(source).as_posix()
            info = tarfile.TarInfo(top if relative == "." else f"{top}/{relative}")
            info.mtime = stamp
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            if path.is_dir():
                info.type = tarfile.DIRTYPE
                info.mode = 0o755
                tar.addfile(info)
            else:
                data = path.read_bytes()
                info.mode = 0o644
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    archive.parent.mkdir(parents=True, exist_ok=True)
    with open(archive, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0,
                                                   compresslevel=9) as gz:
        gz.write(buffer.getvalue())


# ---------------------------------------------------------------------------------------------
# EKS: managed node group of three m5.large nodes, VPC CNI, a payments application (seed 001)
# ---------------------------------------------------------------------------------------------

EKS_VERSION = "v1.30.4-eks-a737599"
ECR = "602401143452.dkr.ecr.us-east-1.amazonaws.com"
APP_ECR = "318274654021.dkr.ecr.us-east-1.amazonaws.com/payments"
EKS_NODES = (
    ("ip-10-0-1-23.ec2.internal", "10.0.1.23", "us-east-1a", "use1-az4", "i-0a1b2c3d4e5f60718", "10.0.1.", 41),
    ("ip-10-0-2-87.ec2.internal", "10.0.2.87", "us-east-1b", "use1-az6", "i-0b7e4f19c2d3a6e50", "10.0.2.", 102),
    ("ip-10-0-3-45.ec2.internal", "10.0.3.45", "us-east-1c", "use1-az1", "i-0c93d2e8f1a4b5c67", "10.0.3.", 160),
)


def eks_node_labels(name: str, zone: str, zone_id: str) -> dict[str, str]:
    return {
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/instance-type": "m5.large",
        "beta.kubernetes.io/os": "linux",
        "eks.amazonaws.com/capacityType": "ON_DEMAND",
        "eks.amazonaws.com/nodegroup": "ng-general",
        "eks.amazonaws.com/nodegroup-image": "ami-0f4c1a2b3d5e6f789",
        "eks.amazonaws.com/sourceLaunchTemplateId": "lt-0a9b8c7d6e5f43210",
        "eks.amazonaws.com/sourceLaunchTemplateVersion": "1",
        "failure-domain.beta.kubernetes.io/region": "us-east-1",
        "failure-domain.beta.kubernetes.io/zone": zone,
        "k8s.io/cloud-provider-aws": hexid(32, "eks", "cluster"),
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": "m5.large",
        "topology.ebs.csi.aws.com/zone": zone,
        "topology.k8s.aws/zone-id": zone_id,
        "topology.kubernetes.io/region": "us-east-1",
        "topology.kubernetes.io/zone": zone,
    }


def build_eks() -> Cluster:
    created = ago(days=43, hours=5, minutes=20)
    flavor = Flavor("eks", 30, "containerd", created, "default-scheduler-ip-172-16-61-130.ec2.internal", "eks",
                    addon_api_operation="Apply")
    cluster = Cluster(flavor, [("10.0.1.211", 443), ("10.0.2.74", 443)])
    app_created = ago(days=13, hours=2)
    add_default_namespaces(cluster, created, [("payments", app_created)])
    lost_at = ago(minutes=3, seconds=12)
    node_names = []
    for index, (name, ip, zone, zone_id, instance, prefix, first_ip) in enumerate(EKS_NODES):
        node_created = ago(days=35, hours=4, minutes=index * 3)
        lost = lost_at if index == 2 else None
        spec: Obj = {"providerID": f"aws:///{zone}/{instance}"}
        if lost:
            spec["taints"] = [{"key": "node.kubernetes.io/unreachable", "effect": "NoSchedule", "timeAdded": ts(lost)},
                              {"key": "node.kubernetes.io/unreachable", "effect": "NoExecute",
                               "timeAdded": ts(lost + timedelta(seconds=5))}]
        cluster.add_node(
            name, ip, node_created, eks_node_labels(name, zone, zone_id),
            {"alpha.kubernetes.io/provided-node-ip": ip,
             "csi.volume.kubernetes.io/nodeid": json.dumps({"ebs.csi.aws.com": instance}, separators=(",", ":")),
             "node.alpha.kubernetes.io/ttl": "0", "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
            spec,
            {"cpu": "2", "ephemeral-storage": "83873772Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
             "memory": "7910348Ki", "pods": "29"},
            {"cpu": "1930m", "ephemeral-storage": "76224326324", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
             "memory": "7220172Ki", "pods": "29"},
            node_info("eks", name, "5.10.223-212.873.amzn2.x86_64", "Amazon Linux 2", "containerd://1.7.11", EKS_VERSION),
            node_conditions(ago(seconds=25 + index * 9), node_created, lost=lost),
            [{"type": "InternalIP", "address": ip}, {"type": "InternalDNS", "address": name},
             {"type": "Hostname", "address": name}],
            prefix, first_ip,
        )
        node_names.append(name)

    def plans(lost_index: int = 2) -> list[PodPlan]:
        return [PodPlan(n, node_lost=(i == lost_index)) for i, n in enumerate(node_names)]

    linux_amd = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "kubernetes.io/os", "operator": "In", "values": ["linux"]},
                              {"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64", "arm64"]},
                              {"key": "eks.amazonaws.com/compute-type", "operator": "NotIn",
                               "values": ["fargate", "hybrid"]}]}]}}}
    cni_labels = {"app.kubernetes.io/instance": "aws-vpc-cni", "app.kubernetes.io/name": "aws-node",
                  "app.kubernetes.io/version": "v1.18.3", "helm.sh/chart": "aws-vpc-cni-1.18.3", "k8s-app": "aws-node"}
    grpc_probe = ["/app/grpc-health-probe", "-addr=:50051", "-connect-timeout=5s", "-rpc-timeout=5s"]
    cluster.add_daemonset("kube-system", "aws-node", cni_labels, {
        "volumes": [host_volume("bpf-pin-path", "/sys/fs/bpf"), host_volume("cni-bin-dir", "/opt/cni/bin"),
                    host_volume("cni-net-dir", "/etc/cni/net.d"),
                    host_volume("log-dir", "/var/log/aws-routed-eni", "DirectoryOrCreate"),
                    host_volume("run-dir", "/var/run/aws-node", "DirectoryOrCreate"),
                    host_volume("xtables-lock", "/run/xtables.lock", "FileOrCreate")],
        "initContainers": [ctr("aws-vpc-cni-init", f"{ECR}/amazon-k8s-cni-init:v1.18.3-eksbuild.2",
                               env=[env_value("DISABLE_TCP_EARLY_DEMUX", "false"), env_value("ENABLE_IPv6", "false")],
                               requests={"cpu": "25m"}, mounts=[mount("cni-bin-dir", "/host/opt/cni/bin")],
                               security={"privileged": True})],
        "containers": [
            ctr("aws-node", f"{ECR}/amazon-k8s-cni:v1.18.3-eksbuild.2", ports=[port("metrics", 61678)],
                env=[env_value("ADDITIONAL_ENI_TAGS", "{}"), env_value("ANNOTATE_POD_IP", "false"),
                     env_value("AWS_VPC_CNI_NODE_PORT_SUPPORT", "true"), env_value("AWS_VPC_ENI_MTU", "9001"),
                     env_value("AWS_VPC_K8S_CNI_EXTERNALSNAT", "false"), env_value("AWS_VPC_K8S_CNI_LOGLEVEL", "DEBUG"),
                     env_value("AWS_VPC_K8S_CNI_LOG_FILE", "/host/var/log/aws-routed-eni/ipamd.log"),
                     env_value("ENABLE_PREFIX_DELEGATION", "false"), env_value("WARM_ENI_TARGET", "1"),
                     env_field("MY_NODE_NAME", "spec.nodeName"), env_field("MY_POD_NAME", "metadata.name")],
                requests={"cpu": "25m"},
                mounts=[mount("cni-bin-dir", "/host/opt/cni/bin"), mount("cni-net-dir", "/host/etc/cni/net.d"),
                        mount("log-dir", "/host/var/log/aws-routed-eni"), mount("run-dir", "/var/run/aws-node"),
                        mount("xtables-lock", "/run/xtables.lock")],
                liveness=exec_probe(grpc_probe, initial=60, timeout=10),
                readiness=exec_probe(grpc_probe, initial=1, timeout=10),
                security={"capabilities": {"add": ["NET_ADMIN", "NET_RAW"]}}),
            ctr("aws-eks-nodeagent", f"{ECR}/amazon/aws-network-policy-agent:v1.1.2-eksbuild.2",
                args=["--enable-ipv6=false", "--enable-network-policy=false", "--enable-cloudwatch-logs=false",
                      "--enable-policy-event-logs=false", "--log-file=/var/log/aws-routed-eni/network-policy-agent.log",
                      "--metrics-bind-addr=:8162", "--health-probe-bind-addr=:8163",
                      "--conntrack-cache-cleanup-period=300"],
                env=[env_field("MY_NODE_NAME", "spec.nodeName")], requests={"cpu": "25m"},
                mounts=[mount("bpf-pin-path", "/sys/fs/bpf"), mount("log-dir", "/var/log/aws-routed-eni"),
                        mount("run-dir", "/var/run/aws-node")],
                security={"capabilities": {"add": ["NET_ADMIN"]}, "privileged": True}),
        ],
        "terminationGracePeriodSeconds": 10, "serviceAccountName": "aws-node", "hostNetwork": True,
        "affinity": linux_amd, "tolerations": [toleration()], "priorityClassName": "system-node-critical",
    }, plans(), created, selector={"k8s-app": "aws-node"}, max_unavailable="10%")
    cluster.add_daemonset("kube-system", "kube-proxy", {"eks.amazonaws.com/component": "kube-proxy",
                                                        "k8s-app": "kube-proxy"},
                          {**kube_proxy_spec(f"{ECR}/eks/kube-proxy:v1.30.3-minimal-eksbuild.5",
                                             ["kube-proxy", "--v=2", "--config=/var/lib/kube-proxy-config/config",
                                              "--hostname-override=$(NODE_NAME)"],
                                             extra_volumes=[cm_volume("kubeconfig", "kube-proxy"),
                                                            cm_volume("config", "kube-proxy-config")],
                                             extra_mounts=[mount("kubeconfig", "/var/lib/kube-proxy/"),
                                                           mount("config", "/var/lib/kube-proxy-config/")],
                                             requests={"cpu": "100m"}),
                           "affinity": linux_amd},
                          plans(), created, selector={"k8s-app": "kube-proxy"}, max_unavailable="10%")
    ebs_labels = {"app.kubernetes.io/component": "csi-driver", "app.kubernetes.io/managed-by": "EKS",
                  "app.kubernetes.io/name": "aws-ebs-csi-driver", "app.kubernetes.io/version": "1.34.0"}
    plugin = f"{ECR}/eks/aws-ebs-csi-driver:v1.34.0"
    cluster.add_daemonset("kube-system", "ebs-csi-node", {**ebs_labels, "app": "ebs-csi-node"}, {
        "volumes": [host_volume("kubelet-dir", "/var/lib/kubelet", "Directory"),
                    host_volume("plugin-dir", "/var/lib/kubelet/plugins/ebs.csi.aws.com/", "DirectoryOrCreate"),
                    host_volume("registration-dir", "/var/lib/kubelet/plugins_registry/", "Directory"),
                    host_volume("device-dir", "/dev", "Directory")],
        "containers": [
            ctr("ebs-plugin", plugin, args=["node", "--endpoint=$(CSI_ENDPOINT)", "--logging-format=text", "--v=2"],
                env=[env_value("CSI_ENDPOINT", "unix:/csi/csi.sock"), env_field("CSI_NODE_NAME", "spec.nodeName")],
                ports=[port("healthz", 9808)], requests={"cpu": "10m", "memory": "40Mi"}, limits={"memory": "256Mi"},
                mounts=[mount("kubelet-dir", "/var/lib/kubelet"), mount("plugin-dir", "/csi"),
                        mount("device-dir", "/dev")],
                liveness=http_probe("/healthz", "healthz", initial=10, timeout=3, failure=5),
                security={"privileged": True, "readOnlyRootFilesystem": True}),
            ctr("node-driver-registrar", f"{ECR}/eks/csi-node-driver-registrar:v2.11.1-eks-1-30-13",
                args=["--csi-address=$(ADDRESS)", "--kubelet-registration-path=$(DRIVER_REG_SOCK_PATH)", "--v=2"],
                env=[env_value("ADDRESS", "/csi/csi.sock"),
                     env_value("DRIVER_REG_SOCK_PATH", "/var/lib/kubelet/plugins/ebs.csi.aws.com/csi.sock")],
                requests={"cpu": "10m", "memory": "40Mi"}, limits={"memory": "256Mi"},
                mounts=[mount("plugin-dir", "/csi"), mount("registration-dir", "/registration")]),
            ctr("liveness-probe", f"{ECR}/eks/livenessprobe:v2.13.1-eks-1-30-13", args=["--csi-address=/csi/csi.sock"],
                requests={"cpu": "10m", "memory": "40Mi"}, limits={"memory": "256Mi"},
                mounts=[mount("plugin-dir", "/csi")]),
        ],
        "nodeSelector": {"kubernetes.io/os": "linux"}, "serviceAccountName": "ebs-csi-node-sa",
        "securityContext": {"runAsUser": 0, "runAsGroup": 0, "runAsNonRoot": False, "fsGroup": 0},
        "tolerations": [toleration(operator="Exists")], "priorityClassName": "system-node-critical",
    }, plans(), created + timedelta(days=8), selector={"app": "ebs-csi-node", "app.kubernetes.io/name": "aws-ebs-csi-driver"},
        max_unavailable="10%")
    cluster.add_daemonset("kube-system", "eks-pod-identity-agent",
                          {"app.kubernetes.io/instance": "eks-pod-identity-agent",
                           "app.kubernetes.io/name": "eks-pod-identity-agent", "app.kubernetes.io/version": "0.1.10"},
                          {"initContainers": [ctr("eks-pod-identity-agent-init", f"{ECR}/eks/eks-pod-identity-agent:0.1.10",
                                                  command=["/go-runner", "/eks-pod-identity-agent", "initialize"],
                                                  security={"privileged": True})],
                           "containers": [ctr("eks-pod-identity-agent", f"{ECR}/eks/eks-pod-identity-agent:0.1.10",
                                              command=["/go-runner", "/eks-pod-identity-agent", "server"],
                                              args=["--port", "80", "--cluster-name", "payments-prod",
                                                    "--probe-port", "2703"],
                                              ports=[port("proxy", 80), port("probes-port", 2703)],
                                              liveness=http_probe("/healthz", "probes-port", initial=30, timeout=10),
                                              readiness=http_probe("/readyz", "probes-port", initial=1, timeout=10),
                                              security={"capabilities": {"add": ["CAP_NET_BIND_SERVICE"]}})],
                           "hostNetwork": True, "affinity": linux_amd, "tolerations": [toleration()],
                           "priorityClassName": "system-node-critical", "terminationGracePeriodSeconds": 30},
                          plans(), created + timedelta(days=8),
                          selector={"app.kubernetes.io/instance": "eks-pod-identity-agent",
                                    "app.kubernetes.io/name": "eks-pod-identity-agent"}, max_unavailable="10%")

    coredns_labels = {"eks.amazonaws.com/component": "coredns", "k8s-app": "kube-dns", "kubernetes.io/name": "CoreDNS"}
    eks_coredns = coredns_spec(f"{ECR}/eks/coredns:v1.11.1-eksbuild.11")
    eks_coredns.pop("nodeSelector")
    eks_coredns["affinity"] = {
        "nodeAffinity": linux_amd["nodeAffinity"],
        "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 100, "podAffinityTerm": {
            "labelSelector": {"matchExpressions": [{"key": "k8s-app", "operator": "In", "values": ["kube-dns"]}]},
            "topologyKey": "kubernetes.io/hostname"}}]}}
    cluster.add_deployment("kube-system", "coredns", coredns_labels, eks_coredns,
                           [PodPlan(node_names[0]), PodPlan(node_names[1])], created,
                           selector={"eks.amazonaws.com/component": "coredns", "k8s-app": "kube-dns"})
    sidecars = [("csi-provisioner", "csi-provisioner:v5.0.2-eks-1-30-13"), ("csi-attacher", "csi-attacher:v4.6.1-eks-1-30-13"),
                ("csi-snapshotter", "csi-snapshotter:v8.0.1-eks-1-30-13"), ("csi-resizer", "csi-resizer:v1.11.2-eks-1-30-13"),
                ("liveness-probe", "livenessprobe:v2.13.1-eks-1-30-13")]
    cluster.add_deployment("kube-system", "ebs-csi-controller", {**ebs_labels, "app": "ebs-csi-controller"}, {
        "volumes": [empty_volume("socket-dir")],
        "containers": [ctr("ebs-plugin", plugin, args=["controller", "--endpoint=$(CSI_ENDPOINT)", "--batching=true",
                                                         "--logging-format=text", "--v=2"],
                           env=[env_value("CSI_ENDPOINT", "unix:///var/lib/csi/sockets/pluginproxy/csi.sock"),
                                env_field("CSI_NODE_NAME", "spec.nodeName")],
                           ports=[port("healthz", 9808)], requests={"cpu": "10m", "memory": "40Mi"},
                           limits={"memory": "256Mi"},
                           mounts=[mount("socket-dir", "/var/lib/csi/sockets/pluginproxy/")],
                           liveness=http_probe("/healthz", "healthz", initial=10, timeout=3, failure=5),
                           readiness=http_probe("/healthz", "healthz", initial=10, timeout=3, failure=5),
                           security={"allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True})]
        + [ctr(n, f"{ECR}/eks/{img}", args=["--csi-address=$(ADDRESS)", "--v=2"],
               env=[env_value("ADDRESS", "/var/lib/csi/sockets/pluginproxy/csi.sock")],
               requests={"cpu": "10m", "memory": "40Mi"}, limits={"memory": "256Mi"},
               mounts=[mount("socket-dir", "/var/lib/csi/sockets/pluginproxy/")],
               security={"allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True}) for n, img in sidecars],
        "nodeSelector": {"kubernetes.io/os": "linux"}, "serviceAccountName": "ebs-csi-controller-sa",
        "securityContext": {"runAsUser": 1000, "runAsGroup": 1000, "runAsNonRoot": True, "fsGroup": 1000},
        "tolerations": [toleration("CriticalAddonsOnly"), toleration(effect="NoExecute")],
        "priorityClassName": "system-cluster-critical",
    }, [PodPlan(node_names[0]), PodPlan(node_names[1])], created + timedelta(days=8),
        selector={"app": "ebs-csi-controller", "app.kubernetes.io/name": "aws-ebs-csi-driver"})

    cluster.add_service("kube-system", "kube-dns", kube_dns_service_ports()[:2], created, {"k8s-app": "kube-dns"},
                        "172.20.0.10", labels={"eks.amazonaws.com/component": "kube-dns", "k8s-app": "kube-dns",
                                               "kubernetes.io/cluster-service": "true", "kubernetes.io/name": "CoreDNS"},
                        annotations={"prometheus.io/port": "9153", "prometheus.io/scrape": "true"}, manager="eks")
    cluster.add_service("default", "kubernetes", [{"name": "https", "port": 443, "targetPort": 443}], created, None,
                        "172.20.0.1", labels={"component": "apiserver", "provider": "kubernetes"},
                        manager="kube-apiserver")

    build_eks_payments(cluster, node_names, app_created, lost_at)
    for pod in cluster.of_kind("Pod"):
        if pod["spec"].get("nodeName") == node_names[2]:
            cluster.add_event(pod, "NodeNotReady", "Node is not ready", lost_at + timedelta(seconds=1),
                              event_type="Warning", component="node-controller")
    lost_node = cluster.get("Node", "", node_names[2])
    cluster.add_event(lost_node, "NodeNotReady", f"Node {node_names[2]} status is now: NodeNotReady",
                      lost_at, component="node-controller")
    cluster.finish()
    return cluster


def build_eks_payments(cluster: Cluster, nodes: list[str], created: datetime, lost_at: datetime) -> None:
    """The `payments` namespace and its planted problems."""
    web = {"containers": [ctr("web", f"{APP_ECR}/web:1.14.0", ports=[port("http", 8080)],
                              requests={"cpu": "100m", "memory": "64Mi"}, limits={"memory": "128Mi"},
                              readiness=http_probe("/healthz", "http"))]}
    cluster.add_deployment("payments", "web", {"app": "web"}, web, [PodPlan(nodes[0]), PodPlan(nodes[1])],
                           created, manager="kubectl-client-side-apply")
    api = {"containers": [ctr("api", f"{APP_ECR}/api:2.7.3", ports=[port("http", 8080)],
                              env=[env_value("DATABASE_HOST", "ledger-db.payments.svc.cluster.local"),
                                   env_value("DATABASE_PORT", "5432")],
                              requests={"cpu": "250m", "memory": "256Mi"}, limits={"memory": "512Mi"},
                              readiness=http_probe("/ready", "http"), liveness=http_probe("/live", "http", initial=15))]}
    cluster.add_deployment("payments", "api", {"app": "api"}, api,
                           [PodPlan(nodes[0]), PodPlan(nodes[1]), PodPlan(nodes[2], node_lost=True)],
                           created, manager="kubectl-client-side-apply", progress="complete")
    bad_image = f"{APP_ECR}/worker:2.7.4-rc1"
    worker = {"containers": [ctr("worker", bad_image, env=[env_value("QUEUE_URL",
                                                                     "https://sqs.us-east-1.amazonaws.com/318274654021/payments-settlement")],
                                 requests={"cpu": "200m", "memory": "256Mi"})]}
    pulled_since = ago(minutes=48)
    cluster.add_deployment("payments", "worker", {"app": "worker"}, worker,
                           [PodPlan(nodes[1], {"worker": Run(state="waiting", reason="ImagePullBackOff",
                                                             message=f'Back-off pulling image "{bad_image}"',
                                                             ever_started=False)}, created=pulled_since)],
                           pulled_since, manager="kubectl-client-side-apply", progress="deadline")
    worker_pod = next(p for p in cluster.of_kind("Pod", "payments") if p["metadata"]["name"].startswith("worker-"))
    path = "spec.containers{worker}"
    not_found = (f'Failed to pull image "{bad_image}": rpc error: code = NotFound desc = failed to pull and unpack image '
                 f'"{bad_image}": failed to resolve reference "{bad_image}": {bad_image}: not found')
    cluster.add_event(worker_pod, "Pulling", f'Pulling image "{bad_image}"', pulled_since + timedelta(seconds=2),
                      ago(minutes=3, seconds=30), 14, host=nodes[1], field_path=path)
    cluster.add_event(worker_pod, "Failed", not_found, pulled_since + timedelta(seconds=3), ago(minutes=3, seconds=29),
                      14, "Warning", host=nodes[1], field_path=path)
    cluster.add_event(worker_pod, "Failed", "Error: ErrImagePull", pulled_since + timedelta(seconds=3),
                      ago(minutes=3, seconds=29), 14, "Warning", host=nodes[1], field_path=path)
    cluster.add_event(worker_pod, "BackOff", f'Back-off pulling image "{bad_image}"', pulled_since + timedelta(seconds=30),
                      ago(seconds=44), 203, host=nodes[1], field_path=path)
    cluster.add_event(worker_pod, "Failed", "Error: ImagePullBackOff", pulled_since + timedelta(seconds=30),
                      ago(seconds=44), 203, "Warning", host=nodes[1], field_path=path)

    reconciler = {"containers": [ctr("reconciler", f"{APP_ECR}/reconciler:2.7.3",
                                     env=[env_value("DATABASE_URL", "postgres://reconciler@ledger-db.payments.svc:5433/ledger"),
                                          env_value("RECONCILE_INTERVAL", "60s")],
                                     requests={"cpu": "100m", "memory": "128Mi"}, limits={"memory": "256Mi"})]}
    cluster.add_deployment("payments", "reconciler", {"app": "reconciler"}, reconciler,
                           [PodPlan(nodes[0], {"reconciler": crashloop(23, "Error", 1, ago(minutes=2, seconds=51),
                                                                       ago(minutes=2, seconds=46))})],
                           created + timedelta(days=3), manager="kubectl-client-side-apply", progress="complete")
    crashing = next(p for p in cluster.of_kind("Pod", "payments") if p["metadata"]["name"].startswith("reconciler-"))
    cluster.logs[("payments", crashing["metadata"]["name"], "reconciler", False)] = app_log(ago(minutes=2, seconds=51), [
        (0.1, "info", "reconciler 2.7.3 starting interval=60s"),
        (0.2, "info", "connecting to database host=ledger-db.payments.svc port=5433"),
        (5.2, "error", "dial tcp 172.20.118.40:5433: connect: connection refused"),
        (5.2, "error", "fatal: could not connect to ledger database after 5 attempts"),
    ])
    cluster.add_event(crashing, "BackOff", f"Back-off restarting failed container reconciler in pod "
                      f"{crashing['metadata']['name']}_payments({crashing['metadata']['uid']})",
                      ago(hours=1, minutes=55), ago(seconds=26), 497, "Warning", host=nodes[0],
                      field_path="spec.containers{reconciler}")

    report = {"containers": [ctr("report-builder", f"{APP_ECR}/report-builder:1.2.0",
                                 requests={"cpu": "4", "memory": "6Gi"}, limits={"cpu": "4", "memory": "6Gi"})]}
    message = ("0/3 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, "
               "2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, "
               "2 No preemption victims found for incoming pod.")
    pending_since = ago(hours=2, minutes=10)
    cluster.add_deployment("payments", "report-builder", {"app": "report-builder"}, report,
                           [PodPlan(None, unschedulable=message, created=pending_since)], pending_since,
                           manager="kubectl-client-side-apply", progress="deadline")
    pending = next(p for p in cluster.of_kind("Pod", "payments") if p["metadata"]["name"].startswith("report-builder-"))
    cluster.add_scheduler_event(pending, message, pending_since + timedelta(seconds=1), ago(minutes=1, seconds=3), 31)

    ledger = {"volumes": [empty_volume("data")],
              "containers": [ctr("postgres", "postgres:16.4", ports=[port("postgres", 5432)],
                                 env=[env_value("POSTGRES_DB", "ledger"), env_value("PGDATA", "/var/lib/postgresql/data/pgdata")],
                                 requests={"cpu": "250m", "memory": "512Mi"}, limits={"memory": "1Gi"},
                                 mounts=[mount("data", "/var/lib/postgresql/data")],
                                 readiness=exec_probe(["pg_isready", "-U", "postgres"], initial=5))]}
    cluster.add_deployment("payments", "ledger-db", {"app": "ledger-db"}, ledger, [PodPlan(nodes[1])], created,
                           manager="kubectl-client-side-apply")
    for pod in cluster.of_kind("Pod", "payments"):
        if pod["metadata"]["name"].startswith("web-"):
            cluster.logs[("payments", pod["metadata"]["name"], "web", False)] = nginx_access_log(
                ago(minutes=40), 12, pod["metadata"]["name"], ["/", "/healthz", "/checkout", "/static/app.js"])
        if pod["metadata"]["name"].startswith("ledger-db-"):
            cluster.logs[("payments", pod["metadata"]["name"], "postgres", False)] = (
                "2024-09-02 10:14:07.412 UTC [1] LOG:  starting PostgreSQL 16.4 (Debian 16.4-1.pgdg120+1) on "
                "x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit\n"
                "2024-09-02 10:14:07.413 UTC [1] LOG:  listening on IPv4 address \"0.0.0.0\", port 5432\n"
                "2024-09-02 10:14:07.420 UTC [1] LOG:  database system is ready to accept connections\n")

    lb_host = "a3f9c1e2b7d84c6e9f0a1b2c3d4e5f60-1843326911.us-east-1.elb.amazonaws.com"
    cluster.add_service("payments", "web", [{"name": "http", "port": 80, "targetPort": "http", "nodePort": 30412}],
                        created, {"app": "web"}, "172.20.44.201", "LoadBalancer", labels={"app": "web"},
                        load_balancer={"ingress": [{"hostname": lb_host}]})
    cluster.add_service("payments", "api", [{"name": "http", "port": 80, "targetPort": "http"}], created,
                        {"app": "api"}, "172.20.91.14", labels={"app": "api"})
    cluster.add_service("payments", "ledger-db", [{"name": "postgres", "port": 5432, "targetPort": 5432}], created,
                        {"app": "ledger-db"}, "172.20.118.40", labels={"app": "ledger-db"})


# ---------------------------------------------------------------------------------------------
# OKE: three flannel worker nodes in a private subnet, a billing application (seed 002)
# ---------------------------------------------------------------------------------------------

OKE_VERSION = "v1.28.2"
OCIR = "iad.ocir.io/axoxdievda5j"
APP_OCIR = "iad.ocir.io/idk7xq2mz0ab/billing"
OKE_SERVER_VERSION = {
    "major": "1", "minor": "28", "gitVersion": OKE_VERSION, "gitCommit": "89a4ea3e1e4ddd7f7572286090359983e0387b2f",
    "gitTreeState": "clean", "buildDate": "2023-09-13T09:29:07Z", "goVersion": "go1.20.8", "compiler": "gc",
    "platform": "linux/amd64",
}
OKE_COMPARTMENT = "aaaaaaaa4qkq2vq3fh5lbwxkzr6d7pgo3ylnxq5fnd2tjw6xq7aqm2c5p4xa"
OKE_NODES = (("10.0.10.10", "10.244.0.0/25", "10.244.0.", 2, "FAULT-DOMAIN-1"),
             ("10.0.10.11", "10.244.0.128/25", "10.244.0.", 130, "FAULT-DOMAIN-2"),
             ("10.0.10.12", "10.244.1.0/25", "10.244.1.", 2, "FAULT-DOMAIN-3"))


def oke_node_labels(ip: str, display: str, fault_domain: str) -> dict[str, str]:
    return {
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/instance-type": "VM.Standard.E4.Flex",
        "beta.kubernetes.io/os": "linux",
        "displayName": display,
        "failure-domain.beta.kubernetes.io/region": "iad",
        "failure-domain.beta.kubernetes.io/zone": "US-ASHBURN-AD-1",
        "hostname": display,
        "internal_addr": ip,
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": ip,
        "kubernetes.io/os": "linux",
        "last-migration-failure": "get_kubesvc_failure",
        "name": "pool1",
        "node-role.kubernetes.io/node": "",
        "node.info.ds_proxymux_client": "true",
        "node.info/compartment.id_prefix": "ocid1.compartment.oc1",
        "node.info/compartment.id_suffix": OKE_COMPARTMENT,
        "node.info/compartment.name": "billing-prod",
        "node.info/kubeletVersion": "v1.28",
        "node.kubernetes.io/instance-type": "VM.Standard.E4.Flex",
        "oci.oraclecloud.com/fault-domain": fault_domain,
        "oke.oraclecloud.com/node.info.private_subnet": "true",
        "oke.oraclecloud.com/node.info.private_worker": "true",
        "oke.oraclecloud.com/tenant_agent.version": "1.52.3-5f1e2c7b41-871",
        "topology.kubernetes.io/region": "iad",
        "topology.kubernetes.io/zone": "US-ASHBURN-AD-1",
    }


KUBE_PROXY_CONFIG = """apiVersion: kubeproxy.config.k8s.io/v1alpha1
bindAddress: 0.0.0.0
bindAddressHardFail: false
clientConnection:
  acceptContentTypes: ""
  burst: 0
  contentType: ""
  kubeconfig: /var/lib/kube-proxy/kubeconfig.conf
  qps: 0
clusterCIDR: 10.244.0.0/16
configSyncPeriod: 0s
conntrack:
  maxPerCore: null
  min: null
  tcpCloseWaitTimeout: null
  tcpEstablishedTimeout: null
detectLocalMode: ""
enableProfiling: false
healthzBindAddress: ""
hostnameOverride: ""
iptables:
  masqueradeAll: false
  masqueradeBit: null
  minSyncPeriod: 0s
  syncPeriod: 0s
ipvs:
  excludeCIDRs: null
  minSyncPeriod: 0s
  scheduler: ""
  strictARP: false
  syncPeriod: 0s
  tcpFinTimeout: 0s
  tcpTimeout: 0s
  udpTimeout: 0s
kind: KubeProxyConfiguration
metricsBindAddress: ""
mode: ""
nodePortAddresses: null
oomScoreAdj: null
portRange: ""
showHiddenMetricsForVersion: ""
udpIdleTimeout: 0s
winkernel:
  enableDSR: false
  networkName: ""
  sourceVip: ""
"""


def kube_proxy_kubeconfig(server: str) -> str:
    """kube-proxy's kubeconfig.conf (seeds 003/004)."""
    return f"""apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority: /var/run/secrets/kubernetes.io/serviceaccount/ca.crt
    server: {server}
  name: default
contexts:
- context:
    cluster: default
    namespace: default
    user: default
  name: default
current-context: default
users:
- name: default
  user:
    tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token
"""


FLANNEL_NET_CONF = '{\n  "Network": "10.244.0.0/16",\n  "Backend": {\n    "Type": "vxlan"\n  }\n}\n'
FLANNEL_CNI_CONF = """{
  "name": "cbr0",
  "cniVersion": "0.3.1",
  "plugins": [
    {
      "type": "flannel",
      "delegate": {
        "hairpinMode": true,
        "isDefaultGateway": true
      }
    },
    {
      "type": "portmap",
      "capabilities": {
        "portMappings": true
      }
    }
  ]
}
"""


def build_oke() -> Cluster:
    created = ago(days=21, hours=7, minutes=33)
    flavor = Flavor("oke", 28, "cri-o", created, "default-scheduler-oke-control-plane", "kubectl-client-side-apply")
    cluster = Cluster(flavor, [("10.0.0.13", 6443)])
    billing_created = ago(days=17, hours=1)
    add_default_namespaces(cluster, created, [("billing", billing_created)])
    node_names = []
    for index, (ip, cidr, prefix, first_ip, fault_domain) in enumerate(OKE_NODES):
        node_created = ago(days=21, hours=7, minutes=10 - index)
        display = f"oke-c4tgmjzqzfa-nyqwd7kg4ma-s2fzl5omxta-{index}"
        instance = "ocid1.instance.oc1.iad.anuwcljt" + hexid(52, "oke", ip, "instance")[:52]
        vtep = ":".join(hexid(12, "oke", ip, "vtep")[i:i + 2] for i in range(0, 12, 2))
        cluster.add_node(
            ip, ip, node_created, oke_node_labels(ip, display, fault_domain),
            {"alpha.kubernetes.io/provided-node-ip": ip,
             "csi.volume.kubernetes.io/nodeid": json.dumps({"blockvolume.csi.oraclecloud.com": ip,
                                                            "fss.csi.oraclecloud.com": ip}, separators=(",", ":")),
             "flannel.alpha.coreos.com/backend-data": json.dumps({"VNI": 1, "VtepMAC": vtep}, separators=(",", ":")),
             "flannel.alpha.coreos.com/backend-type": "vxlan",
             "flannel.alpha.coreos.com/kube-subnet-manager": "true",
             "flannel.alpha.coreos.com/public-ip": ip,
             "node.alpha.kubernetes.io/ttl": "0",
             "oci.oraclecloud.com/compartment-id": f"ocid1.compartment.oc1..{OKE_COMPARTMENT}",
             "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
            {"podCIDR": cidr, "podCIDRs": [cidr], "providerID": f"oci://{instance}"},
            {"cpu": "4", "ephemeral-storage": "37177616Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
             "memory": "16092636Ki", "pods": "110"},
            {"cpu": "3830m", "ephemeral-storage": "34262890849", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
             "memory": "14873948Ki", "pods": "110"},
            node_info("oke", ip, "5.15.0-205.149.5.1.el8uek.x86_64", "Oracle Linux Server 8.9",
                      "cri-o://1.28.2-109.el8", OKE_VERSION),
            node_conditions(ago(seconds=19 + index * 13), node_created, ("FlannelIsUp", "Flannel is running on this node")),
            [{"type": "InternalIP", "address": ip}, {"type": "Hostname", "address": ip}],
            prefix, first_ip,
        )
        node_names.append(ip)

    cluster.add_configmap("kube-system", "coredns", {"Corefile": COREFILE_UPSTREAM}, created)
    cluster.add_configmap("kube-system", "kube-dns-autoscaler", {
        "linear": '{"coresPerReplica":256,"min":1,"nodesPerReplica":16,"preventSinglePointFailure":true}'},
        created + timedelta(minutes=1), manager="cluster-proportional-autoscaler")
    cluster.add_configmap("kube-system", "kube-flannel-cfg", {"cni-conf.json": FLANNEL_CNI_CONF,
                                                               "net-conf.json": FLANNEL_NET_CONF},
                          created, labels={"app": "flannel", "tier": "node"})
    cluster.add_configmap("kube-system", "kube-proxy", {"config.conf": KUBE_PROXY_CONFIG,
                                                         "kubeconfig.conf": kube_proxy_kubeconfig("https://10.0.0.13:6443")},
                          created, labels={"app": "kube-proxy"})
    add_extension_apiserver_authentication(cluster, created)

    def ds_plans() -> list[PodPlan]:
        return [PodPlan(n) for n in node_names]

    cluster.add_daemonset("kube-system", "csi-oci-node", {"app": "csi-oci-node", "role": "csi-oci"}, {
        "volumes": [host_volume("plugin-dir", "/var/lib/kubelet/plugins/blockvolume.csi.oraclecloud.com", "DirectoryOrCreate"),
                    host_volume("registration-dir", "/var/lib/kubelet/plugins_registry/", "Directory"),
                    host_volume("kubelet-dir", "/var/lib/kubelet", "Directory"),
                    host_volume("device-dir", "/dev"), host_volume("host-rootfs", "/"),
                    host_volume("encrypt-pv-mount-dir", "/var/lib/kubelet/plugins/blockvolume.csi.oraclecloud.com/encrypted-pv-mount", "DirectoryOrCreate")],
        "containers": [
            ctr("oci-csi-node-driver", f"{OCIR}/oke-public-cloud-provider-oci:v1.28.0-5a6d3a8-109",
                command=["/bin/sh", "-c", "mkdir -p /var/lib/kubelet/plugins/blockvolume.csi.oraclecloud.com && "
                         "/usr/local/bin/oci-csi-node-driver --v=2 --endpoint=unix:///csi/csi.sock "
                         "--nodeid=$(KUBE_NODE_NAME) --loglevel=debug"],
                env=[env_field("KUBE_NODE_NAME", "spec.nodeName"), env_value("PATH", "/usr/local/bin:/usr/bin:/sbin")],
                mounts=[mount("plugin-dir", "/csi"), mount("kubelet-dir", "/var/lib/kubelet"),
                        mount("device-dir", "/dev"), mount("host-rootfs", "/host"),
                        mount("encrypt-pv-mount-dir", "/var/lib/kubelet/plugins/blockvolume.csi.oraclecloud.com/encrypted-pv-mount")],
                security={"privileged": True}),
            ctr("csi-node-registrar", f"{OCIR}/oke-public-csi-node-driver-registrar:v2.5.0",
                args=["--csi-address=/csi/csi.sock",
                      "--kubelet-registration-path=/var/lib/kubelet/plugins/blockvolume.csi.oraclecloud.com/csi.sock"],
                mounts=[mount("plugin-dir", "/csi"), mount("registration-dir", "/registration")],
                security={"privileged": True}),
        ],
        "serviceAccountName": "csi-oci-node-sa", "hostNetwork": True, "tolerations": [toleration()],
        "priorityClassName": "system-node-critical",
    }, ds_plans(), created, selector={"app": "csi-oci-node", "role": "csi-oci"})
    flannel_restart = [running(1, "Error", 1, started=ago(days=21, hours=7, minutes=2 - i),
                               last_started=ago(days=21, hours=7, minutes=5 - i),
                               last_finished=ago(days=21, hours=7, minutes=4 - i, seconds=30)) for i in range(3)]
    cluster.add_daemonset("kube-system", "kube-flannel-ds", {"app": "flannel", "tier": "node"}, {
        "volumes": [host_volume("run", "/run/flannel"), host_volume("cni", "/etc/cni/net.d"),
                    cm_volume("flannel-cfg", "kube-flannel-cfg"),
                    host_volume("xtables-lock", "/run/xtables.lock", "FileOrCreate")],
        "initContainers": [ctr("install-cni", f"{OCIR}/oke-public-flannel:v0.21.5-1f4c9e0",
                               command=["cp"], args=["-f", "/etc/kube-flannel/cni-conf.json", "/etc/cni/net.d/10-flannel.conflist"],
                               mounts=[mount("cni", "/etc/cni/net.d"), mount("flannel-cfg", "/etc/kube-flannel/")])],
        "containers": [ctr("kube-flannel", f"{OCIR}/oke-public-flannel:v0.21.5-1f4c9e0",
                           command=["/opt/bin/flanneld"], args=["--ip-masq", "--kube-subnet-mgr"],
                           env=[env_field("POD_NAME", "metadata.name"), env_field("POD_NAMESPACE", "metadata.namespace")],
                           requests={"cpu": "100m", "memory": "50Mi"}, limits={"cpu": "100m", "memory": "50Mi"},
                           mounts=[mount("run", "/run/flannel"), mount("flannel-cfg", "/etc/kube-flannel/"),
                                   mount("xtables-lock", "/run/xtables.lock")],
                           security={"capabilities": {"add": ["NET_ADMIN", "NET_RAW"]}, "privileged": False})],
        "nodeSelector": {"beta.kubernetes.io/arch": "amd64"}, "serviceAccountName": "flannel", "hostNetwork": True,
        "tolerations": [toleration(effect="NoSchedule")], "priorityClassName": "system-node-critical",
    }, [PodPlan(n, {"kube-flannel": flannel_restart[i]}) for i, n in enumerate(node_names)], created,
        selector={"app": "flannel", "tier": "node"})
    for i, pod in enumerate(p for p in cluster.of_kind("Pod", "kube-system") if p["metadata"]["name"].startswith("kube-flannel-ds-")):
        name = pod["metadata"]["name"]
        cluster.logs[("kube-system", name, "kube-flannel", True)] = "\n".join([
            klog("I", ago(days=21, hours=7, minutes=5 - i), "main.go:212",
                 "CLI flags config: {etcdEndpoints:http://127.0.0.1:4001,http://127.0.0.1:2379 etcdPrefix:/coreos.com/network "
                 "etcdKeyfile: etcdCertfile: etcdCAFile: etcdUsername: etcdPassword: version:false kubeSubnetMgr:true "
                 "kubeApiUrl: kubeAnnotationPrefix:flannel.alpha.coreos.com kubeConfigFile: iface:[] ifaceRegex:[] "
                 "ipMasq:true ifaceCanReach: subnetFile:/run/flannel/subnet.env publicIP: publicIPv6: subnetLeaseRenewMargin:60 "
                 "healthzIP:0.0.0.0 healthzPort:0 iptablesResyncSeconds:5 iptablesForwardRules:true netConfPath:/etc/kube-flannel/net-conf.json "
                 "setNodeNetworkUnavailable:true}", name),
            klog("W", ago(days=21, hours=7, minutes=5 - i, seconds=-1), "client_config.go:617",
                 "Neither --kubeconfig nor --master was specified.  Using the inClusterConfig.  This might not work.", name),
            klog("E", ago(days=21, hours=7, minutes=4 - i, seconds=31), "main.go:335",
                 f'Error registering network: failed to acquire lease: Get "https://10.96.0.1:443/api/v1/nodes/{node_names[i]}": '
                 "dial tcp 10.96.0.1:443: i/o timeout", name),
            klog("I", ago(days=21, hours=7, minutes=4 - i, seconds=30), "main.go:446", "Stopping shutdownHandler...", name),
        ]) + "\n"
    cluster.add_daemonset("kube-system", "kube-proxy", {"k8s-app": "kube-proxy"},
                          kube_proxy_spec(f"{OCIR}/oke-public-kube-proxy:v1.28.2-1",
                                          ["/usr/local/bin/kube-proxy", "--config=/var/lib/kube-proxy/config.conf",
                                           "--hostname-override=$(NODE_NAME)"],
                                          extra_volumes=[cm_volume("kube-proxy", "kube-proxy")],
                                          extra_mounts=[mount("kube-proxy", "/var/lib/kube-proxy")],
                                          node_selector={"beta.kubernetes.io/os": "linux"}),
                          ds_plans(), created, selector={"k8s-app": "kube-proxy"})
    cluster.add_daemonset("kube-system", "nvidia-gpu-device-plugin", {"k8s-app": "nvidia-gpu-device-plugin"}, {
        "volumes": [host_volume("device-plugin", "/var/lib/kubelet/device-plugins")],
        "containers": [ctr("nvidia-gpu-device-plugin", f"{OCIR}/oke-public-nvidia-k8s-device-plugin:v0.14.5",
                           requests={"cpu": "50m", "memory": "10Mi"}, limits={"cpu": "50m", "memory": "10Mi"},
                           mounts=[mount("device-plugin", "/var/lib/kubelet/device-plugins")],
                           security={"privileged": True})],
        "nodeSelector": {"nvidia.com/gpu": "true"}, "tolerations": [toleration("nvidia.com/gpu", effect="NoSchedule")],
        "priorityClassName": "system-node-critical",
    }, [], created, selector={"k8s-app": "nvidia-gpu-device-plugin"})
    # proxymux-client exactly as the OKE seed shows it (served as apps/v1 by a 1.28 API server).
    critical = {"scheduler.alpha.kubernetes.io/critical-pod": ""}
    cluster.add_daemonset("kube-system", "proxymux-client", {"oke-app": "proxymux-client-ds"}, {
        "volumes": [host_volume("proxymux-cfg", "/etc/proxymux/"), host_volume("kubernetes-cfg", "/etc/kubernetes/")],
        "containers": [ctr("proxymux-client", f"{OCIR}/oke-public-proxymux-cli:2.0.2-85d0c34",
                           args=["--config=/mnt/etc/proxymux/config.yaml", "--verbosity=info"],
                           limits={"cpu": "500m", "memory": "256Mi"}, requests={"cpu": "50m", "memory": "64Mi"},
                           mounts=[mount("proxymux-cfg", "/mnt/etc/proxymux/", read_only=True),
                                   mount("kubernetes-cfg", "/etc/kubernetes/", read_only=True)],
                           security={"privileged": True})],
        "dnsPolicy": "ClusterFirst", "hostNetwork": True, "nodeSelector": {"node.info.ds_proxymux_client": "true"},
        "priorityClassName": "system-node-critical",
    }, ds_plans(), created, annotations=critical, pod_annotations=critical, selector={"oke-app": "proxymux-client-ds"})

    cluster.add_deployment("kube-system", "coredns", {"k8s-app": "kube-dns", "kubernetes.io/name": "CoreDNS"},
                           coredns_spec(f"{OCIR}/oke-public-coredns:v1.10.1"),
                           [PodPlan(n) for n in node_names], created, selector={"k8s-app": "kube-dns"})
    cluster.add_deployment("kube-system", "kube-dns-autoscaler", {"k8s-app": "kube-dns-autoscaler"}, {
        "containers": [ctr("autoscaler", f"{OCIR}/oke-public-cluster-proportional-autoscaler-amd64:1.8.6",
                           command=["/cluster-proportional-autoscaler", "--namespace=kube-system",
                                    "--configmap=kube-dns-autoscaler", "--target=Deployment/coredns",
                                    "--default-params={\"linear\":{\"coresPerReplica\":256,\"nodesPerReplica\":16,"
                                    "\"preventSinglePointFailure\":true,\"includeUnschedulableNodes\":true}}",
                                    "--logtostderr=true", "--v=2"],
                           requests={"cpu": "20m", "memory": "10Mi"})],
        "serviceAccountName": "kube-dns-autoscaler", "tolerations": [toleration("CriticalAddonsOnly")],
        "priorityClassName": "system-cluster-critical",
    }, [PodPlan(node_names[1])], created, selector={"k8s-app": "kube-dns-autoscaler"})
    cluster.add_service("kube-system", "kube-dns", kube_dns_service_ports(), created, {"k8s-app": "kube-dns"},
                        "10.96.0.10", labels={"k8s-app": "kube-dns", "kubernetes.io/cluster-service": "true",
                                              "kubernetes.io/name": "KubeDNS"},
                        annotations={"prometheus.io/port": "9153", "prometheus.io/scrape": "true"})
    cluster.add_service("default", "kubernetes", [{"name": "https", "port": 443, "targetPort": 6443}], created, None,
                        "10.96.0.1", labels={"component": "apiserver", "provider": "kubernetes"},
                        manager="kube-apiserver")
    cluster.add_storageclass("oci", "oracle.com/oci", created, {}, False, "Immediate", expansion=False)
    cluster.add_storageclass("oci-bv", "blockvolume.csi.oraclecloud.com", created, {}, True, "WaitForFirstConsumer")
    build_oke_billing(cluster, node_names, billing_created)
    cluster.finish()
    return cluster


def build_oke_billing(cluster: Cluster, nodes: list[str], created: datetime) -> None:
    """The `billing` namespace and its planted problems."""
    invoice = {"containers": [ctr("invoice-api", f"{APP_OCIR}/invoice-api:4.2.0", ports=[port("http", 8080)],
                                  env=[env_value("DB_HOST", "billing-db.billing.svc.cluster.local")],
                                  requests={"cpu": "200m", "memory": "256Mi"}, limits={"memory": "512Mi"},
                                  readiness=http_probe("/health/ready", "http"))]}
    cluster.add_deployment("billing", "invoice-api", {"app": "invoice-api"}, invoice,
                           [PodPlan(nodes[0]), PodPlan(nodes[2])], created, manager="kubectl-client-side-apply")
    lb_annotations = {"oci.oraclecloud.com/load-balancer-type": "lb",
                      "service.beta.kubernetes.io/oci-load-balancer-shape": "flexible",
                      "service.beta.kubernetes.io/oci-load-balancer-shape-flex-max": "100",
                      "service.beta.kubernetes.io/oci-load-balancer-shape-flex-min": "10"}
    lb_created = ago(hours=3, minutes=20)
    service = cluster.add_service("billing", "invoice-api", [{"name": "http", "port": 80, "targetPort": "http",
                                                              "nodePort": 31390}],
                                  lb_created, {"app": "invoice-api"}, "10.96.12.87", "LoadBalancer",
                                  labels={"app": "invoice-api"}, annotations=lb_annotations)
    cluster.add_event(service, "EnsuringLoadBalancer", "Ensuring load balancer", lb_created + timedelta(seconds=1),
                      ago(minutes=7, seconds=40), 27, component="service-controller")
    cluster.add_event(service, "SyncLoadBalancerFailed",
                      "Error syncing load balancer: failed to ensure load balancer: failed to create load balancer "
                      "\"a8c3f0e2b1d94e6fa7b52c9d0e1f2a3b\": Service error:LimitExceeded. The following service limits "
                      "were exceeded: lb-flexible-count. Request a service limit increase from the service limits page "
                      "in the console. . http status code: 400. Opc request id: "
                      + hexid(32, "oke", "opc-request").upper(),
                      lb_created + timedelta(seconds=9), ago(minutes=7, seconds=31), 27, "Warning",
                      component="service-controller")

    # billing-worker: `:latest`, and its settings ConfigMap does not exist.
    worker_image = f"{APP_OCIR}/worker:latest"
    worker = {"containers": [ctr("billing-worker", worker_image, env_from=[{"configMapRef": {"name": "billing-settings"}}],
                                 requests={"cpu": "100m", "memory": "128Mi"})]}
    worker_since = ago(hours=1, minutes=12)
    cluster.add_deployment("billing", "billing-worker", {"app": "billing-worker"}, worker,
                           [PodPlan(nodes[1], {"billing-worker": Run(state="waiting", reason="CreateContainerConfigError",
                                                                     message='configmap "billing-settings" not found',
                                                                     ever_started=False)}, created=worker_since)],
                           worker_since, manager="kubectl-client-side-apply", progress="deadline")
    worker_pod = next(p for p in cluster.of_kind("Pod", "billing") if p["metadata"]["name"].startswith("billing-worker-"))
    path = "spec.containers{billing-worker}"
    cluster.add_event(worker_pod, "Pulling", f'Pulling image "{worker_image}"', worker_since + timedelta(seconds=2),
                      ago(minutes=1, seconds=52), 331, host=nodes[1], field_path=path)
    cluster.add_event(worker_pod, "Pulled", f'Successfully pulled image "{worker_image}" in 412ms (412ms including waiting)',
                      worker_since + timedelta(seconds=3), ago(minutes=1, seconds=51), 331, host=nodes[1],
                      field_path=path)
    cluster.add_event(worker_pod, "Failed", 'Error: configmap "billing-settings" not found',
                      worker_since + timedelta(seconds=3), ago(minutes=1, seconds=51), 331, "Warning", host=nodes[1],
                      field_path=path)

    # billing-db: its claim asks for a StorageClass that does not exist, so it never binds.
    claim = cluster.add_pvc("billing", "billing-db-data", "100Gi", "oci-bv-premium", created + timedelta(minutes=4))
    cluster.add_event(claim, "ProvisioningFailed", 'storageclass.storage.k8s.io "oci-bv-premium" not found',
                      created + timedelta(minutes=4), ago(minutes=2, seconds=3), 4312, "Warning",
                      component="persistentvolume-controller")
    database = {"volumes": [pvc_volume("data", "billing-db-data")],
                "containers": [ctr("postgres", "postgres:15.8", ports=[port("postgres", 5432)],
                                   env=[env_value("POSTGRES_DB", "billing"),
                                        env_value("PGDATA", "/var/lib/postgresql/data/pgdata")],
                                   requests={"cpu": "500m", "memory": "1Gi"}, limits={"memory": "2Gi"},
                                   mounts=[mount("data", "/var/lib/postgresql/data")])]}
    message = ("0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are "
               "available: 3 Preemption is not helpful for scheduling..")
    cluster.add_deployment("billing", "billing-db", {"app": "billing-db"}, database,
                           [PodPlan(None, unschedulable=message, created=created + timedelta(minutes=4))],
                           created + timedelta(minutes=4), manager="kubectl-client-side-apply", progress="deadline")
    db_pod = next(p for p in cluster.of_kind("Pod", "billing") if p["metadata"]["name"].startswith("billing-db-"))
    cluster.add_scheduler_event(db_pod, message, ago(minutes=58), ago(minutes=3, seconds=21), 12)

    # reports: healthy, with a bound block volume.
    archive = cluster.add_pvc("billing", "invoice-archive", "50Gi", "oci-bv", created + timedelta(minutes=5),
                              volume="csi-" + make_uid("oke", "pv", "invoice-archive"))
    cluster.add_pv("csi-" + make_uid("oke", "pv", "invoice-archive"), archive, "50Gi", "blockvolume.csi.oraclecloud.com",
                   "ocid1.volume.oc1.iad.abuwcljt" + hexid(52, "oke", "volume"), "oci-bv",
                   "topology.kubernetes.io/zone", "US-ASHBURN-AD-1", created + timedelta(minutes=6))
    reports = {"volumes": [pvc_volume("archive", "invoice-archive")],
               "containers": [ctr("reports", f"{APP_OCIR}/reports:1.9.3", ports=[port("http", 8080)],
                                  requests={"cpu": "100m", "memory": "256Mi"},
                                  mounts=[mount("archive", "/srv/archive")])]}
    cluster.add_deployment("billing", "reports", {"app": "reports"}, reports, [PodPlan(nodes[2])],
                           created + timedelta(minutes=5), manager="kubectl-client-side-apply")

    # A schema migration Job that failed because billing-db never came up.
    job_created = ago(hours=2, minutes=5)
    migrate = {"containers": [ctr("migrate", f"{APP_OCIR}/migrations:4.2.0",
                                  command=["sh", "-c", "psql -h billing-db.billing.svc.cluster.local -U billing -f /migrations/042_invoices_v2.sql"])],
               "restartPolicy": "Never"}
    failed_runs = [PodPlan(nodes[i], {"migrate": Run(state="terminated", reason="Error", exit_code=2,
                                                     started=job_created + timedelta(minutes=i, seconds=4),
                                                     last_finished=job_created + timedelta(minutes=i, seconds=5))},
                           phase="Failed", created=job_created + timedelta(minutes=i)) for i in range(2)]
    cluster.add_job("billing", "billing-migrate-20240915", migrate, failed_runs, job_created, 1,
                    job_created + timedelta(minutes=1, seconds=6))
    for pod in cluster.of_kind("Pod", "billing"):
        if pod["metadata"]["name"].startswith("billing-migrate-"):
            cluster.logs[("billing", pod["metadata"]["name"], "migrate", False)] = (
                'psql: error: connection to server at "billing-db.billing.svc.cluster.local" (10.96.201.40), port 5432 '
                "failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?\n")
    cluster.add_service("billing", "billing-db", [{"name": "postgres", "port": 5432, "targetPort": 5432}],
                        created + timedelta(minutes=4), {"app": "billing-db"}, "10.96.201.40", labels={"app": "billing-db"})
    cluster.add_service("billing", "reports", [{"name": "http", "port": 80, "targetPort": "http"}],
                        created + timedelta(minutes=5), {"app": "reports"}, "10.96.77.152", labels={"app": "reports"})


# ---------------------------------------------------------------------------------------------
# kubeadm: one control-plane node and two workers on EC2 (no cloud controller), Calico (seeds 001, 003, 004)
# ---------------------------------------------------------------------------------------------

KUBEADM_VERSION = "v1.29.3"
K8S_REGISTRY = "registry.k8s.io"
# name, IP, podCIDR, Calico block prefix, first pod IP, EC2 instance (kubelet --provider-id)
KUBEADM_NODES = (("kube-master-node1", "10.20.15.204", "192.168.0.0/24", "192.168.57.", 129, "i-07c1d2e3f4a5b6c71"),
                 ("kube-worker-node1", "10.20.14.27", "192.168.1.0/24", "192.168.61.", 65, "i-07c1d2e3f4a5b6c72"),
                 ("kube-worker-node2", "10.20.15.49", "192.168.2.0/24", "192.168.122.", 193, "i-07c1d2e3f4a5b6c73"))


def kubeadm_static_pods(cluster: Cluster, node: str, ip: str, created: datetime) -> None:
    """etcd, kube-apiserver, kube-controller-manager and kube-scheduler mirror pods (seed 004 manifests)."""
    pki = [host_volume("ca-certs", "/etc/ssl/certs", "DirectoryOrCreate"),
           host_volume("etc-pki", "/etc/pki", "DirectoryOrCreate"),
           host_volume("k8s-certs", "/etc/kubernetes/pki", "DirectoryOrCreate")]
    pki_mounts = [mount("ca-certs", "/etc/ssl/certs", read_only=True), mount("etc-pki", "/etc/pki", read_only=True),
                  mount("k8s-certs", "/etc/kubernetes/pki", read_only=True)]
    common = {"hostNetwork": True, "priorityClassName": "system-node-critical",
              "securityContext": {"seccompProfile": {"type": "RuntimeDefault"}},
              "tolerations": [toleration(effect="NoExecute")]}
    etcd_spec = {**common,
                 "volumes": [host_volume("etcd-certs", "/etc/kubernetes/pki/etcd", "DirectoryOrCreate"),
                             host_volume("etcd-data", "/var/lib/etcd", "DirectoryOrCreate")],
                 "containers": [ctr("etcd", f"{K8S_REGISTRY}/etcd:3.5.12-0", command=[
                     "etcd", f"--advertise-client-urls=https://{ip}:2379", "--cert-file=/etc/kubernetes/pki/etcd/server.crt",
                     "--client-cert-auth=true", "--data-dir=/var/lib/etcd", "--experimental-initial-corrupt-check=true",
                     "--experimental-watch-progress-notify-interval=5s", f"--initial-advertise-peer-urls=https://{ip}:2380",
                     f"--initial-cluster={node}=https://{ip}:2380", "--key-file=/etc/kubernetes/pki/etcd/server.key",
                     f"--listen-client-urls=https://127.0.0.1:2379,https://{ip}:2379",
                     "--listen-metrics-urls=http://127.0.0.1:2381", f"--listen-peer-urls=https://{ip}:2380",
                     f"--name={node}", "--peer-cert-file=/etc/kubernetes/pki/etcd/peer.crt", "--peer-client-cert-auth=true",
                     "--peer-key-file=/etc/kubernetes/pki/etcd/peer.key", "--peer-trusted-ca-file=/etc/kubernetes/pki/etcd/ca.crt",
                     "--snapshot-count=10000", "--trusted-ca-file=/etc/kubernetes/pki/etcd/ca.crt"],
                     requests={"cpu": "100m", "memory": "100Mi"},
                     mounts=[mount("etcd-data", "/var/lib/etcd"), mount("etcd-certs", "/etc/kubernetes/pki/etcd")],
                     liveness=http_probe("/health?exclude=NOSPACE&serializable=true", 2381, initial=10, timeout=15,
                                         failure=8, host="127.0.0.1"),
                     startup=http_probe("/health?serializable=false", 2381, initial=10, timeout=15, failure=24,
                                        host="127.0.0.1"))]}
    etcd_run = running(11, "Error", 137, started=ago(minutes=47), last_started=ago(hours=2, minutes=31),
                       last_finished=ago(minutes=47, seconds=9))
    etcd = cluster.add_static_pod("etcd", node, etcd_spec, PodPlan(node, {"etcd": etcd_run}), created,
                                  {"kubeadm.kubernetes.io/etcd.advertise-client-urls": f"https://{ip}:2379"})
    apiserver_spec = {**common, "volumes": pki, "containers": [ctr("kube-apiserver", f"{K8S_REGISTRY}/kube-apiserver:{KUBEADM_VERSION}", command=[
        "kube-apiserver", f"--advertise-address={ip}", "--allow-privileged=true", "--authorization-mode=Node,RBAC",
        "--client-ca-file=/etc/kubernetes/pki/ca.crt", "--enable-admission-plugins=NodeRestriction",
        "--enable-bootstrap-token-auth=true", "--etcd-cafile=/etc/kubernetes/pki/etcd/ca.crt",
        "--etcd-certfile=/etc/kubernetes/pki/apiserver-etcd-client.crt",
        "--etcd-keyfile=/etc/kubernetes/pki/apiserver-etcd-client.key", "--etcd-servers=https://127.0.0.1:2379",
        "--kubelet-client-certificate=/etc/kubernetes/pki/apiserver-kubelet-client.crt",
        "--kubelet-client-key=/etc/kubernetes/pki/apiserver-kubelet-client.key",
        "--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname",
        "--proxy-client-cert-file=/etc/kubernetes/pki/front-proxy-client.crt",
        "--proxy-client-key-file=/etc/kubernetes/pki/front-proxy-client.key",
        "--requestheader-allowed-names=front-proxy-client",
        "--requestheader-client-ca-file=/etc/kubernetes/pki/front-proxy-ca.crt",
        "--requestheader-extra-headers-prefix=X-Remote-Extra-", "--requestheader-group-headers=X-Remote-Group",
        "--requestheader-username-headers=X-Remote-User", "--secure-port=6443",
        "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
        "--service-account-key-file=/etc/kubernetes/pki/sa.pub",
        "--service-account-signing-key-file=/etc/kubernetes/pki/sa.key", "--service-cluster-ip-range=10.96.0.0/12",
        "--tls-cert-file=/etc/kubernetes/pki/apiserver.crt", "--tls-private-key-file=/etc/kubernetes/pki/apiserver.key"],
        requests={"cpu": "250m"}, mounts=pki_mounts,
        liveness=http_probe("/livez", 6443, initial=10, timeout=15, failure=8, host=ip, scheme="HTTPS"),
        readiness=http_probe("/readyz", 6443, period=1, timeout=15, failure=3, host=ip, scheme="HTTPS"),
        startup=http_probe("/livez", 6443, initial=10, timeout=15, failure=24, host=ip, scheme="HTTPS"))]}
    cluster.add_static_pod("kube-apiserver", node, apiserver_spec,
                           PodPlan(node, {"kube-apiserver": running(2, "Error", 1, started=ago(minutes=46),
                                                                    last_started=ago(hours=2, minutes=30),
                                                                    last_finished=ago(minutes=46, seconds=20))}),
                           created, {"kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint": f"{ip}:6443"})
    for component, port_number, extra_args, extra_volumes in (
        ("kube-controller-manager", 10257, [
            "--allocate-node-cidrs=true", "--authentication-kubeconfig=/etc/kubernetes/controller-manager.conf",
            "--authorization-kubeconfig=/etc/kubernetes/controller-manager.conf", "--bind-address=127.0.0.1",
            "--client-ca-file=/etc/kubernetes/pki/ca.crt", "--cluster-cidr=192.168.0.0/16", "--cluster-name=kubernetes",
            "--cluster-signing-cert-file=/etc/kubernetes/pki/ca.crt",
            "--cluster-signing-key-file=/etc/kubernetes/pki/ca.key", "--controllers=*,bootstrapsigner,tokencleaner",
            "--kubeconfig=/etc/kubernetes/controller-manager.conf", "--leader-elect=true",
            "--requestheader-client-ca-file=/etc/kubernetes/pki/front-proxy-ca.crt",
            "--root-ca-file=/etc/kubernetes/pki/ca.crt", "--service-account-private-key-file=/etc/kubernetes/pki/sa.key",
            "--service-cluster-ip-range=10.96.0.0/12", "--use-service-account-credentials=true"],
         [host_volume("flexvolume-dir", "/usr/libexec/kubernetes/kubelet-plugins/volume/exec", "DirectoryOrCreate"),
          host_volume("kubeconfig", "/etc/kubernetes/controller-manager.conf", "FileOrCreate")]),
        ("kube-scheduler", 10259, [
            "--authentication-kubeconfig=/etc/kubernetes/scheduler.conf",
            "--authorization-kubeconfig=/etc/kubernetes/scheduler.conf", "--bind-address=127.0.0.1",
            "--kubeconfig=/etc/kubernetes/scheduler.conf", "--leader-elect=true"],
         [host_volume("kubeconfig", "/etc/kubernetes/scheduler.conf", "FileOrCreate")]),
    ):
        volumes = (pki if component == "kube-controller-manager" else []) + extra_volumes
        mounts = [mount(v["name"], v["hostPath"]["path"], read_only=v["name"] != "flexvolume-dir") for v in volumes]
        spec = {**common, "volumes": volumes, "containers": [ctr(
            component, f"{K8S_REGISTRY}/{component}:{KUBEADM_VERSION}", command=[component, *extra_args],
            requests={"cpu": "200m" if component == "kube-controller-manager" else "100m"}, mounts=mounts,
            liveness=http_probe("/healthz", port_number, initial=10, timeout=15, failure=8, host="127.0.0.1", scheme="HTTPS"),
            startup=http_probe("/healthz", port_number, initial=10, timeout=15, failure=24, host="127.0.0.1", scheme="HTTPS"))]}
        cluster.add_static_pod(component, node, spec,
                               PodPlan(node, {component: running(3, "Error", 1, started=ago(minutes=45),
                                                                 last_started=ago(hours=2, minutes=30),
                                                                 last_finished=ago(minutes=45, seconds=31))}),
                               created, {})
    path = "spec.containers{etcd}"
    cluster.add_event(etcd, "Unhealthy", 'Liveness probe failed: Get "http://127.0.0.1:2381/health?exclude=NOSPACE&serializable=true": '
                      "context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
                      ago(hours=11, minutes=40), ago(minutes=48, seconds=2), 88, "Warning", host=node, field_path=path)
    cluster.add_event(etcd, "Killing", "Container etcd failed liveness probe, will be restarted",
                      ago(hours=11, minutes=39), ago(minutes=47, seconds=12), 11, host=node, field_path=path)
    cluster.add_event(etcd, "Pulled", f'Container image "{K8S_REGISTRY}/etcd:3.5.12-0" already present on machine',
                      ago(hours=11, minutes=39), ago(minutes=47, seconds=1), 11, host=node, field_path=path)
    cluster.logs[("kube-system", etcd["metadata"]["name"], "etcd", False)] = json_log_lines(ago(minutes=47), "", [
        ("info", 0.0, "etcdmain/etcd.go:73", "Running: "),
        ("info", 0.1, "embed/etcd.go:127", "configuring peer listeners"),
        ("info", 0.9, "etcdserver/raft.go:530", "restarting local member"),
        ("info", 1.6, "etcdserver/server.go:867", "starting etcd server"),
        ("info", 3.2, "raft/raft.go:1651", "8e9e05c52164694d became leader at term 38"),
        ("info", 3.3, "etcdserver/server.go:2068", "published local member to cluster through raft"),
        ("warn", 611.4, "wal/wal.go:805", "slow fdatasync"),
        ("warn", 611.4, "etcdserver/util.go:170", "apply request took too long"),
        ("warn", 1402.9, "wal/wal.go:805", "slow fdatasync"),
        ("warn", 1403.0, "etcdserver/util.go:170", "apply request took too long"),
        ("warn", 2544.7, "wal/wal.go:805", "slow fdatasync"),
    ])


def build_kubeadm() -> Cluster:
    created = ago(days=12, hours=4, minutes=2)
    flavor = Flavor("kubeadm", 29, "containerd", created, "default-scheduler-kube-master-node1", "kubeadm")
    cluster = Cluster(flavor, [("10.20.15.204", 6443)])
    add_default_namespaces(cluster, created, [])
    node_names = []
    cordoned_at = ago(hours=5, minutes=12)
    for index, (name, ip, cidr, prefix, first_ip, instance) in enumerate(KUBEADM_NODES):
        node_created = created + timedelta(seconds=2) if index == 0 else created + timedelta(minutes=6 + index)
        labels = {"beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
                  "kubernetes.io/hostname": name, "kubernetes.io/os": "linux"}
        # The bootstrap script passes --provider-id to the kubelet (for cluster-autoscaler), so these
        # self-hosted nodes carry the same aws:/// IDs as EKS nodes: a false friend.
        spec: Obj = {"podCIDR": cidr, "podCIDRs": [cidr], "providerID": f"aws:///us-east-1a/{instance}"}
        if index == 0:
            labels.update({"node-role.kubernetes.io/control-plane": "",
                           "node.kubernetes.io/exclude-from-external-load-balancers": ""})
            spec["taints"] = [{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]
        else:
            labels["node-role.kubernetes.io/worker"] = ""
        if index == 2:
            spec["unschedulable"] = True
            spec["taints"] = [{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule",
                               "timeAdded": ts(cordoned_at)}]
        cluster.add_node(
            name, ip, node_created, labels,
            {"kubeadm.alpha.kubernetes.io/cri-socket": "unix:///var/run/containerd/containerd.sock",
             "node.alpha.kubernetes.io/ttl": "0",
             "projectcalico.org/IPv4Address": f"{ip}/20",
             "projectcalico.org/IPv4IPIPTunnelAddr": f"{prefix}{first_ip - 1}",
             "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
            spec,
            {"cpu": "2", "ephemeral-storage": "20959212Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
             "memory": "3964656Ki", "pods": "110"},
            {"cpu": "2", "ephemeral-storage": "19316009748", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
             "memory": "3862256Ki", "pods": "110"},
            node_info("kubeadm", name, "5.10.223-212.873.amzn2.x86_64", "Amazon Linux 2", "containerd://1.7.11",
                      KUBEADM_VERSION),
            node_conditions(ago(seconds=17 + index * 11), node_created, ("CalicoIsUp", "Calico is running on this node")),
            [{"type": "InternalIP", "address": ip}, {"type": "Hostname", "address": name}],
            prefix, first_ip,
        )
        node_names.append(name)
    master = node_names[0]
    kubeadm_static_pods(cluster, master, KUBEADM_NODES[0][1], created)

    cluster.add_daemonset("kube-system", "kube-proxy", {"k8s-app": "kube-proxy"},
                          kube_proxy_spec(f"{K8S_REGISTRY}/kube-proxy:{KUBEADM_VERSION}",
                                          ["/usr/local/bin/kube-proxy", "--config=/var/lib/kube-proxy/config.conf",
                                           "--hostname-override=$(NODE_NAME)"],
                                          extra_volumes=[cm_volume("kube-proxy", "kube-proxy")],
                                          extra_mounts=[mount("kube-proxy", "/var/lib/kube-proxy")]),
                          [PodPlan(n) for n in node_names], created + timedelta(seconds=20), selector={"k8s-app": "kube-proxy"})
    calico = "docker.io/calico"
    calico_env = [env_value("DATASTORE_TYPE", "kubernetes"), env_value("WAIT_FOR_DATASTORE", "true"),
                  env_field("NODENAME", "spec.nodeName"), env_value("CALICO_NETWORKING_BACKEND", "bird"),
                  env_value("CLUSTER_TYPE", "k8s,bgp"), env_value("IP", "autodetect"),
                  env_value("CALICO_IPV4POOL_IPIP", "Always"), env_value("CALICO_IPV4POOL_VXLAN", "Never"),
                  env_value("FELIX_IPINIPMTU", "0"), env_value("CALICO_IPV4POOL_CIDR", "192.168.0.0/16"),
                  env_value("CALICO_DISABLE_FILE_LOGGING", "true"), env_value("FELIX_DEFAULTENDPOINTTOHOSTACTION", "ACCEPT"),
                  env_value("FELIX_IPV6SUPPORT", "false"), env_value("FELIX_HEALTHENABLED", "true")]
    calico_volumes = [host_volume("lib-modules", "/lib/modules"), host_volume("var-run-calico", "/var/run/calico", "DirectoryOrCreate"),
                      host_volume("var-lib-calico", "/var/lib/calico", "DirectoryOrCreate"),
                      host_volume("xtables-lock", "/run/xtables.lock", "FileOrCreate"),
                      host_volume("sys-fs", "/sys/fs/", "DirectoryOrCreate"), host_volume("bpffs", "/sys/fs/bpf", "Directory"),
                      host_volume("nodeproc", "/proc"), host_volume("cni-bin-dir", "/opt/cni/bin", "DirectoryOrCreate"),
                      host_volume("cni-net-dir", "/etc/cni/net.d"), host_volume("cni-log-dir", "/var/log/calico/cni"),
                      host_volume("host-local-net-dir", "/var/lib/cni/networks"),
                      host_volume("policysync", "/var/run/nodeagent", "DirectoryOrCreate")]
    not_ready_since = ago(hours=3, minutes=18)
    cluster.add_daemonset("kube-system", "calico-node", {"k8s-app": "calico-node"}, {
        "volumes": calico_volumes,
        "initContainers": [
            ctr("upgrade-ipam", f"{calico}/cni:v3.27.3", command=["/opt/cni/bin/calico-ipam", "-upgrade"],
                env=[env_field("KUBERNETES_NODE_NAME", "spec.nodeName")],
                mounts=[mount("host-local-net-dir", "/var/lib/cni/networks"), mount("cni-bin-dir", "/host/opt/cni/bin")],
                security={"privileged": True}),
            ctr("install-cni", f"{calico}/cni:v3.27.3", command=["/opt/cni/bin/install"],
                env=[env_value("CNI_CONF_NAME", "10-calico.conflist"), env_value("SLEEP", "false"),
                     env_field("KUBERNETES_NODE_NAME", "spec.nodeName")],
                mounts=[mount("cni-bin-dir", "/host/opt/cni/bin"), mount("cni-net-dir", "/host/etc/cni/net.d")],
                security={"privileged": True}),
            ctr("mount-bpffs", f"{calico}/node:v3.27.3", command=["calico-node", "-init", "-best-effort"],
                mounts=[mount("sys-fs", "/sys/fs"), mount("var-run-calico", "/var/run/calico"),
                        mount("nodeproc", "/nodeproc", read_only=True)],
                security={"privileged": True}),
        ],
        "containers": [ctr("calico-node", f"{calico}/node:v3.27.3", env=calico_env, requests={"cpu": "250m"},
                           mounts=[mount("cni-net-dir", "/host/etc/cni/net.d"), mount("lib-modules", "/lib/modules", read_only=True),
                                   mount("xtables-lock", "/run/xtables.lock"), mount("var-run-calico", "/var/run/calico"),
                                   mount("var-lib-calico", "/var/lib/calico"), mount("policysync", "/var/run/nodeagent"),
                                   mount("bpffs", "/sys/fs/bpf"), mount("cni-log-dir", "/var/log/calico/cni", read_only=True)],
                           liveness=exec_probe(["/bin/calico-node", "-felix-live", "-bird-live"], initial=10, timeout=10, failure=6),
                           readiness=exec_probe(["/bin/calico-node", "-felix-ready", "-bird-ready"], timeout=10),
                           security={"privileged": True})],
        "nodeSelector": {"kubernetes.io/os": "linux"}, "serviceAccountName": "calico-node", "hostNetwork": True,
        "terminationGracePeriodSeconds": 0,
        "tolerations": [toleration(effect="NoSchedule"), toleration("CriticalAddonsOnly"), toleration(effect="NoExecute")],
        "priorityClassName": "system-node-critical",
    }, [PodPlan(node_names[0]), PodPlan(node_names[1]),
        PodPlan(node_names[2], {"calico-node": running(ready=False)}, unready_since=not_ready_since)],
        created + timedelta(minutes=3), selector={"k8s-app": "calico-node"})
    bad_calico = next(p for p in cluster.of_kind("Pod", "kube-system")
                      if p["metadata"]["name"].startswith("calico-node-") and p["spec"]["nodeName"] == node_names[2])
    cluster.add_event(bad_calico, "Unhealthy",
                      "Readiness probe failed: calico/node is not ready: BIRD is not ready: BGP not established with "
                      "10.20.15.204,10.20.14.27", not_ready_since, ago(seconds=12), 1191, "Warning", host=node_names[2],
                      field_path="spec.containers{calico-node}")
    cluster.add_deployment("kube-system", "calico-kube-controllers", {"k8s-app": "calico-kube-controllers"}, {
        "containers": [ctr("calico-kube-controllers", f"{calico}/kube-controllers:v3.27.3",
                           env=[env_value("ENABLED_CONTROLLERS", "node"), env_value("DATASTORE_TYPE", "kubernetes")],
                           liveness=exec_probe(["/usr/bin/check-status", "-l"], initial=10, timeout=10, failure=6),
                           readiness=exec_probe(["/usr/bin/check-status", "-r"], period=10))],
        "nodeSelector": {"kubernetes.io/os": "linux"}, "serviceAccountName": "calico-kube-controllers",
        "tolerations": [toleration("CriticalAddonsOnly"),
                        toleration("node-role.kubernetes.io/master", effect="NoSchedule"),
                        toleration("node-role.kubernetes.io/control-plane", effect="NoSchedule")],
        "priorityClassName": "system-cluster-critical",
    }, [PodPlan(master)], created + timedelta(minutes=3), selector={"k8s-app": "calico-kube-controllers"},
        manager="kubectl-create")
    cluster.add_deployment("kube-system", "coredns", {"k8s-app": "kube-dns"},
                           coredns_spec(f"{K8S_REGISTRY}/coredns/coredns:v1.11.1"),
                           [PodPlan(master), PodPlan(master)], created + timedelta(seconds=20),
                           selector={"k8s-app": "kube-dns"})
    cluster.add_service("kube-system", "kube-dns", kube_dns_service_ports(), created + timedelta(seconds=20),
                        {"k8s-app": "kube-dns"}, "10.96.0.10",
                        labels={"k8s-app": "kube-dns", "kubernetes.io/cluster-service": "true", "kubernetes.io/name": "CoreDNS"},
                        annotations={"prometheus.io/port": "9153", "prometheus.io/scrape": "true"}, manager="kubeadm")
    cluster.add_service("default", "kubernetes", [{"name": "https", "port": 443, "targetPort": 6443}], created, None,
                        "10.96.0.1", labels={"component": "apiserver", "provider": "kubernetes"}, manager="kube-apiserver")

    apps = created + timedelta(days=2, hours=3)
    web = {"containers": [ctr("nginx", "nginx:1.25.4", ports=[port(None, 80)], requests={"cpu": "100m", "memory": "64Mi"})]}
    cluster.add_deployment("default", "web", {"app": "web"}, web,
                           [PodPlan(node_names[1]), PodPlan(node_names[2]), PodPlan(node_names[1])], apps,
                           manager="kubectl-client-side-apply")
    cluster.add_service("default", "web", [{"port": 8080, "targetPort": 80, "nodePort": 31592}], apps, {"app": "web"},
                        "10.106.173.106", "NodePort", labels={"app": "web"})
    inventory = {"containers": [ctr("inventory", "ghcr.io/acme-retail/inventory:3.4.1", ports=[port("http", 8080)],
                                    env=[env_value("CACHE_SIZE_MB", "1024")],
                                    requests={"cpu": "1500m", "memory": "1Gi"}, limits={"cpu": "2", "memory": "1536Mi"},
                                    readiness=http_probe("/readyz", "http"))]}
    message = ("0/3 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint "
               "{node-role.kubernetes.io/control-plane: }, 1 node(s) were unschedulable. preemption: 0/3 nodes are "
               "available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.")
    scaled = ago(hours=4, minutes=2)
    cluster.add_deployment("default", "inventory", {"app": "inventory"}, inventory,
                           [PodPlan(node_names[1]), PodPlan(None, unschedulable=message, created=scaled)], apps,
                           manager="kubectl-client-side-apply", progress="complete")
    pending = next(p for p in cluster.of_kind("Pod", "default")
                   if p["metadata"]["name"].startswith("inventory-") and not p["spec"].get("nodeName"))
    cluster.add_scheduler_event(pending, message, scaled + timedelta(seconds=1), ago(minutes=4, seconds=40), 49)
    cluster.add_service("default", "inventory", [{"name": "http", "port": 80, "targetPort": "http"}], apps,
                        {"app": "inventory"}, "10.103.219.247", labels={"app": "inventory"})
    cordoned = cluster.get("Node", "", node_names[2])
    cluster.add_event(cordoned, "NodeNotSchedulable", f"Node {node_names[2]} status is now: NodeNotSchedulable",
                      cordoned_at, host=node_names[2])
    for pod in cluster.of_kind("Pod", "default"):
        if pod["metadata"]["name"].startswith("web-"):
            cluster.logs[("default", pod["metadata"]["name"], "nginx", False)] = nginx_access_log(
                ago(minutes=50), 8, pod["metadata"]["name"], ["/", "/index.html", "/favicon.ico"])
    cluster.finish()
    return cluster


# ---------------------------------------------------------------------------------------------
# Component logs for system containers that have no scenario-specific log
# ---------------------------------------------------------------------------------------------


def _aws_node_log(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
    return json_log_lines(started, "", [
        ("info", 0.0, "entrypoint.sh", "Validating env variables ..."),
        ("info", 0.0, "entrypoint.sh", "Install CNI binaries.."),
        ("info", 0.1, "entrypoint.sh", "Starting IPAM daemon in the background ... "),
        ("info", 0.1, "entrypoint.sh", "Checking for IPAM connectivity ... "),
        ("info", 2.2, "entrypoint.sh", "Copying config file ... "),
        ("info", 2.2, "entrypoint.sh", "Successfully copied CNI plugin binary and config file."),
        ("info", 2.3, "entrypoint.sh", "Foregrounding IPAM daemon ..."),
    ])


def _vpc_cni_init_log(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
    return ("Copying CNI plugin binaries ... \nConfigure rp_filter loose... \n"
            "Setting RPF for primary interface: net.ipv4.conf.eth0.rp_filter = 2\nCNI init container done\n")


def _nodeagent_log(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
    return json_log_lines(started, "", [
        ("info", 0.0, "runtime/proc.go:267", "version"),
        ("info", 0.4, "ebpf/bpf_client.go:180", "Network Policy agent started"),
        ("info", 0.5, "metrics/listener.go:48", "Starting metrics server"),
        ("info", 0.6, "manager/internal.go:568", "Starting server"),
    ])


def _flannel_log(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
    node = pod["spec"]["nodeName"]
    cidr = cluster.get("Node", "", node)["spec"]["podCIDR"]
    name = pod["metadata"]["name"]
    return "\n".join([
        klog("I", started, "main.go:212", "CLI flags config: {kubeSubnetMgr:true ipMasq:true subnetFile:/run/flannel/subnet.env "
             "netConfPath:/etc/kube-flannel/net-conf.json setNodeNetworkUnavailable:true}", name),
        klog("I", started + timedelta(seconds=1), "kube.go:145", "Waiting 10m0s for node controller to sync", name),
        klog("I", started + timedelta(seconds=1), "kube.go:490", f"Creating the node lease for IPv4. This is the n.Spec.PodCIDRs: [{cidr}]", name),
        klog("I", started + timedelta(seconds=2), "main.go:353", f"Current network or subnet (10.244.0.0/16, {cidr}) is not equal to previous one (0.0.0.0/0, 0.0.0.0/0), trying to recycle old iptables rules", name),
        klog("I", started + timedelta(seconds=2), "main.go:480", "Wrote subnet file to /run/flannel/subnet.env", name),
        klog("I", started + timedelta(seconds=2), "main.go:484", "Running backend.", name),
        klog("I", started + timedelta(seconds=2), "vxlan_network.go:64", "watching for new subnet leases", name),
        klog("I", started + timedelta(seconds=3), "main.go:505", "Waiting for all goroutines to exit", name),
    ]) + "\n"


def _install_cni_log(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
    if cluster.flavor.name == "kubeadm":
        stamp = started.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]
        return "\n".join(f"{stamp} [INFO][1] cni-installer/<nil> <nil>: {m}" for m in (
            "Running as a Kubernetes pod", "File is already up to date, skipping file=\"/host/opt/cni/bin/bandwidth\"",
            "Installed /host/opt/cni/bin/install", "Wrote Calico CNI binaries to /host/opt/cni/bin",
            "CNI plugin version: v3.27.3", "/host/secondary-bin-dir is not writeable, skipping",
            "Using CNI config template from CNI_NETWORK_CONFIG environment variable.",
            "Created /host/etc/cni/net.d/10-calico.conflist", "Done configuring CNI.  Sleep= false")) + "\n"
    return ""


def _calico_log(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
    node = pod["spec"]["nodeName"]
    lines = [(0.0, "INFO", "startup/startup.go 432", "Early log level set to info"),
             (0.1, "INFO", "startup/utils.go 126", "Using NODENAME environment for node name " + node),
             (0.4, "INFO", "startup/startup.go 632", "Using autodetected IPv4 address on interface eth0: "
              + cluster.nodes[node].ip + "/20"),
             (1.2, "INFO", "startup/startup.go 747", "CALICO_IPV4POOL_NAT_OUTGOING is true (defaulted) through environment variable"),
             (2.0, "INFO", "felix/daemon.go 388", "Successfully loaded configuration. GOMAXPROCS=2 builddate=\"2024-04-04T22:03:55+0000\" gitcommit=\"a2cbfb1\" version=\"v3.27.3\""),
             (3.5, "INFO", "felix/health.go 336", "Overall health status changed: live=true ready=true")]
    if node == "kube-worker-node2":  # BGP sessions dropped about three hours before the capture
        broke = (ago(hours=3, minutes=18) - started).total_seconds()
        lines += [(broke - 9, "INFO", "confd/client.go 1364", "Recompute BGP peerings: 10.20.15.204 10.20.14.27"),
                  (broke - 2, "WARNING", "bird", "BGP: Unexpected connect from unknown address 10.20.14.27 (port 46113)"),
                  (broke, "WARNING", "felix/health.go 211", "Reporter is not ready. name=\"bird\""),
                  (broke + 1800, "WARNING", "bird", "Mesh_10_20_15_204: Socket error: connect: Connection timed out")]
    out = []
    for offset, level, where, message in lines:
        moment = started + timedelta(seconds=offset)
        out.append(f"{moment.strftime('%Y-%m-%d %H:%M:%S.%f')[:-3]} [{level}][{80 + pick(60, node, offset)}] {where}: {message}")
    return "\n".join(out) + "\n"


def _control_plane_log(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
    component = pod["spec"]["containers"][0]["name"]
    name = pod["metadata"]["name"]
    common = [klog("I", started, "flags.go:64", 'FLAG: --v="0"', name)]
    specific = {
        "kube-apiserver": [
            ("I", 1.1, "server.go:148", "Version: v1.29.3"),
            ("I", 2.0, "plugins.go:157", "Loaded 12 mutating admission controller(s) successfully in the following order: "
             "NamespaceLifecycle,LimitRanger,ServiceAccount,NodeRestriction,TaintNodesByCondition,Priority,"
             "DefaultTolerationSeconds,DefaultStorageClass,StorageObjectInUseProtection,RuntimeClass,"
             "DefaultIngressClass,MutatingAdmissionWebhook."),
            ("I", 5.8, "secure_serving.go:213", "Serving securely on [::]:6443"),
            ("W", 600.2, "logging.go:59", '[core] [Channel #5 SubChannel #6] grpc: addrConn.createTransport failed to '
             'connect to {Addr: "127.0.0.1:2379", ServerName: "127.0.0.1:2379", }. Err: connection error: '
             'desc = "transport: Error while dialing: dial tcp 127.0.0.1:2379: connect: connection refused"'),
            ("E", 1402.1, "status.go:71", 'apiserver received an error that is not an metav1.Status: '
             '&errors.errorString{s:"context deadline exceeded"}: context deadline exceeded'),
        ],
        "kube-controller-manager": [
            ("I", 0.9, "serving.go:380", "Generated self-signed cert in-memory"),
            ("I", 1.5, "controllermanager.go:187", '"Starting" version="v1.29.3"'),
            ("I", 2.0, "leaderelection.go:250", "attempting to acquire leader lease kube-system/kube-controller-manager..."),
            ("I", 17.3, "leaderelection.go:260", "successfully acquired lease kube-system/kube-controller-manager"),
            ("E", 1403.4, "leaderelection.go:332", "error retrieving resource lock kube-system/kube-controller-manager: "
             'Get "https://10.20.15.204:6443/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager?timeout=5s": '
             "context deadline exceeded"),
        ],
        "kube-scheduler": [
            ("I", 0.9, "serving.go:380", "Generated self-signed cert in-memory"),
            ("I", 1.6, "server.go:154", '"Starting Kubernetes Scheduler" version="v1.29.3"'),
            ("I", 2.1, "leaderelection.go:250", "attempting to acquire leader lease kube-system/kube-scheduler..."),
            ("I", 19.0, "leaderelection.go:260", "successfully acquired lease kube-system/kube-scheduler"),
        ],
    }[component]
    return "\n".join(common + [klog(sev, started + timedelta(seconds=offset), src, msg, name)
                               for sev, offset, src, msg in specific]) + "\n"


def _proxymux_log(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
    node = pod["spec"]["nodeName"]
    return app_log(started, [
        (0.0, "info", f"proxymux-client starting node-name={node} tm-id=oke"),
        (0.3, "info", "loaded certificates from /var/lib/kubelet/pki"),
        (0.9, "info", "connected to proxymux server server-addr=https://10.0.0.13:12250"),
        (1.0, "info", "serving kubelet tunnel for apiserver"),
    ])


def _csi_oci_log(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
    return app_log(started, [
        (0.0, "info", "Starting OCI CSI node driver endpoint=unix:///csi/csi.sock"),
        (0.2, "info", "node driver registered nodeid=" + pod["spec"]["nodeName"]),
        (0.3, "info", "Listening for connections on address: //csi/csi.sock"),
    ])


def _one_shot_log(lines: list[str]) -> Callable[[Cluster, Obj, datetime, str], str]:
    """A log for an init container that prints a few fixed lines and exits."""
    def render(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
        stamp = started.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]
        return "".join(f"{stamp} {line}\n" for line in lines)
    return render


COMPONENT_LOGS: dict[str, Callable[[Cluster, Obj, datetime, str], str]] = {
    "upgrade-ipam": _one_shot_log(["[INFO][1] ipam_plugin.go 75: migrating from host-local to calico-ipam...",
                                   "[INFO][1] migrate.go 66: checking host-local IPAM data dir dir existence...",
                                   "[INFO][1] migrate.go 68: host-local IPAM data dir dir not found; no migration necessary, successfully exiting..."]),
    "mount-bpffs": _one_shot_log(["[INFO][1] init/startup.go 81: Checking if BPF filesystem is mounted.",
                                  "[INFO][1] init/startup.go 96: BPF filesystem is mounted.",
                                  "[INFO][1] init/startup.go 108: Checking if Cgroup2 filesystem is mounted.",
                                  "[INFO][1] init/startup.go 130: Cgroup2 filesystem is not mounted. Trying to mount it..."]),
    "eks-pod-identity-agent-init": _one_shot_log(["INFO initializing: adding link-local address 169.254.170.23/32",
                                                  "INFO initialization complete"]),
    "aws-node": _aws_node_log,
    "aws-vpc-cni-init": _vpc_cni_init_log,
    "aws-eks-nodeagent": _nodeagent_log,
    "kube-flannel": _flannel_log,
    "install-cni": _install_cni_log,
    "calico-node": _calico_log,
    "kube-apiserver": _control_plane_log,
    "kube-controller-manager": _control_plane_log,
    "kube-scheduler": _control_plane_log,
    "proxymux-client": _proxymux_log,
    "oci-csi-node-driver": _csi_oci_log,
}


# ---------------------------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------------------------


def generate(out_dir: Path, archive: Path) -> None:
    """Write all four dumps under `out_dir` and the kubeadm archive at `archive`."""
    for name in DUMP_DIRS:
        target = out_dir / name
        if target.exists():
            shutil.rmtree(target)
    write_kubectl_get_yaml(build_aks(), out_dir / "aks")
    eks = build_eks()
    write_cluster_info_dump_stdout(eks, out_dir / "eks" / "cluster-info-dump.txt", eks.namespaces())
    oke = build_oke()
    write_support_bundle(oke, out_dir / "oke", OKE_SERVER_VERSION, "v0.100.0")
    kubeadm = build_kubeadm()
    write_cluster_info_dump_dir(kubeadm, out_dir / "kubeadm", ["kube-system", "default"])
    write_tar_gz(out_dir / "kubeadm", archive, "kubeadm-dump")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="folder to write aks/ eks/ oke/ kubeadm/ into")
    parser.add_argument("--archive", type=Path, default=ARCHIVE, help="where to write the kubeadm .tar.gz")
    args = parser.parse_args(argv)
    generate(args.out, args.archive)
    return 0


if __name__ == "__main__":
    sys.exit(main())
