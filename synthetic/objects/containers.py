"""Containers as a manifest author writes them, and the defaults the API server adds to them."""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

from synthetic.ids import image_digest
from synthetic.objects import Obj

# The securityContext of a container that follows the `restricted` Pod Security Standard.
CONTAINER_SECURITY = {
    "allowPrivilegeEscalation": False,
    "capabilities": {"drop": ["ALL"]},
    "readOnlyRootFilesystem": True,
    "runAsNonRoot": True,
    "runAsUser": 10001,
}


def image_has_digest_or_tag(image: str) -> bool:
    """Whether the reference names a tag or a digest (else the runtime pulls `:latest`)."""
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
    """The repository part of the normalized reference (what an imageID's digest is appended to)."""
    ref = normalized_image(image)
    if "@" in ref:
        return ref.split("@", 1)[0]
    head, _, _tag = ref.rpartition(":")
    return head


@lru_cache(maxsize=4096)
def image_id(image: str) -> str:
    """The imageID a kubelet reports: the normalized repository at the image's (derived) digest."""
    return image_repo(image) + "@" + image_digest(image)


def default_probe(probe: Obj) -> Obj:
    """Apply the API server's defaults to a probe."""
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




def container(name: str, image: str, *, command: list[str] | None = None, args: list[str] | None = None,
              ports: list[Obj] | None = None, env: list[Obj] | None = None, env_from: list[Obj] | None = None,
              requests: dict[str, str] | None = None, limits: dict[str, str] | None = None,
              resources: Obj | None = None, mounts: list[Obj] | None = None, liveness: Obj | None = None,
              readiness: Obj | None = None, startup: Obj | None = None, security: Obj | None = None,
              pull: str | None = None) -> Obj:
    """A container as written in a manifest (`resources` whole, or its `requests` and `limits`)."""
    if resources is None:
        resources = {key: value for key, value in (("limits", limits), ("requests", requests)) if value}
    out: Obj = {"name": name, "image": image, "resources": resources}
    optional = {
        "command": command, "args": args, "ports": ports, "envFrom": env_from, "env": env, "volumeMounts": mounts,
        "livenessProbe": liveness, "readinessProbe": readiness, "startupProbe": startup, "imagePullPolicy": pull,
    }
    out.update((key, value) for key, value in optional.items() if value)
    if security is not None:
        out["securityContext"] = security
    return out


def api_container(name: str, image: str, **fields: Any) -> Obj:
    """A container as the API server returns it: `container(...)` with the API defaults applied."""
    return default_container(container(name, image, **fields))


def port(name: str | None, number: int, protocol: str = "TCP", host_port: int | None = None) -> Obj:
    """A container port as written in a manifest."""
    out: Obj = {}
    if name:
        out["name"] = name
    if host_port is not None:
        out["hostPort"] = host_port
    out["containerPort"] = number
    out["protocol"] = protocol
    return out


def mount(name: str, path: str, read_only: bool = False, sub_path: str | None = None) -> Obj:
    """A volume mount."""
    out: Obj = {"name": name}
    if read_only:
        out["readOnly"] = True
    out["mountPath"] = path
    if sub_path:
        out["subPath"] = sub_path
    return out


def http_probe(path: str, probe_port: int | str, initial: int = 0, period: int = 10, timeout: int = 1,
               failure: int = 3, host: str | None = None, scheme: str = "HTTP") -> Obj:
    """An HTTP GET probe with the API defaults (no initialDelaySeconds when 0, as the API omits it)."""
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
    """An exec probe with the API defaults."""
    out: Obj = {"exec": {"command": command}}
    if initial:
        out["initialDelaySeconds"] = initial
    out.update({"timeoutSeconds": timeout, "periodSeconds": period, "successThreshold": 1,
                "failureThreshold": failure})
    return out


def env_value(name: str, value: str) -> Obj:
    """An environment variable with a literal value."""
    return {"name": name, "value": value}


def env_field(name: str, path: str) -> Obj:
    """An environment variable from a pod field (the downward API)."""
    return {"name": name, "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": path}}}
