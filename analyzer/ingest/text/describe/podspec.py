"""Pod spec parts of a describe (containers, volumes, probes, env, mounts), for pods and templates."""

from __future__ import annotations

import re
from typing import Any

from analyzer.ingest.text.describe.sections import child_map, key_values, raw_lines, tolerations
from analyzer.ingest.text.describe.tree import Entry
from analyzer.ingest.text.values import boolean, cell, describe_time, int_or_string, integer

_PORT = re.compile(r"^(\d+)/([A-Z]+)$")
_MOUNT = re.compile(r"^(?P<path>\S.*?) from (?P<volume>\S+) \((?P<opts>[^)]*)\)$")
# kubectl writes references as `<resolved value> (<reference>)`; the value may be empty.
_FIELD_REF = re.compile(r"^(?:.*? )?\((?P<version>v\d+\w*):(?P<path>[^)]+)\)$")
_RESOURCE_REF = re.compile(r"^(?:.*? )?\((?P<resource>(?:limits|requests)\.[\w.-]+)\)$")
_KEY_REF = re.compile(
    r"^<set to the key '(?P<key>[^']*)' (?:in|of) (?P<kind>secret|config map) '(?P<name>[^']*)'>"
    r"(?:\s+Optional: (?P<optional>\w+))?$"
)
_PROBE_FLAGS = {
    "delay": "initialDelaySeconds", "timeout": "timeoutSeconds", "period": "periodSeconds",
    "#success": "successThreshold", "#failure": "failureThreshold",
}
# Volume type words describe prints -> the API's volume source field and its describe fields.
_VOLUME_SOURCES: dict[str, tuple[str, dict[str, str]]] = {
    "ConfigMap": ("configMap", {"Name": "name", "Optional": "optional"}),
    "Secret": ("secret", {"SecretName": "secretName", "Optional": "optional"}),
    "HostPath": ("hostPath", {"Path": "path", "HostPathType": "type"}),
    "EmptyDir": ("emptyDir", {"Medium": "medium", "SizeLimit": "sizeLimit"}),
    "PersistentVolumeClaim": ("persistentVolumeClaim", {"ClaimName": "claimName", "ReadOnly": "readOnly"}),
    "NFS": ("nfs", {"Server": "server", "Path": "path", "ReadOnly": "readOnly"}),
    "CSI": ("csi", {"Driver": "driver", "FSType": "fsType", "ReadOnly": "readOnly"}),
    "DownwardAPI": ("downwardAPI", {}),
}
_BOOLEAN_FIELDS = frozenset({"optional", "readOnly"})


def ports(text: str | None, field_name: str) -> list[dict[str, Any]]:
    """`8080/TCP, 8443/TCP` as container ports (`containerPort` or non-zero `hostPort`).

    >>> ports("53/UDP, 9153/TCP", "containerPort")
    [{'containerPort': 53, 'protocol': 'UDP'}, {'containerPort': 9153, 'protocol': 'TCP'}]
    """
    found = []
    for part in (cell(text) or "").split(","):
        match = _PORT.match(part.strip())
        if match and int(match.group(1)):
            found.append({field_name: int(match.group(1)), "protocol": match.group(2)})
    return found


def probe(text: str | None) -> dict[str, Any] | None:
    """A probe line (`http-get http://:8080/health delay=60s timeout=5s ...`) as an API probe.

    >>> probe("http-get http://:8080/health delay=60s timeout=5s period=10s #success=1 #failure=5")
    {'httpGet': {'path': '/health', 'port': 8080, 'scheme': 'HTTP'}, 'initialDelaySeconds': 60, 'timeoutSeconds': 5, 'periodSeconds': 10, 'successThreshold': 1, 'failureThreshold': 5}
    >>> probe("exec [cat /tmp/healthy] delay=5s")
    {'exec': {'command': ['cat', '/tmp/healthy']}, 'initialDelaySeconds': 5}
    """
    text = cell(text)
    if not text:
        return None
    result: dict[str, Any] = {}
    head, _, flags = text.partition(" delay=")
    flags = "delay=" + flags if flags else ""
    match = re.match(r"^http-get (?P<scheme>https?)://(?P<host>[^:/]*):(?P<port>[^/]+)(?P<path>/\S*)?", head)
    if match:
        http: dict[str, Any] = {"path": match.group("path") or "/",
                                "port": int_or_string(match.group("port")),
                                "scheme": match.group("scheme").upper()}
        if match.group("host"):
            http["host"] = match.group("host")
        result["httpGet"] = http
    elif match := re.match(r"^tcp-socket (?P<host>[^:]*):(?P<port>\S+)", head):
        result["tcpSocket"] = {"port": int_or_string(match.group("port"))}
    elif match := re.match(r"^exec \[(?P<command>.*)\]", head):
        result["exec"] = {"command": match.group("command").split()}
    elif match := re.match(r"^grpc <pod>:(?P<port>\d+)", head):
        result["grpc"] = {"port": int(match.group("port"))}
    for flag in flags.split():
        name, _, value = flag.partition("=")
        if name in _PROBE_FLAGS and (number := re.match(r"^(\d+)", value)):
            result[_PROBE_FLAGS[name]] = int(number.group(1))
    return result or None


def env_var(name: str, value: str) -> dict[str, Any]:
    """One Environment line as an API env var (references stay references; no secret values).

    >>> env_var("NODE_NAME", "(v1:spec.nodeName)")
    {'name': 'NODE_NAME', 'valueFrom': {'fieldRef': {'apiVersion': 'v1', 'fieldPath': 'spec.nodeName'}}}
    >>> env_var("GOMAXPROCS", "1 (limits.cpu)")
    {'name': 'GOMAXPROCS', 'valueFrom': {'resourceFieldRef': {'resource': 'limits.cpu'}}}
    >>> env_var("PASSWORD", "<set to the key 'pw' in secret 'db'>  Optional: false")
    {'name': 'PASSWORD', 'valueFrom': {'secretKeyRef': {'key': 'pw', 'name': 'db', 'optional': False}}}
    """
    var: dict[str, Any] = {"name": name}
    if match := _FIELD_REF.match(value):
        var["valueFrom"] = {"fieldRef": {"apiVersion": match.group("version"),
                                         "fieldPath": match.group("path")}}
    elif match := _KEY_REF.match(value):
        ref_kind = "secretKeyRef" if match.group("kind") == "secret" else "configMapKeyRef"
        ref: dict[str, Any] = {"key": match.group("key"), "name": match.group("name")}
        if (optional := boolean(match.group("optional"))) is not None:
            ref["optional"] = optional
        var["valueFrom"] = {ref_kind: ref}
    elif match := _RESOURCE_REF.match(value):
        var["valueFrom"] = {"resourceFieldRef": {"resource": match.group("resource")}}
    else:
        var["value"] = value
    return var


def mounts(lines: list[str]) -> list[dict[str, Any]]:
    """Mount lines (`/etc/x from config (ro,path="a.conf")`) as volumeMounts.

    >>> mounts(['/etc/coredns from config-volume (ro)', '/data from data (rw,path="sub")'])
    [{'mountPath': '/etc/coredns', 'name': 'config-volume', 'readOnly': True}, {'mountPath': '/data', 'name': 'data', 'subPath': 'sub'}]
    """
    found = []
    for line in lines:
        match = _MOUNT.match(line)
        if not match:
            continue
        mount: dict[str, Any] = {"mountPath": match.group("path"), "name": match.group("volume")}
        options = match.group("opts").split(",")
        if "ro" in options:
            mount["readOnly"] = True
        for option in options:
            if option.startswith("path="):
                mount["subPath"] = option[5:].strip('"')
        found.append(mount)
    return found


def container_state(entry: Entry | None) -> dict[str, Any] | None:
    """`State: Waiting` / `Running` / `Terminated` with its detail lines, in API form."""
    if entry is None or not cell(entry.value):
        return None
    word = entry.value.split()[0].lower()
    if word not in ("waiting", "running", "terminated"):
        return None
    detail: dict[str, Any] = {}
    for child in entry.children:
        value = cell(child.value)
        if value is None:
            continue
        if child.key in ("Started", "Finished"):
            target = "startedAt" if child.key == "Started" else "finishedAt"
            detail[target] = describe_time(value) or value
        elif child.key == "Exit Code":
            detail["exitCode"] = integer(value)
        elif child.key == "Signal":
            detail["signal"] = integer(value)
        elif child.key in ("Reason", "Message"):
            detail[child.key.lower()] = value
    return {word: detail}


def containers(section: Entry | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A Containers / Init Containers section as (spec containers, container statuses)."""
    specs: list[dict[str, Any]] = []
    statuses: list[dict[str, Any]] = []
    for item in section.children if section else []:
        spec: dict[str, Any] = {"name": item.key}
        if image := cell(item.child_value("Image")):
            spec["image"] = image
        if command := raw_lines(item.child("Command")):
            spec["command"] = command
        if args := raw_lines(item.child("Args")):
            spec["args"] = args
        found_ports = ports(item.child_value("Ports") or item.child_value("Port"), "containerPort")
        host_ports = ports(item.child_value("Host Ports") or item.child_value("Host Port"), "hostPort")
        for port, host in zip(found_ports, host_ports, strict=False):
            port["hostPort"] = host["hostPort"]
        if found_ports:
            spec["ports"] = found_ports
        resources = {part.lower(): child_map(item.child(part)) for part in ("Limits", "Requests")}
        if resources := {k: v for k, v in resources.items() if v}:
            spec["resources"] = resources
        for key, target in (("Liveness", "livenessProbe"), ("Readiness", "readinessProbe"),
                            ("Startup", "startupProbe")):
            if found := probe(item.child_value(key)):
                spec[target] = found
        if (env := item.child("Environment")) and env.children:
            spec["env"] = [env_var(child.key, child.value) for child in env.children]
        if volume_mounts := mounts(raw_lines(item.child("Mounts"))):
            spec["volumeMounts"] = volume_mounts
        specs.append(spec)
        if status := _container_status(item, spec):
            statuses.append(status)
    return specs, statuses


def _container_status(item: Entry, spec: dict[str, Any]) -> dict[str, Any] | None:
    status: dict[str, Any] = {"name": item.key}
    if container_id := cell(item.child_value("Container ID")):
        status["containerID"] = container_id
    if "image" in spec and item.child("Container ID") is not None:
        status["image"] = spec["image"]
    if image_id := cell(item.child_value("Image ID")):
        status["imageID"] = image_id
    if (ready := boolean(item.child_value("Ready"))) is not None:
        status["ready"] = ready
    if (count := integer(item.child_value("Restart Count"))) is not None:
        status["restartCount"] = count
    if state := container_state(item.child("State")):
        status["state"] = state
    if last := container_state(item.child("Last State")):
        status["lastState"] = last
    return status if len(status) > 1 else None


def volumes(section: Entry | None) -> list[dict[str, Any]]:
    """A Volumes section as API volumes (types describe names; others keep only the name)."""
    found: list[dict[str, Any]] = []
    for item in section.children if section else []:
        volume: dict[str, Any] = {"name": item.key}
        type_word = (item.child_value("Type") or "").split(" (")[0]
        if type_word == "Projected":
            volume["projected"] = {"sources": _projected_sources(item)}
        elif type_word in _VOLUME_SOURCES:
            target, fields = _VOLUME_SOURCES[type_word]
            source: dict[str, Any] = {}
            for describe_key, api_key in fields.items():
                value = cell(item.child_value(describe_key))
                if value is None:
                    continue
                source[api_key] = boolean(value) if api_key in _BOOLEAN_FIELDS else value
            volume[target] = source
        found.append(volume)
    return found


def _projected_sources(item: Entry) -> list[dict[str, Any]]:
    sources: list[dict[str, Any]] = []
    if (seconds := integer(item.child_value("TokenExpirationSeconds"))) is not None:
        sources.append({"serviceAccountToken": {"expirationSeconds": seconds, "path": "token"}})
    if name := cell(item.child_value("ConfigMapName")):
        sources.append({"configMap": {"name": name}})
    if boolean(item.child_value("DownwardAPI")):
        sources.append({"downwardAPI": {}})
    return sources


def pod_spec(root: Entry) -> dict[str, Any]:
    """The pod spec parts a pod describe or a Pod Template section states."""
    spec: dict[str, Any] = {}
    init, _ = containers(root.child("Init Containers"))
    if init:
        spec["initContainers"] = init
    main, _ = containers(root.child("Containers"))
    if main:
        spec["containers"] = main
    if found := volumes(root.child("Volumes")):
        spec["volumes"] = found
    for key, target in (("Service Account", "serviceAccountName"),
                        ("Priority Class Name", "priorityClassName"),
                        ("Runtime Class Name", "runtimeClassName")):
        if value := cell(root.child_value(key)):
            spec[target] = value
    if (selectors := root.child("Node-Selectors")) and (found := key_values(selectors.values, "=")):
        spec["nodeSelector"] = found
    if (entry := root.child("Tolerations")) and (found := tolerations(entry.values)):
        spec["tolerations"] = found
    return spec
