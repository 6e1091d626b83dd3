"""Shapes of pod that production clusters have beyond the baseline cluster (`shapes:` in the catalog).

Every function here draws from the context's RNG only when its shape asks for the feature, so
the baseline shape is the generator's output as it always was, byte for byte.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from synthetic.objects.containers import CONTAINER_SECURITY, api_container, http_probe

if TYPE_CHECKING:
    from synthetic.clusters.scalable.workloads import Context

_COMPACT = (",", ":")


def _fill(template: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        template = template.replace("{" + key + "}", value)
    return template


def _env_key(app: str) -> str:
    return "".join(c for c in hashlib.sha256(app.encode()).hexdigest().upper() if c.isalnum())[:8]


def extra_env(ctx: Context, app: str, team: str, namespace: str, environment: str, container_name: str,
              have: int) -> list[dict[str, Any]]:
    """Env vars up to a drawn count (10-40): a third from valueFrom, the rest literal values
    that look like what production pods carry."""
    shape, rng = ctx.shape, ctx.rng
    low, high = shape["env"]
    wanted = rng.randint(low, high) - have
    values = ctx.catalog["env_values"]
    fill = {"team": team, "ns": namespace, "app": app, "env": environment, "envkey": _env_key(app)}
    env: list[dict[str, Any]] = []
    for i in range(max(wanted, 0)):
        if rng.random() < shape["value_from"]:
            roll = rng.random()
            if roll < 0.4:
                src = {"secretKeyRef": {"key": rng.choice(["password", "token", "api-key", "dsn", "client-secret"]),
                                        "name": f"{app}-{rng.choice(['db', 'api', 'oauth', 'sentry'])}"}}
            elif roll < 0.7:
                src = {"configMapKeyRef": {"key": f"setting-{i}", "name": f"{app}-config"}}
            elif roll < 0.9:
                src = {"fieldRef": {"apiVersion": "v1", "fieldPath": rng.choice(
                    ["metadata.name", "metadata.namespace", "status.podIP", "spec.nodeName", "status.hostIP",
                     "spec.serviceAccountName", "metadata.labels['app.kubernetes.io/version']"])}}
            else:
                src = {"resourceFieldRef": {"containerName": container_name, "divisor": "1Mi", "resource": "limits.memory"}}
            env.append({"name": f"{rng.choice(['APP', 'SVC', 'EXT', 'CFG'])}_REF_{i}", "valueFrom": src})
            continue
        if rng.random() < shape["credential"]:
            kind, name = "credential", rng.choice(["UPSTREAM", "LEGACY_DSN", "S3_ACCESS", "DEPLOY"])
        else:
            kind = rng.choice(["url", "url", "connection", "json", "plain", "plain"])
            name = {"url": "ENDPOINT", "connection": "CONNECTION", "json": "SETTINGS_JSON", "plain": "SETTING"}[kind]
        env.append({"name": f"{name}_{i}", "value": _fill(rng.choice(values[kind]), fill)})
    return env


def long_command(ctx: Context, app: str, namespace: str) -> tuple[list[str], list[str]]:
    """A JVM-style command and a long list of flags."""
    rng = ctx.rng
    command = ["/usr/bin/tini", "--", "/opt/java/openjdk/bin/java", "-XX:MaxRAMPercentage=75.0", "-XX:+UseG1GC",
               "-XX:+ExitOnOutOfMemoryError", "-Djava.security.egd=file:/dev/./urandom",
               f"-Dspring.application.name={app}", "-jar", f"/app/{app}.jar"]
    args = [f"--server.port={8080 + rng.randint(0, 3)}", f"--spring.config.additional-location=file:/etc/{app}/",
            f"--management.endpoints.web.exposure.include={rng.choice(['health,info,prometheus', 'health,prometheus'])}",
            f"--logging.level.com.example={rng.choice(['INFO', 'DEBUG', 'WARN'])}",
            f"--kafka.bootstrap-servers=kafka-0.kafka-headless.{namespace}:9092,kafka-1.kafka-headless.{namespace}:9092",
            f"--otel.resource.attributes=service.name={app},k8s.namespace.name={namespace}"]
    args += [f"--feature.flag-{k}={rng.choice(['true', 'false'])}" for k in range(rng.randint(5, 25))]
    return command, args


def extra_volumes(ctx: Context, app: str, have: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Volumes up to a drawn count (5-20), projected ones included, and the main container's mounts."""
    rng = ctx.rng
    low, high = ctx.shape["volumes"]
    volumes: list[dict[str, Any]] = []
    mounts: list[dict[str, Any]] = []
    for i in range(max(rng.randint(low, high) - have, 0)):
        name = f"vol-{i}"
        roll = rng.random()
        if roll < 0.25:
            volume = {"name": name, "projected": {"defaultMode": 420, "sources": [
                {"secret": {"name": f"{app}-certs", "items": [{"key": "tls.crt", "path": "tls.crt"}, {"key": "tls.key", "path": "tls.key"}]}},
                {"configMap": {"name": f"{app}-ca", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
                {"serviceAccountToken": {"audience": "vault", "expirationSeconds": 3600, "path": "vault-token"}},
                {"downwardAPI": {"items": [{"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}, "path": "labels"}]}},
            ]}}
        elif roll < 0.45:
            volume = {"configMap": {"defaultMode": 420, "name": f"{app}-cfg-{i}"}, "name": name}
        elif roll < 0.6:
            volume = {"name": name, "secret": {"defaultMode": 256, "secretName": f"{app}-secret-{i}"}}
        elif roll < 0.8:
            volume = {"emptyDir": {"sizeLimit": rng.choice(["64Mi", "256Mi", "1Gi"])}, "name": name}
        elif roll < 0.9:
            volume = {"csi": {"driver": "secrets-store.csi.k8s.io", "readOnly": True,
                              "volumeAttributes": {"secretProviderClass": f"{app}-spc"}}, "name": name}
        else:
            volume = {"downwardAPI": {"defaultMode": 420, "items": [
                {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.annotations"}, "path": "annotations"}]}, "name": name}
        volumes.append(volume)
        mount: dict[str, Any] = {"mountPath": f"/mnt/{name}", "name": name}
        if "emptyDir" not in volume:
            mount["readOnly"] = True
        mounts.append(mount)
    return volumes, mounts


_INIT_STEPS = (
    ("migrate", "registry.example.com/{team}/{app}-migrations:{version}", ["/app/migrate", "up", "--timeout=300s"]),
    ("wait-for-db", "docker.io/library/busybox:1.36.1", ["sh", "-c", "until nc -z -w 2 $DB_HOST 5432; do sleep 2; done"]),
    ("fetch-config", "docker.io/curlimages/curl:8.7.1", ["sh", "-c", "curl -sf http://config-server.platform:8888/{app}/{env} -o /config/app.json"]),
    ("vault-agent-init", "docker.io/hashicorp/vault:1.16.1", ["/bin/sh", "-ec", "vault agent -config=/vault/configs/config-init.hcl"]),
)
_EXTRA_SIDECARS = (
    ("vault-agent", "docker.io/hashicorp/vault:1.16.1", None),
    ("otel-agent", "docker.io/otel/opentelemetry-collector-contrib:0.99.0", 8888),
    ("oauth2-proxy", "quay.io/oauth2-proxy/oauth2-proxy:v7.6.0", 4180),
    ("config-reloader", "ghcr.io/stakater/reloader:v1.0.79", 9090),
)


def extra_init_containers(ctx: Context, app: str, team: str, environment: str, version: str) -> list[dict[str, Any]]:
    """The init containers a shape adds to an app pod."""
    rng = ctx.rng
    low, high = ctx.shape["init_containers"]
    steps = rng.sample(_INIT_STEPS, min(rng.randint(low, high), len(_INIT_STEPS)))
    fill = {"app": app, "team": team, "env": environment, "version": version}
    return [api_container(name, _fill(image, fill), command=[_fill(c, fill) for c in command],
                      resources={"limits": {"cpu": "200m", "memory": "128Mi"}, "requests": {"cpu": "50m", "memory": "64Mi"}},
                      security=CONTAINER_SECURITY)
            for name, image, command in steps]


def extra_sidecars(ctx: Context, app: str) -> list[dict[str, Any]]:
    """The sidecars a shape adds to an app pod."""
    rng = ctx.rng
    low, high = ctx.shape["sidecars"]
    chosen = rng.sample(_EXTRA_SIDECARS, min(rng.randint(low, high), len(_EXTRA_SIDECARS)))
    sidecars = []
    for name, image, port in chosen:
        sidecars.append(api_container(
            name, image, ports=[{"containerPort": port, "name": name[:15], "protocol": "TCP"}] if port else None,
            env=[{"name": "APP_NAME", "value": app}, {"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}}],
            resources={"limits": {"memory": "128Mi"}, "requests": {"cpu": "20m", "memory": "64Mi"}},
            readiness=http_probe("/ready", port, 1) if port else None, security=CONTAINER_SECURITY,
            args=[f"--config=/etc/{name}/config.yaml", "--log-level=info"]))
    return sidecars


def extra_annotations(ctx: Context, app: str, team: str, namespace: str, environment: str, have: int) -> dict[str, str]:
    """Annotations up to a drawn count (10-30), some of them whole JSON configs."""
    rng, shape = ctx.rng, ctx.shape
    low, high = shape["annotations"]
    annotations: dict[str, str] = {}
    plain = [
        ("cluster-autoscaler.kubernetes.io/safe-to-evict", "true"), ("fluentbit.io/parser", "json"),
        ("co.elastic.logs/json.keys_under_root", "true"), ("instrumentation.opentelemetry.io/inject-java", "true"),
        ("argocd.argoproj.io/sync-wave", "1"), ("backup.velero.io/backup-volumes", "data,cache"),
        ("kubectl.kubernetes.io/default-container", app.split("-")[0]), ("iam.amazonaws.com/role", f"arn:aws:iam::123456789012:role/{team}-{app}"),
        ("vault.hashicorp.com/agent-inject", "true"), ("vault.hashicorp.com/role", f"{team}-{environment}"),
        ("example.com/owner", f"team-{team}@example.com"), ("example.com/runbook", f"https://runbooks.example.com/{team}/{app}"),
        ("example.com/oncall", f"https://oncall.example.com/schedules/{team}"), ("container.apparmor.security.beta.kubernetes.io/app", "runtime/default"),
    ]
    for i in range(max(rng.randint(low, high) - have, 0)):
        if rng.random() < shape["json_annotations"]:
            kind = rng.randrange(3)
            if kind == 0:
                key = f"ad.datadoghq.com/{app.split('-')[0]}.checks"
                value = json.dumps({"openmetrics": {"init_config": {}, "instances": [
                    {"openmetrics_endpoint": "http://%%host%%:8080/metrics", "namespace": team, "metrics": [".*"],
                     "tags": [f"env:{environment}", f"service:{app}"]}]}}, indent=2)
            elif kind == 1:
                key = f"vault.hashicorp.com/agent-inject-template-config-{i}"
                value = ('{{- with secret "database/creds/' + f"{team}-{app}" + '" -}}\n'
                         '{"username":"{{ .Data.username }}","host":"' + f"{team}-postgres.{namespace}" + '","port":5432}\n{{- end }}')
            else:
                key = f"config.example.com/settings-{i}"
                value = json.dumps({"service": app, "namespace": namespace, "limits": {"rps": rng.choice([50, 100, 500]), "burst": 20},
                                    "routes": [{"path": f"/api/v{v}", "upstream": f"http://{app}.{namespace}:8080"} for v in range(1, 4)]},
                                   separators=_COMPACT)
        else:
            key, value = plain[i % len(plain)] if i < len(plain) else (f"example.com/tag-{i}", f"{team}-{rng.randint(1, 99)}")
        annotations[key] = value
    return annotations


def cni_annotations(pod: dict[str, Any]) -> None:
    """Calico's per-pod annotations (container id and address): distinct on every pod."""
    ip = pod["status"].get("podIP")
    if not ip or pod["spec"].get("hostNetwork"):
        return
    container_id = hashlib.sha256(pod["metadata"]["uid"].encode()).hexdigest()
    annotations = dict(pod["metadata"].get("annotations") or {})
    annotations.update({"cni.projectcalico.org/containerID": container_id, "cni.projectcalico.org/podIP": f"{ip}/32",
                        "cni.projectcalico.org/podIPs": f"{ip}/32"})
    pod["metadata"]["annotations"] = dict(sorted(annotations.items()))


# -- service meshes ------------------------------------------------------------------------------

_ISTIO_VERSION = "1.21.2"


def inject_mesh(ctx: Context, spec: dict[str, Any], annotations: dict[str, str], app: str, namespace: str,
                service_account: str) -> tuple[dict[str, Any], dict[str, str]]:
    """The pod spec and annotations after the mesh's injector ran (the workload's template keeps
    the spec it was given)."""
    mesh = ctx.shape["mesh"]
    if ctx.rng.random() >= ctx.shape.get("mesh_share", 1.0):
        return spec, annotations
    app_containers = ",".join(c["name"] for c in spec["containers"])
    if mesh == "istio":
        return _inject_istio(spec, annotations, app, namespace, service_account, app_containers)
    return _inject_linkerd(spec, annotations, app, namespace, service_account)


def _inject_istio(spec: dict[str, Any], annotations: dict[str, str], app: str, namespace: str, service_account: str,
                  app_containers: str) -> tuple[dict[str, Any], dict[str, str]]:
    image = f"docker.io/istio/proxyv2:{_ISTIO_VERSION}"
    ports = [{"containerPort": c["containerPort"], "name": c["name"], "protocol": "TCP"}
             for main in spec["containers"][:1] for c in main.get("ports", [])]
    field = lambda name, path: {"name": name, "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": path}}}  # noqa: E731
    env = [
        {"name": "PILOT_CERT_PROVIDER", "value": "istiod"}, {"name": "CA_ADDR", "value": "istiod.istio-system.svc:15012"},
        field("POD_NAME", "metadata.name"), field("POD_NAMESPACE", "metadata.namespace"), field("INSTANCE_IP", "status.podIP"),
        field("SERVICE_ACCOUNT", "spec.serviceAccountName"), field("HOST_IP", "status.hostIP"),
        {"name": "ISTIO_CPU_LIMIT", "valueFrom": {"resourceFieldRef": {"divisor": "0", "resource": "limits.cpu"}}},
        {"name": "PROXY_CONFIG", "value": "{}\n"},
        {"name": "ISTIO_META_POD_PORTS", "value": json.dumps(ports, indent=1) + "\n"},
        {"name": "ISTIO_META_APP_CONTAINERS", "value": app_containers},
        {"name": "GOMEMLIMIT", "valueFrom": {"resourceFieldRef": {"divisor": "0", "resource": "limits.memory"}}},
        {"name": "GOMAXPROCS", "valueFrom": {"resourceFieldRef": {"divisor": "0", "resource": "limits.cpu"}}},
        {"name": "ISTIO_META_CLUSTER_ID", "value": "Kubernetes"}, field("ISTIO_META_NODE_NAME", "spec.nodeName"),
        {"name": "ISTIO_META_INTERCEPTION_MODE", "value": "REDIRECT"}, {"name": "ISTIO_META_WORKLOAD_NAME", "value": app},
        {"name": "ISTIO_META_OWNER", "value": f"kubernetes://apis/apps/v1/namespaces/{namespace}/deployments/{app}"},
        {"name": "ISTIO_META_MESH_ID", "value": "cluster.local"}, {"name": "TRUST_DOMAIN", "value": "cluster.local"},
    ]
    proxy = api_container(
        "istio-proxy", image, env=env,
        ports=[{"containerPort": 15090, "name": "http-envoy-prom", "protocol": "TCP"}],
        resources={"limits": {"cpu": "2", "memory": "1Gi"}, "requests": {"cpu": "100m", "memory": "128Mi"}},
        readiness=http_probe("/healthz/ready", 15021, 1),
        mounts=[{"mountPath": "/var/run/secrets/workload-spiffe-uds", "name": "workload-socket"},
                {"mountPath": "/var/run/secrets/credential-uds", "name": "credential-socket"},
                {"mountPath": "/var/run/secrets/workload-spiffe-credentials", "name": "workload-certs"},
                {"mountPath": "/var/run/secrets/istio", "name": "istiod-ca-cert"},
                {"mountPath": "/var/lib/istio/data", "name": "istio-data"},
                {"mountPath": "/etc/istio/proxy", "name": "istio-envoy"},
                {"mountPath": "/var/run/secrets/tokens", "name": "istio-token"},
                {"mountPath": "/etc/istio/pod", "name": "istio-podinfo"}],
        security={"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}, "privileged": False,
                  "readOnlyRootFilesystem": True, "runAsGroup": 1337, "runAsNonRoot": True, "runAsUser": 1337},
        args=["proxy", "sidecar", "--domain", f"{namespace}.svc.cluster.local", "--proxyLogLevel=warning",
              "--proxyComponentLogLevel=misc:error", "--log_output_level=default:info"],
    )
    init = api_container(
        "istio-init", image,
        resources={"limits": {"cpu": "2", "memory": "1Gi"}, "requests": {"cpu": "100m", "memory": "128Mi"}},
        security={"allowPrivilegeEscalation": False, "capabilities": {"add": ["NET_ADMIN", "NET_RAW"], "drop": ["ALL"]},
                  "privileged": False, "readOnlyRootFilesystem": False, "runAsGroup": 0, "runAsNonRoot": False, "runAsUser": 0},
        args=["istio-iptables", "-p", "15001", "-z", "15006", "-u", "1337", "-m", "REDIRECT", "-i", "*", "-x", "",
              "-b", "*", "-d", "15090,15021,15020", "--log_output_level=default:info"],
    )
    volumes = [
        {"emptyDir": {}, "name": "workload-socket"}, {"emptyDir": {}, "name": "credential-socket"},
        {"emptyDir": {}, "name": "workload-certs"}, {"emptyDir": {"medium": "Memory"}, "name": "istio-envoy"},
        {"emptyDir": {}, "name": "istio-data"},
        {"downwardAPI": {"defaultMode": 420, "items": [
            {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}, "path": "labels"},
            {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.annotations"}, "path": "annotations"}]}, "name": "istio-podinfo"},
        {"name": "istio-token", "projected": {"defaultMode": 420, "sources": [
            {"serviceAccountToken": {"audience": "istio-ca", "expirationSeconds": 43200, "path": "istio-token"}}]}},
        {"configMap": {"defaultMode": 420, "name": "istio-ca-root-cert"}, "name": "istiod-ca-cert"},
    ]
    status = {"initContainers": ["istio-init"], "containers": ["istio-proxy"],
              "volumes": [v["name"] for v in volumes], "imagePullSecrets": None, "revision": "default"}
    injected = {
        **spec,
        "containers": [*spec["containers"], proxy],
        "initContainers": [*spec.get("initContainers", []), init],
        "volumes": [*spec.get("volumes", []), *volumes],
    }
    new_annotations = {
        **annotations,
        "istio.io/rev": "default",
        "kubectl.kubernetes.io/default-container": spec["containers"][0]["name"],
        "kubectl.kubernetes.io/default-logs-container": spec["containers"][0]["name"],
        "prometheus.io/path": "/stats/prometheus", "prometheus.io/port": "15020", "prometheus.io/scrape": "true",
        "sidecar.istio.io/status": json.dumps(status, separators=_COMPACT),
    }
    return injected, dict(sorted(new_annotations.items()))


def _inject_linkerd(spec: dict[str, Any], annotations: dict[str, str], app: str, namespace: str,
                    service_account: str) -> tuple[dict[str, Any], dict[str, str]]:
    version = "stable-2.14.10"
    identity = f"{service_account}.{namespace}.serviceaccount.identity.linkerd.cluster.local"
    env = [
        {"name": "_pod_name", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}},
        {"name": "_pod_ns", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}},
        {"name": "_pod_nodeName", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "spec.nodeName"}}},
        {"name": "LINKERD2_PROXY_LOG", "value": "warn,linkerd=info,hickory=error"},
        {"name": "LINKERD2_PROXY_LOG_FORMAT", "value": "plain"},
        {"name": "LINKERD2_PROXY_DESTINATION_SVC_ADDR", "value": "linkerd-dst-headless.linkerd.svc.cluster.local.:8086"},
        {"name": "LINKERD2_PROXY_DESTINATION_PROFILE_NETWORKS", "value": "10.0.0.0/8,100.64.0.0/10,172.16.0.0/12,192.168.0.0/16"},
        {"name": "LINKERD2_PROXY_POLICY_SVC_ADDR", "value": "linkerd-policy.linkerd.svc.cluster.local.:8090"},
        {"name": "LINKERD2_PROXY_POLICY_WORKLOAD", "value": '{"ns":"$(_pod_ns)", "pod":"$(_pod_name)"}\n'},
        {"name": "LINKERD2_PROXY_INBOUND_DEFAULT_POLICY", "value": "all-unauthenticated"},
        {"name": "LINKERD2_PROXY_POLICY_CLUSTER_NETWORKS", "value": "10.0.0.0/8,100.64.0.0/10,172.16.0.0/12,192.168.0.0/16"},
        {"name": "LINKERD2_PROXY_CONTROL_STREAM_INITIAL_TIMEOUT", "value": "3s"},
        {"name": "LINKERD2_PROXY_CONTROL_STREAM_IDLE_TIMEOUT", "value": "5m"},
        {"name": "LINKERD2_PROXY_CONTROL_STREAM_LIFETIME", "value": "1h"},
        {"name": "LINKERD2_PROXY_INBOUND_CONNECT_TIMEOUT", "value": "100ms"},
        {"name": "LINKERD2_PROXY_OUTBOUND_CONNECT_TIMEOUT", "value": "1000ms"},
        {"name": "LINKERD2_PROXY_OUTBOUND_DISCOVERY_IDLE_TIMEOUT", "value": "5s"},
        {"name": "LINKERD2_PROXY_INBOUND_DISCOVERY_IDLE_TIMEOUT", "value": "90s"},
        {"name": "LINKERD2_PROXY_CONTROL_LISTEN_ADDR", "value": "0.0.0.0:4190"},
        {"name": "LINKERD2_PROXY_ADMIN_LISTEN_ADDR", "value": "0.0.0.0:4191"},
        {"name": "LINKERD2_PROXY_OUTBOUND_LISTEN_ADDR", "value": "127.0.0.1:4140"},
        {"name": "LINKERD2_PROXY_INBOUND_LISTEN_ADDR", "value": "0.0.0.0:4143"},
        {"name": "LINKERD2_PROXY_INBOUND_IPS", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "status.podIPs"}}},
        {"name": "LINKERD2_PROXY_INBOUND_PORTS", "value": ",".join(str(p["containerPort"]) for p in spec["containers"][0].get("ports", []))},
        {"name": "LINKERD2_PROXY_DESTINATION_PROFILE_SUFFIXES", "value": "svc.cluster.local."},
        {"name": "LINKERD2_PROXY_INBOUND_ACCEPT_KEEPALIVE", "value": "10000ms"},
        {"name": "LINKERD2_PROXY_OUTBOUND_CONNECT_KEEPALIVE", "value": "10000ms"},
        {"name": "LINKERD2_PROXY_INBOUND_PORTS_DISABLE_PROTOCOL_DETECTION", "value": "25,587,3306,4444,5432,6379,9300,11211"},
        {"name": "LINKERD2_PROXY_DESTINATION_CONTEXT", "value": '{"ns":"$(_pod_ns)", "nodeName":"$(_pod_nodeName)", "pod":"$(_pod_name)"}\n'},
        {"name": "_pod_sa", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "spec.serviceAccountName"}}},
        {"name": "_l5d_ns", "value": "linkerd"}, {"name": "_l5d_trustdomain", "value": "cluster.local"},
        {"name": "LINKERD2_PROXY_IDENTITY_DIR", "value": "/var/run/linkerd/identity/end-entity"},
        {"name": "LINKERD2_PROXY_IDENTITY_TRUST_ANCHORS", "valueFrom": {"configMapKeyRef": {"key": "ca-bundle.crt", "name": "linkerd-identity-trust-roots"}}},
        {"name": "LINKERD2_PROXY_IDENTITY_TOKEN_FILE", "value": "/var/run/secrets/tokens/linkerd-identity-token"},
        {"name": "LINKERD2_PROXY_IDENTITY_SVC_ADDR", "value": "linkerd-identity-headless.linkerd.svc.cluster.local.:8080"},
        {"name": "LINKERD2_PROXY_IDENTITY_LOCAL_NAME", "value": "$(_pod_sa).$(_pod_ns).serviceaccount.identity.linkerd.cluster.local"},
        {"name": "LINKERD2_PROXY_IDENTITY_SVC_NAME", "value": "linkerd-identity.linkerd.serviceaccount.identity.linkerd.cluster.local"},
        {"name": "LINKERD2_PROXY_DESTINATION_SVC_NAME", "value": "linkerd-destination.linkerd.serviceaccount.identity.linkerd.cluster.local"},
        {"name": "LINKERD2_PROXY_POLICY_SVC_NAME", "value": "linkerd-destination.linkerd.serviceaccount.identity.linkerd.cluster.local"},
    ]
    mounts = [{"mountPath": "/var/run/linkerd/identity/end-entity", "name": "linkerd-identity-end-entity"},
              {"mountPath": "/var/run/secrets/tokens", "name": "linkerd-identity-token"}]
    proxy = api_container(
        "linkerd-proxy", f"cr.l5d.io/linkerd/proxy:{version}", env=env,
        ports=[{"containerPort": 4143, "name": "linkerd-proxy", "protocol": "TCP"},
               {"containerPort": 4191, "name": "linkerd-admin", "protocol": "TCP"}],
        liveness=http_probe("/live", 4191, 10), readiness=http_probe("/ready", 4191, 2), mounts=mounts,
        security={"allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True, "runAsNonRoot": True, "runAsUser": 2102,
                  "seccompProfile": {"type": "RuntimeDefault"}},
    )
    init = api_container(
        "linkerd-init", "cr.l5d.io/linkerd/proxy-init:v2.2.4",
        resources={"limits": {"cpu": "100m", "memory": "20Mi"}, "requests": {"cpu": "100m", "memory": "20Mi"}},
        mounts=[{"mountPath": "/run", "name": "linkerd-proxy-init-xtables-lock"}],
        security={"allowPrivilegeEscalation": False, "capabilities": {"add": ["NET_ADMIN", "NET_RAW"]}, "privileged": False,
                  "readOnlyRootFilesystem": True, "runAsNonRoot": True, "runAsUser": 65534},
        args=["--incoming-proxy-port", "4143", "--outgoing-proxy-port", "4140", "--proxy-uid", "2102",
              "--inbound-ports-to-ignore", "4190,4191,4567,4568", "--outbound-ports-to-ignore", "4567,4568"],
    )
    volumes = [
        {"emptyDir": {}, "name": "linkerd-proxy-init-xtables-lock"},
        {"emptyDir": {"medium": "Memory"}, "name": "linkerd-identity-end-entity"},
        {"name": "linkerd-identity-token", "projected": {"defaultMode": 420, "sources": [
            {"serviceAccountToken": {"audience": "identity.l5d.io", "expirationSeconds": 86400, "path": "linkerd-identity-token"}}]}},
    ]
    injected = {
        **spec,
        "containers": [proxy, *spec["containers"]],  # linkerd puts its proxy first
        "initContainers": [init, *spec.get("initContainers", [])],
        "volumes": [*spec.get("volumes", []), *volumes],
    }
    new_annotations = {
        **annotations,
        "linkerd.io/created-by": f"linkerd/proxy-injector {version}",
        "linkerd.io/inject": "enabled",
        "linkerd.io/proxy-version": version,
        "linkerd.io/trust-root-sha256": hashlib.sha256(b"linkerd-trust-root").hexdigest(),
        "viz.linkerd.io/tap-enabled": "true",
        "linkerd.io/identity-mode": "default",
        "config.linkerd.io/default-inbound-policy": "all-unauthenticated",
        "example.com/mesh-identity": identity,
    }
    return injected, dict(sorted(new_annotations.items()))


# -- Windows ------------------------------------------------------------------------------------

WINDOWS_TOLERATION = {"effect": "NoSchedule", "key": "os", "operator": "Equal", "value": "windows"}


def windows_app(ctx: Context, spec: dict[str, Any], app: str, team: str, version: str) -> dict[str, Any]:
    """A Linux app spec turned into the .NET on Windows Server one it would be on a Windows pool."""
    rng = ctx.rng
    containers = []
    for c in spec["containers"]:
        c = dict(c)
        if c["image"].startswith("registry.example.com/"):
            c["image"] = f"registry.example.com/{team}/{app.removeprefix(team + '-')}-win:{version}-ltsc2022"
            c["command"] = ["powershell.exe", "-NoLogo", "-Command",
                            f"C:\\app\\{app}.exe --urls http://0.0.0.0:8080 --contentRoot C:\\app --config C:\\config\\appsettings.json"]
            env = list(c.get("env", []))
            env += [{"name": "ASPNETCORE_ENVIRONMENT", "value": "Production"},
                    {"name": "DOTNET_gcServer", "value": "1"},
                    {"name": "APP_DATA", "value": f"C:\\ProgramData\\{app}\\data"},
                    {"name": "LOG_PATH", "value": f"C:\\logs\\{app}\\app-.log"}]
            c["env"] = env
        c["securityContext"] = {"windowsOptions": {"runAsUserName": rng.choice(["ContainerUser", "ContainerAdministrator"])}}
        c["volumeMounts"] = [{**m, "mountPath": "C:" + m["mountPath"].replace("/", "\\")} for m in c.get("volumeMounts", [])]
        containers.append(c)
    windows_spec = {**spec, "containers": containers, "nodeSelector": {"kubernetes.io/os": "windows"},
                    "tolerations": [*spec.get("tolerations", []), WINDOWS_TOLERATION],
                    "securityContext": {"windowsOptions": {"runAsUserName": "ContainerUser"}}}
    windows_spec.pop("initContainers", None)
    return windows_spec


WINDOWS_DAEMONSETS = (
    {"namespace": "kube-system", "name": "kube-proxy-windows", "image": "sigwindowstools/kube-proxy:v1.29.4-calico-hostprocess",
     "command": ["%CONTAINER_SANDBOX_MOUNT_POINT%/kube-proxy/start.ps1"]},
    {"namespace": "calico-system", "name": "calico-node-windows", "image": "docker.io/calico/node-windows:v3.27.3",
     "command": ["%CONTAINER_SANDBOX_MOUNT_POINT%/opt/cni/bin/calico-node.exe", "-startup"]},
    {"namespace": "monitoring", "name": "windows-exporter", "image": "ghcr.io/prometheus-community/windows-exporter:0.25.1",
     "command": ["%CONTAINER_SANDBOX_MOUNT_POINT%/windows_exporter.exe", "--config.file=%CONTAINER_SANDBOX_MOUNT_POINT%/config.yml"]},
)


def windows_daemonset_spec(entry: dict[str, Any]) -> dict[str, Any]:
    """A hostProcess DaemonSet's pod spec (Windows nodes only)."""
    main = api_container(
        entry["name"].removesuffix("-windows"), entry["image"], command=entry["command"],
        env=[{"name": "NODENAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "spec.nodeName"}}},
             {"name": "KUBE_NETWORK", "value": "Calico.*"}, {"name": "CNI_BIN_DIR", "value": "c:\\opt\\cni\\bin"},
             {"name": "CNI_CONF_DIR", "value": "c:\\etc\\cni\\net.d"}],
        resources={"requests": {"cpu": "100m", "memory": "128Mi"}},
    )
    return {
        "containers": [main],
        "dnsPolicy": "ClusterFirst", "restartPolicy": "Always", "schedulerName": "default-scheduler",
        "terminationGracePeriodSeconds": 30,
        "hostNetwork": True,
        "nodeSelector": {"kubernetes.io/os": "windows"},
        "priorityClassName": "system-node-critical",
        "securityContext": {"windowsOptions": {"hostProcess": True, "runAsUserName": "NT AUTHORITY\\system"}},
        "serviceAccount": entry["name"], "serviceAccountName": entry["name"],
        "tolerations": [{"operator": "Exists"}],
        "priority": 2000001000,
    }


def extra_daemonsets(count: int) -> list[dict[str, Any]]:
    """DaemonSets of a large cluster beyond the usual five, each on the share of nodes it targets."""
    agents = [
        ("gpu-operator", "nvidia-device-plugin", "nvcr.io/nvidia/k8s-device-plugin:v0.15.0", 0.04),
        ("gpu-operator", "dcgm-exporter", "nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5-3.4.1-ubuntu22.04", 0.04),
        ("kube-system", "node-local-dns", "registry.k8s.io/dns/k8s-dns-node-cache:1.23.0", 0.05),
        ("kube-system", "efs-csi-node", "public.ecr.aws/efs-csi-driver/amazon/aws-efs-csi-driver:v2.0.1", 0.03),
        ("security", "falco", "docker.io/falcosecurity/falco-no-driver:0.37.1", 0.05),
        ("security", "crowdstrike-falcon", "registry.example.com/security/falcon-sensor:7.14", 0.03),
        ("monitoring", "datadog-agent", "gcr.io/datadoghq/agent:7.53.0", 0.05),
        ("monitoring", "process-exporter", "docker.io/ncabatoff/process-exporter:0.7.10", 0.02),
        ("logging", "vector-agent", "docker.io/timberio/vector:0.37.1-distroless-libc", 0.03),
        ("kube-system", "ip-masq-agent", "registry.k8s.io/networking/ip-masq-agent:v2.9.3", 0.04),
        ("kube-system", "node-problem-detector", "registry.k8s.io/node-problem-detector/node-problem-detector:v0.8.19", 0.05),
        ("storage", "longhorn-manager", "docker.io/longhornio/longhorn-manager:v1.6.1", 0.02),
        ("kube-system", "secrets-store-csi-driver", "registry.k8s.io/csi-secrets-store/driver:v1.4.3", 0.03),
        ("istio-system", "istio-cni-node", "docker.io/istio/install-cni:1.21.2", 0.03),
        ("kube-system", "kured", "ghcr.io/kubereboot/kured:1.15.0", 0.02),
    ]
    return [{"namespace": ns, "name": name, "image": image, "cpu": "50m", "memory": "64Mi",
             "host_paths": ["/var/lib/kubelet", "/sys"], "privileged": "csi" in name or "falco" in name,
             "port": 9100 + i, "node_share": share}
            for i, (ns, name, image, share) in enumerate(agents[:count])]
