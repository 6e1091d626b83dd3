"""Workloads of the synthetic cluster and their pod templates: team apps, stateful services, add-ons, DaemonSets, static and bare pods."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Any

from synthetic.clusters.scalable import shapes
from synthetic.ids import Ids, safe_suffix
from synthetic.objects.containers import CONTAINER_SECURITY, api_container, exec_probe, http_probe
from synthetic.objects.metadata import LAST_APPLIED, last_applied, owner_reference
from synthetic.objects.pod_specs import qos_class
from synthetic.objects.pods import (
    NodeSlot,
    PodTemplate,
    controller_fields,
    pod_spec_defaults,
)
from synthetic.objects.workloads import Workload
from synthetic.times import local_timestamp

POD_SECURITY = {"fsGroup": 2000, "runAsNonRoot": True, "seccompProfile": {"type": "RuntimeDefault"}}
_SPEC_DEFAULTS = {
    "dnsPolicy": "ClusterFirst",
    "restartPolicy": "Always",
    "schedulerName": "default-scheduler",
    "terminationGracePeriodSeconds": 30,
}


@dataclass(slots=True)
class Context:
    """What every builder needs: the seeded RNG, id source, catalog and cluster facts."""

    rng: random.Random
    ids: Ids
    catalog: dict[str, Any]
    node_count: int
    shape: dict[str, Any] = field(default_factory=dict)  # the catalog's entry of the dump's shape


def _field_env(name: str, path: str) -> dict[str, Any]:
    return {"name": name, "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": path}}}


def _app_env(ctx: Context, shape: dict[str, Any], name: str, container_name: str, team: str, namespace: str,
             environment: str, version: str) -> list[dict[str, Any]]:
    env: list[dict[str, Any]] = [{"name": k, "value": str(v)} for k, v in shape["env"].items()]
    optional = [
        _field_env("POD_NAME", "metadata.name"),
        _field_env("POD_NAMESPACE", "metadata.namespace"),
        _field_env("POD_IP", "status.podIP"),
        _field_env("NODE_NAME", "spec.nodeName"),
        {"name": "CPU_LIMIT", "valueFrom": {"resourceFieldRef": {"containerName": container_name, "divisor": "1", "resource": "limits.cpu"}}},
        {"name": "MEMORY_LIMIT", "valueFrom": {"resourceFieldRef": {"containerName": container_name, "divisor": "1Mi", "resource": "limits.memory"}}},
        {"name": "DB_HOST", "value": f"{team}-postgres.{namespace}.svc.cluster.local"},
        {"name": "DB_PORT", "value": "5432"},
        {"name": "DB_NAME", "value": team.replace("-", "_")},
        {"name": "DB_USER", "valueFrom": {"secretKeyRef": {"key": "username", "name": f"{name}-db"}}},
        {"name": "DB_PASSWORD", "valueFrom": {"secretKeyRef": {"key": "password", "name": f"{name}-db"}}},
        {"name": "REDIS_URL", "value": f"redis://{team}-redis-master.{namespace}.svc.cluster.local:6379/0"},
        {"name": "KAFKA_BOOTSTRAP_SERVERS", "value": ",".join(
            f"{team}-kafka-{i}.{team}-kafka-headless.{namespace}.svc.cluster.local:9092" for i in range(3))},
        {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://otel-collector.monitoring.svc.cluster.local:4317"},
        {"name": "OTEL_SERVICE_NAME", "value": name},
        {"name": "OTEL_RESOURCE_ATTRIBUTES", "value": f"service.namespace={namespace},deployment.environment={environment},service.version={version}"},
        {"name": "LOG_LEVEL", "valueFrom": {"configMapKeyRef": {"key": "log-level", "name": f"{name}-config", "optional": True}}},
        {"name": "FEATURE_FLAGS", "value": "new-checkout=true,async-export=false,dark-mode=on"},
        {"name": "SENTRY_DSN", "valueFrom": {"secretKeyRef": {"key": "dsn", "name": "sentry", "optional": True}}},
        {"name": "HTTP_PROXY_EXCLUDE", "value": ".svc,.cluster.local,10.96.0.0/12,169.254.169.254"},
    ]
    env += [entry for entry in optional if ctx.rng.random() < 0.1]
    return env


def _sidecar(ctx: Context, entry: dict[str, Any], app: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    mounts: list[dict[str, Any]] = []
    volumes: list[dict[str, Any]] = []
    args: list[str] | None = None
    if entry["name"] == "envoy":
        mounts = [{"mountPath": "/etc/envoy", "name": "envoy-config", "readOnly": True}]
        volumes = [{"configMap": {"defaultMode": 420, "name": f"{app}-envoy"}, "name": "envoy-config"}]
        args = ["--config-path", "/etc/envoy/envoy.yaml", "--log-level", "warn", "--service-cluster", app,
                "--drain-time-s", "45", "--concurrency", "2"]
    elif entry["name"] == "log-shipper":
        mounts = [{"mountPath": "/var/log/app", "name": "app-logs"},
                  {"mountPath": "/fluent-bit/etc", "name": "log-shipper-config", "readOnly": True}]
        volumes = [{"emptyDir": {}, "name": "app-logs"},
                   {"configMap": {"defaultMode": 420, "name": "log-shipper"}, "name": "log-shipper-config"}]
    else:
        args = ["--structured-logs", "--port=5432", "--health-check", f"--http-port={entry['port']}",
                f"example-prod:europe-west3:{app}-db"]
    ports = [{"containerPort": entry["port"], "name": "sidecar-metrics", "protocol": "TCP"}] if entry["port"] else None
    resources = {"limits": {"memory": entry["memory"]}, "requests": {"cpu": entry["cpu"], "memory": entry["memory"]}}
    readiness = http_probe("/ready", entry["port"], 1) if entry["port"] else None
    spec = api_container(entry["name"], entry["image"], ports=ports, resources=resources, readiness=readiness,
                     mounts=mounts, security=CONTAINER_SECURITY, args=args)
    return spec, volumes


def _template(ctx: Context, *, labels: dict[str, str], annotations: dict[str, str], spec: dict[str, Any],
              owner: dict[str, Any] | None, created_by: str = "kube-controller-manager",
              generate_name: bool = True, fields_spec: dict[str, Any] | None = None) -> PodTemplate:
    pod_spec = pod_spec_defaults(spec)
    tree = controller_fields(labels, annotations, owner, fields_spec or pod_spec, generate_name)
    return PodTemplate(labels, annotations, pod_spec, qos_class(pod_spec), created_by, tree)


def _owners(ctx: Context, workload_kind: str, name: str, age: int, revision: str) -> tuple[dict[str, Any], str, str, int]:
    """The ownerReference pods carry, and that owner's name, uid and age."""
    if workload_kind == "Deployment":
        rs_name = f"{name}-{revision}"
        rs_uid = ctx.ids.uid()
        rs_age = ctx.rng.randint(min(600, age), age)
        return owner_reference("apps/v1", "ReplicaSet", rs_name, rs_uid), rs_name, rs_uid, rs_age
    uid = ctx.ids.uid()
    return owner_reference("apps/v1", workload_kind, name, uid), name, uid, age


def app_workload(ctx: Context, team: str, environment: str, component: str, shape: dict[str, Any],
                 replicas: int, name: str, kind: str = "Deployment") -> Workload:
    """A team's stateless service (Deployment) built from an application shape."""
    rng = ctx.rng
    namespace = f"{team}-{environment}"
    version = f"{rng.randint(1, 4)}.{rng.randint(0, 40)}.{rng.randint(0, 20)}"
    image = f"registry.example.com/{team}/{name.removeprefix(team + '-')}:{version}"
    container_name = component.split("-")[0]
    selector = {"app.kubernetes.io/instance": name, "app.kubernetes.io/name": name}
    labels = {
        **selector,
        "app.kubernetes.io/component": component,
        "app.kubernetes.io/part-of": team,
        "app.kubernetes.io/version": version,
        "env": environment,
        "team": team,
    }
    first_port = shape["ports"][0]["name"]
    resources = {
        "limits": {"cpu": rng.choice(shape["cpu"]), "memory": rng.choice(shape["memory"])},
        "requests": {"cpu": rng.choice(shape["cpu"]), "memory": rng.choice(shape["memory"])},
    }
    if rng.random() < 0.4:  # many teams set no CPU limit
        del resources["limits"]["cpu"]
    mounts = [
        {"mountPath": f"/etc/{container_name}", "name": "config", "readOnly": True},
        {"mountPath": "/tmp", "name": "tmp"},
    ]
    volumes: list[dict[str, Any]] = [
        {"configMap": {"defaultMode": 420, "name": f"{name}-config"}, "name": "config"},
        {"emptyDir": {}, "name": "tmp"},
    ]
    if rng.random() < 0.4:
        mounts.append({"mountPath": "/etc/tls", "name": "tls", "readOnly": True})
        volumes.append({"name": "tls", "secret": {"defaultMode": 420, "secretName": f"{name}-tls"}})
    if rng.random() < 0.15:
        mounts.append({"mountPath": "/var/cache/app", "name": "cache"})
        volumes.append({"emptyDir": {"medium": "Memory", "sizeLimit": "256Mi"}, "name": "cache"})
    main = api_container(
        container_name, image,
        ports=[{"containerPort": p["containerPort"], "name": p["name"], "protocol": "TCP"} for p in shape["ports"]],
        env=_app_env(ctx, shape, name, container_name, team, namespace, environment, version),
        env_from=[{"configMapRef": {"name": f"{name}-env"}}] if rng.random() < 0.3 else None,
        resources=resources,
        liveness=http_probe(shape["liveness"], first_port, 30),
        readiness=http_probe(shape["readiness"], first_port, 5),
        startup=http_probe(shape["liveness"], first_port, 0) if shape["runtime"] == "java" and rng.random() < 0.5 else None,
        mounts=mounts, security=CONTAINER_SECURITY if rng.random() < 0.6 else None,
        args=[f"--config=/etc/{container_name}/application.yaml", "--log-format=json"] if rng.random() < 0.3 else None,
    )
    containers = [main]
    for entry in ctx.catalog["sidecars"]:
        if rng.random() < 0.06:
            sidecar, sidecar_volumes = _sidecar(ctx, entry, name)
            containers.append(sidecar)
            volumes += sidecar_volumes
    shaped = ctx.shape
    if "env" in shaped:
        main["env"] = [*main["env"], *shapes.extra_env(ctx, name, team, namespace, environment, container_name, len(main["env"]))]
    if shaped.get("long_command"):
        main["command"], main["args"] = shapes.long_command(ctx, name, namespace)
    if "volumes" in shaped:
        more_volumes, more_mounts = shapes.extra_volumes(ctx, name, len(volumes))
        volumes += more_volumes
        main["volumeMounts"] = [*main["volumeMounts"], *more_mounts]
    if "sidecars" in shaped:
        containers += shapes.extra_sidecars(ctx, name)
    spec: dict[str, Any] = {
        "containers": containers,
        **_SPEC_DEFAULTS,
        "securityContext": POD_SECURITY,
        "serviceAccount": name,
        "serviceAccountName": name,
        "volumes": volumes,
    }
    if rng.random() < 0.4:
        spec["affinity"] = {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"podAffinityTerm": {"labelSelector": {"matchLabels": selector}, "topologyKey": "kubernetes.io/hostname"},
             "weight": 100}]}}
    if rng.random() < 0.3:
        spec["imagePullSecrets"] = [{"name": "registry-credentials"}]
    if "init_containers" in shaped:
        spec["initContainers"] = shapes.extra_init_containers(ctx, name, team, environment, version)
    elif rng.random() < 0.15:
        spec["initContainers"] = [api_container(
            "wait-for-db", "docker.io/library/busybox:1.36.1",
            command=["sh", "-c", "until nc -z -w 2 $DB_HOST 5432; do echo waiting for database; sleep 2; done"],
            env=[{"name": "DB_HOST", "value": f"{team}-postgres.{namespace}.svc.cluster.local"}],
            resources={"limits": {"cpu": "50m", "memory": "32Mi"}, "requests": {"cpu": "10m", "memory": "16Mi"}},
            security=CONTAINER_SECURITY,
        )]
    if rng.random() < 0.15:
        spec["topologySpreadConstraints"] = [{
            "labelSelector": {"matchLabels": selector}, "maxSkew": 1,
            "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "ScheduleAnyway",
        }]
    if rng.random() < 0.15:
        pool = rng.choice(["memory", "batch"])
        spec["affinity"] = {**spec.get("affinity", {}), "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [{"matchExpressions": [{"key": "node.example.com/pool", "operator": "In", "values": [pool]}]}]}}}
        spec["tolerations"] = [{"effect": "NoSchedule", "key": "dedicated", "operator": "Equal", "value": pool}]
    if environment == "prod" and rng.random() < 0.5:
        spec["priorityClassName"] = "business-critical"
        spec["priority"] = 100000
    applied = rng.random() < 0.6
    template_annotations = {
        "checksum/config": hashlib.sha256(f"{name}{version}".encode()).hexdigest(),
        "prometheus.io/path": "/metrics",
        "prometheus.io/port": str(shape["ports"][-1]["containerPort"]),
        "prometheus.io/scrape": "true",
    }
    if rng.random() < 0.3:
        template_annotations["kubectl.kubernetes.io/restartedAt"] = local_timestamp(rng.randint(3600, 30 * 86_400))
    if "annotations" in shaped:
        template_annotations.update(shapes.extra_annotations(ctx, name, team, namespace, environment, len(template_annotations)))
    os_name = "linux"
    if "windows" in shaped and rng.random() < shaped["windows"]:
        spec, os_name = shapes.windows_app(ctx, spec, name, team, version), "windows"
    manifest = {
        "apiVersion": "apps/v1", "kind": kind,
        "metadata": {"annotations": {}, "labels": labels, "name": name, "namespace": namespace},
        "spec": {"replicas": replicas, "selector": {"matchLabels": selector},
                 "template": {"metadata": {"annotations": dict(template_annotations), "labels": labels}, "spec": spec}},
    }
    # Tooling that copies the workload's annotations into its pod template (a share of teams)
    # leaves the long last-applied JSON on every pod; that string is what YAML parsers chew on.
    if applied and rng.random() < 0.5:
        template_annotations[LAST_APPLIED] = last_applied(manifest)
    age = rng.randint(86_400, ctx.catalog["cluster"]["age_seconds"] - 86_400)
    revision = safe_suffix(10, f"{namespace}/{name}/{version}")
    pod_owner, owner_name, owner_uid, owner_age = _owners(ctx, kind, name, age, revision)
    hash_label = "pod-template-hash" if kind == "Deployment" else "controller-revision-hash"
    pod_labels = {**labels, hash_label: revision if kind == "Deployment" else f"{name}-{revision}"}
    # A mesh's injector changes the pods, not the workload's template.
    pod_spec, pod_annotations = spec, template_annotations
    if "mesh" in shaped:
        pod_spec, pod_annotations = shapes.inject_mesh(ctx, spec, template_annotations, name, namespace, name)
    template = _template(ctx, labels=pod_labels, annotations=pod_annotations, spec=pod_spec, owner=pod_owner)
    config = {
        "application.yaml": (
            f"server:\n  port: {shape['ports'][0]['containerPort']}\n  shutdown: graceful\n"
            f"logging:\n  level:\n    root: INFO\n    com.example.{team}: DEBUG\n"
            f"database:\n  host: {team}-postgres.{namespace}.svc.cluster.local\n  pool:\n    max: 20\n    min: 2\n"
            f"features:\n  new-checkout: true\n  async-export: false\n"
        ),
        "log-level": "info",
    }
    return Workload(
        kind=kind, namespace=namespace, name=name, uid=ctx.ids.uid(), age=age, replicas=replicas,
        template=template, template_spec=spec, template_labels=labels, selector=selector, revision=revision,
        pod_owner=pod_owner, owner_name=owner_name, owner_uid=owner_uid, owner_age=owner_age,
        applied_manifest=manifest if applied else None,
        ports=[{"name": p["name"], "port": 80 if i == 0 else p["containerPort"], "protocol": "TCP", "targetPort": p["name"]}
               for i, p in enumerate(shape["ports"])],
        team=team, config=config, os=os_name,
    )


def stateful_workload(ctx: Context, team: str, environment: str, shape: dict[str, Any], replicas: int, name: str) -> Workload:
    """A team's database or broker: a StatefulSet whose pods each own a PersistentVolumeClaim."""
    rng = ctx.rng
    namespace = f"{team}-{environment}"
    selector = {"app.kubernetes.io/instance": name, "app.kubernetes.io/name": shape["component"]}
    labels = {**selector, "app.kubernetes.io/component": "primary", "app.kubernetes.io/managed-by": "Helm",
              "helm.sh/chart": f"{shape['component']}-{rng.randint(12, 19)}.{rng.randint(0, 9)}.{rng.randint(0, 9)}"}
    port = shape["port"]
    main = api_container(
        shape["component"], shape["image"],
        ports=[{"containerPort": port, "name": "tcp-" + shape["component"][:10], "protocol": "TCP"}],
        env=[{"name": "BITNAMI_DEBUG", "value": "false"},
             {"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}},
             {"name": "ALLOW_EMPTY_PASSWORD", "value": "no"},
             {"name": "PASSWORD", "valueFrom": {"secretKeyRef": {"key": "password", "name": name}}}],
        resources={"limits": {"cpu": "2", "memory": "4Gi"}, "requests": {"cpu": "500m", "memory": "2Gi"}},
        liveness=exec_probe(["/bin/sh", "-c", f"exec nc -z 127.0.0.1 {port}"], initial=30),
        readiness=exec_probe(["/bin/sh", "-c", f"exec nc -z 127.0.0.1 {port}"], initial=5),
        mounts=[{"mountPath": shape["mount"], "name": "data"}, {"mountPath": "/tmp", "name": "empty-dir", "subPath": "tmp-dir"}],
        security={**CONTAINER_SECURITY, "runAsUser": 1001},
    )
    spec: dict[str, Any] = {
        "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
            {"labelSelector": {"matchLabels": selector}, "topologyKey": "kubernetes.io/hostname"}]}},
        "containers": [main],
        **_SPEC_DEFAULTS,
        "hostname": name,
        "securityContext": {"fsGroup": 1001, "fsGroupChangePolicy": "OnRootMismatch"},
        "serviceAccount": name,
        "serviceAccountName": name,
        "subdomain": f"{name}-headless",
        "volumes": [{"emptyDir": {}, "name": "empty-dir"}],
    }
    age = rng.randint(86_400, ctx.catalog["cluster"]["age_seconds"] - 86_400)
    revision = safe_suffix(10, f"{namespace}/{name}")
    pod_owner, owner_name, owner_uid, owner_age = _owners(ctx, "StatefulSet", name, age, revision)
    pod_labels = {**labels, "controller-revision-hash": f"{name}-{revision}"}
    fields_spec = pod_spec_defaults({**spec, "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "x"}}, *spec["volumes"]]})
    template = _template(ctx, labels=pod_labels, annotations={}, spec=spec, owner=pod_owner, fields_spec=fields_spec)
    return Workload(
        kind="StatefulSet", namespace=namespace, name=name, uid=owner_uid, age=age, replicas=replicas,
        template=template, template_spec=spec, template_labels=labels, selector=selector, revision=revision,
        pod_owner=pod_owner, owner_name=owner_name, owner_uid=owner_uid, owner_age=owner_age,
        ports=[{"name": "tcp", "port": port, "protocol": "TCP", "targetPort": "tcp-" + shape["component"][:10]}],
        team=team,
    )


def addon_workload(ctx: Context, entry: dict[str, Any]) -> Workload:
    """A cluster add-on (CoreDNS, ingress controller, monitoring) from the catalog."""
    rng = ctx.rng
    name, namespace = entry["name"], entry["namespace"]
    selector = {"app.kubernetes.io/name": name}
    labels = {**selector, "app.kubernetes.io/part-of": "cluster-addons"}
    port = entry["port"]
    main = api_container(
        name.split("-")[0] if name != "ingress-nginx-controller" else "controller", entry["image"],
        ports=[{"containerPort": port, "name": "http" if port != 53 else "dns", "protocol": "UDP" if port == 53 else "TCP"}],
        resources={"limits": {"memory": "512Mi"}, "requests": {"cpu": "100m", "memory": "128Mi"}},
        liveness=http_probe("/healthz", 8080 if port == 53 else port, 10),
        readiness=http_probe("/ready" if port == 53 else "/healthz", 8181 if port == 53 else port, 0),
        mounts=[{"mountPath": "/etc/config", "name": "config", "readOnly": True}],
        security=CONTAINER_SECURITY,
        args=[f"--v={rng.randint(1, 3)}", "--logtostderr=true"],
    )
    spec: dict[str, Any] = {
        "containers": [main],
        **_SPEC_DEFAULTS,
        "nodeSelector": {"kubernetes.io/os": "linux"},
        "priorityClassName": "system-cluster-critical",
        "securityContext": {},
        "serviceAccount": name,
        "serviceAccountName": name,
        "tolerations": [{"key": "CriticalAddonsOnly", "operator": "Exists"}],
        "volumes": [{"configMap": {"defaultMode": 420, "name": name}, "name": "config"}],
        "priority": 2000000000,
    }
    age = ctx.catalog["cluster"]["age_seconds"] - rng.randint(600, 7200)
    revision = safe_suffix(10, f"{namespace}/{name}")
    pod_owner, owner_name, owner_uid, owner_age = _owners(ctx, entry["kind"], name, age, revision)
    hash_label = "pod-template-hash" if entry["kind"] == "Deployment" else "controller-revision-hash"
    pod_labels = {**labels, hash_label: revision if entry["kind"] == "Deployment" else f"{name}-{revision}"}
    template = _template(ctx, labels=pod_labels, annotations={}, spec=spec, owner=pod_owner)
    workload_uid = owner_uid if entry["kind"] != "Deployment" else ctx.ids.uid()
    return Workload(
        kind=entry["kind"], namespace=namespace, name=name, uid=workload_uid, age=age, replicas=entry["replicas"],
        template=template, template_spec=spec, template_labels=labels, selector=selector, revision=revision,
        pod_owner=pod_owner, owner_name=owner_name, owner_uid=owner_uid, owner_age=owner_age,
        ports=[{"name": "http" if port != 53 else "dns", "port": port, "protocol": "UDP" if port == 53 else "TCP",
                "targetPort": port}],
    )


def _host_path_volumes(paths: list[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    volumes, mounts = [], []
    for path in paths:
        name = path.strip("/").replace("/", "-").replace(".", "-")[:50].strip("-") or "host-root"
        kind = "FileOrCreate" if path.endswith(".lock") else "DirectoryOrCreate" if "calico" in path else ""
        host_path: dict[str, Any] = {"path": path}
        if kind:
            host_path["type"] = kind
        volumes.append({"hostPath": host_path, "name": name})
        mounts.append({"mountPath": "/host" + path if path == "/" else path, "name": name, "readOnly": path in ("/proc", "/sys", "/")})
    return volumes, mounts


def daemonset_workload(ctx: Context, entry: dict[str, Any], node_count: int) -> Workload:
    """A per-node agent (kube-proxy, CNI, exporters) from the catalog; one pod per node it targets."""
    name, namespace = entry["name"], entry["namespace"]
    if entry.get("os") == "windows":
        return _windows_daemonset(ctx, entry, node_count)
    selector = {"k8s-app": name}
    labels = dict(selector)
    volumes, mounts = _host_path_volumes(entry["host_paths"])
    env = [{"name": "NODE_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "spec.nodeName"}}},
           {"name": "HOST_IP", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "status.hostIP"}}}]
    env += [{"name": k, "value": str(v)} for k, v in (entry.get("env") or {}).items()]
    requests = {k: entry[k] for k in ("cpu", "memory") if entry.get(k)}
    main = api_container(
        name, entry["image"], env=env,
        ports=[{"containerPort": entry["port"], "hostPort": entry["port"], "name": "metrics", "protocol": "TCP"}] if entry.get("port") else None,
        resources={"requests": requests} if requests else {},
        liveness=http_probe("/liveness" if "calico" in name else "/healthz", entry.get("port") or 10256, 10),
        mounts=mounts,
        security={"privileged": True} if entry["privileged"] else {"readOnlyRootFilesystem": True},
    )
    spec: dict[str, Any] = {
        "containers": [main],
        **_SPEC_DEFAULTS,
        "hostNetwork": True,
        "nodeSelector": {"kubernetes.io/os": "linux"},
        "priorityClassName": "system-node-critical",
        "securityContext": {},
        "serviceAccount": name,
        "serviceAccountName": name,
        "tolerations": [{"effect": "NoSchedule", "operator": "Exists"}, {"key": "CriticalAddonsOnly", "operator": "Exists"},
                        {"effect": "NoExecute", "operator": "Exists"}],
        "volumes": volumes,
        "priority": 2000001000,
        "dnsPolicy": "ClusterFirstWithHostNet",
    }
    if entry.get("init_image"):
        spec["initContainers"] = [api_container(
            "install-cni", entry["init_image"], command=["/opt/cni/bin/install"],
            env=[{"name": "CNI_CONF_NAME", "value": "10-calico.conflist"},
                 {"name": "CNI_NETWORK_CONFIG", "valueFrom": {"configMapKeyRef": {"key": "cni_network_config", "name": "calico-config"}}},
                 {"name": "KUBERNETES_NODE_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "spec.nodeName"}}}],
            mounts=[{"mountPath": "/host/opt/cni/bin", "name": "cni-bin-dir"}, {"mountPath": "/host/etc/cni/net.d", "name": "cni-net-dir"}],
            security={"privileged": True},
        )]
        spec["volumes"] = [*volumes, {"hostPath": {"path": "/opt/cni/bin", "type": ""}, "name": "cni-bin-dir"},
                           {"hostPath": {"path": "/etc/cni/net.d", "type": ""}, "name": "cni-net-dir"}]
    age = ctx.catalog["cluster"]["age_seconds"] - ctx.rng.randint(600, 3600)
    revision = safe_suffix(10, f"{namespace}/{name}")
    pod_owner, owner_name, owner_uid, owner_age = _owners(ctx, "DaemonSet", name, age, revision)
    pod_labels = {**labels, "controller-revision-hash": revision, "pod-template-generation": "1"}
    template = _template(ctx, labels=pod_labels, annotations={}, spec=spec, owner=pod_owner)
    return Workload(
        kind="DaemonSet", namespace=namespace, name=name, uid=owner_uid, age=age, replicas=node_count,
        template=template, template_spec=spec, template_labels=labels, selector=selector, revision=revision,
        pod_owner=pod_owner, owner_name=owner_name, owner_uid=owner_uid, owner_age=owner_age,
        node_share=entry.get("node_share", 1.0),
    )


def _windows_daemonset(ctx: Context, entry: dict[str, Any], node_count: int) -> Workload:
    name, namespace = entry["name"], entry["namespace"]
    selector = {"k8s-app": name}
    spec = shapes.windows_daemonset_spec(entry)
    age = ctx.catalog["cluster"]["age_seconds"] - ctx.rng.randint(600, 3600)
    revision = safe_suffix(10, f"{namespace}/{name}")
    pod_owner, owner_name, owner_uid, owner_age = _owners(ctx, "DaemonSet", name, age, revision)
    pod_labels = {**selector, "controller-revision-hash": revision, "pod-template-generation": "1"}
    template = _template(ctx, labels=pod_labels, annotations={}, spec=spec, owner=pod_owner)
    return Workload(
        kind="DaemonSet", namespace=namespace, name=name, uid=owner_uid, age=age, replicas=node_count,
        template=template, template_spec=spec, template_labels=dict(selector), selector=selector, revision=revision,
        pod_owner=pod_owner, owner_name=owner_name, owner_uid=owner_uid, owner_age=owner_age, os="windows",
    )


def static_workload(ctx: Context, entry: dict[str, Any], node: NodeSlot, age: int) -> Workload:
    """A kubeadm static pod on a control-plane node (its mirror pod is owned by the Node)."""
    name = entry["name"]
    labels = {"component": name, "tier": "control-plane"}
    volumes, mounts = _host_path_volumes(entry["host_paths"])
    command = [part.replace("{ip}", node.ip).replace("{name}", node.name) for part in entry["command"]]
    requests = {k: entry[k] for k in ("cpu", "memory") if entry.get(k)}
    port = {"etcd": 2381, "kube-apiserver": 6443, "kube-controller-manager": 10257, "kube-scheduler": 10259}[name]
    main = api_container(
        name, entry["image"], command=command, resources={"requests": requests},
        liveness=http_probe("/livez" if name != "etcd" else "/health?exclude=NOSPACE&serializable=true", port, 10),
        startup=http_probe("/livez" if name != "etcd" else "/health?serializable=false", port, 10),
        mounts=mounts,
    )
    spec: dict[str, Any] = {
        "containers": [main],
        **_SPEC_DEFAULTS,
        "hostNetwork": True,
        "priorityClassName": "system-node-critical",
        "priority": 2000001000,
        "securityContext": {"seccompProfile": {"type": "RuntimeDefault"}},
        "tolerations": [{"effect": "NoExecute", "operator": "Exists"}],
        "volumes": volumes,
        "nodeName": node.name,
    }
    config_hash = hashlib.sha256(f"{node.name}/{name}".encode()).hexdigest()[:32]
    annotations = {
        "kubernetes.io/config.hash": config_hash,
        "kubernetes.io/config.mirror": config_hash,
        "kubernetes.io/config.seen": f"2023-04-15T08:0{ctx.rng.randint(0, 9)}:1{ctx.rng.randint(0, 9)}.{ctx.rng.randint(100000000, 999999999)}Z",
        "kubernetes.io/config.source": "file",
    }
    if name == "kube-apiserver":
        annotations["kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint"] = f"{node.ip}:6443"
    elif name == "etcd":
        annotations["kubeadm.kubernetes.io/etcd.advertise-client-urls"] = f"https://{node.ip}:2379"
    pod_owner = owner_reference("v1", "Node", node.name, node.uid, block=False)
    template = _template(ctx, labels=labels, annotations=annotations, spec=spec, owner=pod_owner,
                         created_by="kubelet", generate_name=False)
    return Workload(
        kind="Node", namespace="kube-system", name=f"{name}-{node.name}", uid=node.uid, age=age, replicas=1,
        template=template, template_spec=spec, template_labels=labels, selector=labels, pod_owner=pod_owner,
        static_node=node,
    )


def bare_workload(ctx: Context, team: str, environment: str, name: str) -> Workload:
    """A pod made directly with `kubectl apply -f pod.yaml` (debug shells, one-off tasks)."""
    namespace = f"{team}-{environment}"
    labels = {"run": name, "team": team}
    main = api_container(
        name, "docker.io/nicolaka/netshoot:v0.12", command=["sleep", "infinity"],
        resources={"limits": {"cpu": "500m", "memory": "256Mi"}, "requests": {"cpu": "100m", "memory": "64Mi"}},
        security={"allowPrivilegeEscalation": False, "capabilities": {"add": ["NET_ADMIN", "NET_RAW"], "drop": ["ALL"]}},
    )
    spec: dict[str, Any] = {"containers": [main], **_SPEC_DEFAULTS, "securityContext": {},
                            "serviceAccount": "default", "serviceAccountName": "default"}
    manifest = {"apiVersion": "v1", "kind": "Pod",
                "metadata": {"annotations": {}, "labels": labels, "name": name, "namespace": namespace},
                "spec": {"containers": [{k: main[k] for k in ("command", "image", "name", "resources", "securityContext")}]}}
    annotations = {LAST_APPLIED: last_applied(manifest)}
    template = _template(ctx, labels=labels, annotations=annotations, spec=spec, owner=None,
                         created_by="kubectl-client-side-apply", generate_name=False)
    return Workload(
        kind="Pod", namespace=namespace, name=name, uid="", age=ctx.rng.randint(600, 30 * 86_400), replicas=1,
        template=template, template_spec=spec, template_labels=labels, selector=labels, applied_manifest=manifest,
        team=team,
    )
