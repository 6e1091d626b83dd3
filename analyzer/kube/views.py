"""Typed partial views of Kubernetes objects: only the fields the tables need.

Decoding JSON straight into these structs skips everything else (managedFields trees, images
lists, ...) without building dicts for it; that is what makes ingestion fast. The full object
stays available from `KubeObject.body()`. Field names follow the API (camelCase) on purpose:
a view is the API's shape, trimmed.

Every field has a default, so a partial object (a pasted table row, a legacy dump) still fits.

Views hold decoded values only and never take part in a reference cycle, so the garbage
collector does not track them (`gc=False`): a big dump has millions, each 16 bytes smaller and
cheaper to make and free untracked.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Struct, field

# Quantities ("500m", 2, "1.5Gi") and other fields whose JSON type varies stay untyped here;
# the model parses them into numbers.
Quantity = Any


class OwnerRef(Struct, gc=False, omit_defaults=True):
    kind: str = ""
    name: str = ""
    apiVersion: str = ""
    uid: str | None = None
    controller: bool | None = None


class ManagedFieldHead(Struct, gc=False):
    manager: str | None = None
    operation: str | None = None
    apiVersion: str | None = None
    time: str | None = None


class Meta(Struct, gc=False):
    name: str = ""
    namespace: str | None = None
    generateName: str | None = None
    uid: str | None = None
    resourceVersion: str | None = None
    creationTimestamp: str | None = None
    deletionTimestamp: str | None = None
    deletionGracePeriodSeconds: int | None = None
    generation: int | None = None
    labels: dict[str, Any] | None = None
    annotations: dict[str, Any] | None = None
    ownerReferences: list[OwnerRef] | None = None
    managedFields: list[ManagedFieldHead] | None = None
    finalizers: list[str] | None = None


class TextFacts(Struct, gc=False):
    """What a pasted `kubectl get` table says that the API shape cannot hold."""

    ready: str | None = None
    status: str | None = None
    restarts: int | None = None
    last_restart_ago_seconds: float | None = None
    # [at least, at most or None] seconds before the row, as the pod's earlier rows of one session
    # bound its last restart where kubectl printed no `(5m ago)`; and those rows, in words
    last_restart_window: list[float | None] | None = None
    last_restart_seen: str | None = None
    age_seconds: float | None = None
    roles: str | None = None
    columns: dict[str, Any] | None = None
    requests: dict[str, Any] | None = None
    limits: dict[str, Any] | None = None
    data_count: int | None = None  # DATA of a ConfigMap/Secret row
    secrets_count: int | None = None  # SECRETS of a ServiceAccount row
    data_bytes: dict[str, Any] | None = None  # describe secret: key -> size (never the value)
    binary_data_bytes: dict[str, Any] | None = None  # describe configmap: binary key -> size
    active: int | None = None  # ACTIVE of a CronJob row
    last_schedule_ago_seconds: float | None = None
    first_seen_ago_seconds: float | None = None  # events: how long before the capture
    last_seen_ago_seconds: float | None = None
    default: bool | None = None  # "(default)" after a StorageClass/IngressClass name
    events_cut: bool | None = None  # describe: its Events table cut off in the paste
    events_none: bool | None = None  # describe: `Events:  <none>`, kubectl found none for it
    described: bool | None = None  # read from a `kubectl describe`
    # describe ingress: backend Service -> the endpoints kubectl printed beside it (`10.1.2.3:80`,
    # `<error: endpoints "web" not found>`), as it read them at the capture
    backend_endpoints: dict[str, str] | None = None
    # Endpoints kubectl printed blank, not `<none>`: it has addresses, none ready (kubectl prints
    # only the ready ones), so how many are not ready is not in the paste
    not_ready_unprinted: bool | None = None
    every_pod_listed: bool | None = None  # a row of `kubectl get pods -A` unfiltered (no selector, no pipe)
    # a row of a `kubectl get KIND` (-n NS or -A) unfiltered: what its namespace lacks, the paste lacks
    listed_whole: bool | None = None
    cut_in: str | None = None  # describe: the section the paste ends in (what follows is not in it)
    ends_after: str | None = None  # describe: the whole section the paste ends with (the rest not in it)
    pods_status: str | None = None  # describe of a workload: `3 Running / 0 Waiting / ...`
    used_by: list[str] | None = None  # describe pvc: the pods its `Used By`/`Mounted By` names
    condition_ages: dict[str, float] | None = None  # `oc get co` SINCE: condition type -> seconds
    # describe: `Status: Terminating (lasts 18m)`: seconds since metadata.deletionTimestamp
    deletion_ago_seconds: float | None = None
    # earlier rows of this object in one session whose cells differ from the row after them:
    # [{between: [seconds before this row of the earlier row, of the later], cells: {header: [old,
    # new]}, rows: "lines 3 and 7"}], oldest first (`get nodes` again and again through an upgrade)
    row_changes: list[dict[str, Any]] | None = None


class ObjectView(Struct, gc=False, kw_only=True):
    """Any object: identity and metadata. Kinds without a view of their own decode as this."""

    apiVersion: str = ""
    kind: str = ""
    metadata: Meta = field(default_factory=Meta)
    text: TextFacts | None = field(default=None, name="x-kda-text")


# --- pods and containers ---------------------------------------------------------------


class KeyRef(Struct, gc=False):
    name: str | None = None
    key: str | None = None
    optional: bool | None = None


class EnvVarSource(Struct, gc=False):
    configMapKeyRef: KeyRef | None = None
    secretKeyRef: KeyRef | None = None
    fieldRef: dict[str, Any] | None = None
    resourceFieldRef: dict[str, Any] | None = None


class EnvVar(Struct, gc=False):
    name: str = ""
    value: Any = None
    valueFrom: EnvVarSource | None = None


class NameRef(Struct, gc=False):
    name: str | None = None
    optional: bool | None = None


class EnvFromSource(Struct, gc=False):
    prefix: str | None = None
    configMapRef: NameRef | None = None
    secretRef: NameRef | None = None


class ContainerPort(Struct, gc=False):
    containerPort: int | None = None
    name: str | None = None
    protocol: str | None = None
    hostPort: int | None = None


class Resources(Struct, gc=False):
    requests: dict[str, Quantity] | None = None
    limits: dict[str, Quantity] | None = None


class Capabilities(Struct, gc=False):
    add: list[str] | None = None
    drop: list[str] | None = None


class WindowsOptions(Struct, gc=False):
    # A HostProcess container runs on the Windows host itself: the host's access, as privileged.
    hostProcess: bool | None = None
    runAsUserName: str | None = None


class SecurityContext(Struct, gc=False):
    privileged: bool | None = None
    runAsUser: int | None = None
    runAsNonRoot: bool | None = None
    allowPrivilegeEscalation: bool | None = None
    readOnlyRootFilesystem: bool | None = None
    capabilities: Capabilities | None = None
    windowsOptions: WindowsOptions | None = None


class VolumeMount(Struct, gc=False):
    name: str = ""
    mountPath: str = ""
    readOnly: bool | None = None
    subPath: str | None = None


class HTTPGetAction(Struct, gc=False):
    path: str | None = None
    port: int | str | None = None
    host: str | None = None
    scheme: str | None = None


class PortAction(Struct, gc=False):
    """tcpSocket and grpc: a port (a number, or a container port's name for tcpSocket)."""

    port: int | str | None = None
    host: str | None = None
    service: str | None = None


class ExecAction(Struct, gc=False):
    command: list[str] | None = None


class Probe(Struct, gc=False):
    """A liveness, readiness or startup probe: its check and its timing. (Typed, because a
    probe as a dict costs more than the rest of a container to decode.)"""

    httpGet: HTTPGetAction | None = None
    tcpSocket: PortAction | None = None
    grpc: PortAction | None = None
    exec: ExecAction | None = None
    initialDelaySeconds: int | None = None
    periodSeconds: int | None = None
    timeoutSeconds: int | None = None
    successThreshold: int | None = None
    failureThreshold: int | None = None


class Container(Struct, gc=False):
    name: str = ""
    image: str | None = None
    imagePullPolicy: str | None = None
    command: list[str] | None = None
    args: list[str] | None = None
    ports: list[ContainerPort] | None = None
    env: list[EnvVar] | None = None
    envFrom: list[EnvFromSource] | None = None
    resources: Resources | None = None
    livenessProbe: Probe | None = None
    readinessProbe: Probe | None = None
    startupProbe: Probe | None = None
    securityContext: SecurityContext | None = None
    volumeMounts: list[VolumeMount] | None = None


class PodSecurityContext(Struct, gc=False):
    runAsUser: int | None = None
    runAsNonRoot: bool | None = None
    runAsGroup: int | None = None
    fsGroup: int | None = None
    windowsOptions: WindowsOptions | None = None


class PodSpec(Struct, gc=False):
    nodeName: str | None = None
    containers: list[Container] | None = None
    initContainers: list[Container] | None = None
    ephemeralContainers: list[Container] | None = None
    # Volumes and tolerations are small; their many shapes stay plain dicts.
    volumes: list[dict[str, Any]] | None = None
    tolerations: list[dict[str, Any]] | None = None
    nodeSelector: dict[str, Any] | None = None
    serviceAccountName: str | None = None
    serviceAccount: str | None = None
    automountServiceAccountToken: bool | None = None
    imagePullSecrets: list[NameRef] | None = None
    hostNetwork: bool | None = None
    hostPID: bool | None = None
    hostIPC: bool | None = None
    priorityClassName: str | None = None
    priority: int | None = None
    runtimeClassName: str | None = None
    schedulerName: str | None = None
    restartPolicy: str | None = None
    dnsPolicy: str | None = None
    securityContext: PodSecurityContext | None = None


class StateDetail(Struct, gc=False):
    reason: str | None = None
    message: str | None = None
    exitCode: int | None = None
    signal: int | None = None
    startedAt: str | None = None
    finishedAt: str | None = None


class ContainerState(Struct, gc=False):
    waiting: StateDetail | None = None
    running: StateDetail | None = None
    terminated: StateDetail | None = None


class ContainerStatus(Struct, gc=False):
    name: str = ""
    ready: bool | None = None
    started: bool | None = None
    restartCount: int | None = None
    image: str | None = None
    imageID: str | None = None
    containerID: str | None = None
    state: ContainerState | None = None
    lastState: ContainerState | None = None


class Condition(Struct, gc=False):
    type: str = ""
    status: str | None = None
    reason: str | None = None
    message: str | None = None
    lastTransitionTime: str | None = None
    lastHeartbeatTime: str | None = None
    lastProbeTime: str | None = None
    lastUpdateTime: str | None = None  # a Deployment's, a CSR's: the condition last written


class PodIP(Struct, gc=False):
    ip: str = ""


class PodStatus(Struct, gc=False):
    phase: str | None = None
    reason: str | None = None
    message: str | None = None
    podIP: str | None = None
    podIPs: list[PodIP] | None = None
    hostIP: str | None = None
    qosClass: str | None = None
    startTime: str | None = None
    nominatedNodeName: str | None = None
    conditions: list[Condition] | None = None
    containerStatuses: list[ContainerStatus] | None = None
    initContainerStatuses: list[ContainerStatus] | None = None
    ephemeralContainerStatuses: list[ContainerStatus] | None = None


class PodView(ObjectView, kw_only=True):
    spec: PodSpec = field(default_factory=PodSpec)
    status: PodStatus = field(default_factory=PodStatus)


# --- nodes -----------------------------------------------------------------------------


class Taint(Struct, gc=False):
    key: str = ""
    value: str | None = None
    effect: str | None = None
    timeAdded: str | None = None


class NodeSpec(Struct, gc=False):
    providerID: str | None = None
    podCIDR: str | None = None
    podCIDRs: list[str] | None = None
    taints: list[Taint] | None = None
    unschedulable: bool | None = None


class NodeAddress(Struct, gc=False):
    type: str = ""
    address: str = ""


class NodeInfo(Struct, gc=False):
    kubeletVersion: str | None = None
    kubeProxyVersion: str | None = None
    osImage: str | None = None
    kernelVersion: str | None = None
    containerRuntimeVersion: str | None = None
    operatingSystem: str | None = None
    architecture: str | None = None
    machineID: str | None = None
    systemUUID: str | None = None
    bootID: str | None = None


class NodeStatus(Struct, gc=False):
    capacity: dict[str, Quantity] | None = None
    allocatable: dict[str, Quantity] | None = None
    conditions: list[Condition] | None = None
    addresses: list[NodeAddress] | None = None
    nodeInfo: NodeInfo | None = None


class NodeView(ObjectView, kw_only=True):
    spec: NodeSpec = field(default_factory=NodeSpec)
    status: NodeStatus = field(default_factory=NodeStatus)


# --- workloads -------------------------------------------------------------------------


class PodTemplate(Struct, gc=False):
    metadata: Meta = field(default_factory=Meta)
    spec: PodSpec = field(default_factory=PodSpec)


class JobTemplate(Struct, gc=False):
    metadata: Meta = field(default_factory=Meta)
    spec: dict[str, Any] | None = None


class ClaimTemplateMeta(Struct, gc=False):
    name: str | None = None


class ClaimTemplate(Struct, gc=False):
    metadata: ClaimTemplateMeta = field(default_factory=ClaimTemplateMeta)


class WorkloadSpec(Struct, gc=False):
    replicas: int | None = None
    # A LabelSelector ({matchLabels, matchExpressions}) or, for a ReplicationController, a map.
    selector: dict[str, Any] | None = None
    template: PodTemplate | None = None
    paused: bool | None = None
    # Jobs and CronJobs
    completions: int | None = None
    parallelism: int | None = None
    backoffLimit: int | None = None
    schedule: str | None = None
    suspend: bool | None = None
    timeZone: str | None = None
    concurrencyPolicy: str | None = None
    jobTemplate: JobTemplate | None = None
    # StatefulSets: the claims a pod gets are named <template>-<statefulset>-<ordinal>.
    volumeClaimTemplates: list[ClaimTemplate] | None = None


class WorkloadStatus(Struct, gc=False):
    replicas: int | None = None
    readyReplicas: int | None = None
    availableReplicas: int | None = None
    updatedReplicas: int | None = None
    unavailableReplicas: int | None = None
    currentReplicas: int | None = None
    observedGeneration: int | None = None
    desiredNumberScheduled: int | None = None
    currentNumberScheduled: int | None = None
    numberReady: int | None = None
    numberAvailable: int | None = None
    numberUnavailable: int | None = None
    numberMisscheduled: int | None = None
    updatedNumberScheduled: int | None = None
    # An int for Jobs; a list of Job references for CronJobs.
    active: int | list[Any] | None = None
    ready: int | None = None  # Jobs: pods ready
    succeeded: int | None = None
    failed: int | None = None
    startTime: str | None = None
    completionTime: str | None = None
    lastScheduleTime: str | None = None
    lastSuccessfulTime: str | None = None  # CronJobs: the last run that completed
    conditions: list[Condition] | None = None


class WorkloadView(ObjectView, kw_only=True):
    spec: WorkloadSpec = field(default_factory=WorkloadSpec)
    status: WorkloadStatus = field(default_factory=WorkloadStatus)


class DeploymentView(WorkloadView, kw_only=True):
    pass


class StatefulSetView(WorkloadView, kw_only=True):
    pass


class DaemonSetView(WorkloadView, kw_only=True):
    pass


class ReplicaSetView(WorkloadView, kw_only=True):
    pass


class ReplicationControllerView(
    WorkloadView, kw_only=True
):
    pass


class JobView(WorkloadView, kw_only=True):
    pass


class CronJobView(WorkloadView, kw_only=True):
    pass


# --- services, endpoints, ingress ------------------------------------------------------


class ServicePort(Struct, gc=False):
    name: str | None = None
    protocol: str | None = None
    port: int | None = None
    targetPort: int | str | None = None
    nodePort: int | None = None
    appProtocol: str | None = None


class ServiceSpec(Struct, gc=False):
    type: str | None = None
    clusterIP: str | None = None
    clusterIPs: list[str] | None = None
    externalIPs: list[str] | None = None
    externalName: str | None = None
    loadBalancerIP: str | None = None
    ports: list[ServicePort] | None = None
    selector: dict[str, Any] | None = None
    sessionAffinity: str | None = None
    externalTrafficPolicy: str | None = None
    internalTrafficPolicy: str | None = None
    ipFamilies: list[str] | None = None


class LoadBalancerIngress(Struct, gc=False):
    ip: str | None = None
    hostname: str | None = None


class LoadBalancerStatus(Struct, gc=False):
    ingress: list[LoadBalancerIngress] | None = None


class ServiceStatus(Struct, gc=False):
    loadBalancer: LoadBalancerStatus | None = None
    conditions: list[Condition] | None = None


class ServiceView(ObjectView, kw_only=True):
    spec: ServiceSpec = field(default_factory=ServiceSpec)
    status: ServiceStatus = field(default_factory=ServiceStatus)


class TargetRef(Struct, gc=False):
    kind: str | None = None
    namespace: str | None = None
    name: str | None = None
    uid: str | None = None


class EndpointAddress(Struct, gc=False):
    ip: str | None = None
    hostname: str | None = None
    nodeName: str | None = None
    targetRef: TargetRef | None = None


class EndpointPort(Struct, gc=False):
    name: str | None = None
    port: int | None = None
    protocol: str | None = None


class EndpointSubset(Struct, gc=False):
    addresses: list[EndpointAddress] | None = None
    notReadyAddresses: list[EndpointAddress] | None = None
    ports: list[EndpointPort] | None = None


class EndpointsView(ObjectView, kw_only=True):
    subsets: list[EndpointSubset] | None = None


class EndpointConditions(Struct, gc=False):
    ready: bool | None = None
    serving: bool | None = None
    terminating: bool | None = None


class SliceEndpoint(Struct, gc=False):
    addresses: list[str] | None = None
    conditions: EndpointConditions | None = None
    nodeName: str | None = None
    targetRef: TargetRef | None = None


class EndpointSliceView(ObjectView, kw_only=True):
    addressType: str | None = None
    endpoints: list[SliceEndpoint] | None = None
    ports: list[EndpointPort] | None = None


class IngressView(ObjectView, kw_only=True):
    # Rules have two API shapes (extensions/v1beta1 serviceName/servicePort and
    # networking.k8s.io/v1 service.name/port); the model reads both from the dict.
    spec: dict[str, Any] | None = None
    status: dict[str, Any] | None = None


# --- configuration and storage ---------------------------------------------------------


class ConfigMapView(ObjectView, kw_only=True):
    data: dict[str, Any] | None = None
    binaryData: dict[str, Any] | None = None


class SecretView(ObjectView, kw_only=True):
    """A Secret: ingestion replaces every value by its decoded size, so no value is kept."""

    type: str | None = None
    data: dict[str, Any] | None = None
    stringData: dict[str, Any] | None = None


class ClaimSpec(Struct, gc=False):
    storageClassName: str | None = None
    volumeName: str | None = None
    accessModes: list[str] | None = None
    volumeMode: str | None = None
    resources: Resources | None = None


class PhaseStatus(Struct, gc=False):
    phase: str | None = None
    capacity: dict[str, Quantity] | None = None
    conditions: list[Condition] | None = None
    lastPhaseTransitionTime: str | None = None  # a PersistentVolume's (1.28 and later)
    message: str | None = None  # a PersistentVolume's: why it is Failed


class ClaimStatus(PhaseStatus, gc=False):
    accessModes: list[str] | None = None  # those granted: what kubectl get pvc prints


class PersistentVolumeClaimView(
    ObjectView, kw_only=True
):
    spec: ClaimSpec = field(default_factory=ClaimSpec)
    status: ClaimStatus = field(default_factory=ClaimStatus)


class ClaimRef(Struct, gc=False):
    kind: str | None = None
    namespace: str | None = None
    name: str | None = None


class VolumeSpec(Struct, gc=False):
    capacity: dict[str, Quantity] | None = None
    storageClassName: str | None = None
    claimRef: ClaimRef | None = None
    persistentVolumeReclaimPolicy: str | None = None
    accessModes: list[str] | None = None
    volumeMode: str | None = None
    csi: dict[str, Any] | None = None
    hostPath: dict[str, Any] | None = None
    nfs: dict[str, Any] | None = None
    local: dict[str, Any] | None = None
    nodeAffinity: dict[str, Any] | None = None  # where the volume can be used (a zone, a node)


class PersistentVolumeView(ObjectView, kw_only=True):
    spec: VolumeSpec = field(default_factory=VolumeSpec)
    status: PhaseStatus = field(default_factory=PhaseStatus)


class StorageClassView(ObjectView, kw_only=True):
    provisioner: str | None = None
    reclaimPolicy: str | None = None
    volumeBindingMode: str | None = None
    allowVolumeExpansion: bool | None = None
    parameters: dict[str, Any] | None = None


# --- RBAC, events, cluster-level -------------------------------------------------------


class RoleRef(Struct, gc=False):
    kind: str | None = None
    name: str | None = None
    apiGroup: str | None = None


class Subject(Struct, gc=False):
    kind: str | None = None
    name: str | None = None
    namespace: str | None = None
    apiGroup: str | None = None


class RoleBindingView(ObjectView, kw_only=True):
    roleRef: RoleRef | None = None
    subjects: list[Subject] | None = None


class ClusterRoleBindingView(RoleBindingView, kw_only=True):
    pass


class InvolvedObject(Struct, gc=False):
    kind: str | None = None
    namespace: str | None = None
    name: str | None = None
    uid: str | None = None
    apiVersion: str | None = None
    fieldPath: str | None = None


class EventSource(Struct, gc=False):
    component: str | None = None
    host: str | None = None


class EventSeries(Struct, gc=False):
    count: int | None = None
    lastObservedTime: str | None = None


class EventView(ObjectView, kw_only=True):
    # core/v1 shape
    involvedObject: InvolvedObject | None = None
    reason: str | None = None
    message: str | None = None
    type: str | None = None
    count: int | None = None
    firstTimestamp: str | None = None
    lastTimestamp: str | None = None
    eventTime: str | None = None
    source: EventSource | None = None
    reportingComponent: str | None = None
    series: EventSeries | None = None
    # events.k8s.io/v1 shape
    regarding: InvolvedObject | None = None
    note: str | None = None
    deprecatedCount: int | None = None
    deprecatedFirstTimestamp: str | None = None
    deprecatedLastTimestamp: str | None = None


class NamespaceStatus(Struct, gc=False):
    phase: str | None = None
    # set by the namespace controller while it deletes: what holds the deletion
    conditions: list[Condition] | None = None


class NamespaceView(ObjectView, kw_only=True):
    status: NamespaceStatus = field(default_factory=NamespaceStatus)


class ServiceAccountView(ObjectView, kw_only=True):
    secrets: list[NameRef] | None = None
    imagePullSecrets: list[NameRef] | None = None
    automountServiceAccountToken: bool | None = None


class SpecDictView(ObjectView, kw_only=True):
    """Kinds whose spec the graph reads as a small dict (HPA, PDB, NetworkPolicy, ...)."""

    spec: dict[str, Any] | None = None
    status: dict[str, Any] | None = None


class HorizontalPodAutoscalerView(SpecDictView, kw_only=True):
    pass


class PodDisruptionBudgetView(SpecDictView, kw_only=True):
    pass


class NetworkPolicyView(SpecDictView, kw_only=True):
    pass


class APIServiceView(SpecDictView, kw_only=True):
    pass


class CustomResourceDefinitionView(SpecDictView, kw_only=True):
    pass


class HTTPRouteView(SpecDictView, kw_only=True):
    pass


class PriorityClassView(ObjectView, kw_only=True):
    value: int | None = None
    globalDefault: bool | None = None
    preemptionPolicy: str | None = None


class RuntimeClassView(ObjectView, kw_only=True):
    handler: str | None = None


class WebhookConfigurationView(ObjectView, kw_only=True):
    webhooks: list[dict[str, Any]] | None = None


class MutatingWebhookConfigurationView(
    WebhookConfigurationView, kw_only=True
):
    pass


class ValidatingWebhookConfigurationView(
    WebhookConfigurationView, kw_only=True
):
    pass


# kind -> view class; a kind not listed decodes as ObjectView (metadata only).
VIEW_BY_KIND: dict[str, type[ObjectView]] = {
    "Pod": PodView, "Node": NodeView, "Deployment": DeploymentView,
    "StatefulSet": StatefulSetView, "DaemonSet": DaemonSetView, "ReplicaSet": ReplicaSetView,
    "ReplicationController": ReplicationControllerView, "Job": JobView, "CronJob": CronJobView,
    "Service": ServiceView, "Endpoints": EndpointsView, "EndpointSlice": EndpointSliceView,
    "Ingress": IngressView, "ConfigMap": ConfigMapView, "Secret": SecretView,
    "PersistentVolumeClaim": PersistentVolumeClaimView,
    "PersistentVolume": PersistentVolumeView, "StorageClass": StorageClassView,
    "RoleBinding": RoleBindingView, "ClusterRoleBinding": ClusterRoleBindingView,
    "Event": EventView, "Namespace": NamespaceView, "ServiceAccount": ServiceAccountView,
    "HorizontalPodAutoscaler": HorizontalPodAutoscalerView,
    "PodDisruptionBudget": PodDisruptionBudgetView, "NetworkPolicy": NetworkPolicyView,
    "APIService": APIServiceView, "CustomResourceDefinition": CustomResourceDefinitionView,
    "HTTPRoute": HTTPRouteView, "PriorityClass": PriorityClassView,
    "RuntimeClass": RuntimeClassView,
    "MutatingWebhookConfiguration": MutatingWebhookConfigurationView,
    "ValidatingWebhookConfiguration": ValidatingWebhookConfigurationView,
}


def view_type(kind: str) -> type[ObjectView]:
    """The view class for a kind (ObjectView for kinds without one)."""
    return VIEW_BY_KIND.get(kind, ObjectView)


_JSON_DECODERS: dict[type, msgspec.json.Decoder] = {}


def json_decoder(kind: str) -> msgspec.json.Decoder:
    """A cached decoder of JSON bytes into the kind's view (lenient about number/str types)."""
    vt = view_type(kind)
    dec = _JSON_DECODERS.get(vt)
    if dec is None:
        dec = _JSON_DECODERS[vt] = msgspec.json.Decoder(vt, strict=False)
    return dec


def view_from_dict(kind: str, body: dict[str, Any]) -> ObjectView:
    """Convert an already-parsed object (YAML, text, legacy) into the kind's view."""
    return msgspec.convert(body, view_type(kind), strict=False)
