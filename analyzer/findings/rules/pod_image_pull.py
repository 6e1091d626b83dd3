"""Images that cannot be pulled (ImagePullBackOff, ErrImagePull, InvalidImageName)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import events_by_object
from analyzer.findings.facts import objects_named, pod_containers, waiting_containers
from analyzer.findings.ownership import owners
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta
from analyzer.kube.platform import OS_LABELS, node_os

if TYPE_CHECKING:
    from analyzer.ingest.records import KubeObject

RULE = RuleMeta(
    id="pod-image-pull", title="Image cannot be pulled", severity="critical",
    category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name} cannot pull image(s) {images} ({reasons}){platform}",
    remediation="Check the image name and tag exist, the registry is reachable from the nodes, and imagePullSecrets grant access.",
)
REASONS = frozenset({"ImagePullBackOff", "ErrImagePull", "InvalidImageName", "ErrImageNeverPull",
                     "RegistryUnavailable"})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for pod in pod_suspects(cluster).of("waiting", "text"):
        evidence = waiting_containers(pod, REASONS)
        if not evidence:
            continue
        failing = {e.field.split("[name=")[1].split("]")[0] for e in evidence if "[name=" in e.field}
        images = sorted({(spec.image if spec else status.image) or "?"
                         for _t, spec, status in pod_containers(pod)
                         if (spec or status).name in failing}) or _template_images(cluster, pod) \
            or _event_images(cluster, pod) or ["not named in the table"]
        yield RULE.fail(pod, *evidence, images=", ".join(images),
                        reasons=", ".join(sorted({str(e.seen) for e in evidence})), platform=_platform(cluster, pod))


def _template_images(cluster: AnalyzedDump, pod: KubeObject) -> list[str]:
    """The images of the pod's controller's template, for a pod pasted from a table (its row
    names no image, the controller's IMAGES column or spec does)."""
    for owner in owners(cluster, pod):
        template = getattr(owner.view.spec, "template", None)
        images = sorted({c.image for c in template.spec.containers or () if c.image}) if template else []
        if images:
            return images
    return []


# The kubelet's events name the image it fails on: `Failed to pull image "x": ...`,
# `Back-off pulling image "x"` (a `Pulling image` alone may be a pull that worked).
FAILED_PULL = re.compile(r'(?:Failed to pull image|Back-off pulling image) "([^"]+)"')


def _event_images(cluster: AnalyzedDump, pod: KubeObject) -> list[str]:
    """The images the pod's own events say fail to pull, for a pod pasted from a table with its
    events pasted too (`get pods` then `get events` or a describe's Events): said as theirs."""
    images = sorted({m.group(1) for f in events_by_object(cluster).get(("Pod", pod.namespace, pod.name), ())
                     if (m := FAILED_PULL.search(f.message or ""))})
    return [f"{', '.join(images)} (named by its events)"] if images else []


# The runtimes' words for an image with no build for the node's OS or architecture: docker's
# `no matching manifest for windows/amd64 10.0.17763 in the manifest list entries`,
# containerd's `no match for platform in manifest`, docker on Windows's
# `image operating system "linux" cannot be used on this platform`.
NO_PLATFORM = re.compile(r'no matching manifest for [\w/.-]+(?: [\d.]+)?|no match for platform in manifest'
                         r'|image operating system "\w+" cannot be used on this platform')
def _platform(cluster: AnalyzedDump, pod: KubeObject) -> str:
    """Where the pull fails for the node's OS: "; the image has no build for the platform of
    Windows node win-1 (no match for platform in manifest), and the pod selects no OS
    (kubernetes.io/os)" as its container states or events say, or "; it is on Windows node win-1
    and selects no OS ..." where they do not; '' otherwise."""
    spec = pod.view.spec
    node = objects_named(cluster, "Node").get(("", spec.nodeName)) if spec.nodeName else None
    os_name = node_os(node.view.status.nodeInfo, node.view.metadata.labels) if node is not None else None
    on_node = f" of {os_name.capitalize()} node {spec.nodeName}" if os_name else ""
    said = [status.state.waiting.message for _t, _spec, status in pod_containers(pod)
            if status is not None and status.state and status.state.waiting and status.state.waiting.message]
    said += [f.message for f in events_by_object(cluster).get(("Pod", pod.namespace, pod.name), ()) if f.message]
    found = next((m.group(0) for text in said if (m := NO_PLATFORM.search(text))), None)
    # a pasted row shows no node selector; a describe does (`Node-Selectors: <none>`)
    knows_selector = pod.view.text is None or pod.provenance.format == "describe"
    selects_os = any(key in (spec.nodeSelector or {}) for key in OS_LABELS) or (
        pod.view.text is None and bool((pod.body().get("spec") or {}).get("os")))
    unselected = ", and the pod selects no OS (kubernetes.io/os)" if knows_selector and not selects_os else ""
    if found:
        return f"; the image has no build for the platform{on_node} ({found}){unselected}"
    if os_name == "windows" and unselected:
        return (f"; it is on Windows node {spec.nodeName}{unselected}: an image built for Linux only"
                " cannot be pulled there")
    return ""
